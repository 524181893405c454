#!/usr/bin/env bash
# elastic_test.sh PIC DIR: the main job's path (colors, TemperedLB every phase) through elastic
# shrinks 4 -> 3 (rank 1 leaves) -> 2 ends with a --dump_particles file byte-identical to a run on
# a fixed 4 ranks; so do GreedyLB with colors split and merged, and TemperedLB over libfabric;
# --recut auto with a plan is refused with one message. MPIRUN holds mpirun and its flags.
set -u
pic=$1 dir=$2
run=(--mode=amt --L 240 --n 30000 --steps 40 --print_every 0)
plan="--tessera_elastic_plan=10:shrink 1;25:shrink 2"
rm -rf "$dir"; mkdir -p "$dir"
$MPIRUN -np 4 "$pic" "${run[@]}" --dump_particles "$dir/fixed.bin" > "$dir/fixed.txt" 2>&1 \
  || { cat "$dir/fixed.txt"; echo "the fixed run failed"; exit 1; }
failed=0
check() {  # check NAME FLAGS...
  local name=$1
  shift
  $MPIRUN -np 4 "$pic" "${run[@]}" "$plan" "$@" --dump_particles "$dir/$name.bin" > "$dir/$name.txt" 2>&1 \
    || { cat "$dir/$name.txt"; echo "$name: the elastic run failed"; failed=1; return; }
  grep -q "ranks  *4 -> 2 (2 elastic shrink(s))" "$dir/$name.txt" || { cat "$dir/$name.txt"; echo "$name: did not end on 2 ranks"; failed=1; return; }
  grep -q "validation  *passed" "$dir/$name.txt" || { cat "$dir/$name.txt"; echo "$name: not validated"; failed=1; return; }
  if cmp -s "$dir/fixed.bin" "$dir/$name.bin"; then echo "$name: 4 -> 3 -> 2 ranks, final particles byte-identical"
  else echo "$name: final particles DIFFER from the fixed run"; failed=1; fi
}
check tempered --tessera_lb_name=TemperedLB
check split --tessera_lb_name=GreedyLB --color_loads=particles --tessera_lb_split_above=0.25 --tessera_lb_merge_below=0.5
if [ "${TESSERA_HAVE_OFI:-1}" = 1 ]; then
  check ofi --tessera_lb_name=TemperedLB --tessera_transport=ofi --tessera_shm=false --tessera_transport_args=provider=tcp
fi
out=$($MPIRUN -np 2 "$pic" "${run[@]}" --recut auto --tessera_lb_name=GreedyLB "--tessera_elastic_plan=5:shrink 1" 2>&1)
status=$?
n=$(grep -c "cannot be combined with --tessera_elastic_plan" <<<"$out")
if [ "$status" -eq 0 ] || [ "$n" -ne 1 ]; then echo "$out"; echo "--recut auto with a plan: expected one message and a non-zero exit"; failed=1
else echo "--recut auto with a plan: refused with one message (exit $status)"; fi
exit $failed
