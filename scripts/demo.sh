#!/usr/bin/env bash
# The main job on the bundled sample models: install, build, generate sonnet-mini v1/v2/v2z, profile each
# on the CPU with 4096 tokens, and print the per-module report of v1.
# Outputs go to out/demo/ (override with FLOPSCOPE_DEMO_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh --target flopscope sample_models

bin=build/dev/cli/flopscope
models=build/dev/samples
out=${FLOPSCOPE_DEMO_DIR:-out/demo}
tokens=${FLOPSCOPE_DEMO_TOKENS:-4096}
iters=${FLOPSCOPE_DEMO_ITERS:-5}
mkdir -p "$out"

for v in v1 v2 v2z; do
  "$bin" profile "$models/sonnet-mini-$v.pt" --input "int64[1,$tokens]@0:512" --iters "$iters" --warmup 1 \
    -o "$out/$v.db" --force
done

echo
echo "== flopscope report $out/v1.db --depth 4"
"$bin" report "$out/v1.db" --depth 4
