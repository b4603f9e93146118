#!/usr/bin/env bash
# Benchmark: self-diffs of runs recorded by separate processes. Each pair records one program twice, each
# time in a process of its own (TorchScript: `profile` of sonnet-mini v1; eager: `trace` of
# samples/eager/run_sonnet_mini.py), then diffs the two. Nothing differs but the process, so any
# end-to-end "significant" time change (time_status slower/faster), any module whose verdict is not
# UNCHANGED and any module called slower or faster is a false positive: the target is 0 of each.
# With REPEAT > 1 each side is recorded as REPEAT processes (`trace --repeat`; TorchScript pairs use
# `diff A.pt A.pt --rounds REPEAT`), so the time test is assessable; with 1 it must say not assessable.
# With OLD set (a flopscope binary of an earlier version), the same runs are also diffed by it: the
# runs are then recorded by OLD, whose run databases both versions read.
# FLOPSCOPE_SOURCE_DIR (environment): the source tree, when the script runs from a copy.
# KINDS (environment, default "torchscript eager") picks the kinds of runs. Threads are the defaults (one
# per core), as a user runs them: pinned to one thread, processes differ less.
# Usage: self_diff_processes.sh FLOPSCOPE [N=20] [ITERS=10] [REPEAT=1] [OLD]
set -u
FLOPSCOPE=${1:?usage: self_diff_processes.sh FLOPSCOPE [N] [ITERS] [REPEAT] [OLD]}
N=${2:-20}
ITERS=${3:-10}
REPEAT=${4:-1}
OLD=${5:-}
KINDS=${KINDS:-torchscript eager}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=${FLOPSCOPE_SOURCE_DIR:-$(cd "$HERE/../../.." && pwd)}
PYTHON=/usr/bin/python3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
RECORDER=${OLD:-$FLOPSCOPE}
DIFFERS="$FLOPSCOPE"
[ -n "$OLD" ] && DIFFERS="$FLOPSCOPE $OLD"
"$PYTHON" "$ROOT/samples/sonnet-mini/make_sonnet_mini.py" "$WORK" >/dev/null || { echo "cannot make sonnet-mini"; exit 2; }
PT="$WORK/sonnet-mini-v1.pt"
SPEC="int64[1,128]@0:512"
EAGER="$ROOT/samples/eager/run_sonnet_mini.py"

# Counts of one diff's JSON: end-to-end significant (0/1), not assessable (0/1), non-UNCHANGED verdicts,
# modules slower, modules faster.
counts() {
  "$PYTHON" - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
status = d["end_to_end"]["time_status"]
changed = sum(v for k, v in s["modules"].items() if k != "UNCHANGED")
print(int(status in ("slower", "faster")), int(status == "not_assessable"), changed, s["modules_time"]["slower"],
      s["modules_time"]["faster"])
PY
}

record() {  # KIND OUT
  if [ "$1" = torchscript ]; then
    "$RECORDER" --no-progress profile "$PT" --input "$SPEC" --iters "$ITERS" -o "$2" --force >/dev/null 2>&1
  elif [ "$REPEAT" -gt 1 ]; then
    "$RECORDER" trace --repeat "$REPEAT" --iterations "$ITERS" -o "$2" -f -- \
      "$PYTHON" "$EAGER" --calls "$ITERS" >/dev/null 2>&1
  else
    "$RECORDER" trace --iterations "$ITERS" -o "$2" -f -- "$PYTHON" "$EAGER" --calls "$ITERS" \
      >/dev/null 2>&1
  fi
}

declare -A sig na changed slower faster
tally() {  # KEY: adds the counts of $WORK/d.json to KEY's
  local s n c sl fa
  read -r s n c sl fa < <(counts "$WORK/d.json")
  sig[$1]=$(( ${sig[$1]:-0} + s )); na[$1]=$(( ${na[$1]:-0} + n )); changed[$1]=$(( ${changed[$1]:-0} + c ))
  slower[$1]=$(( ${slower[$1]:-0} + sl )); faster[$1]=$(( ${faster[$1]:-0} + fa ))
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in $KINDS; do
  for i in $(seq 1 "$N"); do
    if [ "$kind" = torchscript ] && [ "$REPEAT" -gt 1 ]; then
      # Alternating rounds, each round loads the model afresh in the diff's process.
      for bin in $DIFFERS; do
        "$bin" --no-progress diff "$PT" "$PT" --input "$SPEC" --iters $((ITERS * REPEAT)) \
          --rounds "$REPEAT" --format json >"$WORK/d.json" 2>/dev/null || { echo "diff failed ($bin)"; exit 2; }
        tally "$kind|$bin"
      done
      continue
    fi
    record "$kind" "$WORK/a.db" || { echo "recording failed ($kind)"; exit 2; }
    record "$kind" "$WORK/b.db" || { echo "recording failed ($kind)"; exit 2; }
    for bin in $DIFFERS; do
      "$bin" --no-progress diff "$WORK/a.db" "$WORK/b.db" --format json >"$WORK/d.json" 2>/dev/null ||
        { echo "diff failed ($bin)"; exit 2; }
      tally "$kind|$bin"
    done
  done
done
echo "self-diffs of runs from separate processes: $N per kind, $ITERS iterations, processes per side: $REPEAT"
printf '%-12s %-8s %5s %12s %15s %13s %15s %15s\n' kind binary runs significant "not assessable" "CHANGED mods" "slower mods" "faster mods"
total=0
for kind in $KINDS; do
  for bin in $DIFFERS; do
    key="$kind|$bin"
    label=new
    [ -n "$OLD" ] && [ "$bin" = "$OLD" ] && label=old
    printf '%-12s %-8s %5d %12d %15d %13d %15d %15d\n' "$kind" "$label" "$N" "${sig[$key]}" "${na[$key]}" \
      "${changed[$key]}" "${slower[$key]}" "${faster[$key]}"
    [ "$label" = new ] && total=$(( total + sig[$key] + changed[$key] + slower[$key] + faster[$key] ))
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "false positives of this build: $total (target 0)"
[ "$total" = 0 ]
