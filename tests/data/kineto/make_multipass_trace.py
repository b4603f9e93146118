#!/usr/bin/env python3
"""Writes small synthetic PyTorch-profiler (Kineto) traces of five forward passes of a two-layer model, made
by hand for the iteration tests (tests/unit/importers/iterations_test.cpp, iterations_cli_test.sh); no GPU
ran them. Every pass calls nn.Module TinyNet_0 once: Linear_0 (aten::linear, one GEMM kernel) then ReLU_0
(aten::relu, one elementwise kernel), each kernel launched by a cudaLaunchKernel with its correlation id.
Times are chosen so that the per-iteration numbers can be checked by hand (microseconds, from the pass's
start): GEMM launch call 20-25, GEMM kernel 30-70; ReLU launch call 70-75, ReLU kernel 80-90, except in pass 3
where the ReLU kernel starts at 140 (the device waits: host-bound). So per pass: span 60 us, busy 50 us,
idle 10 us, launch delays 5 us (GEMM: 30 - 25) and 5 us (ReLU: 80 - 75); pass 3: span 120, busy 50, idle 70,
ReLU delay 65 us.

  make_multipass_trace.py modules OUT.json      # no ProfilerStep#, no annotations: top-level module calls
  make_multipass_trace.py annotations OUT.json  # the same, each pass inside record_function("forward")
"""
import json
import sys

PASSES = 5
PASS_US = 200.0
BASE_US = 1000.0


def x(cat, name, ts, dur, pid=1, tid=1, args=None):
    e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
    if args is not None:
        e["args"] = args
    return e


def events(annotations):
    out = []
    for p in range(PASSES):
        b = BASE_US + p * PASS_US
        ext, corr = 100 + 10 * p, 500 + 10 * p
        if annotations:
            out.append(x("user_annotation", "forward", b - 2, 156))
        out.append(x("python_function", "nn.Module: TinyNet_0", b, 150))
        out.append(x("python_function", "nn.Module: Linear_0", b + 5, 40))
        out.append(x("cpu_op", "aten::linear", b + 6, 30,
                     args={"External id": ext, "Input Dims": [[8, 64], [32, 64], [32]],
                           "Input type": ["float", "float", "float"]}))
        out.append(x("cuda_runtime", "cudaLaunchKernel", b + 20, 5,
                     args={"External id": ext, "correlation": corr}))
        out.append(x("kernel", "gemm_kernel_64x32", b + 30, 40, pid=0, tid=7,
                     args={"External id": ext, "correlation": corr, "device": 0, "stream": 7,
                           "grid": [4, 1, 1], "block": [128, 1, 1]}))
        out.append(x("python_function", "nn.Module: ReLU_0", b + 60, 30))
        out.append(x("cpu_op", "aten::relu", b + 62, 20,
                     args={"External id": ext + 1, "Input Dims": [[8, 32]], "Input type": ["float"]}))
        out.append(x("cuda_runtime", "cudaLaunchKernel", b + 70, 5,
                     args={"External id": ext + 1, "correlation": corr + 1}))
        relu_start = b + (140 if p == 3 else 80)
        out.append(x("kernel", "relu_kernel", relu_start, 10, pid=0, tid=7,
                     args={"External id": ext + 1, "correlation": corr + 1, "device": 0, "stream": 7,
                           "grid": [1, 1, 1], "block": [256, 1, 1]}))
    return out


def main():
    kind, path = sys.argv[1], sys.argv[2]
    trace = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "Synthetic GPU (hand-made trace)"}],
             "traceEvents": events(kind == "annotations")}
    with open(path, "w") as f:
        json.dump(trace, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    main()
