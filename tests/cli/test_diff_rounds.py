"""diff A.pt B.pt --rounds N: A and B profiled in alternating rounds, each side's rounds joined into one run.

The verdicts are those of the plain diff (rounds change when iterations run, not what runs); each side has
--iters iterations; --rounds on runs, or with fewer iterations than rounds, is one error line.
"""
import json
import unittest

from cli_helpers import CliTestCase, run, sample

INPUT = "int64[1,32]@0:512"


class DiffRoundsTest(CliTestCase):
    def diff_json(self, *extra):
        proc = run("--no-progress", "diff", sample("v1"), sample("v2"), "--input", INPUT, "--format", "json", *extra)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(proc.stdout)

    def test_rounds_give_the_verdicts_of_the_plain_diff(self):
        plain = self.diff_json("--iters", "4")
        rounds = self.diff_json("--iters", "7", "--rounds", "3")  # 3 + 2 + 2 iterations
        self.assertEqual(rounds["summary"]["modules"], plain["summary"]["modules"])
        self.assertEqual(rounds["summary"]["ops"], plain["summary"]["ops"])
        self.assertEqual(rounds["a"]["iterations"], 7)
        self.assertEqual(rounds["b"]["iterations"], 7)
        # Each round is one sample of the time between runs: 3 a side make time assessable; the plain
        # diff (one profile a side) is not.
        self.assertEqual((rounds["a"]["processes"], rounds["b"]["processes"]), (3, 3))
        self.assertNotEqual(rounds["end_to_end"]["time_status"], "not_assessable")
        self.assertEqual(plain["end_to_end"]["time_status"], "not_assessable")
        vanished = sorted(m["path"] for m in rounds["modules"] if m["verdict"] == "VANISHED")
        self.assertEqual(vanished, sorted(m["path"] for m in plain["modules"] if m["verdict"] == "VANISHED"))
        self.assertTrue(vanished)

    def test_rounds_need_two_models_and_enough_iterations(self):
        db = self.path("v1.db")
        run("--no-progress", "profile", sample("v1"), "--input", INPUT, "--iters", "2", "-o", db, check=True)
        self.assertUsageError(run("diff", sample("v1"), db, "--rounds", "2", "--input", INPUT), "--rounds", "TorchScript")
        self.assertUsageError(run("diff", sample("v1"), sample("v2"), "--rounds", "5", "--iters", "3", "--input", INPUT),
                              "--rounds 5", "--iterations")


if __name__ == "__main__":
    unittest.main()
