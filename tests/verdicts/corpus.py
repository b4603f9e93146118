"""Verdict conformance corpus: small model pairs, each with the verdicts, candidates and gate exit codes
flopscope must give. `corpus.py --list` names the cases; `corpus.py CASE` builds the case's models in a
temporary directory, runs flopscope as a user would, and fails on any difference.

A case is captured in one of two forms: `ts` (the model scripted to TorchScript, run by `flopscope profile`)
or `eager` (the model pickled, run by eager_run.py under `flopscope trace`). Cases written for both are
registered twice, as NAME_ts and NAME_eager; the older cases are TorchScript only.

Runs with Debian's /usr/bin/python3 and torch 1.13 (pypi_corpus.py reuses it with torch 2.x). FLOPscope
binary: $FLOPSCOPE.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import torch
from torch import nn

FLOPSCOPE = os.environ.get("FLOPSCOPE", "flopscope")
EAGER_RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "eager_run.py")
CASES = {}  # name -> (case function, form)
FORMS = ("ts", "eager")


def case(fn):
    CASES[fn.__name__] = (fn, "ts")
    return fn


def both_forms(fn):
    """Registers the case as NAME_ts and NAME_eager: the same models and expectations, captured both ways."""
    for form in FORMS:
        CASES[f"{fn.__name__}_{form}"] = (fn, form)
    return fn


def make_inputs(spec):
    """`profile --input` specs ("float32[4,32]", "int64[2,8]@0:128", joined by " --input ") as tensors, for
    the eager form (seeded, so two captures of one case see the same inputs)."""
    gen = torch.Generator().manual_seed(0)
    out = []
    for one in spec.split(" --input "):
        m = re.fullmatch(r"(\w+)\[([\d,]*)\](?:@(-?\d+):(-?\d+))?", one)
        if not m:
            raise ValueError(f"input spec {one!r}")
        dtype = {"float32": torch.float32, "bf16": torch.bfloat16, "int64": torch.int64}[m.group(1)]
        shape = [int(d) for d in m.group(2).split(",") if d]
        if dtype == torch.int64:
            lo, hi = int(m.group(3) or 0), int(m.group(4) or 2)
            out.append(torch.randint(lo, hi, shape, generator=gen))
        else:
            out.append(torch.randn(shape, generator=gen).to(dtype))
    return out


class Check:
    def __init__(self, workdir, form="ts", python=None):
        self.dir = workdir
        self.form = form
        self.python = python or sys.executable  # the eager form's interpreter
        self.failures = []

    def path(self, name):
        return os.path.join(self.dir, name)

    def run(self, *args):
        p = subprocess.run([FLOPSCOPE, *args], capture_output=True, text=True, timeout=600)
        return p

    def save(self, model, name):
        """TorchScript: the scripted model at NAME. Eager: the model's state dict at NAME (what `flopscope
        weights` reads) and the pickled module at NAME.module (what eager_run.py runs)."""
        torch.manual_seed(0)
        path = self.path(name)
        if self.form == "eager":
            torch.save(model.eval(), path + ".module")
            torch.save(model.state_dict(), path)
        else:
            torch.jit.save(torch.jit.script(model.eval()), path)
        return path

    def profile(self, model_path, spec, *extra, iters="3", db=None):
        """Captures MODEL_PATH (see save) with inputs SPEC: `profile` for TorchScript, `trace` for eager (one
        warm-up call, ITERS recorded; of EXTRA only --activations and --save-outputs apply there). Returns the run
        database."""
        db = db or model_path[:-3] + ".db"
        if self.form == "eager":
            inputs = model_path + ".inputs"
            torch.save(make_inputs(spec), inputs)
            unknown = [e for e in extra if e not in ("--activations", "--save-outputs")]
            if unknown:
                raise ValueError(f"eager form: unsupported capture options {unknown}")
            calls = str(int(iters) + 1)
            p = self.run("trace", "-o", db, "--iterations", iters, "--warmup", "1", "--force", *extra, "--",
                         self.python, EAGER_RUN, model_path + ".module", inputs, calls)
            self.expect(p.returncode == 0, f"trace {model_path} exited {p.returncode}: {p.stderr.strip()}")
            return db
        p = self.run("profile", model_path, "--input", *spec.split(" --input "), "--iters", iters, "--warmup", "1",
                     "--threads", "1", "-o", db, "--force", *extra)
        self.expect(p.returncode == 0, f"profile {model_path} exited {p.returncode}: {p.stderr.strip()}")
        return db

    def diff(self, a, b, *extra):
        p = self.run("diff", a, b, "--format", "json", *extra)
        data = json.loads(p.stdout) if p.stdout.strip().startswith("{") else None
        return p.returncode, data, p.stderr

    def module_ops(self, db):
        """Module path -> (inclusive ops, inclusive FLOPs) per iteration, from `report --format json`."""
        p = self.run("report", db, "--format", "json", "--depth", "99")
        self.expect(p.returncode == 0, f"report {db}: {p.stderr.strip()}")
        out = {}
        for m in json.loads(p.stdout).get("modules", []):
            out[m["path"]] = m
        return out

    def candidates(self, db):
        p = self.run("report", db, "--candidates", "--format", "json")
        self.expect(p.returncode == 0, f"report --candidates {db}: {p.stderr.strip()}")
        return {m["path"]: m["kind"] for m in json.loads(p.stdout)["candidates"]["modules"]}

    def expect(self, ok, what):
        if not ok:
            self.failures.append(what)
        return ok

    def expect_eq(self, got, want, what):
        return self.expect(got == want, f"{what}: got {got!r}, want {want!r}")

    def discarded(self, db):
        """The dead-compute candidates of `report --candidates` (computed then multiplied by zero)."""
        p = self.run("report", db, "--candidates", "--format", "json")
        self.expect(p.returncode == 0, f"report --candidates {db}: {p.stderr.strip()}")
        return json.loads(p.stdout)["candidates"].get("discarded", []) if p.returncode == 0 else []

    def flops_of(self, mods, *paths):
        return sum(mods[p]["inclusive"]["flops"] for p in paths if isinstance(mods.get(p), dict))

    def verdicts(self, data):
        return {m["path"]: m["status"] for m in data["modules"]}

    def weights_changes(self, a, b, *extra):
        """`weights A B --format json`: tensor name (A's, or B's for a NEW one) -> change."""
        p = self.run("weights", a, b, "--format", "json", *extra)
        self.expect(p.returncode == 0, f"weights {a} {b}: {p.stderr.strip()}")
        return {r["name"]: r["change"] for r in json.loads(p.stdout)["comparison"]} if p.returncode == 0 else {}


# ---------------------------------------------------------------------------------------------- models


class LoraLinear(nn.Module):
    """PEFT's layout: base_layer, lora_A/lora_B as ModuleDicts keyed by adapter name."""

    def __init__(self, d, r, zero_b=True):
        super().__init__()
        self.base_layer = nn.Linear(d, d)
        self.lora_A = nn.ModuleDict({"default": nn.Linear(d, r, bias=False)})
        self.lora_B = nn.ModuleDict({"default": nn.Linear(r, d, bias=False)})
        if zero_b:
            nn.init.zeros_(self.lora_B["default"].weight)

    def forward(self, x):
        return self.base_layer(x) + self.lora_B["default"](self.lora_A["default"](x))


class PeftAttention(nn.Module):
    def __init__(self, d=32, r=4, zero_b=True):
        super().__init__()
        self.q_proj = LoraLinear(d, r, zero_b)
        self.v_proj = LoraLinear(d, r, zero_b)

    def forward(self, x):
        return self.q_proj(x) * self.v_proj(x)


class Block(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        return torch.relu(self.fc(x))


class Stack(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = nn.ModuleList(blocks)

    def forward(self, x):
        for b in self.blocks:
            x = b(x)
        return x


class SeqStack(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.body = nn.Sequential(*blocks)

    def forward(self, x):
        return self.body(x)


class InplaceRelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.fc(x))


class AddInplace(nn.Module):
    """x += mlp(x): the output aliases the input."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 32))

    def forward(self, x):
        x += self.mlp(x)
        return x


class ResidualInplace(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(32, 32)
        self.block = AddInplace()

    def forward(self, x):
        return self.block(self.pre(x))


class Mlp(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.up = nn.Linear(d, h)
        self.down = nn.Linear(h, d)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


class WithAdapter(nn.Module):
    def __init__(self, adapter):
        super().__init__()
        self.mlp = Mlp(32, 64)
        self.adapter = Mlp(32, 8) if adapter else None

    def forward(self, x):
        y = self.mlp(x)
        if self.adapter is not None:
            y = y + self.adapter(y)
        return y


class Conv1D(nn.Module):
    """Hugging Face GPT-2's Conv1D: x @ W + b through torch.addmm, weight stored [in, out]."""

    def __init__(self, nf, nx):
        super().__init__()
        self.nf = nf
        self.weight = nn.Parameter(torch.randn(nx, nf) * 0.02)
        self.bias = nn.Parameter(torch.zeros(nf))

    def forward(self, x):
        size_out = x.size()[:-1] + (self.nf,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(size_out)


class Gpt2Mlp(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.c_fc = Conv1D(4 * d, d)
        self.c_proj = Conv1D(d, 4 * d)

    def forward(self, x):
        return self.c_proj(torch.nn.functional.gelu(self.c_fc(x)))


class TwoInputs(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(32, 32)

    def forward(self, x, mask):
        return self.proj(x) * mask


class RawReZeroBlock(nn.Module):
    """ReZero written with a raw parameter of the block (not a submodule): x + alpha * f(norm(x))."""

    def __init__(self, alpha, d=32):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.f = Mlp(d, 64)
        self.alpha = nn.Parameter(torch.full((1,), float(alpha)))

    def forward(self, x):
        return x + self.alpha * self.f(self.norm(x))


class RawReZeroNet(nn.Module):
    def __init__(self, alpha):
        super().__init__()
        self.pre = nn.Linear(32, 32)
        self.block = RawReZeroBlock(alpha)
        self.head = nn.Linear(32, 32)

    def forward(self, x):
        return self.head(self.block(self.pre(x)))


class ReZero(nn.Module):
    """ReZero as a wrapper module around any function: x + alpha * fn(x), alpha 0 at initialisation."""

    def __init__(self, fn, alpha=0.0):
        super().__init__()
        self.fn = fn
        self.alpha = nn.Parameter(torch.full((1,), float(alpha)))

    def forward(self, x):
        return x + self.alpha * self.fn(x)


class ReZeroStack(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([ReZero(Mlp(32, 64)) for _ in range(2)])
        self.head = nn.Linear(32, 32)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.head(x)


class LayerScale(nn.Module):
    """timm's LayerScale: a learnt per-channel gamma multiplied into a branch."""

    def __init__(self, d, init):
        super().__init__()
        self.gamma = nn.Parameter(init * torch.ones(d))

    def forward(self, x):
        return x * self.gamma


class LayerScaleBlock(nn.Module):
    def __init__(self, gamma, d=32):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.mlp = Mlp(d, 64)
        self.ls1 = LayerScale(d, gamma)

    def forward(self, x):
        return x + self.ls1(self.mlp(self.norm1(x)))


class LayerScaleNet(nn.Module):
    def __init__(self, gamma):
        super().__init__()
        self.blocks = nn.Sequential(LayerScaleBlock(gamma), LayerScaleBlock(0.5))

    def forward(self, x):
        return self.blocks(x)


class SidecarLora(nn.Module):
    """LoRA as sidecar modules of the block (not PEFT's layout): y = base(x) + lora_b(lora_a(x))."""

    def __init__(self, zero_b, d=32, r=4):
        super().__init__()
        self.base = nn.Linear(d, d)
        self.lora_a = nn.Linear(d, r, bias=False)
        self.lora_b = nn.Linear(r, d, bias=False)
        if zero_b:
            nn.init.zeros_(self.lora_b.weight)

    def forward(self, x):
        return self.base(x) + self.lora_b(self.lora_a(x))


class SidecarLoraNet(nn.Module):
    def __init__(self, zero_b):
        super().__init__()
        self.attn = SidecarLora(zero_b)
        self.head = nn.Linear(32, 32)

    def forward(self, x):
        return self.head(self.attn(x))


class SigmoidGate(nn.Module):
    """A learnt scalar gate: y * sigmoid(g)."""

    def __init__(self, g):
        super().__init__()
        self.g = nn.Parameter(torch.full((1,), float(g)))

    def forward(self, y):
        return y * torch.sigmoid(self.g)


class GatedBlock(nn.Module):
    def __init__(self, g, d=32):
        super().__init__()
        self.f = Mlp(d, 64)
        self.gate = SigmoidGate(g)

    def forward(self, x):
        return x + self.gate(self.f(x))


class Sandwich(nn.Module):
    """pre -> mid -> head: `mid` is the module under test."""

    def __init__(self, mid):
        super().__init__()
        self.pre = nn.Linear(32, 32)
        self.mid = mid
        self.head = nn.Linear(32, 32)

    def forward(self, x):
        return self.head(self.mid(self.pre(x)))


class Branchy(nn.Module):
    """Control flow: which branch runs is an attribute of the model (both branches are in the graph)."""

    def __init__(self, first: bool):
        super().__init__()
        self.first = first
        self.a = nn.Linear(32, 32)
        self.b = nn.Linear(32, 32)

    def forward(self, x):
        if self.first:
            x = torch.relu(self.a(x))
        else:
            x = torch.tanh(self.b(x))
        return x


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True)

    def forward(self, x):
        return self.layer(x)


class ResNetLayer1(nn.Module):
    """torchvision's BasicBlocks in a stage named layer1, as torchvision's ResNet names it."""

    stage_name = "layer1"

    def __init__(self, blocks):
        super().__init__()
        self.stem = nn.Conv2d(16, 16, 3, padding=1)
        setattr(self, self.stage_name, nn.Sequential(*blocks))
        self.fc = nn.Linear(16, 10)

    def stage(self, x):
        return self.layer1(x)

    def forward(self, x):
        x = self.stage(self.stem(x))
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(x, 1), 1))


class ResNetStage1(ResNetLayer1):
    """The same network after the stage was renamed layer1 -> stage1."""

    stage_name = "stage1"

    def stage(self, x):
        return self.stage1(x)


class LoopNet(nn.Module):
    """A scripted loop: one graph node for fc's linear, run three times per forward."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 32)
        self.trips = 3

    def forward(self, x):
        for _ in range(self.trips):
            x = torch.relu(self.fc(x))
        return x


# ----------------------------------------------------------------------------------------------- cases


@case
def peft_lora_self_diff(c):
    """PEFT layout, zero lora_B: lora_A/lora_B of q_proj and v_proj each get their own ops (no collision
    on `default`), the self-diff gate --forbid-active '*lora_B*' fails (exit 1), lora_B.default (not the
    ModuleDict lora_B) is zero-like."""
    m = c.save(PeftAttention(), "peft.pt")
    db = c.profile(m, "float32[4,32]", "--activations")
    mods = c.module_ops(db)
    for p in ["q_proj.lora_A.default", "q_proj.lora_B.default", "v_proj.lora_A.default", "v_proj.lora_B.default"]:
        ops = mods.get(p, {}).get("inclusive", {}).get("ops", 0) if isinstance(mods.get(p), dict) else 0
        c.expect(ops > 0, f"{p} has no ops of its own (misattributed to its parent)")
    code, _, err = c.diff(db, db, "--forbid-active", "*lora_B*")
    c.expect_eq(code, 1, "self-diff --forbid-active '*lora_B*' exit code")
    cands = c.candidates(db)
    # The module that computes, as an eager trace names it; never the ModuleDict that holds it.
    for p in ["q_proj.lora_B.default", "v_proj.lora_B.default"]:
        c.expect_eq(cands.get(p), "zero-like", f"candidate kind of {p}")
    for p in ["q_proj.lora_B", "v_proj.lora_B", "q_proj.lora_A.default", "q_proj.base_layer"]:
        c.expect(p not in cands, f"{p} flagged as {cands.get(p)}")


@case
def peft_lora_trained_not_flagged(c):
    """Trained LoRA (non-zero B): no candidate, and --forbid-active '*lora_B*' still fails (it is active)."""
    torch.manual_seed(1)
    m = c.save(PeftAttention(zero_b=False), "peft_trained.pt")
    db = c.profile(m, "float32[4,32]", "--activations")
    cands = c.candidates(db)
    c.expect(not any("lora" in p for p in cands), f"trained LoRA flagged: {cands}")


@case
def peft_lora_merged_changed(c):
    """Merged LoRA: B has the same modules, different base weights -> CHANGED (weights), not UNCHANGED."""
    torch.manual_seed(0)
    a = PeftAttention(zero_b=False)
    b = PeftAttention(zero_b=False)
    b.load_state_dict(a.state_dict())
    with torch.no_grad():
        for proj in [b.q_proj, b.v_proj]:
            delta = proj.lora_B["default"].weight @ proj.lora_A["default"].weight
            proj.base_layer.weight += delta
            proj.lora_B["default"].weight.zero_()
    da = c.profile(c.save(a, "unmerged.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "merged.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, "diff exit code")
    v = c.verdicts(data) if data else {}
    c.expect_eq(v.get("q_proj.base_layer"), "CHANGED", "merged base layer")
    c.expect_eq(v.get("q_proj.lora_B.default"), "DORMANT", "merged (zeroed) lora_B")


def stack_pair(c, container):
    torch.manual_seed(0)
    blocks = [Block() for _ in range(4)]
    a = container(blocks)
    kept = [Block() for _ in range(3)]
    for k, src in zip(kept, [blocks[0], blocks[2], blocks[3]]):
        k.load_state_dict(src.state_dict())
    b = container(kept)
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    return da, db


def expect_middle_removed(c, container, name):
    """`name`.1 removed from the middle: `name`.1 VANISHED, `name`.2/3 MOVED, `name`.0 UNCHANGED."""
    da, db = stack_pair(c, container)
    code, data, err = c.diff(da, db, "--expect-vanished", f"{name}.1")
    c.expect_eq(code, 0, f"diff --expect-vanished {name}.1 exit code")
    v = c.verdicts(data) if data else {}
    want = {f"{name}.0": "UNCHANGED", f"{name}.1": "VANISHED", f"{name}.2": "MOVED", f"{name}.3": "MOVED",
            f"{name}.3.fc": "MOVED"}
    for path, verdict in want.items():
        c.expect_eq(v.get(path), verdict, path)
    # `weights A B` aligns the container the same way: only blocks.1's tensors REMOVED, nothing NEW.
    changes = c.weights_changes(c.path("a.pt"), c.path("b.pt"))
    c.expect_eq(sorted(n for n, ch in changes.items() if ch != "UNCHANGED"),
                [f"{name}.1.fc.bias", f"{name}.1.fc.weight"], "weights A B: tensors not UNCHANGED")
    c.expect_eq(changes.get(f"{name}.3.fc.weight"), "UNCHANGED", f"weights: {name}.3.fc.weight (B's {name}.2)")


@case
def modulelist_middle_removed(c):
    """blocks.1 removed from a ModuleList: blocks.1 VANISHED, blocks.2/3 MOVED, nothing else changed."""
    expect_middle_removed(c, Stack, "blocks")


@case
def sequential_middle_removed(c):
    """The same for nn.Sequential: body.1 VANISHED, body.2/3 MOVED."""
    expect_middle_removed(c, SeqStack, "body")


class Forked(nn.Module):
    """Four branches run concurrently through torch.jit.fork (inter-op threads)."""

    def __init__(self):
        super().__init__()
        self.branches = nn.ModuleList([Mlp(32, 64) for _ in range(4)])

    def forward(self, x):
        futures = [torch.jit.fork(b, x) for b in self.branches]
        y = x
        for f in futures:
            y = y + torch.jit.wait(f)
        return y


@case
def forked_branches_activations_stress(c):
    """Ops on several threads with --activations (the observer's shared records under a lock): the run
    completes and every forked branch's ops are its own. (Known gap, not asserted: inside a forked branch
    the ops of its children `up`/`down` stay on the branch.)"""
    m = c.save(Forked(), "forked.pt")
    db = c.profile(m, "float32[16,32]", "--activations", iters="40")
    mods = c.module_ops(db)
    for i in range(4):
        m_ = mods.get(f"branches.{i}")
        c.expect(isinstance(m_, dict) and m_.get("inclusive", {}).get("ops", 0) > 0, f"branches.{i} has no ops")
    p = c.run("report", db, "--candidates", "--format", "json")
    c.expect_eq(p.returncode, 0, "report --candidates exit code")


@case
def renamed_stage_with_map(c):
    """Stage renamed (blocks -> layers) and its middle block removed: with --map-b only that block VANISHED."""
    torch.manual_seed(0)
    blocks = [Block() for _ in range(3)]
    a = Stack(blocks)

    class Renamed(nn.Module):
        def __init__(self, bl):
            super().__init__()
            self.layers = nn.ModuleList(bl)

        def forward(self, x):
            for b in self.layers:
                x = b(x)
            return x

    kept = [Block(), Block()]
    kept[0].load_state_dict(blocks[0].state_dict())
    kept[1].load_state_dict(blocks[2].state_dict())
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(Renamed(kept), "b.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db, "--map-b", "^layers=blocks")
    v = c.verdicts(data) if data else {}
    changed = sorted(p for p, s in v.items() if s not in ("UNCHANGED", "MOVED") and p)
    c.expect_eq(changed, ["blocks", "blocks.1", "blocks.1.fc"], "non-unchanged modules")
    c.expect_eq(v.get("blocks.1"), "VANISHED", "blocks.1")
    c.expect_eq(v.get("blocks.2"), "MOVED", "blocks.2")
    c.expect(data is not None and any("B: ^layers=blocks" in m for m in data.get("maps", [])), "maps recorded")


@case
def relu_inplace_not_identity(c):
    """ReLU(inplace=True) changes its input: never identity-like."""
    db = c.profile(c.save(InplaceRelu(), "relu.pt"), "float32[8,32]", "--activations")
    cands = c.candidates(db)
    c.expect("act" not in cands, f"ReLU(inplace=True) flagged {cands.get('act')}")


@case
def add_inplace_not_identity(c):
    """x += mlp(x): the output aliases the (overwritten) input; not identity-like."""
    db = c.profile(c.save(ResidualInplace(), "addinplace.pt"), "float32[8,32]", "--activations")
    cands = c.candidates(db)
    c.expect("block" not in cands, f"x += f(x) flagged {cands.get('block')}")


@case
def new_adapter_flops(c):
    """A NEW adapter Mlp(32, 8) on 4 tokens: NEW, and B - A FLOPs = 2*4*(32*8 + 8*32) + bias adds."""
    a, b = WithAdapter(False), WithAdapter(True)
    b.mlp.load_state_dict(a.mlp.state_dict())  # the same base weights: only the adapter is new
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db)
    v = c.verdicts(data) if data else {}
    c.expect_eq(v.get("adapter"), "NEW", "adapter")
    c.expect_eq(v.get("mlp"), "UNCHANGED", "mlp")
    if data:
        adapter = next(m for m in data["modules"] if m["path"] == "adapter")
        # Linear as addmm: 2*M*K*N multiply-adds (+ M*N bias adds counted by the formula's convention).
        matmul = 2 * 4 * 32 * 8 + 2 * 4 * 8 * 32
        c.expect(matmul <= adapter["b"]["flops"] <= matmul + 4 * 8 + 4 * 32 + 4 * 8,
                 f"adapter FLOPs {adapter['b']['flops']} vs hand count {matmul} (+ bias/relu)")


@case
def narrower_mlp_flops(c):
    """Mlp hidden 64 -> 48 on 4 tokens: mlp.up and mlp.down CHANGED; FLOPs delta = 2*4*32*16 each."""
    da = c.profile(c.save(Mlp(32, 64), "a.pt"), "float32[4,32]")
    db = c.profile(c.save(Mlp(32, 48), "b.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db)
    v = c.verdicts(data) if data else {}
    c.expect_eq(v.get("up"), "CHANGED", "up")
    c.expect_eq(v.get("down"), "CHANGED", "down")
    if data:
        for p in ["up", "down"]:
            m = next(x for x in data["modules"] if x["path"] == p)
            delta = m["a"]["flops"] - m["b"]["flops"]
            mm = 2 * 4 * 32 * 16
            c.expect(mm <= delta <= mm + 4 * 16 + 4 * 16, f"{p} FLOPs delta {delta} vs hand count {mm}")


@case
def gpt2_conv1d_addmm(c):
    """GPT-2 Conv1D (torch.addmm): FLOPs land on c_fc / c_proj, not on the root; 2*M*K*N each."""
    db = c.profile(c.save(Gpt2Mlp(), "gpt2mlp.pt"), "float32[2,4,32]")
    mods = c.module_ops(db)
    for p, (k, n) in {"c_fc": (32, 128), "c_proj": (128, 32)}.items():
        m = mods.get(p)
        flops = m.get("inclusive", {}).get("flops", 0) if isinstance(m, dict) else 0
        c.expect(2 * 8 * k * n <= flops <= 2 * 8 * k * n + 8 * n, f"{p} FLOPs {flops} vs hand count {2 * 8 * k * n}")


@case
def two_inputs_with_mask(c):
    """Two forward() inputs (x, mask): profiles; self-diff all UNCHANGED, exit 0."""
    db = c.profile(c.save(TwoInputs(), "two.pt"), "float32[4,32] --input float32[4,32]")
    code, data, err = c.diff(db, db)
    c.expect_eq(code, 0, "self-diff exit code")
    v = c.verdicts(data) if data else {}
    c.expect(all(s == "UNCHANGED" for s in v.values()), f"self-diff not all UNCHANGED: {v}")


@case
def bf16_model(c):
    """A bfloat16 model profiles on the CPU with the short dtype name bf16[...]."""
    m = Mlp(32, 64).to(torch.bfloat16)
    db = c.profile(c.save(m, "bf16.pt"), "bf16[4,32]")
    mods = c.module_ops(db)
    c.expect("up" in mods, "bf16 model has no module rows")


@case
def hierarchy_ambiguity_gate(c):
    """With --attribution hierarchy, PEFT's `default` children cannot be told apart by name: the run records
    a data-quality error and a gate on '*lora_B*' exits 2 instead of passing."""
    m = c.save(PeftAttention(), "peft.pt")
    db = c.profile(m, "float32[4,32]", "--attribution", "hierarchy")
    p = c.run("diff", db, db, "--forbid-active", "*lora_B*")
    c.expect_eq(p.returncode, 2, "gate exit code on ambiguous attribution")
    c.expect("ambiguous" in p.stderr, f"no reason given: {p.stderr.strip()}")
    p = c.run("diff", db, db, "--forbid-active", "*nothing_here*")
    c.expect_eq(p.returncode, 0, "a gate that matches no ambiguous module")


def expect_discarded(c, db, path, factor, modules, mul_elements):
    """Exactly one dead-compute candidate under `path`, zeroed by `factor`, that discards `modules` (whole),
    with their FLOPs plus at most the multiplication's (`mul_elements` FLOPs) and a time."""
    found = [d for d in c.discarded(db) if d["path"] == path]
    if not c.expect_eq(len(found), 1, f"dead-compute candidates under {path!r}"):
        return
    d = found[0]
    c.expect_eq(d["zero_factor"], factor, f"{path}: zero factor")
    c.expect_eq(d["discarded_modules"], modules, f"{path}: modules run only to be discarded")
    c.expect_eq(d["iterations"], d["run_iterations"], f"{path}: iterations with the multiplication by zero")
    wasted = c.flops_of(c.module_ops(db), *modules)
    c.expect(wasted > 0 and wasted <= d["flops"] <= wasted + mul_elements,
             f"{path}: discarded FLOPs {d['flops']} vs the discarded modules' {wasted} (+ {mul_elements})")
    c.expect(d["time_p50_ns"] > 0, f"{path}: no time for the discarded work")


@case
def rezero_raw_alpha_flagged(c):
    """ReZero as a raw parameter (x + alpha * f(norm(x)), alpha 0): one candidate under `block`, zeroed by
    block.alpha, with f's and norm's cost."""
    db = c.profile(c.save(RawReZeroNet(0.0), "rezero_raw.pt"), "float32[4,32]", "--activations")
    expect_discarded(c, db, "block", "block.alpha", ["block.norm", "block.f"], 4 * 32)
    c.expect_eq(len(c.discarded(db)), 1, "dead-compute candidates in all")


@case
def rezero_raw_alpha_dormant(c):
    """alpha trained (0.5) -> alpha 0, other weights equal: block.f and block.norm DORMANT (their result is
    multiplied by zero), pre and head UNCHANGED; the trained model's self-diff has no DORMANT."""
    torch.manual_seed(0)
    a = RawReZeroNet(0.5)
    b = RawReZeroNet(0.0)
    state = a.state_dict()
    state["block.alpha"] = torch.zeros(1)
    b.load_state_dict(state)
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]", "--activations")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]", "--activations")
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, "diff exit code")
    v = c.verdicts(data) if data else {}
    for p in ["block.f", "block.f.up", "block.f.down", "block.norm"]:
        c.expect_eq(v.get(p), "DORMANT", p)
    for p in ["pre", "head"]:
        c.expect_eq(v.get(p), "UNCHANGED", p)
    if data:
        f = next(m for m in data["modules"] if m["path"] == "block.f")
        c.expect_eq(f["discarded_by"], "block.alpha", "block.f discarded by")
    code, data, err = c.diff(da, da)
    v = c.verdicts(data) if data else {}
    c.expect(data is not None and "DORMANT" not in v.values(), f"trained self-diff has DORMANT: {v}")


@case
def rezero_module_flagged(c):
    """ReZero as a wrapper module (layers.N = ReZero(Mlp), alpha 0): one candidate per layer, each with its
    fn's cost, zeroed by layers.N.alpha; the self-diff calls every layers.N.fn DORMANT."""
    db = c.profile(c.save(ReZeroStack(), "rezero_module.pt"), "float32[4,32]", "--activations")
    for i in range(2):
        expect_discarded(c, db, f"layers.{i}", f"layers.{i}.alpha", [f"layers.{i}.fn"], 4 * 32)
    code, data, err = c.diff(db, db)
    v = c.verdicts(data) if data else {}
    for i in range(2):
        c.expect_eq(v.get(f"layers.{i}.fn"), "DORMANT", f"layers.{i}.fn")
    c.expect_eq(v.get("head"), "UNCHANGED", "head")


@case
def layerscale_gamma_zero_flagged(c):
    """LayerScale with gamma 0 in blocks.0 (gamma 0.5 in blocks.1): one candidate under blocks.0 with its mlp's
    and norm's cost, zeroed by blocks.0.ls1.gamma; blocks.1 not flagged."""
    db = c.profile(c.save(LayerScaleNet(0.0), "layerscale.pt"), "float32[4,32]", "--activations")
    expect_discarded(c, db, "blocks.0", "blocks.0.ls1.gamma", ["blocks.0.norm1", "blocks.0.mlp"], 4 * 32)
    paths = [d["path"] for d in c.discarded(db)]
    c.expect_eq(paths, ["blocks.0"], "dead-compute candidates")


@case
def rezero_trained_not_flagged(c):
    """Trained ReZero (alpha 0.3, raw and wrapped) and LayerScale (gamma 0.5): no dead-compute candidate, and no
    DORMANT in the self-diff."""
    nets = {"raw.pt": RawReZeroNet(0.3), "layerscale.pt": LayerScaleNet(0.5)}
    wrapped = ReZeroStack()
    with torch.no_grad():
        for layer in wrapped.layers:
            layer.alpha.fill_(0.3)
    nets["wrapped.pt"] = wrapped
    for name, net in nets.items():
        db = c.profile(c.save(net, name), "float32[4,32]", "--activations")
        c.expect_eq(c.discarded(db), [], f"{name}: dead-compute candidates")
        code, data, err = c.diff(db, db)
        v = c.verdicts(data) if data else {}
        c.expect(data is not None and "DORMANT" not in v.values(), f"{name}: self-diff has DORMANT: {v}")


@case
def sidecar_lora_zero_b_flagged(c):
    """LoRA as sidecar modules (attn.lora_a, attn.lora_b) with B zero: lora_b zero-like with ZEROED weights, lora_a's
    work computed then multiplied by zero (zeroed by attn.lora_b.weight), lora_b DORMANT in the self-diff, and
    --forbid-active '*lora_b*' fails (exit 1). Trained B: nothing flagged, the gate still fails (it runs)."""
    db = c.profile(c.save(SidecarLoraNet(zero_b=True), "sidecar.pt"), "float32[4,32]", "--activations")
    p = c.run("report", db, "--candidates", "--format", "json")
    mods = json.loads(p.stdout)["candidates"]["modules"] if p.returncode == 0 else []
    c.expect_eq([(m["path"], m["kind"], m["weight_status"]) for m in mods], [("attn.lora_b", "zero-like", "ZEROED")],
                "zero-like candidates")
    # lora_a's work plus at most the zeroing product itself (lora_b: 2*4*4*32 FLOPs).
    expect_discarded(c, db, "attn", "attn.lora_b.weight", ["attn.lora_a"], 2 * 4 * 4 * 32)
    code, data, err = c.diff(db, db, "--forbid-active", "*lora_b*")
    c.expect_eq(code, 1, "self-diff --forbid-active '*lora_b*' exit code")
    v = c.verdicts(data) if data else {}
    c.expect_eq(sorted(p for p, s in v.items() if s != "UNCHANGED"), ["attn.lora_a", "attn.lora_b"],
                "modules not UNCHANGED in the self-diff")
    c.expect_eq(v.get("attn.lora_b"), "DORMANT", "attn.lora_b")
    torch.manual_seed(1)
    trained = c.profile(c.save(SidecarLoraNet(zero_b=False), "trained.pt"), "float32[4,32]", "--activations")
    c.expect_eq(c.candidates(trained), {}, "trained sidecar LoRA: candidates")
    c.expect_eq(c.discarded(trained), [], "trained sidecar LoRA: dead compute")
    code, data, err = c.diff(trained, trained, "--forbid-active", "*lora_b*")
    c.expect_eq(code, 1, "trained: --forbid-active '*lora_b*' exit code")


@case
def sigmoid_gates(c):
    """mid = x + sigmoid(g) * f(x) with g = -30, -8, -2: at -30 the gate is zero-like and the block identity-like;
    at -8 the block is identity-like only (the gate's output is small, not zero); at -2 nothing is flagged."""
    want = {-30: {"mid": "identity-like", "mid.gate": "zero-like"}, -8: {"mid": "identity-like"}, -2: {}}
    for g, expected in want.items():
        torch.manual_seed(0)
        db = c.profile(c.save(Sandwich(GatedBlock(g)), f"gate{-g}.pt"), "float32[4,32]", "--activations")
        c.expect_eq(c.candidates(db), expected, f"gate {g}: candidates")


def expect_only_mid(c, name, mid, kind):
    """Sandwich(mid): exactly `mid` is a candidate, of `kind` (None: nothing flagged)."""
    torch.manual_seed(0)
    db = c.profile(c.save(Sandwich(mid), name), "float32[8,32]", "--activations")
    c.expect_eq(c.candidates(db), {"mid": kind} if kind else {}, f"{name}: candidates")


@case
def identity_linear_flagged(c):
    """A Linear with the identity matrix and zero bias is identity-like; a random Linear is not."""
    torch.manual_seed(0)
    eye = nn.Linear(32, 32)
    with torch.no_grad():
        eye.weight.copy_(torch.eye(32))
        eye.bias.zero_()
    expect_only_mid(c, "eye.pt", eye, "identity-like")
    expect_only_mid(c, "random.pt", nn.Linear(32, 32), None)


@case
def fresh_batchnorm_flagged(c):
    """A fresh BatchNorm1d in eval (mean 0, var 1, weight 1, bias 0) is identity-like; one with running statistics
    is not."""
    expect_only_mid(c, "fresh_bn.pt", nn.BatchNorm1d(32), "identity-like")
    trained = nn.BatchNorm1d(32)
    with torch.no_grad():
        trained.running_mean.uniform_(-0.5, 0.5)
        trained.running_var.uniform_(0.5, 2.0)
    expect_only_mid(c, "trained_bn.pt", trained, None)


@case
def dropout_eval_flagged(c):
    """Dropout in eval returns its input: identity-like (no weights)."""
    torch.manual_seed(0)
    db = c.profile(c.save(Sandwich(nn.Dropout(0.1)), "dropout.pt"), "float32[8,32]", "--activations")
    p = c.run("report", db, "--candidates", "--format", "json")
    mods = json.loads(p.stdout)["candidates"]["modules"] if p.returncode == 0 else []
    c.expect_eq([(m["path"], m["kind"], m["weight_status"]) for m in mods], [("mid", "identity-like", "none")],
                "candidates")


@case
def resnet_block_removed_stage_renamed(c):
    """torchvision BasicBlocks: layer1.1 removed and the stage renamed layer1 -> stage1. With --map-b '^stage1=layer1'
    exactly layer1.1 (and its convs, norms, relu) VANISHED, layer1.2 MOVED, --expect-vanished layer1.1 passes and
    --expect-vanished layer1.2 fails; without the map the whole stage is VANISHED/NEW, while `weights A B` finds
    the kept blocks' tensors in B (MOVED by content) and only layer1.1's REMOVED."""
    from torchvision.models.resnet import BasicBlock

    torch.manual_seed(0)
    blocks = [BasicBlock(16, 16) for _ in range(3)]
    for b in blocks:  # trained-looking norms, so no block is identity-like by accident
        for m in b.modules():
            if isinstance(m, nn.BatchNorm2d):
                with torch.no_grad():
                    m.running_mean.uniform_(-0.1, 0.1)
                    m.running_var.uniform_(0.5, 1.5)
                    m.weight.uniform_(0.5, 1.5)
    a = ResNetLayer1(blocks)
    kept = [BasicBlock(16, 16), BasicBlock(16, 16)]
    kept[0].load_state_dict(blocks[0].state_dict())
    kept[1].load_state_dict(blocks[2].state_dict())
    b = ResNetStage1(kept)
    b.stem.load_state_dict(a.stem.state_dict())
    b.fc.load_state_dict(a.fc.state_dict())
    da = c.profile(c.save(a, "a.pt"), "float32[1,16,8,8]")
    db = c.profile(c.save(b, "b.pt"), "float32[1,16,8,8]")
    code, data, err = c.diff(da, db, "--map-b", "^stage1=layer1", "--expect-vanished", "layer1.1")
    c.expect_eq(code, 0, "--expect-vanished layer1.1 exit code")
    v = c.verdicts(data) if data else {}
    vanished = sorted(p for p, s in v.items() if s == "VANISHED")
    parts = ["bn1", "bn2", "conv1", "conv2", "relu"]
    c.expect_eq(vanished, ["layer1.1"] + [f"layer1.1.{p}" for p in parts], "VANISHED")
    c.expect_eq(sorted(p for p, s in v.items() if s == "MOVED"), ["layer1.2"] + [f"layer1.2.{p}" for p in parts],
                "MOVED")
    c.expect_eq(sorted(p for p, s in v.items() if s in ("NEW", "DORMANT")), [], "NEW or DORMANT")
    for p in ["stem", "fc", "layer1.0", "layer1.0.conv1"]:
        c.expect_eq(v.get(p), "UNCHANGED", p)
    changes = c.weights_changes(c.path("a.pt"), c.path("b.pt"), "--map-b", "^stage1=layer1")
    bn = ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]
    removed = sorted([f"layer1.1.conv{i}.weight" for i in (1, 2)] + [f"layer1.1.bn{i}.{t}" for i in (1, 2) for t in bn])
    c.expect_eq(sorted(n for n, ch in changes.items() if ch != "UNCHANGED"), removed,
                "weights A B --map-b: tensors not UNCHANGED")
    # Without the map the kept blocks' tensors are found under stage1.* (joined, or MOVED by content), never
    # REMOVED + NEW.
    changes = c.weights_changes(c.path("a.pt"), c.path("b.pt"))
    c.expect_eq(sorted(n for n, ch in changes.items() if ch == "REMOVED"), removed, "weights A B: REMOVED")
    kept = {ch for n, ch in changes.items() if n.startswith(("layer1.0.", "layer1.2."))}
    c.expect(kept and kept <= {"MOVED", "UNCHANGED"}, f"weights A B: the kept blocks' tensors are {sorted(kept)}")
    c.expect_eq([n for n, ch in changes.items() if ch == "NEW"], [], "weights A B: NEW")
    code, data, err = c.diff(da, db, "--map-b", "^stage1=layer1", "--expect-vanished", "layer1.2")
    c.expect_eq(code, 1, "--expect-vanished layer1.2 exit code (a block that moved, not vanished)")
    code, data, err = c.diff(da, db, "--expect-vanished", "layer1.1")
    v = c.verdicts(data) if data else {}
    # Without --map the matching pairs the renamed stage by its weights and work: stage1 is layer1 (CHANGED: it
    # lost a block, and "moved to stage1"), and
    # only layer1.1 vanished; the gate counts layer1.1's own ops.
    c.expect_eq((v.get("layer1"), v.get("layer1.1"), v.get("stage1.0")), ("CHANGED", "VANISHED", None), "without --map")
    c.expect_eq(code, 0, "--expect-vanished layer1.1 without --map exit code")
    gate = data["gates"][0]["message"] if data and data.get("gates") else ""
    c.expect("(43 op calls," in gate, f"--expect-vanished layer1.1 without --map: {gate!r}")


@case
def control_flow_changed_branch(c):
    """Both versions hold both branches of an `if`; A runs `a`, B runs `b`: diff says a NOT_RUN and b NEW, and
    `graph --diff` counts the nodes of both branches as differing (not "0 nodes differ"); a self graph diff
    differs in 0 nodes."""
    torch.manual_seed(0)
    a, b = Branchy(True), Branchy(False)
    b.load_state_dict(a.state_dict())
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db)
    v = c.verdicts(data) if data else {}
    # `a` is still in B's model but runs nothing there: NOT_RUN (its work left, the module did not).
    c.expect_eq((v.get("a"), v.get("b")), ("NOT_RUN", "NEW"), "verdicts of a and b")
    import re

    def differing(x, y):
        p = c.run("graph", x, "--diff", y, "--depth", "ops", "-o", c.path("g.dot"), "--force")
        c.expect_eq(p.returncode, 0, f"graph --diff exit code: {p.stderr.strip()}")
        m = re.search(r"(\d+) nodes differ", p.stdout)
        return int(m.group(1)) if m else None
    # a.linear, relu, b.linear, tanh: the four nodes of the two branches.
    c.expect_eq(differing(da, db), 4, "graph --diff A B: nodes that differ")
    c.expect_eq(differing(da, da), 0, "graph --diff A A: nodes that differ")
    # The last op's output shape (nothing consumes it but the model's output): on the branch that ran only.
    p = c.run("graph", da, "--depth", "ops", "-o", c.path("a.dot"), "--force")
    dot = open(c.path("a.dot")).read() if p.returncode == 0 else ""
    labels = dict(re.findall(r'label="(relu|tanh)([^"]*)"', dot))
    c.expect("float32[4,32]" in labels.get("relu", ""), f"relu (ran, last op) has no output shape: {labels}")
    c.expect("float32" not in labels.get("tanh", "x"), f"tanh (did not run) has a shape: {labels}")


@case
def transformer_encoder_layer_flops(c):
    """nn.TransformerEncoderLayer (d 32, 4 heads, FFN 64, batch 2 x 8 tokens) on its fused fast path: the cost is
    split over its submodules, each equal to a hand count, and the layer's total is unchanged."""
    torch.manual_seed(0)
    db = c.profile(c.save(Encoder(), "encoder.pt"), "float32[2,8,32]")
    mods = c.module_ops(db)
    t, d, h, ff, heads = 16, 32, 8, 64, 4  # tokens, width, head width, FFN width
    attn_scores = 2 * (2 * heads) * 8 * 8 * h  # QK^T and attention x V, 2*B*H*N*N*h each
    want = {
        # in-projection (mm 2*T*d*3d), q/k/v bias + q scaling (3d + d per token), scores, softmax (5 per score)
        "layer.self_attn": 2 * t * d * 3 * d + t * 4 * d + 2 * attn_scores + 5 * 2 * heads * 8 * 8 + 2 * t * d * d + t * d,
        "layer.self_attn.out_proj": 2 * t * d * d + t * d,  # addmm with bias
        "layer.linear1": 2 * t * d * ff + t * ff + t * ff,  # addmm with bias, relu fused
        "layer.linear2": 2 * t * ff * d + t * d,
        "layer.norm1": 7 * t * d,
        "layer.norm2": 7 * t * d,
    }
    for p, flops in want.items():
        got = c.flops_of(mods, p)
        c.expect_eq(got, flops, f"{p} FLOPs")
    layer = c.flops_of(mods, "layer")
    c.expect_eq(layer, 294400, "layer FLOPs (the fused op's count)")
    # What stays on the layer itself: the two residual adds.
    self_flops = mods.get("layer", {}).get("self", {}).get("flops") if isinstance(mods.get("layer"), dict) else None
    c.expect_eq(self_flops, 2 * t * d, "layer's own FLOPs (residual adds)")


@case
def loop_body_cost_per_trip(c):
    """A loop body's graph nodes carry all their trips: fc's linear 3 x (2*4*32*32 + 4*32) = 24.96 kFLOPs, relu 3 x 128,
    as module fc's total; not one trip's 8.32 kFLOPs."""
    import re

    db = c.profile(c.save(LoopNet(), "loop.pt"), "float32[4,32]")
    c.expect_eq(c.flops_of(c.module_ops(db), "fc"), 3 * (2 * 4 * 32 * 32 + 4 * 32), "module fc FLOPs")
    p = c.run("graph", db, "--depth", "ops", "-o", c.path("loop.dot"), "--force")
    dot = open(c.path("loop.dot")).read() if p.returncode == 0 else ""
    labels = dict(re.findall(r'label="(linear|relu)([^"]*)"', dot))
    c.expect("25 kFLOPs" in labels.get("linear", ""), f"linear node: {labels.get('linear')!r}")
    c.expect("384 FLOPs" in labels.get("relu", ""), f"relu node: {labels.get('relu')!r}")


# ------------------------------------------------------------------ module identity (issue #29), both forms
# JSON fields relied on, `diff --format json`: modules[].path (A's path, B's for a module only in B), .path_b,
# .status, .type, .type_b, .weights_a, .weights_b; gates[].passed, .message; params[].name, .moved_to,
# .state_a, .state_b; end_to_end.time_status, modules[].time_status; warnings[]. Exit codes: 0 gates pass,
# 1 a gate failed, 2 error (or a gate that cannot be decided).


class BlockA(Block):
    """Block under another class name (a class rename with nothing else changed)."""


class BlockB(Block):
    pass


class LayerStack(nn.Module):
    """Stack with its container named `layers` instead of `blocks`."""

    def __init__(self, blocks):
        super().__init__()
        self.layers = nn.ModuleList(blocks)

    def forward(self, x):
        for b in self.layers:
            x = b(x)
        return x


class SeqBlocks(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = nn.Sequential(*blocks)

    def forward(self, x):
        return self.blocks(x)


class DenseMoe(nn.Module):
    """Every expert runs on every token, weighted by the router's softmax (the router has a row per expert)."""

    def __init__(self, n, d=32):
        super().__init__()
        self.router = nn.Linear(d, n)
        self.experts = nn.ModuleList([Mlp(d, 64) for _ in range(n)])

    def forward(self, x):
        gates = torch.softmax(self.router(x), dim=-1)
        y = torch.zeros_like(x)
        for i, e in enumerate(self.experts):
            y = y + gates[:, i:i + 1] * e(x)
        return y


class Top1Moe(nn.Module):
    """Top-1 routing: an expert runs only on the tokens routed to it, and not at all when there are none."""

    def __init__(self, n, d=32):
        super().__init__()
        self.router = nn.Linear(d, n)
        self.experts = nn.ModuleList([Mlp(d, 64) for _ in range(n)])

    def forward(self, x):
        chosen = self.router(x).argmax(dim=-1)
        y = torch.zeros_like(x)
        for i, e in enumerate(self.experts):
            sel = chosen == i
            if bool(sel.any()):
                y[sel] = e(x[sel])
        return y


class LayerEncoder(nn.Module):
    def __init__(self, blocks):
        super().__init__()
        self.layer = nn.ModuleList(blocks)

    def forward(self, x):
        for b in self.layer:
            x = b(x)
        return x


class EncoderWrapped(nn.Module):
    """Blocks at encoder.layer.N (a BERT-like nesting) instead of blocks.N."""

    def __init__(self, blocks):
        super().__init__()
        self.encoder = LayerEncoder(blocks)

    def forward(self, x):
        return self.encoder(x)


class PlainAttention(nn.Module):
    """PeftAttention before LoRA (or after merging it): q_proj and v_proj plain Linears."""

    def __init__(self, d=32):
        super().__init__()
        self.q_proj = nn.Linear(d, d)
        self.v_proj = nn.Linear(d, d)

    def forward(self, x):
        return self.q_proj(x) * self.v_proj(x)


class TiedLm(nn.Module):
    """embed -> body -> lm_head, lm_head.weight tied to embed.weight (or an equal untied copy)."""

    def __init__(self, tied, vocab=128, d=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.body = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        if tied:
            self.lm_head.weight = self.embed.weight
        else:
            with torch.no_grad():
                self.lm_head.weight.copy_(self.embed.weight)

    def forward(self, ids):
        return self.lm_head(torch.relu(self.body(self.embed(ids))))


class ProjNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(32, 32)
        self.proj = nn.Linear(32, 32)
        self.head = nn.Linear(32, 32)

    def forward(self, x):
        return self.head(torch.relu(self.proj(self.pre(x))))


class ProjectionNet(nn.Module):
    """ProjNet with `proj` renamed `projection`."""

    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(32, 32)
        self.projection = nn.Linear(32, 32)
        self.head = nn.Linear(32, 32)

    def forward(self, x):
        return self.head(torch.relu(self.projection(self.pre(x))))


class IdentitySandwich(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = nn.Linear(32, 32)
        self.mid = nn.Identity()
        self.head = nn.Linear(32, 32)

    def forward(self, x):
        return self.head(self.mid(self.pre(x)))


def perturb(model, rel=1e-3, seed=7):
    """Fine-tuning stand-in: every floating-point parameter moves by REL of its RMS (Gaussian)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            rms = p.pow(2).mean().sqrt()
            p.add_(torch.randn(p.shape, generator=gen) * rel * rms)
    return model


def copy_blocks(sources, cls=Block):
    out = []
    for s in sources:
        b = cls()
        b.load_state_dict(s.state_dict())
        out.append(b)
    return out


def rows(data):
    """`diff --format json` module rows by A's path (B's for a module only in B)."""
    return {m["path"]: m for m in data["modules"]} if data else {}


def gate_text(data, err):
    return err + " ".join(g.get("message", "") for g in (data or {}).get("gates", []))


def no_status(c, data, statuses, what):
    bad = sorted((m["path"], m["status"]) for m in (data or {}).get("modules", []) if m["status"] in statuses)
    c.expect_eq(bad, [], what)


def class_rename_pair(c, container):
    torch.manual_seed(0)
    a = Stack([BlockA() for _ in range(4)])
    b = container(copy_blocks(a.blocks, BlockB))
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    return da, db


def expect_every_block_changed_by_class(c, da, db, *maps):
    code, data, err = c.diff(da, db, *maps)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    for i in range(4):
        m = r.get(f"blocks.{i}", {})
        c.expect_eq(m.get("status"), "CHANGED", f"blocks.{i} status")
        c.expect_eq((m.get("type"), m.get("type_b")), ("BlockA", "BlockB"), f"blocks.{i} type, type_b")
        c.expect_eq(r.get(f"blocks.{i}.fc", {}).get("status"), "UNCHANGED", f"blocks.{i}.fc status")
    no_status(c, data, ("VANISHED", "NEW", "AMBIGUOUS"), "modules VANISHED, NEW or AMBIGUOUS")
    code, data, err = c.diff(da, db, *maps, "--expect-vanished", "blocks.1")
    c.expect_eq(code, 1, "--expect-vanished blocks.1 exit code (the block is still there)")


@both_forms
def class_rename(c):
    """Only the class of blocks.N renamed (BlockA -> BlockB; same paths, weights, ops): every block CHANGED with
    type/type_b BlockA/BlockB, its fc UNCHANGED, nothing VANISHED/NEW, --expect-vanished blocks.1 exits 1."""
    da, db = class_rename_pair(c, Stack)
    expect_every_block_changed_by_class(c, da, db)


@both_forms
def class_rename_with_path_rename(c):
    """Class renamed and the container renamed (blocks -> layers), --map '^layers=blocks': the same verdicts as
    class_rename."""
    da, db = class_rename_pair(c, LayerStack)
    expect_every_block_changed_by_class(c, da, db, "--map", "^layers=blocks")


def expect_pruned_then_finetuned(c, name, a, b):
    """A's NAME.1 removed in B, everything else perturbed: NAME.1 VANISHED, NAME.2/3 paired with B's NAME.1/2."""
    da = c.profile(c.save(a, "a.pt"), "float32[8,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[8,32]")
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    c.expect_eq(r.get(f"{name}.1", {}).get("status"), "VANISHED", f"{name}.1 status")
    for i, j in [(2, 1), (3, 2)]:
        m = r.get(f"{name}.{i}", {})
        c.expect(m.get("status") in ("MOVED", "CHANGED"),
                 f"{name}.{i} status {m.get('status')!r}, want MOVED or CHANGED")
        c.expect_eq(m.get("path_b"), f"{name}.{j}", f"{name}.{i} path_b")
    # path_b is empty when B's path is A's.
    first = r.get(f"{name}.0", {})
    c.expect(first.get("path_b") in ("", f"{name}.0"), f"{name}.0 path_b {first.get('path_b')!r}")
    vanished = sorted(p for p, m in r.items() if m["status"] == "VANISHED")
    c.expect(all(p == f"{name}.1" or p.startswith(f"{name}.1.") for p in vanished), f"VANISHED: {vanished}")
    no_status(c, data, ("NEW", "AMBIGUOUS"), "modules NEW or AMBIGUOUS")
    code, data, err = c.diff(da, db, "--expect-vanished", f"{name}.1*")
    c.expect_eq(code, 0, f"--expect-vanished '{name}.1*' exit code: {gate_text(data, err)}")
    code, data, err = c.diff(da, db, "--expect-vanished", f"{name}.3*")
    c.expect_eq(code, 1, f"--expect-vanished '{name}.3*' exit code (it moved to {name}.2)")


@both_forms
def prune_finetune_modulelist(c):
    """MoE experts.0..3 (ModuleList), B drops experts.1 and its router row, then every weight moves ~1e-3: experts.1
    VANISHED, experts.2/3 paired with B's experts.1/2 (MOVED or CHANGED), gates 'experts.1*' pass, 'experts.3*' fail."""
    torch.manual_seed(0)
    a = DenseMoe(4)
    b = DenseMoe(3)
    keep = [0, 2, 3]
    with torch.no_grad():
        b.router.weight.copy_(a.router.weight[keep])
        b.router.bias.copy_(a.router.bias[keep])
    for dst, src in zip(b.experts, keep):
        dst.load_state_dict(a.experts[src].state_dict())
    expect_pruned_then_finetuned(c, "experts", a, perturb(b))


@both_forms
def prune_finetune_sequential(c):
    """The same for blocks.0..3 of an nn.Sequential: blocks.1 VANISHED, blocks.2/3 paired with B's blocks.1/2."""
    torch.manual_seed(0)
    a = SeqBlocks([Block() for _ in range(4)])
    b = SeqBlocks(copy_blocks([a.blocks[0], a.blocks[2], a.blocks[3]]))
    expect_pruned_then_finetuned(c, "blocks", a, perturb(b))


@both_forms
def wrapper_removed_by_map(c):
    """encoder.layer.N -> blocks.N with --map 'encoder.layer.(\\d+)=blocks.$1': encoder and encoder.layer UNWRAPPED,
    every block UNCHANGED, --expect-vanished encoder exits 1, nothing counted as saved (no VANISHED, FLOPs equal)."""
    torch.manual_seed(0)
    a = EncoderWrapped([Block() for _ in range(4)])
    b = Stack(copy_blocks(a.encoder.layer))
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    m = ["--map", r"encoder.layer.(\d+)=blocks.$1"]
    code, data, err = c.diff(da, db, *m)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    for p in ["encoder", "encoder.layer"]:
        c.expect_eq(r.get(p, {}).get("status"), "UNWRAPPED", f"{p} status")
    for i in range(4):
        for p in [f"blocks.{i}", f"blocks.{i}.fc"]:
            c.expect_eq(r.get(p, {}).get("status"), "UNCHANGED", p)
    no_status(c, data, ("VANISHED", "NEW", "AMBIGUOUS"), "modules VANISHED, NEW or AMBIGUOUS")
    if data:
        c.expect_eq(data["summary"]["modules"].get("VANISHED", 0), 0, "summary: modules VANISHED")
        flops = data["end_to_end"]["flops"]
        c.expect_eq(flops.get("a"), flops.get("b"), "end-to-end FLOPs A, B")
        sentence = data["summary"]["sentence"]
        c.expect("encoder" not in sentence and "save" not in sentence, f"summary sentence: {sentence!r}")
    code, data, err = c.diff(da, db, *m, "--expect-vanished", "encoder")
    c.expect_eq(code, 1, "--expect-vanished encoder exit code (a removed wrapper, its work is still there)")


def lora_pair(c, merged):
    """(A, B): base vs LoRA (merged False), or LoRA vs LoRA merged into the base (merged True). The LoRA is
    trained and small: B.A is about 1% of the base weight."""
    torch.manual_seed(0)
    lora = PeftAttention(zero_b=False)
    with torch.no_grad():
        for proj in [lora.q_proj, lora.v_proj]:
            w, ba = proj.base_layer.weight, proj.lora_B["default"].weight @ proj.lora_A["default"].weight
            proj.lora_B["default"].weight.mul_(0.01 * w.norm() / ba.norm())
    plain = PlainAttention()
    with torch.no_grad():
        for name in ["q_proj", "v_proj"]:
            p, l = getattr(plain, name), getattr(lora, name)
            p.bias.copy_(l.base_layer.bias)
            delta = l.lora_B["default"].weight @ l.lora_A["default"].weight
            p.weight.copy_(l.base_layer.weight + (delta if merged else 0))
    a, b = (lora, plain) if merged else (plain, lora)
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    return da, db


LORA_LEAVES = [f"{p}.lora_{x}.default" for p in ["q_proj", "v_proj"] for x in "AB"]


@both_forms
def peft_base_vs_lora(c):
    """Base model vs the same with PEFT-layout LoRA on q_proj/v_proj: the lora_A/lora_B leaves NEW, each with only its
    own small cost; nothing else NEW (the base layers' work is not new), nothing VANISHED."""
    da, db = lora_pair(c, merged=False)
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    for p in LORA_LEAVES:
        m = r.get(p, {})
        c.expect_eq(m.get("status"), "NEW", f"{p} status")
        # 4 tokens through a 32x4 (or 4x32) matrix: 2*4*32*4 FLOPs, not a whole projection's 2*4*32*32.
        c.expect(0 < m.get("b", {}).get("flops", 0) <= 2 * 4 * 32 * 4 + 4 * 32, f"{p} FLOPs in B: {m.get('b')}")
    new = sorted(p for p, m in r.items() if m["status"] == "NEW" and ".lora_" not in p)
    c.expect_eq(new, [], "NEW modules other than LoRA's")
    no_status(c, data, ("VANISHED", "AMBIGUOUS"), "modules VANISHED or AMBIGUOUS")
    if data:
        new_flops = sum(m["b"]["flops"] for m in data["modules"] if m["status"] == "NEW" and m["path"] in LORA_LEAVES)
        delta = data["end_to_end"]["flops"]["b"] - data["end_to_end"]["flops"]["a"]
        # Beyond the leaves, only `base_layer(x) + lora_B(...)`: 4 tokens x 32 per projection.
        c.expect(0 < new_flops <= delta <= new_flops + 2 * 4 * 32,
                 f"NEW LoRA FLOPs {new_flops} vs end-to-end increase {delta}")


@both_forms
def lora_vs_merged(c):
    """LoRA vs merged (B.A added to the base weight, LoRA modules removed): q_proj.base_layer UNWRAPPED (its work and
    weights are now q_proj's), its weights not ERASED; the lora_A/lora_B leaves VANISHED."""
    da, db = lora_pair(c, merged=True)
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    for p in ["q_proj", "v_proj"]:
        c.expect_eq(r.get(f"{p}.base_layer", {}).get("status"), "UNWRAPPED", f"{p}.base_layer status")
        c.expect(r.get(f"{p}.base_layer", {}).get("weights_b") != "ERASED", f"{p}.base_layer weights ERASED")
    for p in LORA_LEAVES:
        c.expect_eq(r.get(p, {}).get("status"), "VANISHED", f"{p} status")
    erased = sorted(x["name"] for x in (data or {}).get("params", [])
                    if "base_layer" in x["name"] and "ERASED" in (x["state_a"], x["state_b"]))
    c.expect_eq(erased, [], "base_layer tensors ERASED")


@both_forms
def tied_vs_untied(c):
    """lm_head.weight tied to embed.weight in A, an equal untied copy in B: nothing VANISHED/NEW, no weight ERASED,
    embed and lm_head UNCHANGED."""
    torch.manual_seed(0)
    a = TiedLm(tied=True)
    b = TiedLm(tied=False)
    b.load_state_dict(a.state_dict())
    with torch.no_grad():
        b.lm_head.weight.copy_(a.embed.weight)
    da = c.profile(c.save(a, "a.pt"), "int64[4,8]@0:128")
    db = c.profile(c.save(b, "b.pt"), "int64[4,8]@0:128")
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    for p in ["embed", "body", "lm_head"]:
        c.expect_eq(r.get(p, {}).get("status"), "UNCHANGED", f"{p} status")
    no_status(c, data, ("VANISHED", "NEW", "AMBIGUOUS"), "modules VANISHED, NEW or AMBIGUOUS")
    erased = sorted((m["path"], m["weights_a"], m["weights_b"]) for m in (data or {}).get("modules", [])
                    if "ERASED" in (m["weights_a"], m["weights_b"]))
    c.expect_eq(erased, [], "modules with weights ERASED")
    params = (data or {}).get("params", [])
    c.expect_eq(sorted(x["name"] for x in params if "ERASED" in (x["state_a"], x["state_b"])), [], "tensors ERASED")
    c.expect_eq(sorted(x["name"] for x in params if x["changed"]), [], "tensors changed")


@both_forms
def renamed_tensors_no_map(c):
    """proj renamed projection (bit-identical weights), no --map: params rows proj.weight/proj.bias say moved_to
    projection.weight/.bias, no tensor ERASED, and a warning suggests --map."""
    torch.manual_seed(0)
    a = ProjNet()
    b = ProjectionNet()
    b.load_state_dict({k.replace("proj.", "projection."): v for k, v in a.state_dict().items()})
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    params = {x["name"]: x for x in (data or {}).get("params", [])}
    for t in ["weight", "bias"]:
        c.expect_eq(params.get(f"proj.{t}", {}).get("moved_to"), f"projection.{t}", f"params proj.{t} moved_to")
    c.expect_eq(sorted(n for n, x in params.items() if "ERASED" in (x["state_a"], x["state_b"])), [], "tensors ERASED")
    warnings = " ".join((data or {}).get("warnings", [])) + err
    c.expect("--map" in warnings and "proj" in warnings, f"no warning suggesting --map: {warnings!r}")


def never_routed_moe(n=4, never=2):
    """Top1Moe whose router never picks expert NEVER (bias -1e4 on its row)."""
    torch.manual_seed(0)
    m = Top1Moe(n)
    with torch.no_grad():
        m.router.bias[never] = -1e4
    return m


@both_forms
def never_routed_expert(c):
    """An expert the router never selects: a 'never-run' candidate; diff against B without it: experts.2 VANISHED and
    experts.3 paired with B's experts.2; diff against a second capture that keeps it: experts.2 UNCHANGED, "runs no op
    in A or in B"."""
    a = never_routed_moe()
    # 48 tokens: an input of an expert weight's shape ([64, 32]) would read as that weight used elsewhere.
    spec = "float32[48,32]"
    da = c.profile(c.save(a, "a.pt"), spec, "--activations")
    p = c.run("report", da, "--candidates", "--format", "json")
    cands = json.loads(p.stdout)["candidates"]["modules"] if p.returncode == 0 else []
    c.expect_eq([(x["path"], x["kind"]) for x in cands if x["path"].startswith("experts")],
                [("experts.2", "never-run")], "expert candidates")
    b = Top1Moe(3)
    keep = [0, 1, 3]
    with torch.no_grad():
        b.router.weight.copy_(a.router.weight[keep])
        b.router.bias.copy_(a.router.bias[keep])
    for dst, src in zip(b.experts, keep):
        dst.load_state_dict(a.experts[src].state_dict())
    db = c.profile(c.save(b, "b.pt"), spec, "--activations")
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    c.expect_eq(r.get("experts.2", {}).get("status"), "VANISHED", "experts.2 (gone from B)")
    c.expect_eq(r.get("experts.3", {}).get("path_b"), "experts.2", "experts.3 path_b")
    again = c.profile(c.path("a.pt"), spec, "--activations", db=c.path("a2.db"))
    code, data, err = c.diff(da, again)
    r = rows(data)
    # Never run on either side: nothing changed, and the text says it runs on neither side's inputs (NOT_RUN is
    # for a module that ran in A and stopped running in B).
    c.expect_eq(r.get("experts.2", {}).get("status"), "UNCHANGED", "experts.2 (never run in A or B)")
    c.expect("runs no op in A or in B" in r.get("experts.2", {}).get("verdict_text", ""),
             f"experts.2 verdict text: {r.get('experts.2', {}).get('verdict_text')!r}")
    no_status(c, data, ("VANISHED", "NEW"), "self-diff: modules VANISHED or NEW")


@both_forms
def ambiguous_twins(c):
    """blocks.1 and blocks.2 exact copies, B drops one and perturbs the rest ~1e-3: both AMBIGUOUS; --expect-vanished
    blocks.2 exits 2 naming both and suggesting --map; with the --map-b the diff proposes the gate passes."""
    torch.manual_seed(0)
    a = SeqBlocks([Block() for _ in range(4)])
    a.blocks[2].load_state_dict(a.blocks[1].state_dict())
    b = perturb(SeqBlocks(copy_blocks([a.blocks[0], a.blocks[1], a.blocks[3]])))
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db)
    r = rows(data)
    for p in ["blocks.1", "blocks.2"]:
        c.expect_eq(r.get(p, {}).get("status"), "AMBIGUOUS", f"{p} status")
    code, data, err = c.diff(da, db, "--expect-vanished", "blocks.2")
    c.expect_eq(code, 2, "--expect-vanished blocks.2 exit code (undecidable)")
    text = gate_text(data, err)
    c.expect("blocks.1" in text and "blocks.2" in text and "--map" in text,
             f"gate message names both candidates and a --map: {text!r}")
    # The maps the diff proposes for its chosen reading (B's blocks.1 is A's blocks.1: A's blocks.2 is gone)
    # declare it: the gate is then decided.
    import shlex
    _, plain, _ = c.diff(da, db)
    groups = (plain or {}).get("ambiguous", [])
    settle = [a for opt in (groups[0]["settle_chosen"] if groups else []) for a in shlex.split(opt)]
    c.expect(bool(settle), f"no --map-b proposed: {groups!r}")
    code, data, err = c.diff(da, db, *settle, "--expect-vanished", "blocks.2")
    c.expect_eq(code, 0, f"with {settle}: --expect-vanished blocks.2 exit code: {gate_text(data, err)!r}")


@both_forms
def time_self_diff_not_significant(c):
    """Two captures of one model in separate processes (20 iterations each): the end-to-end time is neither faster
    nor slower, and no module is CHANGED or faster/slower by time."""
    torch.manual_seed(0)
    m = c.save(SeqBlocks([Block() for _ in range(4)]), "m.pt")
    one = c.profile(m, "float32[16,32]", iters="20", db=c.path("one.db"))
    two = c.profile(m, "float32[16,32]", iters="20", db=c.path("two.db"))
    code, data, err = c.diff(one, two)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    if data:
        c.expect(data["end_to_end"]["time_status"] not in ("faster", "slower"),
                 f"end-to-end time status {data['end_to_end']['time_status']!r}")
        timed = sorted((x["path"], x["status"], x["time_status"]) for x in data["modules"]
                       if x["status"] == "CHANGED" or x["time_status"] in ("faster", "slower"))
        c.expect_eq(timed, [], "modules CHANGED or faster/slower")


@both_forms
def candidate_naming(c):
    """PEFT-layout LoRA with zero B: the zero-like candidates are q_proj.lora_B.default and v_proj.lora_B.default (the
    modules that compute), not the ModuleDicts q_proj.lora_B / v_proj.lora_B, in both forms."""
    db = c.profile(c.save(PeftAttention(), "peft.pt"), "float32[4,32]", "--activations")
    cands = c.candidates(db)
    c.expect_eq({p: k for p, k in cands.items() if "lora_B" in p},
                {"q_proj.lora_B.default": "zero-like", "v_proj.lora_B.default": "zero-like"}, "lora_B candidates")


@both_forms
def identity_calls(c):
    """nn.Identity between two Linears: the module tree and the candidates count its calls alike (0: it runs no op, so
    it is no candidate that would save anything)."""
    db = c.profile(c.save(IdentitySandwich(), "identity.pt"), "float32[8,32]", "--activations")
    p = c.run("report", db, "--format", "json", "--depth", "99")
    rep = json.loads(p.stdout) if p.returncode == 0 else {}
    mid = next((m for m in rep.get("modules", []) if m["path"] == "mid"), {})
    calls = mid.get("calls", 0) * rep.get("iterations", 0)
    p = c.run("report", db, "--candidates", "--format", "json")
    cands = json.loads(p.stdout)["candidates"]["modules"] if p.returncode == 0 else []
    cand = next((x for x in cands if x["path"] == "mid"), None)
    # nn.Identity runs no op: the module tree counts 0 calls (calls are spans of a module's ops), and a module
    # that costs nothing is no elimination candidate; the two views agree instead of "0 calls" beside "3 of 3".
    c.expect_eq(calls, 0, "report: calls of mid (it runs no op)")
    c.expect(cand is None or cand.get("calls") == calls, f"candidate for mid disagrees with the tree: {cand!r}")
    head = next((x for x in cands if x["path"] in ("pre", "head")), None)
    c.expect(head is None, f"a real Linear listed as a candidate: {head!r}")


@both_forms
def gate_paths_each_side(c):
    """blocks.1 of 4 removed, so A's blocks.3 is B's blocks.2 (gate globs match A's aligned paths): --forbid-active
    'blocks.3' fails (exit 1) and the message names the module by B's own path blocks.2, not A's blocks.3."""
    torch.manual_seed(0)
    a = Stack([Block() for _ in range(4)])
    b = Stack(copy_blocks([a.blocks[0], a.blocks[2], a.blocks[3]]))
    da = c.profile(c.save(a, "a.pt"), "float32[4,32]")
    db = c.profile(c.save(b, "b.pt"), "float32[4,32]")
    code, data, err = c.diff(da, db, "--forbid-active", "blocks.3")
    c.expect_eq(code, 1, "--forbid-active blocks.3 exit code")
    # gates[].message only: stderr's "gate failed: forbid-active blocks.3: ..." repeats the glob.
    text = " ".join(g["message"] for g in data["gates"]) if data else err
    text = text.replace("'blocks.3'", "the glob")  # the glob itself may be quoted back
    c.expect("blocks.2" in text and "blocks.3" not in text, f"gate message: {text!r}")

# ------------------------------------------------------------------------------------------ outputs (#30)
# The second half of the proof: removing a module leaves forward()'s outputs as they were. TorchScript: `diff
# A.pt B.pt` records outputs as it profiles them; eager: `trace --save-outputs` stores them and the runs are
# diffed.


def diff_outputs(c, a, b, spec, *gates):
    """Diff of models A and B with their outputs compared: on the fly (ts) or from stored runs (eager)."""
    pa, pb = c.save(a, "a.pt"), c.save(b, "b.pt")
    if c.form == "ts":
        return c.diff(pa, pb, "--input", spec, "--iters", "2", *gates)
    return c.diff(c.profile(pa, spec, "--save-outputs"), c.profile(pb, spec, "--save-outputs"), *gates)


def moe_without(a, drop):
    """A Top1Moe like A (n experts) without expert DROP: router rows and experts of the others copied."""
    n = len(a.experts)
    keep = [i for i in range(n) if i != drop]
    b = Top1Moe(n - 1)
    with torch.no_grad():
        b.router.weight.copy_(a.router.weight[keep])
        b.router.bias.copy_(a.router.bias[keep])
    for dst, src in zip(b.experts, keep):
        dst.load_state_dict(a.experts[src].state_dict())
    return b


def outputs_of(c, data, what):
    """The diff JSON's outputs object (empty when the diff printed no JSON)."""
    out = (data or {}).get("outputs", {})
    c.expect(bool(out), f"{what}: no outputs object")
    return out


@both_forms
def outputs_never_routed_expert_equal(c):
    """Removing the expert the router never selects leaves the outputs equal to the last bit: `--max-output-change 0`
    passes (ts: on the fly, then from runs stored with profile --save-outputs)."""
    a = never_routed_moe()
    b = moe_without(a, 2)
    code, data, err = diff_outputs(c, a, b, "float32[48,32]", "--max-output-change", "0")
    c.expect_eq(code, 0, f"diff --max-output-change 0 exit code: {err.strip()}")
    out = outputs_of(c, data, "A.pt B.pt")
    c.expect_eq((out.get("status"), out.get("exact"), out.get("max_rel_change")), ("compared", True, 0.0),
                "outputs status, exact, max_rel_change")
    c.expect(out.get("line", "").startswith("outputs: equal to the last bit"), f"line: {out.get('line')!r}")
    if c.form != "ts":
        return
    pa, pb = c.path("a.pt"), c.path("b.pt")
    da = c.profile(pa, "float32[48,32]", "--save-outputs")
    db = c.profile(pb, "float32[48,32]", "--save-outputs")
    code, data, err = c.diff(da, db, "--max-output-change", "0")
    c.expect_eq(code, 0, f"diff A.db B.db --max-output-change 0 exit code: {err.strip()}")
    c.expect_eq(outputs_of(c, data, "A.db B.db").get("exact"), True, "stored outputs exact")


@both_forms
def outputs_selected_expert_removed(c):
    """Removing an expert the router selects changes the outputs: `--max-output-change 1e-3` fails (exit 1) and the
    line says CHANGED with the top-1 agreement."""
    torch.manual_seed(0)
    a = Top1Moe(4)
    b = moe_without(a, 0)
    code, data, err = diff_outputs(c, a, b, "float32[48,32]", "--max-output-change", "1e-3")
    c.expect_eq(code, 1, f"--max-output-change 1e-3 exit code: {err.strip()}")
    out = outputs_of(c, data, "diff")
    c.expect((out.get("max_rel_change") or 0) > 1e-3, f"max_rel_change {out.get('max_rel_change')!r}")
    c.expect("CHANGED" in out.get("line", ""), f"line: {out.get('line')!r}")
    c.expect_eq(out.get("top1_total"), 48, "top-1 positions (48 tokens)")
    gates = (data or {}).get("gates", [])
    c.expect_eq([(g["name"], g["passed"], g["error"]) for g in gates], [("max-output-change 0.001", False, False)],
                "gates")


@both_forms
def outputs_zero_lora_removed(c):
    """Removing a LoRA branch whose B matrix is zero is equivalent: the outputs are equal (x + 0 is x), and the
    verdicts still say the lora leaves VANISHED."""
    torch.manual_seed(0)
    lora = PeftAttention(zero_b=True)
    plain = PlainAttention()
    with torch.no_grad():
        for name in ["q_proj", "v_proj"]:
            getattr(plain, name).weight.copy_(getattr(lora, name).base_layer.weight)
            getattr(plain, name).bias.copy_(getattr(lora, name).base_layer.bias)
    code, data, err = diff_outputs(c, lora, plain, "float32[4,32]", "--max-output-change", "1e-6")
    c.expect_eq(code, 0, f"--max-output-change 1e-6 exit code: {err.strip()}")
    out = outputs_of(c, data, "diff")
    c.expect_eq(out.get("max_rel_change"), 0.0, "max relative change")
    r = rows(data)
    c.expect_eq(sorted(p for p in LORA_LEAVES if r.get(p, {}).get("status") == "VANISHED"), sorted(LORA_LEAVES),
                "lora leaves VANISHED")


def sonnet_mini_models():
    """The sample's v1 and v2 (samples/sonnet-mini/make_sonnet_mini.py, default size and seed), and v1 with the
    MLP of layer 0 removed."""
    sample = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples", "sonnet-mini")
    sys.path.insert(0, sample)
    import make_sonnet_mini
    import argparse
    ap = argparse.ArgumentParser()
    make_sonnet_mini.add_model_arguments(ap)
    models = make_sonnet_mini.build(ap.parse_args([]))
    no_mlp = make_sonnet_mini.build(ap.parse_args([]))["v1"]
    no_mlp.layers[0] = BlockWithoutMlp(no_mlp.layers[0])
    return models["v1"], models["v2"], no_mlp


class BlockWithoutMlp(nn.Module):
    """A sonnet-mini block with its MLP removed: x + attn(ln1(x))."""

    def __init__(self, block):
        super().__init__()
        self.ln1 = block.ln1
        self.attn = block.attn

    def forward(self, x):
        return x + self.attn(self.ln1(x))


@case
def outputs_sonnet_bias_equivalent_mlp_not(c):
    """sonnet-mini: removing position_adaptive_bias (weights ~1e-7) is equivalent within 1e-5 (also over --rounds),
    removing layers.0.mlp is not: `--max-output-change 1e-5` passes, then fails."""
    v1, v2, no_mlp = sonnet_mini_models()
    p1, p2, pn = c.save(v1, "v1.pt"), c.save(v2, "v2.pt"), c.save(no_mlp, "nomlp.pt")
    spec = "int64[1,64]@0:512"
    code, data, err = c.diff(p1, p2, "--input", spec, "--iters", "2", "--max-output-change", "1e-5")
    c.expect_eq(code, 0, f"v1 v2 --max-output-change 1e-5 exit code: {err.strip()}")
    out = outputs_of(c, data, "v1 v2")
    c.expect(0 < (out.get("max_rel_change") or -1) <= 1e-5, f"v1 v2 max_rel_change {out.get('max_rel_change')!r}")
    c.expect("equivalent within" in out.get("line", ""), f"v1 v2 line: {out.get('line')!r}")
    c.expect_eq((out.get("top1_agree"), out.get("top1_total")), (64, 64), "v1 v2 top-1 agreement")
    code, data, err = c.diff(p1, p2, "--input", spec, "--iters", "2", "--rounds", "2", "--max-output-change", "1e-5")
    c.expect_eq(code, 0, f"v1 v2 --rounds 2 exit code: {err.strip()}")
    c.expect_eq(outputs_of(c, data, "--rounds").get("calls_compared"), 1, "--rounds: calls compared")
    code, data, err = c.diff(p1, pn, "--input", spec, "--iters", "2", "--max-output-change", "1e-5")
    c.expect_eq(code, 1, f"v1 without layers.0.mlp --max-output-change 1e-5 exit code: {err.strip()}")
    c.expect((outputs_of(c, data, "no mlp").get("max_rel_change") or 0) > 1e-3, "removing an MLP changes outputs")


class Narrow(nn.Module):
    def __init__(self, out):
        super().__init__()
        self.fc = nn.Linear(32, out)

    def forward(self, x):
        return self.fc(x)


class NanOut(nn.Module):
    """fc(x), with column 5 set to NaN when POISON: every output row has a NaN element. (The NaN is computed, not
    held in a buffer: a tensor whose sum is NaN cannot be stored by trace yet.)"""

    def __init__(self, poison: bool):
        super().__init__()
        self.fc = nn.Linear(32, 32)
        self.poison = poison

    def forward(self, x):
        y = self.fc(x)
        if self.poison:
            y[:, 5] = float("nan")
        return y


@case
def outputs_not_comparable_exit_2(c):
    """Outputs of different shapes, or of different inputs (seeds), cannot be compared: said plainly, and a gate that
    needs them exits 2; runs stored without --save-outputs print no output line."""
    torch.manual_seed(0)
    wide, narrow = Narrow(32), Narrow(16)
    pa, pb = c.save(wide, "a.pt"), c.save(narrow, "b.pt")
    code, data, err = c.diff(pa, pb, "--input", "float32[4,32]", "--iters", "2")
    c.expect_eq(code, 0, f"no gate: exit code {err.strip()}")
    out = outputs_of(c, data, "shapes")
    c.expect_eq(out.get("status"), "not_comparable", "status")
    c.expect_eq(out.get("reason"), "output 0 has shape [4, 32] vs [4, 16]: outputs not compared", "reason")
    code, data, err = c.diff(pa, pb, "--input", "float32[4,32]", "--iters", "2", "--max-output-change", "1")
    c.expect_eq(code, 2, "shapes differ: --max-output-change exit code")
    c.expect("shape [4, 32] vs [4, 16]" in err, f"stderr: {err.strip()!r}")
    da = c.profile(pa, "float32[4,32]", "--save-outputs", "--seed", "1", db=c.path("s1.db"))
    db = c.profile(pa, "float32[4,32]", "--save-outputs", "--seed", "2", db=c.path("s2.db"))
    code, data, err = c.diff(da, db, "--min-top1-agreement", "99%")
    c.expect_eq(code, 2, "inputs differ: --min-top1-agreement exit code")
    c.expect("inputs differ: outputs not compared" in err, f"stderr: {err.strip()!r}")
    plain_a = c.profile(pa, "float32[4,32]", db=c.path("p1.db"))
    plain_b = c.profile(pa, "float32[4,32]", db=c.path("p2.db"))
    p = c.run("diff", plain_a, plain_b)
    c.expect("outputs:" not in p.stdout, f"runs without outputs print an output line: {p.stdout!r}")
    code, data, err = c.diff(plain_a, plain_b, "--max-output-change", "1")
    c.expect_eq(code, 2, "no outputs: --max-output-change exit code")


@both_forms
def outputs_nan_fails(c):
    """NaN in B's outputs is reported in the line and fails the output gate whatever its threshold."""
    torch.manual_seed(0)
    a = NanOut(False)
    b = NanOut(True)
    b.fc.load_state_dict(a.fc.state_dict())
    code, data, err = diff_outputs(c, a, b, "float32[4,32]", "--max-output-change", "1e9")
    c.expect_eq(code, 1, f"--max-output-change 1e9 with NaN exit code: {err.strip()}")
    out = outputs_of(c, data, "nan")
    c.expect_eq(out.get("non_finite"), True, "non_finite")
    c.expect("4 NaN in B" in out.get("line", ""), f"line: {out.get('line')!r}")


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(CASES))
        return 0
    return run_cases(CASES, argv[1:] or list(CASES))


def run_cases(cases, names):
    """Runs NAMES of CASES (name -> (function, form)), each in its own temporary directory; 1 when any failed."""
    failed = 0
    for name in names:
        fn, form = cases[name]
        with tempfile.TemporaryDirectory() as d:
            c = Check(d, form)
            try:
                fn(c)
            except Exception as e:  # a crash is a failure of the case, reported as such
                c.failures.append(f"exception: {e!r}")
            status = "ok" if not c.failures else "FAIL"
            print(f"{name}: {status}  -- {fn.__doc__.splitlines()[0]}")
            for f in c.failures:
                print(f"    {f}")
            failed += bool(c.failures)
    return 1 if failed else 0

if __name__ == "__main__":
    import corpus  # run as the module `corpus`, so pickled models name their classes corpus.X for eager_run.py

    sys.exit(corpus.main(sys.argv))
