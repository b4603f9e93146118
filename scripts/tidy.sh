#!/usr/bin/env bash
# clang-tidy with the project's .clang-tidy over the project's own sources that do not include LibTorch
# (a LibTorch TU costs a minute and about 1 GB under clang-tidy), from the build's compile_commands.json.
#   scripts/tidy.sh                   every such source of build/dev (configure it first)
#   scripts/tidy.sh FILE...           only these sources
# BUILD_DIR picks another build folder, JOBS the parallel runs (default 2). Prints each finding once and
# exits 1 when there is any; about 10 CPU seconds a file.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build/dev}
[[ -f $build/compile_commands.json ]] || { echo "tidy: $build/compile_commands.json missing: configure first" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The sources to check: tracked files of the compile database, LibTorch and generated files left out.
python3 - "$build/compile_commands.json" "$work" "$@" <<'PY'
import json, os, sys
db, work, wanted = sys.argv[1], sys.argv[2], {os.path.abspath(f) for f in sys.argv[3:]}
root = os.getcwd() + os.sep
keep = [e for e in json.load(open(db))
        if e["file"].startswith(root) and not e["file"].startswith(os.path.abspath(os.path.dirname(db)))
        and "include/torch" not in e.get("command", " ".join(e.get("arguments", [])))
        and (not wanted or os.path.abspath(e["file"]) in wanted)]
json.dump(keep, open(os.path.join(work, "compile_commands.json"), "w"))
with open(os.path.join(work, "files"), "w") as f:
    f.writelines(e["file"] + "\n" for e in keep)
PY
count=$(wc -l <"$work/files")
echo "tidy: $count sources with ${JOBS:-2} jobs" >&2
xargs -a "$work/files" -P "${JOBS:-2}" -n 1 clang-tidy -p "$work" --quiet >"$work/out" 2>/dev/null || true
# Headers are reported once per source that includes them: one line per finding.
grep -E '^[^ ].*: (warning|error): ' "$work/out" | sed "s#^$PWD/##" | sort -u >"$work/findings" || true
cat "$work/findings"
n=$(wc -l <"$work/findings")
echo "tidy: $n findings in $count sources" >&2
((n == 0))
