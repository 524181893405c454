#!/usr/bin/env bash
# kill_restart_test.sh LULESH DIR: a run on 3 ranks, balanced by GreedyLB and checkpointing every
# 20 cycles from inside phase_end (--tessera_checkpoint_interval), is killed (SIGKILL to one rank)
# once its second checkpoint is complete; the restart
# on 2 ranks from its newest complete checkpoint ends with the uninterrupted run's cycles and bits.
# MPIRUN holds mpirun and its flags.
set -u
bin=$1 dir=$2
rm -rf "$dir"; mkdir -p "$dir"
field() { grep '^{' "$2" | tail -1 | grep -o "\"$1\":\"\\?[^,\"}]*" | sed 's/.*[:"]//'; }
outcome() { echo "cycles $(field iterations "$1") energy $(field final_origin_energy_hex "$1") total $(field total_energy_hex "$1")"; }
run=(-s 8 --domains 27 --report=json)

# shellcheck disable=SC2086
$MPIRUN -np 3 "$bin" "${run[@]}" --tessera_checkpoint_interval=20 --tessera_checkpoint_dir="$dir/ck" \
  --tessera_lb_name=GreedyLB --tessera_lb_interval=10 > "$dir/killed.txt" 2>&1 &
launcher=$!
complete() { ls "$dir"/ck/phase.*/manifest* 2>/dev/null | wc -l; }
for _ in $(seq 1 1200); do
  [ "$(complete)" -ge 2 ] && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.05
done
victim=$(pgrep -P "$launcher" -f tessera-lulesh | head -1)
[ -n "$victim" ] || { wait "$launcher"; cat "$dir/killed.txt"; echo "no rank to kill: the run ended before its second checkpoint"; exit 1; }
kill -9 "$victim"
wait "$launcher" && { cat "$dir/killed.txt"; echo "the killed run exited 0"; exit 1; }
grep -q "Run completed" "$dir/killed.txt" && { echo "the run completed before the kill: nothing was tested"; exit 1; }
echo "killed rank pid $victim after $(complete) complete checkpoint(s)"

$MPIRUN -np 2 "$bin" "${run[@]}" --restart "$dir/ck" > "$dir/restarted.txt" 2>&1 \
  || { cat "$dir/restarted.txt"; echo "the restart on 2 ranks failed"; exit 1; }
$MPIRUN -np 2 "$bin" "${run[@]}" > "$dir/uninterrupted.txt" 2>&1 \
  || { cat "$dir/uninterrupted.txt"; echo "the uninterrupted run failed"; exit 1; }
resumed=$(field resumed_after "$dir/restarted.txt")
expected=$(outcome "$dir/uninterrupted.txt")
actual=$(outcome "$dir/restarted.txt")
echo "uninterrupted, 2 ranks:              $expected"
echo "killed on 3, restarted on 2 after $resumed: $actual"
[ "${resumed:-0}" -ge 20 ] && [ $((resumed % 20)) = 0 ] \
  || { echo "the restart resumed after cycle '$resumed', expected a multiple of 20 (a checkpoint's)"; exit 1; }
[ "$expected" = "$actual" ] || { echo "the restarted run DIFFERS from the uninterrupted run"; exit 1; }
