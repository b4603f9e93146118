#!/usr/bin/env python3
"""Records every aten op a torchvision model runs in eager mode (TorchDispatchMode) with its arguments in
flopscope's OpArg form, one JSON object per line:

  {"name": "aten::convolution", "args": [{"tensor": true, "dtype": "float32", "shape": [1, 3, 224, 224]},
                                          {"tensor": false, "value": "[2, 2]"}, ...]}

This exercises the FLOPs registry on real models without the LibTorch collector: the registry_totals
driver sums the records. Tensor lists are flattened into consecutive tensor args (the registry's
convention). Usage: record_ops.py MODEL OUT.jsonl [--input 1,3,224,224]
"""
import json
import os
import sys

import torch
import torchvision
from torch.utils._python_dispatch import TorchDispatchMode


def dtype_name(dtype):
    return str(dtype).replace("torch.", "")


def scalar_text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(scalar_text(x) for x in v) + "]"
    if isinstance(v, torch.dtype):
        return dtype_name(v)
    return str(v)


def to_args(values):
    out = []
    for v in values:
        if isinstance(v, torch.Tensor):
            out.append({"tensor": True, "dtype": dtype_name(v.dtype), "shape": list(v.shape)})
        elif isinstance(v, (list, tuple)) and v and all(isinstance(x, torch.Tensor) or x is None for x in v):
            for x in v:
                if x is None:
                    out.append({"tensor": False, "value": ""})
                else:
                    out.append({"tensor": True, "dtype": dtype_name(x.dtype), "shape": list(x.shape)})
        else:
            out.append({"tensor": False, "value": scalar_text(v)})
    return out


class Recorder(TorchDispatchMode):
    def __init__(self, sink):
        super().__init__()
        self.sink = sink

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        schema = func._schema
        values = []
        for i, a in enumerate(schema.arguments):
            if a.is_out:
                continue
            if i < len(args):
                values.append(args[i])
            elif a.name in kwargs:
                values.append(kwargs[a.name])
            else:
                values.append(a.default_value if a.has_default_value() else None)
        self.sink.write(json.dumps({"name": schema.name, "args": to_args(values)}) + "\n")
        return func(*args, **kwargs)


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    name, out_path = argv[0], argv[1]
    shape = [1, 3, 224, 224]
    if len(argv) > 3 and argv[2] == "--input":
        shape = [int(x) for x in argv[3].split(",")]
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None).eval()
    x = torch.randn(*shape)
    tmp = out_path + ".tmp"
    with open(tmp, "w") as sink, torch.no_grad(), Recorder(sink):
        model(x)
    os.replace(tmp, out_path)


if __name__ == "__main__":
    main(sys.argv[1:])
