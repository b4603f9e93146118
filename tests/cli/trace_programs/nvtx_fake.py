"""Runs a small model with the companion in NVTX mode (as `flopscope exec --modules` sets it up) and a fake
torch.cuda.nvtx that records the ranges; prints them as JSON."""
import json
import os
import sys

os.environ["FLOPSCOPE_NVTX"] = "1"
os.environ.pop("FLOPSCOPE_TRACE_DIR", None)
from flopscope import _companion  # noqa: E402

_companion.install()
import torch  # noqa: E402

events = []
torch.cuda.nvtx.range_push = lambda name: events.append(["push", name])
torch.cuda.nvtx.range_pop = lambda: events.append(["pop"])


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.fc(x)


model = torch.nn.Sequential(Block(), torch.nn.ReLU(), Block())
model(torch.randn(2, 4))
json.dump(events, sys.stdout)
