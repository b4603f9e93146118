#!/usr/bin/env bash
# Makes the virtualenv the `pypi` cases run in: torch 2.x, transformers and peft from PyPI (the default PyPI
# torch wheel pulls its CUDA libraries too, a few GB; the cases only use its CPU path), and Holistic Trace
# Analysis (`hta`), which cli_export_hta reads a source trace and its export with.
# Usage: scripts/make-pypi-venv.sh [DIR]     (default build/pypi-venv; the cases read FLOPSCOPE_PYPI_VENV)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${FLOPSCOPE_PYPI_VENV:-build/pypi-venv}}
py=${PYTHON:-python3}
"$py" -m venv "$dir"
"$dir/bin/pip" install --quiet --upgrade pip
"$dir/bin/pip" install --quiet 'torch>=2' transformers peft HolisticTraceAnalysis
"$dir/bin/python" -W ignore -c 'import torch, transformers, peft, hta
print("make-pypi-venv: torch", torch.__version__, "transformers", transformers.__version__, "peft", peft.__version__)'
echo "make-pypi-venv: $dir is $(du -sh "$dir" | cut -f1)"
