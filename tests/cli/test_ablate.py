"""Ablation before the edit: `flopscope ablate` on the sonnet-mini sample (one instance of a shared class
rewritten, the others left running; numbers held against an eager reference with a forward hook), the
candidates of `report --candidates --verify` verified, a real contributor refuted, bad --module options, and
`trace --ablate` in the Python companion."""
import json
import os
import sqlite3
import subprocess
import sys
import unittest

import numpy
import torch

from cli_helpers import FLOPSCOPE, SOURCE_DIR, CliTestCase, run, sample

PYTHON = "/usr/bin/python3"
SPEC = "int64[1,64]@0:512"
HERE = os.path.dirname(os.path.abspath(__file__))


def ablate(*args):
    return run("ablate", *args)


def ablate_json(*args):
    p = run("ablate", *args, "--format", "json", "--iters", "1")
    if p.returncode != 0:
        raise AssertionError(f"ablate exited {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


class Ablate(CliTestCase):
    def test_one_instance_of_a_shared_class_is_rewritten(self):
        """layers.1.mlp's forward graph is MLP's, shared with layers.0.mlp: only the instance asked for changes.
        The change equals an eager model's with a forward hook zeroing layers[1].mlp on the same tokens."""
        tokens = numpy.random.default_rng(3).integers(0, 512, size=(1, 32)).astype(numpy.int64)
        request = self.path("tokens.npy")
        numpy.save(request, tokens)
        got = ablate_json(sample("v1"), "--input-file", request, "--module", "layers.1.mlp=zero")
        self.assertEqual([(m["path"], m["mode"], m["call_sites"]) for m in got["modules"]],
                         [("layers.1.mlp", "zero", 1)])
        self.assertIn("layers.0.mlp", got["still_running"])
        self.assertIn("layers.2.mlp", got["still_running"])
        self.assertNotIn("layers.1.mlp", got["still_running"])
        self.assertNotIn("layers.1.mlp.up", got["still_running"])  # not inlined: it ran as a call, then replaced

        # The eager reference: the sample's classes with the TorchScript file's weights.
        sys.path.insert(0, os.path.join(SOURCE_DIR, "samples", "sonnet-mini"))
        import make_sonnet_mini  # the sample's classes
        model = make_sonnet_mini.SonnetMini(512, 64, 2, 4, True).eval()
        model.load_state_dict(torch.jit.load(sample("v1")).state_dict())
        x = torch.from_numpy(tokens)
        with torch.no_grad():
            original = model(x)
            hook = model.layers[1].mlp.register_forward_hook(lambda m, i, o: torch.zeros_like(o))
            edited = model(x)
            hook.remove()
            other = model.layers[0].mlp.register_forward_hook(lambda m, i, o: torch.zeros_like(o))
            edited_other = model(x)
            other.remove()
        expected = (edited - original).abs().max().item()
        wrong = (edited_other - original).abs().max().item()
        t = got["outputs"]["tensors"][0]
        self.assertEqual(t["shape"], [1, 32, 512])
        self.assertAlmostEqual(t["max_abs_delta"], expected, delta=1e-4 * expected)
        self.assertGreater(abs(wrong - expected), 1e-3 * expected)  # the other instance would give another change
        rel = expected / original.abs().max().item()
        self.assertAlmostEqual(got["outputs"]["max_rel_change"], rel, delta=1e-4 * rel)

    def test_bias_modules_are_nearly_free_and_save_their_work(self):
        got = ablate_json(sample("v1"), "--input", SPEC, "--module", "*position_adaptive_bias=zero",
                          "--max-output-change", "1e-5")
        self.assertEqual(len(got["modules"]), 4)
        self.assertTrue(all(m["call_sites"] == 1 for m in got["modules"]))
        self.assertLess(got["outputs"]["max_rel_change"], 1e-5)
        self.assertTrue(got["gate"]["passed"])
        saving = got["saving"]
        self.assertEqual(saving["source"], "profile of the unedited model")
        self.assertAlmostEqual(saving["flops"], sum(m["flops"] for m in got["modules"]))
        self.assertGreater(saving["flops"], 0)
        self.assertGreater(saving["bytes"], 0)
        self.assertGreater(saving["share_flops"], 0)
        self.assertLess(saving["share_flops"], 0.2)

        text = ablate(sample("v1"), "--input", SPEC, "--module", "*position_adaptive_bias=zero", "--iters", "1")
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("layers.3.attn.position_adaptive_bias (PositionAdaptiveBias) = zero: 1 call site replaced",
                      text.stdout)
        self.assertIn("outputs: max |Δ|", text.stdout)
        self.assertIn("work it would save per iteration (from a profile of the unedited model, 1 iteration)",
                      text.stdout)

    def test_a_real_contributor_fails_the_gate(self):
        p = ablate(sample("v1"), "--input", SPEC, "--module", "layers.0.mlp=zero", "--iters", "1",
                   "--max-output-change", "1e-3")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("outputs: max |Δ|", p.stdout)
        self.assertIn(": CHANGED", p.stdout)
        self.assertIn("gate --max-output-change 0.001: FAILED: max relative change", p.stdout)

    def test_identity_keeps_a_shape_preserving_module_exact_when_it_is_identity(self):
        # ln_f's input passes through unchanged in shape: identity is accepted (the outputs change, LayerNorm
        # is no identity), and the ablated module's descendants are not listed apart.
        got = ablate_json(sample("v1"), "--input", SPEC, "--module", "ln_f=identity")
        self.assertEqual([(m["path"], m["mode"]) for m in got["modules"]], [("ln_f", "identity")])
        self.assertGreater(got["outputs"]["max_rel_change"], 1e-3)
        got = ablate_json(sample("v1"), "--input", SPEC, "--module", "layers.2*=zero")
        self.assertEqual([m["path"] for m in got["modules"]], ["layers.2"])
        # The ModuleList `layers` has no forward(): its blocks are ablated, not skipped as its descendants.
        got = ablate_json(sample("v1"), "--input", SPEC, "--module", "*=zero")
        self.assertEqual([m["path"] for m in got["modules"]],
                         ["embed", "layers.0", "layers.1", "layers.2", "layers.3", "lm_head", "ln_f"])
        self.assertTrue(all(m["call_sites"] == 1 for m in got["modules"]))

    def test_identity_with_other_shapes_is_refused(self):
        p = ablate(sample("v1"), "--input", SPEC, "--module", "layers.0.mlp.up=identity", "--iters", "1")
        self.assertUsageError(p, "layers.0.mlp.up=identity", "identity needs equal shapes", "float32[1,64,256]")

    def test_bad_module_options(self):
        self.assertUsageError(ablate(sample("v1"), "--input", SPEC, "--module", "layers.9.mlp=zero", "--iters", "1"),
                              "sonnet-mini-v1.pt: --module 'layers.9.mlp' matches no module of the model")
        self.assertUsageError(ablate(sample("v1"), "--input", SPEC, "--module", "layers.0.mlp=half"),
                              "expected GLOB=zero or GLOB=identity")
        self.assertUsageError(ablate(sample("v1"), "--input", SPEC, "--module", "layers.0.mlp=zero", "--module",
                                     "layers.0.*=identity", "--iters", "1"), "also matched")
        self.assertUsageError(ablate(sample("v1"), "--module", "ln_f=zero"), "give the model's inputs")
        self.assertUsageError(ablate(self.path("missing.pt"), "--input", SPEC, "--module", "ln_f=zero"),
                              "missing.pt")


class Verify(CliTestCase):
    """report --candidates --verify on a v1 run profiled with --activations (as scripts/demo.sh does)."""

    def profile(self, name, *extra):
        db = self.path(name)
        run("profile", sample("v1"), "--input", SPEC, "--iters", "2", "--warmup", "0", "--activations", "--seed",
            "5", *extra, "-o", db, check=True)
        return db

    def test_sample_candidates_are_verified(self):
        db = self.profile("v1.db")
        r = json.loads(run("report", db, "--candidates", "--verify", "--format", "json", check=True).stdout)
        cands = r["candidates"]["modules"]
        self.assertEqual(sorted(c["path"] for c in cands),
                         [f"layers.{i}.attn.position_adaptive_bias" for i in range(4)])
        for c in cands:
            v = c["verification"]
            self.assertEqual(v["status"], "verified", v)
            self.assertEqual(v["mode"], "zero")
            self.assertEqual(v["call_sites"], 1)
            self.assertLessEqual(v["max_rel_change"], 1e-5)
        self.assertEqual(r["candidates"]["verify"]["tolerance"], 1e-5)
        self.assertEqual(r["candidates"]["verify"]["inputs"], SPEC)

        text = run("report", db, "--candidates", "--verify", "--depth", "0", "--top", "0", check=True).stdout
        self.assertIn("4 verified, 0 refuted, 0 not verified", text)
        self.assertIn("    verified: outputs change <= 1e-05 (", text)
        md = run("report", db, "--candidates", "--verify", "--format", "md", check=True).stdout
        self.assertIn("| outputs when ablated |", md)
        self.assertEqual(md.count("| verified: outputs change \\<= 1e-05 \\("), 4)  # Markdown-escaped

        # A tolerance below what the bias changes turns the same claims into refutations.
        r = json.loads(run("report", db, "--candidates", "--verify", "--verify-tolerance", "1e-12", "--format",
                           "json", check=True).stdout)
        for c in r["candidates"]["modules"]:
            self.assertEqual(c["verification"]["status"], "refuted")
            self.assertTrue(c["verification"]["text"].startswith("refuted: changes outputs by "))

    def test_a_real_contributor_listed_as_candidate_is_refuted(self):
        # A zero threshold above the MLPs' output RMS lists them as zero-like; their ablation changes outputs.
        db = self.profile("v1.db")
        r = json.loads(run("report", db, "--candidates", "--verify", "--format", "json", "--zero-threshold", "10",
                           check=True).stdout)
        by_path = {c["path"]: c for c in r["candidates"]["modules"]}
        refuted = [p for p, c in by_path.items() if c["verification"]["status"] == "refuted"]
        self.assertTrue(refuted, by_path.keys())
        for p in refuted:
            self.assertGreater(by_path[p]["verification"]["max_rel_change"], 1e-5)

    def test_identity_like_candidate_is_ablated_as_identity(self):
        pt = self.path("behaviour.pt")
        subprocess.run([PYTHON, os.path.join(HERE, "make_behaviour_model.py"), pt], check=True)
        db = self.path("behaviour.db")
        run("profile", pt, "--input", "float32[4,32]", "--iters", "2", "--warmup", "0", "--activations", "-o", db,
            check=True)
        r = json.loads(run("report", db, "--candidates", "--verify", "--format", "json", check=True).stdout)
        cands = {c["path"]: c["verification"] for c in r["candidates"]["modules"]}
        self.assertEqual({p: (v["mode"], v["status"], v["call_sites"]) for p, v in cands.items()},
                         {"zero": ("zero", "verified", 1), "ident": ("identity", "verified", 1)})
        self.assertEqual(cands["ident"]["max_rel_change"], 0)  # x * 1.0 is x to the last bit

    def test_runs_that_cannot_be_rerun(self):
        tokens = self.path("t.npy")
        numpy.save(tokens, numpy.arange(64, dtype=numpy.int64).reshape(1, 64))
        db = self.path("requests.db")
        run("profile", sample("v1"), "--input-file", tokens, "--iters", "1", "--warmup", "0", "--activations",
            "-o", db, check=True)
        self.assertUsageError(run("report", db, "--candidates", "--verify"), "request files")


class TraceAblate(CliTestCase):
    PROGRAM = (
        "import torch\n"
        "torch.manual_seed(0)\n"
        "m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 8)).eval()\n"
        "x = torch.ones(2, 4)\n"
        "with torch.no_grad():\n"
        "    for _ in range(2):\n"
        "        y = m(x)\n"
        "print(repr(float(y.sum())), repr(float(m[2].bias.sum() * 2)))\n")

    def trace(self, *ablate):
        prog = self.path("prog.py")
        with open(prog, "w") as f:
            f.write(self.PROGRAM)
        db = self.path("run.db")
        extra = [a for rule in ablate for a in ("--ablate", rule)]  # last before "--": one value each
        p = subprocess.run([FLOPSCOPE, "trace", "-o", db, "--force", "--iterations", "2", *extra, "--", PYTHON, prog, "--an-argument"],
                           capture_output=True, text=True, timeout=600)
        self.assertEqual(p.returncode, 0, p.stderr)
        with sqlite3.connect(db) as c:
            notes = [r[0] for r in c.execute("SELECT detail FROM data_quality WHERE code = 'companion_note'")]
        return p.stdout.split(), notes

    def test_forward_hooks_replace_the_matched_outputs(self):
        (total, bias_only), notes = self.trace()
        self.assertNotEqual(total, bias_only)
        self.assertFalse([n for n in notes if "--ablate" in n])
        # ReLU zeroed: the last Linear sees zeros and returns its bias on each of the 2 rows.
        (total, bias_only), notes = self.trace("1=zero")
        self.assertAlmostEqual(float(total), float(bias_only), places=5)
        self.assertIn("--ablate 1=zero: the output of 1 was replaced in 2 call(s)", notes)

    def test_identity_of_another_shape_is_left_as_is_and_noted(self):
        (total, bias_only), notes = self.trace("0=identity", "9=zero")
        self.assertNotEqual(total, bias_only)
        self.assertTrue(any(n.startswith("--ablate 0=identity: 0 was left as is: identity needs equal shapes")
                            for n in notes), notes)
        self.assertIn("--ablate 9=zero: matched no module call: nothing was replaced", notes)

    def test_bad_rule(self):
        self.assertUsageError(run("trace", "--ablate", "0=half", "--", PYTHON, self.path("p.py")),
                              "expected GLOB=zero or GLOB=identity")


if __name__ == "__main__":
    unittest.main()
