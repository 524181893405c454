#!/usr/bin/env bash
# interval.sh BIN DIR: --tessera_checkpoint_interval=2 over 7 phases writes phase.2, .4 and .6;
# --tessera_checkpoint_keep=2 leaves .4 and .6; --tessera_restart=DIR picks .6 (on 3 ranks).
# A stale incomplete checkpoint older than the newest is removed; a newer incomplete one (a run
# killed while writing it) is ignored by the restart.
set -u
bin=$1 dir=$2
rm -rf "$dir"; mkdir -p "$dir/phase.000000000001"
$MPIRUN -np 2 "$bin" write-interval "$dir" || { echo "interval run failed"; exit 1; }
found=$(cd "$dir" && ls -d phase.* | tr '\n' ' ')
[ "$found" = "phase.000000000004 phase.000000000006 " ] || { echo "kept: '$found', expected phase 4 and 6"; exit 1; }
mkdir -p "$dir/phase.000000000008" && cp "$dir/phase.000000000006/rank.0.tck" "$dir/phase.000000000008/"
out=$($MPIRUN -np 3 "$bin" read "$dir") || { echo "restart failed: $out"; exit 1; }
echo "$out"
grep -q "phase.000000000006" <<<"$out" || { echo "restart did not pick the newest complete checkpoint"; exit 1; }
echo "interval checkpoints passed"
