#!/usr/bin/env python3
"""Scaling of each parser (issue #32): runs flopscope on inputs of size n, 2n, 4n and 8n and prints time,
peak memory and the growth factor per doubling (linear is 2.0). Exits 1 when any factor is above 2.3.

    scaling.py FLOPSCOPE [--quick] [--repeats N] [--only SERIES] [--work DIR]

Series: module depth (nested nn.Module calls and TorchScript `Module Hierarchy` strings, 32..256 levels,
within --max-module-depth), module count, event count (Kineto JSON) and tensor count (a safetensors
header, read by `weights`). Time is the child's user + system CPU time, the least of three runs, so that
other work on the machine moves it less than wall time; peak memory is the child's maximum resident set.
`diff` is not here: tests/bench/diff has its own."""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

LIMIT = 2.3


def ev(name, cat, ts, dur, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur, "args": args}


def op(name, ts, dur, ext, **extra):
    return ev(name, "cpu_op", ts, dur, **{"External id": ext, "Input Dims": [[4]], "Input type": ["float"]},
              **extra)


def write_trace(path, events):
    with open(path, "w") as f:
        json.dump({"schemaVersion": 1, "traceEvents": events}, f)


def nested_depth(path, depth, repeats):
    """`repeats` steps, each a chain of `depth` nested modules with one op at every level."""
    events, t = [], 0
    for r in range(repeats):
        span = 4 * depth + 10
        events.append(ev(f"ProfilerStep#{r}", "user_annotation", t, span))
        for d in range(depth):
            events.append(ev(f"nn.Module: Block{d}_0", "python_function", t + 1 + d, span - 2 - 2 * d))
            events.append(op("aten::relu", t + 1 + depth + d, 1, r * depth + d + 1))
        t += span + 1
    write_trace(path, events)


def hierarchy_depth(path, depth, ops):
    """`ops` ops whose TorchScript `Module Hierarchy` is `depth` levels deep (one distinct string per level
    count, so each op carries the whole text)."""
    chain = ["TOP(Net)::forward"] + [f"b{d}(Block)::forward" for d in range(depth)]
    events = [ev("ProfilerStep#1", "user_annotation", 0, 2 * ops + 10)]
    for i in range(ops):
        events.append(op("aten::relu", 1 + 2 * i, 1, i + 1, **{"Module Hierarchy": ".".join(chain)}))
    write_trace(path, events)


def module_count(path, modules):
    """`modules` sibling modules under the model, each called once with one op."""
    events = [ev("ProfilerStep#1", "user_annotation", 0, 4 * modules + 10),
              ev("nn.Module: Net_0", "python_function", 1, 4 * modules + 8)]
    for m in range(modules):
        events.append(ev(f"nn.Module: M{m}_0", "python_function", 2 + 4 * m, 3))
        events.append(op("aten::relu", 3 + 4 * m, 1, m + 1))
    write_trace(path, events)


def event_count(path, ops):
    """`ops` ops, each launching one kernel: 3 events per op."""
    events = [ev("ProfilerStep#1", "user_annotation", 0, 10 * ops + 10)]
    for i in range(ops):
        t = 1 + 10 * i
        events.append(op("aten::relu", t, 5, i + 1))
        events.append(ev("cudaLaunchKernel", "cuda_runtime", t + 1, 2, correlation=i + 1, **{"External id": i + 1}))
        events.append({"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": t + 4,
                       "dur": 3, "args": {"device": 0, "stream": 7, "correlation": i + 1, "External id": i + 1}})
    write_trace(path, events)


def tensor_count(path, tensors):
    """A safetensors file of `tensors` one-element tensors: the header is nearly all of it."""
    header = {f"layers.{i}.weight": {"dtype": "F32", "shape": [1], "data_offsets": [4 * i, 4 * i + 4]}
              for i in range(tensors)}
    text = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        f.write(b"\0" * (4 * tensors))


MAKERS = {"nested": nested_depth, "hierarchy": hierarchy_depth, "modules": module_count, "events": event_count,
          "tensors": tensor_count}


def make(kind, path, *sizes):
    """Writes an input in a child process: the peak memory of a child includes what it inherited from this
    one before exec, which must stay small."""
    subprocess.run([sys.executable, os.path.abspath(__file__), "--make", kind, path, *map(str, sizes)], check=True)


def measure(cmd, repeats):
    """Least CPU seconds (user + system) and largest peak RSS (MiB) of `repeats` runs of cmd."""
    best_cpu, peak = None, 0.0
    for _ in range(repeats):
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if proc.returncode != 0:
            sys.exit(f"scaling: {' '.join(cmd)} exited {proc.returncode}: {err.strip()}")
        cpu = usage.ru_utime + usage.ru_stime
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
        peak = max(peak, usage.ru_maxrss / 1024.0)
    return best_cpu, peak


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--make":
        MAKERS[sys.argv[2]](sys.argv[3], *map(int, sys.argv[4:]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("flopscope")
    ap.add_argument("--quick", action="store_true", help="smaller inputs (a smoke run, factors less reliable)")
    ap.add_argument("--work", help="folder for the inputs (default: a temporary one, removed)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", help="run the series whose name contains this text")
    args = ap.parse_args()
    bin_ = os.path.abspath(args.flopscope)
    work = args.work or tempfile.mkdtemp(prefix="flopscope-scaling-")
    os.makedirs(work, exist_ok=True)
    scale = 1 if not args.quick else 4

    def imp(path):
        out = path + ".db"
        return [bin_, "--no-progress", "import", path, "-o", out, "--force", "-q"]

    def weights(path):
        # The table: the JSON printer's document (nlohmann, ~5 KB a tensor) would be measured, not the parser.
        return [bin_, "--no-progress", "weights", path, "--no-hash", "--format", "table", "-o", path + ".out",
                "--force"]

    series = [
        # (name, unit, sizes, input maker, its extra size arguments, command)
        ("module depth, nested", "levels", [32, 64, 128, 256], lambda n: ("nested", n, 1600 // scale), imp),
        ("module depth, TorchScript", "levels", [32, 64, 128, 256], lambda n: ("hierarchy", n, 40000 // scale),
         imp),
        ("module count", "modules", [x // scale for x in (25000, 50000, 100000, 200000)], lambda n: ("modules", n),
         imp),
        ("event count", "events", [x // scale for x in (150000, 300000, 600000, 1200000)],
         lambda n: ("events", n // 3), imp),
        ("tensor count", "tensors", [x // scale for x in (25000, 50000, 100000, 200000)], lambda n: ("tensors", n),
         weights),
    ]
    print(f"flopscope scaling: {bin_}")
    print("load average at start: %.2f %.2f %.2f" % os.getloadavg())
    header = f"{'series':<27} {'n':>9} {'input MiB':>10} {'cpu s':>8} {'x':>5} {'peak MiB':>9} {'x':>5}"
    print(header)
    print("-" * len(header))
    worst = 0.0
    failed = []
    for name, unit, sizes, maker, command in series:
        if args.only and args.only not in name:
            continue
        prev = None
        for n in sizes:
            path = os.path.join(work, f"{name.replace(' ', '_').replace(',', '')}_{n}" +
                                (".safetensors" if unit == "tensors" else ".json"))
            kind, *rest = maker(n)
            make(kind, path, *rest)
            size = os.path.getsize(path) / 2**20
            cpu, peak = measure(command(path), args.repeats)
            tf = mf = ""
            if prev is not None:
                t_factor, m_factor = cpu / max(prev[0], 1e-3), peak / max(prev[1], 1e-3)
                tf, mf = f"{t_factor:.2f}", f"{m_factor:.2f}"
                worst = max(worst, t_factor, m_factor)
                if t_factor > LIMIT or m_factor > LIMIT:
                    failed.append(f"{name} at {n} {unit}")
            print(f"{name:<27} {n:>9} {size:>10.1f} {cpu:>8.3f} {tf:>5} {peak:>9.1f} {mf:>5}", flush=True)
            prev = (cpu, peak)
            os.remove(path)
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())
    print(f"largest growth factor per doubling: {worst:.2f} (limit {LIMIT})")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    if failed:
        print("above the limit: " + "; ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
