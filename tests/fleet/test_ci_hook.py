"""docs/ci/pre-commit-flopscope.sh as a real git pre-commit hook against a throwaway fleet store."""
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_helpers import CliTestCase, run, FLOPSCOPE, SOURCE_DIR  # noqa: E402
from pg_server import PgServer  # noqa: E402

HOOK = os.path.join(SOURCE_DIR, "docs", "ci", "pre-commit-flopscope.sh")
KINETO = os.path.join(SOURCE_DIR, "tests", "data", "kineto")
H100 = os.path.join(KINETO, "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
MI300 = os.path.join(KINETO, "tracelens__mi300__gaunernst_bert-small-uncased__1016001.json.gz")


class PreCommitHookTest(CliTestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = PgServer()
        cls.server.createdb("fleet")
        cls.url = cls.server.url(db="fleet")
        run("push", H100, "--to", cls.url, "--git-branch", "main", "--git-commit", "base", check=True)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def setUp(self):
        super().setUp()
        self.repo = self.path("repo")
        os.mkdir(self.repo)
        self.git("init", "-q")
        shutil.copy(HOOK, os.path.join(self.repo, ".git", "hooks", "pre-commit"))

    def git(self, *args, env=None):
        full = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
                    GIT_COMMITTER_EMAIL="t@example.org", **(env or {}))
        return subprocess.run(["git", *args], cwd=self.repo, env=full, capture_output=True, text=True, timeout=300)

    def commit(self, run_file, gates, store=None):
        with open(os.path.join(self.repo, "model.txt"), "a") as f:
            f.write("change\n")
        self.git("add", "model.txt")
        env = {"FLOPSCOPE": FLOPSCOPE, "FLOPSCOPE_STORE": store or self.url, "FLOPSCOPE_RUN": run_file,
               "FLOPSCOPE_GATES": gates}
        return self.git("commit", "-q", "-m", "change", env=env)

    def commits(self):
        proc = self.git("rev-list", "--count", "HEAD")
        return int(proc.stdout) if proc.returncode == 0 else 0

    def test_passing_gates_allow_the_commit(self):
        proc = self.commit(H100, "--max-regression flops=0.5%,bytes=1%")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("gates passed against the latest 'main' run", proc.stderr)
        self.assertEqual(self.commits(), 1)

    def test_a_failing_gate_blocks_the_commit(self):
        proc = self.commit(MI300, "--forbid-active BertModel.BertEncoder*")
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("gate failed", proc.stderr)
        self.assertIn("commit blocked", proc.stderr)
        self.assertEqual(self.commits(), 0)

    def test_an_unreachable_store_blocks_the_commit(self):
        dead = f"postgresql://flopscope:x@/fleet?host={self.dir}&port=1"
        proc = self.commit(H100, "--max-regression flops=0.5%", store=dead)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("cannot connect", proc.stderr)
        self.assertIn("the check could not run", proc.stderr)
        self.assertEqual(self.commits(), 0)

    def expected_files(self):
        return os.listdir(self.dir)


if __name__ == "__main__":
    unittest.main()
