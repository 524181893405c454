#!/usr/bin/env bash
# roundtrip.sh BIN DIR WRITE_RANKS READ_RANKS: checkpoint on WRITE_RANKS ranks, restart on
# READ_RANKS, exact states checked by the restarted run. MPIRUN holds mpirun and its flags.
set -u
bin=$1 dir=$2 w=$3 r=$4
rm -rf "$dir"
$MPIRUN -np "$w" "$bin" write "$dir" || { echo "write on $w ranks failed"; exit 1; }
[ -f "$dir/manifest.json" ] || { echo "no manifest.json in $dir"; exit 1; }
count=$(ls "$dir"/rank.*.tck | wc -l)
[ "$count" -eq "$w" ] || { echo "expected $w rank files, found $count"; exit 1; }
$MPIRUN -np "$r" "$bin" read "$dir" || { echo "restart on $r ranks failed"; exit 1; }
echo "round trip $w -> $r ranks passed"
