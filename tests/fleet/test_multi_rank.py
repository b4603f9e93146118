"""`flopscope report` over several ranks: the two-rank HTA fixture and synthetic ranks with known times."""
import gzip
import json
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_helpers import CliTestCase, run, SOURCE_DIR  # noqa: E402

KINETO = os.path.join(SOURCE_DIR, "tests", "data", "kineto")
HTA = [os.path.join(KINETO, f"hta__trace_filter__sampled_rank-{r}.json.gz") for r in (0, 1)]


def synthetic_rank(path, rank, compute_us, comm_us, iterations=3, with_info=True):
    """One rank: per iteration a module scope with a matmul kernel (compute_us) and an NCCL all-reduce (comm_us)."""
    ev, corr, t = [], 1000, 0
    for it in range(iterations):
        step = {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{it}", "pid": 1, "tid": 1, "ts": t,
                "dur": 1000}
        ev.append(step)
        ev.append({"ph": "X", "cat": "python_function", "name": "nn.Module: Encoder_0", "pid": 1, "tid": 1,
                   "ts": t + 10, "dur": 900})
        for name, kernel, dur in (("aten::mm", "sm90_gemm_kernel", compute_us),
                                  ("nccl:all_reduce", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", comm_us)):
            corr += 1
            if name == "aten::mm":  # the matmul runs inside a child module
                ev.append({"ph": "X", "cat": "python_function", "name": "nn.Module: Linear_0", "pid": 1, "tid": 1,
                           "ts": t + 15, "dur": 50})
            ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": t + 20, "dur": 30,
                       "args": {"External id": corr}})
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": t + 25, "dur": 5, "args": {"correlation": corr, "External id": corr}})
            ev.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0, "tid": 7, "ts": t + 40, "dur": dur,
                       "args": {"correlation": corr, "External id": corr, "device": 0, "stream": 7}})
            t += 300
        t += 1000
    doc = {"schemaVersion": 1, "traceEvents": ev}
    if with_info:
        doc = {"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": 4},
               "traceEvents": ev}
    with gzip.open(path, "wt") as f:
        json.dump(doc, f)


class MultiRankTest(CliTestCase):
    def report(self, *args):
        proc = run("report", *args, "--format", "json", check=True)
        return json.loads(proc.stdout)

    def test_two_rank_hta_fixture(self):
        r = self.report(*HTA)
        self.assertEqual(r["clock"], "device")
        self.assertEqual([x["rank"] for x in r["ranks"]], [0, 1])  # from distributedInfo
        times = [x["time_p50_ns"] for x in r["ranks"]]
        self.assertEqual(r["iteration"]["straggler_rank"], times.index(max(times)))
        self.assertAlmostEqual(r["iteration"]["imbalance"], max(times) / (sum(times) / 2) - 1, places=12)
        for x in r["ranks"]:
            self.assertGreater(x["comm_kernels"], 0)  # ncclKernel_SendRecv_* on both ranks
            self.assertGreater(x["comm_ns"], 0)
        table = run("report", *HTA, check=True).stdout
        self.assertIn(f"straggler: rank {r['iteration']['straggler_rank']} ", table)
        self.assertIn("comm (NCCL)", table)

    def test_synthetic_ranks_have_the_expected_straggler_and_communication(self):
        folder = self.path("ranks")
        os.mkdir(folder)
        for rank, compute in enumerate((100, 100, 180, 110)):
            synthetic_rank(os.path.join(folder, f"trace.{rank}.json.gz"), rank, compute, 50)
        r = self.report(folder)
        self.assertEqual([x["rank"] for x in r["ranks"]], [0, 1, 2, 3])
        self.assertEqual([x["comm_ns"] for x in r["ranks"]], [50_000] * 4)
        self.assertEqual([x["compute_ns"] for x in r["ranks"]], [100_000, 100_000, 180_000, 110_000])
        self.assertEqual([x["time_p50_ns"] for x in r["ranks"]], [150_000, 150_000, 230_000, 160_000])
        self.assertEqual(r["iteration"]["straggler_rank"], 2)
        self.assertEqual(r["iteration"]["median_ns"], 155_000)
        self.assertAlmostEqual(r["iteration"]["imbalance"], 230 / 172.5 - 1, places=12)
        modules = [m for m in r["modules"] if m["path"]]
        self.assertTrue(modules, r["modules"])
        self.assertEqual(modules[0]["time_p50_ns"], [100_000, 100_000, 180_000, 110_000])  # compute only
        self.assertEqual(modules[0]["time"]["straggler_rank"], 2)

    def test_rank_matched_diff(self):
        a, b = self.path("A"), self.path("B")
        os.mkdir(a)
        os.mkdir(b)
        for rank, (before, after) in enumerate(((100, 100), (100, 100), (180, 100))):
            synthetic_rank(os.path.join(a, f"run.rank{rank}.json.gz"), rank, before, 50)
            synthetic_rank(os.path.join(b, f"run.rank{rank}.json.gz"), rank, after, 50)
        proc = run("diff", a, b, "--format", "json", "--max-regression", "flops=0.5%", check=True)
        ranks = json.loads(proc.stdout)["ranks"]
        self.assertEqual([r["rank"] for r in ranks], [0, 1, 2])
        # Compare the rank's own B-side total with its A side: only rank 2 got faster.
        files = [os.path.join(b, f"run.rank{r}.json.gz") for r in range(3)]
        files_a = [os.path.join(a, f"run.rank{r}.json.gz") for r in range(3)]
        table = run("diff", *files_a, *files, check=True).stdout
        self.assertIn("3 ranks matched by rank", table)
        row2 = [l for l in table.splitlines() if l.strip().startswith("2 ")][0]
        self.assertIn("230 \u00b5s", row2)
        self.assertIn("150 \u00b5s", row2)
        self.assertIn("-34.8%", row2)
        gate = run("diff", a, b, "--expect-vanished", "*Linear*")
        self.assertEqual(gate.returncode, 1, gate.stderr)
        self.assertIn("gate failed: rank 0:", gate.stderr)
        os.remove(os.path.join(b, "run.rank2.json.gz"))
        self.assertUsageError(run("diff", a, b), "ranks must match one to one")

    def test_bad_rank_sets_are_one_line_errors(self):
        a, b = self.path("a.json.gz"), self.path("b.json.gz")
        synthetic_rank(a, 0, 100, 50)
        synthetic_rank(b, 0, 100, 50)
        self.assertUsageError(run("report", a, b), "rank 0 given twice")
        nameless = self.path("nameless.json.gz")
        synthetic_rank(nameless, 0, 100, 50, with_info=False)
        self.assertUsageError(run("report", a, nameless), "cannot tell its rank")
        empty = self.path("empty")
        os.mkdir(empty)
        self.assertUsageError(run("report", empty), "no run databases or traces")
        self.assertUsageError(run("report", *HTA, "--format", "csv"), "per-rank report")

    def expected_files(self):
        return os.listdir(self.dir)


if __name__ == "__main__":
    unittest.main()
