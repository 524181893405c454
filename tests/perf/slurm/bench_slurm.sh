#!/usr/bin/env bash
# The PIC main job's run under Slurm beside the same run under mpirun, on 2 emulated hosts x 2
# tasks (tests/multihost's test bed, tests/slurm's cluster on it):
#   mpirun       tests/multihost/launch.sh 2x2 (mpirun --bind-to none, Open MPI's rsh launch)
#   srun         srun -N 2 -n 4 (PMIx; Slurm's task/affinity binds each task to one core)
#   srun-nobind  srun -N 2 -n 4 --cpu-bind=none
#   sbatch       sbatch --wait of a job script (-N 2 -n 4) whose one line is the srun above
# each running tessera-pic --mode=amt with TemperedLB at --tessera_lb_interval=auto on the main
# job's input (L 960, the drifting PATCH) for --steps steps, loads on thread CPU time (the
# emulated hosts share the machine's 2 cores: 4 ranks on 2 cores). The three run in turn, round
# after round, so each round's ratios compare runs made under the same load.
#
#   bench_slurm.sh BUILD_DIR [--rounds N] [--steps S] [--quick]
#
# Prints one line per run, then one JSON object on the last line:
#   {"benchmark":"slurm","hosts":2,"tasks_per_host":2,"steps":S,"rounds":N,
#    "runs":{"mpirun":{"whole_s":[..],"solution_wall_s":[..],"solution_cpu_s":[..]},...},
#    "over_mpirun":{"srun":{"whole":median,"solution_wall":median,"solution_cpu":median},...}}
# whole: the whole launch command, start-up and MPI_Finalize included (srun's allocation too;
# for sbatch, the job script's own wall time: queueing and sbatch --wait's polling are outside);
# solution: tessera-pic's first step to verified end, slowest rank. Ratios are the launcher's time
# over mpirun's in the same round (below 1: faster than mpirun), medians over the rounds.
# --quick: 1 round of 5 steps of a small input (a smoke run, not figures). Exit 77 where no test
# bed or Slurm can be made here.
set -euo pipefail
build=$(cd "${1:?usage: bench_slurm.sh BUILD_DIR [--rounds N] [--steps S] [--quick]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../../.." && pwd)
rounds=3 steps=100 quick=0 inside=0
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --quick) quick=1; rounds=1; steps=5; shift ;;
    --inside) inside=1; shift ;;  # internal: inside the test bed
    *) echo "bench_slurm.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if ((!inside)); then
  for tool in slurmctld slurmd srun munged; do
    command -v "$tool" > /dev/null || { echo "SKIPPED: $tool not installed"; exit 77; }
  done
  args=(--rounds "$rounds" --steps "$steps")
  ((quick)) && args+=(--quick)
  exec "$source_dir/tests/multihost/run.sh" --hosts 2 --timeout 3000 -- "$0" "$build" "${args[@]}" --inside
fi

prefix=${TESSERA_TESTBED:?}
dir=$build/slurm-bench
cluster=$source_dir/tests/slurm/cluster.sh
"$cluster" down "$dir"
trap '"$cluster" down "$dir"' EXIT
"$cluster" up "$prefix" 2 "$dir"
pic=(--mode=amt --steps "$steps" --print_every 0 --report=json --tessera_lb_name=TemperedLB
     --tessera_lb_interval=auto --tessera_lb_load_clock=cpu)
((quick)) && pic+=(--L 120 --n 5000)
mkdir -p "$dir/runs"
launch() {  # KIND LOG
  case $1 in
    mpirun) "$TESSERA_LAUNCH" 2x2 -- "$build/bin/tessera-pic" "${pic[@]}" ;;
    srun) "$cluster" on "${prefix}h1" "$dir" srun -N 2 -n 4 "$build/bin/tessera-pic" "${pic[@]}" ;;
    srun-nobind) "$cluster" on "${prefix}h1" "$dir" srun -N 2 -n 4 --cpu-bind=none "$build/bin/tessera-pic" "${pic[@]}" ;;
    # The job script times itself: sbatch --wait polls the job's state every few seconds.
    sbatch) printf '#!/bin/sh\n#SBATCH -N 2\n#SBATCH -n 4\n#SBATCH -o %s\nstart=$(date +%%s.%%N)\nsrun %s\necho "batch script wall $start $(date +%%s.%%N)" > %s\n' \
              "$2" "$build/bin/tessera-pic ${pic[*]}" "$2.script" > "$dir/runs/job.sh"
            "$cluster" on "${prefix}h1" "$dir" sbatch --wait "$dir/runs/job.sh" > /dev/null ;;
  esac >> "$2" 2>&1
}
kinds=(mpirun srun srun-nobind sbatch)
for ((round = 1; round <= rounds; ++round)); do
  for kind in "${kinds[@]}"; do
    log=$dir/runs/$kind.$round.log
    rm -f "$log"
    start=$(date +%s.%N)
    launch "$kind" "$log" || { tail -20 "$log"; echo "bench_slurm: the $kind run of round $round failed"; exit 1; }
    end=$(date +%s.%N)
    if [[ $kind == sbatch ]]; then
      read -r _ _ _ start end < "$log.script"
    fi
    echo "$start $end" > "$dir/runs/$kind.$round.wall"
    echo "round $round, $kind: $(python3 -c "print(f'{$end - $start:.2f}')") s whole"
  done
done
python3 - "$dir/runs" "$rounds" "$steps" "${kinds[@]}" <<'PY'
import json, statistics, sys
runs_dir, rounds, steps, kinds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
runs = {}
for kind in kinds:
    r = runs.setdefault(kind, {"whole_s": [], "solution_wall_s": [], "solution_cpu_s": []})
    for n in range(1, rounds + 1):
        start, end = map(float, open(f"{runs_dir}/{kind}.{n}.wall").read().split())
        report = json.loads(open(f"{runs_dir}/{kind}.{n}.log").read().strip().splitlines()[-1])
        if not report["validated"] or report["ranks"] != 4 or report["hosts"] != 2:
            sys.exit(f"bench_slurm: {kind} round {n}: not validated on 4 ranks on 2 hosts")
        r["whole_s"].append(round(end - start, 4))
        r["solution_wall_s"].append(round(report["total_s"], 4))
        r["solution_cpu_s"].append(round(report["total_cpu_s"], 4))
over = {}
for kind in kinds[1:]:
    over[kind] = {name: round(statistics.median(a / b for a, b in zip(runs[kind][key], runs["mpirun"][key])), 3)
                  for name, key in (("whole", "whole_s"), ("solution_wall", "solution_wall_s"),
                                    ("solution_cpu", "solution_cpu_s"))}
print(json.dumps({"benchmark": "slurm", "hosts": 2, "tasks_per_host": 2, "steps": steps, "rounds": rounds,
                  "runs": runs, "over_mpirun": over}, separators=(",", ":")))
PY
