#!/bin/sh
# `flopscope exec` and `flopscope metrics` at the command line, on a machine without a GPU.
# Usage: exec_cli_test.sh FLOPSCOPE_BINARY
set -u
bin=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ -e /dev/nvidia0 ]; then echo "a GPU is present: the no-GPU checks do not apply"; exit 0; fi

# No driver: one line, exit 2, nothing left behind.
"$bin" exec -o "$dir/x.db" -- true >"$dir/out" 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "exec without a GPU exited $rc, expected 2"
[ "$(wc -l <"$dir/err")" -eq 1 ] || fail "expected one error line, got: $(cat "$dir/err")"
grep -q "no NVIDIA driver" "$dir/err" || fail "no-GPU message missing: $(cat "$dir/err")"
[ -z "$(ls -A "$dir" | grep -v -e '^out$' -e '^err$')" ] || fail "files left behind: $(ls -A "$dir")"

# --help documents the options.
"$bin" exec --help >"$dir/help" 2>&1 || fail "exec --help failed"
for opt in --metrics --output --max-passes --force "python3 infer.py"; do
  grep -q -- "$opt" "$dir/help" || fail "exec --help does not mention $opt"
done

# Everything below loads CUPTI's host library (libnvperf_host, with RTLD_DEEPBIND) or injects our library into
# an uninstrumented program: neither can run under the asan preset's runtime, so it stops here there (the CUPTI
# host-library gtests skip under ASan for the same reason).
if [ -n "${FLOPSCOPE_SANITIZED:-}" ]; then
  echo "skipped under the sanitizers: metrics --chip and exec with the injection library"
  exit 0
fi

# The default set for GH100 and its pass count, offline.
"$bin" metrics --chip GH100 >"$dir/metrics" 2>&1 || fail "metrics --chip GH100 failed: $(cat "$dir/metrics")"
grep -q "chip GH100, metric set 'default': 16 metrics, 2 passes per kernel" "$dir/metrics" || fail "$(head -1 "$dir/metrics")"
grep -q "dram__bytes_read.sum" "$dir/metrics" || fail "dram__bytes_read.sum not listed"
"$bin" metrics --chip GH100 --metrics hardware | grep -q "1 pass per kernel" || fail "hardware set is not one pass"

# An unknown metric is named, exit 2.
"$bin" metrics --chip GH100 --metrics dram__bytes_read.sum,not_a_metric.sum >"$dir/out" 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "unknown metric exited $rc"
grep -q "unknown metric 'not_a_metric.sum'" "$dir/err" || fail "$(cat "$dir/err")"

# Without --chip and without a GPU: say what to pass.
"$bin" metrics >"$dir/out" 2>"$dir/err"; rc=$?
[ $rc -eq 2 ] || fail "metrics without GPU exited $rc"
grep -q -- "--chip" "$dir/err" || fail "$(cat "$dir/err")"
# A stand-in driver (one fake GPU; cuInit loads the injection library as the real driver does): the
# command runs, the injection library fails to attach CUPTI (no real driver), reports it through the
# status file, and exec turns that into one line and exit 2 with no database left behind.
src=$(dirname "$0")/fake_driver.c
if command -v cc >/dev/null; then
  mkdir "$dir/drv"
  cc -shared -fPIC -o "$dir/drv/libcuda.so.1" "$src" -ldl || fail "building the fake driver"
  cc -DFAKE_CUDA_PROGRAM -o "$dir/cuda_program" "$src" -ldl || fail "building the fake program"
  LD_LIBRARY_PATH="$dir/drv" "$bin" exec --metrics none -o "$dir/run.db" -- "$dir/cuda_program" >"$dir/out" 2>"$dir/err"; rc=$?
  [ $rc -eq 2 ] || fail "exec with a driver CUPTI cannot use exited $rc: $(cat "$dir/err")"
  grep -q "^flopscope: error: subscribing to CUPTI callbacks" "$dir/err" || fail "$(cat "$dir/err")"
  [ "$(wc -l <"$dir/err")" -eq 1 ] || fail "expected one error line, got: $(cat "$dir/err")"
  [ ! -e "$dir/run.db" ] || fail "database left behind"
  ls "$dir" | grep -q -e '\.status$' -e '\.claim$' && fail "status/claim files left behind: $(ls "$dir")"
  # A command that never initialises CUDA writes nothing: said so, exit 2.
  LD_LIBRARY_PATH="$dir/drv" "$bin" exec --metrics none -o "$dir/run.db" -- true >"$dir/out" 2>"$dir/err"; rc=$?
  [ $rc -eq 2 ] || fail "exec of a non-CUDA command exited $rc"
  grep -q "ran no CUDA code" "$dir/err" || fail "$(cat "$dir/err")"
  # A command that does not exist: exit 2.
  LD_LIBRARY_PATH="$dir/drv" "$bin" exec --metrics none -o "$dir/run.db" -- "$dir/no_such_program" >"$dir/out" 2>"$dir/err"; rc=$?
  [ $rc -eq 2 ] || fail "exec of a missing program exited $rc"
  grep -q "no_such_program" "$dir/err" || fail "$(cat "$dir/err")"
fi
echo "ok"
