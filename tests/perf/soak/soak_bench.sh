#!/usr/bin/env bash
# soak_bench.sh BUILD_DIR [SECONDS] [RANKS] [KILL_EVERY]: the chaos soak benchmark.
#
# A timed soak of tessera-soak on RANKS ranks (default 3) for SECONDS (default 1800), a random rank
# killed every KILL_EVERY seconds or so (default 60; 0.5x to 1.5x of it), restarted by
# apps/soak/scripts/soak_harness.py from the newest checkpoint (every 50 phases) on another rank
# count in 1-4, balancers in turn every phase. The last line is the harness's JSON (kills,
# restarts and hangs counted by it; the rest carried through the checkpoints). Exits non-zero if a
# message was lost, duplicated or corrupted, or a phase hung.
set -euo pipefail
build=${1:?usage: soak_bench.sh BUILD_DIR [SECONDS] [RANKS] [KILL_EVERY]}
seconds=${2:-1800}
ranks=${3:-3}
kill_every=${4:-60}
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MPIRUN="${MPIRUN:-mpirun --oversubscribe --bind-to none}"
work=${SOAK_WORK:-$build/soak-bench}
exec python3 "$here/../../../apps/soak/scripts/soak_harness.py" --soak "$build/bin/tessera-soak" --work "$work" \
  --np "$ranks" --total_seconds "$seconds" --seed 2029 --timeout $((seconds + 600)) \
  -- --seed 29 --checkpoint_every 50 --kill_every "$kill_every" --tessera_checkpoint_keep=2
