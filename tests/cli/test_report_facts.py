"""flopscope report of an imported run reads the summary facts stored with it (schema 010), not its op and
kernel rows, and prints exactly what the report of the trace itself (summarized from its rows) prints, in
every format that reads only the summary, on the bundled real traces."""
import glob
import os
import sqlite3
import unittest

from cli_helpers import CliTestCase, SOURCE_DIR, run

DATA = os.path.join(SOURCE_DIR, "tests", "data")
TRACES = sorted(glob.glob(os.path.join(DATA, "kineto", "*.json.gz")) +
                glob.glob(os.path.join(DATA, "nsys", "*.sqlite")) +
                glob.glob(os.path.join(DATA, "ncu", "*.csv")))
VARIANTS = [[], ["--format", "md"], ["--format", "csv"], ["--sort", "flops", "--depth", "2", "--top", "40"],
            ["--coverage", "--peak", "1e14:1e12"]]


def without_row_sections(report):
    """The report without the sections that read rows the facts do not hold: the per-iteration device
    section (from "per iteration (" to its summary line; kernel intervals) and the memory section (from
    "memory (" to the blank line that ends it; op intervals)."""
    out, until = [], None
    for line in report.split("\n"):
        if until is None and line.startswith("per iteration ("):
            until = lambda l: l.startswith("summary ")
        elif until is None and line.startswith("memory ("):
            until = lambda l: l == ""
        elif until is not None and until(line):
            until = None
            continue
        if until is None:
            out.append(line)
    return "\n".join(out)


class ReportFactsTest(CliTestCase):
    def test_imported_run_reports_as_its_trace(self):
        self.assertGreaterEqual(len(TRACES), 8)
        for trace in TRACES:
            name = os.path.basename(trace)
            with self.subTest(trace=name):
                db = self.path(name + ".db")
                run("import", trace, "-o", db, "--quiet", check=True)
                with sqlite3.connect(db) as c:
                    self.assertEqual(c.execute("SELECT count(*) FROM summary_run").fetchone()[0], 1)
                    modules = c.execute("SELECT count(*) FROM summary_module").fetchone()[0]
                    self.assertEqual(modules, c.execute("SELECT count(*) FROM module_node").fetchone()[0] or 1)
                for args in VARIANTS:
                    from_trace = run("report", trace, *args, check=True).stdout
                    from_db = run("report", db, *args, check=True).stdout
                    self.assertEqual(from_trace, from_db, f"{name} {' '.join(args)}")

    def test_report_reads_no_rows_when_the_facts_are_stored(self):
        # Rows that would change the report if they were read: the report must not change.
        trace = os.path.join(DATA, "kineto", "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
        db = self.path("bert.db")
        run("import", trace, "-o", db, "--quiet", check=True)
        before = run("report", db, check=True).stdout
        with sqlite3.connect(db) as c:
            c.execute("UPDATE op SET duration_ns = duration_ns * 1000")
            c.execute("UPDATE kernel SET duration_ns = duration_ns * 1000")
        after = run("report", db, check=True).stdout
        # Everything but the per-iteration device and memory sections comes from the facts; those read the
        # kernel and op rows (their intervals are not among the facts), and so see the change.
        self.assertEqual(without_row_sections(before), without_row_sections(after))
        self.assertNotEqual(before, after)
        # The kernel table reads the rows: it sees the change.
        self.assertNotEqual(run("report", db, "--kernels", check=True).stdout.split("\n")[-30:],
                            before.split("\n")[-30:])

    def test_damaged_facts_are_one_error_line(self):
        trace = os.path.join(DATA, "kineto", "hta__alexnet_a100__benchmark_result_2869224_1695835535_trace.json.gz")
        db = self.path("alexnet.db")
        run("import", trace, "-o", db, "--quiet", check=True)
        with sqlite3.connect(db) as c:
            c.execute("UPDATE summary_module SET device_ns = x'0102' WHERE rowid = 1")
        self.assertUsageError(run("report", db), "alexnet.db", "summary_module")


if __name__ == "__main__":
    unittest.main()
