#!/usr/bin/env bash
# Installs the Debian packages Tessera needs (only those missing), then configures and
# builds into build/ (Release). Extra arguments are passed to the CMake configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(g++ cmake make pkg-config openmpi-bin libopenmpi-dev libfmt-dev libspdlog-dev
          libcli11-dev nlohmann-json3-dev libcereal-dev libbrotli-dev libssl-dev
          libgtest-dev libgmock-dev libbenchmark-dev python3 gnuplot-nox chromium
          libfabric-dev libfabric-bin libisal-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
build_dir=${TESSERA_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-Release} "$@" > "$build_dir.configure.log" 2>&1 \
  || { cat "$build_dir.configure.log"; exit 1; }
cmake --build "$build_dir" -j "${TESSERA_JOBS:-$(nproc)}"
