#!/usr/bin/env bash
# answers_test.sh LULESH DIR EXPECTED_HEX: LULESH's published answer for global edge 10 (231
# cycles, final origin energy 2.720531e+04, symmetry figures at most 1e-8) from 8 colors of -s 5,
# and the same bits (origin energy and the energy summed over every domain) on 1 to 4 ranks,
# without a balancer and with each balancer. RandomLB migrates at every balancing, so colors move
# many times (a run named *_moves must migrate); the others move colors only when the measured
# loads say so, which on 8 even colors they may not. EXPECTED_HEX is the origin energy's bits
# (%a) from the kernel run in one process (lulesh_kernel_test checks that value too). MPIRUN
# holds mpirun and its flags.
set -u
bin=$1 dir=$2 expected=$3
rm -rf "$dir"; mkdir -p "$dir"
field() { grep '^{' "$2" | tail -1 | grep -o "\"$1\":\"\\?[^,\"}]*" | sed 's/.*[:"]//'; }
failed=0 reference=""
check() {  # check NAME RANKS FLAGS...
  local name=$1 ranks=$2; shift 2
  local out="$dir/$name.txt"
  # shellcheck disable=SC2086
  if ! $MPIRUN -np "$ranks" "$bin" -s 5 --domains 8 --report=json "$@" > "$out" 2>&1; then
    cat "$out"; echo "$name: the run failed"; failed=1; return
  fi
  local cycles energy hex total
  cycles=$(field iterations "$out"); hex=$(field final_origin_energy_hex "$out"); total=$(field total_energy_hex "$out")
  energy=$(grep "Final Origin Energy" "$out" | awk '{print $5}')
  local verdict="ok"
  [ "$cycles" = 231 ] || verdict="cycles $cycles, expected 231"
  [ "$energy" = 2.720531e+04 ] || verdict="final origin energy $energy, expected 2.720531e+04"
  [ "$hex" = "$expected" ] || verdict="origin energy bits $hex, expected $expected"
  [ -z "$reference" ] && reference=$total
  [ "$total" = "$reference" ] || verdict="total energy bits $total, expected $reference (the first run's)"
  for key in max_abs_diff total_abs_diff max_rel_diff; do
    awk -v v="$(field $key "$out")" 'BEGIN { exit !(v <= 1e-8) }' || verdict="$key $(field $key "$out") above 1e-8"
  done
  if [ "$name" != "${name%_moves}" ] && [ "$(field migrations "$out")" = 0 ]; then verdict="no color migrated"; fi
  echo "$name ($ranks ranks): cycles $cycles, energy $energy ($hex), total $total, migrations $(field migrations "$out"): $verdict"
  [ "$verdict" = ok ] || { cat "$out"; failed=1; }
}
check none_1 1
check none_2 2
check none_3 3
check random_moves 3 --tessera_lb_name=RandomLB --tessera_lb_interval=7
check greedy 2 --tessera_lb_name=GreedyLB --tessera_lb_interval=5
check hier 4 --tessera_lb_name=HierLB --tessera_lb_interval=10
check grapevine 2 --tessera_lb_name=GrapevineLB --tessera_lb_interval=10
check tempered 2 --tessera_lb_name=TemperedLB --tessera_lb_interval=auto
exit $failed
