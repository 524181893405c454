#!/usr/bin/env bash
# expect_failure.sh REGEX CMD...: passes when CMD exits non-zero and its output matches REGEX.
# Used for user-facing errors, which must print one clear message and fail on every rank.
regex=$1
shift
output=$("$@" 2>&1)
status=$?
if [ "$status" -eq 0 ]; then
  echo "expected a non-zero exit, got 0; output:"; echo "$output"; exit 1
fi
if ! grep -Eq -- "$regex" <<<"$output"; then
  echo "exit $status, but the output does not match /$regex/:"; echo "$output"; exit 1
fi
echo "failed as expected (exit $status): $(grep -E -m1 -- "$regex" <<<"$output")"
