#!/usr/bin/env bash
# GPU check for flopscope's CUDA collector (needs an NVIDIA GPU and driver; about 1-2 minutes).
#
# Builds samples/gpu/known_work.cu with nvcc, runs it uninstrumented, under `flopscope exec --metrics none`
# (tracing only) and under `flopscope exec` (default counters), then prints measured vs expected FLOPs
# and DRAM bytes per NVTX scope, the tracing overhead and the counter pass cost. Exits 1 when the FP32
# FMA FLOPs or the copy kernel's DRAM bytes are off by more than 2%, 2 on setup errors.
#
# Usage: scripts/gpu-check.sh [--compile-only] [FLOPSCOPE_BINARY]
#   default binary: build/dev/cli/flopscope;  ARCH=sm_90 to override nvcc's -arch (default: native)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
compile_only=0
if [[ "${1:-}" == "--compile-only" ]]; then compile_only=1; shift; fi
flopscope=${1:-$root/build/dev/cli/flopscope}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

die() { echo "gpu-check: $*" >&2; exit 2; }
[[ -x "$nvcc" ]] || die "nvcc not found at $nvcc (set NVCC=...)"

arch=${ARCH:-native}
if [[ $compile_only == 1 && $arch == native ]]; then arch=sm_90; fi
echo "== building samples/gpu/known_work.cu (nvcc -arch=$arch)"
"$nvcc" -O2 -std=c++17 -arch="$arch" -I/usr/local/cuda/include -o "$work/known_work" \
  "$root/samples/gpu/known_work.cu" -lcublas || die "nvcc failed"
if [[ $compile_only == 1 ]]; then echo "compile-only: built $work/known_work"; exit 0; fi

[[ -x "$flopscope" ]] || die "flopscope binary not found: $flopscope (build it: cmake --build build/dev --target flopscope flopscope_inject)"
command -v sqlite3 >/dev/null || die "sqlite3 (the command-line shell) is needed to read the run databases"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader || true

now() { date +%s.%N; }
run_timed() {  # label, command...
  local label=$1; shift
  local t0; t0=$(now)
  timeout 240 "$@" >"$work/$label.out" 2>"$work/$label.err" || { cat "$work/$label.err" >&2; die "$label run failed"; }
  echo "$(now) - $t0" | bc
}

echo "== uninstrumented"
t_plain=$(run_timed plain "$work/known_work")
echo "== tracing only (flopscope exec --metrics none)"
t_trace=$(run_timed trace "$flopscope" exec --metrics none -o "$work/trace.db" -- "$work/known_work")
echo "== counters (flopscope exec, default metric set)"
t_counters=$(run_timed counters "$flopscope" exec -o "$work/counters.db" -- "$work/known_work")

expected() { awk -v k="$1" '$1 == "expected" && $2 == k { print $3 }' "$work/plain.out"; }
exp_fma=$(expected fma_flops_fp32)
exp_gemm=$(expected gemm_flops)
exp_read=$(expected copy_bytes_read)
exp_write=$(expected copy_bytes_written)

q() { sqlite3 -batch -noheader "$1" "$2"; }
per_scope="SELECT m.path, COUNT(*), SUM(k.has_counters), SUM(k.flops_fp32), SUM(k.flops_fp16), SUM(k.tensor_ops),
                  SUM(k.dram_bytes_read), SUM(k.dram_bytes_written), SUM(k.duration_ns)
           FROM kernel k JOIN module m ON m.id = k.module_id WHERE k.kind = 'kernel' GROUP BY m.path ORDER BY m.path;"
echo
echo "== per scope (counters run): path | kernels | with counters | fp32 FLOPs | fp16 FLOPs | tensor ops | DRAM read | DRAM written | ns"
q "$work/counters.db" "$per_scope"
echo "== data quality (counters run)"
q "$work/counters.db" "SELECT what, count, severity, detail FROM quality;" || true
echo "== data quality (trace run)"
q "$work/trace.db" "SELECT what, count, severity, detail FROM quality;" || true

val() { q "$work/counters.db" "SELECT COALESCE(SUM(k.$2), 0) FROM kernel k JOIN module m ON m.id = k.module_id WHERE m.path = '$1' AND k.kind = 'kernel';"; }
fma=$(val fma flops_fp32)
gemm_tensor=$(val gemm tensor_ops)
gemm_read=$(val gemm dram_bytes_read)
copy_read=$(val copy dram_bytes_read)
copy_write=$(val copy dram_bytes_written)
trace_kernels=$(q "$work/trace.db" "SELECT COUNT(*) FROM kernel WHERE kind = 'kernel';")

status=0
check() {  # label measured expected
  local err; err=$(echo "scale=6; ($2 - $3) / $3 * 100" | bc -l)
  local abs=${err#-}
  local verdict=ok
  if (( $(echo "$abs > 2" | bc -l) )); then verdict=FAIL; status=1; fi
  printf "%-28s measured %-16.0f expected %-16.0f error %+.3f%%  %s\n" "$1" "$2" "$3" "$err" "$verdict"
}
echo
echo "== measured vs expected"
check "fma FP32 FLOPs" "$fma" "$exp_fma"
check "copy DRAM bytes read" "$copy_read" "$exp_read"
check "copy DRAM bytes written" "$copy_write" "$exp_write"
printf "%-28s measured %-16.0f 2*M*N*K  %-16.0f ratio %.4f  (calibration: what one tensor 'op' is)\n" \
  "gemm tensor ops" "$gemm_tensor" "$exp_gemm" "$(echo "$gemm_tensor / $exp_gemm" | bc -l)"
printf "%-28s measured %-16.0f (>= 2 * 4096^2 * 2 bytes of bf16 inputs = %d)\n" "gemm DRAM bytes read" "$gemm_read" $((2 * 4096 * 4096 * 2))
echo
echo "== cost"
printf "uninstrumented   %.2f s\n" "$t_plain"
printf "tracing only     %.2f s  (overhead %+.1f%%, %s kernels traced)\n" "$t_trace" \
  "$(echo "($t_trace - $t_plain) / $t_plain * 100" | bc -l)" "$trace_kernels"
printf "with counters    %.2f s  (counter pass cost %+.1f%% over uninstrumented)\n" "$t_counters" \
  "$(echo "($t_counters - $t_plain) / $t_plain * 100" | bc -l)"
[[ $status == 0 ]] && echo "gpu-check: PASS" || echo "gpu-check: FAIL (FMA FLOPs or bytes off by more than 2%)"
exit $status
