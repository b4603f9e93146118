#!/usr/bin/env python3
"""Test model for elimination candidates: a module that outputs exact zeros, an identity module, and two
normal linear layers. Usage: make_behaviour_model.py OUT.pt"""
import sys

import torch
import torch.nn as nn


class Zero(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 0.0


class Identity(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * 1.0


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(32, 32)
        self.zero = Zero()
        self.ident = Identity()
        self.lin2 = nn.Linear(32, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.lin1(x))
        y = y + self.zero(y)
        y = self.ident(y)
        return self.lin2(y)


if __name__ == "__main__":
    torch.manual_seed(0)
    torch.jit.script(Net().eval()).save(sys.argv[1])
