#!/usr/bin/env python3
"""Runs the performance benchmarks of issue #18 and prints one table: figure, target, measured, met or not,
and the side-by-side anchor measured in the same run (Python json.load, HolisticTraceAnalysis when a venv
has it, sqlite3's .import of the same rows, torch.profiler on the same TorchScript model). Each benchmark prints the load average at its start and end,
and runs its sides interleaved (A, anchor, A, anchor, ...), taking the median of each side.

Usage: run_all.py --build build/dev [--kernels 1000000] [--import-kernels 200000] [--hta-kernels 20000]
                  [--rounds 3] [--hta-python VENV/bin/python] [--dir /tmp] [--collector-rounds 30]
                  [--only diff,report,import,hta,gui,collector]
Without --hta-python (or $HTA_PYTHON) the HTA row says it was skipped.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
rows = []  # (figure, target, measured, met, anchor, load)


def load():
    return "%.2f" % os.getloadavg()[0]


def timed(cmd, **kw):
    """Wall and CPU (children user+sys) seconds of one command; its stdout."""
    before = os.times()
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    wall = time.monotonic() - start
    after = os.times()
    if p.returncode not in (0, 1):  # bench_diff exits 1 when its own (older) target is missed
        sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr[-2000:]))
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, p.stdout


def section(name):
    l0 = load()
    print("== %s (load average at start %s)" % (name, l0), flush=True)
    return l0


def end(l0):
    l1 = load()
    print("   load average at end %s" % l1, flush=True)
    return "%s -> %s" % (l0, l1)


def bench_diff(args, tmp):
    """diff of two 1M-kernel runs end to end (the CLI, JSON report to a file), and the write rate."""
    l0 = section("diff and write")
    exe = os.path.join(args.build, "tests/bench/diff/bench_diff")
    flopscope = os.path.join(args.build, "cli/flopscope")
    a, b = os.path.join(tmp, "bench_diff_a.db"), os.path.join(tmp, "bench_diff_b.db")
    # Writing: bench_diff's writer of 1M ops + 1M kernels, interleaved with sqlite3 .import of the same rows.
    sqlite3 = shutil.which("sqlite3")
    write_rates, write_cpu_rates, import_rates, import_cpu_rates = [], [], [], []
    for r in range(args.rounds):
        wall, cpu, out = timed([exe, tmp, str(args.kernels), "write"])
        m = re.search(r"write: (\d+) rows in ([0-9.]+) s wall, ([0-9.]+) s CPU", out)
        n, w, c = int(m.group(1)), float(m.group(2)), float(m.group(3))
        write_rates.append(n / w)
        write_cpu_rates.append(n / c)
        print("   round %d: flopscope writes %d rows in %.2f s wall, %.2f s CPU (%.0f rows/s wall, %.0f rows/CPU s)" %
              (r, n, w, c, n / w, n / c), flush=True)
        if sqlite3:
            if r == 0:  # the same rows as CSV, once
                for t in ("op", "kernel"):
                    with open(os.path.join(tmp, t + ".csv"), "w") as f:
                        subprocess.run([sqlite3, "-csv", a, "SELECT * FROM %s" % t], stdout=f, check=True)
                schema = subprocess.run([sqlite3, a, ".schema op"], capture_output=True, text=True).stdout
                schema += subprocess.run([sqlite3, a, ".schema kernel"], capture_output=True, text=True).stdout
                schema = "\n".join(l for l in schema.splitlines() if not l.startswith("CREATE INDEX"))
            target = os.path.join(tmp, "import_anchor.db")
            if os.path.exists(target):
                os.remove(target)
            script = ("PRAGMA journal_mode=OFF;\nPRAGMA synchronous=OFF;\n" + schema + "\n.mode csv\n" +
                      ".import %s op\n.import %s kernel\n" % (os.path.join(tmp, "op.csv"), os.path.join(tmp, "kernel.csv")))
            wall, cpu, _ = timed([sqlite3, target], input=script)
            import_rates.append(n / wall)
            import_cpu_rates.append(n / cpu)
            print("   round %d: sqlite3 .import of the same rows %.2f s wall, %.2f s CPU (%.0f rows/s wall, %.0f rows/CPU s)"
                  % (r, wall, cpu, n / wall, n / cpu), flush=True)
    # The pair: A as written above, B with one op per layer vanished and 3% slower kernels.
    # bench_diff in-process: read + summarize + diff from the aggregates, and from the rows (as before them).
    _, _, out = timed([exe, tmp, str(args.kernels), "reuse"])
    phases = [l for l in out.splitlines() if l.startswith(("aggregates:", "rows"))]
    for l in phases:
        print("   " + l, flush=True)
    agg_cpu = min(float(re.search(r"([0-9.]+) s CPU", l).group(1)) for l in phases if l.startswith("aggregates"))
    rows_cpu = [float(re.search(r"([0-9.]+) s CPU", l).group(1)) for l in phases if l.startswith("rows")][0]
    diff_walls, diff_cpus = [], []
    for r in range(args.rounds):
        wall, cpu, _ = timed([flopscope, "diff", a, b, "--json", os.path.join(tmp, "d.json"), "--force", "--format",
                              "md"])
        diff_walls.append(wall)
        diff_cpus.append(cpu)
        print("   round %d: flopscope diff A B --json: %.2f s wall, %.2f s CPU" % (r, wall, cpu), flush=True)
    loads = end(l0)
    w, wc = statistics.median(write_rates), statistics.median(write_cpu_rates)
    anchor = ("sqlite3 .import of the same rows: %.2fM rows/s wall, %.2fM rows/CPU s" %
              (statistics.median(import_rates) / 1e6, statistics.median(import_cpu_rates) / 1e6)
              if import_rates else "sqlite3 CLI not found")
    rows.append(("write 1M op + 1M kernel rows", ">= 2M rows/s", "%.2fM rows/s wall, %.2fM rows/CPU s" %
                 (w / 1e6, wc / 1e6), "met" if w >= 2e6 else ("CPU met, wall not (load)" if wc >= 2e6 else "NOT met"),
                 anchor, loads))
    dw, dc = statistics.median(diff_walls), statistics.median(diff_cpus)
    rows.append(("diff of two 1M-kernel runs, CLI end to end", "< 1 s quiet", "%.2f s wall, %.2f s CPU" % (dw, dc),
                 "met" if dw < 1 else ("CPU met, wall not (load)" if dc < 1 else "NOT met"),
                 "in-process from the rows (before schema 007): %.2f s CPU vs %.2f s from aggregates" %
                 (rows_cpu, agg_cpu), loads))
    for p in (a, b):
        if "report" not in args.only_set or p != a:  # bench_report reads A next
            os.remove(p)


def bench_report(args, tmp):
    """report of a 1M-kernel run (text to a file), interleaved with heatmap --csv of the same run (which reads
    only the schema-007 aggregates): what report would cost if it did too."""
    l0 = section("report")
    exe = os.path.join(args.build, "tests/bench/diff/bench_diff")
    flopscope = os.path.join(args.build, "cli/flopscope")
    a = os.path.join(tmp, "bench_diff_a.db")
    if not os.path.exists(a):
        timed([exe, tmp, str(args.kernels), "write"])
    rep_w, rep_c, heat_w, heat_c = [], [], [], []
    for r in range(args.rounds):
        wall, cpu, _ = timed([flopscope, "report", a, "-o", os.path.join(tmp, "r.txt"), "--force"])
        rep_w.append(wall)
        rep_c.append(cpu)
        wall, cpu, _ = timed([flopscope, "heatmap", a, "-o", os.path.join(tmp, "h.csv"), "--force"])
        heat_w.append(wall)
        heat_c.append(cpu)
        print("   round %d: report %.2f s wall, %.2f s CPU; heatmap --csv (aggregates) %.2f s wall, %.2f s CPU" %
              (r, rep_w[-1], rep_c[-1], heat_w[-1], heat_c[-1]), flush=True)
    loads = end(l0)
    w, c = statistics.median(rep_w), statistics.median(rep_c)
    rows.append(("report of a 1M-kernel run, CLI end to end", "< 1 s quiet", "%.2f s wall, %.2f s CPU" % (w, c),
                 "met" if w < 1 else ("CPU met, wall not (load)" if c < 1 else "NOT met"),
                 "heatmap of the same run from the aggregates: %.2f s wall, %.2f s CPU" %
                 (statistics.median(heat_w), statistics.median(heat_c)), loads))
    os.remove(a)


def make_trace(tmp, kernels):
    trace = os.path.join(tmp, "import_%d.json" % kernels)
    if not os.path.exists(trace):
        subprocess.check_call([sys.executable, os.path.join(HERE, "import/make_large_trace.py"), trace,
                               "--kernels", str(kernels)])
    return trace


def import_once(args, trace):
    exe = os.path.join(args.build, "tests/bench/import/import_bench")
    db = trace + ".db"
    wall, cpu, out = timed([exe, trace, db])
    os.remove(db)
    return wall, cpu, float(re.search(r"peak_rss_mb=([0-9.]+)", out).group(1))


med = lambda xs, i: statistics.median(x[i] for x in xs)


def bench_import(args, tmp):
    l0 = section("import vs json.load")
    trace = make_trace(tmp, args.import_kernels)
    ours, py = [], []  # (wall, CPU) per round
    for r in range(args.rounds):
        ours.append(import_once(args, trace))
        wall, cpu, _ = timed([sys.executable, "-c", "import json,sys; json.load(open(sys.argv[1]))", trace])
        py.append((wall, cpu))
        print("   round %d: flopscope import %.2f s wall %.2f s CPU; json.load %.2f s wall %.2f s CPU" %
              (r, ours[-1][0], ours[-1][1], py[-1][0], py[-1][1]), flush=True)
    loads = end(l0)
    ratio, ratio_cpu = med(py, 0) / med(ours, 0), med(py, 1) / med(ours, 1)
    anchor = "json.load %.2f s wall / %.2f s CPU vs import %.2f s / %.2f s; import peak RSS %.0f MB for a %.0f MB file" % (
        med(py, 0), med(py, 1), med(ours, 0), med(ours, 1), med(ours, 2), os.path.getsize(trace) / 1e6)
    rows.append(("Kineto import of %dk kernels vs json.load" % (args.import_kernels // 1000), ">= 10x json.load",
                 "%.2fx wall, %.2fx CPU" % (ratio, ratio_cpu),
                 "met" if ratio >= 10 else ("CPU met, wall not (load)" if ratio_cpu >= 10 else "NOT met"), anchor,
                 loads))


def bench_hta(args, tmp):
    """HolisticTraceAnalysis' own trace load (Trace.parse_traces of the one rank's file) against flopscope's
    whole import of the same file. A smaller trace than json.load's: HTA takes minutes per 100k kernels."""
    if not args.hta_python:
        rows.append(("Kineto import vs HTA's trace load", "faster than HTA", "skipped", "-",
                     "no HolisticTraceAnalysis virtualenv (--hta-python or HTA_PYTHON)", "-"))
        return
    l0 = section("import vs HTA")
    trace = make_trace(tmp, args.hta_kernels)
    code = ("import sys; from hta.common.trace import Trace; "
            "t = Trace(trace_files={0: sys.argv[1]}, trace_dir='/'); t.parse_traces()")
    ours, hta = [], []
    for r in range(args.rounds):
        ours.append(import_once(args, trace)[:2])
        wall, cpu, _ = timed([args.hta_python, "-c", code, trace])
        hta.append((wall, cpu))
        print("   round %d: flopscope import %.2f s wall %.2f s CPU; HTA parse_traces %.2f s wall %.2f s CPU" %
              (r, ours[-1][0], ours[-1][1], wall, cpu), flush=True)
    loads = end(l0)
    h, h_cpu = med(hta, 0) / med(ours, 0), med(hta, 1) / med(ours, 1)
    rows.append(("Kineto import of %dk kernels vs HTA's trace load" % (args.hta_kernels // 1000), "faster than HTA",
                 "%.2fx wall, %.2fx CPU" % (h, h_cpu), "met" if h > 1 and h_cpu > 1 else "NOT met",
                 "HTA parse_traces %.2f s wall / %.2f s CPU vs import %.2f s / %.2f s" %
                 (med(hta, 0), med(hta, 1), med(ours, 0), med(ours, 1)), loads))


def bench_gui(args, tmp):
    exe = os.path.join(args.build, "tests/bench/gui/gui_open_bench")
    if not os.path.exists(exe):
        rows.append(("GUI open to first view", "< 1 s", "not built", "-", "-", "-"))
        return
    l0 = section("GUI open")
    firsts, wholes = [], []
    for r in range(args.rounds):
        _, _, out = timed([exe, str(args.kernels), tmp])
        m = re.search(r"open to first view: ([0-9.]+) s", out)
        firsts.append(float(m.group(1)))
        m = re.search(r"open to the whole session's first view: ([0-9.]+) s", out)
        wholes.append(float(m.group(1)) if m else float("nan"))
        print("   round %d: open to first view %.2f s (whole session %.2f s)" % (r, firsts[-1], wholes[-1]),
              flush=True)
    loads = end(l0)
    f = statistics.median(firsts)
    rows.append(("GUI open of a 1M-kernel run to first view (module tree from the stored summary)", "< 1 s", "%.2f s" % f,
                 "met" if f < 1 else "NOT met",
                 "the whole session (rows, timeline, every page): %.2f s" % statistics.median(wholes), loads))


def bench_collector(args, tmp):
    """CPU collector overhead: flopscope's op observer and torch.profiler (record_shapes, with_modules,
    with_flops) on the same TorchScript model in one python3-torch process (collector/bench_vs_torch_profiler.py)."""
    lib = os.path.join(args.build, "tests/bench/collector/libflopscope_observer_bench.so")
    py = "/usr/bin/python3"  # Debian's python3-torch: the same LibTorch as the collector
    if not os.path.exists(lib):
        rows.append(("CPU collector overhead", "<= 1.03x / 1.10x", "not built", "-", "-", "-"))
        return
    small = os.path.join(tmp, "small-ops.pt")
    subprocess.check_call([py, os.path.join(HERE, "collector/make_small_op_model.py"), small])
    resnet = os.path.join(tmp, "resnet18.pt")
    subprocess.check_call([py, "-c", "import sys, torch, torchvision; torch.manual_seed(0); "
                           "torch.jit.script(torchvision.models.resnet18().eval()).save(sys.argv[1])", resnet])
    sonnet = os.path.join(args.build, "samples/sonnet-mini-v1.pt")
    # (figure, model, input, target, forwards per side per round)
    models = [("sonnet-mini at 1024 tokens", sonnet, "int64[1,1024]@0:512", 1.03, 3),
              ("resnet18 at 224x224", resnet, "float32[1,3,224,224]", 1.03, 3),
              ("small-op model (12 blocks, tiny tensors)", small, "float32[1,4,16]", 1.10, 20)]
    for figure, model, spec, target, iters in models:
        l0 = section("collector overhead: " + figure)
        p = subprocess.run([py, os.path.join(HERE, "collector/bench_vs_torch_profiler.py"), "--lib", lib, model, spec,
                            "--threads", str(args.collector_threads), "--rounds", str(args.collector_rounds),
                            "--iters", str(iters), "--warmup", str(2 * iters), "--floors"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("collector benchmark failed: %s" % p.stderr[-2000:])
        for l in p.stdout.splitlines():
            print("   " + l, flush=True)
        m = re.search(r"RESULT ours=([0-9.]+) torch_profiler=([0-9.]+) ops=(\d+) base_us=([0-9.]+)", p.stdout)
        ours, theirs, ops, base = float(m.group(1)), float(m.group(2)), int(m.group(3)), float(m.group(4))
        floor = re.search(r"empty callbacks \(inputs\)\s+CPU median .*?CPU ratio ([0-9.]+)x", p.stdout)
        loads = end(l0)
        met = "met" if ours <= target and ours < theirs else (
            "NOT met (below torch.profiler)" if ours < theirs else "NOT met")
        anchor = "torch.profiler %.3fx" % theirs
        if floor:
            anchor += "; empty LibTorch callbacks with inputs %.3fx" % float(floor.group(1))
        rows.append(("CPU collector overhead, %s: %d ops/forward, %.2f us/op" % (figure, ops, base / ops),
                     "<= %.2fx, below torch.profiler" % target, "%.3fx CPU" % ours, met, anchor, loads))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build/dev")
    ap.add_argument("--kernels", type=int, default=1_000_000)
    ap.add_argument("--import-kernels", type=int, default=200_000,
                    help="trace size for the import ratio (json.load of 1M kernels needs ~2 GB of JSON in memory)")
    ap.add_argument("--hta-kernels", type=int, default=20_000, help="trace size for the HTA comparison")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--hta-python", default=os.environ.get("HTA_PYTHON"),
                    help="python of a virtualenv with HolisticTraceAnalysis (optional anchor; default $HTA_PYTHON), "
                         "e.g. python3 -m venv V && V/bin/pip install HolisticTraceAnalysis")
    ap.add_argument("--dir", default=tempfile.gettempdir())
    ap.add_argument("--collector-rounds", type=int, default=30, help="interleaved rounds per collector model")
    ap.add_argument("--collector-threads", type=int, default=1, help="intra-op threads of the collector runs")
    ap.add_argument("--only", help="comma-separated: diff,report,import,hta,gui,collector")
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else {"diff", "report", "import", "hta", "gui", "collector"}
    args.only_set = only
    tmp = tempfile.mkdtemp(prefix="flopscope-run-all-", dir=args.dir)
    try:
        if "diff" in only:
            bench_diff(args, tmp)
        if "report" in only:
            bench_report(args, tmp)
        if "import" in only:
            bench_import(args, tmp)
        if "hta" in only:
            bench_hta(args, tmp)
        if "gui" in only:
            bench_gui(args, tmp)
        if "collector" in only:
            bench_collector(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    head = ("figure", "target", "measured", "met", "side-by-side anchor", "load avg start -> end")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
    print()
    print(line(head))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print("(%d cores; medians of %d interleaved rounds; collector: median of %d per-round CPU-time ratios)" %
          (os.cpu_count(), args.rounds, args.collector_rounds))


if __name__ == "__main__":
    main()
