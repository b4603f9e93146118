#!/usr/bin/env bash
# Runs every performance benchmark of issue #18 and prints one table (figure, target, measured, met, and the
# side-by-side anchor). Usage: tests/bench/run_all.sh [BUILD_DIR] [run_all.py options]; see run_all.py.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../../build/dev}"
shift || true
exec python3 "$here/run_all.py" --build "$build" "$@"
