#!/usr/bin/env python3
"""Model-level check of the FLOPs registry on torchvision models (random weights, nothing downloaded).

  check_models.py registry MODEL --totals BIN --work DIR
      records the aten ops the model runs in eager mode (record_ops.py), sums them with the registry
      (BIN = flopscope_registry_totals) and compares total MACs with torchvision's published count.
  check_models.py profile MODEL --flopscope BIN --work DIR
      exports the model to TorchScript (scripts/export_torchvision.py), runs
      `flopscope profile MODEL.pt --input float32[1,3,224,224] -o MODEL.db` and
      `flopscope report MODEL.db --format json`, and compares the report's total MACs.

Both fail when total MACs differ from the published count by more than 1% or when an op has no formula.
Exit 77 (skipped) when torch or torchvision cannot be imported.

torchvision publishes per-model "GFLOPS" (the weights' meta "_ops") that are multiply-accumulates of
convolutions, linear layers and attention matmuls for one 224x224 image; flopscope reports those as MACs.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))

# torchvision 0.14 models/*.py, Weights meta "_ops" (GMACs for 1x3x224x224).
PUBLISHED_GMACS = {
    "resnet18": 1.814,
    "resnet50": 4.089,
    "mobilenet_v2": 0.301,
    "alexnet": 0.714,
    "vit_b_16": 17.564,
}
TOLERANCE = 0.01


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def check_macs(model, macs):
    published = PUBLISHED_GMACS[model] * 1e9
    rel = abs(macs - published) / published
    print(f"{model}: {macs / 1e9:.4f} GMACs, torchvision publishes {PUBLISHED_GMACS[model]:.3f} "
          f"({rel * 100:+.2f}% off, tolerance {TOLERANCE * 100:.0f}%)")
    if rel > TOLERANCE:
        fail(f"{model}: total MACs {macs:.6g} differ from the published {published:.6g} by {rel * 100:.2f}%")


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return proc.stdout


def registry_mode(model, totals_bin, work):
    ops_path = os.path.join(work, f"{model}.ops.jsonl")
    run([sys.executable, os.path.join(HERE, "record_ops.py"), model, ops_path])
    totals = json.loads(run([totals_bin, ops_path]))
    print(f"{model}: {totals['ops']} ops, {totals['flops'] / 1e9:.4f} GFLOPs, "
          f"{(totals['bytes_read'] + totals['bytes_written']) / 1e6:.1f} MB moved, {totals['estimates']} estimates")
    if totals["unknown"]:
        fail(f"{model}: ops without a formula: {totals['unknown']}")
    check_macs(model, totals["macs"])


def profile_mode(model, flopscope, work):
    help_text = subprocess.run([flopscope, "--help"], capture_output=True, text=True).stdout
    if " profile" not in help_text:
        print("skipped: this build has no `flopscope profile` (no LibTorch)")
        sys.exit(77)
    exported = run([sys.executable, os.path.join(SOURCE, "scripts", "export_torchvision.py"), work, model])
    pt = exported.strip().splitlines()[-1]
    db = os.path.join(work, f"{model}.db")
    if os.path.exists(db):
        os.remove(db)
    run([flopscope, "profile", pt, "--input", "float32[1,3,224,224]", "--iters", "1", "--warmup", "1", "-o", db])
    report = json.loads(run([flopscope, "report", db, "--format", "json"]))
    total = report["total"]
    coverage = report["coverage"]
    print(f"{model}: {total['flops'] / 1e9:.4f} GFLOPs, "
          f"{(total['bytes_read'] + total['bytes_written']) / 1e6:.1f} MB moved; "
          f"{coverage['ops_with_formula']}/{coverage['ops_total']} ops with a formula")
    if coverage["gaps"]:
        fail(f"{model}: ops without a formula: " + ", ".join(f"{g['name']} x{g['count']}" for g in coverage["gaps"]))
    if coverage["ops_with_formula"] != coverage["ops_total"]:
        fail(f"{model}: {coverage['ops_total'] - coverage['ops_with_formula']} op calls have no formula")
    check_macs(model, total["macs"])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["registry", "profile"])
    ap.add_argument("model", choices=sorted(PUBLISHED_GMACS))
    ap.add_argument("--totals")
    ap.add_argument("--flopscope")
    ap.add_argument("--work", required=True)
    args = ap.parse_args(argv)
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
    except ImportError as e:
        print(f"skipped: {e}")
        sys.exit(77)
    os.makedirs(args.work, exist_ok=True)
    if args.mode == "registry":
        registry_mode(args.model, args.totals, args.work)
    else:
        profile_mode(args.model, args.flopscope, args.work)
    print("OK")


if __name__ == "__main__":
    main(sys.argv[1:])
