#!/usr/bin/env bash
# restart_test.sh LULESH DIR WRITE_RANKS READ_RANKS "writer flags": a run stopped after cycle 150
# (as if killed) with a checkpoint every 50 cycles, restarted on another rank count, ends with the
# uninterrupted run's cycles and bits (origin energy and total energy); a restart asking for
# another domain count is refused on every rank. MPIRUN holds mpirun and its flags.
set -u
bin=$1 dir=$2 w=$3 r=$4 writer_flags=${5:-}
rm -rf "$dir"; mkdir -p "$dir"
field() { grep '^{' "$2" | tail -1 | grep -o "\"$1\":\"\\?[^,\"}]*" | sed 's/.*[:"]//'; }
outcome() { echo "cycles $(field iterations "$1") energy $(field final_origin_energy_hex "$1") total $(field total_energy_hex "$1")"; }
run=(-s 4 --domains 27 --report=json)

$MPIRUN -np "$w" "$bin" "${run[@]}" > "$dir/uninterrupted.txt" 2>&1 \
  || { cat "$dir/uninterrupted.txt"; echo "the uninterrupted run failed"; exit 1; }
# shellcheck disable=SC2086
$MPIRUN -np "$w" "$bin" "${run[@]}" -i 150 --checkpoint_every 50 --tessera_checkpoint_dir="$dir/ck" $writer_flags \
  > "$dir/write.txt" 2>&1 || { cat "$dir/write.txt"; echo "the checkpointing run failed"; exit 1; }
found=$(cd "$dir/ck" && ls -d phase.* | tr '\n' ' ')
[ "$(wc -w <<<"$found")" -ge 1 ] || { echo "no checkpoint in $dir/ck"; exit 1; }
if [ -n "$writer_flags" ] && [ "$(field migrations "$dir/write.txt")" = 0 ]; then
  cat "$dir/write.txt"; echo "the balancer moved no color: the checkpoint would hold none away from home"; exit 1
fi
$MPIRUN -np "$r" "$bin" "${run[@]}" --restart "$dir/ck" > "$dir/read.txt" 2>&1 \
  || { cat "$dir/read.txt"; echo "the restart on $r ranks failed"; exit 1; }
[ "$(field resumed_after "$dir/read.txt")" = 150 ] || { cat "$dir/read.txt"; echo "resumed_after is not 150"; exit 1; }
expected=$(outcome "$dir/uninterrupted.txt")
actual=$(outcome "$dir/read.txt")
echo "uninterrupted, $w ranks:  $expected"
echo "restarted $w -> $r ranks: $actual"
[ -n "$(field final_origin_energy_hex "$dir/uninterrupted.txt")" ] || { echo "no summary from the uninterrupted run"; exit 1; }
[ "$expected" = "$actual" ] || { echo "the restarted run DIFFERS from the uninterrupted run"; exit 1; }

out=$($MPIRUN -np "$r" "$bin" -s 4 --domains 8 --restart "$dir/ck" 2>&1); status=$?
n=$(grep -c "^tessera-lulesh: --restart .*: the checkpoint holds 27 domains; this run asks for --domains 8" <<<"$out")
if [ "$status" -ne 2 ] || [ "$n" -ne 1 ]; then
  echo "$out"; echo "a restart with another domain count: expected one message and exit 2, got exit $status"; exit 1
fi
echo "restart with another domain count: refused (exit 2)"
