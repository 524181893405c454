#!/usr/bin/env bash
# restart_refused.sh JACOBI DIR: a restart asking for another problem than its checkpoint holds
# (another grid, another explicit --tiles, fewer sweeps than already done) stops every rank with
# one message naming the checkpoint and both values, a non-zero exit, and no sweep. MPIRUN holds
# mpirun and its flags.
set -u
bin=$1 dir=$2
rm -rf "$dir"
$MPIRUN -np 2 "$bin" --ny 40 --nx 36 --tiles 5x4 --iterations 20 --checkpoint_every 20 \
  --tessera_checkpoint_dir="$dir" > /dev/null 2>&1 || { echo "the checkpointing run failed"; exit 1; }
failed=0
refused() {  # refused NAME REGEX FLAGS...: a restart on 3 ranks with FLAGS must fail with REGEX, once
  local name=$1 regex=$2
  shift 2
  local out status n
  out=$($MPIRUN -np 3 "$bin" --restart "$dir" "$@" 2>&1)
  status=$?
  n=$(grep -Ec -- "$regex" <<<"$out")
  if [ "$status" -eq 0 ] || [ "$n" -ne 1 ] || grep -q "jacobi mode=" <<<"$out"; then
    echo "$out"; echo "$name: expected one message matching /$regex/, a non-zero exit and no result"; failed=1
  else
    echo "$name: refused (exit $status): $(grep -E -m1 -- "$regex" <<<"$out")"
  fi
}
refused "another grid" "^tessera-jacobi: --restart: the checkpoint .*phase\.000000000020 ran --ny 40 --nx 36; this run asks for --ny 48 --nx 36 \(expected the same grid\)" \
  --ny 48 --nx 36 --iterations 40
refused "another tiling" "^tessera-jacobi: --restart: the checkpoint .* holds 5x4 tiles; this run asks for --tiles 4x4" \
  --ny 40 --nx 36 --tiles 4x4 --iterations 40
refused "fewer sweeps" "^tessera-jacobi: --iterations 10: the checkpoint .* is after iteration 20" \
  --ny 40 --nx 36 --iterations 10
exit $failed
