#!/usr/bin/env bash
# late.sh BIN DIR CASE: a process joins a run whose collections changed after the start
# (late_collection.cpp). ok: the run ends on 3 ranks with every check passed. wrong-type and
# missing: the joined process creates the wrong collections, and the run stops with one message
# and a non-zero exit. SPAWN_MPIRUN holds mpirun and its flags for runs that spawn.
set -u
bin=$1 dir=$2 case=$3
rm -rf "$dir" && mkdir -p "$dir"
out=$dir/$case.out
fail() { cat "$out"; echo "FAIL (late $case): $*"; exit 1; }

set +e
timeout 100 $SPAWN_MPIRUN --host localhost:8 -np 2 "$bin" "--joiner=$case" > "$out" 2>&1
rc=$?
set -e
[ "$rc" != 124 ] || fail "the run hung"
case $case in
  ok)
    [ "$rc" = 0 ] || fail "exited $rc"
    grep -q "^late: 3 ranks, .* on every rank: yes, 16 of 16 elements, .* 16 received their left neighbour's index once: ok" "$out" ||
      fail "no passing line"
    ;;
  wrong-type)
    [ "$rc" != 0 ] || fail "exited 0"
    grep -q "created a .*Early.* where the running ranks hold a .*Late.* (collective id" "$out" || fail "no message naming both types"
    ;;
  missing)
    [ "$rc" != 0 ] || fail "exited 0"
    grep -q "reached its first phase end without creating 1 of the collections and object groups the running ranks hold: .*Late" "$out" ||
      fail "no message naming the missing collection"
    ;;
  *) fail "unknown case" ;;
esac
echo "late $case passed"
