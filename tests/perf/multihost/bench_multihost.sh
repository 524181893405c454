#!/usr/bin/env bash
# Figures between hosts: on a test bed of 2 emulated hosts (tests/multihost), with one
# rank per host,
#   - tessera-bench-pingpong and tessera-bench-msgrate over --tessera_transport=mpi and ofi
#     (tcp;ofi_rxm), each beside raw MPI (Open MPI's tcp BTL over the same link) in the same run,
#     and ofi's ping-pong also beside MPI over libfabric's tcp;ofi_rxm (key
#     "ofi-vs-mpi-over-ofi"), on unshaped links and on links shaped to RATE (tbf on each host's
#     egress, default 1gbit);
#   - tessera-bench-pic on 2 hosts x 1 rank: time to solution over SPMD.
#
#   bench_multihost.sh BUILD_DIR [--quick] [--rate RATE] [--pic "tessera-bench-pic flags"]
#
# Prints each benchmark's JSON, then one JSON object on the last line:
#   {"benchmark":"multihost","hosts":2,"rate":..,"pingpong":{"mpi":{"unshaped":{"8":ratio,...},
#    "shaped":{...}},"ofi":{...}},"msgrate":{"mpi":{"unshaped":ratio,"shaped":ratio},"ofi":{...}},
#    "pic":{tessera-bench-pic's JSON}}
# Ratios are Tessera over raw MPI in the same run (latency: lower is better; message rate: higher).
# --quick shortens every run (a smoke test, not figures). Exit status 77 when no test bed can be
# made here (not root); 1 when a run fails.
set -euo pipefail
build=$(cd "${1:?usage: bench_multihost.sh BUILD_DIR [--quick] [--rate RATE]}" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
run=$here/../../multihost/run.sh
rate=1gbit quick=0 pic_flags="" micro_kind="" out=""
while (($#)); do
  case $1 in
    --quick) quick=1; shift ;;
    --rate) rate=$2; shift 2 ;;
    --pic) pic_flags=$2; shift 2 ;;
    --micro) micro_kind=$2; shift 2 ;;  # internal: inside a test bed
    --out) out=$2; shift 2 ;;           # internal: where the runs' output goes
    *) echo "bench_multihost.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [[ -z $out ]]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
if ((quick)); then
  ping=(--iterations 200 --trials 1 --sizes 8 65536) rate_args=(--messages 20000 --trials 1)
  pic_flags=${pic_flags:-"--L 96 --n 4000 --steps 8 --trials 1"}
else
  ping=(--iterations 20000 --trials 5 --sizes 8 1024 65536) rate_args=(--messages 1000000 --trials 5)
  pic_flags=${pic_flags:-"--trials 3"}
fi
transports=(mpi)
[[ -n $(ls "$build"/bin/runtime_ofi_transport 2> /dev/null) ]] && transports+=(ofi)
flags_mpi="--tessera_transport=mpi"
flags_ofi="--tessera_transport=ofi --tessera_transport_args=provider=tcp"

# Inside a test bed (run.sh sets TESSERA_LAUNCH), this script runs itself with --micro KIND.
micro() {  # KIND: unshaped | shaped
  local kind=$1 t flags status=0
  for t in "${transports[@]}"; do
    flags=flags_$t
    # shellcheck disable=SC2086
    "$TESSERA_LAUNCH" 2x1 -- "$build/bin/tessera-bench-pingpong" "${ping[@]}" --report=json ${!flags} \
      > "$out/pingpong_${t}_$kind.log" 2>&1 || status=1
    # shellcheck disable=SC2086
    "$TESSERA_LAUNCH" 2x1 -- "$build/bin/tessera-bench-msgrate" "${rate_args[@]}" --report=json ${!flags} \
      > "$out/msgrate_${t}_$kind.log" 2>&1 || status=1
    [[ $t == ofi ]] || continue
    # The same against MPI over libfabric's tcp;ofi_rxm, the provider the ofi transport uses.
    # shellcheck disable=SC2086
    TESSERA_LAUNCH_MPI=ofi "$TESSERA_LAUNCH" 2x1 -- "$build/bin/tessera-bench-pingpong" "${ping[@]}" \
      --report=json ${!flags} > "$out/pingpong_ofi-vs-mpi-over-ofi_$kind.log" 2>&1 || status=1
  done
  return $status
}
if [[ -n $micro_kind ]]; then micro "$micro_kind"; exit; fi
self=("$here/bench_multihost.sh" "$build" --out "$out")
((quick)) && self+=(--quick)
status=0
"$run" --hosts 2 --timeout 900 -- "${self[@]}" --micro unshaped > "$out/testbed.log" 2>&1 || status=1
"$run" --hosts 2 --rate "$rate" --timeout 900 -- "${self[@]}" --micro shaped >> "$out/testbed.log" 2>&1 || status=1
"$run" --hosts 2 --timeout 1800 -- bash -c \
  "\"$build/bin/tessera-bench-pic\" --launcher \"\$TESSERA_LAUNCH 2x1 --\" $pic_flags --report=json" \
  > "$out/pic.log" 2>&1 || status=1
if grep -q '^SKIPPED' "$out/pic.log"; then cat "$out/pic.log"; exit 77; fi
for f in "$out"/*.log; do
  echo "== $(basename "$f" .log)"
  cat "$f"
done
((status == 0)) || { echo "bench_multihost.sh: a run failed (its output is above)"; exit 1; }
python3 - "$out" "$rate" << 'PY'
import json, pathlib, sys
out, rate = pathlib.Path(sys.argv[1]), sys.argv[2]
def last_json(name):
    lines = [l for l in (out / name).read_text().splitlines() if l.startswith("{")]
    return json.loads(lines[-1])
result = {"benchmark": "multihost", "hosts": None, "rate": rate, "pingpong": {}, "msgrate": {}}
for path in sorted(out.glob("pingpong_*.log")):
    _, t, kind = path.stem.split("_")
    j = last_json(path.name)
    result["hosts"] = j.get("hosts")
    result["pingpong"].setdefault(t, {})[kind] = {str(r["bytes"]): r["ratio"] for r in j["results"]}
    result["pingpong"][t][kind + "_us"] = {str(r["bytes"]): [r["tessera_us"], r["mpi_us"]] for r in j["results"]}
for path in sorted(out.glob("msgrate_*.log")):
    _, t, kind = path.stem.split("_")
    j = last_json(path.name)
    result["msgrate"].setdefault(t, {})[kind] = j["ratio"]
result["pic"] = last_json("pic.log")
print(json.dumps(result, separators=(",", ":")))
hosts = {result["hosts"], result["pic"].get("hosts")}
if hosts != {2}:
    sys.exit(f"bench_multihost.sh: the runs report {sorted(map(str, hosts))} hosts, expected 2")
PY
