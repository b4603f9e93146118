"""flopscope trace: eager PyTorch programs with named_modules() paths, weights joined by `diff`, FLOPs equal to
the TorchScript profile of the same model, the program left unchanged, and bad input."""
import json
import os
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import unittest

from cli_helpers import (FLOPSCOPE, SOURCE_DIR, CliTestCase, SonnetMiniVerdicts, modules, run, sample,
                         undocumented_quality_rows)

PYTHON = "/usr/bin/python3"
HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "trace_programs")
EAGER = os.path.join(SOURCE_DIR, "samples", "eager", "run_sonnet_mini.py")
TIED = os.path.join(PROGRAMS, "tied.py")



def report(db):
    return json.loads(run("report", db, "--format", "json", check=True).stdout)


def trace(out, *command, extra=(), env=None, cwd=None):
    return subprocess.run([FLOPSCOPE, "trace", "-o", out, *extra, "--", *command], capture_output=True, text=True,
                          timeout=600, env=env, cwd=cwd)


class SonnetMiniEager(SonnetMiniVerdicts, unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db = {}
        for v in ("v1", "v2", "v2z"):
            cls.db[v] = os.path.join(cls.tmp.name, v + ".db")
            p = trace(cls.db[v], PYTHON, EAGER, "--version", v, "--calls", "3")
            assert p.returncode == 0, p.stderr
        cls.ts_v1 = os.path.join(cls.tmp.name, "ts-v1.db")
        run("profile", sample("v1"), "--input", "int64[1,64]@0:512", "--iters", "2", "--warmup", "0", "-o",
            cls.ts_v1, check=True)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_paths_are_named_modules(self):
        eager = modules(self.db["v1"])
        torchscript = modules(self.ts_v1)
        self.assertIn("layers.0.attn.position_adaptive_bias", eager)
        self.assertEqual(set(eager), set(torchscript))
        self.assertEqual(eager["layers.0.attn.position_adaptive_bias"], "PositionAdaptiveBias")
        self.assertEqual(eager[""], "SonnetMini")
        self.assertNotIn("layers.0.attn.position_adaptive_bias", modules(self.db["v2"]))

    def test_quality_rows_have_catalogue_codes(self):
        for v, db in self.db.items():
            self.assertEqual(undocumented_quality_rows(db), [], v)
        codes = [q["code"] for q in report(self.db["v1"])["data_quality"]]
        self.assertIn("recorded_by_trace", codes)

    def test_flops_per_module_match_torchscript_within_0_1_percent(self):
        eager = {m["path"]: m["inclusive"]["flops"] for m in report(self.db["v1"])["modules"]}
        ts = {m["path"]: m["inclusive"]["flops"] for m in report(self.ts_v1)["modules"]}
        self.assertGreater(ts[""], 1e6)
        for path, flops in ts.items():
            self.assertIn(path, eager)
            self.assertLessEqual(abs(eager[path] - flops), 0.001 * max(flops, 1.0), path)

    def test_iterations_and_weights(self):
        r = report(self.db["v1"])
        self.assertEqual(r["iterations"], 3)
        with sqlite3.connect(self.db["v1"]) as c:
            eager = dict(c.execute("SELECT name, sha256 FROM param"))
        with sqlite3.connect(self.ts_v1) as c:
            ts = dict(c.execute("SELECT name, sha256 FROM param"))
        self.assertEqual(eager, ts)  # same names, same bytes: the same seed weights

    def test_activations(self):
        db = os.path.join(self.tmp.name, "act.db")
        p = trace(db, PYTHON, EAGER, "--version", "v1", "--calls", "2", extra=("--activations",))
        self.assertEqual(p.returncode, 0, p.stderr)
        with sqlite3.connect(db) as c:
            rows = c.execute("SELECT m.path, a.call, a.iteration FROM activation a JOIN module m ON m.id = a.module_id"
                             ).fetchall()
            ops = {n for (n,) in c.execute("SELECT DISTINCT name FROM op")}
        paths = {r[0] for r in rows}
        self.assertIn("layers.0.attn.position_adaptive_bias", paths)
        self.assertEqual(len([r for r in rows if r[0] == "layers.3.mlp.down"]), 2)  # one per iteration
        self.assertNotIn("aten::linalg_vector_norm", ops)  # the statistics' own ops are not in the trace


class Repeat(unittest.TestCase):
    """trace --repeat N: N processes of one program into one run, each iteration's process recorded, so that
    diff compares time over per-process medians; with one process a side time is not assessable."""

    def test_repeat_three_records_each_iterations_process(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b, single = (os.path.join(tmp, n) for n in ("a.db", "b.db", "single.db"))
            for out in (a, b):
                p = trace(out, PYTHON, EAGER, "--version", "v1", "--calls", "2", extra=("--repeat", "3"))
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn("6 iterations from 3 processes", p.stderr)
            with sqlite3.connect(a) as c:
                rows = c.execute("SELECT iteration, process FROM iteration_process ORDER BY iteration").fetchall()
                command = c.execute("SELECT command_line FROM run").fetchone()[0]
            self.assertEqual([process for _, process in rows], [0, 0, 1, 1, 2, 2])
            self.assertEqual(len({iteration for iteration, _ in rows}), 6)
            self.assertIn("--repeat 3", command)
            self.assertEqual(report(a)["iterations"], 6)
            d = json.loads(run("diff", a, b, "--format", "json", check=True).stdout)
            self.assertEqual((d["a"]["processes"], d["b"]["processes"]), (3, 3))
            self.assertIn(d["end_to_end"]["time_status"], ("unchanged", "faster", "slower"))
            # One process against three: not assessable, and a time gate is an error naming the way out.
            p = trace(single, PYTHON, EAGER, "--version", "v1", "--calls", "3")  # 3 iterations: tested
            self.assertEqual(p.returncode, 0, p.stderr)
            d = json.loads(run("diff", single, a, "--format", "json", check=True).stdout)
            self.assertEqual(d["end_to_end"]["time_status"], "not_assessable")
            self.assertEqual({m["time_status"] for m in d["modules"] if m["a"] and m["b"]}, {"not_assessable"})
            g = run("diff", single, a, "--max-regression", "time=5%")
            self.assertEqual(g.returncode, 2, g.stderr)
            self.assertIn("trace --repeat", g.stderr)
            self.assertEqual(g.stderr.count("\n"), 1, g.stderr)

    def test_a_failing_process_writes_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.db")
            p = trace(out, PYTHON, "-c", "import sys; sys.exit(3)", extra=("--repeat", "3"))
            self.assertNotEqual(p.returncode, 0)
            self.assertFalse(os.path.exists(out))


class HuggingFaceStyle(CliTestCase):
    def test_exact_paths(self):
        expected = self.path("expected.json")
        db = self.path("hf.db")
        p = trace(db, PYTHON, os.path.join(PROGRAMS, "hf_style.py"), expected)
        self.assertEqual(p.returncode, 0, p.stderr)
        want = json.load(open(expected))
        got = modules(db)
        for path, type_ in want["modules"]:
            self.assertEqual(got.get(path), type_, path)
        # The shared Linear keeps the path of the call in progress: layers.1 calls it as layers.1.shared.
        self.assertIn("model.layers.1.shared", want["all_paths"])
        self.assertEqual(got.get("model.layers.1.shared"), "Linear")
        self.assertEqual(set(got) - {p for p, _ in want["modules"]}, {"model.layers.1.shared"})
        with sqlite3.connect(db) as c:
            params = [n for (n,) in c.execute("SELECT name FROM param ORDER BY id")]
            per_module = dict(c.execute(
                "SELECT m.path, COUNT(*) FROM op o JOIN module m ON m.id = o.module_id "
                "WHERE o.name = 'aten::linear' GROUP BY m.path"))
            norm_calls = c.execute("SELECT COUNT(*) FROM op o JOIN module m ON m.id = o.module_id "
                                   "WHERE o.name = 'aten::layer_norm' AND m.path = 'model.layers.0.norm'").fetchone()[0]
        # The tied head weight under both names, the shared Linear's under both paths, as TorchScript lists them.
        self.assertEqual(params, want["all_params"])
        self.assertIn("lm_head.weight", params)
        self.assertNotIn("lm_head.weight", want["params"])  # which named_parameters() leaves out
        self.assertIn("model.layers.1.shared.weight", params)
        self.assertEqual(per_module.get("model.layers.0.shared"), 3)
        self.assertEqual(per_module.get("model.layers.1.shared"), 3)
        self.assertEqual(per_module.get("model.layers.1.experts.1.down"), 3)
        self.assertEqual(per_module.get("lm_head"), 3)
        self.assertEqual(norm_calls, 6)  # called twice per iteration


def tensors(db):
    """name -> (sha256, sketch as 61 floats or (), sum) of a run's parameter rows."""
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT name, sha256, sketch, sum FROM param").fetchall()
    return {n: (sha, struct.unpack("<61d", sk) if sk else (), s) for n, sha, sk, s in rows}


class TiedWeights(CliTestCase):
    """One model with a head tied to its embedding, a Linear shared by two blocks and buffers, traced eagerly and
    profiled as TorchScript: both list every name of every tensor with the same hashes, and the content sketches
    the Python companion and LibTorch collector compute agree."""

    def test_eager_and_torchscript_list_the_same_tensors(self):
        pt = self.path("tied.pt")
        subprocess.run([PYTHON, TIED, "save", pt], check=True, timeout=300)
        eager_db, ts_db = self.path("eager.db"), self.path("ts.db")
        p = trace(eager_db, PYTHON, TIED)
        self.assertEqual(p.returncode, 0, p.stderr)
        run("profile", pt, "--input", "int64[1,8]@0:96", "--iters", "1", "--warmup", "0", "-o", ts_db, check=True)
        eager, ts = tensors(eager_db), tensors(ts_db)
        self.assertEqual(sorted(eager), sorted(ts))
        for name in ("embed.weight", "lm_head.weight", "blocks.0.shared.weight", "blocks.1.shared.weight",
                     "blocks.0.scale", "positions"):
            self.assertIn(name, eager)
        self.assertEqual(eager["lm_head.weight"][0], eager["embed.weight"][0])
        for name, (sha, sketch, total) in eager.items():
            ts_sha, ts_sketch, ts_total = ts[name]
            self.assertEqual(sha, ts_sha, name)
            self.assertEqual(len(sketch), 61, name)
            self.assertEqual(len(ts_sketch), 61, name)
            scale = max(abs(x) for x in sketch + ts_sketch + (total,))
            for k, (x, y) in enumerate(zip(sketch, ts_sketch)):
                self.assertLessEqual(abs(x - y), 1e-9 * max(abs(x), abs(y), 1e-3 * scale), (name, k))
            self.assertLessEqual(abs(total - ts_total), 1e-9 * max(abs(total), 1e-3 * scale), name)
        # The weights reader (no LibTorch) sees the TorchScript file's tensors under the same names and sums.
        w = json.loads(run("weights", pt, "--format", "json", check=True).stdout)
        read = {t["name"]: t for t in w["files"][0]["tensors"]}
        self.assertEqual(sorted(read), sorted(ts))
        for name, t in read.items():
            self.assertEqual(t["sha256"], ts[name][0], name)
            self.assertAlmostEqual(t["sum"], ts[name][2], delta=1e-9 * max(1.0, abs(ts[name][2])))


class Unchanged(CliTestCase):
    def program(self, mode):
        return [PYTHON, os.path.join(PROGRAMS, "behaviour.py"), mode]

    def test_output_files_and_exit_code_unchanged(self):
        work = self.path("work")
        os.mkdir(work)
        env = dict(os.environ, TMPDIR=self.dir)
        plain = subprocess.run(self.program("exit3"), capture_output=True, text=True, cwd=work)
        traced = trace("run.db", *self.program("exit3"), env=env, cwd=work)
        self.assertEqual(plain.returncode, 3)
        self.assertEqual(traced.returncode, 3)  # passed through
        self.assertEqual(traced.stdout, plain.stdout)
        lines = traced.stderr.splitlines()
        self.assertEqual([l for l in lines if not l.startswith("flopscope: ")], plain.stderr.splitlines())
        self.assertEqual(sorted(os.listdir(work)), ["run.db"])
        self.assertEqual(sorted(os.listdir(self.dir)), ["work"])  # the companion's folder is gone
        # The run is kept and says the program failed.
        r = report(os.path.join(work, "run.db"))
        failed = [q for q in r["data_quality"] if q["code"] == "program_failed"]
        self.assertEqual(len(failed), 1, r["data_quality"])
        self.assertIn("exited with status 3", failed[0]["detail"])

    def test_ctrl_c_writes_the_run(self):
        db = self.path("loop.db")
        proc = subprocess.Popen([FLOPSCOPE, "trace", "-o", db, "--iterations", "100000", "--", *self.program("loop")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        while proc.stdout.readline().strip() != "ready":
            pass
        time.sleep(0.3)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 128 + signal.SIGINT, err)
        self.assertGreaterEqual(report(db)["iterations"], 3)


class ThreadsAndSignals(CliTestCase):
    """A model called from several threads, Ctrl-C and SIGTERM at awkward moments, kill -9: what the run says
    it holds is what it holds, and nothing is left running or lying around."""

    def program(self, mode):
        return [PYTHON, os.path.join(PROGRAMS, "behaviour.py"), mode]

    def test_threads_record_every_iteration_once(self):
        # 20 overlapping root calls on 4 threads; the first 10 are recorded, each on its own thread.
        for attempt in range(3):
            db = self.path("threads%d.db" % attempt)
            p = trace(db, *self.program("threads"), extra=("--iterations", "10"))
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("wrote %s: 10 iterations" % db, p.stderr)
            r = report(db)
            self.assertEqual(r["iterations"], 10, r["data_quality"])
            calls = {m["path"]: m["calls"] for m in r["modules"]}
            self.assertEqual(calls[""], 1.0, calls)  # one root call per iteration, not 2 or 0.5
            self.assertEqual(calls["0"], 1.0, calls)
            self.assertNotIn("impossible", json.dumps(r["data_quality"]))

    def test_ctrl_c_after_the_tenth_iteration_keeps_all_ten(self):
        db = self.path("ten.db")
        proc = subprocess.Popen([FLOPSCOPE, "trace", "-o", db, "--iterations", "10", "--", *self.program("ten-then-wait")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        while proc.stdout.readline().strip() != "ten":
            pass
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 128 + signal.SIGINT, err)
        self.assertNotIn("nothing recorded", err)
        self.assertIn("10 iterations", err)
        self.assertEqual(report(db)["iterations"], 10)

    def test_sigterm_keeps_the_recorded_iterations_marked_incomplete(self):
        db = self.path("term.db")
        proc = subprocess.Popen([FLOPSCOPE, "trace", "-o", db, "--iterations", "100000", "--", *self.program("loop")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        while proc.stdout.readline().strip() != "ready":
            pass
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)  # to flopscope only: it passes SIGTERM on to the program
        _, err = proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM, err)
        r = report(db)
        self.assertGreaterEqual(r["iterations"], 3)
        codes = {q["code"]: q.get("detail", "") for q in r["data_quality"]}
        self.assertIn("iterations_incomplete", codes)
        self.assertIn("killed by signal %d" % signal.SIGTERM, codes.get("program_failed", ""))

    def test_kill_9_takes_the_program_along_and_the_next_trace_clears_the_folder(self):
        tmp = self.path("tmp")
        os.mkdir(tmp)
        env = dict(os.environ, TMPDIR=tmp)
        proc = subprocess.Popen([FLOPSCOPE, "trace", "-o", self.path("k.db"), "--iterations", "100000", "--",
                                 *self.program("loop")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        while proc.stdout.readline().strip() != "ready":
            pass
        folders = os.listdir(tmp)
        self.assertEqual(len(folders), 1, folders)
        self.assertIn("flopscope-trace-%d-" % proc.pid, folders[0])
        started = [f for f in os.listdir(os.path.join(tmp, folders[0])) if f.startswith("started.")]
        child = int(started[0].split(".")[1])
        proc.kill()
        proc.communicate(timeout=60)
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                os.kill(child, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            os.kill(child, signal.SIGKILL)
            self.fail("the traced program kept running after flopscope was killed")
        self.assertFalse(os.path.exists(self.path("k.db")))
        self.assertEqual(os.listdir(tmp), folders)  # kill -9: nothing could clean up
        p = trace(self.path("ok.db"), *self.program("ok"), env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(os.listdir(tmp), [])  # the next trace removed the stale folder, and its own


class BadInput(CliTestCase):
    def program(self, mode):
        return [PYTHON, os.path.join(PROGRAMS, "behaviour.py"), mode]

    def one_line(self, proc, code, *needles):
        self.assertEqual(proc.returncode, code, proc.stderr)
        lines = [l for l in proc.stderr.splitlines() if l.startswith("flopscope")]
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertTrue(lines[0].startswith("flopscope: error: "), lines[0])
        for n in needles:
            self.assertIn(n, lines[0])

    def test_not_python(self):
        self.one_line(trace(self.path("r.db"), "/bin/echo", "hello"), 2, "no Python process loaded")
        self.assertFalse(os.path.exists(self.path("r.db")))

    def test_missing_command(self):
        self.one_line(trace(self.path("r.db"), "/no/such/program"), 2, "/no/such/program")

    def test_no_module_called(self):
        self.one_line(trace(self.path("r.db"), *self.program("no-module")), 2, "called no torch.nn.Module")
        self.assertFalse(os.path.exists(self.path("r.db")))

    def test_crash_before_any_module(self):
        p = trace(self.path("r.db"), *self.program("crash-early"))
        self.one_line(p, 1, "called no torch.nn.Module before it exited with status 1")
        self.assertIn("crashed before any module", p.stderr)  # the program's own traceback is kept
        self.assertFalse(os.path.exists(self.path("r.db")))

    def test_crash_after_recording_keeps_the_run_marked(self):
        p = trace(self.path("r.db"), *self.program("crash"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("the program failed", p.stderr)
        r = report(self.path("r.db"))
        self.assertEqual(r["iterations"], 3)
        self.assertIn("exited with status 1", json.dumps(r["data_quality"]))

    def test_hard_exit(self):
        self.one_line(trace(self.path("r.db"), *self.program("hard-exit")), 5, "before the companion could write")

    def test_missing_torch(self):
        self.one_line(trace(self.path("r.db"), *self.program("no-torch")), 1, "torch is not importable")

    def test_meta_needs_torch_2(self):
        # Debian's torch 1.13 has no default-device switch: --meta stops the program at `import torch` and says
        # why in one line, with exit 2 and nothing written.
        p = trace(self.path("r.db"), PYTHON, EAGER, "--version", "v1", extra=("--meta",))
        self.one_line(p, 2, "--meta", "torch 1.13", "torch >= 2")
        self.assertEqual(p.stdout, "")  # the program stopped before its first forward
        self.assertFalse(os.path.exists(self.path("r.db")))

    def test_meta_with_activations(self):
        p = trace(self.path("r.db"), PYTHON, EAGER, extra=("--meta", "--activations"))
        self.one_line(p, 2, "--meta", "--activations")

    def test_warmup_swallows_everything(self):
        p = subprocess.run([FLOPSCOPE, "trace", "-o", self.path("r.db"), "--warmup", "5", "--", *self.program("ok")],
                           capture_output=True, text=True)
        self.one_line(p, 2, "all within --warmup 5")


class NewerTorchScript(CliTestCase):
    def test_profile_says_why_in_one_line(self):
        model = os.path.join(SOURCE_DIR, "tests", "data", "torchscript", "sdpa_saved_by_torch_2_15.pt")
        p = run("profile", model, "--input", "float32[1,2,4,4]", "-o", self.path("r.db"))
        self.assertUsageError(p, "Unknown builtin op: aten::scaled_dot_product_attention", "newer torch",
                              "flopscope trace")
        self.assertFalse(os.path.exists(self.path("r.db")))


class NvtxRanges(unittest.TestCase):
    def test_module_paths_as_nvtx_ranges(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(SOURCE_DIR, "python"))
        out = subprocess.run([PYTHON, os.path.join(PROGRAMS, "nvtx_fake.py")], capture_output=True, text=True,
                             env=env, check=True).stdout
        self.assertEqual(json.loads(out), [["push", "0"], ["push", "0.fc"], ["pop"], ["pop"], ["push", "1"], ["pop"],
                                           ["push", "2"], ["push", "2.fc"], ["pop"], ["pop"]])


if __name__ == "__main__":
    unittest.main()
