#!/usr/bin/env bash
# The main job: tessera-pic on 4 ranks as SPMD, AMT without LB, and AMT with
# GreedyLB, HierLB, GrapevineLB and TemperedLB, each at --tessera_lb_interval=auto; one comparison
# table led by time to solution, the balancer advisor's top choice (lbsim advise on the LB data of
# the run without LB), and a PNG of I per step and cumulative time per step per run.
#
#   apps/pic/main_job.sh BUILD_DIR [OUT_DIR]     (OUT_DIR default: BUILD_DIR/pic_main_job)
#
# Input: the default drifting PATCH (L 960, PATCH 0 239 0 239, k 0, m 1, about 600 000 particles)
# for PIC_STEPS steps (default 300, the full input: the six runs take about a minute on 2 cores).
# Four ranks share two cores, so element loads use thread CPU time (--tessera_lb_load_clock=cpu),
# and the table's times are the slowest rank's thread CPU time: time to solution (first step to the
# verified end, every per-phase cost included) and the particle update alone; I is of thread CPU
# time. The wall time of each whole mpirun is printed beside them.
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
    # The run without LB also records its LB data, for the advisor's top choice beside the table.
    amt) rm -rf "$out/amt_lb_data"
         args+=(--mode=amt --tessera_lb_load_clock=cpu --tessera_lb_data --tessera_lb_data_dir="$out/amt_lb_data") ;;
    *) args+=(--mode=amt --tessera_lb_load_clock=cpu --tessera_lb_name="$run" --tessera_lb_interval=auto) ;;
  esac
  # The TemperedLB run also leaves its LB data, their HTML report (open it in any browser) and a
  # timeline trace (open trace.json in Perfetto or chrome://tracing); both are in its figures
  # (tessera-bench-pic's trace_cost measures the trace's share).
  if [[ $run == TemperedLB ]]; then
    rm -rf "$out/TemperedLB_trace"
    args+=(--tessera_lb_data_dir="$out/lb_data" --tessera_lb_report="$out/TemperedLB_report.html"
           --tessera_trace="$out/TemperedLB_trace")
  fi
  start=$(date +%s.%N)
  if ! "${mpirun[@]}" "$pic" "${args[@]}" > "$out/$run.log" 2>&1; then
    failed=1
  fi
  echo "$start $(date +%s.%N)" > "$out/$run.wall"
  tail -n 1 "$out/$run.log" > "$out/$run.json"
done

# The balancer advisor on the run without LB: its ranking, and its own time.
lbsim=$build/bin/lbsim
if [[ -x $lbsim && -f $out/amt_lb_data/data.0.json ]]; then
  advise_start=$(date +%s.%N)
  "$lbsim" advise --data "$out/amt_lb_data/data" --fixed-loads ignored --report=json > "$out/advise.log" 2>&1 || failed=1
  echo "$advise_start $(date +%s.%N)" > "$out/advise.wall"
fi

python3 - "$out" "${runs[@]}" <<'PY'
import json, sys
out, runs = sys.argv[1], sys.argv[2:]
rows, walls = {}, {}
for run in runs:
    try:
        rows[run] = json.load(open(f"{out}/{run}.json"))
        start, end = map(float, open(f"{out}/{run}.wall").read().split())
        walls[run] = end - start
    except (OSError, ValueError):
        rows[run] = None
spmd = rows["spmd"]
print("time to solution: first step to verified end, slowest rank's thread CPU time (4 ranks share 2 cores)")
print(f"{'run':<20} {'solution (s)':>12} {'speedup':>8} {'update (s)':>11} {'speedup':>8} {'mean I':>7} "
      f"{'LB phases':>9} {'LB (s)':>7} {'mpirun wall (s)':>15} {'validated':>10}")
for run in runs:
    r = rows[run]
    name = {"spmd": "SPMD", "amt": "AMT, no LB"}.get(run, f"AMT, {run}")
    if r is None:
        print(f"{name:<20} {'n/a (run failed, see ' + run + '.log)':>62}")
        continue
    tts = spmd["total_cpu_s"] / r["total_cpu_s"] if spmd else float("nan")
    upd = spmd["update_max_cpu_s"] / r["update_max_cpu_s"] if spmd else float("nan")
    print(f"{name:<20} {r['total_cpu_s']:>12.3f} {tts:>8.2f} {r['update_max_cpu_s']:>11.3f} {upd:>8.2f} "
          f"{r['mean_imbalance']:>7.3f} {r['balanced_phases']:>9} {r['lb_s']:>7.3f} {walls[run]:>15.2f} "
          f"{'yes' if r['validated'] else 'no':>10}")
try:
    advice = json.loads(open(f"{out}/advise.log").read().strip().splitlines()[-1])
    start, end = map(float, open(f"{out}/advise.wall").read().split())
    best, none = advice["rows"][0], next(r for r in advice["rows"] if r["flags"] == "")
    print(f"advisor (lbsim advise on the AMT no-LB run's LB data, {end - start:.1f} s): top choice "
          f"{best['flags'] or 'no LB'}, predicted {best['predicted_s']:.3f} s against {none['predicted_s']:.3f} s "
          f"without LB (gain {best['gain']:.2f}); times on thread CPU time, as the table's")
except (OSError, ValueError, IndexError, KeyError, StopIteration):
    print("advisor: n/a (no LB data from the AMT run, or lbsim not built; see advise.log)")
PY

{
  echo "set terminal pngcairo size 900,900"
  echo "set output '$out/imbalance.png'"
  echo "set datafile separator ','"
  echo "set multiplot layout 2,1 title 'tessera-pic, 4 ranks sharing 2 cores'"
  echo "set xlabel 'step'; set key top right"
  for panel in imbalance elapsed_s; do
    if [[ $panel == imbalance ]]; then
      echo "set title 'imbalance I (thread CPU) per step'; set ylabel 'I = max/avg - 1'"
    else
      echo "set title 'cumulative wall time per step (rank 0)'; set ylabel 'seconds'; set key top left"
    fi
    printf "plot "
    for run in "${runs[@]}"; do
      col=$(head -n 1 "$out/$run.csv" | tr ',' '\n' | grep -nx "$panel" | cut -d: -f1)
      printf "'%s' using 1:%s every ::1 with lines title '%s', " "$out/$run.csv" "$col" "$run"
    done
    echo
  done
  echo "unset multiplot"
} | sed 's/, $//' > "$out/imbalance.gp"
if command -v gnuplot > /dev/null; then
  gnuplot "$out/imbalance.gp" && echo "plot: $out/imbalance.png"
else
  echo "main_job.sh: gnuplot not installed (Debian package gnuplot-nox); plot script left in $out/imbalance.gp" >&2
fi
[[ -f $out/TemperedLB_report.html ]] && echo "LB report of the TemperedLB run: $out/TemperedLB_report.html"
[[ -f $out/TemperedLB_trace/trace.json ]] && echo "timeline trace of the TemperedLB run: $out/TemperedLB_trace/trace.json"
exit $failed
