#!/usr/bin/env bash
# peer_death_test.sh MPIRUN [FLAGS...] -- RUNTIME_ERRORS: rank 1 of 2 is killed (SIGKILL) in the
# middle of a ping-pong over ofi (tcp;ofi_rxm). mpirun is told to let the job outlive a rank
# (Open MPI's --enable-recovery; it then exits 0 whatever its ranks do), so what must stop rank 0
# is its own transport: one message naming rank 1, and rank 0's own exit status non-zero, well
# within the peer timeout plus the heartbeat interval, never a hang.
set -u
mpirun=()
while [ "$1" != "--" ]; do mpirun+=("$1"); shift; done
shift
binary=$1
start=$SECONDS
output=$(timeout 60 "${mpirun[@]}" --enable-recovery -np 2 sh -c \
  '"$@"; echo "rank $OMPI_COMM_WORLD_RANK exit status $?" >&2' sh \
  "$binary" peer-dies --tessera_transport=ofi --tessera_shm=false \
  "--tessera_transport_args=provider=tcp peer_timeout=3" 2>&1)
status=$?
elapsed=$((SECONDS - start))
fail() { echo "$1 (after ${elapsed} s); output:"; echo "$output"; exit 1; }
[ "$status" -eq 124 ] && fail "the job hung"
grep -q "tessera error on rank 0: rank 1 on host $(hostname) is unreachable" <<<"$output" || fail "rank 0 did not name the dead rank"
grep -Eq "rank 0 exit status [1-9]" <<<"$output" || fail "rank 0 did not exit non-zero"
[ "$elapsed" -le 30 ] || fail "rank 0 took too long"
echo "rank 0 stopped in ${elapsed} s: $(grep -m1 'tessera error on rank 0' <<<"$output")"
