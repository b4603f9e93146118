"""`flopscope push`, `history` and `diff --baseline` against a real, throwaway PostgreSQL server."""
import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_helpers import CliTestCase, run, SOURCE_DIR, FLOPSCOPE  # noqa: E402
from pg_server import PgServer  # noqa: E402

KINETO = os.path.join(SOURCE_DIR, "tests", "data", "kineto")
H100 = os.path.join(KINETO, "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
MI300 = os.path.join(KINETO, "tracelens__mi300__gaunernst_bert-small-uncased__1016001.json.gz")


class FleetStoreTest(CliTestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = PgServer()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def store(self):
        """A fresh, empty database per test."""
        name = self.id().rsplit(".", 1)[-1].lower()
        self.server.createdb(name)
        return name, self.server.url(db=name)

    def runs_stored(self, db):
        return int(self.server.psql(db, "SELECT count(*) FROM fleet_runs").strip())

    def test_push_is_idempotent_and_history_shows_the_trend(self):
        db, url = self.store()
        first = run("push", H100, "--to", url, "--git-branch", "main", "--git-commit", "c1", check=True)
        self.assertIn("stored as run 1", first.stdout)
        self.assertNotIn("s3cret", first.stdout)  # the password never printed
        again = run("push", H100, "--to", url, "--git-branch", "main", "--git-commit", "c1", check=True)
        self.assertIn("already stored as run 1", again.stdout)
        run("push", MI300, "--to", url, "--git-branch", "main", "--git-commit", "c2", check=True)
        self.assertEqual(self.runs_stored(db), 2)
        # Per module and op signature rows, with device quantiles from the traces' kernels.
        self.assertEqual(self.server.psql(db, "SELECT count(*) > 10 FROM fleet_ops WHERE run_id = 1").strip(), "t")
        self.assertEqual(self.server.psql(db, "SELECT device_p50 > 0 FROM fleet_runs WHERE id = 1").strip(), "t")

        hist = run("history", "--from", url, "--module", "BertModel", "--metric", "p50", "--clock", "device",
                   "--format", "json", check=True)
        j = json.loads(hist.stdout)
        ids = [r["id"] for r in j["runs"]]
        self.assertEqual(len(ids), 2)
        self.assertEqual(ids[0], 1)
        self.assertLess(ids[0], ids[1])
        self.assertEqual([m["path"] for m in j["modules"]], ["BertModel"])
        points = j["modules"][0]["points"]
        self.assertTrue(all(p["present"] and p["value"] > 0 for p in points))
        self.assertAlmostEqual(points[1]["vs_first"], points[1]["value"] / points[0]["value"] - 1, places=9)
        # Host time of a GPU trace exists too; FLOPs are the same analytic count on both machines.
        flops = json.loads(run("history", "--from", url, "--metric", "flops", "--format", "json",
                               check=True).stdout)
        values = [p["value"] for p in flops["modules"][0]["points"]]
        self.assertEqual(len(values), 2)
        self.assertGreater(values[0], 1e9)
        table = run("history", "--from", url, "--module", "BertModel.*", "--metric", "p99", check=True).stdout
        self.assertIn("p99 of host time per iteration of modules matching 'BertModel.*', 2 stored runs", table)
        self.assertIn("BertModel.BertEncoder", table)
        csv = run("history", "--from", url + "&branch=main", "--metric", "bytes", "--format", "csv",
                  check=True).stdout.splitlines()
        self.assertEqual(csv[0], "module,run,pushed_at,git_branch,git_commit,model_sha256,metric,clock,present,value")
        self.assertEqual(len(csv), 3)
        other = run("history", "--from", url + "&branch=nope", "--format", "json", check=True).stdout
        self.assertEqual(json.loads(other)["runs"], [])

    def test_diff_against_the_latest_baseline_applies_the_gates(self):
        db, url = self.store()
        run("push", H100, "--to", url, "--git-branch", "main", check=True)
        run("push", MI300, "--to", url, "--git-branch", "feature", check=True)
        same = run("diff", "--baseline", url + "&branch=main", H100, "--format", "json",
                   "--max-regression", "flops=0.5%")
        self.assertEqual(same.returncode, 0, same.stderr)
        self.assertIn("baseline A is store run 1 (main", same.stderr)
        d = json.loads(same.stdout)
        self.assertTrue(all(g["passed"] for g in d["gates"]), d["gates"])
        # The same gates as a diff of two files: one that fails exits 1.
        slower = run("diff", "--baseline", url + "&branch=main", MI300, "--forbid-active", "BertModel.BertEncoder*")
        self.assertEqual(slower.returncode, 1, slower.stderr)
        self.assertIn("gate failed", slower.stderr)
        median = run("diff", "--baseline", url, "--baseline-median", "2", H100)
        self.assertIn(median.returncode, (0, 1), median.stderr)
        self.assertIn("median of the last 2", median.stderr)
        none = run("diff", "--baseline", url + "&branch=gone", H100)
        self.assertUsageError(none, "no stored run matches branch=gone")

    def test_exporter_reads_the_newest_stored_run(self):
        db, url = self.store()
        out = self.path("textfile")
        os.mkdir(out)
        self.assertUsageError(run("exporter", "--store", url, "--textfile", out, "--once"), "no flopscope store here")
        self.assertEqual(os.listdir(out), [])  # nothing written
        run("push", H100, "--to", url, "--git-branch", "main", check=True)
        run("exporter", "--store", url + "&branch=main", "--textfile", out, "--once", check=True)
        with open(os.path.join(out, "flopscope.prom")) as f:
            text = f.read()
        self.assertIn(' run 1",module="BertModel",clock="device",quantile="0.5"}', text)
        self.assertIn('flopscope_module_flops_per_iteration{source=', text)
        self.assertNotIn("s3cret", text)

    def test_summary_only_runs_cannot_be_baselines(self):
        db, url = self.store()
        run("push", H100, "--to", url, "--summary-only", check=True)
        self.assertUsageError(run("diff", "--baseline", url, H100), "pushed without its run file")

    def test_connection_failures_are_one_line_errors(self):
        db, url = self.store()
        wrong_password = self.server.url(db=db, password="wrong")
        proc = run("push", H100, "--to", wrong_password)
        self.assertUsageError(proc, "password authentication failed", "cannot connect")
        self.assertIn("flopscope:***@", proc.stderr)  # the password is masked
        no_server = f"postgresql://flopscope:x@/postgres?host={self.dir}&port=1"
        self.assertUsageError(run("history", "--from", no_server), "cannot connect")
        self.assertUsageError(run("history", "--from", "mysql://x"), "not a PostgreSQL URL")
        self.assertUsageError(run("history", "--from", url), "no flopscope store here")

    def test_a_newer_store_schema_is_refused(self):
        db, url = self.store()
        run("push", H100, "--to", url, check=True)
        self.server.psql(db, "UPDATE flopscope_store SET value = '99' WHERE key = 'schema_version'")
        self.assertUsageError(run("history", "--from", url), "schema version 99 is newer")
        self.assertUsageError(run("push", MI300, "--to", url), "schema version 99 is newer")
        self.assertEqual(self.runs_stored(db), 1)

    def test_a_failed_push_leaves_nothing_half_written(self):
        db, url = self.store()
        run("push", H100, "--to", url, check=True)
        # Make the last table of a push fail: the run row and its modules must roll back with it.
        self.server.psql(db, "CREATE FUNCTION no_ops() RETURNS trigger LANGUAGE plpgsql AS "
                             "$$BEGIN RAISE EXCEPTION 'disk full (simulated)'; END$$; "
                             "CREATE TRIGGER no_ops BEFORE INSERT ON fleet_ops FOR EACH ROW EXECUTE FUNCTION no_ops()")
        self.assertUsageError(run("push", MI300, "--to", url), "disk full (simulated)")
        self.assertEqual(self.runs_stored(db), 1)
        self.assertEqual(self.server.psql(db, "SELECT count(DISTINCT run_id) FROM fleet_modules").strip(), "1")

    def test_a_repush_under_other_labels_is_refused_not_claimed(self):
        db, url = self.store()
        run("push", H100, "--to", url, "--git-branch", "main", "--git-commit", "c1", check=True)
        proc = run("push", H100, "--to", url, "--git-branch", "release", "--git-commit", "c9")
        self.assertUsageError(proc, "already stored as run 1 with branch main, commit c1",
                              "nothing was recorded for branch release, commit c9")
        self.assertEqual(proc.stdout, "")  # no "stored ... branch release" line
        self.assertEqual(self.server.psql(db, "SELECT git_branch || ' ' || git_commit FROM fleet_runs").strip(),
                         "main c1")
        # history never finds the run under labels it was not stored with, and the push said so.
        other = run("history", "--from", url + "&branch=release", "--format", "json", check=True).stdout
        self.assertEqual(json.loads(other)["runs"], [])
        same = run("push", H100, "--to", url, "--git-branch", "main", "--git-commit", "c1", check=True)
        self.assertIn("already stored as run 1", same.stdout)

    def hold_lock(self, db, seconds):
        """Another session holding an exclusive lock on fleet_runs for `seconds` (as a migration would)."""
        from pg_server import PG_BIN, PORT, USER
        holder = subprocess.Popen(
            [os.path.join(PG_BIN, "psql"), "-h", self.server.socket, "-p", str(PORT), "-U", USER, "-d", db,
             "-At", "-c", f"BEGIN; LOCK TABLE fleet_runs IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep({seconds}); COMMIT;"],
            env=dict(os.environ, PGPASSWORD="s3cret"), stdout=subprocess.DEVNULL)
        self.addCleanup(holder.wait)
        self.addCleanup(holder.terminate)
        # psql prints nothing until the end: wait for the lock to show in pg_locks.
        query = ("SELECT count(*) FROM pg_locks WHERE relation = 'fleet_runs'::regclass "
                 "AND mode = 'AccessExclusiveLock' AND granted")
        deadline = time.monotonic() + 20
        while self.server.psql(db, query).strip() != "1":
            self.assertLess(time.monotonic(), deadline, "the lock holder never took the lock")
            time.sleep(0.1)
        return holder

    def test_a_push_behind_a_lock_gives_up_with_a_message(self):
        db, url = self.store()
        run("push", H100, "--to", url, check=True)
        self.hold_lock(db, 30)
        start = time.monotonic()
        proc = run("push", MI300, "--to", url, "--lock-timeout", "2")
        took = time.monotonic() - start
        print(f"push behind a held lock: exit {proc.returncode} after {took:.1f} s: {proc.stderr.strip()}")
        self.assertUsageError(proc, "waited 2 s for a lock another session holds on the store (lock_timeout)",
                              "nothing was stored")
        self.assertLess(took, 10)
        self.assertNotIn("s3cret", proc.stderr)

    def test_exporter_store_behind_a_lock_is_down_not_hung(self):
        db, url = self.store()
        run("push", H100, "--to", url, check=True)
        out = self.path("textfile")
        os.mkdir(out)
        # --once needs every source at start (exit 2, nothing written); the served exporter starts with the
        # store down and isolates it (test_exporter_faults).
        self.hold_lock(db, 30)
        start = time.monotonic()
        proc = run("exporter", "--store", url, "--textfile", out, "--once", "--store-timeout", "2")
        took = time.monotonic() - start
        print(f"exporter --once behind a held lock: exit {proc.returncode} after {took:.1f} s")
        self.assertUsageError(proc, "(lock_timeout)" if "lock_timeout" in proc.stderr else "(statement_timeout)")
        self.assertLess(took, 10)
        self.assertEqual(os.listdir(out), [])

    def test_a_locked_store_is_down_and_the_scrape_answered(self):
        from test_exporter_faults import scrape
        from test_exporter_prometheus import free_port, wait_for
        db, url = self.store()
        run("push", H100, "--to", url, check=True)
        port = free_port()
        exporter = subprocess.Popen([FLOPSCOPE, "exporter", "--listen", f"127.0.0.1:{port}", "--store", url,
                                     "--run", H100, "--store-timeout", "2"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.addCleanup(exporter.stderr.close)
        self.addCleanup(exporter.wait)
        self.addCleanup(exporter.terminate)
        metrics = f"http://127.0.0.1:{port}/metrics"
        wait_for("the exporter", lambda: scrape(metrics, 5)[0] == 200, 30)
        self.hold_lock(db, 30)
        status, body, took = scrape(metrics, 20)
        print(f"scrape with the store locked: HTTP {status} in {took:.1f} s")
        self.assertEqual(status, 200)
        self.assertLess(took, 5)
        shown = url.replace(":s3cret@", ":***@")
        self.assertIn(f'flopscope_source_up{{source="{shown}",kind="store"}} 0', body)
        self.assertIn(f'flopscope_source_up{{source="{H100}",kind="run"}} 1', body)
        self.assertIn(f'flopscope_module_flops_per_iteration{{source="{H100}",module="(model)"}}', body)
        self.assertNotIn("s3cret", body)

    def test_passwords_are_masked_in_every_url_form(self):
        db, url = self.store()
        socket_dir = self.server.socket
        forms = [
            f"host={socket_dir} port=1 user=flopscope password=hunter2 dbname={db}",  # libpq keyword form
            "postgresql:/flopscope:hunter2@localhost/db",  # a typo: one slash
            "mysql://flopscope:hunter2@localhost/db",  # another scheme
            f"postgresql://flopscope:hunter2@/{db}?host={socket_dir}&port=1",  # no server there
            f"postgresql:///{db}?host={socket_dir}&port=1&password=hunter2",
        ]
        for form in forms:
            for cmd in (["push", H100, "--to", form], ["history", "--from", form],
                        ["diff", "--baseline", form, H100]):
                proc = run(*cmd)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertNotIn("hunter2", proc.stderr + proc.stdout, (cmd, proc.stderr))
                self.assertIn("***", proc.stderr, (cmd, proc.stderr))


if __name__ == "__main__":
    unittest.main()
