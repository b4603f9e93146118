#!/usr/bin/env bash
# Installs every Debian 12 package that flopscope's build, demo and tests need. Idempotent: when all are
# present it only checks and returns (well under a second). Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build pkg-config git
  # packaging: man pages from --help, bash completion, the .deb (cpack)
  help2man bash-completion dpkg-dev
  # required libraries
  libsqlite3-dev sqlite3 nlohmann-json3-dev libcli11-dev libfmt-dev zlib1g-dev libsimdjson-dev libre2-dev
  # CPU collector and sample models
  libtorch-dev python3 python3-torch python3-torchvision
  # tests: the GitHub Actions example is read and run step by step; diff's growth counted in instructions
  python3-yaml valgrind
  # LibTorch calls the system libblas.so.3: OpenBLAS, not the 5-10x slower reference BLAS
  libopenblas0-pthread
  # graphs
  libgraphviz-dev
  # GUI
  qt6-base-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
  # fleet store (PostgreSQL client; the server for its tests) and the Prometheus exporter (and its test server)
  libpq-dev postgresql libcpp-httplib-dev prometheus python3-prometheus-client
  # tests, fuzzing, benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev xvfb xauth poppler-utils
  # tests: the HTML report as a browser shows it (headless)
  chromium
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)

# Points libblas.so.3 and liblapack.so.3 at OpenBLAS when an earlier choice (manual mode) kept the
# reference implementation.
select_openblas() {
  local arch name current target
  arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
  for name in libblas.so.3 liblapack.so.3; do
    current=$(update-alternatives --query "$name-$arch" 2>/dev/null | sed -n 's/^Value: //p')
    target=/usr/lib/$arch/openblas-pthread/$name
    if [[ -e "$target" && "$current" != "$target" ]]; then
      echo "install-deps: selecting OpenBLAS for $name (was ${current:-none})"
      "${sudo[@]}" update-alternatives --set "$name-$arch" "$target"
    fi
  done
}

if [[ ${#missing[@]} -eq 0 ]]; then
  select_openblas
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
select_openblas
