"""flopscope report's Memory section on the H100 BERT trace (torch.profiler with profile_memory=True: 236
"[memory]" events, 218 on cuda:0 and 18 on the CPU), held against a direct count of the trace's events made
here: per device, bytes allocated and freed, the peak of "Total Allocated", the events inside no op of their
own thread; per op name, the bytes allocated by the innermost op and with the ops nested in it.
"""
import collections
import gzip
import json
import os
import unittest

from cli_helpers import CliTestCase, SOURCE_DIR, run

KINETO = os.path.join(SOURCE_DIR, "tests", "data", "kineto")
H100 = os.path.join(KINETO, "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
NO_MEMORY = os.path.join(KINETO, "synthetic__multipass_modules.json")


def ns(us):
    return round(float(us) * 1000)


def device_name(args):
    kind, index = args["Device Type"], args.get("Device Id", -1)
    return "cpu" if kind == 0 else ("cuda:%d" % index if kind == 1 else "hip:%d" % index)


def direct_count(path):
    """The figures counted straight from the trace: every op is a cpu_op "X" event (no ProfilerStep#), an
    event belongs to the ops of its own thread whose interval [ts, ts + dur] holds it, the innermost
    being the one that started last (the shorter at one start)."""
    with gzip.open(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    ops = collections.defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and not e["name"].startswith("ProfilerStep#"):
            start = ns(e["ts"])
            ops[e["tid"]].append((start, start + ns(e["dur"]), e["name"]))
    devices = collections.defaultdict(lambda: collections.Counter(peak=-1))
    own = collections.Counter()
    with_nested = collections.Counter()
    memory = [e for e in events if e.get("ph") == "i" and e.get("name") == "[memory]"]
    for e in memory:
        t, a = ns(e["ts"]), e["args"]
        d, size = device_name(a), a["Bytes"]
        figures = devices[d]
        figures["allocated" if size >= 0 else "freed"] += abs(size)
        figures["peak"] = max(figures["peak"], a["Total Allocated"])
        holding = sorted((op for op in ops[e["tid"]] if op[0] <= t <= op[1]), key=lambda op: (op[0], -op[1]))
        if not holding:
            figures["outside" if size >= 0 else "outside_freed"] += abs(size)
            continue
        if size > 0:
            own[(holding[-1][2], d)] += size
            for op in holding:
                with_nested[(op[2], d)] += size
    return len(memory), devices, own, with_nested


def report(*args):
    return run("report", *args, check=True).stdout


class ReportMemoryTest(CliTestCase):
    @classmethod
    def setUpClass(cls):
        cls.expected = direct_count(H100)
        cls.json = json.loads(report(H100, "--format", "json"))["memory"]

    def test_per_device_totals_match_the_trace(self):
        count, devices, _, _ = self.expected
        self.assertEqual(count, 236)
        self.assertEqual(self.json["events"], count)
        self.assertEqual(self.json["clock"], "host timestamps")
        got = {d["device"]: d for d in self.json["devices"]}
        self.assertEqual(list(got), ["cuda:0", "cpu"])  # the GPU first
        for name, want in devices.items():
            self.assertEqual(got[name]["allocated_bytes"], want["allocated"], name)
            self.assertEqual(got[name]["freed_bytes"], want["freed"], name)
            self.assertEqual(got[name]["net_bytes"], want["allocated"] - want["freed"], name)
            self.assertEqual(got[name]["peak_allocated_bytes"], want["peak"], name)
            self.assertEqual(got[name]["outside_every_op"]["allocated_bytes"], want["outside"], name)
            self.assertEqual(got[name]["outside_every_op"]["freed_bytes"], want["outside_freed"], name)

    def test_per_op_allocations_match_the_trace(self):
        _, devices, own, with_nested = self.expected
        got_own = {(o["name"], o["device"]): o["self"]["allocated_bytes"] for o in self.json["ops"]}
        got_total = {(o["name"], o["device"]): o["total"]["allocated_bytes"] for o in self.json["ops"]}
        self.assertEqual({k: v for k, v in got_own.items() if v}, dict(own))
        self.assertEqual({k: v for k, v in got_total.items() if v}, dict(with_nested))
        # The own column adds up: every byte allocated is one op's or outside every op.
        for name, want in devices.items():
            ops = sum(v for (op, d), v in got_own.items() if d == name)
            self.assertEqual(ops + want["outside"], want["allocated"], name)
        # The root module holds every attributed byte (its ops are every op's).
        root = {m["device"]: m["total"]["allocated_bytes"] for m in self.json["modules"] if m["path"] == ""}
        for name, want in devices.items():
            self.assertEqual(root.get(name, 0), want["allocated"] - want["outside"], name)

    def test_table_and_markdown_have_the_section(self):
        text = report(H100)
        self.assertIn("memory (236 allocator events from profile_memory, on host timestamps", text)
        self.assertIn("top modules by bytes allocated", text)
        top = self.json["ops"][0]
        self.assertIn(top["name"], text)
        md = report(H100, "--format", "md")
        self.assertIn("**Memory**", md)
        self.assertIn("| cuda:0 | 218 |", md)

    def test_no_section_without_memory_events(self):
        self.assertNotIn("allocator events", report(NO_MEMORY))
        self.assertIsNone(json.loads(report(NO_MEMORY, "--format", "json"))["memory"])


if __name__ == "__main__":
    unittest.main()
