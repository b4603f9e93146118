#!/usr/bin/env bash
# Installs every Debian 12 package that flopscope's build, demo and tests need. Idempotent: when all are
# present it only checks and returns (well under a second). Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
  # toolchain
  g++ cmake ninja-build pkg-config git
  # required libraries
  libsqlite3-dev sqlite3 nlohmann-json3-dev libcli11-dev libfmt-dev zlib1g-dev libsimdjson-dev libre2-dev
  # CPU collector and sample models
  libtorch-dev python3 python3-torch python3-torchvision
  # graphs
  libgraphviz-dev
  # GUI
  qt6-base-dev qt6-svg-dev qt6-charts-dev libqt6opengl6-dev libgl-dev
  # tests, fuzzing, benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev clang libclang-rt-14-dev xvfb xauth poppler-utils
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
