#!/usr/bin/env bash
# mpirun across the emulated hosts of the test bed named by $TESSERA_TESTBED (set by run.sh).
#
#   launch.sh HOSTSxRANKS [mpirun options...] -- PROGRAM [ARGS...]
#
# HOSTSxRANKS: "2x2" is hosts 1 and 2 with 2 ranks each, "3x1" hosts 1-3 with one rank each;
# "2x2+2" gives each host 2 slots more than it starts ranks on, for an elastic expand to fill.
# mpirun itself runs on host 1 (in its namespace, under its name); Open MPI starts the daemons of
# the other hosts through rsh_agent.sh. MPI's own traffic between hosts uses the tcp BTL on the test
# bed's subnet, as it would over a cluster's Ethernet; within a host, shared memory. With
# TESSERA_LAUNCH_MPI=ofi, MPI's point-to-point goes through libfabric's tcp;ofi_rxm instead (the
# cm PML with the ofi MTL), the provider Tessera's ofi transport uses: "MPI over the same links".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
prefix=${TESSERA_TESTBED:?launch.sh runs inside run.sh (TESSERA_TESTBED unset)}
layout=${1:?usage: launch.sh HOSTSxRANKS [mpirun options] -- PROGRAM [ARGS]}
shift
[[ $layout =~ ^([0-9]+)x([0-9]+)(\+([0-9]+))?$ ]] || { echo "launch.sh: bad layout '$layout' (want e.g. 2x2)" >&2; exit 2; }
hosts=${BASH_REMATCH[1]}
per_host=${BASH_REMATCH[2]}
spare=${BASH_REMATCH[4]:-0}
options=()
while (($#)) && [[ $1 != -- ]]; do options+=("$1"); shift; done
[[ ${1:-} == -- ]] || { echo "launch.sh: missing -- before the program" >&2; exit 2; }
shift

host_list=""
for ((i = 1; i <= hosts; ++i)); do host_list+="${host_list:+,}${prefix}h$i:$((per_host + spare))"; done
spare_options=()
# Spare slots: still per_host ranks on each host, and Open MPI must yield while it waits, as it
# would not on hosts it believes have a core per slot.
((spare == 0)) || spare_options=(--npernode "$per_host" --mca mpi_yield_when_idle 1)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
case ${TESSERA_LAUNCH_MPI:-tcp} in
  tcp) pml=(--mca pml ob1) ;;
  ofi) pml=(--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include "tcp;ofi_rxm") ;;
  *) echo "launch.sh: TESSERA_LAUNCH_MPI must be tcp or ofi" >&2; exit 2 ;;
esac
cmd=(mpirun --host "$host_list" -np $((hosts * per_host)) --oversubscribe --bind-to none
     --mca plm_rsh_agent "$here/rsh_agent.sh" "${pml[@]}" --mca btl self,vader,tcp
     --mca btl_tcp_if_include 10.214.0.0/24 --mca oob_tcp_if_include 10.214.0.0/24
     "${spare_options[@]}" "${options[@]}" "$@")
exec ip netns exec "${prefix}h1" unshare --uts sh -c 'hostname "$0" && shift && exec "$@"' \
  "${prefix}h1" -- "${cmd[@]}"
