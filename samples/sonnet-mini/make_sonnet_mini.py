#!/usr/bin/env python3
"""Builds the sonnet-mini sample models (v1, v2, v2z) as TorchScript archives.

sonnet-mini is a small decoder-only transformer. The three versions share one set of seed weights so a
diff between any two isolates exactly one change:

  v1   every attention block has a `position_adaptive_bias` submodule: a learned [2, d] parameter that
       turns relative position into an additive bias on the attention scores. Its weights are tiny
       (about 1e-7), so its contribution to the output is near zero for typical inputs, yet it costs
       O(N^2) work per head.
  v2   the same model with that module removed from the graph and its parameters absent.
  v2z  the module still runs, but its parameters are all zero.

Usage: make_sonnet_mini.py OUT_DIR [--layers 4] [--d-model 64] [--heads 2] [--vocab 512] [--seed 0]
"""
import argparse
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class PositionAdaptiveBias(nn.Module):
    """Additive attention bias from relative position, gated per token by a [2, d] projection."""

    def __init__(self, d_model: int):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(2, d_model))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: [B, N, d] -> gates: [B, N, 2]
        gates = F.linear(x, self.weight)
        n = x.size(1)
        pos = torch.arange(n, device=x.device, dtype=x.dtype)
        rel = torch.log1p(torch.abs(pos.unsqueeze(1) - pos.unsqueeze(0)))  # [N, N]
        query_gate = gates[:, :, 0].unsqueeze(2)  # [B, N, 1]
        key_gate = gates[:, :, 1].unsqueeze(1)  # [B, 1, N]
        bias = query_gate * rel + key_gate  # [B, N, N]
        return bias.unsqueeze(1)  # broadcast over heads


class Attention(nn.Module):
    def __init__(self, d_model: int, heads: int, with_bias_module: bool):
        super().__init__()
        self.heads = heads
        self.head_dim = d_model // heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)
        if with_bias_module:
            self.position_adaptive_bias = PositionAdaptiveBias(d_model)

    def split(self, t: torch.Tensor) -> torch.Tensor:
        b, n, _ = t.shape
        return t.view(b, n, self.heads, self.head_dim).transpose(1, 2)

    def attend(self, x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        q = self.split(self.q_proj(x))
        k = self.split(self.k_proj(x))
        v = self.split(self.v_proj(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
        scores = scores + bias
        causal = torch.ones(n, n, dtype=torch.bool, device=x.device).triu(1)
        scores = scores.masked_fill(causal, float("-inf"))
        probs = torch.softmax(scores, dim=-1)
        out = torch.matmul(probs, v).transpose(1, 2).reshape(b, n, d)
        return self.o_proj(out)


class AttentionWithBias(Attention):
    def __init__(self, d_model: int, heads: int):
        super().__init__(d_model, heads, True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.attend(x, self.position_adaptive_bias(x))


class AttentionPlain(Attention):
    def __init__(self, d_model: int, heads: int):
        super().__init__(d_model, heads, False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.attend(x, torch.zeros(1, 1, 1, 1, dtype=x.dtype, device=x.device))


class MLP(nn.Module):
    def __init__(self, d_model: int):
        super().__init__()
        self.up = nn.Linear(d_model, 4 * d_model)
        self.act = nn.GELU()
        self.down = nn.Linear(4 * d_model, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(self.act(self.up(x)))


class Block(nn.Module):
    def __init__(self, d_model: int, heads: int, with_bias_module: bool):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = AttentionWithBias(d_model, heads) if with_bias_module else AttentionPlain(d_model, heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = MLP(d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class SonnetMini(nn.Module):
    def __init__(self, vocab: int, d_model: int, heads: int, layers: int, with_bias_module: bool):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([Block(d_model, heads, with_bias_module) for _ in range(layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x)
        return self.lm_head(self.ln_f(x))


def build(args):
    torch.manual_seed(args.seed)
    v1 = SonnetMini(args.vocab, args.d_model, args.heads, args.layers, True)
    with torch.no_grad():
        for p in v1.parameters():
            if p.dim() >= 2:
                nn.init.normal_(p, std=0.02)
            else:
                nn.init.normal_(p, std=0.01)
        for layer in v1.layers:
            layer.ln1.weight.fill_(1.0)
            layer.ln2.weight.fill_(1.0)
            # Tiny weights: this module's contribution is near zero for typical inputs.
            nn.init.normal_(layer.attn.position_adaptive_bias.weight, std=5e-8)
        v1.ln_f.weight.fill_(1.0)

    state = v1.state_dict()
    v2 = SonnetMini(args.vocab, args.d_model, args.heads, args.layers, False)
    v2_state = {k: v for k, v in state.items() if "position_adaptive_bias" not in k}
    v2.load_state_dict(v2_state, strict=True)

    v2z = SonnetMini(args.vocab, args.d_model, args.heads, args.layers, True)
    v2z.load_state_dict(state, strict=True)
    with torch.no_grad():
        for layer in v2z.layers:
            layer.attn.position_adaptive_bias.weight.zero_()
    return {"v1": v1, "v2": v2, "v2z": v2z}


def add_model_arguments(ap):
    """The size and seed options build() reads (shared with samples/eager/run_sonnet_mini.py)."""
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=64)
    ap.add_argument("--heads", type=int, default=2)
    ap.add_argument("--vocab", type=int, default=512)
    ap.add_argument("--seed", type=int, default=0)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    add_model_arguments(ap)
    args = ap.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    models = build(args)
    tokens = torch.randint(0, args.vocab, (1, 64), generator=torch.Generator().manual_seed(1))
    reference = None
    for name, model in models.items():
        model.eval()
        scripted = torch.jit.script(model)
        path = os.path.join(args.out_dir, f"sonnet-mini-{name}.pt")
        tmp = path + ".tmp"
        scripted.save(tmp)
        os.replace(tmp, path)
        with torch.no_grad():
            out = scripted(tokens)
        if reference is None:
            reference = out
        delta = (out - reference).abs().max().item()
        print(f"wrote {path}  params={sum(p.numel() for p in model.parameters())}  max|out - v1|={delta:.3g}")


if __name__ == "__main__":
    main(sys.argv[1:])
