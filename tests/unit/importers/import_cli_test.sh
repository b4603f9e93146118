#!/bin/sh
# `flopscope import` at the product boundary: real traces import with full attribution; each bad input
# is a one-line error naming the file, exit 2, and leaves no output behind.
# Usage: import_cli_test.sh FLOPSCOPE_BINARY SOURCE_DIR
set -u
bin=$1
data=$2/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Success: H100 BERT -> database; report shows 100% attribution.
out=$("$bin" --no-progress import "$data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz" -o "$tmp/bert.db")
[ $? -eq 0 ] || bad "import of the H100 trace failed"
echo "$out" | grep -q "attributed to a module 61/61" || bad "import summary: $out"
"$bin" report "$tmp/bert.db" > "$tmp/report.txt" || bad "report of the imported run failed"
grep -q "61 attributed to a module" "$tmp/report.txt" || bad "report lacks full attribution"
grep -q "BertModel.BertEncoder.BertLayer_3" "$tmp/report.txt" || bad "report lacks the module tree"
# The same trace reported directly (imported in memory).
"$bin" report "$data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz" > "$tmp/direct.txt" ||
  bad "report of the trace file failed"
grep -q "61 attributed to a module" "$tmp/direct.txt" || bad "direct report lacks attribution"
# Existing output without --force: exit 2; with --force: replaced.
"$bin" import "$data/ncu/leleucas__bert_torch_nsight.csv" -o "$tmp/bert.db" 2>/dev/null
[ $? -eq 2 ] || bad "existing output was not refused"
"$bin" import -q --force "$data/ncu/leleucas__bert_torch_nsight.csv" -o "$tmp/bert.db" || bad "--force failed"
# A run database is not imported again.
"$bin" import "$tmp/bert.db" -o "$tmp/again.db" 2>/dev/null
[ $? -eq 2 ] || bad "a run database was imported as a trace"

expect_error() {  # file fragment
  rm -f "$tmp/out.db"
  "$bin" import "$1" -o "$tmp/out.db" 2> "$tmp/err.txt" > /dev/null
  rc=$?
  [ $rc -eq 2 ] || bad "$1: exit $rc, expected 2"
  [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] || bad "$1: error is not one line: $(cat "$tmp/err.txt")"
  grep -q "$1" "$tmp/err.txt" || bad "$1: error does not name the file: $(cat "$tmp/err.txt")"
  grep -q "$2" "$tmp/err.txt" || bad "$1: error lacks '$2': $(cat "$tmp/err.txt")"
  [ -z "$(ls "$tmp" | grep -v -e '^bert.db$' -e '\.txt$' -e '^in\.')" ] || bad "$1: left files: $(ls "$tmp")"
}

head -c 30000 "$data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz" > "$tmp/in.trunc.json.gz"
expect_error "$tmp/in.trunc.json.gz" "truncated"
gzip -dc "$data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz" | head -c 300000 > "$tmp/in.trunc.json"
expect_error "$tmp/in.trunc.json" "truncated JSON"
printf '{"model": "bert", "layers": 12}' > "$tmp/in.config.json"
expect_error "$tmp/in.config.json" "not a trace"
if command -v sqlite3 > /dev/null; then
  sqlite3 "$tmp/in.other.sqlite" 'CREATE TABLE t(x);'
  expect_error "$tmp/in.other.sqlite" "not an Nsight Systems export"
fi
printf 'name,value\nfoo,1\n' > "$tmp/in.table.csv"
expect_error "$tmp/in.table.csv" "unknown columns"
expect_error "$tmp/in.missing.json" "no such file"
exit $fail
