"""flopscope roofline: every module's own work under the device's roof, as a standalone SVG.

On the H100 BERT trace (tests/data/kineto) the roof comes from the peak table and the points are device
time; a CPU run has no roof unless --peak gives one, and the picture says so. Bad options are one error
line and leave no file.
"""
import json
import os
import re
import unittest
import xml.etree.ElementTree as ET

from cli_helpers import CliTestCase, SOURCE_DIR, run

H100 = os.path.join(SOURCE_DIR, "tests", "data", "kineto", "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
SVG = "{http://www.w3.org/2000/svg}"


class RooflineTest(CliTestCase):
    def plot(self, *args):
        out = self.path("r.svg")
        proc = run("roofline", *args, "-o", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        tree = ET.parse(out)  # well-formed XML
        return proc, tree, open(out).read()

    def test_gpu_trace_has_the_device_roof_and_one_circle_per_module(self):
        proc, tree, text = self.plot(H100)
        n = int(re.search(r"wrote .*: (\d+) modules", proc.stderr).group(1))
        circles = tree.getroot().findall(f".//{SVG}circle")
        self.assertEqual(len(circles), n)
        self.assertGreater(n, 10)
        self.assertIn("over device time", proc.stderr)
        self.assertIn("roof: H100", text)
        self.assertEqual(len(tree.getroot().findall(f".//{SVG}polyline")), 1)  # the roof
        # Every point's tooltip names its module and its share of the attainable rate.
        titles = [g.find(f"{SVG}title").text for g in tree.getroot().iter(f"{SVG}g") if g.find(f"{SVG}circle") is not None]
        self.assertTrue(all("of attainable" in t for t in titles), titles[:3])

    def test_nsight_compute_run_plots_its_measured_flops(self):
        # An Nsight Compute CSV has kernels and counters, no ops: its point is the counters' FLOPs over the
        # measured DRAM bytes (it exited 2, "nothing to plot", before), and the picture says so.
        ncu = os.path.join(SOURCE_DIR, "tests", "data", "ncu", "leleucas__bert_torch_nsight.csv")
        proc, tree, text = self.plot(ncu)
        self.assertIn("wrote", proc.stderr)
        self.assertIn("1 module;", proc.stderr)
        self.assertIn("x measured DRAM bytes", proc.stderr)
        self.assertIn("FLOPs measured by hardware counters", text)
        self.assertEqual(len(tree.getroot().findall(f".//{SVG}circle")), 1)
        r = json.loads(run("report", ncu, "--format", "json", check=True).stdout)
        title = [g.find(f"{SVG}title").text for g in tree.getroot().iter(f"{SVG}g") if g.find(f"{SVG}circle") is not None][0]
        self.assertIn("69.4 MFLOPs", title)  # the report's measured total
        self.assertAlmostEqual(r["total"]["measured_flops"], 69.4e6, delta=0.05e6)

    def test_peak_option_replaces_the_table(self):
        proc, tree, text = self.plot(H100, "--peak", "1e12:1e11")
        self.assertIn("roof: user peak", text)
        self.assertIn("1 TFLOP/s peak; ridge 10 FLOP/B", text)

    def test_cpu_run_without_peak_says_there_is_no_roof(self):
        trace = self.path("cpu.json")
        with open(trace, "w") as f:
            json.dump({"schemaVersion": 1, "traceEvents": [
                {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 1, "dur": 100},
                {"ph": "X", "cat": "python_function", "name": "nn.Module: Net_0", "pid": 1, "tid": 1, "ts": 2, "dur": 90},
                {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 3, "dur": 80,
                 "args": {"External id": 2, "Input Dims": [[64, 64], [64, 64]], "Input type": ["float", "float"]}}]}, f)
        proc, tree, text = self.plot(trace)
        self.assertIn("over host time", proc.stderr)
        self.assertIn("no roof for a CPU run", text)
        self.assertEqual(len(tree.getroot().findall(f".//{SVG}circle")), 1)
        self.assertEqual(tree.getroot().findall(f".//{SVG}polyline"), [])
        os.remove(trace)

    def test_bad_options_are_one_line_and_leave_no_file(self):
        self.assertUsageError(run("roofline", H100, "-o", self.path("r.png")), "SVG")
        self.assertUsageError(run("roofline", H100, "-o", self.path("r.svg"), "--peak", "fast"), "--peak")
        self.assertUsageError(run("roofline", self.path("missing.json"), "-o", self.path("r.svg")), "missing.json")
        self.assertEqual(os.listdir(self.dir), [])


if __name__ == "__main__":
    unittest.main()
