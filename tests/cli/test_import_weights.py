"""flopscope import TRACE --weights FILE: a trace with class-based module paths (the profiler's own
`nn.Module: <Class>_<k>` events, recorded without the companion) gets attribute paths from the weights the
model ran with, so `diff` joins weights (ERASED, ZEROED) as for TorchScript and `flopscope trace` runs; what
cannot be named is kept and listed."""
import argparse
import importlib.util
import os
import sqlite3
import subprocess
import tempfile
import unittest

from cli_helpers import SOURCE_DIR, CliTestCase, SonnetMiniVerdicts, modules, run, undocumented_quality_rows

PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "trace_programs", "kineto_class_paths.py")



def quality(db):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT code, count, severity, detail FROM data_quality").fetchall()


def named_modules(version):
    spec = importlib.util.spec_from_file_location(
        "make_sonnet_mini", os.path.join(SOURCE_DIR, "samples", "sonnet-mini", "make_sonnet_mini.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    ap = argparse.ArgumentParser()
    m.add_model_arguments(ap)
    return {name: type(mod).__name__ for name, mod in m.build(ap.parse_args([]))[version].named_modules()}


class ImportWithWeights(SonnetMiniVerdicts, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = {}
        cls.db = {}
        for v in ("v1", "v2", "v2z"):
            cls.dir[v] = os.path.join(cls.tmp.name, v)
            p = subprocess.run([PYTHON, RECORD, v, cls.dir[v]], capture_output=True, text=True, timeout=600)
            assert p.returncode == 0, p.stderr
            cls.db[v] = os.path.join(cls.tmp.name, v + ".db")
            p = run("import", os.path.join(cls.dir[v], "trace.json"), "--weights",
                    os.path.join(cls.dir[v], "weights.pt"), "-o", cls.db[v])
            assert p.returncode == 0, p.stderr
            if v == "v1":
                cls.import_stdout = p.stdout

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_without_weights_paths_are_class_based(self):
        db = os.path.join(self.tmp.name, "plain.db")
        run("import", os.path.join(self.dir["v1"], "trace.json"), "-o", db, check=True)
        got = modules(db)
        self.assertIn("Block_0.AttentionWithBias.PositionAdaptiveBias", got)
        self.assertNotIn("layers.0.attn.position_adaptive_bias", got)

    def test_paths_are_attribute_paths(self):
        got = modules(self.db["v1"])
        want = named_modules("v1")
        # Every called module with tensors of its own in the file gets its named_modules() path and class;
        # the ModuleList is never called; GELU has no tensors, so it keeps its class segment.
        for path, type_ in want.items():
            if path == "layers":
                continue
            if path.endswith(".act"):
                self.assertNotIn(path, got)
                self.assertEqual(got.get(path[: -len("act")] + "GELU"), "GELU", path)
                continue
            self.assertEqual(got.get(path), type_, path)
        self.assertEqual(len(got), len(want) - 1)
        self.assertEqual(got["layers.2.attn.position_adaptive_bias"], "PositionAdaptiveBias")
        self.assertIn("module paths from", self.import_stdout)

    def test_quality_rows_have_catalogue_codes(self):
        for v, db in self.db.items():
            self.assertEqual(undocumented_quality_rows(db), [], v)

    def test_unmapped_modules_are_listed(self):
        rows = {code: (count, severity, detail) for code, count, severity, detail in quality(self.db["v1"])}
        no_tensors = [r for w, r in rows.items() if w == "modules_without_own_tensors"]
        self.assertEqual(len(no_tensors), 1, rows)
        count, _, detail = no_tensors[0]
        self.assertEqual(count, 4)
        for i in range(4):
            self.assertIn(f"layers.{i}.mlp.GELU", detail)
        self.assertNotIn("modules_ambiguous_in_weights", rows)
        named = rows["paths_from_weights_file"]
        self.assertEqual(named[0], len(modules(self.db["v1"])) - 1 - 4)  # all but the root and the GELUs
        self.assertIn("by call order among look-alike siblings", named[2])

    def test_tensors_joined_to_modules(self):
        with sqlite3.connect(self.db["v1"]) as c:
            rows = c.execute("SELECT p.name, m.path FROM param p JOIN module m ON m.id = p.module_id").fetchall()
            count = c.execute("SELECT COUNT(*) FROM param").fetchone()[0]
        self.assertEqual(len(rows), count)
        owners = dict(rows)
        self.assertEqual(owners["layers.1.attn.position_adaptive_bias.weight"], "layers.1.attn.position_adaptive_bias")
        self.assertEqual(owners["layers.0.attn.k_proj.bias"], "layers.0.attn.k_proj")

    def test_safetensors_order_is_not_guessed(self):
        # A safetensors file keeps no registration order: look-alike siblings cannot be told apart by shape
        # (per block the four projections and the two LayerNorms; the embedding and the head, both [512, 64]),
        # so they keep their class names and are listed; everything with a shape of its own is still named.
        db = os.path.join(self.tmp.name, "st.db")
        p = run("import", os.path.join(self.dir["v1"], "trace.json"), "--weights",
                os.path.join(self.dir["v1"], "weights.safetensors"), "-o", db)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = modules(db)
        self.assertIn("layers.0.attn.position_adaptive_bias", got)
        self.assertIn("layers.3.mlp.up", got)
        self.assertIn("layers.0.attn.Linear_0", got)
        self.assertNotIn("layers.0.attn.q_proj", got)
        rows = [(w, c, d) for w, c, _, d in quality(db) if w == "modules_ambiguous_in_weights"]
        self.assertEqual(len(rows), 1)
        self.assertEqual(rows[0][1], 4 * (4 + 2) + 2)
        self.assertIn("layers.1.LayerNorm_1", got)
        self.assertIn("Embedding", got)
        self.assertIn("registration order", rows[0][2])


class ImportWeightsBadInput(CliTestCase):
    def expected_files(self):
        return ["rec"]

    def test_not_a_weights_file(self):
        rec = self.path("rec")
        subprocess.run([PYTHON, RECORD, "v1", rec], check=True, timeout=600)
        trace = os.path.join(rec, "trace.json")
        p = run("import", trace, "--weights", trace, "-o", self.path("x.db"))
        self.assertUsageError(p, "trace.json")
        p = run("import", trace, trace, "--weights", os.path.join(rec, "weights.pt"), "-o", self.dir)
        self.assertUsageError(p, "--weights")
        p = run("import", trace, "--weights", self.path("missing.pt"), "-o", self.path("x.db"))
        self.assertUsageError(p, "missing.pt")
        self.assertNoFilesLeft()


if __name__ == "__main__":
    unittest.main()
