"""`flopscope exporter` against hostile names, idle and trickling clients and a source that breaks:
Debian's `promtool check metrics`, prometheus_client's parser, and scrapes timed with 128 bad connections open."""
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_helpers import CliTestCase, run, SOURCE_DIR, FLOPSCOPE  # noqa: E402
from test_exporter_prometheus import free_port, wait_for, write_safetensors  # noqa: E402

PROMTOOL = shutil.which("promtool")
TRACE = os.path.join(SOURCE_DIR, "tests", "data", "kineto",
                     "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
# Parameter names a crafted weights file can hold: quote, backslash, newline, CR, ESC, a bidi override.
HOSTILE = ['q"uote\\back.weight', "new\nline.weight", "carriage\rreturn.weight", "esc\x1b[31m.weight",
           "bidi\u202eevil.weight", "caf\u00e9.weight"]


def scrape(url, timeout=10):
    """(HTTP status, body, seconds)."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode(), time.monotonic() - start
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), time.monotonic() - start


class ExporterFaultsTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.procs = []
        self.weights = self.path("hostile.safetensors")
        write_safetensors(self.weights, {name: [1.0, 0.0] for name in HOSTILE})

    def tearDown(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
                p.wait(timeout=20)
        super().tearDown()

    def serve(self, *sources):
        port = free_port()
        log = open(self.path("exporter.log"), "w")
        p = subprocess.Popen([FLOPSCOPE, "exporter", "--listen", f"127.0.0.1:{port}", *sources],
                             stdout=log, stderr=subprocess.STDOUT)
        log.close()
        self.procs.append(p)
        url = f"http://127.0.0.1:{port}/metrics"
        wait_for("the exporter", lambda: scrape(url, 2)[0] == 200, 30)
        return port, url

    def textfile(self, *sources):
        out = self.path("textfile")
        os.makedirs(out, exist_ok=True)
        run("exporter", *sources, "--textfile", out, "--once", check=True)
        with open(os.path.join(out, "flopscope.prom"), encoding="utf-8") as f:
            return f.read()

    @unittest.skipUnless(PROMTOOL, "promtool not installed (Debian package prometheus)")
    def test_promtool_accepts_the_metrics_with_hostile_names(self):
        text = self.textfile("--weights", self.weights, "--run", TRACE)
        self.assertIn("# TYPE flopscope_iteration_time_seconds summary", text)
        proc = subprocess.run([PROMTOOL, "check", "metrics"], input=text.encode(), capture_output=True,
                              timeout=60)
        print(f"promtool check metrics: exit {proc.returncode} {proc.stdout.decode()}{proc.stderr.decode()}")
        self.assertEqual(proc.returncode, 0, proc.stdout.decode() + proc.stderr.decode())

    def test_every_label_value_parses_back_visible(self):
        text = self.textfile("--weights", self.weights)
        self.assertNotIn("\r", text)
        self.assertNotIn("\x1b", text)
        self.assertNotIn("\u202e", text)
        try:
            from prometheus_client.parser import text_string_to_metric_families
        except ImportError:
            self.skipTest("prometheus_client not installed (Debian package python3-prometheus-client)")
        modules = set()
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if "module" in sample.labels:
                    modules.add(sample.labels["module"])
        # The format's escapes come back as the characters; the others as visible text.
        self.assertIn('q"uote\\back', modules)
        self.assertIn("new\nline", modules)
        self.assertIn("carriage\\x0dreturn", modules)
        self.assertIn("esc\\x1b[31m", modules)
        self.assertIn("bidi\\u202eevil", modules)
        self.assertIn("caf\u00e9", modules)

    def test_scrapes_are_answered_behind_idle_and_trickling_connections(self):
        _, url = self.serve("--weights", self.weights)
        port = int(url.split(":")[2].split("/")[0])
        stop = threading.Event()
        idle, slow = [], []
        for _ in range(64):
            idle.append(socket.create_connection(("127.0.0.1", port)))  # connects, never sends
        for _ in range(64):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"G")
            slow.append(s)

        def trickle():
            # One byte every 2 s on each slow connection; a dropped one is opened again, so the exporter
            # sees 64 trickling clients for the whole test.
            while not stop.wait(2):
                for i, s in enumerate(slow):
                    try:
                        s.sendall(b"E")
                    except OSError:
                        s.close()
                        try:
                            slow[i] = socket.create_connection(("127.0.0.1", port), timeout=2)
                            slow[i].sendall(b"G")
                        except OSError:
                            pass

        t = threading.Thread(target=trickle, daemon=True)
        t.start()
        try:
            time.sleep(0.5)
            times = []
            for _ in range(8):
                status, body, took = scrape(url)
                self.assertEqual(status, 200)
                self.assertIn("flopscope_module_weight_state", body)
                times.append(took)
                time.sleep(0.5)
            print("scrapes with 64 idle and 64 slow connections open: " +
                  ", ".join(f"{t * 1000:.0f} ms" for t in times))
            self.assertLess(max(times), 1.0)
        finally:
            stop.set()
            t.join()
            for s in idle + slow:
                s.close()

    def test_an_unreadable_run_is_down_and_the_others_are_served(self):
        good = self.path("good.json.gz")
        flaky = self.path("flaky.json.gz")
        shutil.copy(TRACE, good)
        shutil.copy(TRACE, flaky)
        _, url = self.serve("--run", good, "--run", flaky, "--weights", self.weights)
        status, body, _ = scrape(url)
        self.assertEqual(status, 200)
        self.assertIn(f'flopscope_source_up{{source="{flaky}",kind="run"}} 1', body)
        with open(flaky, "wb") as f:  # rewritten in place, caught half-way
            f.write(b"\x1f\x8b\x08\x00garbage")
        status, body, _ = scrape(url)
        self.assertEqual(status, 200)
        self.assertIn(f'flopscope_source_up{{source="{flaky}",kind="run"}} 0', body)
        self.assertIn(f'flopscope_source_up{{source="{good}",kind="run"}} 1', body)
        self.assertIn(f'flopscope_module_flops_per_iteration{{source="{good}",module="(model)"}}', body)
        self.assertNotIn(f'flopscope_module_flops_per_iteration{{source="{flaky}"', body)
        self.assertIn("flopscope_module_weight_state{", body)
        self.assertEqual(scrape(url)[0], 200)  # still broken: served again, logged once
        shutil.copy(TRACE, flaky)  # back again: up, its series back
        status, body, _ = scrape(url)
        self.assertIn(f'flopscope_source_up{{source="{flaky}",kind="run"}} 1', body)
        self.assertIn(f'flopscope_module_flops_per_iteration{{source="{flaky}",module="(model)"}}', body)
        with open(self.path("exporter.log")) as f:
            log = f.read()
        self.assertEqual(log.count("flopscope_source_up 0"), 1, log)  # said once, not on every scrape

    def test_a_store_down_at_start_is_served_as_down(self):
        port = free_port()  # nothing listens there: the store is down, not mistyped
        store = f"postgresql://flopscope:secret@127.0.0.1:{port}/fleet"
        probe = run("exporter", "--store", store, "--textfile", self.path("t"), "--once")
        if "no fleet store client" in probe.stderr:
            self.skipTest("this build has no fleet store client (libpq)")
        _, url = self.serve("--store", store, "--store-timeout", "2", "--run", TRACE)
        status, body, _ = scrape(url)
        self.assertEqual(status, 200)
        self.assertRegex(body, r'flopscope_source_up\{source="postgresql://flopscope:[^"]*@127\.0\.0\.1:'
                         + str(port) + r'/fleet",kind="store"\} 0')
        self.assertIn(f'flopscope_source_up{{source="{TRACE}",kind="run"}} 1', body)
        self.assertNotIn("secret", body)
        with open(self.path("exporter.log")) as f:
            log = f.read()
        self.assertIn("flopscope_source_up 0", log)
        self.assertNotIn("secret", log)
        # A store URL that cannot be right is still refused at start-up.
        bad = run("exporter", "--store", "postgres:/nowhere", "--listen", "127.0.0.1:1")
        self.assertEqual(bad.returncode, 2, bad.stderr)


if __name__ == "__main__":
    unittest.main()
