"""flopscope report on GPU traces: device time beside host time, achieved FLOP/s and bytes/s with the
roofline bound per module, top op and op group, and coverage gaps weighted by device time, in every format.

The H100 BERT trace's LM-head GEMM (4,411,192,050 FLOPs, one 41.28 us kernel) runs at 106.86 TFLOP/s,
the rate TraceLens' GEMM.csv gives for it.
"""
import json
import os
import re
import unittest

from cli_helpers import CliTestCase, SOURCE_DIR, run

KINETO = os.path.join(SOURCE_DIR, "tests", "data", "kineto")
H100 = os.path.join(KINETO, "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
SGLANG = os.path.join(KINETO, "tracelens__sglang_Qwen3-8B_prefilldecode.json.gz")


def report(*args):
    proc = run("report", *args)
    if proc.returncode != 0:
        raise AssertionError(proc.stderr)
    return proc.stdout


class ReportDeviceTest(CliTestCase):
    def test_json_rates_per_module_top_op_and_group(self):
        r = json.loads(report(H100, "--format", "json"))
        self.assertEqual(r["version"], 8)
        head = r["top_ops"][0]
        self.assertEqual(head["module"], "BertOnlyMLMHead.BertLMPredictionHead.Linear")
        rates = head["device_rates"]
        self.assertAlmostEqual(rates["achieved_flops_per_s"], 4411192050 / 41280e-9, delta=1e3)
        self.assertAlmostEqual(rates["achieved_flops_per_s"], head["flops"] / (head["device_time_ns"] * 1e-9))
        self.assertAlmostEqual(rates["achieved_bytes_per_s"], head["bytes"] / (head["device_time_ns"] * 1e-9))
        self.assertEqual(rates["bound"], "memory")  # 110 FLOP/B, below the H100's ridge of ~295
        peak = r["roofline"]["peak"]
        self.assertAlmostEqual(rates["attainable_flops_per_s"], rates["intensity"] * peak["bytes_per_s"])
#Modules : inclusive work over the mean device time; the root 's equals the run' s roofline.
        root = r["modules"][0]
        self.assertAlmostEqual(root["device_rates"]["achieved_flops_per_s"], r["roofline"]["achieved_flops_per_s"])
        self.assertEqual(root["device_rates"]["bound"], "memory")
#Op groups : the op's own count per call over its kernels; SDPA 40,716,288 FLOPs per call.
        sdpa = [g for g in r["op_groups"] if g["name"] == "aten::_scaled_dot_product_flash_attention"]
        self.assertEqual(len(sdpa), 4)
        for g in sdpa:
            self.assertEqual(g["flops"], 40716288)
            self.assertAlmostEqual(g["device_rates"]["achieved_flops_per_s"], 40716288 / (g["device_time_ns"] * 1e-9))
#Ops without kernels have no device rates.
        self.assertTrue(all(g["device_rates"] is None for g in r["op_groups"] if g["device_time_ns"] == 0))

    def test_top_ops_rows_stay_aligned_with_long_op_names(self):
        # aten::scaled_dot_product_attention (34 characters) once pushed its row's columns right of the header's.
        lines = report(H100).splitlines()
        start = next(i for i, l in enumerate(lines) if l.startswith("top ops ("))
        header, rows = lines[start + 1], []
        for line in lines[start + 2:]:
            if not line.strip():
                break
            rows.append(line)
        self.assertTrue(any(r.startswith("aten::scaled_dot_product_attention ") for r in rows), rows)
        calls_end = header.index("calls") + len("calls")
        module_start = header.index("module")
        for row in rows:
            self.assertRegex(row[:calls_end], r" \d+\.\d$", f"calls column moved:\n{header}\n{row}")
            self.assertEqual(row[module_start - 1], " ", f"op column overflows into module:\n{header}\n{row}")

    def test_a_share_above_the_roof_is_marked_and_explained(self):
#Under a roof of 0.5 TB / s the bert trace's memory-bound modules move more analytic bytes per second
#than the roof allows : marked "^" and explained under the table, never printed as a plain 140 %.
        text = report(H100, "--peak", "989e12:0.5e12")
        marked = [l for l in text.splitlines() if re.search(r"memory [0-9.]+%\^", l)]
        self.assertTrue(marked, text)
        for line in marked:
            self.assertGreater(float(re.search(r"memory ([0-9.]+)%\^", line).group(1)), 100)
        self.assertIn("^ above 100% of the roof", text)
        unmarked = re.findall(r"(?:memory|compute) ([0-9.]+)%(?!\^)", text)
        self.assertTrue(all(float(v) <= 100 for v in unmarked), unmarked)
        self.assertNotIn("above 100% of the roof", report(H100))  # the H100 row's own roof: none above

    def test_table_and_markdown_label_both_clocks_and_the_rates(self):
        text = report(H100)
        header = next(l for l in text.splitlines() if l.startswith("module "))
        for col in ("dev P50", "host P50", "comm", "FLOP/s dev", "B/s dev", "bound (dev)"):
            self.assertIn(col, header)
#The share names its denominator : device time per iteration(kernels of every kind), not host time.
        self.assertIn("top ops (per iteration; dev% of device time per iteration)\n", text)
        top = text.split("top ops (per iteration; dev% of device time per iteration)\n", 1)[1].splitlines()
        for col in ("host time", "dev%", "dev time", "FLOP/s dev", "B/s dev", "bound (dev)"):
            self.assertIn(col, top[0])
#The LM head : 41.3 us of 309 us device time per iteration, 107 TFLOP / s, memory - bound.
        self.assertRegex(top[1], r"^aten::linear .* 13\.3% +41\.3 µs +107 T +971 G +memory 29\.0%$")
        md = report(H100, "--format", "md")
        self.assertIn("| dev P50 | dev P99 | time % | params | own params | param bytes | host P50 | comm | FLOP/s dev | B/s dev | bound (dev) |", md)
        self.assertIn("**Top ops** (per iteration)", md)
        self.assertIn("| dev% (of device time per iteration) |", md)
        self.assertRegex(md, r"\| `aten::linear` \| `BertOnlyMLMHead.BertLMPredictionHead.Linear` \| 1.0 \| "
                             r"4.41 GFLOPs \| 42 µs \| 41.3 µs \| 13.3% \| 107 T \| 971 G \| memory 29.0% \|")

    def test_csv_has_device_time_and_rates_beside_host_time(self):
        import csv
        import io
        r = json.loads(report(H100, "--format", "json"))
        rows = list(csv.DictReader(io.StringIO(report(H100, "--format", "csv"))))
        self.assertEqual(len(rows), len(r["modules"]))
        for row, m in zip(rows, r["modules"]):
            self.assertEqual(row["path"], m["path"])
            self.assertEqual(float(row["time_p50_ns"]), m["time_ns"]["inclusive"]["p50"])  # host
            self.assertEqual(float(row["gpu_time_mean_ns"]), m["gpu_time_ns"]["mean"])  # device
            rates = m["device_rates"]
            if rates is None:
                self.assertEqual(row["device_flops_per_s"], "")
                continue
            self.assertAlmostEqual(float(row["device_flops_per_s"]), rates["achieved_flops_per_s"])
            self.assertAlmostEqual(float(row["device_bytes_per_s"]), rates["achieved_bytes_per_s"])
            self.assertEqual(row["bound"], rates["bound"] or "")
        self.assertEqual(rows[0]["bound"], "memory")
        self.assertEqual(rows[0]["flops_complete"], "true")

    def test_coverage_line_of_a_trace_without_host_ops(self):
        ncu = os.path.join(SOURCE_DIR, "tests", "data", "ncu", "leleucas__bert_torch_nsight.csv")
        line = next(l for l in report(ncu).splitlines() if l.startswith("coverage"))
        self.assertIn("of compute-kernel time (no host ops in the trace)", line)
        self.assertNotIn("of host time", line)
        line = next(l for l in report(H100).splitlines() if l.startswith("coverage"))
        self.assertIn("FLOPs known for 100.0% of compute-kernel time (100.0% of host time)", line)

    def test_flop_counters_without_dram_say_dram_not_measured(self):
#The Kineto range - profiler trace has FLOP counters only : its DRAM traffic is unknown, not "0 B".
        trace = os.path.join(SOURCE_DIR, "tests", "data", "kineto",
                             "hta__cupti_range_profiler_a100__benchmark_result_924719_1679055439_trace.json.gz")
        line = next(l for l in report(trace).splitlines() if "measured (hardware counters" in l)
        self.assertIn("DRAM traffic not measured", line)
        self.assertNotIn("0 B DRAM", line)

    def test_kernel_table_keeps_copy_direction_and_size(self):
        import sqlite3
        nsys = os.path.join(SOURCE_DIR, "tests", "data", "nsys", "pipit__saxpy-mpi-cuda_nsys_perlmutter0.sqlite")
        with sqlite3.connect(nsys) as c:  # copyKind 1 = host to device, 2 = device to host
            size = dict(c.execute("SELECT copyKind, SUM(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind"))
        rows = {k["name"]: k for k in json.loads(report(nsys, "--format", "json", "--kernels"))["kernels"]}
        self.assertEqual(rows["Memcpy HtoD"]["category"], "memcpy")
        self.assertEqual(rows["Memcpy HtoD"]["bytes"], size[1])
        self.assertEqual(rows["Memcpy DtoH"]["bytes"], size[2])
        self.assertEqual(rows["Memcpy HtoD"]["flops"], 0)
#The text table : a copy has no launch configuration, shown as "-"(was "0x0x0").
        line = next(l for l in report(nsys, "--kernels").splitlines() if l.startswith("Memcpy HtoD"))
        self.assertNotIn("0x0x0", line)
        self.assertEqual(line.split()[6:8], ["-", "-"], line)

    def test_gap_list_shows_device_share_beside_host_share(self):
        r = json.loads(report(SGLANG, "--format", "json"))
        first = r["coverage"]["gaps"][0]
        text = report(SGLANG)
        gaps = text.split("ops whose FLOPs are unknown, not zero (no formula, or its arguments are missing):\n", 1)[1].splitlines()
        self.assertEqual(gaps[0].split()[1:], ["count", "host%", "compute%"])
        row = gaps[1].split()
        self.assertEqual(row[0], first["name"])
        self.assertEqual(row[-1], f"{100 * first['share_of_device_time']:.1f}%")
        self.assertEqual(row[-2], f"{100 * first['share_of_time']:.1f}%")
        md = report(SGLANG, "--format", "md")
        self.assertIn("| op | count | host time % | compute-kernel time % |", md)
#Ops without a formula print unknown rates, never 0 FLOP / s.
        unknown = [g for g in r["op_groups"] if g["flops_source"] == "none" and g["device_time_ns"] > 0]
        self.assertTrue(unknown)
        self.assertTrue(all(g["device_rates"]["achieved_flops_per_s"] is None for g in unknown))


if __name__ == "__main__":
    unittest.main()
