#!/usr/bin/env bash
# The GPU check of flopscope's CUPTI collector: scripts/gpu_check.py does the work (docs/gpu.md).
#
#   scripts/gpu-check.sh --device              on the lent GPU machine: build from .gpu/, run every check
#   scripts/gpu-check.sh --device --dry-run    here, without a GPU: everything up to the first CUDA call
#   scripts/gpu-check.sh [FLOPSCOPE_BINARY]    with an existing build (default build/dev/cli/flopscope)
#   scripts/gpu-check.sh --compile-only        only compile samples/gpu/known_work.cu with nvcc
#
# Exits 0 when every check passed, 1 when one failed. Python's standard library only (the device
# machine's python3 is the one with PyTorch; the checks find a python with torch for the samples).
set -euo pipefail
exec python3 "$(dirname "$0")/gpu_check.py" "$@"
