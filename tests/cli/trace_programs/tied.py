"""A tiny language model whose output head is tied to its embedding, with a Linear shared by two blocks and
buffers (float and int64), for `flopscope trace` against `profile` of the same model as TorchScript.
`tied.py save PATH` writes the TorchScript file; `tied.py` alone runs the model eagerly."""
import sys

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d, shared):
        super().__init__()
        self.mix = nn.Linear(d, d)
        self.shared = shared
        self.register_buffer("scale", torch.linspace(0.5, 1.5, d))

    def forward(self, x):
        return x + self.shared(torch.relu(self.mix(x))) * self.scale


class TiedLM(nn.Module):
    def __init__(self, vocab=96, d=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        shared = nn.Linear(d, d)
        self.blocks = nn.ModuleList([Block(d, shared), Block(d, shared)])
        self.register_buffer("positions", torch.arange(8))
        self.pos = nn.Embedding(8, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.embed.weight  # tied: one tensor, two names

    def forward(self, ids):
        x = self.embed(ids) + self.pos(self.positions)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(x)


def main():
    torch.manual_seed(0)
    m = TiedLM().eval()
    if len(sys.argv) > 2 and sys.argv[1] == "save":
        torch.jit.save(torch.jit.script(m), sys.argv[2])
        return
    ids = torch.randint(0, 96, (1, 8))
    with torch.no_grad():
        for _ in range(2):
            m(ids)


main()
