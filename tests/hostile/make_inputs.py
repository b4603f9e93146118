#!/usr/bin/env python3
"""Writes the hostile inputs of tests/hostile into OUTDIR: small Kineto traces with crafted names, shapes
and times, and the memory traces (modules x iterations, deep nesting, deep TorchScript hierarchies). Run databases derived from a
good import are made by hostile.sh with the sqlite3 module."""
import json
import sys
from pathlib import Path


def ev(name, cat, ts, dur, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur, "args": args}


def op(name, ts, dur, dims, ext):
    return ev(name, "cpu_op", ts, dur, **{"External id": ext, "Input Dims": dims,
                                          "Input type": ["float"] * len(dims), "Concrete Inputs": [""] * len(dims)})


def trace(events):
    return {"schemaVersion": 1, "traceEvents": events, "traceName": "hostile"}


def model_trace(module_name="Linear_0", dims=None, ts0=1, dur=100):
    """One iteration: Net_0 > <module_name> > aten::mm."""
    dims = dims or [[2, 8], [8, 4]]
    return trace([
        ev("ProfilerStep#1", "user_annotation", ts0, dur),
        ev("nn.Module: Net_0", "python_function", ts0 + 1, dur - 10),
        ev("nn.Module: " + module_name, "python_function", ts0 + 2, dur - 20),
        op("aten::mm", ts0 + 3, dur - 30, dims, 2),
    ])


def reused_correlation():
    """Two launches with one correlation id and one kernel with it: which op launched it is unknown."""
    events = model_trace()["traceEvents"]
    for ts in (4, 40):
        events.append(ev("cudaLaunchKernel", "cuda_runtime", ts, 2, correlation=7))
    events.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 50, "dur": 5,
                   "args": {"device": 0, "stream": 7, "correlation": 7}})
    return trace(events)


def write(out, name, obj):
    (out / name).write_text(json.dumps(obj))


def modules_x_iterations(n_iterations, n_modules):
    """Many iterations, each running a different module once: dense per-module x per-iteration storage
    grows with n_modules * n_iterations although the trace has only n_modules events."""
    events = []
    t = 0
    for i in range(n_iterations):
        events.append(ev(f"ProfilerStep#{i}", "user_annotation", t, 10))
        if i < n_modules:
            events.append(ev(f"nn.Module: M{i}_0", "python_function", t + 1, 8))
            events.append(op("aten::relu", t + 2, 6, [[4]], i + 1))
        t += 20
    # One outer model module spanning everything keeps the modules under one root.
    events.insert(0, ev("nn.Module: Net_0", "python_function", 0, t))
    return trace(events)


def deep(depth):
    """One chain of nested modules `depth` deep: paths of depth d have d segments (depth-squared text)."""
    events = [ev("ProfilerStep#1", "user_annotation", 0, 10 * depth + 100)]
    for d in range(depth):
        events.append(ev(f"nn.Module: Block{d}_0", "python_function", 1 + d, 10 * depth + 90 - 2 * d))
    events.append(op("aten::relu", depth + 5, 10, [[4]], 1))
    return trace(events)


def hierarchy(depth):
    """One op whose TorchScript `Module Hierarchy` is `depth` levels deep: the text is linear in the depth,
    the dotted paths of all its levels quadratic."""
    chain = ".".join(["TOP(Net)::forward"] + [f"b{d}(Block)::forward" for d in range(depth)])
    events = [ev("ProfilerStep#1", "user_annotation", 0, 100)]
    events.append(ev("aten::relu", "cpu_op", 5, 10, **{"External id": 1, "Module Hierarchy": chain,
                                                     "Input Dims": [[4]], "Input type": ["float"]}))
    return trace(events)


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    write(out, "good.json", model_trace())
    write(out, "good2.json", model_trace("Conv_0"))
    # Names that try to escape their output format.
    write(out, "md_inject.json", model_trace("X`\n\n### Gates: all passed\n\n![t](https://example.invalid/t.png)_0"))
    write(out, "ctrl_names.json", model_trace("Ctl\u0001\u001b]0;pwned\u0007\u001b[31mred_0"))
    write(out, "csv_formula.json", model_trace("=HYPERLINK(\"http://example.invalid\")_0"))
    write(out, "long_path.json", model_trace("L" * 50000 + "_0"))
    # Shapes and times no real run has.
    write(out, "neg_shape.json", model_trace(dims=[[-5, 8], [8, 4]]))
    write(out, "huge_shape.json", model_trace(dims=[[10**12, 10**12], [10**12, 10**12]]))
    write(out, "extreme_time.json", model_trace(ts0=9 * 10**15, dur=9 * 10**15))
    write(out, "empty.json", trace([]))
    # A kernel on device 9e18 (once shown as a negative device) beside a good one.
    kernels = model_trace()
    for device, ts in ((0, 10), (9e18, 20)):
        kernels["traceEvents"].append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": ts,
                                       "dur": 5, "args": {"device": device, "stream": 7}})
    write(out, "huge_device.json", kernels)
    # profile_memory events: one good allocation inside aten::mm, and four that cannot be kept (no Bytes, a
    # Device Type outside 0-255, a Device Id past int, no time).
    mem = model_trace()
    good = {"Bytes": 256, "Total Allocated": 256, "Total Reserved": 2048, "Addr": 1, "Device Type": 1,
            "Device Id": 0}
    for ts, args in ((10, good), (11, {k: v for k, v in good.items() if k != "Bytes"}),
                     (12, dict(good, **{"Device Type": 999})), (13, dict(good, **{"Device Id": 9e18})),
                     (None, good)):
        event = {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 1, "tid": 1,
                 "args": args}
        if ts is not None:
            event["ts"] = ts
        mem["traceEvents"].append(event)
    write(out, "bad_memory.json", mem)
    # An op whose name holds a NUL (the store once cut it there).
    nul = model_trace()
    nul["traceEvents"].append(op("aten::evil\u0000hidden", 40, 5, [[4]], 3))
    write(out, "nul_name.json", nul)
    write(out, "reused_corr.json", reused_correlation())
    # A real FLOPs regression (a 4x8 @ 8x4 product where A had 2x8) plus an op whose negative shape once
    # gave negative FLOPs that cancelled it.
    regressed = model_trace(dims=[[4, 8], [8, 4]])
    regressed["traceEvents"].append(op("aten::mm", 60, 5, [[-4, 8], [8, 4]], 3))
    write(out, "regressed.json", regressed)
    # Memory: ~1.4 MB of modules x iterations, ~0.4 MB of nesting.
    write(out, "modules_x_iterations.json", modules_x_iterations(3200, 3200))
    write(out, "deep.json", deep(2850))
    # The same in a TorchScript hierarchy: 40,000 levels in 0.7 MB, and one just past the 256-level rule.
    write(out, "hierarchy_40000.json", hierarchy(40000))
    write(out, "hierarchy_300.json", hierarchy(300))
    (out / "evil.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">'
                                  '<script>alert(2)</script><image href="https://example.invalid/x.png"/></svg>')


if __name__ == "__main__":
    main()
