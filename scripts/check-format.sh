#!/usr/bin/env bash
# Fails (exit 1) when a tracked C++ file differs from the project's .clang-format, naming each file; prints
# nothing and exits 0 when the tree is formatted. CLANG_FORMAT overrides the binary; `--fix` formats in place.
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
if [[ ${1:-} == --fix ]]; then
  git ls-files -z '*.cpp' '*.h' | xargs -0 -n 100 "$clang_format" -i
  exit 0
fi
total=$(git ls-files '*.cpp' '*.h' | wc -l)
# --dry-run reports every difference as FILE:LINE:COL: error: ...; one line per file is enough.
report=$(git ls-files -z '*.cpp' '*.h' | xargs -0 -n 100 "$clang_format" --dry-run --Werror 2>&1 || true)
mapfile -t bad < <(grep -oE '^[^:]+:[0-9]+:[0-9]+: error:' <<<"$report" | cut -d: -f1 | sort -u)
if ((${#bad[@]})); then
  printf 'not formatted: %s\n' "${bad[@]}" >&2
  echo "check-format: ${#bad[@]} of $total files differ from .clang-format (scripts/check-format.sh --fix)" >&2
  exit 1
fi
if grep -q . <<<"$report"; then  # clang-format failed without naming a difference (a missing binary, ...)
  echo "$report" >&2
  exit 1
fi
