"""A model whose middle block runs under torch.compile (backend aot_eager, CPU), for the torch 2.x checks of
`flopscope trace`: `compiled.py compile|eager CALLS`. The block's submodules are not called through their
forward hooks when dynamo runs them; the run must say so and keep every op."""
import sys

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up = nn.Linear(d, 4 * d)
        self.act = nn.GELU()
        self.down = nn.Linear(4 * d, d)

    def forward(self, x):
        return x + self.down(self.act(self.up(x)))


class Model(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.inp = nn.Linear(d, d)
        self.block = Block(d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        return self.out(self.block(self.inp(x)))


def main():
    mode, calls = sys.argv[1], int(sys.argv[2])
    torch.manual_seed(0)
    model = Model().eval()
    if mode == "compile":
        model.block = torch.compile(model.block, backend="aot_eager")
    x = torch.randn(8, 32)
    with torch.no_grad():
        for _ in range(calls):
            model(x)


main()
