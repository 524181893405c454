#!/usr/bin/env bash
# restart_test.sh PIC DIR: a restarted tessera-pic run ends with a --dump_particles file
# byte-identical to the uninterrupted run's, for 4 -> 2 (GreedyLB, then TemperedLB), 2 -> 3 (no
# balancer), 3 -> 4 (HierLB) and, with colors split and merged at every balancing, 2 -> 3 ranks
# (GreedyLB, pieces in the checkpoint); and a restart asking for another problem is refused with
# one message. MPIRUN holds mpirun and its flags.
set -u
pic=$1 dir=$2
run=(--mode=amt --L 240 --n 30000 --steps 40 --print_every 0)
rm -rf "$dir"; mkdir -p "$dir"
$MPIRUN -np 4 "$pic" "${run[@]}" --dump_particles "$dir/uninterrupted.bin" > "$dir/uninterrupted.txt" 2>&1 \
  || { cat "$dir/uninterrupted.txt"; echo "the uninterrupted run failed"; exit 1; }
failed=0
check() {  # check WRITE_RANKS READ_RANKS "writer flags" "restart flags" [NAME]
  local w=$1 r=$2 ck="$dir/ck.$1to$2${5:-}"
  $MPIRUN -np "$w" "$pic" "${run[@]}" --checkpoint_every 10 --tessera_checkpoint_dir="$ck" \
    --tessera_checkpoint_keep=0 $3 > "$ck.write.txt" 2>&1 || { cat "$ck.write.txt"; echo "$w ranks: writing failed"; failed=1; return; }
  # Leave the checkpoint after step 20 as the newest, as if the run had died after it.
  rm -rf "$ck/phase.000000000030" "$ck/phase.000000000040"
  $MPIRUN -np "$r" "$pic" "${run[@]}" --restart "$ck" --dump_particles "$ck.bin" $4 > "$ck.read.txt" 2>&1 \
    || { cat "$ck.read.txt"; echo "$w -> $r ranks: the restart failed"; failed=1; return; }
  grep -q "restarted from .*phase.000000000020 after step 20" "$ck.read.txt" || { cat "$ck.read.txt"; echo "$w -> $r: not restarted after step 20"; failed=1; return; }
  if cmp -s "$dir/uninterrupted.bin" "$ck.bin"; then
    echo "$w -> $r ranks ($3 / $4): final particles byte-identical"
  else
    echo "$w -> $r ranks ($3 / $4): final particles DIFFER"; failed=1
  fi
}
check 4 2 "--tessera_lb_name=GreedyLB" "--tessera_lb_name=TemperedLB"
check 2 3 "" ""
check 3 4 "--tessera_lb_name=HierLB --tessera_lb_interval=auto" "--tessera_lb_name=HierLB"
split="--tessera_lb_name=GreedyLB --color_loads=particles --tessera_lb_split_above=0.25 --tessera_lb_merge_below=0.5"
check 2 3 "$split" "$split" .split
grep -q "color splits, merges       [1-9]" "$dir/ck.2to3.split.write.txt" || { cat "$dir/ck.2to3.split.write.txt"; echo "2 -> 3 with split: no color split"; failed=1; }
# Another problem size against the same checkpoint: one message, non-zero exit, no run.
out=$($MPIRUN -np 2 "$pic" --mode=amt --L 240 --n 40000 --steps 40 --restart "$dir/ck.4to2" 2>&1)
status=$?
n=$(grep -c "the checkpoint ran L 240, n 30000" <<<"$out")
if [ "$status" -eq 0 ] || [ "$n" -ne 1 ]; then echo "$out"; echo "another problem: expected one message and a non-zero exit"; failed=1
else echo "another problem: refused with one message (exit $status)"; fi
exit $failed
