#!/usr/bin/env bash
# run_checked.sh CMD...: runs CMD, passing its output through, and prints a marker line when it
# exits non-zero. Tests judged by an output pattern (PASS_REGULAR_EXPRESSION) ignore the exit
# status, so a crash after the expected line would pass; their FAIL_REGULAR_EXPRESSION names the
# marker (TESSERA_CHECKED_FAIL_REGEX), which fails them.
"$@"
status=$?
if [ "$status" -ne 0 ]; then
  echo "run_checked: the command exited with status $status: TESSERA_COMMAND_FAILED"
fi
exit "$status"
