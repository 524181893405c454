#!/usr/bin/env bash
# The test command: set up and build (scripts/setup.sh), then run the whole suite with ctest.
# The suite leaves out two labels for their cost: packaging (the Debian packages in a clean Debian
# tree: a second build and a download from Debian's registry) and scale (the runtime on 16 and 64
# ranks and on 8 emulated hosts x 4 ranks, about 7 minutes on 2 cores); `ctest -L packaging` and
# `ctest -L scale` run them, and .ci/run does.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# For -DTESSERA_ASAN=ON builds (ignored otherwise): Open MPI keeps allocations until exit, and the
# full unwinder lets the suppressions see past libraries built without frame pointers, so leaks in
# Tessera's own code are still reported.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/tests/support/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0}"
ctest --test-dir "${TESSERA_BUILD_DIR:-build}" --output-on-failure --timeout 300 --label-exclude '^(packaging|scale)$'
