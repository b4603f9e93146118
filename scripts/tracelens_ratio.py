#!/usr/bin/env python3
"""FLOPs per op: flopscope against TraceLens' own per-op CSVs, as a ratio table.

Usage: tracelens_ratio.py FLOPSCOPE TRACE ORACLE_DIR
  FLOPSCOPE   the flopscope binary (build/dev/cli/flopscope)
  TRACE       the Kineto trace TraceLens analysed (tests/data/kineto/tracelens__sglang_Qwen3-8B_prefilldecode.json.gz)
  ORACLE_DIR  the folder with TraceLens' GEMM.csv and InferenceAttention_fwd.csv for it

Rows are matched by op name and the shapes of the first two inputs (TraceLens' "Input Dims_first"). A ratio
other than 1.000 must be explained by a known difference of convention, or the script says UNEXPLAINED and
exits 1. Known differences: causal prefill attention, where flopscope counts the exact lower triangle,
n(n+1)/2 scores per sequence of n tokens, and TraceLens n^2/2 - a ratio of (n+1)/n; and ops TraceLens
counts as 0 that flopscope has no formula for (reported unknown, a coverage gap, never 0).
"""
import csv
import json
import os
import subprocess
import sys


def first_dims(field, n=2):
    """The first n shapes of a TraceLens 'Input Dims_first' field, as lists."""
    dims = json.loads(field.replace("'", '"')) if field.strip().endswith("]") else None
    if dims is None:  # a long field cut by TraceLens: parse the leading [..] groups
        dims, i = [], 1
        while len(dims) < n:
            a = field.find("[", i)
            b = field.find("]", a)
            if a < 0 or b < 0:
                break
            dims.append(json.loads(field[a:b + 1]))
            i = b + 1
    return [list(d) for d in dims[:n]]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    flopscope, trace, oracle = sys.argv[1:]
    out = subprocess.run([flopscope, "report", trace, "--format", "json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"flopscope report failed ({out.returncode}): {out.stderr.strip()}")
    report = json.loads(out.stdout)
    per_call = {}  # (name, dims) -> {flops per call}
    calls = {}
    for g in report["op_groups"]:
        dims = [i.get("shape") for i in g["inputs"][:2]]
        key = (g["name"], json.dumps(dims))
        per_call.setdefault(key, set()).add(g["flops"] if g["flops_source"] != "none" else None)
        calls[key] = calls.get(key, 0) + g["calls"]

    print(f"| op | first two input shapes | TraceLens GFLOPs | flopscope GFLOPs | ratio | why |")
    print(f"|---|---|---:|---:|---:|---|")
    bad = 0
    for file in ("GEMM.csv", "InferenceAttention_fwd.csv"):
        with open(os.path.join(oracle, file), newline="") as f:
            for row in csv.DictReader(f):
                dims = first_dims(row["Input Dims_first"])
                key = (row["name"], json.dumps(dims))
                ref = float(row["GFLOPS_first"])
                ours = per_call.get(key)
                shapes = " ".join("x".join(map(str, d)) for d in dims)
                if not ours:
                    print(f"| {row['name']} | {shapes} | {ref:.6f} | not found | - | UNEXPLAINED: no op with these shapes |")
                    bad += 1
                    continue
                if ref == 0 and ours == {None}:
                    print(f"| {row['name']} | {shapes} | 0 | unknown | - | a KV-cache write: TraceLens counts 0, "
                          f"flopscope has no formula and lists it as a coverage gap instead of a silent 0 |")
                    continue
                if len(ours) != 1 or None in ours:
                    print(f"| {row['name']} | {shapes} | {ref:.6f} | {sorted(ours, key=str)} | - | UNEXPLAINED: unknown or several values |")
                    bad += 1
                    continue
                gflops = next(iter(ours)) / 1e9
                if ref == 0:
                    why = "agree: 0 FLOPs (a cache write)" if gflops == 0 else "UNEXPLAINED: TraceLens 0"
                    bad += why.startswith("UNEXPLAINED")
                    print(f"| {row['name']} | {shapes} | 0 | {gflops:.6f} | - | {why} |")
                    continue
                ratio = gflops / ref
                why = "agree"
                if abs(ratio - 1) > 1e-9:
                    c_sq, c_sqsq = float(row.get("param: c_sq") or 0), float(row.get("param: c_sqsq") or 0)
                    n = c_sqsq / c_sq if c_sq > 0 else 0  # tokens per sequence when all sequences are equal
                    if n > 0 and abs(ratio - (n + 1) / n) < 1e-9:
                        why = (f"causal prefill: flopscope counts the exact triangle n(n+1)/2 scores per sequence, "
                               f"TraceLens n^2/2 (its c_sqsq/2); (n+1)/n with n = {n:.0f} "
                               f"({int(c_sq / n)} sequences)")
                    else:
                        why = "UNEXPLAINED"
                        bad += 1
                print(f"| {row['name']} | {shapes} | {ref:.6f} | {gflops:.6f} | {ratio:.6f} | {why} |")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
