"""docs/ci/github-actions-flopscope.yml, run step by step as a GitHub runner would, against a throwaway store.

The job's `run:` steps execute in bash with the job's env, `${{ ... }}` expressions filled in from a simulated
event, and `if:` conditions evaluated for the few forms the workflow uses. The user's own export script is
replaced by one that copies a sample model. Two pushes of v2 (bias removed) to main store baselines; then a
pull request with v2 passes the gate and one that brings the bias back (v1) fails it, with the Markdown report
in the step summary.
"""
import os
import re
import shutil
import subprocess
import sys
import unittest

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_helpers import CliTestCase, FLOPSCOPE, SAMPLES, SOURCE_DIR  # noqa: E402
from pg_server import PgServer  # noqa: E402

WORKFLOW = os.path.join(SOURCE_DIR, "docs", "ci", "github-actions-flopscope.yml")


def load_job():
    with open(WORKFLOW) as f:
        doc = yaml.safe_load(f)
    (job,) = doc["jobs"].values()
    return job


class WorkflowRunner:
    """Runs one job of the workflow for one event in a working directory."""

    def __init__(self, workdir, context, secrets):
        self.workdir = workdir
        self.context = context  # e.g. {"github.event_name": "push", "github.base_ref": ""}
        self.secrets = secrets

    def expand(self, text):
        def value(m):
            expr = m.group(1).strip()
            if expr.startswith("secrets."):
                return self.secrets[expr[len("secrets."):]]
            if expr in self.context:
                return self.context[expr]
            raise AssertionError(f"expression the test does not know: {expr}")
        return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))

    def condition(self, expr, failed):
        if expr is None:
            return not failed
        expr = self.expand(expr).strip()
        always = False
        if expr.startswith("always() &&"):
            always, expr = True, expr[len("always() &&"):].strip()
        m = re.fullmatch(r"github\.event_name == '([a-z_]+)'", expr)
        if not m:
            raise AssertionError(f"condition the test does not know: {expr}")
        return (always or not failed) and self.context["github.event_name"] == m.group(1)

    def run(self, job):
        env = dict(os.environ)
        env["PATH"] = os.path.dirname(FLOPSCOPE) + os.pathsep + env["PATH"]
        env["GITHUB_STEP_SUMMARY"] = os.path.join(self.workdir, "step_summary.md")
        env["GITHUB_SHA"] = self.context["github.sha"]
        env["GITHUB_REF_NAME"] = self.context["github.ref_name"]
        for k, v in job.get("env", {}).items():
            env[k] = self.expand(v)
        failed, results = False, []
        for step in job["steps"]:
            if "uses" in step:  # actions/checkout: the working directory is already the checkout
                continue
            if not self.condition(step.get("if"), failed):
                results.append((step["name"], None))
                continue
            proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", self.expand(step["run"])],
                                  cwd=self.workdir, env=env, capture_output=True, text=True, timeout=600)
            results.append((step["name"], proc))
            failed = failed or proc.returncode != 0
        return results


class GithubActionsWorkflowTest(CliTestCase):
    @classmethod
    def setUpClass(cls):
        if not SAMPLES or not os.path.exists(os.path.join(SAMPLES, "sonnet-mini-v1.pt")):
            raise unittest.SkipTest("sample models not built (target sample_models)")
        cls.server = PgServer()
        cls.server.createdb("fleet")
        cls.url = cls.server.url(db="fleet")

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def checkout(self, version, sha):
        """A repository whose export script writes the given sample model to $MODEL."""
        work = self.path(f"checkout-{sha}")
        os.makedirs(os.path.join(work, "build"))
        with open(os.path.join(work, "export_model.py"), "w") as f:
            f.write("import shutil, sys\n"
                    f"shutil.copy({os.path.join(SAMPLES, f'sonnet-mini-{version}.pt')!r}, sys.argv[2])\n")
        return work

    def run_event(self, event, version, sha):
        context = {"github.event_name": event, "github.base_ref": "main" if event == "pull_request" else "",
                   "github.sha": sha, "github.ref_name": "main" if event == "push" else f"pr-{sha}"}
        runner = WorkflowRunner(self.checkout(version, sha), context, {"FLOPSCOPE_STORE": self.url})
        job = load_job()
        # A shorter input than the example's 4096 tokens: five profiles must fit a test's time on 2 cores.
        job["env"]["INPUT"] = "int64[1,64]@0:512"
        return runner, runner.run(job)

    def step(self, results, name):
        return dict(results)[name]

    def test_the_workflow_gates_pull_requests_against_pushed_baselines(self):
        # main carries v2 (the bias removed); the job forbids the bias to come back active.
        for sha in ("c1", "c2"):
            _, results = self.run_event("push", "v2", sha)
            for name, proc in results:
                if proc is not None:
                    self.assertEqual(proc.returncode, 0, f"{name}: {proc.stderr}")
            self.assertIsNone(self.step(results, "Diff against the fleet baseline and gate"))
            self.assertEqual(self.step(results, "Store the run as a baseline").returncode, 0)

        history = subprocess.run([FLOPSCOPE, "history", "--from", self.url, "--format", "csv"],
                                 capture_output=True, text=True, timeout=300)
        self.assertEqual(history.returncode, 0, history.stderr)
        self.assertIn("c1", history.stdout)
        self.assertIn("c2", history.stdout)

        runner, results = self.run_event("pull_request", "v2", "pr1")
        gate = self.step(results, "Diff against the fleet baseline and gate")
        self.assertEqual(gate.returncode, 0, gate.stdout + gate.stderr)
        self.assertIsNone(self.step(results, "Store the run as a baseline"))
        with open(os.path.join(runner.workdir, "step_summary.md")) as f:
            self.assertIn("flopscope diff", f.read())

        # A pull request that brings the bias back: the gate fails, the report still reaches the summary.
        runner, results = self.run_event("pull_request", "v1", "pr2")
        gate = self.step(results, "Diff against the fleet baseline and gate")
        self.assertEqual(gate.returncode, 1, gate.stdout + gate.stderr)
        self.assertIn("forbid-active", gate.stderr)
        self.assertEqual(self.step(results, "Report").returncode, 0)  # `always()`: runs after the failed gate
        self.assertIsNone(self.step(results, "Store the run as a baseline"))
        with open(os.path.join(runner.workdir, "step_summary.md")) as f:
            summary = f.read()
        self.assertIn("adaptive", summary)  # the module path, Markdown-escaped
        self.assertIn("NEW", summary)
        self.assertIn("FAIL", summary)
        self.assertTrue(os.path.exists(os.path.join(runner.workdir, "flopscope.junit.xml")))

    def expected_files(self):
        return os.listdir(self.dir)


if __name__ == "__main__":
    unittest.main()
