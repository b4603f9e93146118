"""The eager form of a corpus case: loads a pickled model (classes from corpus.py, next to this file, or from
installed libraries) and its inputs, and calls it CALLS times without gradients; run under `flopscope trace`.
Usage: eager_run.py MODEL.module INPUTS CALLS"""
import sys

import torch


def load(path):
    try:
        return torch.load(path, weights_only=False)  # torch >= 2.6 loads tensors only by default
    except TypeError:  # a torch without weights_only
        return torch.load(path)


def main(argv):
    model, inputs, calls = load(argv[1]), load(argv[2]), int(argv[3])
    model.eval()
    with torch.no_grad():
        for _ in range(calls):
            model(*inputs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
