"""`flopscope exporter` scraped by a real Prometheus server (Debian's `prometheus`), all on loopback."""
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import unittest
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "cli"))
from cli_helpers import CliTestCase, run, sample, FLOPSCOPE  # noqa: E402

PROMETHEUS = shutil.which("prometheus") or "/usr/bin/prometheus"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_safetensors(path, tensors):
    """tensors: name -> list of float32 values (an empty list is a zero-size, i.e. erased, tensor)."""
    header, data = {}, b""
    for name, values in tensors.items():
        blob = struct.pack(f"<{len(values)}f", *values)
        header[name] = {"dtype": "F32", "shape": [len(values)], "data_offsets": [len(data), len(data) + len(blob)]}
        data += blob
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + data)
    os.replace(tmp, path)


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.headers.get("Content-Type", ""), r.read().decode()


def wait_for(what, predicate, timeout_s=60):
    deadline = time.monotonic() + timeout_s
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except OSError as e:  # not listening yet
            last = e
        time.sleep(0.3)
    raise AssertionError(f"timed out after {timeout_s}s waiting for {what} (last: {last!r})")


class ExporterTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.procs = []
        self.weights = self.path("model.safetensors")
        write_safetensors(self.weights, {
            "blocks.0.attn.weight": [0.5, -1.0, 2.0, 0.0],
            "blocks.0.bias.weight": [0.0, 0.0, 0.0, 0.0],
            "blocks.1.gone.weight": [],
            'odd"name\\x.weight': [1.0],
            "cr\rbidi\u202ename.weight": [1.0],  # no escape for CR in the format: shown as text
        })

    def tearDown(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        super().tearDown()

    def start(self, cmd, log):
        f = open(self.path(log), "w")
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT)
        f.close()
        self.procs.append(p)
        return p

    def start_exporter(self):
        port = free_port()
        self.start([FLOPSCOPE, "exporter", "--listen", f"127.0.0.1:{port}", "--weights", self.weights], "exporter.log")
        url = f"http://127.0.0.1:{port}/metrics"
        wait_for("the exporter", lambda: get(url)[0] == 200, 30)
        return port, url

    def test_prometheus_scrapes_the_weight_states(self):
        port, _ = self.start_exporter()
        prom_port = free_port()
        config = self.path("prometheus.yml")
        with open(config, "w") as f:
            f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                    "scrape_configs:\n  - job_name: flopscope\n    static_configs:\n"
                    f"      - targets: ['127.0.0.1:{port}']\n")
        self.start([PROMETHEUS, f"--config.file={config}", f"--storage.tsdb.path={self.path('tsdb')}",
                    f"--web.listen-address=127.0.0.1:{prom_port}", "--log.level=warn"], "prometheus.log")
        api = f"http://127.0.0.1:{prom_port}/api/v1/query?query="

        def series():
            q = urllib.parse.quote('flopscope_module_weight_state == 1')
            status, _, body = get(api + q)
            result = json.loads(body)["data"]["result"]
            return result if len(result) >= 5 else None

        result = wait_for("Prometheus to scrape the exporter", series, 60)
        states = {r["metric"]["module"]: r["metric"]["state"] for r in result}
        self.assertEqual(states["blocks.0.attn"], "ACTIVE")
        self.assertEqual(states["blocks.0.bias"], "ZEROED")
        self.assertEqual(states["blocks.1.gone"], "ERASED")
        self.assertEqual(states["blocks"], "ACTIVE")
        self.assertEqual(states['odd"name\\x'], "ACTIVE")  # escaped on the wire, intact in Prometheus
        self.assertEqual(states["cr\\x0dbidi\\u202ename"], "ACTIVE")  # Prometheus took the visible form
        self.assertTrue(all(r["metric"]["job"] == "flopscope" for r in result))
        # Prometheus saw the target healthy.
        _, _, targets = get(f"http://127.0.0.1:{prom_port}/api/v1/targets")
        self.assertEqual(json.loads(targets)["data"]["activeTargets"][0]["health"], "up")

    def test_sources_are_reread_when_they_change(self):
        _, url = self.start_exporter()
        status, ctype, body = get(url)
        self.assertEqual(status, 200)
        self.assertIn("text/plain; version=0.0.4", ctype)
        zeroed = 'flopscope_module_weight_state{source="%s",module="blocks.0.bias",state="ZEROED"} 1' % self.weights
        self.assertIn(zeroed, body)
        self.assertIn('module="odd\\"name\\\\x"', body)  # label escaping per the exposition format
        write_safetensors(self.weights, {"blocks.0.bias.weight": [0.0, 3.0]})

        def reread():
            b = get(url)[2]
            return b if "blocks.0.attn" not in b else None

        body = wait_for("the new weights", reread, 10)
        self.assertIn('module="blocks.0.bias",state="ZEROED"} 0', body)

    def test_textfile_once_and_errors(self):
        out = self.path("textfile")
        os.mkdir(out)
        run("exporter", "--weights", self.weights, "--textfile", out, "--once", check=True)
        with open(os.path.join(out, "flopscope.prom")) as f:
            text = f.read()
        self.assertIn("# TYPE flopscope_module_weight_state gauge", text)
        self.assertIn('module="blocks.1.gone",state="ERASED"} 1', text)
        self.assertEqual(os.listdir(out), ["flopscope.prom"])
        self.assertUsageError(run("exporter", "--weights", self.path("missing.safetensors"), "--textfile", out,
                                  "--once"), "missing.safetensors")
        self.assertUsageError(run("exporter", "--weights", self.weights, "--listen", "nonsense"), "--listen")
        self.assertUsageError(run("exporter", "--once", "--weights", self.weights), "--textfile")

    def test_a_run_exports_costs_and_latency(self):
        trace = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "kineto",
                             "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
        out = self.path("textfile")
        os.mkdir(out)
        run("exporter", "--run", trace, "--textfile", out, "--once", check=True)
        with open(os.path.join(out, "flopscope.prom")) as f:
            lines = f.read().splitlines()
        flops = [l for l in lines if l.startswith("flopscope_module_flops_per_iteration{") and 'module="(model)"' in l]
        self.assertEqual(len(flops), 1)
        self.assertGreater(float(flops[0].rsplit(" ", 1)[1]), 1e9)
        device = [l for l in lines if l.startswith("flopscope_iteration_time_seconds{") and 'clock="device"' in l]
        # The trace holds one iteration: P50 of the kernels' time only; P90 needs 10 iterations, P99 100.
        self.assertEqual([l.split('quantile="')[1].split('"')[0] for l in device], ["0.5"])
        for l in lines:  # every sample line is NAME{LABELS} VALUE
            if not l.startswith("#"):
                self.assertRegex(l, r'^[a-z_]+\{.*\} -?[0-9.e+-]+$')

    @unittest.skipUnless(os.path.exists(sample("v1")), "sample models not built (FLOPSCOPE_SAMPLES)")
    def test_a_diff_exports_its_output_change(self):
        dbs = []
        for v, seed in (("v1", "0"), ("v2", "0"), ("v2", "7")):
            db = self.path(f"{v}-{seed}.db")
            run("--no-progress", "profile", sample(v), "--input", "int64[1,16]@0:512", "--iters", "1", "--seed", seed,
                "--save-outputs", "-o", db, check=True)
            dbs.append(db)
        out = self.path("textfile")
        os.mkdir(out)
        run("exporter", "--diff", dbs[0], dbs[1], "--diff", dbs[0], dbs[2], "--textfile", out, "--once", check=True)
        with open(os.path.join(out, "flopscope.prom")) as f:
            lines = f.read().splitlines()
        def value(name, b):
            found = [l for l in lines if l.startswith(name + "{") and f'source="{dbs[0]} -> {b}"' in l]
            return float(found[0].rsplit(" ", 1)[1]) if found else None
        # v1 -> v2 on the same inputs: compared, a change far below 1e-5 (the bias is about 1e-7), top-1 all agree.
        self.assertEqual(value("flopscope_diff_outputs_compared", dbs[1]), 1)
        self.assertLess(value("flopscope_diff_output_max_relative_change", dbs[1]), 1e-5)
        self.assertEqual(value("flopscope_diff_output_top1_agreement", dbs[1]), 1)
        # Another seed: other inputs, not compared, and no change figure at all.
        self.assertEqual(value("flopscope_diff_outputs_compared", dbs[2]), 0)
        self.assertIsNone(value("flopscope_diff_output_max_relative_change", dbs[2]))

    def expected_files(self):
        return os.listdir(self.dir)


if __name__ == "__main__":
    unittest.main()
