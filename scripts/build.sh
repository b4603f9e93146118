#!/usr/bin/env bash
# Configures and builds with the given CMake preset (default: dev). Extra arguments go to `cmake --build`.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${FLOPSCOPE_PRESET:-dev}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" "$@"
