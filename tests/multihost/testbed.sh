#!/usr/bin/env bash
# Emulated hosts on one machine, for Tessera's multi-host tests.
#
#   testbed.sh check                    exit 0 when a test bed can be made here, else print why, exit 1
#   testbed.sh up PREFIX N [RATE]       make hosts PREFIXh1..PREFIXhN; RATE (tc syntax, "1gbit")
#                                       shapes each host's link with tbf
#   testbed.sh down PREFIX N            remove, by name, everything `up PREFIX N` made
#   testbed.sh sweep                    `down` every test bed whose creating process is gone
#
# A host is a network namespace named like the host, with one veth ("eth0", 10.214.0.I/24) whose
# other end sits on a bridge in a namespace of its own (PREFIXbr). The root namespace gets no
# interface and no route: nothing outside the namespaces the test bed made can address the hosts,
# and the hosts can address nothing but each other. Host names resolve inside the namespaces
# through /etc/netns/HOST/hosts (ip netns exec binds it over /etc/hosts); each launched process
# also gets the host's name in a UTS namespace of its own (launch.sh, rsh_agent.sh), which is how
# Open MPI tells hosts apart, and so how Tessera's shared-memory split finds its nodes.
#
# PREFIX is "tmh" followed by the pid of the process that owns the test bed (run.sh's), which is
# what lets `sweep` recognise a test bed left behind by a killed test.
set -euo pipefail

readonly subnet=10.214.0
readonly name_pattern='^tmh[0-9]+(br|h[0-9]+)$'

die() { echo "testbed: $*" >&2; exit 1; }

check() {
  [[ $(id -u) == 0 ]] || { echo "not root (network namespaces need CAP_SYS_ADMIN)"; return 1; }
  local tool
  for tool in ip unshare hostname tc; do
    command -v "$tool" > /dev/null || { echo "$tool not found"; return 1; }
  done
  local probe="tmh$$br"
  ip netns add "$probe" 2> /dev/null || { echo "ip netns add failed (no namespace support here)"; return 1; }
  if ! ip -n "$probe" link add tmhprobe type bridge 2> /dev/null; then
    ip netns del "$probe"
    echo "cannot make a bridge in a network namespace"
    return 1
  fi
  ip netns del "$probe"
}

host_names() {  # PREFIX N
  local i
  for ((i = 1; i <= $2; ++i)); do echo "$1h$i"; done
}

up() {
  local prefix=$1 n=$2 rate=${3:-}
  [[ $prefix =~ ^tmh[0-9]+$ ]] || die "bad prefix '$prefix' (want tmh<pid>)"
  ((n >= 1 && n <= 200)) || die "bad host count '$n'"
  local br="${prefix}br" hosts i host
  mapfile -t hosts < <(host_names "$prefix" "$n")
  ip netns add "$br"
  ip -n "$br" link add br0 type bridge
  ip -n "$br" link set br0 up
  ip -n "$br" link set lo up
  for ((i = 1; i <= n; ++i)); do
    host=${hosts[i - 1]}
    ip netns add "$host"
    ip -n "$br" link add "p$i" type veth peer name eth0 netns "$host"
    ip -n "$br" link set "p$i" master br0 up
    ip netns exec "$host" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    ip -n "$host" link set lo up
    ip -n "$host" addr add "$subnet.$i/24" dev eth0
    ip -n "$host" link set eth0 up
    if [[ -n $rate ]]; then
      ip netns exec "$host" tc qdisc add dev eth0 root tbf rate "$rate" burst 256kb latency 50ms
    fi
    mkdir -p "/etc/netns/$host"
    {
      echo "127.0.0.1 localhost"
      local j
      for ((j = 1; j <= n; ++j)); do echo "$subnet.$j ${hosts[j - 1]}"; done
    } > "/etc/netns/$host/hosts"
  done
}

remove_host() {  # HOST: its processes, namespace, name resolution, and Open MPI's files named after it
  local host=$1 pids
  [[ $host =~ $name_pattern ]] || die "refusing to remove '$host': not a test bed name"
  if [[ -e /run/netns/$host ]]; then
    pids=$(ip netns pids "$host" 2> /dev/null || true)
    [[ -z $pids ]] || kill -9 $pids 2> /dev/null || true
    ip netns del "$host" 2> /dev/null || true
  fi
  rm -rf "/etc/netns/$host"
  # Open MPI's session directories and shared-memory segments carry the host name.
  rm -rf "${TMPDIR:-/tmp}"/ompi."$host".* /dev/shm/*."$host".* /dev/shm/*"$host"* 2> /dev/null || true
}

down() {
  local prefix=$1 n=$2 host
  [[ $prefix =~ ^tmh[0-9]+$ ]] || die "bad prefix '$prefix' (want tmh<pid>)"
  for host in $(host_names "$prefix" "$n"); do remove_host "$host"; done
  remove_host "${prefix}br"
  rmdir /etc/netns 2> /dev/null || true  # only when empty: ip netns exec needs no such folder
}

sweep() {
  local name pid
  for name in $(ls /run/netns 2> /dev/null) $(ls /etc/netns 2> /dev/null); do
    [[ $name =~ $name_pattern ]] || continue
    pid=${name#tmh}
    pid=${pid%%[bh]*}
    kill -0 "$pid" 2> /dev/null && continue  # its owner still runs
    remove_host "$name"
  done
}

case ${1:-} in
  check) check ;;
  up) up "${2:?prefix}" "${3:?host count}" "${4:-}" ;;
  down) down "${2:?prefix}" "${3:?host count}" ;;
  sweep) sweep ;;
  *) die "usage: testbed.sh check | up PREFIX N [RATE] | down PREFIX N | sweep" ;;
esac
