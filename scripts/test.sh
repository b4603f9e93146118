#!/usr/bin/env bash
# The test command: installs dependencies, builds everything, runs every test (GPU tests skip without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --preset dev -j2 "$@"
