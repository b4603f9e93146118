#!/usr/bin/env python3
"""Small models for the elimination-candidate tests, in TorchScript and eager form (Debian's torch 1.13):

  candidate_models.py save MODEL OUT.pt   scripts the model and saves it (for `flopscope profile`)
  candidate_models.py run MODEL CALLS     calls it eagerly on float32[4,16] inputs (`flopscope trace -- ...`)

MODEL is one of:
  moe       a router over 4 experts: experts.1 and experts.2 are never selected, experts.3 only for rows whose
            first feature is above 5, and `gate` (relu(x - 5) * scale) outputs zeros unless a feature is
            above 5; random inputs (randn) never are
  lora      PEFT's layout with adapters in ModuleDicts keyed `task_a`; lora_B is zero
  identity  an nn.Identity between two linears, and a module that outputs zeros
  pos       an nn.Embedding whose forward never runs: the model slices its weight (x + pos.weight[:n])
"""
import sys

import torch
from torch import nn

D = 16


class Expert(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Linear(D, 2 * D)
        self.down = nn.Linear(2 * D, D)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(D))

    def forward(self, x):
        return torch.relu(x - 5.0) * self.scale


class Moe(nn.Module):
    def __init__(self):
        super().__init__()
        self.router = nn.Linear(D, 4)
        self.experts = nn.ModuleList([Expert() for _ in range(4)])
        self.gate = Gate()
        with torch.no_grad():
            # Logits: expert 0 at 1; experts 1 and 2 far below; expert 3 at 100 * (x0 - 5).
            self.router.weight.zero_()
            self.router.bias.copy_(torch.tensor([1.0, -1e4, -1e4, -500.0]))
            self.router.weight[3, 0] = 100.0

    def forward(self, x):
        choice = self.router(x).argmax(dim=-1)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            rows = (choice == i).nonzero().flatten()
            if rows.numel() > 0:
                out = out.index_add(0, rows, expert(x.index_select(0, rows)))
        return out + self.gate(x)


class LoraLinear(nn.Module):
    def __init__(self, r=4):
        super().__init__()
        self.base_layer = nn.Linear(D, D)
        self.lora_A = nn.ModuleDict({"task_a": nn.Linear(D, r, bias=False)})
        self.lora_B = nn.ModuleDict({"task_a": nn.Linear(r, D, bias=False)})
        nn.init.zeros_(self.lora_B["task_a"].weight)

    def forward(self, x):
        return self.base_layer(x) + self.lora_B["task_a"](self.lora_A["task_a"](x))


class Lora(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = LoraLinear()
        self.v_proj = LoraLinear()

    def forward(self, x):
        return self.q_proj(x) * self.v_proj(x)


class Zero(nn.Module):
    def forward(self, x):
        return x * 0.0


class WithIdentity(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin1 = nn.Linear(D, D)
        self.skip = nn.Identity()
        self.zero = Zero()
        self.lin2 = nn.Linear(D, 4)

    def forward(self, x):
        y = torch.relu(self.lin1(x))
        y = self.skip(y) + self.zero(y)
        return self.lin2(y)


class PosWeight(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Embedding(8, D)
        self.lin = nn.Linear(D, D)

    def forward(self, x):
        return self.lin(x + self.pos.weight[: x.shape[0]])


MODELS = {"moe": Moe, "lora": Lora, "identity": WithIdentity, "pos": PosWeight}

if __name__ == "__main__":
    action, name = sys.argv[1], sys.argv[2]
    torch.manual_seed(0)
    model = MODELS[name]().eval()
    if action == "save":
        torch.jit.script(model).save(sys.argv[3])
    else:
        inputs = [torch.randn(4, D) for _ in range(int(sys.argv[3]))]
        with torch.no_grad():
            for x in inputs:
                model(x)
