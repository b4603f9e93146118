#!/usr/bin/env python3
"""How to turn your own PyTorch model into a TorchScript archive that `flopscope profile` can run.

flopscope profiles TorchScript (torch.jit.save output) with LibTorch, so the model runs exactly as in a C++
deployment and module paths match `model.named_modules()`. Two ways to export:

  torch.jit.script(model)  keeps control flow and the module tree; preferred.
  torch.jit.trace(model, example_inputs)  for models that do not script; records one path through the code.

Example (a small CNN, defined below, scripted and saved):
  /usr/bin/python3 samples/export_your_model.py /tmp/mycnn.pt
  flopscope profile /tmp/mycnn.pt --input 'float32[1,3,64,64]' -o /tmp/mycnn.db
  flopscope report /tmp/mycnn.db

For a Hugging Face model, load it with torchscript=True, trace it with example token ids, and save; then
profile with `--input 'int64[1,SEQ]@0:VOCAB'` so the random token ids stay inside the vocabulary.
"""
import sys

import torch
import torch.nn as nn


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(torch.flatten(self.features(x), 1))


def main(out_path: str) -> None:
    model = SmallCNN().eval()
    try:
        exported = torch.jit.script(model)
    except Exception as e:  # some Python constructs do not script: fall back to tracing
        print(f"scripting failed ({e}); tracing instead", file=sys.stderr)
        exported = torch.jit.trace(model, torch.randn(1, 3, 64, 64))
    exported.save(out_path)
    # Check the archive loads and runs the same as the eager model.
    loaded = torch.jit.load(out_path)
    x = torch.randn(1, 3, 64, 64)
    with torch.no_grad():
        assert torch.allclose(loaded(x), model(x), atol=1e-6)
    print(f"wrote {out_path}; profile it with:\n"
          f"  flopscope profile {out_path} --input 'float32[1,3,64,64]' -o run.db && flopscope report run.db")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
