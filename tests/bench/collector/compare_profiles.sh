#!/usr/bin/env bash
# Golden comparison of two flopscope builds' collectors (not a test: it needs two builds): profiles each
# model with both, then compares everything recorded per op except its timing (names, order, threads,
# modules, parents, depths, shapes, dtypes, scalar arguments, FLOPs, MACs, bytes, FLOPs sources and notes),
# the module table, and `report --format json` with its time fields removed (and top_ops, the 15 ops that
# took the most time). Prints one line per model.
#
# usage: compare_profiles.sh FLOPSCOPE_A FLOPSCOPE_B WORKDIR MODEL.pt SPEC [MODEL.pt SPEC ...]
set -euo pipefail
a=$1 b=$2 work=$3
shift 3
mkdir -p "$work"
status=0
strip_times='
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if k != "top_ops" and not any(w in k for w in ("time", "_ns", "_ms", "_us", "latency", "created", "wall", "share",
                                               "throughput", "per_s", "intensity", "bound"))}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
'
while [ $# -ge 2 ]; do
  model=$1 spec=$2
  shift 2
  name=$(basename "$model" .pt)
  for side in a b; do
    exe=${!side}
    db="$work/$name.$side.db"
    "$exe" profile "$model" --input "$spec" --iters 3 --warmup 1 --threads 1 --seed 0 -o "$db" --force >/dev/null 2>&1
    sqlite3 "$db" "SELECT id, iteration, sequence, name, thread, module_id, parent_op_id, depth, input_dims,
                   input_types, concrete_inputs, flops, macs, bytes_read, bytes_written, flops_source, flops_note
                   FROM op ORDER BY id" > "$work/$name.$side.ops"
    sqlite3 "$db" "SELECT * FROM module ORDER BY id" > "$work/$name.$side.modules"
    "$exe" report "$db" --format json > "$work/$name.$side.report.json"
    python3 -c "$strip_times" "$work/$name.$side.report.json" > "$work/$name.$side.report.notime.json"
  done
  ops=$(wc -l < "$work/$name.a.ops")
  same=yes
  for f in ops modules report.notime.json; do
    cmp -s "$work/$name.a.$f" "$work/$name.b.$f" || { same="NO ($f differs)"; status=1; }
  done
  echo "$name ($spec): $ops op rows; identical: $same; sha256 of op rows $(sha256sum < "$work/$name.a.ops" | cut -c1-16)"
done
exit $status
