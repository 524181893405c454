#!/usr/bin/env bash
# Installs the Debian packages Tessera needs (only those missing), then configures and builds into
# build/ (Release). Extra arguments are passed to the CMake configure step.
#
#   scripts/setup.sh [CMAKE_ARGS...]         everything: libraries, apps, tools, tests, benchmarks
#   scripts/setup.sh --main [CMAKE_ARGS...]  only what the main job needs (scripts/run.sh): fewer
#                                            packages (no test framework, libfabric or browser)
#                                            and the main job's targets, tessera-pic and
#                                            lbsim (the advisor beside its table)
set -euo pipefail
cd "$(dirname "$0")/.."
main_only=0
if [[ ${1:-} == --main ]]; then
  main_only=1
  shift
fi
# The main job: a C++20 compiler, CMake, Open MPI and the libraries the layers link; python3 and
# gnuplot draw its table and plot; Chart.js is inlined into the LB report at build time.
packages=(g++ cmake make pkg-config openmpi-bin libopenmpi-dev libfmt-dev libspdlog-dev
          libcli11-dev nlohmann-json3-dev libcereal-dev libbrotli-dev libssl-dev libisal-dev
          python3 gnuplot-nox libjs-chart.js)
# The rest: GoogleTest, the libfabric transport and its tools, iproute2 for the multi-host test
# bed (network namespaces, veth, tc), a headless browser that loads the LB report, Doxygen for
# the API reference (docs/), Slurm with munge for the Slurm cluster on the test bed
# (tests/slurm; the packages start no daemon on a machine without systemd), and debootstrap for the
# clean Debian tree the packaging test installs the packages into (tests/packaging).
if ((!main_only)); then
  packages+=(libgtest-dev libgmock-dev libfabric-dev libfabric-bin iproute2 chromium doxygen
             slurmctld slurmd slurm-client munge debootstrap)
fi
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
# scripts/package.sh makes a build of its own: it needs the packages, not this build.
[[ ${TESSERA_SETUP_PACKAGES_ONLY:-0} == 1 ]] && exit 0
build_dir=${TESSERA_BUILD_DIR:-build}
jobs=${TESSERA_JOBS:-$(nproc)}
if ((main_only)); then
  # A first run configures without the tests (GoogleTest is not installed yet); a build directory
  # that scripts/test.sh configured keeps its settings.
  configure=()
  [[ -f $build_dir/CMakeCache.txt ]] || configure=(-DTESSERA_BUILD_TESTS=OFF)
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-Release} "${configure[@]}" "$@" \
    > "$build_dir.configure.log" 2>&1 || { cat "$build_dir.configure.log"; exit 1; }
  cmake --build "$build_dir" -j "$jobs" --target tessera-pic lbsim
else
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE:-Release} -DTESSERA_BUILD_TESTS=ON -DTESSERA_BUILD_DOCS=ON \
    -DTESSERA_FAULT_INJECTION=ON "$@" \
    > "$build_dir.configure.log" 2>&1 || { cat "$build_dir.configure.log"; exit 1; }
  cmake --build "$build_dir" -j "$jobs"
fi
