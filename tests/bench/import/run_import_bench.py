#!/usr/bin/env python3
"""Import benchmark: flopscope's whole import (parse + attribute + store into a run database) against
Python's json.load alone on the same file -- the first step of every Python trace analyzer.

Generates a trace scaled from the H100 BERT fixture (make_large_trace.py; default 1M kernels, written to
/tmp, not the repository), warms the page cache, then runs both as child processes and prints wall time,
CPU time, MB/s, kernels/s and peak RSS, with the ratios and the targets (import >= 5x faster than
json.load; import peak memory below the JSON size).

Usage: run_import_bench.py --bench BUILD/tests/bench/import/import_bench [--kernels N] [--trace FILE]
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True, help="path of the import_bench binary")
    ap.add_argument("--kernels", type=int, default=1_000_000)
    ap.add_argument("--trace", help="trace to use (default: generated in /tmp)")
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--keep", action="store_true", help="keep the generated trace and database")
    args = ap.parse_args()

    trace = args.trace or "/tmp/flopscope_bench_%d_kernels.json" % args.kernels
    if not os.path.exists(trace):
        subprocess.check_call([sys.executable, os.path.join(HERE, "make_large_trace.py"), trace,
                               "--kernels", str(args.kernels)])
    size = os.path.getsize(trace)
    with open(trace, "rb") as f:  # warm the page cache: both sides parse from memory
        while f.read(1 << 24):
            pass
    db = trace + ".bench.db"

    # Peak RSS per child: run each under its own wrapper that reports getrusage(RUSAGE_CHILDREN).
    def peak_rss(cmd):
        code = ("import resource,subprocess,sys; r=subprocess.run(sys.argv[1:]); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(r.returncode)")
        start = time.monotonic()
        before = os.times()
        p = subprocess.run([sys.executable, "-c", code] + cmd, capture_output=True, text=True)
        wall = time.monotonic() - start
        after = os.times()
        if p.returncode != 0:
            sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr))
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        rss_kb = int(p.stderr.strip().splitlines()[-1])
        return wall, cpu, rss_kb * 1024, p.stdout

    nostore_wall, nostore_cpu, nostore_rss, _ = peak_rss([args.bench, trace, "--no-store"])
    imp_wall, imp_cpu, imp_rss, imp_out = peak_rss([args.bench, trace, db])
    figures = dict(kv.split("=") for kv in imp_out.split())
    kernels = int(figures["kernels"])
    py_wall, py_cpu, py_rss, _ = peak_rss([args.python, "-c", "import json,sys; json.load(open(sys.argv[1]))", trace])
    if not args.keep:
        os.remove(db)

    mb = size / 1e6
    print("trace: %s, %.1f MB, %d device activities" % (trace, mb, kernels))
    print("%-34s %9s %9s %10s %12s %12s" % ("", "wall s", "cpu s", "MB/s", "kernels/s", "peak RSS MB"))
    print("%-34s %9.2f %9.2f %10.1f %12.0f %12.1f" % ("flopscope import (parse+attr+store)", imp_wall, imp_cpu,
                                                        mb / imp_wall, kernels / imp_wall, imp_rss / 1e6))
    print("%-34s %9.2f %9.2f %10.1f %12.0f %12.1f" % ("  of which parse+attr (no store)", nostore_wall,
                                                        nostore_cpu, mb / nostore_wall, kernels / nostore_wall,
                                                        nostore_rss / 1e6))
    print("%-34s %9.2f %9.2f %10.1f %12s %12.1f" % ("python json.load only", py_wall, py_cpu, mb / py_wall, "-",
                                                      py_rss / 1e6))
    ratio = py_wall / imp_wall
    print("speed-up over json.load: %.2fx wall (%.2fx CPU time)   target >= 5x: %s" %
          (ratio, py_cpu / imp_cpu, "met" if ratio >= 5 else "NOT met"))
    print("parse+attribute alone: %.2fx wall (%.2fx CPU time) faster than json.load" %
          (py_wall / nostore_wall, py_cpu / nostore_cpu))
    print("import peak RSS / JSON size: %.2f   target < 1: %s" %
          (imp_rss / size, "met" if imp_rss < size else "NOT met"))
    print("load average during the run: %s" % " ".join("%.2f" % x for x in os.getloadavg()))


if __name__ == "__main__":
    main()
