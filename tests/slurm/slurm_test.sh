#!/usr/bin/env bash
# slurm_test.sh SCENARIO BUILD_DIR: one Slurm scenario on a Slurm cluster (cluster.sh) over the
# emulated hosts of the test bed that tests/multihost/run.sh made ($TESSERA_TESTBED, 2 hosts).
# The cluster lives in BUILD_DIR/slurm-test/SCENARIO and is stopped and removed whatever happens.
#
#   srun       srun -N 2 -n 4 tessera-pic with TemperedLB validates; its LB data names 2 nodes; the
#              idle policy reports each node's 2 ranks on the 2 CPUs Slurm bound them to, and 1 CPU
#              for two tasks Slurm binds to the same CPU (--cpu-bind=map_cpu:0,0)
#   sbatch     a batch job runs the PIC main job's path on 2 nodes x 2 tasks with checkpoints; a
#              second job restarts it on 1 node x 2 tasks; both finish, the restart is identical
#   salloc     salloc -N 2 -n 4, mpirun inside the allocation: validates on 4 ranks on 2 hosts
#   scancel    a job cancelled mid-run leaves no process, /dev/shm segment or session file
#   down       a node set DOWN mid-job: the job ends with messages naming the host and the ranks ended
#   small      an allocation smaller than the ranks asked for: one message, no hang
#   munge      a client whose munge key does not match the cluster's: it fails at once, and the
#              controller's log names munge (Slurm tells the client only that the connection
#              closed); munged with its key missing refuses to start, naming the file
set -euo pipefail
scenario=${1:?scenario} build=$(cd "${2:?build dir}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
prefix=${TESSERA_TESTBED:?slurm_test.sh runs inside tests/multihost/run.sh}
for tool in slurmctld slurmd srun munged; do
  command -v "$tool" > /dev/null || { echo "SKIPPED: $tool not installed (Debian packages slurmctld slurmd slurm-client munge)"; exit 77; }
done
dir=$build/slurm-test/$scenario
"$here/cluster.sh" down "$dir"
trap '"$here/cluster.sh" down "$dir"' EXIT
"$here/cluster.sh" up "$prefix" 2 "$dir"
h1=${prefix}h1 h2=${prefix}h2
on() { "$here/cluster.sh" on "$h1" "$dir" "$@"; }
pic=$build/bin/tessera-pic
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Slurm's allocation sets the slots, not the test suite's oversubscription.
unset OMPI_MCA_rmaps_base_oversubscribe
work=$dir/work
mkdir -p "$work"
small_run=(--mode=amt --L 120 --n 5000 --steps 20 --print_every 0)
fail() { echo "FAIL: $*"; exit 1; }
# Open MPI 4.1's direct launch under Slurm's PMIx has died at start in CI, in slurm_down and then
# slurm_scancel, never in runs by hand: a task's SIGSEGV beside "A system call failed during shared
# memory initialization" (open(2): no such file). I did not find the cause. A launch that failed
# so is tried once more with its output kept in the log; any other failure fails at once.
launch_flake() { grep -q "A system call failed during shared memory initialization" "$1" 2> /dev/null; }
# retrying OUT COMMAND...: runs COMMAND > OUT 2>&1, a second time after a launch_flake.
retrying() {
  local out=$1; shift
  local status=0
  "$@" > "$out" 2>&1 || status=$?
  if ((status != 0)) && launch_flake "$out"; then
    echo "the first launch hit Open MPI's shared-memory start failure; launching again. Its output:"; cat "$out"
    status=0
    "$@" > "$out" 2>&1 || status=$?
  fi
  return "$status"
}

case $scenario in
  srun)
    retrying "$work/out.txt" on srun -N 2 -n 4 "$pic" "${small_run[@]}" --tessera_lb_name=TemperedLB --tessera_lb_data \
      --tessera_lb_data_dir="$work/lb" --tessera_log_level=info || { cat "$work/out.txt"; fail "srun -N 2 -n 4"; }
    grep -q "validation *passed" "$work/out.txt" || { cat "$work/out.txt"; fail "no validation"; }
    grep -q "ranks *4 on 2 host(s)" "$work/out.txt" || { cat "$work/out.txt"; fail "not 4 ranks on 2 hosts"; }
    nodes=$(python3 -c "import json,sys; print(sorted({json.load(open(f'$work/lb/data.{r}.json'))['metadata']['shared_node']['num_nodes'] for r in range(4)}))")
    [[ $nodes == "[2]" ]] || fail "the LB data names $nodes nodes, expected [2]"
    for host in "$h1" "$h2"; do
      grep -q "idle policy on $host: 2 rank(s), 2 usable CPU(s).*a CPU per rank" "$work/out.txt" \
        || { grep "idle policy" "$work/out.txt"; fail "idle policy on $host"; }
    done
    retrying "$work/bound.txt" on srun -N 1 -n 2 --cpu-bind=map_cpu:0,0 "$pic" "${small_run[@]}" --tessera_log_level=info \
      || { cat "$work/bound.txt"; fail "srun with both tasks on CPU 0"; }
    grep -q "idle policy on $h1: 2 rank(s), 1 usable CPU(s).*ranks share CPUs" "$work/bound.txt" \
      || { grep "idle policy" "$work/bound.txt"; fail "two tasks on one CPU not seen as sharing"; }
    echo "srun -N 2 -n 4: validated, LB data of 2 nodes; idle policy: $(grep -c 'a CPU per rank' "$work/out.txt") nodes with a CPU per rank, and 2 tasks on Slurm's CPU 0 seen as sharing"
    ;;

  sbatch)
    run=(--mode=amt --L 240 --n 30000 --steps 40 --print_every 0)
    cat > "$work/write.sh" <<EOF
#!/bin/sh
#SBATCH -N 2
#SBATCH -n 4
#SBATCH -o $work/write.out
srun "$pic" ${run[*]} --tessera_lb_name=TemperedLB --tessera_lb_interval=auto --checkpoint_every 10 \
  --tessera_checkpoint_dir="$work/ck" --tessera_checkpoint_keep=0 --dump_particles "$work/uninterrupted.bin"
EOF
    cat > "$work/restart.sh" <<EOF
#!/bin/sh
#SBATCH -N 1
#SBATCH -n 2
#SBATCH -o $work/restart.out
srun "$pic" ${run[*]} --tessera_lb_name=GreedyLB --restart "$work/ck" --dump_particles "$work/restarted.bin"
EOF
    # The job's own output is where a launch failure shows: the retry reads write.out.
    sbatch_retrying() {
      local script=$1 out=$2 log=$3 status=0
      on sbatch --wait "$script" > "$log" 2>&1 || status=$?
      if ((status != 0)) && launch_flake "$out"; then
        echo "the first job hit Open MPI's shared-memory start failure; submitting again. Its output:"; cat "$out"
        rm -f "$out"; status=0
        on sbatch --wait "$script" > "$log" 2>&1 || status=$?
      fi
      return "$status"
    }
    sbatch_retrying "$work/write.sh" "$work/write.out" "$work/sbatch1.txt" \
      || { cat "$work/sbatch1.txt" "$work/write.out"; fail "the writing job"; }
    grep -q "validation *passed" "$work/write.out" || { cat "$work/write.out"; fail "the writing job did not validate"; }
    # Restart from the checkpoint after step 20, as if the job had died after it.
    rm -rf "$work/ck/phase.000000000030" "$work/ck/phase.000000000040"
    sbatch_retrying "$work/restart.sh" "$work/restart.out" "$work/sbatch2.txt" \
      || { cat "$work/sbatch2.txt" "$work/restart.out"; fail "the restarting job"; }
    grep -q "restarted from .*phase.000000000020 after step 20" "$work/restart.out" || { cat "$work/restart.out"; fail "not restarted after step 20"; }
    cmp -s "$work/uninterrupted.bin" "$work/restarted.bin" || fail "the restarted job's final particles differ"
    echo "sbatch: 2 nodes x 2 tasks with checkpoints, then 1 node x 2 tasks from step 20: final particles byte-identical"
    ;;

  salloc)
    on salloc -N 2 -n 4 mpirun "$pic" "${small_run[@]}" --tessera_lb_name=HierLB > "$work/out.txt" 2>&1 \
      || { cat "$work/out.txt"; fail "salloc + mpirun"; }
    grep -q "validation *passed" "$work/out.txt" && grep -q "ranks *4 on 2 host(s)" "$work/out.txt" \
      || { cat "$work/out.txt"; fail "salloc + mpirun did not validate on 4 ranks on 2 hosts"; }
    echo "salloc -N 2 -n 4 mpirun: validated on 4 ranks on 2 hosts"
    ;;

  scancel)
    cat > "$work/long.sh" <<EOF
#!/bin/sh
#SBATCH -N 2
#SBATCH -n 4
#SBATCH -o $work/long.out
srun "$pic" --mode=amt --L 480 --n 200000 --steps 100000 --print_every 10 --tessera_lb_name=TemperedLB
EOF
    stepping() { grep -Eq "^ +[1-9][0-9]* +[0-9.]+ " "$work/long.out" 2> /dev/null; }
    for attempt in 1 2; do
      job=$(on sbatch --parsable "$work/long.sh")
      for ((i = 0; i < 600; ++i)); do
        stepping && break
        launch_flake "$work/long.out" && [[ -z $(on squeue -h -j "$job" 2> /dev/null) ]] && break
        sleep 0.1
      done
      stepping && break
      launch_flake "$work/long.out" && ((attempt == 1)) || { cat "$work/long.out"; fail "the job did not start stepping within 60 s"; }
      echo "job $job hit Open MPI's shared-memory start failure; submitting again. Its output:"; cat "$work/long.out"
      on scancel "$job" 2> /dev/null || true
      for ((i = 0; i < 300; ++i)); do [[ -z $(on squeue -h -j "$job" 2> /dev/null) ]] && break; sleep 0.1; done
      rm -f "$work/long.out"
    done
    # What the running job holds on its hosts, which must all go (so the check below can fail).
    held=$(ls -A "$dir/shm/$h1" "$dir/shm/$h2" "$dir/tmp/$h1" "$dir/tmp/$h2" | grep -vc ':$' || true)
    echo "while running: $(ls -A "$dir/shm/$h1" | tr '\n' ' ')in $h1's /dev/shm; $(ls -A "$dir/tmp/$h1" | tr '\n' ' ')in its TmpFS"
    on scancel "$job"
    for ((i = 0; i < 300; ++i)); do [[ -z $(on squeue -h -j "$job" 2> /dev/null) ]] && break; sleep 0.1; done
    [[ -z $(on squeue -h -j "$job" 2> /dev/null) ]] || fail "job $job still listed 30 s after scancel"
    sleep 1
    # The daemons, by their pid files, and slurmctld's own helper (slurmscriptd, its child).
    daemons=$(cat "$dir"/slurmd.*.pid "$dir/slurmctld.pid" "$dir/munge/pid"; pgrep -P "$(cat "$dir/slurmctld.pid")")
    left=0
    for host in "$h1" "$h2"; do
      for pid in $(ip netns pids "$host"); do
        grep -qx "$pid" <<< "$daemons" && continue
        echo "left behind on $host: $(tr '\0' ' ' < "/proc/$pid/cmdline" 2> /dev/null)"; left=1
      done
      if [[ -n $(ls -A "$dir/shm/$host") ]]; then echo "left in $host's /dev/shm: $(ls -A "$dir/shm/$host")"; left=1; fi
      if [[ -n $(ls -A "$dir/tmp/$host") ]]; then echo "left in $host's TmpFS: $(ls -A "$dir/tmp/$host")"; left=1; fi
      # Open MPI's session folders, named after the host, in the shared /tmp.
      if compgen -G "${TMPDIR:-/tmp}/ompi.$host.*" > /dev/null; then echo "left: $(ls -d "${TMPDIR:-/tmp}"/ompi."$host".*)"; left=1; fi
    done
    ((left == 0)) || fail "scancel left processes or files behind"
    ((held > 0)) || fail "the running job held nothing in /dev/shm or /tmp: nothing to check"
    echo "scancel of job $job mid-run: $held files and folders in the hosts' /dev/shm and TmpFS while it ran, none left; no Open MPI session folder and no process left"
    ;;

  down)
    # The job must be stepping when its node goes DOWN. A launch that dies before stepping (see
    # launch_flake) is not a node failure, so it is tried once more, and the first one's output kept.
    stepping() { grep -Eq "^ +[1-9][0-9]* +[0-9.]+ " "$work/out.txt" 2> /dev/null; }
    for attempt in 1 2; do
      on srun -N 2 -n 4 "$pic" --mode=amt --L 480 --n 200000 --steps 100000 --print_every 10 > "$work/out.txt" 2>&1 &
      srun_pid=$!
      for ((i = 0; i < 600; ++i)); do stepping && break; kill -0 "$srun_pid" 2> /dev/null || break; sleep 0.1; done
      stepping && break
      echo "attempt $attempt: the job did not start stepping:"; cat "$work/out.txt"
      kill "$srun_pid" 2> /dev/null || true
      wait "$srun_pid" 2> /dev/null || true
    done
    stepping || fail "the job did not start stepping within 60 s, twice"
    on scontrol update nodename="$h2" state=down reason=tessera-test
    status=0
    timeout 60 tail --pid="$srun_pid" -f /dev/null || fail "the job did not end within 60 s of its node going DOWN"
    wait "$srun_pid" || status=$?
    ((status != 0)) || fail "the job exited 0 although a node went DOWN"
    # Slurm names the node that went DOWN ("Node failure on HOST", or "HOST: tasks 2-3: ...") and
    # the tasks it ended, on whichever node it reached first.
    host_line=$(grep -m1 -E "$h2" "$work/out.txt" || true)
    task_line=$(grep -m1 -E "srun: error: .*tasks? [0-9]" "$work/out.txt" || true)
    [[ -n $host_line && -n $task_line ]] || { cat "$work/out.txt"; fail "no message names $h2 and the ranks ended"; }
    echo "node $h2 set DOWN mid-job: exit $status; '$host_line'; '$task_line'"
    ;;

  small)
    set +e
    out=$(on salloc -N 1 -n 2 mpirun -np 4 "$pic" "${small_run[@]}" 2>&1)
    status=$?
    set -e
    ((status != 0)) || fail "4 ranks in an allocation of 2 ran"
    grep -q "not enough slots" <<< "$out" || { echo "$out"; fail "no message about the allocation's size"; }
    echo "4 ranks asked in an allocation of 2 tasks: exit $status, '$(grep -m1 'not enough slots' <<< "$out" | sed 's/^ *//')'"
    ;;

  munge)
    # A second munged with another key, and a client configured to use it.
    mkdir -p "$work/munge/key.d" && chmod 755 "$work/munge" && chmod 700 "$work/munge/key.d"
    dd if=/dev/urandom of="$work/munge/key.d/key" bs=1024 count=1 status=none && chmod 400 "$work/munge/key.d/key"
    "$here/cluster.sh" on "$h1" "$dir" munged --force --socket="$work/munge/socket" --key-file="$work/munge/key.d/key" \
      --pid-file="$work/munge/pid" --log-file="$work/munge/log" --seed-file="$work/munge/seed" --origin=10.214.0.1
    sed "s|^AuthInfo=.*|AuthInfo=socket=$work/munge/socket|" "$dir/slurm.conf" > "$work/other.conf"
    set +e
    out=$(SLURM_CONF=$work/other.conf timeout 60 "$here/cluster.sh" on "$h1" "$dir" env SLURM_CONF="$work/other.conf" srun -N 1 -n 1 hostname 2>&1)
    status=$?
    set -e
    kill "$(cat "$work/munge/pid")" 2> /dev/null || true
    ((status != 0 && status != 124)) || { echo "$out"; fail "a client with another munge key: exit $status"; }
    # The client is told only that the controller hung up; the controller's log names munge.
    logged=$(grep -m1 -iE "munge.*(invalid|decode|credential)" "$dir/log/slurmctld.log" || true)
    [[ -n $logged ]] || { tail -20 "$dir/log/slurmctld.log"; fail "slurmctld's log does not name the munge failure"; }
    echo "a client with another munge key: exit $status, client: '$(tail -1 <<< "$out")'; slurmctld.log: '${logged#*] }'"
    # A missing key: munged refuses to start, naming the file.
    set +e
    out=$(timeout 30 munged --force --socket="$work/munge/socket2" --key-file="$work/munge/no-such-key" \
      --pid-file="$work/munge/pid2" --log-file="$work/munge/log2" --seed-file="$work/munge/seed2" 2>&1)
    status=$?
    set -e
    ((status != 0 && status != 124)) && grep -q "no-such-key" <<< "$out" || { echo "$out"; fail "munged with no key: exit $status"; }
    echo "munged with no key: exit $status, '$out'"
    ;;

  *) echo "slurm_test.sh: unknown scenario '$scenario'"; exit 2 ;;
esac
