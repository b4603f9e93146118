#!/usr/bin/env bash
# A short fuzz run (CI-optional): clang + libFuzzer targets for the Kineto, nsys and ncu importers, the run
# database reader and the weights readers, with ASan + UBSan and -fno-sanitize-recover=all (any report
# fails the run). Each target runs FUZZ_SECONDS (default 20) from its seeds. Needs clang (Debian clang).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-20}"
cmake -S . -B build/fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOPSCOPE_FUZZ=ON -DFLOPSCOPE_WITH_TORCH=OFF -DFLOPSCOPE_WITH_QT=OFF \
  -DFLOPSCOPE_WITH_CUPTI=OFF -DFLOPSCOPE_WITH_GRAPHVIZ=OFF -DFLOPSCOPE_BUILD_BENCHMARKS=OFF \
  -DFLOPSCOPE_FUZZ_SECONDS="$seconds" -DFLOPSCOPE_FUZZ_RUNS=-1
cmake --build build/fuzz -j "${JOBS:-2}" --target fuzz_kineto fuzz_nsys fuzz_ncu fuzz_rundb safetensors_fuzz \
  torch_archive_fuzz
ctest --test-dir build/fuzz -L fuzz --output-on-failure "$@"
