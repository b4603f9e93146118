#!/usr/bin/env bash
# Output-side hostile cases (issue 32): output_cases.sh CASE FLOPSCOPE WORKDIR. Like hostile.sh, each case
# asserts the exit code and a one-line `flopscope: error: ...` where one is due (hostile_lib.sh); its inputs
# are written here (make_inputs.py holds the input-side corpus).
set -u
name=$1
bin=$2
work=$3/out-$name
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

source "$here/hostile_lib.sh"

# trace FILE MODULE_NAME: one iteration, Net_0 > MODULE_NAME > aten::mm.
trace() {
  python3 - "$@" <<'PY'
import json, sys
path, module = sys.argv[1], sys.argv[2]
def ev(name, cat, ts, dur, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": dur, "args": args}
events = [ev("ProfilerStep#1", "user_annotation", 1, 100), ev("nn.Module: Net_0", "python_function", 2, 90),
          ev("nn.Module: " + module, "python_function", 3, 80)]
events.append(ev("aten::mm", "cpu_op", 4, 70, **{"External id": 2, "Input Dims": [[2, 8], [8, 4]],
                                                 "Input type": ["float", "float"], "Concrete Inputs": ["", ""]}))
with open(path, "w") as f:
    json.dump({"schemaVersion": 1, "traceEvents": events, "traceName": "hostile"}, f)
PY
}

case $name in
  csv_file_controls)
    # -o FILE and stdout get the same escaping: no raw ESC, NUL or BEL in either.
    trace t.json $'Ctl\x1b[31m\x07\x01_0'
    run report t.json --format csv -o r.csv; expect_ok
    run report t.json --format csv; expect_ok
    ! grep -q $'[\x1b\x07\x01]' r.csv || fail "control characters in the CSV file"
    grep -qF 'Ctl\x1b[31m\x07\x01,' r.csv || fail "the name is not shown visibly in the CSV file"
    cmp -s out r.csv || fail "stdout and the -o file differ" ;;
  rank_overflow)
    trace t.rank99999999999999.json Linear_0
    trace t.rank1.json Linear_0
    run report t.rank99999999999999.json t.rank1.json
    expect_error 2 "t.rank99999999999999.json: rank 99999999999999 in its name is out of range" ;;
  rank_dangling_link)
    mkdir ranks
    trace ranks/t.rank0.json Linear_0
    trace ranks/t.rank1.json Linear_0
    ln -s gone.json ranks/t.rank2.json
    run report ranks
    expect_error 2 "ranks/t.rank2.json: a link to gone.json, which does not exist" ;;
  bidi_overrides)
    trace t.json $'Lin\u202eraen\u2066_0'
    for f in "" "--format md" "--format csv"; do
      run report t.json $f; expect_ok
      python3 -c 'import re, sys; sys.exit(bool(re.search("[\u202a-\u202e\u2066-\u2069]", open("out", encoding="utf-8").read())))' ||
        fail "a bidi override reached the output ($f)"
      grep -qF 'u202e' out || fail "the override is not shown visibly ($f)"
    done ;;
  coverage_identical_ops)
    # Four identical ops without a FLOPs formula (same start and duration, so each nests in the one before):
    # their time is counted once, 100% of host time, never 400%.
    python3 - <<'PY'
import json
ev = lambda name, cat, ts, dur, **a: {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1, "ts": ts,
                                      "dur": dur, "args": a}
events = [ev("ProfilerStep#1", "user_annotation", 1, 100), ev("nn.Module: Net_0", "python_function", 2, 90)]
events += [ev("myns::mystery", "cpu_op", 4, 70, **{"External id": 2 + i}) for i in range(4)]
json.dump({"schemaVersion": 1, "traceEvents": events}, open("t.json", "w"))
PY
    run report t.json --coverage; expect_ok
    grep -q 'unknown: myns::mystery 100.0% of host time' out || fail "the gap's share is not 100%"
    ! grep -qE '(^|[^0-9.])([2-9][0-9]{2}|1[0-9]{3,})\.[0-9]%' out || fail "a share over 100%" ;;
  full_tmpdir)
    # The companion finds TMPDIR full: the error says so (not "is it a Python program?"). A private mount
    # namespace holds a 64 KiB tmpfs, filled; needs root (unshare, mount) and a Python with torch.
    py=/usr/bin/python3
    "$py" -c 'import torch' 2>/dev/null || { echo "no torch for $py"; exit 77; }
    "$bin" trace --help >/dev/null 2>&1 || { echo "no trace command in this build"; exit 77; }
    unshare -m true 2>/dev/null || { echo "cannot make a mount namespace (needs root)"; exit 77; }
    mkdir tmp
    printf 'import torch\nm = torch.nn.Linear(4, 4)\nfor _ in range(12):\n    m(torch.ones(1, 4))\n' >prog.py
    unshare -m sh -c 'mount -t tmpfs -o size=64k tmpfs tmp && dd if=/dev/zero of=tmp/fill bs=1k count=64 2>/dev/null
      TMPDIR=$PWD/tmp timeout 60 "$1" --no-progress trace -o t.db -- "$2" prog.py >out 2>err; echo $? >rc' \
      sh "$bin" "$py"
    rc=$(cat rc)
    grep -v -e '^Error in sitecustomize' -e '^OSError' err >err.ours; mv err.ours err  # the program's own lines
    expect_error 2 "no space left in TMPDIR=$PWD/tmp"
    [ ! -e t.db ] || fail "t.db was written" ;;
  *)
    echo "unknown case $name" >&2
    exit 1 ;;
esac
exit 0
