#!/bin/sh
# Open MPI's plm_rsh_agent for the emulated hosts: where mpirun would ssh to HOST and run the
# command (orted with its arguments, as one shell command line), this runs it in HOST's network
# namespace under HOST's name. Only test bed hosts (tmh<pid>h<i>) are accepted: the agent never
# reaches anything else.
#
#   rsh_agent.sh [ssh-style options] HOST COMMAND...
while [ $# -gt 0 ]; do
  case $1 in
    -*) shift ;;  # ssh options Open MPI may add (-x): nothing to forward here
    *) break ;;
  esac
done
host=$1
shift
case $host in
  tmh*h*) ;;
  *) echo "rsh_agent.sh: '$host' is not a test bed host" >&2; exit 255 ;;
esac
[ -e "/run/netns/$host" ] || { echo "rsh_agent.sh: host '$host' is not up" >&2; exit 255; }
exec ip netns exec "$host" unshare --uts sh -c 'hostname "$0" && exec sh -c "$1"' "$host" "$*"
