"""Helpers for CLI tests: run the flopscope binary and check the one-line-error contract."""
import os
import sqlite3
import subprocess
import tempfile
import unittest

FLOPSCOPE = os.environ.get("FLOPSCOPE", "flopscope")
SAMPLES = os.environ.get("FLOPSCOPE_SAMPLES", "")
SOURCE_DIR = os.environ.get("FLOPSCOPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def run(*args, check=False):
    proc = subprocess.run([FLOPSCOPE, *args], capture_output=True, text=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"flopscope {' '.join(args)} exited {proc.returncode}: {proc.stderr}")
    return proc


def modules(db):
    """{module path: type} of a run database."""
    with sqlite3.connect(db) as c:
        return {path: type_ for path, type_ in c.execute("SELECT path, type FROM module")}


def documented_quality_codes():
    """The codes docs/data-quality.md lists (its table is checked against the catalogue by a unit test)."""
    with open(os.path.join(SOURCE_DIR, "docs", "data-quality.md")) as f:
        return {line.split("`")[1] for line in f if line.startswith("| `")}


def undocumented_quality_rows(db):
    """data_quality rows of a run database whose code is 'legacy' or not in the catalogue: none expected
    from this build's writers."""
    known = documented_quality_codes() - {"legacy"}
    with sqlite3.connect(db) as c:
        return [r for r in c.execute("SELECT code, what FROM data_quality") if r[0] not in known]


def sample(version):
    return os.path.join(SAMPLES, f"sonnet-mini-{version}.pt")


class CliTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertUsageError(self, proc, *needles):
        """Exit 2, exactly one line on stderr, starting with the error prefix and naming what is wrong."""
        self.assertEqual(proc.returncode, 2, proc.stderr)
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        self.assertEqual(len(lines), 1, f"expected one error line, got: {proc.stderr!r}")
        self.assertTrue(lines[0].startswith("flopscope: error: "), lines[0])
        for needle in needles:
            self.assertIn(needle, lines[0])

    def assertNoFilesLeft(self):
        self.assertEqual(sorted(os.listdir(self.dir)), sorted(self.expected_files()), "stray files left behind")

    def expected_files(self):
        return []


class SonnetMiniVerdicts:
    """The sonnet-mini verdicts any road to a run must give (TorchScript, the eager companion, an imported trace
    with weights): mixed into a TestCase whose `db` maps "v1", "v2", "v2z" to run databases."""

    def test_diff_vanished_and_erased(self):
        p = run("diff", self.db["v1"], self.db["v2"], "--expect-vanished", "*position_adaptive_bias*")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("VANISHED", p.stdout)
        self.assertIn("ERASED", p.stdout)

    def test_diff_dormant_and_zeroed(self):
        # The module still runs with zeroed weights, so the gate fails (exit 1).
        p = run("diff", self.db["v1"], self.db["v2z"], "--forbid-active", "*position_adaptive_bias*")
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("DORMANT", p.stdout)
        self.assertIn("ZEROED", p.stdout)
