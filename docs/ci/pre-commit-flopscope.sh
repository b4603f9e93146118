#!/usr/bin/env bash
# git pre-commit hook: profile the model, diff it against the fleet baseline and block the commit when a
# gate fails. Install: cp docs/ci/pre-commit-flopscope.sh .git/hooks/pre-commit (or call it from your own
# hook / the pre-commit framework as a `language: script` hook).
#
# Settings (environment; put them in .flopscope-hook.env at the repository root to share them):
#   FLOPSCOPE_STORE   fleet store URL, e.g. postgresql://ci@db/fleet (required)
#   FLOPSCOPE_BRANCH  baseline branch (default main)
#   FLOPSCOPE_MODEL   TorchScript model to profile, FLOPSCOPE_INPUT its input spec (e.g. 'int64[1,256]@0:512')
#   FLOPSCOPE_RUN     or: an existing run database / trace to check instead of profiling
#   FLOPSCOPE_GATES   diff gates (default: --max-regression flops=0.5%,bytes=1%)
#   FLOPSCOPE_ITERS   profiling iterations (default 5)
#   FLOPSCOPE         the flopscope binary (default: flopscope on PATH)
# Exit: 0 allows the commit; 1 a gate failed; 2 the check could not run (store unreachable, bad input):
# the commit is blocked too, because a check that did not run did not pass.
set -uo pipefail

root=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
[[ -f "$root/.flopscope-hook.env" ]] && source "$root/.flopscope-hook.env"
flopscope=${FLOPSCOPE:-flopscope}
store=${FLOPSCOPE_STORE:-}
branch=${FLOPSCOPE_BRANCH:-main}
read -r -a gates <<< "${FLOPSCOPE_GATES:---max-regression flops=0.5%,bytes=1%}"

if [[ -z "$store" ]]; then
  echo "flopscope hook: FLOPSCOPE_STORE is not set; cannot check the commit" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run=${FLOPSCOPE_RUN:-}
if [[ -z "$run" ]]; then
  if [[ -z "${FLOPSCOPE_MODEL:-}" || -z "${FLOPSCOPE_INPUT:-}" ]]; then
    echo "flopscope hook: set FLOPSCOPE_MODEL and FLOPSCOPE_INPUT (or FLOPSCOPE_RUN)" >&2
    exit 2
  fi
  run="$work/run.db"
  "$flopscope" --no-progress profile "$FLOPSCOPE_MODEL" --input "$FLOPSCOPE_INPUT" \
    --iters "${FLOPSCOPE_ITERS:-5}" -o "$run" >/dev/null || exit 2
fi

# Separator: the branch goes into the URL's query string.
sep='?'
[[ "$store" == *'?'* ]] && sep='&'
"$flopscope" diff --baseline "${store}${sep}branch=${branch}" "$run" "${gates[@]}" --md "$work/diff.md"
status=$?
case $status in
  0) echo "flopscope hook: gates passed against the latest '$branch' run" >&2 ;;
  1) echo "flopscope hook: a gate failed against the latest '$branch' run; commit blocked (git commit --no-verify skips)" >&2 ;;
  *) echo "flopscope hook: the check could not run (exit $status); commit blocked" >&2; status=2 ;;
esac
exit $status
