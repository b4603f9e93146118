"""Writes small torch.save and TorchScript archives plus the values flopscope must report for them.

Usage: make_torch_fixtures.py OUT_DIR
Writes state.bin (a state dict with a zero tensor, a transposed view, a bf16 tensor and a meta
placeholder), module.pt (a scripted module) and expected.json ({file: {tensor: {shape, l2, max_abs,
nonzero_fraction, sha256, state}}}).
"""
import hashlib
import json
import os
import sys

import torch


def describe(t):
    if t.device.type == "meta" or t.numel() == 0:
        return {"shape": list(t.shape), "state": "ERASED"}
    c = t.detach().contiguous()
    raw = c.view(torch.int16).numpy().tobytes() if c.dtype == torch.bfloat16 else c.numpy().tobytes()
    f = c.double()
    return {
        "shape": list(t.shape),
        "l2": f.norm().item(),
        "max_abs": f.abs().max().item(),
        "nonzero_fraction": (f != 0).double().mean().item(),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "state": "ZEROED" if bool((f == 0).all()) else "ACTIVE",
    }


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(4, 3)
        self.blocks = torch.nn.ModuleList([torch.nn.LayerNorm(3), torch.nn.LayerNorm(3)])
        with torch.no_grad():
            self.blocks[1].weight.zero_()

    def forward(self, x):
        x = self.proj(x)
        for b in self.blocks:
            x = b(x)
        return x


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(1)
    base = torch.randn(3, 5)
    state = {
        "layer.weight": torch.randn(4, 6),
        "layer.zero": torch.zeros(7),
        "layer.transposed": base.t(),  # a strided view of a 3x5 storage
        "layer.slice": base[1],        # a view at a storage offset
        "layer.bf16": torch.randn(5).bfloat16(),
        "layer.ids": torch.arange(6, dtype=torch.int64),
        "layer.placeholder": torch.empty(2, 3, device="meta"),
        "param": torch.nn.Parameter(torch.ones(2)),
    }
    torch.save(state, os.path.join(out, "state.bin"))
    m = torch.jit.script(Small())
    torch.jit.save(m, os.path.join(out, "module.pt"))
    expected = {
        "state.bin": {k: describe(v) for k, v in state.items()},
        "module.pt": {k: describe(v) for k, v in m.state_dict().items()},
    }
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


if __name__ == "__main__":
    main()
