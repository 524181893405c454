#!/usr/bin/env bash
# chromium_test.sh LBSIM DATA_STEM ROWS PHASES: writes the LB report of DATA_STEM (ROWS ranks,
# PHASES phases, numbered from 0) with lbsim, opens it in headless Chromium and checks what a
# person would see, from what the report's script records in <pre id="chart-check"> once drawn:
# - no script error;
# - every chart has its axis titles ("phase", "rank", "load (s)", ...) and tick labels: the map's
#   phase axis 0..PHASES-1 and rank axis from 0, the rank bars' rank axis;
# - the map drew ROWS x PHASES cells and the phase bars ROWS bars;
# - zoomed by its link (#phases=FROM-TO), the charts over phases show only that range.
# Exits 77 (skipped) where Chromium is not installed.
set -uo pipefail
lbsim=$1 stem=$2 rows=$3 phases=$4
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
  echo "skipped: Chromium is not installed (Debian package chromium; scripts/setup.sh installs it)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$lbsim" report --data "$stem" -o "$dir/report.html" || { echo "lbsim report failed"; exit 1; }
# No network: the report must be self-contained (Chart.js is inlined).
render() {  # render URL OUT: the DOM after the scripts ran, and the console
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$dir/profile" \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "$1" > "$2" 2> "$2.console"
  if grep -E "Uncaught|CONSOLE\(.*(Error|error)" "$2.console"; then
    echo "the report's script raised an error"; exit 1
  fi
}
render "file://$dir/report.html" "$dir/dom.html"
render "file://$dir/report.html#phases=1-3" "$dir/zoomed.html"
python3 - "$dir/dom.html" "$dir/zoomed.html" "$rows" "$phases" <<'PY'
import html, json, re, sys
def drawn(path):
    m = re.search(r'<pre id="chart-check"[^>]*>(.*?)</pre>', open(path).read(), re.S)
    if not m or not m.group(1).strip():
        sys.exit(f"{path}: the charts were not drawn (chart-check is empty)")
    return json.loads(html.unescape(m.group(1)))
full, zoomed = drawn(sys.argv[1]), drawn(sys.argv[2])
rows, phases = int(sys.argv[3]), int(sys.argv[4])
failures = []
def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, expected {want!r}")
titles = {"heat": ("phase", "rank"), "rank_bars": ("rank", "load (s)"),
          "imbalance": ("phase", "I = max/avg - 1 (no unit)"), "migrations": ("phase", "migrations (objects)"),
          "objects": ("object load (s), log-spaced bins", "objects")}
for chart, (x, y) in titles.items():
    expect(f"{chart} axis titles", (full[chart]["x"], full[chart]["y"]), (x, y))
    for axis in ("xticks", "yticks"):
        if len(full[chart][axis]) < 2:
            failures.append(f"{chart} {axis}: fewer than 2 tick labels: {full[chart][axis]}")
expect("map cells", full["heat"]["cells"], rows * phases)
expect("phase bars", full["rank_bars"]["bars"], rows)
heat_x = [int(t) for t in full["heat"]["xticks"]]
expect("map phase axis ends", (heat_x[0], heat_x[-1]), (0, phases - 1))
expect("map rank axis starts", full["heat"]["yticks"][0], "0")
expect("zoomed map phase ticks", zoomed["heat"]["xticks"], ["1", "2", "3"])
expect("zoomed migrations ticks", zoomed["migrations"]["xticks"], ["1", "2", "3"])
for f in failures:
    print("FAIL:", f)
if failures:
    sys.exit(1)
print(f"axes: {', '.join(f'{c} ({v[0]} / {v[1]})' for c, v in titles.items())}")
print(f"map {full['heat']['cells']} cells, phase ticks {full['heat']['xticks']}, rank ticks {full['heat']['yticks']}; "
      f"zoomed to phases 1-3: {zoomed['heat']['xticks']}")
PY
status=$?
((status == 0)) || exit 1
echo "report checked in $("$browser" --version 2>/dev/null | head -1)"
