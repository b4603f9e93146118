#!/bin/sh
# --iteration-marker on every command that reads a trace's iterations (import, report, heatmap, diff, graph,
# flame, roofline, export): one option (cli/iteration_marker_option.h). On the hand-made five-pass trace
# (make_multipass_trace.py) the default rule finds 5 iterations (top-level module calls); a marker matching
# both layers' ops finds 10, and each command reports that count. A malformed expression is the same usage
# error everywhere (one line, exit 2, no output file); a marker on a run database is refused.
# Usage: iteration_marker_cli_test.sh FLOPSCOPE_BINARY SOURCE_DIR
set -u
bin=$1
trace=$2/tests/data/kineto/synthetic__multipass_modules.json
marker='^aten::(linear|relu)$'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# diff: each side's iterations, in the JSON report's runs.
for m in "" "$marker"; do
  if [ -z "$m" ]; then want=5; set --; else want=10; set -- --iteration-marker "$m"; fi
  "$bin" --no-progress diff "$trace" "$trace" "$@" --format json > "$tmp/d.json" || bad "diff $*: exit $?"
  got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["a"]["iterations"], d["b"]["iterations"])' "$tmp/d.json")
  [ "$got" = "$want $want" ] || bad "diff $*: iterations $got, want $want"
done

# flame, roofline, export: the "wrote" line says how many iterations the picture or file covers.
check_wrote() {  # NAME WANT COMMAND...
  name=$1 want=$2
  shift 2
  out=$("$bin" --no-progress "$@" 2>&1) || bad "$name $*: exit $?: $out"
  echo "$out" | grep -q "$want" || bad "$name: '$want' not in: $out"
}
check_wrote flame "(5 iterations)" flame "$trace" -o "$tmp/f.svg"
check_wrote flame "(10 iterations)" flame "$trace" -o "$tmp/f.svg" -f --iteration-marker "$marker"
check_wrote roofline "(5 iterations)" roofline "$trace" -o "$tmp/r.svg" --peak 1e12:1e11
check_wrote roofline "(10 iterations)" roofline "$trace" -o "$tmp/r.svg" -f --peak 1e12:1e11 \
  --iteration-marker "$marker"
check_wrote export ", 5 iterations" export "$trace" --chrome-trace "$tmp/e.json"
check_wrote export ", 10 iterations" export "$trace" --chrome-trace "$tmp/e.json" -f --iteration-marker "$marker"

# graph: an imported trace has no computation graph, but the marker reaches its import (one that matches
# nothing is the importer's error, naming the trace).
err=$("$bin" --no-progress graph "$trace" -o "$tmp/g.dot" --iteration-marker 'nothing' 2>&1)
[ $? -eq 2 ] || bad "graph: unmatched marker: exit not 2"
echo "$err" | grep -q "^flopscope: error: $trace: --iteration-marker 'nothing' matches no" ||
  bad "graph: the marker did not reach the import: $err"

# A malformed expression: one line, exit 2, nothing written, from every command.
"$bin" --no-progress import "$trace" -o "$tmp/m.db" >/dev/null || bad "import failed"
for cmd in "import $trace -o $tmp/out.db" "report $trace -o $tmp/out.txt" "heatmap $trace -o $tmp/out.csv" \
           "diff $trace $trace --json $tmp/out.json" "graph $trace -o $tmp/out.dot" \
           "flame $trace -o $tmp/out.svg" "roofline $trace -o $tmp/out.svg" \
           "export $trace --chrome-trace $tmp/out.json"; do
  # shellcheck disable=SC2086  # the words of $cmd are the arguments
  err=$("$bin" --no-progress $cmd --iteration-marker '(' 2>&1)
  code=$?
  [ $code -eq 2 ] || bad "$cmd: a malformed marker: exit $code"
  [ "$(echo "$err" | wc -l)" = 1 ] && echo "$err" | grep -q "^flopscope: error: --iteration-marker: '(' is not a regular expression" ||
    bad "$cmd: malformed marker message: $err"
  [ -z "$(ls "$tmp" | grep '^out\.')" ] || bad "$cmd: a malformed marker left an output"
  # A run database's iterations were found when it was imported: the marker is refused there.
  dbcmd=$(echo "$cmd" | sed "s|$trace|$tmp/m.db|g")
  case $cmd in import*) continue ;; esac
  # shellcheck disable=SC2086
  err=$("$bin" --no-progress $dbcmd --iteration-marker 'x' 2>&1)
  code=$?
  [ $code -eq 2 ] && echo "$err" | grep -q "iteration-marker applies to traces" ||
    bad "$dbcmd: a marker on a run database: exit $code: $err"
  [ -z "$(ls "$tmp" | grep '^out\.')" ] || bad "$dbcmd: a refused marker left an output"
done
exit $fail
