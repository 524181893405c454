#!/usr/bin/env bash
# The test command: set up and build (scripts/setup.sh), then run the whole suite with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir "${TESSERA_BUILD_DIR:-build}" --output-on-failure --timeout 300
