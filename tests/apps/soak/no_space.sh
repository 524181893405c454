#!/usr/bin/env bash
# no_space.sh SOAK DIR: a soak checkpointing every 2 phases into a 64 KiB tmpfs runs out of space;
# every rank must stop with exit 2 and one message naming the file and "No space left on device",
# never a hang or a crash. Mounting needs root: elsewhere the test skips (exit 77).
set -u
soak=$1 dir=$2
rm -rf "$dir"
mkdir -p "$dir/mnt"
mount -t tmpfs -o size=64k tmpfs "$dir/mnt" 2>/dev/null || { echo "skipped: cannot mount a small tmpfs here (needs root)"; exit 77; }
trap 'umount "$dir/mnt"' EXIT
output=$($MPIRUN -np 2 "$soak" --phases 40 --checkpoint_every 2 "--tessera_checkpoint_dir=$dir/mnt/ck" 2>&1)
status=$?
regex="$dir/mnt/ck/phase\.[0-9]+/[a-z0-9.]+: cannot (write|sync to disk|close): No space left on device"
[ "$status" -eq 2 ] || { echo "expected exit 2, got $status; output:"; echo "$output"; exit 1; }
matches=$(grep -Ec -- "$regex" <<<"$output")
[ "$matches" -eq 1 ] || { echo "expected one message matching /$regex/, found $matches:"; echo "$output"; exit 1; }
echo "no space: failed as expected: $(grep -E -m1 -- "$regex" <<<"$output")"
