#!/usr/bin/env bash
# Benchmark (not a test): N self-diffs of sonnet-mini and of resnet18, each model profiled twice and diffed
# with --max-regression time=5%. A failure is spurious by construction (same model, same inputs, same
# threads and seed). Prints the failures, the time-only slower/faster module counts and the load average.
# With ROUNDS > 1 each self-diff is `diff M.pt M.pt --rounds ROUNDS`: the two sides profiled in alternating
# rounds, so that load drift during the pair lands on both sides. With ROUNDS = 1 time is not assessable
# across the two processes (tests/bench/noise/self_diff_processes.sh counts that): the gate must exit 2.
# Usage: self_diff_noise.sh FLOPSCOPE [N=20] [ITERS=20] [THREADS=1] [ROUNDS=1]
set -u
FLOPSCOPE=${1:?usage: self_diff_noise.sh FLOPSCOPE [N] [ITERS] [THREADS]}
N=${2:-20}
ITERS=${3:-20}
THREADS=${4:-1}
ROUNDS=${5:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
/usr/bin/python3 "$ROOT/samples/sonnet-mini/make_sonnet_mini.py" "$WORK" >/dev/null
/usr/bin/python3 - "$WORK/resnet18.pt" <<'PY'
import sys, torch, torchvision
torch.manual_seed(0)
m = torchvision.models.resnet18().eval()
torch.jit.save(torch.jit.script(m), sys.argv[1])
PY
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
total_fail=0
total=0
for model in sonnet-mini resnet18; do
  if [ "$model" = resnet18 ]; then pt="$WORK/resnet18.pt"; spec="float32[1,3,224,224]";
  else pt="$WORK/sonnet-mini-v1.pt"; spec="int64[1,128]@0:512"; fi
  fail=0
  timeonly=0
  for i in $(seq 1 "$N"); do
    if [ "$ROUNDS" -gt 1 ]; then
      "$FLOPSCOPE" --no-progress diff "$pt" "$pt" --input "$spec" --iters "$ITERS" --threads "$THREADS" \
        --rounds "$ROUNDS" --max-regression time=5% --format json >"$WORK/d.json" 2>/dev/null
      rc=$?
    else
      for side in a b; do
        "$FLOPSCOPE" profile "$pt" --input "$spec" --iters "$ITERS" --threads "$THREADS" -o "$WORK/$side.db" --force \
          >/dev/null 2>&1 || { echo "profile failed"; exit 2; }
      done
      # One profile a side is one process: the time gate is not assessable across processes (exit 2, by
      # design since the between-run test); the diff itself runs without it.
      "$FLOPSCOPE" diff "$WORK/a.db" "$WORK/b.db" --max-regression time=5% >/dev/null 2>&1
      [ $? = 2 ] || { echo "the time gate on one process a side did not exit 2"; exit 2; }
      "$FLOPSCOPE" diff "$WORK/a.db" "$WORK/b.db" --format json >"$WORK/d.json" 2>/dev/null
      rc=$?
    fi
    [ "$rc" = 1 ] && fail=$((fail + 1))
    [ "$rc" = 2 ] && { echo "diff error"; exit 2; }
    t=$(/usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['summary']; \
print(s['modules_time']['slower']+s['modules_time']['faster'], sum(v for k,v in s['modules'].items() if k!='UNCHANGED'))" "$WORK/d.json")
    timeonly=$((timeonly + ${t%% *}))
    [ "${t##* }" != 0 ] && echo "  $model #$i: non-UNCHANGED verdicts in a self-diff: ${t##* }"
  done
  echo "$model (rounds $ROUNDS): $fail/$N spurious time-gate failures; $timeonly module time changes (slower/faster) over $N self-diffs (no verdict changes by time alone: verdicts are structural)"
  total_fail=$((total_fail + fail))
  total=$((total + N))
done
echo "TOTAL: $total_fail/$total spurious failures (target 0)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
