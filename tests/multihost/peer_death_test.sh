#!/usr/bin/env bash
# peer_death_test.sh RUNTIME_ERRORS mpi|ofi: on a test bed of 2 hosts (run.sh --hosts 2), rank 1
# (on host 2) is killed with SIGKILL in the middle of a ping-pong with rank 0 (on host 1). What the
# user must get, within 30 s and never a hang: one message naming rank 1 and its host, and a
# non-zero exit.
#   - ofi: mpirun lets the job outlive a rank (--enable-recovery), so rank 0's own transport must
#     stop it: "rank 1 on host <h2> is unreachable" (peer_timeout=3), rank 0 exit != 0.
#   - mpi: Open MPI's daemons see the death and mpirun stops every rank, naming rank 1 and host 2.
set -u
binary=$1 transport=$2
host2=${TESSERA_TESTBED:?run inside run.sh}h2
start=$SECONDS
if [[ $transport == ofi ]]; then
  output=$(timeout 60 "$TESSERA_LAUNCH" 2x1 --enable-recovery -- sh -c \
    '"$@"; echo "rank $OMPI_COMM_WORLD_RANK exit status $?" >&2' sh \
    "$binary" peer-dies --tessera_transport=ofi "--tessera_transport_args=provider=tcp peer_timeout=3" 2>&1)
  status=$?
else
  output=$(timeout 60 "$TESSERA_LAUNCH" 2x1 -- "$binary" peer-dies --tessera_transport=mpi 2>&1)
  status=$?
fi
elapsed=$((SECONDS - start))
fail() { echo "$1 (after ${elapsed} s, status $status); output:"; echo "$output"; exit 1; }
[ "$status" -eq 124 ] && fail "the job hung"
if [[ $transport == ofi ]]; then
  grep -q "tessera error on rank 0: rank 1 on host $host2 is unreachable" <<<"$output" \
    || fail "rank 0 did not name the dead rank and its host"
  grep -Eq "rank 0 exit status [1-9]" <<<"$output" || fail "rank 0 did not exit non-zero"
else
  [ "$status" -ne 0 ] || fail "mpirun exited 0"
  grep -Eq "rank 1 .*on node $host2 .*(signal 9|Killed)" <<<"$output" \
    || fail "no message named rank 1 and its host"
fi
[ "$elapsed" -le 30 ] || fail "stopping took too long"
echo "the job stopped in ${elapsed} s (status $status): $(grep -m1 -E "tessera error|rank 1 .*$host2" <<<"$output")"
