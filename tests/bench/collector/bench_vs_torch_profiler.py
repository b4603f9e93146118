#!/usr/bin/python3
"""Collector overhead beside torch.profiler, in one python3-torch process (benchmark, not a test).

One model loaded once, one input set (seed 0), one intra-op thread pool; each round runs ITERS forward calls
per side, the sides in rotating order: no profiling, flopscope's op observer (as `flopscope profile` runs
it), and torch.profiler (record_shapes=True, with_modules=True, with_flops=True) around the same forward
loop. Per forward: process CPU time (user + sys, all threads) and wall time. Prints the load average at start
and end, the medians, and each profiler's overhead as a ratio to no profiling: the ratio of medians over all
forwards, and the median of the per-round ratios (robust to drift between rounds), which is the figure.

Usage: bench_vs_torch_profiler.py --lib libflopscope_observer_bench.so MODEL.pt SPEC
                                  [--threads 1] [--rounds 30] [--iters 10] [--warmup 10] [--floors]
--floors adds sides: empty RecordFunction callbacks registered as flopscope's recorded calls register them
(taking inputs), one without inputs, and as its calls with reused shapes register them (ops without inputs,
TorchScript calls with inputs): what any observer of this LibTorch costs before doing anything; and
flopscope's observer with every call recorded (no shape reuse). The first forward of each run of ITERS is
recorded (shape reuse starts at the second): the median leaves it out, the ratio of means counts it.
The last line is machine-readable: RESULT ours=<ratio> torch_profiler=<ratio> ops=<n> base_us=<cpu us>.
"""
import argparse
import ctypes
import os
import statistics
import sys

# torch.profiler's FLOPs hook warns (from C++) at every scalar multiplication it cannot count.
os.environ.setdefault("TORCH_CPP_LOG_LEVEL", "ERROR")

import torch  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

MODES = {"off": 0, "flopscope": 1, "empty callbacks (inputs)": 2, "empty callback (no inputs)": 3,
         "empty callbacks (reuse)": 4, "flopscope, no shape reuse": 5, "torch.profiler": 0}


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("spec")
    ap.add_argument("--lib", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--floors", action="store_true",
                    help="also run empty RecordFunction callbacks: the least any such observer costs")
    args = ap.parse_args(argv)
    SIDES = ("off", "flopscope", "torch.profiler") + (
        ("empty callbacks (inputs)", "empty callback (no inputs)", "empty callbacks (reuse)",
         "flopscope, no shape reuse") if args.floors else ())
    load0 = os.getloadavg()[0]
    print("load average at start %.2f" % load0, flush=True)

    lib = ctypes.CDLL(args.lib)
    lib.fsb_open.restype = ctypes.c_void_p
    lib.fsb_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
    lib.fsb_run.restype = ctypes.c_long
    lib.fsb_run.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_longlong),
                            ctypes.POINTER(ctypes.c_longlong)]
    lib.fsb_close.argtypes = [ctypes.c_void_p]
    err = ctypes.create_string_buffer(1024)
    h = lib.fsb_open(args.model.encode(), args.spec.encode(), args.threads, err, len(err))
    if not h:
        sys.exit("bench_vs_torch_profiler: error: %s" % err.value.decode(errors="replace"))
    torch.set_num_threads(args.threads)  # the same pool the library set; said again for the reader

    cpu = (ctypes.c_longlong * args.iters)()
    wall = (ctypes.c_longlong * args.iters)()

    def run(side):
        if side == "torch.profiler":
            with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_modules=True,
                         with_flops=True):
                n = lib.fsb_run(h, 0, args.iters, cpu, wall)
        else:
            n = lib.fsb_run(h, MODES[side], args.iters, cpu, wall)
        if n < 0:
            sys.exit("bench_vs_torch_profiler: error: forward failed")
        return n, list(cpu), list(wall)

    for side in SIDES:  # warm every side (allocator, caches, the profiler's first use)
        for _ in range(max(1, args.warmup // args.iters)):
            run(side)
    times = {s: ([], []) for s in SIDES}
    round_ratio = {s: [] for s in SIDES[1:]}
    ops = 0
    for r in range(args.rounds):
        order = SIDES[r % len(SIDES):] + SIDES[:r % len(SIDES)]
        med = {}
        for side in order:
            n, c, w = run(side)
            if side.startswith("flopscope"):
                ops = n
            times[side][0].extend(c)
            times[side][1].extend(w)
            med[side] = statistics.median(c)
        for s in SIDES[1:]:
            round_ratio[s].append(med[s] / med["off"])
    lib.fsb_close(h)
    load1 = os.getloadavg()[0]

    base_cpu = statistics.median(times["off"][0])
    base_wall = statistics.median(times["off"][1])
    print("model %s input %s, %d thread(s), %d rounds x %d forwards per side; %d ops per forward "
          "(flopscope's count), %.2f us CPU per op without profiling" %
          (args.model, args.spec, args.threads, args.rounds, args.iters, ops, base_cpu / 1e3 / max(ops, 1),))
    ratio = {}
    for s in SIDES:
        c, w = statistics.median(times[s][0]), statistics.median(times[s][1])
        line = "  %-26s CPU median %9.3f ms, wall median %9.3f ms" % (s, c / 1e6, w / 1e6)
        if s != "off":
            rr = sorted(round_ratio[s])
            ratio[s] = statistics.median(rr)
            line += ("; CPU ratio %.3fx (rounds %.3f-%.3f; ratio of medians %.3fx, of means %.3fx), "
                     "wall ratio %.3fx" % (ratio[s], rr[0], rr[-1], c / base_cpu,
                                           statistics.mean(times[s][0]) / statistics.mean(times["off"][0]),
                                           w / base_wall))
        print(line)
    print("load average at end %.2f" % load1)
    print("RESULT ours=%.4f torch_profiler=%.4f ops=%d base_us=%.1f load=%.2f->%.2f" %
          (ratio["flopscope"], ratio["torch.profiler"], ops, base_cpu / 1e3, load0, load1))


if __name__ == "__main__":
    main(sys.argv[1:])
