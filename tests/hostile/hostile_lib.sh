# The checks every hostile-case script shares (sourced by hostile.sh and output_cases.sh): with $name and
# $bin set, run flopscope under a 30 s timeout and a 4 GiB address-space limit (`ulimit -v`; skipped in
# ASan builds, whose shadow memory needs far more address space) and assert what it left.
vmem_kb=4194304
if ldd "$bin" 2>/dev/null | grep -q libasan; then vmem_kb=unlimited; fi

fail() {
  echo "FAIL $name: $*" >&2
  if [ -s err ]; then echo "--- stderr:" >&2; head -c 2000 err >&2; fi
  exit 1
}
# run ARGS...: flopscope under the limits; stdout in out, stderr in err, exit status in $rc.
run() {
  (ulimit -v "$vmem_kb"; exec timeout 30 "$bin" --no-progress "$@") >out 2>err
  rc=$?
  [ "$rc" -ne 124 ] || fail "timed out: $*"
  [ "$rc" -lt 128 ] || fail "killed by signal $((rc - 128)): $*"
}
# expect_error CODE TEXT: exit CODE and exactly one line on stderr, the error line, containing TEXT.
expect_error() {
  [ "$rc" -eq "$1" ] || fail "exit $rc, expected $1"
  [ "$(wc -l < err)" -eq 1 ] || fail "stderr is not one line"
  grep -q '^flopscope: error: ' err || fail "stderr is not a 'flopscope: error:' line"
  grep -qF -- "$2" err || fail "message lacks '$2'"
}
expect_ok() { [ "$rc" -eq 0 ] || fail "exit $rc, expected 0"; }
# no_output PATH...: nothing at PATH (not even a dangling link), and no temporary files anywhere here.
no_output() {
  for p in "$@"; do [ ! -e "$p" ] && [ ! -L "$p" ] || fail "$p was written"; done
  if find . -name '*.tmp-*' -o -name '*.import-*' | grep -q .; then fail "temporary file left behind"; fi
}
