"""LibTorch lives in libflopscope-torch.so, loaded on first use: the flopscope binary links neither LibTorch
nor the Qt 5 that Debian's LibTorch pulls in, and without the plugin only the commands that read models fail,
with one line, while databases and traces keep working."""
import os
import subprocess
import unittest

from cli_helpers import FLOPSCOPE, SOURCE_DIR, CliTestCase

PLUGIN = os.environ.get("FLOPSCOPE_TORCH_PLUGIN_FILE", "")
TRACE = os.path.join(SOURCE_DIR, "tests", "data", "kineto", "hta__alexnet_a100__benchmark_result_2869224_1695835535_trace.json.gz")


def ldd(path):
    proc = subprocess.run(["ldd", path], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise AssertionError(f"ldd {path}: {proc.stderr}")
    return proc.stdout.splitlines()


def torch_or_qt(lines):
    return [l for l in lines if "Qt" in l or "libtorch" in l or "libc10" in l]


class LinkedLibraries(unittest.TestCase):
    def test_cli_links_no_torch_and_no_qt(self):
        self.assertEqual(torch_or_qt(ldd(FLOPSCOPE)), [])

    def test_plugin_is_where_torch_is(self):
        # The control: the same check finds LibTorch (and its Qt 5) in the plugin.
        self.assertTrue(PLUGIN and os.path.exists(PLUGIN), PLUGIN)
        found = torch_or_qt(ldd(PLUGIN))
        self.assertTrue(any("libtorch_cpu" in l for l in found), found)


class MissingPlugin(CliTestCase):
    def setUp(self):
        super().setUp()
        self.missing = self.path("nowhere/libflopscope-torch.so")
        self.env = dict(os.environ, FLOPSCOPE_TORCH_PLUGIN=self.missing)

    def run_without_plugin(self, *args):
        return subprocess.run([FLOPSCOPE, *args], capture_output=True, text=True, timeout=600, env=self.env)

    def assertNoTorch(self, proc, model):
        """The one line: FILE: LibTorch support not available (dlerror's text, naming the plugin)."""
        self.assertUsageError(proc)
        line = proc.stderr.strip()
        self.assertTrue(line.startswith(f"flopscope: error: {model}: LibTorch support not available ("), line)
        self.assertIn(f"({self.missing}: cannot open shared object file", line)
        self.assertTrue(line.endswith(")"), line)

    def test_model_commands_fail_with_one_line(self):
        model = self.path("x.pt")
        with open(model, "wb") as f:
            f.write(b"PK not really a model")
        self.assertNoTorch(self.run_without_plugin("profile", model, "--input", "float32[1,4]", "-o", self.path("x.db")),
                           model)
        self.assertFalse(os.path.exists(self.path("x.db")))
        self.assertNoTorch(self.run_without_plugin("graph", model, "-o", self.path("x.dot")), model)
        self.assertFalse(os.path.exists(self.path("x.dot")))
        self.assertNoTorch(self.run_without_plugin("diff", model, model, "--input", "float32[1,4]"), model)

    def test_a_library_that_is_not_the_plugin(self):
        # Any shared library without the entry point: dlsym's text names the missing symbol.
        libz = next(l.split("=>")[1].split("(")[0].strip() for l in ldd(FLOPSCOPE) if "libz.so" in l)
        self.env["FLOPSCOPE_TORCH_PLUGIN"] = libz
        model = self.path("y.pt")
        open(model, "wb").close()
        p = self.run_without_plugin("graph", model, "-o", self.path("y.dot"))
        self.assertUsageError(p, f"{model}: LibTorch support not available (", "undefined symbol: flopscope_torch_plugin")

    def test_databases_and_traces_still_work(self):
        db = self.path("run.db")
        p = self.run_without_plugin("import", TRACE, "-o", db)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.run_without_plugin("report", db)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("FLOPs", p.stdout)
        p = self.run_without_plugin("diff", db, db)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = self.run_without_plugin("graph", db, "-o", self.path("run.dot"))
        # An imported trace's graph is drawn from its ops, without LibTorch.
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("LibTorch", p.stderr)
        with open(self.path("run.dot"), encoding="utf-8") as f:
            self.assertIn("no data flow", f.read())


if __name__ == "__main__":
    unittest.main()
