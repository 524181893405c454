#!/usr/bin/env bash
# faults.sh BIN DIR SCENARIO: a bad checkpoint or directory must stop every rank with one message
# naming the file and what is wrong, and a non-zero exit; nothing is restored.
set -u
bin=$1 dir=$2 scenario=$3
rm -rf "$dir"
if [ "$scenario" != unwritable ] && [ "$scenario" != unwritable-dir ] && [ "$scenario" != empty ] && [ "$scenario" != no-space ]; then
  $MPIRUN -np 2 "$bin" write "$dir" > /dev/null || { echo "write failed"; exit 1; }
fi
mode=read
case "$scenario" in
  truncated) truncate -s -100 "$dir/rank.1.tck"; regex="rank\.1\.tck: truncated" ;;
  corrupted) printf 'X' | dd of="$dir/rank.0.tck" bs=1 seek=200 conv=notrunc status=none
             regex="rank\.0\.tck: corrupted: its CRC-32C differs" ;;
  missing) rm "$dir/rank.1.tck"; regex="rank\.1\.tck: missing" ;;
  other-program) sed -i 's/"program": "[^"]*"/"program": "someone-else"/' "$dir/manifest.json"
                 regex="manifest\.json: written by program 'someone-else'" ;;
  not-json) echo '{"format": ' > "$dir/manifest.json"; regex="manifest\.json: not valid JSON" ;;
  other-type) mode=read-other; regex="collection 0 was written with element type 'test\.Cell'.*'test\.OtherCell'" ;;
  swapped) cp "$dir/rank.0.tck" "$dir/rank.1.tck"; regex="rank\.1\.tck: .*(manifest says|CRC-32C differs from the manifest)" ;;
  empty) mkdir -p "$dir"; regex="no complete checkpoint here" ;;
  unwritable) mkdir -p "$(dirname "$dir")"; : > "$dir.file"; mode=write; target="$dir.file/sub"
              regex="$dir\.file/sub: cannot create the checkpoint directory" ;;
  unwritable-dir) mkdir -p "$(dirname "$dir")"; : > "$dir.file"; mode=write-interval; target="$dir.file/sub"
                  regex="--tessera_checkpoint_dir: $dir\.file/sub: cannot create the checkpoint directory" ;;
  no-space) mkdir -p "$dir.mnt"
            # A filesystem of two pages: the rank files fill it, app.bin finds no room.
            mount -t tmpfs -o size=8k tmpfs "$dir.mnt" 2>/dev/null || { echo "skipped: cannot mount a small tmpfs here (needs root)"; exit 77; }
            trap 'umount "$dir.mnt"' EXIT
            mode=write; target="$dir.mnt/ck"; regex="$dir\.mnt/ck/[a-z0-9.]+: cannot (write|sync to disk|close): No space left on device" ;;
  *) echo "unknown scenario $scenario"; exit 1 ;;
esac
output=$($MPIRUN -np 2 "$bin" "$mode" "${target:-$dir}" 2>&1)
status=$?
[ "$status" -ne 0 ] || { echo "expected a non-zero exit; output:"; echo "$output"; exit 1; }
matches=$(grep -Ec -- "$regex" <<<"$output")
[ "$matches" -eq 1 ] || { echo "expected one message matching /$regex/, found $matches:"; echo "$output"; exit 1; }
grep -q "restarted from" <<<"$output" && { echo "a partial restart ran:"; echo "$output"; exit 1; }
echo "$scenario: failed as expected (exit $status): $(grep -E -m1 -- "$regex" <<<"$output")"
