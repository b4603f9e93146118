"""flopscope export --chrome-trace: the Perfetto hand-off loads back through `import` with the same ops,
kernels, modules and attribution (a round trip through the Kineto importer)."""
import gzip
import json
import os
import sqlite3
import unittest

from cli_helpers import CliTestCase, SOURCE_DIR, run, sample

BERT = os.path.join(SOURCE_DIR, "tests", "data", "kineto",
                    "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")


def facts(db):
    con = sqlite3.connect(db)
    q = lambda sql: con.execute(sql).fetchall()
    out = {
        "ops": q("SELECT count(*) FROM op")[0][0],
        "kernels": q("SELECT count(*) FROM kernel")[0][0],
        "kernels_linked": q("SELECT count(*) FROM kernel WHERE op_id IS NOT NULL")[0][0],
        "kernel_time": q("SELECT sum(duration_ns) FROM kernel")[0][0],
        "modules": sorted(r[0] for r in q("SELECT path FROM module")),
        "ops_per_module": q("SELECT m.path, count(*) FROM op o JOIN module m ON o.module_id = m.id "
                            "GROUP BY m.path ORDER BY m.path"),
        "kernels_per_module": q("SELECT m.path, count(*) FROM kernel k JOIN module m ON k.module_id = m.id "
                                "GROUP BY m.path ORDER BY m.path"),
    }
    con.close()
    return out


class Export(CliTestCase):
    def round_trip(self, source_db, name):
        trace = self.path(name)
        run("export", source_db, "--chrome-trace", trace, check=True)
        back = self.path("back.db")
        run("import", trace, "-o", back, check=True)
        return trace, facts(back)

    def test_gpu_trace_round_trip_keeps_kernels_ops_and_modules(self):
        a = self.path("a.db")
        run("import", BERT, "-o", a, check=True)
        trace, back = self.round_trip(a, "bert.json.gz")
        before = facts(a)
        self.assertEqual(before["kernels"], 61)
        self.assertEqual(back, before)
        with gzip.open(trace, "rt") as f:
            doc = json.load(f)
        cats = {e.get("cat") for e in doc["traceEvents"]}
        self.assertTrue({"cpu_op", "kernel", "user_annotation", "cuda_runtime", "ac2g"} <= cats, cats)
        flows = [e for e in doc["traceEvents"] if e.get("ph") in ("s", "f")]
        self.assertEqual(len(flows), 2 * before["kernels_linked"])

    def test_cpu_profile_round_trip_keeps_module_paths(self):
        a = self.path("v1.db")
        run("profile", sample("v1"), "--input", "int64[1,32]", "--iters", "2", "--warmup", "0", "-o", a,
            check=True)
        _, back = self.round_trip(a, "v1.json")
        before = facts(a)
        self.assertIn("layers.0.attn.position_adaptive_bias", back["modules"])
        self.assertEqual(back["modules"], before["modules"])
        self.assertEqual(back["ops_per_module"], before["ops_per_module"])
        self.assertEqual(back["ops"], before["ops"])

    def test_bad_output_name_is_one_line_and_writes_nothing(self):
        a = self.path("a.db")
        run("import", BERT, "-o", a, check=True)
        proc = run("export", a, "--chrome-trace", self.path("x.txt"))
        self.assertUsageError(proc, "x.txt")
        self.assertFalse(os.path.exists(self.path("x.txt")))


if __name__ == "__main__":
    unittest.main()
