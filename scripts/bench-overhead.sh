#!/usr/bin/env bash
# Collector overhead on the sample transformer and on a conv model (torchvision resnet18, random weights).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --target bench_collector_overhead sample_models
dir=build/dev/bench-models
mkdir -p "$dir"
[[ -f $dir/resnet18.pt ]] || /usr/bin/python3 - "$dir/resnet18.pt" <<'PY'
import sys, torch, torchvision
m = torchvision.models.resnet18(weights=None).eval()
torch.jit.script(m).save(sys.argv[1])
PY
bench=build/dev/tests/bench/collector/bench_collector_overhead
"$bench" build/dev/samples/sonnet-mini-v1.pt 'int64[1,1024]@0:512' "${ROUNDS:-5}" "${ITERS:-5}"
"$bench" "$dir/resnet18.pt" 'float32[1,3,224,224]' "${ROUNDS:-5}" "${ITERS:-5}"
