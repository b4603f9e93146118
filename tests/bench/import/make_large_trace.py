#!/usr/bin/env python3
"""Scales a real PyTorch profiler trace to a given number of kernels, for the import benchmark.

Takes one ProfilerStep of a real trace (default: the H100 BERT fixture) and repeats its attribution
structure -- the step annotation, every nn.Module python_function event, the cpu_ops on each kernel's
launch path (the launching op and its enclosing ops, with their shapes), the runtime/driver launches and
the kernels/memcpys -- with shifted timestamps, External ids and correlation ids, until the requested
number of device activities is reached. Events keep their real names and arguments; other events of the
original (Python frames, memory events, flows) are left out so that 1M kernels stay near 1 GB.

Usage: make_large_trace.py OUT.json [--kernels 1000000] [--source TRACE.json.gz]
"""
import argparse
import gzip
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCE = os.path.join(HERE, "..", "..", "data", "kineto",
                              "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
LAUNCH_CATS = {"cuda_runtime", "cuda_driver"}
DEVICE_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}


def select(events):
    """The events of one iteration that attribution needs."""
    device = [e for e in events if e.get("ph") == "X" and e.get("cat") in DEVICE_CATS]
    corrs = {e["args"]["correlation"] for e in device}
    launches = [e for e in events if e.get("ph") == "X" and e.get("cat") in LAUNCH_CATS
                and e.get("args", {}).get("correlation") in corrs]
    ops = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cpu_op"]
    # Ops on a launch path: those whose interval contains a launch on the same thread.
    keep_ops = []
    for op in ops:
        start, end = op["ts"], op["ts"] + op["dur"]
        if any(l["pid"] == op["pid"] and l["tid"] == op["tid"] and start <= l["ts"] <= end for l in launches):
            keep_ops.append(op)
    modules = [e for e in events if e.get("ph") == "X" and e.get("cat") == "python_function"
               and e["name"].startswith("nn.Module:")]
    steps = [e for e in events if e.get("ph") == "X" and e.get("cat") == "user_annotation"
             and e["name"].startswith("ProfilerStep#")]
    return steps + modules + keep_ops + launches + device


def template(event):
    """json text split around the fields that change per copy: ts, External id, correlation, step name."""
    e = json.loads(json.dumps(event))
    fields = []
    e["ts"] = "@0@"
    fields.append(("ts", event["ts"]))
    args = e.get("args", {})
    for key in ("External id", "correlation", "Python id", "Python parent id"):
        if isinstance(args.get(key), int):
            fields.append((key, args[key]))
            args[key] = "@%d@" % (len(fields) - 1)
    if e.get("cat") == "user_annotation":
        e["name"] = "@%d@" % len(fields)
        fields.append(("step", 0))
    pieces = re.split(r'"@(\d+)@"', json.dumps(e, separators=(", ", ": ")))
    # pieces alternate text, field index, text, ...: order the fields as they appear in the text.
    order = [fields[int(i)] for i in pieces[1::2]]
    return pieces[0::2], order


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--kernels", type=int, default=1_000_000)
    ap.add_argument("--source", default=DEFAULT_SOURCE)
    args = ap.parse_args()
    with gzip.open(args.source, "rt") as f:
        trace = json.load(f)
    events = select(trace["traceEvents"])
    per_copy = sum(1 for e in events if e.get("cat") in DEVICE_CATS)
    start = min(e["ts"] for e in events)
    span = max(e["ts"] + e.get("dur", 0) for e in events) - start + 10.0
    max_ext = max(v for e in events for k, v in e.get("args", {}).items()
                  if k in ("External id", "correlation", "Python id") and isinstance(v, int))
    stride = 10 ** len(str(max_ext + 1))
    templates = [template(e) for e in events]
    copies = (args.kernels + per_copy - 1) // per_copy
    header = {k: v for k, v in trace.items() if k not in ("traceEvents", "traceName")}
    written = 0
    with open(args.out, "w") as out:
        out.write(json.dumps(header)[:-1] + ', "traceEvents": [\n')
        first = True
        for c in range(copies):
            shift = c * span
            id_shift = c * stride
            chunk = []
            for parts, fields in templates:
                values = []
                for key, value in fields:
                    if key == "ts":
                        values.append("%.3f" % (value + shift))
                    elif key == "step":
                        values.append('"ProfilerStep#%d"' % c)
                    else:
                        values.append(str(value + id_shift))
                text = parts[0]
                for v, p in zip(values, parts[1:]):
                    text += v + p
                chunk.append(text)
            out.write(("" if first else ",\n") + ",\n".join(chunk))
            first = False
            written += per_copy
        out.write('\n], "traceName": "%s"}\n' % os.path.basename(args.out))
    print("wrote %s: %d copies of %d events, %d device activities, %.1f MB" %
          (args.out, copies, len(events), written, os.path.getsize(args.out) / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()
