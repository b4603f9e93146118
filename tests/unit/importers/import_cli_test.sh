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
# import states the attribution by the rule report reads back (the summary facts it writes): a module
# other than the root, so the two counts agree on a trace where some kernels have none.
qwen="$data/kineto/tracelens__sglang_Qwen3-8B_prefilldecode.json.gz"
if [ -f "$qwen" ]; then
  n=$("$bin" --no-progress import "$qwen" -o "$tmp/qwen.db" | sed -n 's/.*attributed to a module \([0-9]*\)\/.*/\1/p')
  m=$("$bin" report "$tmp/qwen.db" | sed -n 's/.*, \([0-9]*\) attributed to a module;.*/\1/p')
  [ -n "$n" ] && [ "$n" = "$m" ] || bad "import says $n kernels attributed to a module, report $m"
  rm -f "$tmp/qwen.db"
fi
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
grep -q "measured (hardware counters, per iteration): .* DRAM traffic (total only: read/write split not measured), .* tensor-pipe instructions (a count, not FLOPs)" "$tmp/ncu.txt" ||
  bad "ncu table lacks the measured line: $(grep measured "$tmp/ncu.txt")"
"$bin" report "$ncu" --format md > "$tmp/ncu.md.txt" || bad "md report of the ncu CSV failed"
grep -q "measured (hardware counters, per iteration)" "$tmp/ncu.md.txt" || bad "ncu Markdown lacks measured counters"
# The CSV's own arithmetic (Python over its rows): sum of add + mul + 2 x fma = 69,441,296; dram__bytes.sum
# 2,406,400 B. With no ops to count, the total line is the measured work.
grep -q "^total      no ops to count; measured 69.4 MFLOPs, 2.41 MB DRAM traffic; device time per iteration" "$tmp/ncu.txt" ||
  bad "ncu total line: $(grep ^total "$tmp/ncu.txt")"
grep -q "Total per iteration: \*\*69.4 MFLOPs measured\*\*, 2.41 MB moved" "$tmp/ncu.md.txt" ||
  bad "ncu Markdown total: $(sed -n 3p "$tmp/ncu.md.txt")"
"$bin" report "$ncu" --format json --kernels > "$tmp/ncu.json.txt" || bad "json report of the ncu CSV failed"
if command -v python3 > /dev/null; then
  python3 - "$tmp/ncu.json.txt" << 'PY' || bad "ncu JSON: measured counters wrong"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["total"]
assert t["measured_flops"] == 69441296 and t["dram_bytes"] == 2406400, t
assert t["measured_tensor_flops"] is None, t  # no device named in this CSV: the count stays instructions
assert t["dram_bytes_read"] is None and t["dram_bytes_written"] is None, t  # only the total was measured
assert all(k["dram_bytes_read"] is None for k in j["kernels"] if k["dram_bytes"] > 0), j["kernels"]
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
# diff of two counter runs: the measured work, not "FLOPs 0 -> 0", in the text, the sentence and the JSON.
ncu_diff=$(mktemp -d)
"$bin" --no-progress diff "$ncu" "$ncu" --json "$ncu_diff/d.json" > "$ncu_diff/d.txt" || bad "diff of the ncu CSV failed"
grep -q "^End to end: .*measured FLOPs 69.4 MFLOPs -> 69.4 MFLOPs (+0.0%); measured DRAM 2.41 MB -> 2.41 MB (+0.0%)" "$ncu_diff/d.txt" ||
  bad "ncu diff lacks the measured totals: $(grep '^End to end' "$ncu_diff/d.txt")"
if command -v python3 > /dev/null; then
  python3 - "$ncu_diff/d.json" << 'PY' || bad "ncu diff JSON: measured totals wrong"
import json, sys
j = json.load(open(sys.argv[1]))
e = j["end_to_end"]
assert e["measured_flops"]["a"] == 69441296 and e["measured_flops"]["b"] == 69441296, e
assert e["dram_bytes"]["a"] == 2406400 and e["dram_bytes"]["b"] == 2406400, e
assert "measured FLOPs unchanged, DRAM unchanged" in j["summary"]["sentence"], j["summary"]["sentence"]
PY
fi
rm -rf "$ncu_diff"
"$bin" report "$ncu" --kernels > "$tmp/ncu.k.txt" || bad "--kernels of the ncu CSV failed"
grep -q "tensor inst" "$tmp/ncu.k.txt" || bad "kernel table lacks the tensor-pipe column"
grep -q "^ampere_sgemm_32x32_sliced1x4_tn .* 1.21 M *total only " "$tmp/ncu.k.txt" ||
  bad "kernel table does not say the DRAM split is unknown: $(grep ampere_sgemm_32x32 "$tmp/ncu.k.txt")"

# The read/write split where the CSV has it; a total-only kernel beside it leaves the aggregate split unknown.
split=$tmp/in.split.csv
printf '%s\n' '"ID","Kernel Name","Stream","gpu__time_duration.sum","dram__bytes_read.sum","dram__bytes_write.sum","dram__bytes.sum"' \
  '"","","","nsecond","byte","byte","byte"' \
  '"0","gemm","7","1000","3,000","1,000",""' \
  '"1","relu","7","500","200","56",""' > "$split"
"$bin" report "$split" > "$tmp/split.txt" || bad "report of the split CSV failed"
grep -q "4.26 kB DRAM traffic (read 3.2 kB, written 1.06 kB)" "$tmp/split.txt" ||
  bad "split CSV: $(grep measured "$tmp/split.txt")"
"$bin" report "$split" --kernels > "$tmp/split.k.txt" || bad "--kernels of the split CSV failed"
grep -q "^gemm .* 3 k/1 k " "$tmp/split.k.txt" || bad "split kernel row: $(grep ^gemm "$tmp/split.k.txt")"
printf '%s\n' '"2","copy","7","100","","","512"' >> "$split"
"$bin" report "$split" > "$tmp/mixed.txt" || bad "report of the mixed CSV failed"
grep -q "4.77 kB DRAM traffic (read/write split not measured for 512 B of it; the rest read 3.2 kB, written 1.06 kB)" "$tmp/mixed.txt" ||
  bad "mixed CSV: $(grep measured "$tmp/mixed.txt")"
if command -v python3 > /dev/null; then
  "$bin" report "$split" --format json --kernels > "$tmp/mixed.json.txt" || bad "json of the mixed CSV failed"
  python3 - "$tmp/mixed.json.txt" << 'PY' || bad "mixed CSV JSON: split wrong"
import json, sys
j = json.load(open(sys.argv[1]))
t = j["total"]
assert t["dram_bytes"] == 4768 and t["dram_bytes_read"] is None and t["dram_bytes_written"] is None, t
k = {r["name"]: r for r in j["kernels"]}
assert (k["gemm"]["dram_bytes_read"], k["gemm"]["dram_bytes_written"]) == (3000, 1000), k["gemm"]
assert k["copy"]["dram_bytes"] == 512 and k["copy"]["dram_bytes_read"] is None, k["copy"]
PY
fi

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
# Without the capture the replays belong to the graph launch, an op of its own, and the report says so.
"$bin" report "$exec" > "$tmp/alone.txt" || bad "report of the execution trace alone failed"
grep -q "kernel attribution: 434 kernels (421 replayed from a CUDA graph), 434 linked to an op" "$tmp/alone.txt" ||
  bad "alone: $(grep "kernel attribution" "$tmp/alone.txt")"
grep -q "\[info\] graph_replay_at_launch x421: kernels replayed from a CUDA graph without a capture trace" "$tmp/alone.txt" ||
  bad "alone lacks the replay row: $(grep -i graph "$tmp/alone.txt")"
grep -q "^hipGraphLaunch  *(model)  *1.0  *unknown .* 10.4 ms  *unknown  *unknown  *-$" "$tmp/alone.txt" || bad "alone: top ops row: $(grep ^hipGraphLaunch "$tmp/alone.txt")"
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
