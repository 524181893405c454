#!/usr/bin/env bash
# elastic_hosts_test.sh PIC [TRANSPORT FLAGS...]: on 2 emulated hosts with 2 ranks each and 2 spare
# slots each (launch.sh 2x2+2), the PIC main job's path with TemperedLB drains the second host
# (its 2 ranks leave), is refused an expand onto a host the job was not given, then expands onto
# the second host again (2 processes spawned there by name): it ends on 4 ranks on 2 hosts and
# validates. Runs inside run.sh (--hosts 2), which names the hosts.
set -u
pic=$1
shift
h2=${TESSERA_TESTBED:?runs inside tests/multihost/run.sh}h2
plan="--tessera_elastic_plan=20:shrink 2,3;30:expand 2 ${TESSERA_TESTBED}h9;40:expand 2 $h2"
out=$("$TESSERA_LAUNCH" 2x2+2 -- "$pic" --mode=amt --L 240 --n 60000 --steps 60 --print_every 0 \
  --tessera_lb_name=TemperedLB "$plan" "$@" 2>&1)
status=$?
fail() { echo "$out"; echo "FAIL: $*"; exit 1; }
((status == 0)) || fail "the run exited $status"
grep -q "validation  *passed" <<< "$out" || fail "not validated"
grep -q "phase 20 shrink 4 -> 2 ranks" <<< "$out" || fail "the second host was not drained at phase 20"
[[ $(grep -c "refused 'expand 2 ${TESSERA_TESTBED}h9'.*not one the job's processes started on" <<< "$out") == 1 ]] \
  || fail "expected one refusal of the expand onto a host the job was not given"
grep -q "phase 40 expand 2 -> 4 ranks" <<< "$out" || fail "no expand onto $h2 at phase 40"
grep -Eq "ranks +4 -> 4 \(2 elastic rescale\(s\)\) on 2 host\(s\)" <<< "$out" || fail "did not end on 4 ranks on 2 hosts"
echo "host $h2 drained at phase 20, an expand onto an unknown host refused, 2 processes spawned on $h2 at phase 40: 4 ranks on 2 hosts, validated"
grep "tessera elastic: phase" <<< "$out"
