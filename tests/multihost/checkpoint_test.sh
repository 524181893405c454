#!/usr/bin/env bash
# checkpoint_test.sh BIN DIR [FLAGS...]: on a test bed of 3 hosts (run.sh --hosts 3), write a
# checkpoint on 2 hosts x 2 ranks and restart it on 3 hosts x 1 rank; the restarted run checks every
# element's state exactly (tests/collections/checkpoint/roundtrip.cpp). The checkpoint directory is
# one all hosts see, as a cluster's shared file system.
set -u
bin=$1 dir=$2
shift 2
rm -rf "$dir"
"$TESSERA_LAUNCH" 2x2 -- "$bin" write "$dir" "$@" || { echo "write on 2 hosts x 2 ranks failed"; exit 1; }
count=$(ls "$dir"/rank.*.tck 2> /dev/null | wc -l)
[ "$count" -eq 4 ] || { echo "expected 4 rank files, found $count"; exit 1; }
"$TESSERA_LAUNCH" 3x1 -- "$bin" read "$dir" "$@" || { echo "restart on 3 hosts x 1 rank failed"; exit 1; }
echo "checkpoint 2 hosts x 2 ranks -> 3 hosts x 1 rank passed"
