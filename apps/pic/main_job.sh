#!/usr/bin/env bash
# The main job of issue 7: tessera-pic on 4 ranks as SPMD, AMT without LB, and AMT with GreedyLB,
# HierLB, GrapevineLB and TemperedLB; one comparison table, and a PNG of I per step per run.
#
#   apps/pic/main_job.sh BUILD_DIR [OUT_DIR]     (OUT_DIR default: BUILD_DIR/pic_main_job)
#
# Input: the default drifting PATCH (L 960, PATCH 0 239 0 239, k 0, m 1, about 100 000 particles)
# for PIC_STEPS steps (default 300, the full input: the six runs take about 35 s on 2 cores).
# Four ranks share two cores, so element loads use thread CPU time (--tessera_lb_load_clock=cpu)
# and the table's update time is the slowest rank's thread CPU time; I is of thread CPU time.
# Exit status: 0 when every run validated, 1 otherwise, 2 on bad usage or a missing binary.
set -euo pipefail

build=${1:?usage: main_job.sh BUILD_DIR [OUT_DIR]}
out=${2:-$build/pic_main_job}
pic=$build/bin/tessera-pic
steps=${PIC_STEPS:-300}
if [[ ! -x $pic ]]; then
  echo "main_job.sh: $pic not found; build the tessera-pic target first" >&2
  exit 2
fi
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe --bind-to none -np 4)

runs=(spmd amt GreedyLB HierLB GrapevineLB TemperedLB)
failed=0
for run in "${runs[@]}"; do
  args=(--steps "$steps" --report=json --step_log "$out/$run.csv")
  case $run in
    spmd) ;;
    amt) args+=(--mode=amt --tessera_lb_load_clock=cpu) ;;
    *) args+=(--mode=amt --tessera_lb_load_clock=cpu --tessera_lb_name="$run") ;;
  esac
  if ! "${mpirun[@]}" "$pic" "${args[@]}" > "$out/$run.log" 2>&1; then
    failed=1
  fi
  tail -n 1 "$out/$run.log" > "$out/$run.json"
done

python3 - "$out" "${runs[@]}" <<'PY'
import json, sys
out, runs = sys.argv[1], sys.argv[2:]
rows = {}
for run in runs:
    try:
        rows[run] = json.load(open(f"{out}/{run}.json"))
    except (OSError, ValueError):
        rows[run] = None
base = rows["spmd"]["update_max_cpu_s"] if rows["spmd"] else None
print(f"{'run':<20} {'update max (s, cpu)':>20} {'mean I':>8} {'LB time (s)':>12} {'speedup':>8} {'validated':>10}")
for run in runs:
    r = rows[run]
    name = {"spmd": "SPMD", "amt": "AMT, no LB"}.get(run, f"AMT, {run}")
    if r is None:
        print(f"{name:<20} {'n/a (run failed, see ' + run + '.log)':>62}")
        continue
    speedup = base / r["update_max_cpu_s"] if base else float("nan")
    print(f"{name:<20} {r['update_max_cpu_s']:>20.3f} {r['mean_imbalance']:>8.3f} {r['lb_s']:>12.3f} "
          f"{speedup:>8.2f} {'yes' if r['validated'] else 'no':>10}")
PY

{
  echo "set terminal pngcairo size 900,500"
  echo "set output '$out/imbalance.png'"
  echo "set datafile separator ','"
  echo "set title 'tessera-pic, 4 ranks: imbalance I (thread CPU) per step'"
  echo "set xlabel 'step'; set ylabel 'I = max/avg - 1'; set key top right"
  printf "plot "
  for run in "${runs[@]}"; do
    col=$(head -n 1 "$out/$run.csv" | tr ',' '\n' | grep -nx 'imbalance' | cut -d: -f1)
    printf "'%s' using 1:%s every ::1 with lines title '%s', " "$out/$run.csv" "$col" "$run"
  done
  echo
} | sed 's/, $//' > "$out/imbalance.gp"
if command -v gnuplot > /dev/null; then
  gnuplot "$out/imbalance.gp" && echo "plot: $out/imbalance.png"
else
  echo "main_job.sh: gnuplot not installed (Debian package gnuplot-nox); plot script left in $out/imbalance.gp" >&2
fi
exit $failed
