#!/usr/bin/env bash
# One hostile-input case: hostile.sh CASE FLOPSCOPE WORKDIR. Each case asserts the exit code, a one-line
# `flopscope: error: ...` message where one is due, that no output (or temporary) file is left behind, and
# runs flopscope under a 30 s timeout and a 4 GiB address-space limit (`ulimit -v`; skipped in ASan builds,
# whose shadow memory needs far more address space). Inputs come from make_inputs.py at test time.
set -u
name=$1
bin=$2
work=$3/$name
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
python3 "$here/make_inputs.py" in || exit 1

source "$here/hostile_lib.sh"
sql() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }
good_db() { run import in/good.json -o good.db -q; expect_ok; }
# FILE has three kernels, two with a bad device id or name: both refused in one row, one kernel kept.
two_of_three_refused() {
  run report "$1" --format json -o r.json; expect_ok
  python3 - r.json <<'PY' || fail "the bad device id or the NUL name was kept"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [q for q in doc["data_quality"] if q["code"] == "malformed_trace_events"]
assert rows and rows[0]["count"] == 2, doc["data_quality"]
assert doc["attribution"]["kernels"] == 1, doc["attribution"]
assert "-" not in json.dumps(doc.get("devices", "")), doc.get("devices")
PY
}
needs_profile() { "$bin" profile --help >/dev/null 2>&1 || { echo "no profile command in this build"; exit 77; }; }

case $name in
  fifo_input)
    mkfifo pipe.json
    for cmd in "report pipe.json" "import pipe.json -o o.db" "diff pipe.json pipe.json" "weights pipe.json"; do
      run $cmd
      expect_error 2 "FIFO"
    done
    no_output o.db ;;
  device_input)
    run report /dev/zero; expect_error 2 "is a device"
    run import /dev/zero -o o.db; expect_error 2 "is a device"
    no_output o.db ;;
  directory_input)
    mkdir d.json
    run report d.json; expect_error 2 "directory"
    run import d.json -o o.db; expect_error 2 "directory"
    no_output o.db ;;
  recursive_view)
    # A view that never ends where a table should be: refused by the table check, at once.
    good_db
    sql good.db "DROP TABLE op; CREATE VIEW op AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS id FROM r;"
    run report good.db; expect_error 2 "is a view, not a table"
    run diff good.db good.db; expect_error 2 "is a view, not a table" ;;
  view_as_table)
    # An Nsight Systems export (not a run database) whose table is a recursive view: the query time
    # limit stops it.
    sql nsys.sqlite "CREATE TABLE StringIds (id INTEGER, value TEXT); CREATE TABLE NVTX_EVENTS (start INTEGER, \"end\" INTEGER, text TEXT);
      CREATE VIEW TARGET_INFO_GPU AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n AS name FROM r;"
    export FLOPSCOPE_QUERY_TIME_LIMIT_S=2
    run import nsys.sqlite -o o.db; expect_error 2 "query took longer than 2 s"
    no_output o.db ;;
  missing_column)
    good_db
    sql good.db "ALTER TABLE kernel RENAME TO kernel_old; CREATE TABLE kernel (id INTEGER PRIMARY KEY);"
    run report good.db; expect_error 2 "table kernel has no column" ;;
  damaged_summary_facts)
    # Stored summary facts (schema 010) that name a module the run lacks, an iteration past the run's, or
    # hold a cut per-iteration blob: refused as damaged, never half used.
    good_db
    cp good.db a.db; sql a.db "UPDATE summary_module SET module_id = 424242 WHERE rowid = 1;"
    run report a.db; expect_error 2 "summary_module: module 424242"
    cp good.db b.db; sql b.db "UPDATE summary_module SET host_ns = x'ffffffff0000000000000000' WHERE rowid = 1;"
    run report b.db; expect_error 2 "iteration index"
    cp good.db c.db; sql c.db "UPDATE summary_module SET device_ns = x'0102' WHERE rowid = 1;"
    run report c.db -o r.out; expect_error 2 "not a multiple of 12"
    no_output r.out ;;
  incomplete_run)
    # What a killed writer leaves: no completeness marker.
    good_db
    sql good.db "DELETE FROM run_complete;"
    cp good.db killed.db.tmp-AbC123
    run report killed.db.tmp-AbC123; expect_error 2 "incomplete run database" ;;
  map_long_path)
    run import in/long_path.json -o long.db -q; expect_ok
    run diff long.db long.db --map '(.*)=$1'; expect_ok ;;
  md_injection)
    good_db
    run import in/md_inject.json -o evil.db -q; expect_ok
    run diff good.db evil.db --md r.md --forbid-active '*'
    [ "$rc" -eq 1 ] || fail "exit $rc, expected 1 (a failed gate)"
    python3 - r.md <<'PY' || fail "Markdown injection"
import re, sys
text = open(sys.argv[1]).read()
plain = re.sub(r"(`+)(?:(?!\1).)+?\1", "", text)  # code spans show their text literally
headings = [l for l in text.splitlines() if l.startswith("#")]
assert "### Gates: FAILED" in headings and not any("all passed" in h for h in headings), headings
assert "![" not in plain and "](http" not in plain, "image or link outside a code span"
PY
    # On the terminal too, a name stays on its own line of the table.
    run diff good.db evil.db --forbid-active '*'
    [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
    ! grep -q '^###' out || fail "a module name started a line of its own on the terminal"
    run report evil.db
    ! grep -q '^###' out || fail "a module name started a line of its own in the report" ;;
  junit_control_chars)
    good_db
    run import in/ctrl_names.json -o ctrl.db -q; expect_ok
    run diff good.db ctrl.db --junit r.xml --forbid-active '*Ctl*'
    [ "$rc" -eq 1 ] || fail "exit $rc, expected 1 (a failed gate)"
    python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' r.xml || fail "invalid XML" ;;
  csv_formula)
    run import in/csv_formula.json -o f.db -q; expect_ok
    run report f.db --format csv -o r.csv; expect_ok
    python3 - r.csv <<'PY' || fail "a CSV cell starts a formula"
import csv, sys
for row in csv.reader(open(sys.argv[1], newline="")):
    for cell in row:
        assert not (cell[:1] in ("=", "+", "@", "\t", "\r") or (cell[:1] == "-" and not cell[1:2].isdigit())), cell
PY
    ;;
  terminal_escapes)
    good_db
    run import in/ctrl_names.json -o ctrl.db -q; expect_ok
    run report ctrl.db; expect_ok
    ! grep -q $'[\x1b\x07\x01]' out || fail "control characters reached stdout"
    run diff good.db ctrl.db --forbid-active '*Ctl*'
    [ "$rc" -eq 1 ] || fail "exit $rc, expected 1"
    ! grep -q $'[\x1b\x07\x01]' out err || fail "control characters reached the terminal" ;;
  html_graph_script)
    run import in/good2.json -o b.db -q; expect_ok
    good_db
    run diff good.db b.db --html r.html --html-graph in/evil.svg; expect_ok
    ! grep -qiE '<script|onload=|<image' r.html || fail "SVG markup inlined into the HTML" ;;
  same_output_twice)
    good_db
    run diff good.db good.db --md r.out --json r.out; expect_error 2 "named as the output twice"
    no_output r.out ;;
  output_is_input)
    good_db
    cp good.db keep.db
    run report keep.db -o keep.db --force; expect_error 2 "output is also an input"
    cmp -s good.db keep.db || fail "the input was changed" ;;
  dev_null_force)
    # A special file as the output is never replaced, even with --force (a FIFO here, not /dev/null).
    good_db
    mkfifo sink
    run report good.db -o sink --force; expect_error 2 "not a regular file"
    [ -p sink ] || fail "the FIFO was replaced" ;;
  dangling_symlink)
    good_db
    ln -s nowhere.md link.md
    run report good.db --format md -o link.md; expect_error 2 "output exists"
    [ -L link.md ] && [ ! -e nowhere.md ] || fail "the link was replaced or followed" ;;
  umask)
    good_db
    (umask 077; exec "$bin" --no-progress report good.db --format md -o r.md) || fail "report failed"
    [ "$(stat -c %a r.md)" = 600 ] || fail "mode $(stat -c %a r.md) under umask 077"
    (umask 027; exec "$bin" --no-progress import -q in/good2.json -o b.db) || fail "import failed"
    [ "$(stat -c %a b.db)" = 640 ] || fail "mode $(stat -c %a b.db) under umask 027" ;;
  multi_import_partial)
    mkdir outdir
    run import in/good.json in/empty.json -o outdir; expect_error 2 "empty trace"
    [ -z "$(ls -A outdir)" ] || fail "outputs left in outdir: $(ls -A outdir)" ;;
  empty_trace)
    run import in/empty.json -o e.db; expect_error 2 "empty trace"
    no_output e.db ;;
  truncated_csv)
    csv=$here/../fuzz/seeds/ncu/raw.csv
    head -c $(($(wc -c < "$csv") - 3)) "$csv" > cut.csv
    run import cut.csv -o c.db; expect_error 2 "truncated"
    no_output c.db ;;
  negative_shapes | huge_shapes)
    [ "$name" = negative_shapes ] && src=in/neg_shape.json || src=in/huge_shape.json
    run import "$src" -o s.db -q; expect_ok
    run report s.db --format json -o r.json; expect_ok
    python3 - r.json <<'PY' || fail "impossible FLOPs reported"
import json, sys
doc = json.load(open(sys.argv[1]))
def walk(v, key=""):
    if isinstance(v, dict):
        for k, x in v.items(): walk(x, k)
    elif isinstance(v, list):
        for x in v: walk(x, key)
    elif isinstance(v, (int, float)) and "flops" in key.lower():
        assert 0 <= v < 1e21, (key, v)
walk(doc)
assert any(q["code"] == "impossible_op_shapes" and q["severity"] == "error" for q in doc["data_quality"]), \
    "no data-quality error"
PY
    ;;
  extreme_times)
    run import in/extreme_time.json -o t.db; expect_error 2 "impossible time"
    no_output t.db ;;
  json_huge_value)
    python3 -c 'import json; print(json.dumps({"traceEvents": [{"ph": "X", "name": "x" * (3 << 20)}]}))' > big.json
    run --max-json-value-mb 2 import big.json -o o.db; expect_error 2 "larger than 2 MiB"
    no_output o.db ;;
  json_deep)
    python3 -c 'print("{\"traceEvents\": [{\"args\": " + "[" * 300 + "]" * 300 + "}]}")' > deep.json
    run import deep.json -o o.db; expect_error 2 "nested deeper than 256"
    no_output o.db ;;
  usage_error)
    run report --bogus-option x.db; expect_error 2 "--bogus-option"
    run diff; expect_error 2 "required" ;;
  threads_cap)
    needs_profile
    run profile model.pt --input 'float32[1]' --threads 100000 -o o.db; expect_error 2 "--threads"
    no_output o.db ;;
  profile_huge_input)
    needs_profile
    run profile model.pt --input 'float32[2,2147483648,4096]' -o o.db; expect_error 2 "of memory available"
    run profile model.pt --input 'float32[4611686018427387904,8]' -o o.db; expect_error 2 "too large to allocate"
    no_output o.db ;;
  memory_modules_x_iterations)
    # 3,201 modules x 3,200 iterations from a 1.4 MB trace: per-module times are sparse, so the aggregate
    # formats are analysed within the memory limit; only the JSON report (dense values per iteration) is
    # refused by the cells limit (raised, it writes 355 MB of JSON: too slow for this test's 30 s).
    run report in/modules_x_iterations.json -o r.md --format md; expect_ok
    run report in/modules_x_iterations.json -o r.json --format json; expect_error 2 "--max-cells"
    no_output r.json
    run --max-cells 1 report in/good.json -o r.json --format json; expect_error 2 "--max-cells"
    run --max-cells 2 report in/good.json -o r.json --format json; expect_ok ;;
  memory_deep_hierarchy)
    run report in/deep.json; expect_error 2 "--max-module-depth"
    run import in/deep.json -o d.db; expect_error 2 "--max-module-depth"
    no_output d.db ;;
  memory_torchscript_hierarchy)
    # A TorchScript `Module Hierarchy` of 40,000 levels (0.9 MB) once passed 6 GB under report and 15 GB
    # under import, and import wrote a 300-level one that report then refused: one depth rule, checked
    # before any path is built, by both.
    for t in in/hierarchy_40000.json in/hierarchy_300.json; do
      run report "$t"; expect_error 2 "more than 256 levels deep (--max-module-depth"
      run import "$t" -o h.db; expect_error 2 "more than 256 levels deep (--max-module-depth"
      no_output h.db
    done
    run --max-module-depth 300 import in/hierarchy_300.json -o h.db -q; expect_ok
    run report h.db -o r.md; expect_error 2 "more than 256 levels deep"
    no_output r.md
    run --max-module-depth 300 report h.db -o r.md; expect_ok ;;
  deep_run_database)
    # Module paths interned in the run database (schema 9): the 2,850-level trace, imported with the limit
    # raised, is a small file (was 40 MB of whole paths), and reading it back checks the depth before
    # building any path.
    run --max-module-depth 4000 import in/deep.json -o d.db -q; expect_ok
    [ "$(stat -c %s d.db)" -lt 4000000 ] || fail "run database of $(stat -c %s d.db) bytes"
    run report d.db -o r.md; expect_error 2 "--max-module-depth"
    run diff d.db d.db --md r.md; expect_error 2 "--max-module-depth"
    run import d.db -o x.db; expect_error 2 "already a flopscope run database"
    no_output r.md x.db ;;
  module_cycle)
    # Crafted module trees: a module that is its own parent, a parent that is not in the run.
    good_db
    cp good.db cut.db
    sql good.db "UPDATE module_node SET relative = 1, parent_id = id WHERE parent_id IS NOT NULL;"
    run report good.db; expect_error 2 "its parents form a cycle"
    sql cut.db "UPDATE module_node SET relative = 1, parent_id = 999 WHERE parent_id IS NOT NULL;"
    run diff cut.db cut.db --md r.md; expect_error 2 "which is not in the run"
    no_output r.md ;;
  gzip_bombs)
    # 256 MiB in one JSON string, and a 256 MiB run of '[', each about a megabyte gzipped.
    python3 - <<'PY' || fail "cannot write the gzip inputs"
import gzip
for name, head, byte, tail in (("str", b'{"traceEvents": [{"ph": "X", "name": "', b"x", b'"}]}'),
                               ("brackets", b'{"traceEvents": [{"args": ', b"[", b"")):
    with gzip.open(name + ".json.gz", "wb", compresslevel=1) as f:
        f.write(head)
        for _ in range(16):
            f.write(byte * (1 << 24))
        f.write(tail)
PY
    run import str.json.gz -o o.db; expect_error 2 "larger than 64 MiB"
    run report brackets.json.gz; expect_error 2 "nested deeper than 256"
    no_output o.db ;;
  reused_correlation)
    # Two launches share a correlation id: the kernel is linked to neither op, and the report says why.
    run report in/reused_corr.json --format json -o r.json; expect_ok
    python3 - r.json <<'PY' || fail "the reused correlation id was not reported"
import json, sys
doc = json.load(open(sys.argv[1]))
assert any(q["code"] == "correlation_launched_twice" and q["severity"] == "error" for q in doc["data_quality"]), \
    doc["data_quality"]
a = doc["attribution"]
assert a["kernels"] == 1 and a["kernels_with_op"] == 0 and a["kernels_with_module"] == 0, a
PY
    ;;
  shape_cancels_regression)
    # B doubles the FLOPs of A's matrix product and adds an op with a negative shape: its FLOPs are
    # unknown, not negative, so the regression still fails the gate.
    run diff in/good.json in/regressed.json --max-regression flops=10%
    [ "$rc" -eq 1 ] || fail "exit $rc, expected 1 (the regression gate fails)"
    grep -q "^max-regression flops  *FAIL  *flops: 128 FLOPs -> 256 FLOPs" out || fail "no failed flops gate" ;;
  diff_partial_outputs)
    # diff's outputs are published together: a later output that cannot be written leaves no earlier one,
    # and with --force the earlier good report stays as it was.
    good_db
    run diff good.db good.db --md r.md --json nodir/r.json; expect_error 2 "nodir/r.json"
    no_output r.md
    echo "previous report" > r.md
    run diff good.db good.db --md r.md --json nodir/r.json --force; expect_error 2 "nodir/r.json"
    [ "$(cat r.md)" = "previous report" ] || fail "the previous r.md was replaced"
    # A name that is not UTF-8 (as an ordinary Nsight Compute CSV can hold) writes valid JSON.
    sed 's/"gemm"/"gemm\xff\xfe"/' "$here/../fuzz/seeds/ncu/raw.csv" > bad.csv
    grep -q $'\xff' bad.csv || fail "no invalid UTF-8 in the input"
    run import bad.csv -o bad.db -q; expect_ok
    run diff bad.db bad.db --md b.md --json b.json; expect_ok
    python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' b.json || fail "invalid JSON"
    [ -s b.md ] || fail "no Markdown report" ;;
  import_weights_bad)
    # `import --weights`: a weights file that is a FIFO, a directory, truncated or not a weights file at
    # all is refused before anything is written.
    mkfifo w.fifo; mkdir w.dir
    printf '\xff\xff\xff\xff\xff\xff\x00\x00{"a":' > trunc.safetensors
    printf 'not weights' > junk.pt
    for w in w.fifo w.dir trunc.safetensors junk.pt; do
      run import in/good.json --weights "$w" -o o.db
      expect_error 2 "$w"
      no_output o.db
    done
    mkdir outd
    run import in/good.json in/good2.json --weights junk.pt -o outd; expect_error 2 "one trace"
    [ -z "$(ls outd)" ] || fail "outd was written" ;;
  graph_capture_bad)
    # `--graph-capture`: a capture trace that is a FIFO, empty, not JSON, or a SQLite file is one error
    # line; the main trace is not imported half-way.
    mkfifo c.fifo; printf '{"traceEvents": [' > cut.json
    good_db
    for c in c.fifo in/empty.json cut.json good.db; do
      run import in/good.json --graph-capture "$c" -o o.db
      expect_error 2 "$c"
      no_output o.db
      run report in/good.json --graph-capture "$c"
      expect_error 2 "$c"
    done ;;
  event_limit)
    # A gzip of many tiny events (the 7.7 MB one held 30M and passed 4.3 GB): --max-events stops it with
    # one line naming the flag, given before or after the command name.
    python3 - <<'PY' || fail "cannot write the gzip input"
import gzip
event = b'{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "args": {}},'
with gzip.open("events.json.gz", "wb", compresslevel=9) as f:
    f.write(b'{"traceEvents": [')
    f.write(event * 200000)
    f.write(b'{"ph": "i"}]}')
PY
    run --max-events 100000 import events.json.gz -o o.db; expect_error 2 "more than 100000 events (--max-events"
    run report events.json.gz --max-events 1000; expect_error 2 "more than 1000 events (--max-events"
    run diff events.json.gz events.json.gz --max-events 1000; expect_error 2 "--max-events"
    no_output o.db
    run import events.json.gz -o o.db --max-events 200001 -q; expect_ok ;;
  decompressed_limit)
    # 1.1 GiB of whitespace in a few MB of gzip: bounded by --max-decompressed-gb, not by the events it lacks.
    python3 - <<'PY' || fail "cannot write the gzip input"
import gzip
with gzip.open("blank.json.gz", "wb", compresslevel=1) as f:
    f.write(b'{"traceEvents": [')
    for _ in range(72):
        f.write(b" " * (1 << 24))
    f.write(b"]}")
PY
    run --max-decompressed-gb 1 import blank.json.gz -o o.db; expect_error 2 "decompresses to more than 1 GiB (--max-decompressed-gb"
    no_output o.db ;;
  bom_json)
    # A UTF-8 byte order mark before the JSON (Windows editors write one) is skipped, not "unknown format".
    printf '\xef\xbb\xbf' > bom.json; cat in/good.json >> bom.json
    run import bom.json -o b.db -q; expect_ok
    run report bom.json; expect_ok
    grep -q "aten::mm" out || fail "the op is missing from the report" ;;
  markdown_input)
    # A Markdown file is named as such, not "CSV ... not Nsight Compute output".
    printf '# Results, June\n\n| model | time |\n|---|---|\n| a, b | 1 |\n' > notes.md
    run import notes.md -o o.db; expect_error 2 "looks like Markdown text"
    ! grep -q "Nsight Compute output" err || fail "called an Nsight Compute CSV"
    no_output o.db ;;
  huge_device_id)
    # A device id of 9e18 wrapped to a negative device; the event is refused and counted instead.
    run report in/huge_device.json --format json -o r.json; expect_ok
    python3 - r.json <<'PY' || fail "the out-of-range device id was not refused"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [q for q in doc["data_quality"] if q["code"] == "malformed_trace_events"]
assert rows and "device id out of range" in rows[0]["detail"], doc["data_quality"]
assert "-" not in json.dumps(doc.get("devices", "")), doc.get("devices")
assert doc["attribution"]["kernels"] == 1, doc["attribution"]
PY
    ;;
  bad_memory_events)
    # Allocator events without Bytes, with a Device Type or Device Id out of range, or without a time are
    # skipped and counted in one row; the good one is kept and attributed to the op it fell in.
    run report in/bad_memory.json --format json -o r.json; expect_ok
    python3 - r.json <<'PY' || fail "a malformed memory event was kept or not counted"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [q for q in doc["data_quality"] if q["code"] == "malformed_memory_events"]
assert rows and rows[0]["count"] == 4, doc["data_quality"]
mem = doc["memory"]
assert mem["events"] == 1, mem
assert [d["device"] for d in mem["devices"]] == ["cuda:0"], mem["devices"]
assert [(o["name"], o["self"]["allocated_bytes"]) for o in mem["ops"]] == [("aten::mm", 256)], mem["ops"]
PY
    ;;
  nul_in_name)
    # A NUL inside a name was cut there by the run database; the event is refused with a data-quality row.
    run import in/nul_name.json -o n.db -q; expect_ok
    run report n.db --format json -o r.json; expect_ok
    python3 - r.json n.db <<'PY' || fail "the NUL name was stored cut short"
import json, sqlite3, sys
doc = json.load(open(sys.argv[1]))
rows = [q for q in doc["data_quality"] if q["code"] == "malformed_trace_events"]
assert rows and "NUL" in rows[0]["detail"], doc["data_quality"]
names = [r[0] for r in sqlite3.connect(sys.argv[2]).execute("SELECT name FROM op")]
assert "aten::mm" in names and not any(n.startswith("aten::evil") for n in names), names
PY
    ;;
  two_large_names)
    # Two 33 MiB names in one event make a 66 MiB event: the message names that limit (one trace event).
    # The same names in two events of 33 MiB each are within it.
    python3 - <<'PY' || fail "cannot write the inputs"
import json
big = "n" * (33 << 20)
one = {"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": big, "pid": 1, "tid": 1, "ts": 1, "dur": 1,
                        "args": {"note": big}}]}
json.dump(one, open("one.json", "w"))
two = {"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": big, "pid": 1, "tid": 1, "ts": t, "dur": 1}
                       for t in (1, 5)]}
json.dump(two, open("two.json", "w"))
PY
    run import one.json -o o.db; expect_error 2 "larger than 64 MiB, the limit for one trace event"
    no_output o.db
    run import two.json -o t.db -q; expect_ok ;;
  nsys_null_start)
    # A kernel row with a NULL start (read as 0) spanned from the epoch to its end: skipped and counted.
    sql k.sqlite "CREATE TABLE StringIds (id INTEGER, value TEXT); INSERT INTO StringIds VALUES (1, 'gemm');
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, \"end\" INTEGER, deviceId INTEGER, streamId INTEGER,
        correlationId INTEGER, demangledName INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000000000, 2373000000, 0, 7, 1, 1), (NULL, 2490000000, 0, 7, 2, 1);"
    run report k.sqlite --format json -o r.json; expect_ok
    python3 - r.json <<'PY' || fail "the NULL-start kernel was counted"
import json, sys
doc = json.load(open(sys.argv[1]))
assert any(q["code"] == "kernel_without_timestamp" for q in doc["data_quality"]), doc["data_quality"]
assert doc["attribution"]["kernels"] == 1, doc["attribution"]
PY
    ;;
  nsys_bad_fields)
    # The Kineto rules for Nsight Systems: a device id of 9e18 and a NUL inside a kernel or NVTX name are
    # refused with a data-quality row (the id was cast to a negative int; the name cut at the NUL).
    sql k.sqlite "CREATE TABLE StringIds (id INTEGER, value TEXT);
      INSERT INTO StringIds VALUES (1, 'gemm'), (2, CAST(X'6576696C006E616D65' AS TEXT));
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, \"end\" INTEGER, deviceId INTEGER, streamId INTEGER,
        correlationId INTEGER, demangledName INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000000000, 2001000000, 0, 7, 1, 1),
        (2002000000, 2003000000, 9000000000000000000, 7, 2, 1), (2004000000, 2005000000, 0, 7, 3, 2);"
    two_of_three_refused k.sqlite ;;
  ncu_bad_fields)
    # The same rules for Nsight Compute: Device 9e18 (a double converted out of range, undefined) and a NUL
    # in a kernel name are refused with a data-quality row; the good kernel is kept.
    python3 - "$here/../fuzz/seeds/ncu/raw.csv" <<'PY' || fail "cannot write the input"
import sys
head, units, row = open(sys.argv[1], encoding="utf-8").read().splitlines()[:3]
huge = row.replace('"0","7","python"', '"1","7","python"')
huge = huge.replace('"(64, 2, 1)","0"', '"(64, 2, 1)","9e18"')
nul = row.replace('"0","7","python"', '"2","7","python"').replace('"gemm"', '"ge\0mm"')
open("bad.csv", "w", encoding="utf-8").write("\n".join([head, units, row, huge, nul]) + "\n")
PY
    two_of_three_refused bad.csv ;;
  *) fail "unknown case" ;;
esac
echo "ok $name"
