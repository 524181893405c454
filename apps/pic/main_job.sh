#!/usr/bin/env bash
# The main job: tessera-pic as SPMD, AMT without LB, and AMT with GreedyLB, HierLB, GrapevineLB and
# TemperedLB, each at --tessera_lb_interval=auto; one comparison table led by time to solution, the
# balancer advisor's top choice (lbsim advise on the LB data of the run without LB), and a PNG of I
# per step and cumulative time per step per run.
#
#   apps/pic/main_job.sh BUILD_DIR [OUT_DIR]     (OUT_DIR default: BUILD_DIR/pic_main_job)
#
# Input: the default drifting PATCH (L 960, PATCH 0 239 0 239, k 0, m 1, about 600 000 particles)
# for PIC_STEPS steps (default 300, the full input).
# Ranks: PIC_RANKS, by default the CPUs this job may use, counted as the runtime's idle policy
# counts them (the affinity mask, bounded by the cgroup's CPU quota rounded up; at least 2).
# Each column of the table is one clock, named in its header:
# - each rank with a CPU of its own: the table leads with wall time (time to solution, first step
#   to verified end with every per-phase cost inside; the particle update; LB; the whole mpirun),
#   loads are wall time, and the slowest rank's thread CPU time follows as a second view;
# - ranks sharing CPUs (PIC_RANKS above the CPUs): wall time is what the scheduler made of it, so
#   loads are thread CPU time (--tessera_lb_load_clock=cpu) and the thread-CPU view leads.
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
# The CPUs this process may use, as runtime/src/node_cpus.cpp counts them: the affinity mask,
# bounded by the tightest cgroup v2 cpu.max quota from this process's cgroup up to the root.
cpus=$(python3 - <<'PY'
import math, os
cpus = len(os.sched_getaffinity(0))
try:
    path = next(l.split(":", 2)[2].strip() for l in open("/proc/self/cgroup") if l.startswith("0::"))
    while True:
        try:
            quota, period = open(f"/sys/fs/cgroup{path.rstrip('/')}/cpu.max").read().split()
            if quota != "max":
                cpus = min(cpus, math.ceil(int(quota) / int(period)))
        except (OSError, ValueError):
            pass
        if path in ("", "/"):
            break
        path = os.path.dirname(path.rstrip("/"))
except (OSError, StopIteration):
    pass
print(max(cpus, 1))
PY
)
ranks=${PIC_RANKS:-$((cpus < 2 ? 2 : cpus))}
if ! [[ $ranks =~ ^[1-9][0-9]*$ ]]; then
  echo "main_job.sh: PIC_RANKS must be a positive integer, got '$ranks'" >&2
  exit 2
fi
shared=0
((ranks > cpus)) && shared=1
load_clock=()
((shared)) && load_clock=(--tessera_lb_load_clock=cpu)
mpirun=(mpirun --oversubscribe --bind-to none -np "$ranks")

runs=(spmd amt GreedyLB HierLB GrapevineLB TemperedLB)
failed=0
for run in "${runs[@]}"; do
  args=(--steps "$steps" --report=json --step_log "$out/$run.csv")
  case $run in
    spmd) ;;
    # The run without LB also records its LB data, for the advisor's top choice beside the table.
    amt) rm -rf "$out/amt_lb_data"
         args+=(--mode=amt "${load_clock[@]}" --tessera_lb_data --tessera_lb_data_dir="$out/amt_lb_data") ;;
    *) args+=(--mode=amt "${load_clock[@]}" --tessera_lb_name="$run" --tessera_lb_interval=auto) ;;
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

python3 - "$out" "$ranks" "$cpus" "$shared" "${runs[@]}" <<'PY'
import json, sys
out, ranks, cpus, shared, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5:]
rows, walls = {}, {}
for run in runs:
    try:
        rows[run] = json.load(open(f"{out}/{run}.json"))
        start, end = map(float, open(f"{out}/{run}.wall").read().split())
        walls[run] = end - start
    except (OSError, ValueError):
        rows[run] = None
spmd = rows["spmd"]
names = {run: {"spmd": "SPMD", "amt": "AMT, no LB", "TemperedLB": "AMT, TemperedLB *"}.get(run, f"AMT, {run}")
         for run in runs}

def ratio(run, key):  # SPMD's figure over this run's: the speedup
    if spmd is None:
        return float("nan")
    a, b = (walls["spmd"], walls[run]) if key == "mpirun" else (spmd[key], rows[run][key])
    return a / b if b > 0 else float("nan")

def view(header, cells):  # one table: the header, then each run's row (cells(run, report) after its name)
    print(f"{'run':<20} {header}")
    for run in runs:
        r = rows[run]
        print(f"{names[run]:<20} " + (cells(run, r) if r is not None else f"n/a (run failed, see {run}.log)"))

def wall_view():
    view(f"{'solution wall (s)':>17} {'speedup':>7} {'update wall (s)':>15} {'speedup':>7} {'LB wall (s)':>11} "
         f"{'mpirun wall (s)':>15} {'speedup':>7} {'mean I':>6} {'LB phases':>9} {'validated':>9}",
         lambda run, r: f"{r['total_s']:>17.3f} {ratio(run, 'total_s'):>7.2f} {r['update_max_s']:>15.3f} "
                        f"{ratio(run, 'update_max_s'):>7.2f} {r['lb_s']:>11.3f} {walls[run]:>15.2f} "
                        f"{ratio(run, 'mpirun'):>7.2f} {r['mean_imbalance']:>6.3f} {r['balanced_phases']:>9} "
                        f"{'yes' if r['validated'] else 'no':>9}")

def cpu_view():
    view(f"{'solution CPU (s)':>16} {'speedup':>7} {'update CPU (s)':>14} {'speedup':>7}",
         lambda run, r: f"{r['total_cpu_s']:>16.3f} {ratio(run, 'total_cpu_s'):>7.2f} "
                        f"{r['update_max_cpu_s']:>14.3f} {ratio(run, 'update_max_cpu_s'):>7.2f}")

clock = "thread CPU" if shared else "wall"
if not shared:
    print(f"{ranks} ranks on {cpus} usable CPUs (affinity and cgroup quota, as the idle policy counts them): "
          f"each rank has a CPU of its own, so wall time leads")
else:
    print(f"{ranks} ranks on {cpus} usable CPUs (PIC_RANKS; affinity and cgroup quota, as the idle policy counts "
          f"them): ranks share CPUs, so wall time is the scheduler's and the thread-CPU view leads")
print("  solution: first step to verified end, slowest rank, every per-phase cost inside; update: the particle\n"
      "  update alone, slowest rank; LB: the slowest rank's phase close (statistics, strategy, migration);\n"
      "  mpirun: the whole process, start-up and MPI_Finalize included; speedup: SPMD's over the run's;\n"
      f"  mean I: of element loads on {clock} time; * the TemperedLB run also writes its LB data, HTML report\n"
      "  and timeline trace, inside its times")
if shared:
    cpu_view()
    print("\nwall view (ranks share CPUs: the scheduler's time, not the code's)")
    wall_view()
else:
    wall_view()
    print("\nthread CPU view (the slowest rank's thread CPU time; the view that leads when ranks share CPUs)")
    cpu_view()
try:
    advice = json.loads(open(f"{out}/advise.log").read().strip().splitlines()[-1])
    start, end = map(float, open(f"{out}/advise.wall").read().split())
    best, none = advice["rows"][0], next(r for r in advice["rows"] if r["flags"] == "")
    print(f"advisor (lbsim advise on the AMT no-LB run's LB data, {end - start:.1f} s wall): top choice "
          f"{best['flags'] or 'no LB'}, predicted {best['predicted_s']:.3f} s against {none['predicted_s']:.3f} s "
          f"without LB (gain {best['gain']:.2f}); predicted on {clock} time, the runs' load clock")
except (OSError, ValueError, IndexError, KeyError, StopIteration):
    print("advisor: n/a (no LB data from the AMT run, or lbsim not built; see advise.log)")
PY

{
  echo "set terminal pngcairo size 900,900"
  echo "set output '$out/imbalance.png'"
  echo "set datafile separator ','"
  echo "set multiplot layout 2,1 title 'tessera-pic, $ranks ranks on $cpus CPUs'"
  echo "set xlabel 'step'; set key top right"
  for panel in imbalance elapsed_s; do
    if [[ $panel == imbalance ]]; then
      echo "set title 'imbalance I per step (loads on $( ((shared)) && echo thread CPU || echo wall ) time)'; set ylabel 'I = max/avg - 1'"
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
