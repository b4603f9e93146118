"""flopscope export --chrome-trace of a bundled H100 trace, imported again, is the same run: the runtime calls
that launched kernels (count, names, total host time), kernels (count, device time), the device name (so the
roofline finds its peak) and the report's totals (FLOPs, bytes, device time). The trace was recorded with its
Python stack: every python_function event and every runtime call, launching or not, comes back with its
start, duration and thread, and the deviceProperties entries with every field. No LibTorch needed."""
import gzip
import json
import os
import sqlite3
import unittest

from cli_helpers import CliTestCase, SOURCE_DIR, run

H100 = os.path.join(SOURCE_DIR, "tests", "data", "kineto",
                    "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
RUNTIME_CATS = {"cuda_runtime", "cuda_driver"}
DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}


def events(trace):
    with gzip.open(trace, "rt") as f:
        return json.load(f)


def launch_calls(doc):
    """The runtime calls whose correlation id a device activity carries: {correlation: (name, ts, dur)},
    host clock, microseconds as written."""
    device = {e["args"]["correlation"] for e in doc["traceEvents"]
              if e.get("cat") in DEVICE_CATS and "correlation" in e.get("args", {})}
    return {e["args"]["correlation"]: (e["name"], float(e["ts"]), float(e["dur"]))
            for e in doc["traceEvents"]
            if e.get("cat") in RUNTIME_CATS and e.get("args", {}).get("correlation") in device}


def kernel_origin(doc):
    """The first kernel's start (us as written): host and device events of one trace share a clock, and each
    file counts from its own origin, so starts are compared from it."""
    return min(float(e["ts"]) for e in doc["traceEvents"] if e.get("cat") == "kernel")


def python_frames(doc):
    """Every python_function event: (start from the first kernel, duration, thread, name, Python id, parent),
    in us as written, sorted."""
    t0 = kernel_origin(doc)
    return sorted((round(float(e["ts"]) - t0, 3), float(e["dur"]), int(e["tid"]), e["name"],
                   e["args"].get("Python id"), e["args"].get("Python parent id"))
                  for e in doc["traceEvents"] if e.get("cat") == "python_function" and e.get("ph") == "X")


def runtime_calls(doc):
    """Every runtime call, launching or not: (category, name, start from the first kernel, duration, thread,
    correlation), sorted."""
    t0 = kernel_origin(doc)
    return sorted((e["cat"], e["name"], round(float(e["ts"]) - t0, 3), float(e["dur"]), int(e["tid"]),
                   e.get("args", {}).get("correlation", -1))
                  for e in doc["traceEvents"] if e.get("cat") in RUNTIME_CATS and e.get("ph") == "X")


def stored_host_events(db):
    """The host_event rows, starts from the first kernel's (each import has its own origin)."""
    with sqlite3.connect(db) as c:
        t0 = c.execute("SELECT min(start_ns) FROM kernel WHERE kind = 'kernel'").fetchone()[0]
        return c.execute("SELECT category, name, start_ns - ?, duration_ns, thread, correlation, python_id, "
                         "python_parent_id FROM host_event ORDER BY id", (t0,)).fetchall()


def db_facts(db):
    with sqlite3.connect(db) as c:
        q = lambda sql: c.execute(sql).fetchall()
        return {
            "device": q("SELECT device FROM run")[0][0],
            # The export carries the nn.Module frames and the module ranges named by path for the same calls:
            # the tree is built once, from the paths.
            "modules": q("SELECT path FROM module ORDER BY path"),
            "kernels": q("SELECT count(*), sum(duration_ns) FROM kernel")[0],
            "launches": q("SELECT count(DISTINCT correlation), sum(launch_duration_ns) FROM "
                          "(SELECT DISTINCT correlation, launch_duration_ns FROM kernel "
                          "WHERE launch_duration_ns >= 0)")[0],
            # The call's start from its kernel's: each import counts from its own earliest event.
            "launch_rows": q("SELECT correlation, launch_name, start_ns - launch_start_ns, launch_duration_ns "
                             "FROM kernel ORDER BY correlation, start_ns"),
        }


def report_totals(db):
    proc = run("report", db, "--format", "json", check=True)
    r = json.loads(proc.stdout)
    t = r["total"]
    return {"flops": t["flops"], "bytes_read": t["bytes_read"], "bytes_written": t["bytes_written"],
            "kernels": t["kernels"], "ops": t["ops"], "device time": r["attribution"]["kernel_time_ns"],
            "roofline": r["roofline"] is not None}


class ExportRoundTrip(CliTestCase):
    def setUp(self):
        super().setUp()
        self.a = self.path("a.db")
        run("import", H100, "-o", self.a, check=True)
        self.trace = self.path("a.json.gz")
        proc = run("export", self.a, "--chrome-trace", self.trace, check=True)
        print(proc.stderr.strip())
        self.back = self.path("back.db")
        run("import", self.trace, "-o", self.back, check=True)

    def test_runtime_calls_keep_their_names_starts_and_durations(self):
        source, export = launch_calls(events(H100)), launch_calls(events(self.trace))
        self.assertEqual(len(export), len(source))
        self.assertEqual(sorted(n for n, _, _ in export.values()), sorted(n for n, _, _ in source.values()))
        total = lambda calls: round(sum(d for _, _, d in calls.values()), 3)
        print(f"runtime calls that launched a device activity: source {len(source)}, {total(source)} us; "
              f"export {len(export)}, {total(export)} us")
        self.assertEqual(total(export), total(source))
        self.assertGreater(total(export), 0)
        # Each call starts where it did, relative to the kernel it launched (the host and device clocks of
        # one trace share an origin; the export shifts both by the same amount).
        kernel_ts = lambda doc: {e["args"]["correlation"]: float(e["ts"]) for e in doc["traceEvents"]
                                 if e.get("cat") in DEVICE_CATS and "correlation" in e.get("args", {})}
        ks, ke = kernel_ts(events(H100)), kernel_ts(events(self.trace))
        for corr, (_, ts, _) in source.items():
            self.assertAlmostEqual(ks[corr] - ts, ke[corr] - export[corr][1], places=3, msg=corr)

    def test_python_frames_keep_their_starts_durations_threads_and_ids(self):
        source, export = python_frames(events(H100)), python_frames(events(self.trace))
        print(f"python_function events: source {len(source)}, export {len(export)}; total duration "
              f"{round(sum(f[1] for f in source), 3)} us -> {round(sum(f[1] for f in export), 3)} us")
        self.assertEqual(len(source), 1385)
        self.assertEqual(export, source)

    def test_every_runtime_call_comes_back_launching_or_not(self):
        source, export = runtime_calls(events(H100)), runtime_calls(events(self.trace))
        names = lambda calls: sorted({c[1] for c in calls})
        print(f"runtime events (cuda_runtime + cuda_driver): source {len(source)}, export {len(export)}; "
              f"names {names(source)}")
        self.assertEqual(len(source), 132)
        self.assertIn("cudaStreamSynchronize", names(export))
        self.assertEqual(export, source)

    def test_reimport_keeps_the_host_events(self):
        a, back = stored_host_events(self.a), stored_host_events(self.back)
        print(f"host_event rows: {len(a)} -> {len(back)}")
        self.assertGreater(len(a), 1385)
        self.assertEqual(back, a)

    def test_device_properties_kept_whole(self):
        source = events(H100)["deviceProperties"]
        export = events(self.trace)["deviceProperties"]
        self.assertEqual(len(export), len(source))
        for s, e in zip(source, export):
            print(f"deviceProperties: {len(s)} fields in the source, {len(e)} in the export")
            self.assertEqual({k: e[k] for k in s}, s)
        # Exported again from the re-import: the same entries (flopscope's peak fields added once).
        again = self.path("again.json")
        run("export", self.back, "--chrome-trace", again, check=True)
        with open(again) as f:
            self.assertEqual(json.load(f)["deviceProperties"], export)

    def test_reimport_keeps_kernels_launches_and_device(self):
        a, back = db_facts(self.a), db_facts(self.back)
        print(f"kernels (count, device ns): {a['kernels']} -> {back['kernels']}; launches (count, host ns): "
              f"{a['launches']} -> {back['launches']}; device: {a['device']!r} -> {back['device']!r}")
        self.assertEqual(a["kernels"][0], 61)
        self.assertEqual(back, a)

    def test_report_totals_and_roofline_survive(self):
        a, back = report_totals(self.a), report_totals(self.back)
        print(f"report totals: {a} -> {back}")
        self.assertTrue(a["roofline"])
        self.assertEqual(back, a)
        proc = run("roofline", self.back, "-o", self.path("roof.svg"))
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_metadata_names_processes_threads_and_devices(self):
        doc = events(self.trace)
        meta = [e for e in doc["traceEvents"] if e.get("ph") == "M"]
        names = {(e["name"], e["pid"], e["tid"]): e["args"] for e in meta}
        kernels = [e for e in doc["traceEvents"] if e.get("cat") == "kernel"]
        for k in kernels:
            self.assertIn(("thread_name", k["pid"], k["tid"]), names)
            self.assertIn(("process_name", k["pid"], 0), names)
            self.assertIn(("process_sort_index", k["pid"], 0), names)
        self.assertEqual([d["name"] for d in doc["deviceProperties"]], ["NVIDIA H100 80GB HBM3"])
        self.assertGreater(doc["deviceProperties"][0]["flopscope peak FLOP/s (dense 16-bit)"], 0)


if __name__ == "__main__":
    unittest.main()
