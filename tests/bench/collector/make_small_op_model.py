#!/usr/bin/env python3
"""Builds the small-op benchmark model as a TorchScript archive: 12 blocks of many aten ops on tiny tensors
(input float32[1,4,16]), so that each op costs about 0.5-5 us and a profiler's per-op cost dominates.
About 1,300 ops per forward as flopscope's observer counts them (nested ops included).

Usage: make_small_op_model.py OUT.pt [--blocks 12] [--width 16]
"""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.up = nn.Linear(width, 2 * width)
        self.down = nn.Linear(width, width)
        self.gate = nn.Parameter(torch.ones(width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.norm(x)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        att = torch.softmax(torch.matmul(q, k.transpose(1, 2)) * 0.25, dim=-1)
        x = x + torch.matmul(att, v)
        u = F.gelu(self.up(x))
        a, b = u.chunk(2, dim=-1)
        u = a * torch.sigmoid(b) + torch.tanh(a)
        x = x + self.down(u) * self.gate
        return torch.relu(x) + x


class SmallOps(nn.Module):
    def __init__(self, blocks: int, width: int):
        super().__init__()
        self.blocks = nn.ModuleList([Block(width) for _ in range(blocks)])
        self.head = nn.Linear(width, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for b in self.blocks:
            x = b(x)
        return self.head(x).max(dim=-1)[0]


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--blocks", type=int, default=12)
    ap.add_argument("--width", type=int, default=16)
    args = ap.parse_args(argv)
    torch.manual_seed(0)
    model = SmallOps(args.blocks, args.width).eval()
    with torch.no_grad():
        torch.jit.script(model).save(args.out)


if __name__ == "__main__":
    main(sys.argv[1:])
