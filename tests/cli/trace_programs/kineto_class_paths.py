"""A trace recorded without flopscope's companion, as `import --weights` meets them: one sonnet-mini forward
under the PyTorch profiler with the Python tracer, written as a Kineto Chrome trace whose module calls are
the profiler's own `nn.Module: <Class>_<k>` events (class names only), beside the model's weights.

  kineto_class_paths.py VERSION OUT_DIR

Writes OUT_DIR/trace.json, OUT_DIR/weights.pt (torch.save of the state dict) and OUT_DIR/weights.safetensors
(the same tensors, offset order sorted by name as safetensors writers do). Debian's torch 1.13 has no
Kineto, so the trace is written from the profiler's event tree in the Kineto schema (the same fields
torch.profiler's export_chrome_trace writes: cpu_op with Input Dims / Input type, python_function).
"""
import importlib.util
import json
import os
import struct
import sys

import torch
from torch._C import _autograd as A
from torch._C import _profiler as P

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


def load_builder():
    path = os.path.join(SOURCE, "samples", "sonnet-mini", "make_sonnet_mini.py")
    spec = importlib.util.spec_from_file_location("make_sonnet_mini", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record(model, tokens):
    # report_input_shapes, profile_memory, with_stack (the Python tracer: nn.Module events), with_flops,
    # with_modules
    config = P.ProfilerConfig(P.ProfilerState.KINETO, True, False, True, False, True, P._ExperimentalConfig())
    A._prepare_profiler(config, {P.ProfilerActivity.CPU})
    A._enable_profiler(config, {P.ProfilerActivity.CPU})
    with torch.no_grad():
        model(tokens)
    return A._disable_profiler()


def events(result):
    pid = os.getpid()
    roots = result.experimental_event_tree()
    base = min(e.start_time_ns for e in roots)
    out = []
    todo = list(roots)
    while todo:
        e = todo.pop()
        todo.extend(e.children)
        event = {"ph": "X", "pid": pid, "tid": int(e.start_tid), "name": e.name,
                 "ts": round((e.start_time_ns - base) / 1000.0, 3), "dur": round(max(0, e.duration_time_ns) / 1000.0, 3)}
        inputs = getattr(e.extra_fields, "inputs", None)
        if inputs is not None:
            event["cat"] = "cpu_op"
            event["args"] = {"Input Dims": [list(s) for s in inputs.shapes], "Input type": list(inputs.dtypes)}
        elif e.name.startswith("nn.Module: "):
            event["cat"] = "python_function"
        else:
            continue  # other Python frames: the importer reads module calls only
        out.append(event)
    out.sort(key=lambda x: x["ts"])
    return out


def write_safetensors(state, path):
    names = sorted(state)
    header, blobs, offset = {}, [], 0
    for name in names:
        t = state[name].contiguous()
        data = t.numpy().tobytes()
        header[name] = {"dtype": {torch.float32: "F32", torch.int64: "I64"}[t.dtype], "shape": list(t.shape),
                        "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for b in blobs:
            f.write(b)


def main(version, out_dir):
    builder = load_builder()
    import argparse

    ap = argparse.ArgumentParser()
    builder.add_model_arguments(ap)
    model = builder.build(ap.parse_args([]))[version].eval()
    tokens = torch.randint(0, 512, (1, 64), generator=torch.Generator().manual_seed(1))
    result = record(model, tokens)
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "trace.json"), "w") as f:
        json.dump({"schemaVersion": 1, "traceEvents": events(result)}, f)
    state = model.state_dict()
    torch.save(state, os.path.join(out_dir, "weights.pt"))
    write_safetensors(state, os.path.join(out_dir, "weights.safetensors"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
