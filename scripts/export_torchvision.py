#!/usr/bin/env python3
"""Exports torchvision models with random weights (weights=None: nothing is downloaded) to TorchScript.

Usage: export_torchvision.py OUT_DIR [MODEL ...]   (default: resnet18 resnet50 mobilenet_v2 alexnet vit_b_16)

Each model is scripted in eval mode and written atomically to OUT_DIR/<model>.pt. A model that already
exists is kept (delete it to re-export).
"""
import argparse
import os
import sys

DEFAULT_MODELS = ["resnet18", "resnet50", "mobilenet_v2", "alexnet", "vit_b_16"]


def export(name, out_dir):
    import torch
    import torchvision

    path = os.path.join(out_dir, f"{name}.pt")
    if os.path.exists(path):
        return path
    builder = getattr(torchvision.models, name, None)
    if builder is None:
        raise SystemExit(f"export_torchvision: unknown torchvision model '{name}'")
    torch.manual_seed(0)
    model = builder(weights=None).eval()
    scripted = torch.jit.script(model)
    tmp = f"{path}.{os.getpid()}.tmp"
    scripted.save(tmp)
    os.replace(tmp, path)
    return path


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    args = ap.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    for name in args.models:
        print(export(name, args.out_dir))


if __name__ == "__main__":
    main(sys.argv[1:])
