#!/usr/bin/env bash
# The Debian package (cpack): what it holds, that its binaries work from where it puts them (the plugin in
# lib/flopscope, the companion in share/flopscope), and its dependencies. Extracted, not installed: no root.
# Usage: package_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cpack --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb="$(ls "$work"/out/flopscope_*_*.deb)"
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"
dpkg-deb -c "$deb" | awk '{print $6}' >"$work/files"
fail=0
need() {
  if ! grep -qx "./$1" "$work/files"; then echo "missing from the package: $1"; fail=1; fi
}
need usr/bin/flopscope
need usr/share/flopscope/python/flopscope/_companion.py
need usr/share/flopscope/python/flopscope/_inject/sitecustomize.py
need usr/share/bash-completion/completions/flopscope
if command -v help2man >/dev/null; then
  need usr/share/man/man1/flopscope.1.gz
  need usr/share/man/man1/flopscope-report.1.gz
fi
[ -x "$build/gui/app/flopscope-gui" ] && need usr/bin/flopscope-gui
[ -e "$build/cli/libflopscope-torch.so" ] && need usr/lib/flopscope/libflopscope-torch.so
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
case "$depends" in *libsqlite3*) ;; *) echo "no libsqlite3 in Depends"; fail=1 ;; esac
dpkg-deb -x "$deb" "$work/root"
bin="$work/root/usr/bin/flopscope"
"$bin" --help | head -1
"$bin" report "$src/tests/data/runs/sonnet-mini-1layer-v1.db" >"$work/report.txt"
grep -q "^module" "$work/report.txt" || { echo "report from the packaged binary printed no module table"; fail=1; }
if [ -e "$work/root/usr/lib/flopscope/libflopscope-torch.so" ] && [ -n "${FLOPSCOPE_SAMPLES:-}" ]; then
  # The packaged plugin, found beside the packaged binary (not the build tree's).
  FLOPSCOPE_TORCH_PLUGIN="" "$bin" profile "$FLOPSCOPE_SAMPLES/sonnet-mini-v1.pt" --input "int64[1,64]@0:512" \
    --iterations 1 --warmup 0 -o "$work/p.db" 2>&1 | tail -1
  "$bin" report "$work/p.db" >"$work/p.txt"  # not piped into grep -q: pipefail would see report's SIGPIPE
  grep -q "^module" "$work/p.txt" || { echo "profile with the packaged plugin failed"; fail=1; }
fi
exit "$fail"
