"""profile --activations and report --candidates: zero-like and identity-like modules, thresholds, input sets."""
import json
import os
import subprocess
import sys
import unittest

from cli_helpers import CliTestCase, run, sample

HERE = os.path.dirname(os.path.abspath(__file__))


def candidates(db, *extra):
    out = run("report", db, "--candidates", "--format", "json", *extra, check=True).stdout
    return json.loads(out)["candidates"]


class Activations(CliTestCase):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls.shared = tempfile.TemporaryDirectory()
        cls.model = os.path.join(cls.shared.name, "behaviour.pt")
        subprocess.run([sys.executable, os.path.join(HERE, "make_behaviour_model.py"), cls.model], check=True)
        cls.db = os.path.join(cls.shared.name, "behaviour.db")
        run("profile", cls.model, "--input", "float32[4,32]", "--iters", "3", "--activations", "-o", cls.db,
            check=True)

    @classmethod
    def tearDownClass(cls):
        cls.shared.cleanup()

    def test_zero_and_identity_flagged_linears_not(self):
        c = candidates(self.db)
        self.assertTrue(c["has_activations"])
        kinds = {m["path"]: m["kind"] for m in c["modules"]}
        self.assertEqual(kinds.get("zero"), "zero-like")
        self.assertEqual(kinds.get("ident"), "identity-like")
        self.assertNotIn("lin1", kinds)
        self.assertNotIn("lin2", kinds)
        zero = next(m for m in c["modules"] if m["path"] == "zero")
        self.assertEqual(zero["calls"], 3)
        self.assertEqual(zero["held"], 3)
        self.assertEqual(zero["median_out_rms"], 0)
        self.assertEqual(zero["weight_status"], "none")

    def test_thresholds_respected(self):
        c = candidates(self.db, "--zero-threshold", "0", "--identity-threshold", "0")
        self.assertEqual(c["modules"], [])  # "below 0" never holds
        self.assertEqual(c["zero_threshold"], 0)
        # A huge zero threshold makes every module zero-like; the model's top level is still never listed,
        # and nested candidates collapse into their listed ancestor.
        c = candidates(self.db, "--zero-threshold", "1e9")
        paths = {m["path"] for m in c["modules"]}
        self.assertIn("lin1", paths)
        self.assertNotIn("", paths)

    def test_run_without_activations_says_so(self):
        db = self.path("plain.db")
        run("profile", self.model, "--input", "float32[4,32]", "--iters", "1", "-o", db, check=True)
        out = run("report", db, "--candidates", check=True).stdout
        self.assertIn("profile with --activations", out)
        self.assertFalse(candidates(db)["has_activations"])

    def test_cost_is_reported(self):
        db = self.path("cost.db")
        p = run("profile", self.model, "--input", "float32[4,32]", "--iters", "1", "--activations", "-o", db)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("of the measured forward time", p.stderr)

    def test_input_sets_are_tagged(self):
        inputs = self.path("requests")
        for tag, seed in [("structured", 1), ("text", 2)]:
            os.makedirs(os.path.join(inputs, tag))
            for i in range(2):
                with open(os.path.join(inputs, tag, f"r{i}.txt"), "w") as f:
                    f.write(" ".join(str((seed * 37 + i * 11 + k) % 512) for k in range(48)))
        db = self.path("sets.db")
        p = run("profile", sample("v1"), "--inputs", inputs, "--activations", "-o", db)
        self.assertEqual(p.returncode, 0, p.stderr)
        c = candidates(db)
        self.assertEqual(sorted(c["input_sets"]), ["structured", "text"])
        pab = [m for m in c["modules"] if m["path"].endswith("position_adaptive_bias")]
        self.assertEqual(len(pab), 4)
        for m in pab:
            self.assertEqual({s["tag"]: (s["held"], s["calls"]) for s in m["by_input_set"]},
                             {"structured": (2, 2), "text": (2, 2)})

    def test_bad_request_files(self):
        bad = self.path("bad.txt")
        with open(bad, "w") as f:
            f.write("1 2 three\n")
        p = run("profile", sample("v1"), "--input-file", bad, "-o", self.path("x.db"))
        self.assertUsageError(p, "bad.txt", "not a token id")
        p = run("profile", sample("v1"), "--inputs", self.path("nowhere"), "-o", self.path("x.db"))
        self.assertUsageError(p, "nowhere", "not a directory")
        p = run("profile", sample("v1"), "--input", "int64[1,8]", "--input-file", bad, "-o", self.path("x.db"))
        self.assertEqual(p.returncode, 2)
        self.assertFalse(os.path.exists(self.path("x.db")))


class SampleCandidates(CliTestCase):
    def test_v1_bias_modules_flagged_v2z_zeroed(self):
        for version, status in [("v1", "tiny"), ("v2z", "ZEROED")]:
            db = self.path(f"{version}.db")
            run("profile", sample(version), "--input", "int64[1,256]@0:512", "--iters", "2", "--activations",
                "-o", db, check=True)
            mods = candidates(db)["modules"]
            flagged = sorted(m["path"] for m in mods)
            self.assertEqual(flagged, [f"layers.{i}.attn.position_adaptive_bias" for i in range(4)], version)
            for m in mods:
                self.assertEqual(m["weight_status"], status)
                self.assertGreater(m["time_p50_ns"], 0)
                self.assertGreater(m["flops"], 0)


if __name__ == "__main__":
    unittest.main()
