#!/usr/bin/env python3
"""sonnet-mini as an eager PyTorch program (no TorchScript): the same model classes and seed weights as
samples/sonnet-mini/make_sonnet_mini.py, run for a few forward calls, so `flopscope trace` can be checked
against `flopscope profile` of the TorchScript files.

  flopscope trace -o v1.db -- python3 samples/eager/run_sonnet_mini.py --version v1

Usage: run_sonnet_mini.py [--version v1|v2|v2z] [--calls 5] [--tokens 64] [--layers 4] [--d-model 64]
                          [--heads 2] [--vocab 512] [--seed 0]
"""
import argparse
import importlib.util
import os
import sys

import torch


def load_builder():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sonnet-mini", "make_sonnet_mini.py")
    spec = importlib.util.spec_from_file_location("make_sonnet_mini", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", choices=["v1", "v2", "v2z"], default="v1")
    ap.add_argument("--calls", type=int, default=5, help="forward calls (each one iteration)")
    ap.add_argument("--tokens", type=int, default=64)
    builder = load_builder()
    builder.add_model_arguments(ap)
    args = ap.parse_args(argv)
    model = builder.build(args)[args.version]
    model.eval()
    tokens = torch.randint(0, args.vocab, (1, args.tokens), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        for _ in range(args.calls):
            logits = model(tokens)
    print(f"sonnet-mini {args.version}: {args.calls} forward calls, logits {list(logits.shape)}, "
          f"sum {logits.sum().item():.6f}")


if __name__ == "__main__":
    main(sys.argv[1:])
