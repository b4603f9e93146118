#!/usr/bin/env bash
# Builds flopscope against the LibTorch inside a pip-installed torch wheel (preset `pip-torch`, in
# build/pip-torch), so `profile` loads TorchScript saved by that torch (e.g. 2.x); Debian's LibTorch stays the
# default build. Then checks that the result loads a TorchScript file saved by torch 2.15 that Debian's 1.13
# cannot load.
# Usage: scripts/build-pip-torch.sh PYTHON     (a Python whose `import torch` is the wheel, e.g. a venv's)
#   python3 -m venv /tmp/venv-t2 && /tmp/venv-t2/bin/pip install torch
#   scripts/build-pip-torch.sh /tmp/venv-t2/bin/python
set -euo pipefail
py=${1:?usage: build-pip-torch.sh PYTHON}
cd "$(dirname "$0")/.."
prefix=$("$py" -W ignore -c 'import torch, torch.utils; print(torch.utils.cmake_prefix_path)')
version=$("$py" -W ignore -c 'import torch; print(torch.__version__)')
echo "build-pip-torch: torch $version, LibTorch CMake files in $prefix"
export FLOPSCOPE_TORCH_CMAKE_PREFIX="$prefix"
# A CUDA wheel's libtorch_cuda.so needs the NCCL, cuDNN, ... of the wheel's nvidia-* packages: the linker
# must find them (-rpath-link) and so must the LibTorch plugin, libflopscope-torch.so, at run time (-rpath).
libs=$("$py" -W ignore -c '
import glob, os, torch
site = os.path.dirname(os.path.dirname(torch.__file__))
print(":".join(sorted(glob.glob(os.path.join(site, "nvidia", "*", "lib")))))')
flags=""
[[ -n "$libs" ]] && flags="-Wl,-rpath-link,$libs -Wl,-rpath,$libs"
cmake --preset pip-torch -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" >/dev/null
cmake --build --preset pip-torch -j"${JOBS:-2}" --target flopscope
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
model=tests/data/torchscript/sdpa_saved_by_torch_2_15.pt
build/pip-torch/cli/flopscope profile "$model" --input 'float32[1,2,4,4]' --iters 2 --warmup 0 -o "$out/run.db"
build/pip-torch/cli/flopscope report "$out/run.db" --format json | "$py" -c '
import json, sys
r = json.load(sys.stdin)
ops = [o["name"] for o in r["top_ops"]]
assert any("scaled_dot_product_attention" in o for o in ops), ops
print("build-pip-torch: OK: profile loaded", sys.argv[1], "(saved by torch 2.15); top ops:", ", ".join(ops[:3]))
' "$model"
