#!/usr/bin/env python3
"""Writes a small scripted model whose forward has branches: BatchNorm's training-only counter update
and an `if` on a tensor's size whose result feeds the next op. Usage: make_branchy_model.py OUT.pt"""
import sys

import torch
import torch.nn as nn


class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.head = nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn(self.conv(x)))
        if y.size(0) > 1:
            z = y.mean(dim=(2, 3))
        else:
            z = y.amax(dim=(2, 3))
        return self.head(z)


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.jit.script(Branchy().eval()).save(sys.argv[1])
