#!/usr/bin/env bash
# The test command: installs dependencies, builds everything, runs every test (GPU tests skip without a GPU).
# FLOPSCOPE_PRESET picks the CMake preset (default dev; .ci/run uses ci).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --preset "${FLOPSCOPE_PRESET:-dev}" -j2 "$@"
