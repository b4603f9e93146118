#!/usr/bin/env bash
# Collects what the GPU device machine needs to build flopscope's CUPTI-only configuration (preset
# gpu-device): the Debian 12 packages' headers, CMake configs and shared libraries that the machine lacks
# (it has the CUDA toolkit, CMake, ninja and g++, but none of our Debian packages and no network).
#
# Runs here, without a GPU: `apt-get download`s the packages below and unpacks them with `dpkg -x` into
# OUT_DIR/prefix (never into /), merges /lib into /usr/lib, makes every symbolic link relative (only
# relative links survive the copy to the device machine), drops what no build reads (docs, static
# libraries that have a shared one) and writes OUT_DIR/MANIFEST. Prints the bundle's size and the size of
# everything that travels with `run` (working tree + bundle), and exits 1 when that is over 64 MiB.
#
# With --prebuilt BUILD_DIR (the dry run's build, /tmp/flopscope-gpu/build), also copies its flopscope and
# libflopscope_inject.so, stripped, into OUT_DIR/prebuilt: `gpu-check.sh --device` uses them only when its
# own build fails (their run path is that work folder's prefix, which the device run recreates).
#
# Usage: scripts/gpu-bundle.sh [--prebuilt BUILD_DIR] [OUT_DIR]   (default .gpu, added to .git/info/exclude)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
prebuilt=
if [[ "${1:-}" == "--prebuilt" ]]; then prebuilt=${2:?--prebuilt needs the build folder}; shift 2; fi
out=${1:-$root/.gpu}
limit_mib=64

# Header-only: CLI11, nlohmann-json. Shared: fmt, simdjson, SQLite, zlib, RE2 (the -dev package and its
# runtime library). Static: GoogleTest and GoogleMock (the gpu-labelled tests; every test folder is
# configured, and some link GMock).
packages=(
  libsqlite3-dev libsqlite3-0
  libfmt-dev libfmt9
  libcli11-dev
  nlohmann-json3-dev
  libsimdjson-dev libsimdjson14
  zlib1g-dev zlib1g
  libre2-dev libre2-9
  libgtest-dev libgmock-dev
)

die() { echo "gpu-bundle: $*" >&2; exit 1; }
command -v apt-get >/dev/null || die "apt-get not found (run this on the Debian 12 build machine)"
command -v dpkg >/dev/null || die "dpkg not found"

if [[ -z "${1:-}" ]]; then
  exclude="$(git -C "$root" rev-parse --git-common-dir)/info/exclude"
  [[ "$exclude" = /* ]] || exclude="$root/$exclude"
  mkdir -p "$(dirname "$exclude")"
  grep -qxF '/.gpu/' "$exclude" 2>/dev/null || echo '/.gpu/' >>"$exclude"
fi

debs=$(mktemp -d)
trap 'rm -rf "$debs"' EXIT
chmod 755 "$debs"  # apt's _apt user writes the download here when run as root
(cd "$debs" && apt-get download -qq "${packages[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
for p in "${packages[@]}"; do
  compgen -G "$debs/${p}_*.deb" >/dev/null || die "apt-get download $p failed (run apt-get update?)"
done

rm -rf "$out/prefix" "$out/MANIFEST"
mkdir -p "$out/prefix"
prefix=$(cd "$out/prefix" && pwd)
{
  echo "# flopscope GPU bundle: Debian packages unpacked into prefix/ (scripts/gpu-bundle.sh)"
  echo "# made $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(. /etc/os-release && echo "$PRETTY_NAME") $(uname -m)"
  echo "# package version sha256-of-deb"
} >"$out/MANIFEST"
for deb in "$debs"/*.deb; do
  dpkg -x "$deb" "$prefix"
  echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version) $(sha256sum "$deb" | cut -d' ' -f1)" >>"$out/MANIFEST"
done

# usrmerge: zlib1g ships /lib/<arch>; one library folder keeps CMake's search simple.
if [[ -d "$prefix/lib" ]]; then
  cp -a "$prefix/lib/." "$prefix/usr/lib/"
  rm -rf "$prefix/lib"
fi
rm -rf "$prefix/usr/share/doc" "$prefix/usr/share/lintian" "$prefix/usr/share/man" "$prefix/usr/src"
rm -f "$prefix"/usr/lib/*/libsqlite3.a "$prefix"/usr/lib/*/libz.a

# Absolute links (libz.so -> /lib/...) would point into the device's own /; make each one relative.
while IFS= read -r -d '' link; do
  target=$(readlink "$link")
  if [[ "$target" = /* ]]; then
    resolved="$prefix$target"
    [[ -e "$resolved" ]] || resolved="$prefix/usr$target"
    [[ -e "$resolved" ]] || die "link $link -> $target points outside the bundle"
    ln -sfn "$(realpath --relative-to="$(dirname "$link")" "$resolved")" "$link"
  fi
done < <(find "$prefix" -type l -print0)
while IFS= read -r -d '' link; do
  [[ -e "$link" ]] || die "broken link in the bundle: $link -> $(readlink "$link")"
done < <(find "$prefix" -type l -print0)

rm -rf "$out/prebuilt"
if [[ -n "$prebuilt" ]]; then
  mkdir -p "$out/prebuilt"
  for f in cli/flopscope cli/libflopscope_inject.so; do
    [[ -f "$prebuilt/$f" ]] || die "--prebuilt: $prebuilt/$f not found (run scripts/gpu-check.sh --device --dry-run first)"
    strip --strip-unneeded -o "$out/prebuilt/$(basename "$f")" "$prebuilt/$f"
  done
  echo "# prebuilt from $prebuilt: $(readelf -d "$out/prebuilt/flopscope" | sed -n 's/.*R\(UN\)\?PATH.*\[\(.*\)\]/\2/p')" >>"$out/MANIFEST"
fi

bundle_bytes=$(du -sb "$out" | cut -f1)
tree_bytes=$(cd "$root" && git ls-files -z -co --exclude-standard | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
total=$((bundle_bytes + tree_bytes))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }
echo "gpu-bundle: ${#packages[@]} packages into $out ($(find "$prefix" -type f | wc -l) files)"
grep -v '^#' "$out/MANIFEST" | awk '{ printf "  %-20s %s\n", $1, $2 }'
echo "gpu-bundle: bundle $(mib "$bundle_bytes"), working tree $(mib "$tree_bytes"), travels $(mib "$total") of $limit_mib MiB"
((total <= limit_mib * 1048576)) || die "over the $limit_mib MiB that travels to the device machine"
