#!/usr/bin/env python3
"""Eager sonnet-mini inference on a CUDA GPU, with one NVTX range per module (for `flopscope exec`).

The model is samples/sonnet-mini/make_sonnet_mini.py's SonnetMini, built by its build() from the same seed,
so v1, v2 and v2z share their weights exactly as the TorchScript samples do; here it runs eagerly (no
TorchScript) in bf16 on the GPU. Forward pre/post hooks push and pop an NVTX range named with each module's
full dotted path ("layers.0.attn.position_adaptive_bias"), which flopscope takes as the module path of
every kernel launched inside it.

    flopscope exec -o v1.db -- python3 samples/gpu/infer_sonnet_mini.py --version v1
    python3 samples/gpu/infer_sonnet_mini.py --version v1 --kineto v1.json   # torch.profiler instead

Prints one line: version, forwards, device time per forward (CUDA events) and host time per forward
(perf_counter, synchronised), and max |logits - v1 logits|
computed on the CPU in float32 from the same weights and tokens (a check that v2 drops a near-zero contribution).
Exits 2 without a CUDA GPU.
"""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sonnet-mini"))
import make_sonnet_mini  # noqa: E402  (the model definition, shared with the TorchScript samples)

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


class RecordingNvtx:
    """Stands in for torch.cuda.nvtx on the CPU (--device cpu, the dry run): checks the ranges nest."""

    def __init__(self):
        self.stack, self.pushed, self.paths = [], 0, set()

    def range_push(self, name):
        self.stack.append(name)
        self.pushed += 1
        self.paths.add(name)

    def range_pop(self):
        self.stack.pop()


def add_nvtx_hooks(model, nvtx):
    """Wraps every named submodule's forward in an NVTX range named with its full path."""
    handles = []
    for name, module in model.named_modules():
        if not name:
            continue  # the root: its kernels belong to the root module anyway

        def pre(_module, _inputs, name=name):
            nvtx.range_push(name)

        def post(_module, _inputs, _output):
            nvtx.range_pop()

        handles.append(module.register_forward_pre_hook(pre))
        handles.append(module.register_forward_hook(post))
    return handles


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--version", choices=["v1", "v2", "v2z"], default="v1")
    ap.add_argument("--dtype", choices=sorted(DTYPES), default="bf16")
    ap.add_argument("--forwards", type=int, default=3, help="forward passes, all traced (default 3)")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--vocab", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kineto", metavar="JSON", help="run under torch.profiler and write its Kineto trace here")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda",
                    help="cpu: the dry run without a GPU (NVTX ranges recorded and checked, not emitted)")
    return ap.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    if args.device == "cuda" and not torch.cuda.is_available():
        print("infer_sonnet_mini: error: no CUDA GPU (torch.cuda.is_available() is False)", file=sys.stderr)
        return 2
    device = torch.device(args.device)
    cuda = args.device == "cuda"
    nvtx = torch.cuda.nvtx if cuda else RecordingNvtx()
    models = make_sonnet_mini.build(args)
    tokens = torch.randint(0, args.vocab, (args.batch, args.seq), generator=torch.Generator().manual_seed(1))

    # On the CPU in float32, so that no GPU work is added to the trace: how far this version's logits are
    # from v1's for the same weights and tokens.
    with torch.no_grad():
        cpu_tokens = tokens.cpu()
        reference = models["v1"].eval()(cpu_tokens)
        delta = (models[args.version].eval()(cpu_tokens) - reference).abs().max().item()
    model = models[args.version].to(device=device, dtype=DTYPES[args.dtype])
    gpu_tokens = tokens.to(device)
    add_nvtx_hooks(model, nvtx)
    if cuda:
        torch.cuda.synchronize()
    timing = {}

    def run():
        with torch.no_grad():
            if cuda:
                start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                start.record()
            t0 = time.perf_counter()
            for _ in range(args.forwards):
                logits = model(gpu_tokens)
            if cuda:
                end.record()
                torch.cuda.synchronize()
                timing["device_ms_per_forward"] = start.elapsed_time(end) / args.forwards
            timing["host_ms_per_forward"] = (time.perf_counter() - t0) * 1e3 / args.forwards
        return logits

    if args.kineto:
        from torch.profiler import ProfilerActivity, profile

        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            logits = run()
        tmp = args.kineto + ".tmp"
        prof.export_chrome_trace(tmp)
        os.replace(tmp, args.kineto)
    else:
        logits = run()
    finite = bool(torch.isfinite(logits.float()).all().item())
    times = " ".join(f"{k}={v:.3f}" for k, v in sorted(timing.items()))
    ranges = ""
    if not cuda:
        if nvtx.stack:
            print(f"infer_sonnet_mini: error: NVTX ranges left open: {nvtx.stack}", file=sys.stderr)
            return 1
        ranges = f" nvtx_ranges={nvtx.pushed} nvtx_paths={len(nvtx.paths)}"
    print(f"infer_sonnet_mini: {args.version} {args.device} {args.dtype} forwards={args.forwards} batch={args.batch} "
          f"seq={args.seq} d_model={args.d_model} layers={args.layers} {times} "
          f"max_abs_logit_delta_vs_v1_fp32={delta:.3g} finite={finite}{ranges}")
    return 0 if finite else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
