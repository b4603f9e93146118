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

# Nsight Compute: measured FLOPs and DRAM bytes in every format; the tensor-pipe counter as instructions;
# this CSV has only dram__bytes.sum, so no read/write split is claimed.
ncu=$data/ncu/leleucas__bert_torch_nsight.csv
"$bin" report "$ncu" > "$tmp/ncu.txt" || bad "report of the ncu CSV failed"
grep -q "measured (hardware counters, per iteration): .* DRAM traffic (read/write split not measured), .* tensor-pipe instructions (a count, not FLOPs)" "$tmp/ncu.txt" ||
  bad "ncu table lacks the measured line: $(grep measured "$tmp/ncu.txt")"
"$bin" report "$ncu" --format md > "$tmp/ncu.md.txt" || bad "md report of the ncu CSV failed"
grep -q "measured (hardware counters, per iteration)" "$tmp/ncu.md.txt" || bad "ncu Markdown lacks measured counters"
"$bin" report "$ncu" --format json --kernels > "$tmp/ncu.json.txt" || bad "json report of the ncu CSV failed"
if command -v python3 > /dev/null; then
  python3 - "$tmp/ncu.json.txt" << 'PY' || bad "ncu JSON: measured counters wrong"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["total"]
assert t["measured_flops"] > 0 and t["dram_bytes"] > 0, t
assert t["dram_bytes_read"] == 0 and t["dram_bytes_written"] == 0, t  # only the total was measured
assert t["tensor_pipe_instructions"] > 0, t
assert len(j["kernels"]) > 0 and sum(k["dram_bytes"] for k in j["kernels"]) == t["dram_bytes"], j["kernels"][0]
PY
fi
"$bin" report "$ncu" --format csv > "$tmp/ncu.csv.txt" || bad "csv report of the ncu CSV failed"
head -1 "$tmp/ncu.csv.txt" | grep -q "measured_flops,dram_bytes,dram_bytes_read,dram_bytes_written,tensor_pipe_instructions" ||
  bad "ncu CSV header: $(head -1 "$tmp/ncu.csv.txt")"
"$bin" report "$ncu" --format csv --kernels > "$tmp/ncu.kcsv.txt" || bad "csv --kernels of the ncu CSV failed"
[ "$(wc -l < "$tmp/ncu.kcsv.txt")" -gt 1 ] && head -1 "$tmp/ncu.kcsv.txt" | grep -q "^kernel,category,count" ||
  bad "ncu kernel CSV: $(head -2 "$tmp/ncu.kcsv.txt")"
"$bin" report "$ncu" --kernels > "$tmp/ncu.k.txt" || bad "--kernels of the ncu CSV failed"
grep -q "tensor inst" "$tmp/ncu.k.txt" || bad "kernel table lacks the tensor-pipe column"

# CUDA-graph replays: with the capture, every replayed kernel of the vLLM decode pair has an op.
exec=$data/kineto/tracelens__vllm_decode_full__graph_execution.json.gz
cap=$data/kineto/tracelens__vllm_decode_full__graph_capture_rank_0.slice.json.gz
out=$("$bin" --no-progress import "$exec" --graph-capture "$cap" -o "$tmp/graph.db")
[ $? -eq 0 ] || bad "import with --graph-capture failed"
echo "$out" | grep -q "425 kernels .* linked to an op 434/434" || bad "graph import summary: $out"
rm -f "$tmp/graph.db"
"$bin" report "$exec" --graph-capture "$cap" > "$tmp/graph.txt" || bad "report --graph-capture failed"
grep -q "\[info\] graph_replay_matched x421: kernels replayed from a CUDA graph, attributed to the op" "$tmp/graph.txt" ||
  bad "report lacks the replay attribution: $(grep -i graph "$tmp/graph.txt")"
"$bin" report "$exec" --graph-capture "$ncu" > /dev/null 2> "$tmp/err.txt"
[ $? -eq 2 ] && [ "$(wc -l < "$tmp/err.txt")" -eq 1 ] && grep -q "a graph capture must be a PyTorch profiler trace" "$tmp/err.txt" ||
  bad "a non-Kineto capture was not a one-line error: $(cat "$tmp/err.txt")"

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
