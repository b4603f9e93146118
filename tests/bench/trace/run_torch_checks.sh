#!/usr/bin/env bash
# flopscope trace with another torch (e.g. torch 2.x from PyPI in a virtualenv; not run in CI):
#   1. the sonnet-mini checks of tests/cli/test_trace.py (paths, diff verdicts) with that Python;
#   2. the companion's overhead on a small-op model, beside plain torch.profiler with record_shapes.
# Usage: tests/bench/trace/run_torch_checks.sh PYTHON [FLOPSCOPE]
#   python3 -m venv /tmp/venv-t2 && /tmp/venv-t2/bin/pip install torch
#   tests/bench/trace/run_torch_checks.sh /tmp/venv-t2/bin/python build/dev/cli/flopscope
set -euo pipefail
py=${1:?usage: run_torch_checks.sh PYTHON [FLOPSCOPE]}
flopscope=${2:-build/dev/cli/flopscope}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "python: $py ($("$py" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "kineto", torch.autograd.kineto_available())'))"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"

echo "== sonnet-mini, eager"
for v in v1 v2 v2z; do
  "$flopscope" trace -o "$work/$v.db" -- "$py" "$src/samples/eager/run_sonnet_mini.py" --version "$v" --calls 3 >/dev/null
done
set +e
"$flopscope" diff "$work/v1.db" "$work/v2.db" --expect-vanished '*position_adaptive_bias*' >"$work/d1.txt" 2>&1
rc1=$?
"$flopscope" diff "$work/v1.db" "$work/v2z.db" --forbid-active '*position_adaptive_bias*' >"$work/d2.txt" 2>&1
rc2=$?
set -e
echo "diff v1 v2  --expect-vanished: exit $rc1 (want 0); $(grep -c VANISHED "$work/d1.txt") VANISHED lines, $(grep -c ERASED "$work/d1.txt") ERASED"
echo "diff v1 v2z --forbid-active:   exit $rc2 (want 1); $(grep -c 'DORMANT' "$work/d2.txt") DORMANT lines, $(grep -c ZEROED "$work/d2.txt") ZEROED"
paths=$(sqlite3 "$work/v1.db" "SELECT COUNT(*) FROM module WHERE path = 'layers.0.attn.position_adaptive_bias'")
echo "module path layers.0.attn.position_adaptive_bias present: $paths (want 1)"
want=$("$py" - "$src" <<'PY'
import importlib.util, sys, argparse
spec = importlib.util.spec_from_file_location("m", sys.argv[1] + "/samples/sonnet-mini/make_sonnet_mini.py")
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
ap = argparse.ArgumentParser(); m.add_model_arguments(ap)
print(len(list(m.build(ap.parse_args([]))["v1"].named_modules())))
PY
)
echo "modules in run: $(sqlite3 "$work/v1.db" 'SELECT COUNT(*) FROM module'), named_modules(): $want"

echo "== --meta: the same program on the meta device (torch >= 2; torch 1.13 refuses in one line)"
set +e
"$flopscope" trace --meta -o "$work/meta.db" --iterations 3 -- "$py" "$src/samples/eager/run_sonnet_mini.py" --version v1 --calls 3 >"$work/meta.out" 2>&1
rcm=$?
set -e
echo "exit $rcm (1: the sample ends with logits.sum().item(), which has no value on the meta device; 2: refused)"
grep '^flopscope' "$work/meta.out" || true
if [ -f "$work/meta.db" ]; then
  "$flopscope" report "$work/v1.db" --format json >"$work/r1.json"
  "$flopscope" report "$work/meta.db" --format json >"$work/rm.json"
  "$py" - "$work/r1.json" "$work/rm.json" <<'PY'
import json, sys
real = {m["path"]: m["inclusive"]["flops"] for m in json.load(open(sys.argv[1]))["modules"]}
meta = json.load(open(sys.argv[2]))
mf = {m["path"]: m["inclusive"]["flops"] for m in meta["modules"]}
worst = max(abs(mf.get(p, 0) - f) / max(f, 1) for p, f in real.items())
print("meta vs real run: %d modules, total FLOPs %.6g vs %.6g, largest per-module difference %.3g%%"
      % (len(real), mf.get("", 0), real.get("", 0), 100 * worst))
for q in meta.get("data_quality", []):
    if "value" in q.get("what", "") or "meta" in q.get("what", ""):
        print("data quality:", q.get("what"), "|", q.get("count"), "|", q.get("detail", "")[:200])
PY
fi

echo "== Hugging-Face-style model (tests/cli/trace_programs/hf_style.py)"
"$flopscope" trace -o "$work/hf.db" -- "$py" "$src/tests/cli/trace_programs/hf_style.py" "$work/hf.json" >/dev/null 2>&1
echo "linear calls per path: $(sqlite3 "$work/hf.db" "SELECT m.path || '=' || COUNT(*) FROM op o JOIN module m ON m.id = o.module_id WHERE o.name = 'aten::linear' AND m.path IN ('model.layers.0.shared', 'model.layers.1.shared', 'lm_head') GROUP BY m.path" | tr '\n' ' ')(want 3 each)"

echo "== torch.compile (backend aot_eager): a compiled block says so, and no op is dropped"
if "$py" -c 'import torch, sys; sys.exit(0 if hasattr(torch, "compile") else 1)'; then
  for m in eager compile; do
    "$flopscope" trace -o "$work/$m.db" --warmup 2 --iterations 3 -- "$py" "$src/tests/cli/trace_programs/compiled.py" "$m" 5 >/dev/null 2>&1 ||
      echo "trace of the $m program failed"
  done
  "$flopscope" report "$work/eager.db" --format json >"$work/re.json"
  "$flopscope" report "$work/compile.db" --format json >"$work/rc.json"
  "$py" - "$work/re.json" "$work/rc.json" <<'PY'
import json, sys
e, c = (json.load(open(p)) for p in sys.argv[1:3])
fl = lambda r: {m["path"]: m["inclusive"]["flops"] for m in r["modules"]}
fe, fc = fl(e), fl(c)
print("total FLOPs per iteration: eager %.6g, compiled %.6g (want equal)" % (fe.get("", 0), fc.get("", 0)))
print("block: eager %.6g, compiled %.6g; block.up: eager %.6g, compiled %.6g (its ops go to 'block')"
      % (fe.get("block", 0), fc.get("block", 0), fe.get("block.up", 0), fc.get("block.up", 0)))
notes = [q.get("detail", "") for q in c.get("data_quality", []) if "torch.compile" in q.get("detail", "")]
print("compiled-region note:", notes[0][:160] if notes else "MISSING")
PY
else
  echo "this torch has no torch.compile"
fi

rounds=${ROUNDS:-3}
echo "== overhead on 64 small blocks (ns per forward, median of 200; $rounds rounds, the three sides interleaved)"
median() { "$py" -c 'import json,sys; t=sorted(json.load(open(sys.argv[1]))); print(t[len(t)//2])' "$1"; }
ratios=()
for ((i = 1; i <= rounds; i++)); do
  "$py" "$here/small_ops.py" plain 200 "$work/plain.json"
  "$py" "$here/small_ops.py" profiler 200 "$work/profiler.json"
  "$flopscope" trace -o "$work/small.db" --force --iterations 1000 -- "$py" "$here/small_ops.py" traced 200 "$work/traced.json" >/dev/null 2>&1
  p=$(median "$work/plain.json"); q=$(median "$work/profiler.json"); r=$(median "$work/traced.json")
  ratios+=("$(awk "BEGIN{printf \"%.3f\", $r/$q}")")
  echo "round $i: plain $p  torch.profiler $q ($(awk "BEGIN{printf \"%.2f\", $q/$p}")x)  flopscope trace $r ($(awk "BEGIN{printf \"%.2f\", $r/$p}")x plain, ${ratios[-1]}x torch.profiler)"
done
echo "flopscope trace vs torch.profiler, median of $rounds rounds: $(printf '%s\n' "${ratios[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')x"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
