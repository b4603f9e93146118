"""report --candidates on small models captured both ways, TorchScript (`profile`) and eager (`trace`): a
never-routed expert (never-run), a ModuleDict LoRA with zero B (the module that computes is named), an
nn.Identity (calls counted as the module tree counts them), and modules one input set needs (savings per set).
"""
import json
import os
import subprocess
import tempfile
import unittest

import numpy

from cli_helpers import FLOPSCOPE, CliTestCase, run

PYTHON = "/usr/bin/python3"
MODELS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "candidate_models.py")
ITERATIONS = 3


def report(db, *extra):
    return json.loads(run("report", db, "--candidates", "--format", "json", "--depth", "99", *extra,
                          check=True).stdout)


def by_path(items):
    return {m["path"]: m for m in items}


class BothCaptures(unittest.TestCase):
    """Each model profiled from TorchScript and traced eagerly, on random inputs (no feature above 5)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = {}
        for name in ("moe", "lora", "identity", "pos"):
            pt = os.path.join(cls.tmp.name, name + ".pt")
            subprocess.run([PYTHON, MODELS, "save", name, pt], check=True)
            ts = os.path.join(cls.tmp.name, name + "-ts.db")
            run("profile", pt, "--input", "float32[4,16]", "--iters", str(ITERATIONS), "--warmup", "1", "--threads",
                "1", "--activations", "-o", ts, check=True)
            eager = os.path.join(cls.tmp.name, name + "-eager.db")
            p = subprocess.run([FLOPSCOPE, "trace", "-o", eager, "--iterations", str(ITERATIONS), "--activations",
                                "--", PYTHON, MODELS, "run", name, str(ITERATIONS)], capture_output=True, text=True,
                               timeout=600)
            assert p.returncode == 0, p.stderr
            cls.db[name] = {"torchscript": ts, "eager": eager}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def each_capture(self, name, check):
        """check(db, report) on the TorchScript and the eager capture of a model, each as a subtest."""
        for form, db in self.db[name].items():
            with self.subTest(capture=form):
                check(db, report(db))

    def test_never_routed_experts_are_never_run_candidates(self):
        expert_bytes = 4 * (16 * 32 + 32 + 32 * 16 + 16)  # up and down: weights and biases, float32

        def check(db, r):
            tree = by_path(r["modules"])
            cands = by_path(r["candidates"]["modules"])
            for e in ("experts.1", "experts.2", "experts.3"):  # random inputs never select 1, 2 or 3
                self.assertEqual(tree[e]["calls"], 0)
                self.assertEqual(cands[e]["kind"], "never-run", e)
                self.assertEqual(cands[e]["params"], 4)
                self.assertEqual(cands[e]["param_bytes"], expert_bytes)
                self.assertEqual(cands[e]["calls"], 0)
                self.assertFalse(cands[e]["conditional"])
                self.assertEqual(cands[e]["weight_status"], "ACTIVE")
            # Listed once, at the outermost module that never runs; what runs is no candidate.
            for p in ("experts.1.up", "experts.1.down", "experts.0", "experts", "router"):
                self.assertNotIn(p, cands)
            self.assertEqual(cands["gate"]["kind"], "zero-like")
            text = run("report", db, "--candidates", "--depth", "0", "--top", "0", check=True).stdout
            self.assertIn("experts.1 (Expert) never-run: never runs on these inputs: 4 params, 4.29 kB", text)
            self.assertIn("removing it would save 4.29 kB of weights; it runs no op on these inputs", text)
            self.assertNotIn("no module behaves as zero or identity", text)

        self.each_capture("moe", check)

    def test_never_run_is_found_without_activation_statistics(self):
        pt = os.path.join(self.tmp.name, "moe.pt")
        db = os.path.join(self.tmp.name, "moe-plain.db")
        run("profile", pt, "--input", "float32[4,16]", "--iters", "1", "--threads", "1", "-o", db, check=True)
        c = report(db)["candidates"]
        self.assertFalse(c["has_activations"])
        self.assertEqual(sorted(m["path"] for m in c["modules"]), ["experts.1", "experts.2", "experts.3"])
        text = run("report", db, "--candidates", "--depth", "0", "--top", "0", check=True).stdout
        self.assertIn("never runs on these inputs", text)
        self.assertIn("profile with --activations", text)

    def test_lora_candidate_is_the_module_that_computes(self):
        def check(db, r):
            zero = sorted(m["path"] for m in r["candidates"]["modules"] if m["kind"] == "zero-like")
            self.assertEqual(zero, ["q_proj.lora_B.task_a", "v_proj.lora_B.task_a"])
            for m in r["candidates"]["modules"]:
                self.assertNotEqual(m["type"], "ModuleDict", m["path"])
                self.assertEqual(m["weight_status"], "ZEROED")
            # Dead compute (TorchScript only) names lora_A's module that computes too, not the ModuleDict.
            removable = sorted(m for d in r["candidates"]["discarded"] for m in d["discarded_modules"])
            self.assertIn(removable, ([], ["q_proj.lora_A.task_a", "v_proj.lora_A.task_a"]))
            if db.endswith("-ts.db"):
                self.assertNotEqual(removable, [])

        self.each_capture("lora", check)

    def test_identity_calls_agree_with_the_module_tree(self):
        def check(db, r):
            tree = by_path(r["modules"])
            cands = by_path(r["candidates"]["modules"])
            self.assertEqual(tree["skip"]["calls"], 0)  # nn.Identity runs no op
            self.assertNotIn("skip", cands)  # so no calls of its own to judge, and nothing to remove
            self.assertEqual(cands["zero"]["kind"], "zero-like")
            self.assertEqual(cands["zero"]["calls"], tree["zero"]["calls"] * r["iterations"])
            self.assertEqual(cands["zero"]["held"], cands["zero"]["calls"])

        self.each_capture("identity", check)

    def test_weights_read_by_another_module_are_held_back(self):
        def check(db, r):
            c = r["candidates"]
            self.assertEqual(r["modules"][[m["path"] for m in r["modules"]].index("pos")]["calls"], 0)
            self.assertNotIn("pos", by_path(c["modules"]))  # its weight is used: no saving to claim
            held = by_path(c["held_back"])
            self.assertEqual((held["pos"]["param"], held["pos"]["tensor"]), ("pos.weight", "float32[8,16]"))
            text = run("report", db, "--candidates", "--depth", "0", "--top", "0", check=True).stdout
            self.assertIn("pos (Embedding) runs no op, but ", text)
            self.assertIn("takes a float32[8,16] tensor like its parameter pos.weight", text)

        self.each_capture("pos", check)


class InputSets(CliTestCase):
    """`profile --inputs DIR`: set `small` (no feature above 5) and set `big` (rows whose first feature is 10)."""

    def setUp(self):
        super().setUp()
        self.model = self.path("moe.pt")
        subprocess.run([PYTHON, MODELS, "save", "moe", self.model], check=True)
        rng = numpy.random.default_rng(0)
        for tag in ("small", "big"):
            os.makedirs(self.path(os.path.join("requests", tag)))
            x = rng.standard_normal((4, 16)).clip(-3, 3).astype(numpy.float32)
            if tag == "big":
                x[:2, 0] = 10
            numpy.save(self.path(os.path.join("requests", tag, "r0.npy")), x)
        self.db = self.path("sets.db")
        run("profile", self.model, "--inputs", self.path("requests"), "--iters", "2", "--warmup", "1", "--threads", "1",
            "--activations", "-o", self.db, check=True)

    def test_saving_is_stated_per_set_when_one_set_needs_the_module(self):
        c = report(self.db)["candidates"]
        self.assertEqual(c["input_sets"], ["big", "small"])
        cands = by_path(c["modules"])
        # experts.3 is selected for big rows only: never runs on `small`, needed on `big`.
        e3 = cands["experts.3"]
        self.assertEqual(e3["kind"], "never-run")
        self.assertTrue(e3["conditional"])
        sets = by_path([dict(s, path=s["tag"]) for s in e3["by_input_set"]])
        self.assertEqual((sets["small"]["runs"], sets["small"]["needed"]), (False, False))
        self.assertEqual((sets["big"]["runs"], sets["big"]["needed"]), (True, True))
        self.assertEqual(sets["big"]["calls"], 2)
        self.assertGreater(sets["big"]["flops"], 0)
        # The gate outputs zeros on `small` only.
        gate = cands["gate"]
        self.assertEqual(gate["kind"], "zero-like")
        self.assertTrue(gate["conditional"])
        sets = by_path([dict(s, path=s["tag"]) for s in gate["by_input_set"]])
        self.assertEqual((sets["small"]["held"], sets["small"]["needed"]), (2, False))
        self.assertEqual((sets["big"]["held"], sets["big"]["needed"]), (0, True))
        # Experts nothing selects never run on either set: unconditional.
        self.assertFalse(cands["experts.1"]["conditional"])
        self.assertTrue(all(not s["runs"] for s in cands["experts.1"]["by_input_set"]))

        text = run("report", self.db, "--candidates", "--depth", "0", "--top", "0", check=True).stdout
        lines = text.splitlines()
        e3_line = next(i for i, l in enumerate(lines) if l.startswith("  experts.3 "))
        self.assertIn("never runs on input set small; runs on input set big", lines[e3_line])
        self.assertIn("removing it would save 4.29 kB of weights on input set small (never runs there); needed on "
                      "input set big (runs there: ", lines[e3_line + 1])
        gate_line = next(i for i, l in enumerate(lines) if l.startswith("  gate "))
        saving = lines[gate_line + 2]
        self.assertIn("on input set small; needed on input set big (zero-like in 0 of 2 calls)", saving)
        self.assertNotIn("by input set", saving)  # no unconditional saving
        md = run("report", self.db, "--candidates", "--format", "md", "--depth", "0", check=True).stdout
        self.assertIn("needed on input set `big`", md)


if __name__ == "__main__":
    unittest.main()
