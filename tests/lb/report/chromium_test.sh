#!/usr/bin/env bash
# chromium_test.sh LBSIM DATA_STEM CELLS BARS: writes the LB report of DATA_STEM with lbsim, opens
# it in headless Chromium and checks what a person would see: the script ran without an error (the
# phase menu's imbalance is filled in and the rank bars are drawn: BARS of them), and the heat map
# holds CELLS cells (ranks x phases). Exits 77 (skipped) where Chromium is not installed.
set -uo pipefail
lbsim=$1 stem=$2 cells=$3 bars=$4
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "skipped: Chromium is not installed (Debian package chromium; scripts/setup.sh installs it)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$lbsim" report --data "$stem" -o "$dir/report.html" || { echo "lbsim report failed"; exit 1; }
# No network: the report must be self-contained.
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$dir/profile" \
  --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "file://$dir/report.html" \
  > "$dir/dom.html" 2> "$dir/console.log"
if grep -E "Uncaught|CONSOLE\(.*(Error|error)" "$dir/console.log"; then
  echo "the report's script raised an error"; exit 1
fi
count() { grep -o "$1" "$dir/dom.html" | wc -l; }
got_cells=$(count '<rect class="cell"')
got_bars=$(grep -o '<svg id="rank-bars"[^>]*>.*</svg>' "$dir/dom.html" | grep -o '<rect class="bar"' | wc -l)
imbalance=$(grep -o 'id="phase-imbalance">[0-9.]*' "$dir/dom.html" | sed 's/.*>//')
echo "cells $got_cells (expected $cells), rank bars $got_bars (expected $bars), phase I '$imbalance'"
[[ $got_cells -eq $cells && $got_bars -eq $bars && -n $imbalance ]] || exit 1
echo "report checked in $("$browser" --version 2>/dev/null | head -1)"
