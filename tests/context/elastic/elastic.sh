#!/usr/bin/env bash
# elastic.sh BIN DIR CASE: runs tessera-elastic-check through shrinks and compares each run's
# fingerprint with a run on a fixed rank count. MPIRUN holds mpirun and its flags.
set -u
bin=$1 dir=$2 case=$3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL ($case): $*"; exit 1; }

# run NAME NP ARGS...: runs, keeps the output in $dir/NAME.out, fails on a non-zero exit.
run() {
  local name=$1 np=$2
  shift 2
  $MPIRUN -np "$np" "$bin" "$@" > "$dir/$name.out" 2>&1 || { cat "$dir/$name.out"; fail "$name exited non-zero"; }
}
fingerprint() { sed -n 's/.*fingerprint \([0-9a-f]*\), 0 failure.*/\1/p' "$dir/$1.out"; }
ranks_at_end() { sed -n 's/.*phases, \([0-9]*\) ranks at the end.*/\1/p' "$dir/$1.out"; }
expect_same() {  # NAME RANKS: the run ended on RANKS ranks with the fixed run's fingerprint
  local got
  got=$(fingerprint "$1")
  [ -n "$got" ] || { cat "$dir/$1.out"; fail "$1 printed no clean fingerprint"; }
  [ "$got" = "$reference" ] || { cat "$dir/$1.out"; fail "$1: fingerprint $got, the fixed run's $reference"; }
  [ "$(ranks_at_end "$1")" = "$2" ] || { cat "$dir/$1.out"; fail "$1 ended on $(ranks_at_end "$1") ranks, expected $2"; }
  echo "$1: fingerprint $got on $2 ranks, as the fixed run"
}

run fixed2 2
reference=$(fingerprint fixed2)
[ -n "$reference" ] || { cat "$dir/fixed2.out"; fail "the fixed run on 2 ranks printed no clean fingerprint"; }

case $case in
  fixed)
    run fixed4 4
    expect_same fixed4 4
    run fixed1 1
    expect_same fixed1 1
    ;;
  plan)
    # 4 -> 3 (rank 1 leaves) -> 2 (rank 2 of the three, the first run's rank 3), with every balancer.
    for lb in none GreedyLB HierLB GrapevineLB TemperedLB; do
      flags=()
      [ "$lb" = none ] || flags=(--tessera_lb_name=$lb --tessera_lb_interval=3)
      run "plan-$lb" 4 "--tessera_elastic_plan=2:shrink 1;4:shrink 2" "${flags[@]}"
      expect_same "plan-$lb" 2
      [ "$(grep -c '^tessera elastic: phase' "$dir/plan-$lb.out")" = 2 ] || { cat "$dir/plan-$lb.out"; fail "plan-$lb: expected two rescale lines"; }
    done
    grep -q 'phase 2 shrink 4 -> 3 ranks (rank(s) 1 left)' "$dir/plan-TemperedLB.out" || fail "no line for the first shrink"
    # Two leave at once, interior ranks.
    run plan-two 4 "--tessera_elastic_plan=3:shrink 1,2" --tessera_lb_name=GreedyLB
    expect_same plan-two 2
    ;;
  code)
    run code 4 --shrink-from-code 3:2,1 --tessera_lb_name=TemperedLB
    expect_same code 2
    ;;
  control)
    printf '# an operator asks\nshrink 3\n' > "$dir/control"
    run control 4 "--tessera_elastic_control=$dir/control" --tessera_lb_name=HierLB
    expect_same control 3
    [ ! -e "$dir/control" ] || fail "rank 0 did not remove the control file after reading it"
    ;;
  refused)
    printf 'shrink\nresize 2\n' > "$dir/control"
    run refused 4 "--tessera_elastic_plan=1:shrink 0;2:shrink 9;3:expand 2;4:shrink 1,1;5:shrink 0,1,2,3" \
      "--tessera_elastic_control=$dir/control"
    expect_same refused 4
    n=$(grep -c 'refused' "$dir/refused.out")
    [ "$n" = 7 ] || { cat "$dir/refused.out"; fail "expected 7 refusals (2 control lines, 5 plan entries), saw $n"; }
    grep -q "refused 'shrink 0'.*rank 0 cannot leave" "$dir/refused.out" || fail "no reason for shrink 0"
    grep -q "refused 'expand 2'.*hands no state to new processes" "$dir/refused.out" || fail "no reason for expand (a program without set_join_state)"
    grep -q "refused 'shrink 0,1,2,3'.*every rank would leave" "$dir/refused.out" || fail "no reason for every rank leaving"
    # A plan that does not parse stops every rank at start-up with one message.
    if $MPIRUN -np 2 "$bin" "--tessera_elastic_plan=x:shrink 1" > "$dir/bad.out" 2>&1; then fail "a bad plan was accepted"; fi
    [ "$(grep -c 'tessera_elastic_plan' "$dir/bad.out")" = 1 ] || { cat "$dir/bad.out"; fail "expected one message for the bad plan"; }
    ;;
  leaving-idle)
    # Rank 2 leaves after phase 1; rank 0 then holds the run 2 s more: the leaver waits at exit
    # without using a core.
    run idle 3 "--tessera_elastic_plan=1:shrink 2" --hold 2
    expect_same idle 2
    line=$(grep '^rank 2 left' "$dir/idle.out") || { cat "$dir/idle.out"; fail "rank 2 did not report leaving"; }
    echo "$line"
    waited=$(echo "$line" | sed 's/.*waited \([0-9.]*\) s.*/\1/')
    cpu=$(echo "$line" | sed 's/.*using \([0-9.]*\) s of CPU.*/\1/')
    awk -v w="$waited" -v c="$cpu" 'BEGIN { exit !(w >= 1.5 && c < 0.1 * w) }' || fail "rank 2 waited $waited s using $cpu s of CPU"
    ;;
  transports)
    run noshm 4 "--tessera_elastic_plan=2:shrink 1;4:shrink 2" --tessera_shm=false --tessera_lb_name=GreedyLB
    expect_same noshm 2
    run ofi 4 "--tessera_elastic_plan=2:shrink 1;4:shrink 2" --tessera_transport=ofi --tessera_lb_name=TemperedLB
    expect_same ofi 2
    ;;
  trace)
    # The same 4 -> 3 -> 2 with a trace: each process keeps its file, renumbered or closed at its
    # cut, and the merged trace holds every stage of both rescales.
    run trace 4 "--tessera_elastic_plan=2:shrink 1;4:shrink 2" --tessera_lb_name=TemperedLB --tessera_lb_interval=3 \
      "--tessera_trace=$dir/trace"
    expect_same trace 2
    python3 - "$dir/trace" <<'PY' || fail "the trace of the rescaled run"
import json, sys, collections
d = sys.argv[1]
events = json.load(open(d + "/trace.json"))["traceEvents"]
names = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
want = {0: "rank 0", 1: "rank 1", 2: "rank 2 -> 1 (rescale 1)", 3: "rank 3 -> 2 (rescale 1)"}
assert names == want, names
count = collections.Counter((e["pid"], e.get("name")) for e in events if e["ph"] in "BX")
for stage in ("decision", "evacuation", "rescale", "quiescence", "cut"):
    assert count[(0, stage)] == 2, (stage, count[(0, stage)])
assert count[(1, "cut")] == 1 and count[(3, "cut")] == 2, "a leaving rank's last slice is its cut"
firsts = [e for e in events if e.get("cat") == "rescale" and e["pid"] == 0]
assert [e["ph"] for e in firsts] == ["b", "e", "b", "e"], firsts
# Rank 1 left at phase 2: its file ends there, while the others go on to the end.
last = {pid: max(e["ts"] for e in events if e["pid"] == pid and "ts" in e) for pid in range(4)}
assert last[1] < last[2] and last[3] < last[2], last
print("trace: 4 processes, names", names, "; stages on rank 0:", {s: count[(0, s)] for s in ("decision", "evacuation", "rescale", "quiescence", "cut")})
PY
    ;;
  turned-away)
    # An expand in the background that the run's end overtakes: the new process is turned away
    # and ends with status 0, the running ranks' results are those of the fixed run.
    MPIRUN=$SPAWN_MPIRUN run away 4 --expand-at-end --tessera_elastic_spawn=background
    expect_same away 4
    grep -q "they end without joining" "$dir/away.out" || { cat "$dir/away.out"; fail "no line for the new process turned away"; }
    ;;
  *) fail "unknown case" ;;
esac
echo "elastic $case passed"
