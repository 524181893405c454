#!/usr/bin/env bash
# unreachable_host_test.sh PROGRAM [ARGS...]: on a test bed of 2 hosts (run.sh --hosts 2) whose
# host 2 has lost its link, a job across both hosts must fail at start-up within 60 s, with a
# message naming host 2 and a non-zero exit, never a hang.
set -u
host2=${TESSERA_TESTBED:?run inside run.sh}h2
ip -n "$host2" link set eth0 down
start=$SECONDS
output=$(timeout 90 "$TESSERA_LAUNCH" 2x1 -- "$@" 2>&1)
status=$?
elapsed=$((SECONDS - start))
fail() { echo "$1 (after ${elapsed} s, status $status); output:"; echo "$output"; exit 1; }
[ "$status" -eq 124 ] && fail "the job hung"
[ "$status" -ne 0 ] || fail "the job exited 0"
grep -q "$host2" <<<"$output" || fail "no message named the unreachable host"
[ "$elapsed" -le 60 ] || fail "stopping took too long"
echo "start-up failed in ${elapsed} s (status $status), naming $host2: $(grep -m1 "$host2" <<<"$output")"
