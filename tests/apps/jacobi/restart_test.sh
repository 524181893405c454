#!/usr/bin/env bash
# restart_test.sh JACOBI DIR WRITE_RANKS READ_RANKS "writer flags" "restart flags": the tiles mode
# restarted from a checkpoint ends with the uninterrupted run's iterations, residual bits and
# fingerprint. The writer runs 50 of the 80 sweeps with a checkpoint every 20 and stops, as if it
# had died after sweep 50: the restart, on READ_RANKS ranks, must pick the checkpoint after sweep
# 40 and redo 41..80. MPIRUN holds mpirun and its flags.
set -u
bin=$1 dir=$2 w=$3 r=$4 writer_flags=${5:-} restart_flags=${6:-}  # ctest drops empty arguments
run=(--report=json --ny 40 --nx 36)
tiles=(--tiles 5x4)  # 20 tiles, which 3 ranks do not divide; the restart takes them from the checkpoint
rm -rf "$dir"; mkdir -p "$dir"

# field NAME FILE: the value of NAME in the JSON summary (the last line starting with '{').
field() { grep '^{' "$2" | tail -1 | grep -o "\"$1\":\"\\?[^,\"}]*" | sed 's/.*[:"]//'; }
outcome() { echo "iterations $(field iterations "$1") residual $(field residual_hex "$1") ($(field residual_bits "$1")) fingerprint $(field fingerprint "$1")"; }

$MPIRUN -np "$w" "$bin" "${run[@]}" "${tiles[@]}" --iterations 80 > "$dir/uninterrupted.txt" 2>&1 \
  || { cat "$dir/uninterrupted.txt"; echo "the uninterrupted run on $w ranks failed"; exit 1; }
# shellcheck disable=SC2086  # the flags are words
$MPIRUN -np "$w" "$bin" "${run[@]}" "${tiles[@]}" --iterations 50 --checkpoint_every 20 --tessera_checkpoint_dir="$dir/ck" \
  $writer_flags > "$dir/write.txt" 2>&1 || { cat "$dir/write.txt"; echo "the checkpointing run on $w ranks failed"; exit 1; }
found=$(cd "$dir/ck" && ls -d phase.* | tr '\n' ' ')
[ "$found" = "phase.000000000020 phase.000000000040 " ] || { echo "checkpoints: '$found', expected after sweeps 20 and 40"; exit 1; }
if [ -n "$writer_flags" ] && ! grep -q "migrations [1-9]" "$dir/write.txt"; then
  cat "$dir/write.txt"; echo "the balancer moved no tile: the checkpoint would hold none away from home"; exit 1
fi
# shellcheck disable=SC2086
$MPIRUN -np "$r" "$bin" "${run[@]}" --iterations 80 --restart "$dir/ck" $restart_flags > "$dir/read.txt" 2>&1 \
  || { cat "$dir/read.txt"; echo "the restart on $r ranks failed"; exit 1; }
grep -q "restarted from .*phase.000000000040 after iteration 40" "$dir/read.txt" \
  || { cat "$dir/read.txt"; echo "not restarted after iteration 40"; exit 1; }
[ "$(field resumed_after "$dir/read.txt")" = 40 ] || { cat "$dir/read.txt"; echo "resumed_after is not 40"; exit 1; }

expected=$(outcome "$dir/uninterrupted.txt")
actual=$(outcome "$dir/read.txt")
echo "uninterrupted, $w ranks:     $expected"
echo "restarted $w -> $r ranks:    $actual"
[ "$(field iterations "$dir/uninterrupted.txt")" = 80 ] && [ -n "$(field residual_bits "$dir/uninterrupted.txt")" ] \
  || { cat "$dir/uninterrupted.txt"; echo "no summary from the uninterrupted run"; exit 1; }
[ "$expected" = "$actual" ] || { echo "the restarted run DIFFERS from the uninterrupted run"; exit 1; }
echo "restart $w -> $r ranks (${writer_flags:-no balancer} / ${restart_flags:-no balancer}): bit-identical"
