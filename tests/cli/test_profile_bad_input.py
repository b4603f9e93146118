"""Bad input to `flopscope profile`: one clear line naming the problem, exit 2, nothing left behind."""
import os
import unittest

from cli_helpers import CliTestCase, run, sample


class ProfileBadInput(CliTestCase):
    def profile(self, model, *extra, out="out.db"):
        return run("profile", model, *extra, "-o", self.path(out))

    def test_missing_model(self):
        p = self.profile(self.path("nope.pt"), "--input", "int64[1,8]")
        self.assertUsageError(p, "nope.pt", "no such file")
        self.assertNoFilesLeft()

    def test_not_torchscript(self):
        bogus = self.path("bogus.pt")
        with open(bogus, "w") as f:
            f.write("this is not a model\n")
        p = self.profile(bogus, "--input", "int64[1,8]")
        self.assertUsageError(p, "bogus.pt", "not a TorchScript archive")
        self.assertFalse(os.path.exists(self.path("out.db")))

    def test_malformed_spec(self):
        for spec, needle in [("int64[1,", "missing [shape]"), ("int64[1,x]", "not a positive integer"),
                             ("quux[1,8]", "unknown dtype"), ("int64[1,8]@5:2", "range")]:
            p = self.profile(sample("v1"), "--input", spec)
            self.assertUsageError(p, spec, needle)
        self.assertNoFilesLeft()

    def test_mismatched_spec(self):
        p = self.profile(sample("v1"), "--input", "int64[1,8]", "--input", "int64[1,8]")
        self.assertUsageError(p, "sonnet-mini-v1.pt", "takes 1 input(s), but 2")
        p = self.profile(sample("v1"), "--input", "float32[1,8]")
        self.assertUsageError(p, "sonnet-mini-v1.pt", "forward failed")
        p = self.profile(sample("v1"), "--input", "int64[1,8]@0:100000")
        self.assertUsageError(p, "forward failed")
        self.assertNoFilesLeft()

    def test_unwritable_output(self):
        p = run("profile", sample("v1"), "--input", "int64[1,8]", "-o", self.path("missing-dir/out.db"))
        self.assertUsageError(p, "missing-dir")
        ro = self.path("ro")
        os.mkdir(ro, 0o555)
        if os.geteuid() != 0:  # root can write anywhere
            p = run("profile", sample("v1"), "--input", "int64[1,8]", "-o", os.path.join(ro, "out.db"))
            self.assertUsageError(p, "not writable")
        self.assertEqual(os.listdir(ro), [])

    def test_cuda_device_without_cuda_libtorch(self):
        p = self.profile(sample("v1"), "--input", "int64[1,8]", "--device", "cuda")
        self.assertUsageError(p, "--device cuda", "flopscope exec")
        self.assertNoFilesLeft()

    def test_existing_output_needs_force(self):
        out = self.path("out.db")
        with open(out, "w") as f:
            f.write("keep me")
        p = self.profile(sample("v1"), "--input", "int64[1,8]")
        self.assertUsageError(p, "out.db", "--force")
        with open(out) as f:
            self.assertEqual(f.read(), "keep me")
        p = self.profile(sample("v1"), "--input", "int64[1,8]", "--iters", "1", "--warmup", "0", "--force")
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out, "rb") as f:
            self.assertEqual(f.read(16), b"SQLite format 3\x00")
        self.assertEqual(sorted(os.listdir(self.dir)), ["out.db"])


if __name__ == "__main__":
    unittest.main()
