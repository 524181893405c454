#!/usr/bin/env bash
# Runs one multi-host test: makes a test bed of emulated hosts, runs the command, and removes the
# test bed by name whatever happened (testbed.sh).
#
#   run.sh [--hosts N] [--rate RATE] [--timeout S] [--expect RE] -- COMMAND [ARGS...]
#   run.sh --layout HxR [--rate RATE] [--timeout S] [--expect RE] -- PROGRAM [ARGS...]
#
# The first form runs COMMAND in the root namespace with TESSERA_TESTBED and TESSERA_LAUNCH set:
# "$TESSERA_LAUNCH 2x2 -- prog" starts prog across the hosts (launch.sh); a script can launch
# several jobs on one test bed (a checkpoint written on 2x2 and restarted on 3x1). The second form
# is the first with COMMAND = launch.sh HxR -- PROGRAM ARGS, on H hosts.
# COMMAND runs under `timeout S` (default 240), so the test bed is removed even when it hangs.
# With --expect, a run that exits 0 but prints no line matching the extended regex RE fails (1).
# Exit status: COMMAND's; 77 (ctest's SKIP_RETURN_CODE) with "SKIPPED: reason" when no test bed
# can be made here (not root, no namespaces).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
hosts=2 rate="" limit=240 layout="" expect=""
while (($#)) && [[ $1 != -- ]]; do
  case $1 in
    --hosts) hosts=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --timeout) limit=$2; shift 2 ;;
    --layout) layout=$2; hosts=${2%%x*}; shift 2 ;;
    --expect) expect=$2; shift 2 ;;
    *) echo "run.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ ${1:-} == -- ]] || { echo "run.sh: missing -- before the command" >&2; exit 2; }
shift
(($#)) || { echo "run.sh: no command" >&2; exit 2; }

if ! reason=$("$here/testbed.sh" check); then
  echo "SKIPPED: multi-host test bed unavailable: $reason"
  exit 77
fi
"$here/testbed.sh" sweep  # test beds of killed tests, by name

prefix="tmh$$"
cleanup() { "$here/testbed.sh" down "$prefix" "$hosts"; }
trap cleanup EXIT
trap 'exit 143' TERM INT
"$here/testbed.sh" up "$prefix" "$hosts" "$rate"
export TESSERA_TESTBED=$prefix TESSERA_LAUNCH=$here/launch.sh
if [[ -n $layout ]]; then set -- "$here/launch.sh" "$layout" -- "$@"; fi
output=$(mktemp)
set +e
timeout --kill-after=5 "$limit" "$@" 2>&1 | tee "$output"
status=${PIPESTATUS[0]}
set -e
((status != 124)) || echo "run.sh: the command did not end within $limit s"
if ((status == 0)) && [[ -n $expect ]] && ! grep -Eq -- "$expect" "$output"; then
  echo "run.sh: no line of the output matches '$expect'"
  status=1
fi
rm -f "$output"
exit "$status"
