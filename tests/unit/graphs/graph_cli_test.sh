#!/usr/bin/env bash
# `flopscope graph` at the product boundary: outputs a reviewer opens, and bad input that must fail with
# one clear line, exit code 2 and no file left behind.
# Usage: graph_cli_test.sh FLOPSCOPE SAMPLES_DIR WORK_DIR
set -u
FS=$(realpath "$1")
SAMPLES=$2
WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
V1=$SAMPLES/sonnet-mini-v1.pt
V2=$SAMPLES/sonnet-mini-v2.pt
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_error NAME PATTERN OUTPUT -- ARGS...: exit 2, one stderr line matching PATTERN, OUTPUT absent,
# no temporary file left.
expect_error() {
  local name=$1 pattern=$2 out=$3
  shift 4
  "$FS" --no-progress graph "$@" >stdout.txt 2>stderr.txt
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2"
  [ "$(wc -l <stderr.txt)" -eq 1 ] || fail "$name: expected one line on stderr, got: $(cat stderr.txt)"
  grep -q -- "$pattern" stderr.txt || fail "$name: stderr lacks '$pattern': $(cat stderr.txt)"
  [ -e "$out" ] && fail "$name: $out was written"
  ls -A | grep -q '\.tmp-' && fail "$name: temporary file left: $(ls -A)"
  rm -f stdout.txt stderr.txt
}

echo "not a model" >bad.pt
expect_error "not TorchScript" "bad.pt: not a TorchScript model" out.svg -- bad.pt -o out.svg
expect_error "missing input" "missing.pt: no such file" out.svg -- missing.pt -o out.svg
expect_error "unknown extension" "out.jpeg: unknown output format '.jpeg'" out.jpeg -- "$V1" -o out.jpeg
expect_error "missing directory" "nodir/out.svg" nodir/out.svg -- "$V1" -o nodir/out.svg
touch afile
expect_error "directory is a file" "afile/out.svg" afile/out.svg -- "$V1" -o afile/out.svg
expect_error "bad depth" "--depth zero" out.svg -- "$V1" --depth zero -o out.svg
expect_error "bad diff input" "bad.pt: not a TorchScript model" out.svg -- "$V1" --diff bad.pt -o out.svg

# An existing output is kept unless --force.
echo keep >exists.svg
"$FS" --no-progress graph "$V1" -o exists.svg 2>stderr.txt
[ $? -eq 2 ] || fail "existing output: expected exit 2"
[ "$(cat exists.svg)" = keep ] || fail "existing output was overwritten without --force"

# DOT is deterministic: two runs, same bytes.
"$FS" --no-progress graph "$V1" -o a.dot >/dev/null || fail "dot a"
"$FS" --no-progress graph "$V1" -o b.dot >/dev/null || fail "dot b"
cmp -s a.dot b.dot || fail "DOT differs between two runs"

# PDF: one page.
"$FS" --no-progress graph "$V1" -o g.pdf >/dev/null || fail "pdf"
head -c 4 g.pdf | grep -q '%PDF' || fail "g.pdf does not start with %PDF"
pdfinfo g.pdf | grep -Eq '^Pages: +1$' || fail "pdfinfo does not read one page"

# PNG and a diff SVG with the vanished bias drawn red and dashed.
"$FS" --no-progress graph "$V1" -o g.png >/dev/null || fail "png"
head -c 8 g.png | od -c | grep -q 'P   N   G' || fail "g.png is not a PNG"
"$FS" --no-progress graph "$V1" --diff "$V2" -o d.svg >stdout.txt || fail "diff svg"
grep -q "nodes differ" stdout.txt || fail "diff summary line: $(cat stdout.txt)"
grep -q 'stroke="#d62728" stroke-dasharray' d.svg || fail "no red dashed node in the diff"

# A run database without graph rows: the graph comes back from the run's source model (as in the GUI);
# without that model, the error says so.
if "$FS" --no-progress profile "$V1" --input 'int64[1,16]@0:512' --iters 1 --warmup 0 -o run.db >/dev/null 2>&1; then
  sqlite3 run.db "DELETE FROM graph_edge; DELETE FROM graph_node;" || fail "sqlite3"
  "$FS" --no-progress graph run.db -o regraphed.svg >/dev/null 2>&1 || fail "graph of a run re-extracted from its model"
  grep -q 'class="cluster"' regraphed.svg || fail "re-extracted graph has no module clusters"
  sqlite3 run.db "UPDATE run SET source_path='/nonexistent/gone.pt';" || fail "sqlite3"
  expect_error "run without graph" "run.db: this run has no computation graph" out.svg -- run.db -o out.svg
else
  fail "profile for the run-database case"
fi

# Two runs: the diff engine's DORMANT verdicts (zeroed weights, ops still run) are marked on the CLI's
# graph as in the GUI; two model files have no run to judge, so nothing is marked.
V2Z=$SAMPLES/sonnet-mini-v2z.pt
if "$FS" --no-progress profile "$V1" --input 'int64[1,16]@0:512' --iters 2 --warmup 0 -o a.db >/dev/null 2>&1 &&
  "$FS" --no-progress profile "$V2Z" --input 'int64[1,16]@0:512' --iters 2 --warmup 0 -o z.db >/dev/null 2>&1; then
  "$FS" --no-progress graph a.db --diff z.db -o dz.dot >stdout.txt || fail "graph --diff of two runs"
  grep -q "DORMANT modules" stdout.txt || fail "no DORMANT count in: $(cat stdout.txt)"
  grep -q 'color="#8d4e00"' dz.dot || fail "no dotted DORMANT frame in the DOT"
  grep -q "DORMANT (ops run, result unused)" dz.dot || fail "no DORMANT legend row in the DOT"
  "$FS" --no-progress graph "$V1" --diff "$V2Z" -o mz.dot >stdout.txt || fail "graph --diff of two models"
  grep -q "DORMANT" stdout.txt mz.dot && fail "two model files marked DORMANT"
else
  fail "profile for the DORMANT case"
fi

[ $failures -eq 0 ] && echo "all graph CLI checks passed"
exit $((failures > 0))
