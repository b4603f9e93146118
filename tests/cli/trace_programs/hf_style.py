"""A Hugging-Face-style model for `flopscope trace` tests: nested ModuleLists, an embedding tied to the output
head, a norm called twice, and one Linear shared by two layers (reached from two parents). Writes the
model's own view of its modules and parameters to the file given as the first argument."""
import json
import sys

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d)
        self.k_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)
        self.o_proj = nn.Linear(d, d)

    def forward(self, x):
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        w = torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1)
        return self.o_proj(w @ v)


class Expert(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up = nn.Linear(d, 2 * d)
        self.down = nn.Linear(2 * d, d)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


class DecoderLayer(nn.Module):
    def __init__(self, d, shared):
        super().__init__()
        self.self_attn = Attention(d)
        self.experts = nn.ModuleList([Expert(d), Expert(d)])  # a ModuleList inside a ModuleList
        self.shared = shared  # the same Linear in every layer
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        x = x + self.self_attn(self.norm(x))
        x = x + sum(e(x) for e in self.experts)
        return self.norm(self.shared(x))  # norm called a second time


class Model(nn.Module):
    def __init__(self, vocab=96, d=16, layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        shared = nn.Linear(d, d)
        self.model = nn.Module()
        self.model.layers = nn.ModuleList([DecoderLayer(d, shared) for _ in range(layers)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.embed_tokens.weight  # tied

    def forward(self, ids):
        x = self.embed_tokens(ids)
        for layer in self.model.layers:
            x = layer(x)
        return self.lm_head(self.norm(x))


def main():
    torch.manual_seed(0)
    m = Model().eval()
    with open(sys.argv[1], "w") as f:
        json.dump({"modules": [[n, type(x).__name__] for n, x in m.named_modules()],
                   "all_paths": [n for n, _ in m.named_modules(remove_duplicate=False)],
                   "params": [n for n, _ in m.named_parameters()],
                   # Every name of every parameter (a tied or shared one under each), module by module.
                   "all_params": [(p + "." if p else "") + n for p, x in m.named_modules(remove_duplicate=False)
                                  for n, t in x._parameters.items() if t is not None]}, f)
    ids = torch.randint(0, 96, (1, 8))
    with torch.no_grad():
        for _ in range(3):
            m(ids)


main()
