#!/usr/bin/env bash
# The main job: set up and build (scripts/setup.sh), then run the PIC proxy comparison
# (SPMD, then colors without LB and with each balancer) on 4 ranks, printing one table and a
# plot of the imbalance per step. Falls back to the runtime demo if the PIC main job is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build=${TESSERA_BUILD_DIR:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if [ -x apps/pic/main_job.sh ]; then
  exec apps/pic/main_job.sh "$build" "$@"
fi
exec mpirun --oversubscribe -np 4 "$build/bin/tessera-demo" "$@"
