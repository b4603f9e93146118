"""The verdict corpus on real libraries: tiny random-config `transformers` models (no hub downloads) with
`peft`, torch 2.x from PyPI, captured eagerly through `flopscope trace` (corpus.py's eager form). Runs in the
virtualenv scripts/make-pypi-venv.sh makes ($FLOPSCOPE_PYPI_VENV, default build/pypi-venv): started by any
other Python it re-runs itself with the venv's, and exits 77 (CTest's skip) when the venv is absent.
`pypi_corpus.py --list` names the cases; `pypi_corpus.py CASE` runs one.
"""
import copy
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
VENV = os.environ.get("FLOPSCOPE_PYPI_VENV") or os.path.join(HERE, "..", "..", "build", "pypi-venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
SKIP = 77
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def in_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(VENV)


# ------------------------------------------------------------------------------------- models (in the venv)

IDS = "int64[1,8]@0:128"


def llama(tied=False):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                      tie_word_embeddings=tied)
    return LlamaForCausalLM(cfg).eval()


def with_lora(model):
    """PEFT LoRA (r 4) on q_proj/v_proj, B not zero (a trained adapter) and small: B.A about 1% of the weight."""
    import torch
    from peft import LoraConfig, get_peft_model

    torch.manual_seed(1)
    peft = get_peft_model(model, LoraConfig(r=4, lora_alpha=4, target_modules=["q_proj", "v_proj"],
                                            init_lora_weights=False))
    with torch.no_grad():
        for name, m in peft.named_modules():
            if hasattr(m, "lora_B") and hasattr(m, "base_layer") and "default" in m.lora_B:
                ba = m.lora_B["default"].weight @ m.lora_A["default"].weight
                m.lora_B["default"].weight.mul_(0.01 * m.base_layer.weight.norm() / ba.norm())
    return peft.eval()


def lora_leaf(path):
    return ".lora_A.default" in path or ".lora_B.default" in path


# ------------------------------------------------------------------------------------------------ cases


@case
def pypi_llama_lora_vs_base(c):
    """Tiny Llama vs the same with PEFT LoRA on q_proj/v_proj (no --map): the 8 lora_A/lora_B leaves NEW with their
    own small cost; nothing NEW outside PEFT's lora_* modules (its wrapper levels base_model, base_model.model and
    the base_layers are not new work), nothing VANISHED or AMBIGUOUS."""
    from corpus import no_status, rows

    base = llama()
    da = c.profile(c.save(base, "base.pt"), IDS)
    db = c.profile(c.save(with_lora(copy.deepcopy(base)), "lora.pt"), IDS)
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    leaves = sorted(p for p in r if lora_leaf(p))
    c.expect_eq(len(leaves), 8, f"lora leaves in the diff: {leaves}")
    c.expect_eq({r[p]["status"] for p in leaves}, {"NEW"}, "lora leaves' status")
    # PEFT's own new modules (lora_A/lora_B ModuleDicts, lora_dropout, ...) may be NEW; nothing else.
    new = sorted(p for p, m in r.items() if m["status"] == "NEW" and ".lora_" not in p)
    c.expect_eq(new, [], "NEW modules other than PEFT's lora_*")
    no_status(c, data, ("VANISHED", "AMBIGUOUS"), "modules VANISHED or AMBIGUOUS")
    if data:
        new_flops = sum(r[p]["b"]["flops"] for p in leaves)
        delta = data["end_to_end"]["flops"]["b"] - data["end_to_end"]["flops"]["a"]
        # Beyond the leaves, only PEFT's `result + lora_B(...) * scaling` per adapted layer (8 tokens x 32).
        c.expect(0 < new_flops <= delta <= new_flops + 4 * 2 * 8 * 32,
                 f"lora leaves' FLOPs {new_flops} vs end-to-end increase {delta}")


@case
def pypi_llama_merged_vs_lora(c):
    """PEFT LoRA model vs its merge_and_unload() (no --map): every *.base_layer UNWRAPPED (its work and weights are
    now q_proj's/v_proj's), none VANISHED, no base_layer tensor ERASED; the lora_A/lora_B leaves VANISHED."""
    from corpus import rows

    lora = with_lora(llama())
    da = c.profile(c.save(lora, "lora.pt"), IDS)
    merged = copy.deepcopy(lora).merge_and_unload().eval()
    db = c.profile(c.save(merged, "merged.pt"), IDS)
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    base_layers = sorted(p for p in r if p.endswith(".base_layer"))
    c.expect_eq(len(base_layers), 4, f"base_layer rows: {base_layers}")
    c.expect_eq({p: r[p]["status"] for p in base_layers}, {p: "UNWRAPPED" for p in base_layers},
                "base_layer status")
    leaves = sorted(p for p in r if lora_leaf(p))
    c.expect_eq({p: r[p]["status"] for p in leaves}, {p: "VANISHED" for p in leaves}, "lora leaves' status")
    vanished = sorted(p for p, m in r.items() if m["status"] == "VANISHED" and ".lora_" not in p)
    c.expect_eq(vanished, [], "VANISHED modules other than LoRA's")
    erased = sorted(x["name"] for x in (data or {}).get("params", [])
                    if ".lora_" not in x["name"] and "ERASED" in (x["state_a"], x["state_b"]))
    c.expect_eq(erased, [], "tensors ERASED other than LoRA's")
    code, data, err = c.diff(da, db, "--expect-vanished", "*base_layer")
    c.expect_eq(code, 1, "--expect-vanished '*base_layer' exit code (its work is q_proj's now)")


@case
def pypi_llama_tied_vs_untied(c):
    """Tiny Llama with tied embeddings vs untied and equal: nothing VANISHED/NEW, no tensor ERASED or changed."""
    import torch
    from corpus import no_status, rows

    a = llama(tied=True)
    b = llama(tied=False)
    b.load_state_dict(a.state_dict(), strict=False)
    with torch.no_grad():
        b.lm_head.weight.copy_(a.model.embed_tokens.weight)
    da = c.profile(c.save(a, "tied.pt"), IDS)
    db = c.profile(c.save(b, "untied.pt"), IDS)
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    for p in ["model.embed_tokens", "lm_head"]:
        c.expect_eq(r.get(p, {}).get("status"), "UNCHANGED", f"{p} status")
    no_status(c, data, ("VANISHED", "NEW", "AMBIGUOUS", "CHANGED"), "modules VANISHED, NEW, AMBIGUOUS or CHANGED")
    params = (data or {}).get("params", [])
    c.expect_eq(sorted(x["name"] for x in params if "ERASED" in (x["state_a"], x["state_b"])), [], "tensors ERASED")
    c.expect_eq(sorted(x["name"] for x in params if x["changed"]), [], "tensors changed")


@case
def pypi_mixtral_prune_finetune(c):
    """Tiny Mixtral (4 experts, top 2; transformers 5 stores them fused, [4, ...] tensors of one module): expert 1
    cut from every layer's experts and router, then every weight moved ~1e-3: the experts and routers CHANGED,
    nothing VANISHED/NEW/AMBIGUOUS, no tensor ERASED, --expect-vanished '*.mlp.experts' exits 1."""
    import torch
    from corpus import no_status, perturb, rows
    from transformers import MixtralConfig, MixtralForCausalLM

    def mixtral(n):
        torch.manual_seed(0)
        return MixtralForCausalLM(MixtralConfig(vocab_size=128, hidden_size=32, intermediate_size=64,
                                                num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                                                max_position_embeddings=64, num_local_experts=n,
                                                num_experts_per_tok=2)).eval()

    a = mixtral(4)
    b = mixtral(3)
    keep = [0, 2, 3]
    state = {k: (v[keep] if (".mlp.experts." in k or ".mlp.gate." in k) and v.shape[0] == 4 else v)
             for k, v in a.state_dict().items()}
    b.load_state_dict(state)
    da = c.profile(c.save(a, "a.pt"), IDS)
    db = c.profile(c.save(perturb(b), "b.pt"), IDS)
    code, data, err = c.diff(da, db)
    c.expect_eq(code, 0, f"diff exit code: {err.strip()}")
    r = rows(data)
    experts = sorted(p for p in r if p.endswith(".mlp.experts") or p.endswith(".mlp.gate"))
    c.expect_eq(len(experts), 4, f"experts/gate rows: {experts}")
    c.expect_eq({p: r[p]["status"] for p in experts}, {p: "CHANGED" for p in experts}, "experts/gate status")
    no_status(c, data, ("VANISHED", "NEW", "AMBIGUOUS"), "modules VANISHED, NEW or AMBIGUOUS")
    params = (data or {}).get("params", [])
    c.expect_eq(sorted(x["name"] for x in params if "ERASED" in (x["state_a"], x["state_b"])), [], "tensors ERASED")
    code, data, err = c.diff(da, db, "--expect-vanished", "*.mlp.experts")
    c.expect_eq(code, 1, "--expect-vanished '*.mlp.experts' exit code (they still run)")


def main(argv):
    if len(argv) == 2 and argv[1] == "--list":
        print("\n".join(CASES))
        return 0
    if not in_venv():
        if not os.path.exists(VENV_PYTHON):
            print(f"SKIP: pypi venv absent: run scripts/make-pypi-venv.sh (looked for {VENV_PYTHON})")
            return SKIP
        os.execv(VENV_PYTHON, [VENV_PYTHON, "-W", "ignore", *argv])
    sys.path.insert(0, HERE)
    import corpus

    return corpus.run_cases({name: (fn, "eager") for name, fn in CASES.items()}, argv[1:] or list(CASES))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
