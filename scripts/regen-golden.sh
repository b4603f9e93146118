#!/usr/bin/env bash
# Regenerates the golden report and diff outputs (tests/golden/expected/) with the built flopscope, after a
# change to what they print is intended: review `git diff tests/golden` and commit it with the change.
# FLOPSCOPE overrides the binary (default build/dev/cli/flopscope). The ctest golden_outputs compares.
set -euo pipefail
cd "$(dirname "$0")/.."
exec /usr/bin/env python3 tests/golden/golden.py --flopscope "${FLOPSCOPE:-build/dev/cli/flopscope}" --write
