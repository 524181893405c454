#!/usr/bin/env bash
# The main job: install what it needs and build tessera-pic and lbsim (scripts/setup.sh --main), then run the
# PIC proxy comparison (SPMD, then colors without LB and with each balancer) on 4 ranks, printing
# one table and a plot of the imbalance per step (apps/pic/main_job.sh; an argument is its output directory).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --main
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
exec apps/pic/main_job.sh "${TESSERA_BUILD_DIR:-build}" "$@"
