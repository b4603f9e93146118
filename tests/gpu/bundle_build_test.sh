#!/usr/bin/env bash
# CI check of the GPU device build without a GPU: makes the bundle (scripts/gpu-bundle.sh) in a temp folder,
# configures the gpu-device preset against it alone (the system's copies of those packages are ignored) and
# builds the injection library and the GPU test, which link every bundled library that the device needs at
# run time (SQLite, GoogleTest) besides CUPTI. The full CLI build is `scripts/gpu-check.sh --device --dry-run`.
set -euo pipefail
src=$(cd "${1:?usage: bundle_build_test.sh SOURCE_DIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$src/scripts/gpu-bundle.sh" "$tmp/bundle"
cd "$src"
cmake --preset gpu-device -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/bundle/prefix/usr" >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; exit 1; }
grep -q -- "CUPTI: yes" "$tmp/configure.log" || { cat "$tmp/configure.log"; echo "configured without CUPTI"; exit 1; }
for var in SQLite3_INCLUDE_DIR fmt_DIR CLI11_DIR nlohmann_json_DIR simdjson_DIR ZLIB_INCLUDE_DIR GTest_DIR; do
  value=$(sed -n "s/^$var:[A-Z]*=//p" "$tmp/build/CMakeCache.txt")
  [[ "$value" == "$tmp/bundle/prefix/"* ]] || { echo "$var is not from the bundle: '$value'"; exit 1; }
  echo "$var = $value"
done
cmake --build "$tmp/build" -j2 --target flopscope_inject gpu_session_test
# Runs (and skips without a GPU): its libraries resolve from the bundle.
"$tmp/build/tests/gpu/gpu_session_test"
ldd "$tmp/build/cli/libflopscope_inject.so" | grep -E "sqlite3|cupti"
echo "bundle build: PASS"
