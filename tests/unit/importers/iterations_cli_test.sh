#!/bin/sh
# Iterations of a trace at the product boundary: the hand-made five-pass trace (make_multipass_trace.py)
# imports as five iterations found from the top-level module calls, `report` says so and prints one
# per-iteration row each (busy + idle = span), and `heatmap` has one column per iteration; --iteration-marker
# overrides, and a bad marker is a one-line error, exit 2, no output left.
# Usage: iterations_cli_test.sh FLOPSCOPE_BINARY SOURCE_DIR
set -u
bin=$1
trace=$2/tests/data/kineto/synthetic__multipass_modules.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$bin" --no-progress import "$trace" -o "$tmp/m.db" >/dev/null || bad "import failed"
"$bin" report "$tmp/m.db" > "$tmp/report.txt" || bad "report failed"
grep -q "^iterations 5 measured, from repeated top-level module calls ('TinyNet_0')" "$tmp/report.txt" ||
  bad "report header: $(grep '^iterations' "$tmp/report.txt")"
rows=$(awk '/^per iteration/ {on=1; next} on && /^ +[0-9]+ / {n++} /^summary/ {on=0} END {print n+0}' "$tmp/report.txt")
[ "$rows" = 5 ] || bad "per-iteration rows: $rows"
grep -q "^ *3 *120 µs *50 µs *70 µs *58.3% .*host-bound" "$tmp/report.txt" || bad "iteration 3 row"
grep -q "^summary *device idle P50 16.7% of the iteration span, worst 58.3% (iteration 3)" "$tmp/report.txt" ||
  bad "summary line"
# The same numbers from the trace read directly, and in JSON: busy + idle = span for every iteration.
"$bin" report "$trace" --format json -o "$tmp/r.json" || bad "json report failed"
python3 - "$tmp/r.json" <<'PY' || bad "json iteration_activity"
import json, sys
r = json.load(open(sys.argv[1]))
a = r["iteration_activity"]
assert r["run"]["iterations_from"] == "repeated top-level module calls ('TinyNet_0')", r["run"]
assert len(a["iterations"]) == 5 and a["host_bound"] == 1, a
assert all(i["busy_ns"] + i["idle_ns"] == i["span_ns"] for i in a["iterations"]), a
PY
# Heatmap: one column per iteration.
"$bin" heatmap "$tmp/m.db" -o "$tmp/h.csv" >/dev/null || bad "heatmap failed"
head -1 "$tmp/h.csv" | grep -q "^module,clock,iter_0,iter_1,iter_2,iter_3,iter_4$" || bad "heatmap columns: $(head -1 "$tmp/h.csv")"
# A marker overrides the rule; one that matches nothing is an error naming the file, and writes nothing.
"$bin" report "$trace" --iteration-marker '^aten::relu$' | grep -q "^iterations 5 measured, from --iteration-marker '^aten::relu\$'" ||
  bad "marker rule not reported"
err=$("$bin" --no-progress import "$trace" --iteration-marker 'nothing' -o "$tmp/x.db" 2>&1)
[ $? -eq 2 ] || bad "unmatched marker: exit not 2"
[ "$(echo "$err" | wc -l)" = 1 ] && echo "$err" | grep -q "^flopscope: error: $trace: --iteration-marker 'nothing' matches no" ||
  bad "unmatched marker message: $err"
[ ! -e "$tmp/x.db" ] || bad "unmatched marker left an output"
"$bin" report "$tmp/m.db" --iteration-marker 'x' >/dev/null 2>&1
[ $? -eq 2 ] || bad "a marker on a run database is not refused"
exit $fail
