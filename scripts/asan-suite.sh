#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (the asan preset: Debug, no
# recovery after a report). Leak reports from third-party libraries are suppressed by
# tests/sanitizers/lsan.supp (each entry says why); the test preset sets the sanitizer options. For CI:
# slow (a cold build is ~1 h on 2 cores), run it nightly or on a label. Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="${JOBS:-2}"
cmake --preset asan
cmake --build --preset asan -j "$jobs"
ctest --preset asan -j "$jobs" "$@"
