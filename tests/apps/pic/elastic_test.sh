#!/usr/bin/env bash
# elastic_test.sh PIC DIR: the main job's path (colors, TemperedLB every phase) through elastic
# rescales 4 -> 3 (rank 1 leaves) -> 2 -> 4 (2 processes spawned on the job's free slots) ends
# with a --dump_particles file byte-identical to a run on a fixed 4 ranks; so do GreedyLB with
# colors split and merged, and TemperedLB over libfabric. An expand beyond the job's slots is
# refused with one message and the run goes on; --recut auto with a plan is refused with one
# message. MPIRUN holds mpirun and its flags.
set -u
pic=$1 dir=$2
run=(--mode=amt --L 240 --n 30000 --steps 40 --print_every 0)
plan="--tessera_elastic_plan=10:shrink 1;25:shrink 2;30:expand 2"
rm -rf "$dir"; mkdir -p "$dir"
$MPIRUN -np 4 "$pic" "${run[@]}" --dump_particles "$dir/fixed.bin" > "$dir/fixed.txt" 2>&1 \
  || { cat "$dir/fixed.txt"; echo "the fixed run failed"; exit 1; }
failed=0
# Open MPI reaches spawned processes over tcp (its shared memory alone cannot reach another job).
# --host localhost:8 claims more slots than cores: Open MPI must still yield while it waits.
spawning="${MPIRUN/btl self,vader/btl self,vader,tcp} --mca mpi_yield_when_idle 1"
check() {  # check NAME FLAGS...
  local name=$1
  shift
  $spawning --host localhost:8 -np 4 "$pic" "${run[@]}" "$plan" "$@" --dump_particles "$dir/$name.bin" > "$dir/$name.txt" 2>&1 \
    || { cat "$dir/$name.txt"; echo "$name: the elastic run failed"; failed=1; return; }
  grep -q "ranks  *4 -> 4 (3 elastic rescale(s))" "$dir/$name.txt" || { cat "$dir/$name.txt"; echo "$name: did not end on 4 ranks after 3 rescales"; failed=1; return; }
  grep -q "phase 30 expand 2 -> 4 ranks" "$dir/$name.txt" || { cat "$dir/$name.txt"; echo "$name: no expand at phase 30"; failed=1; return; }
  grep -q "validation  *passed" "$dir/$name.txt" || { cat "$dir/$name.txt"; echo "$name: not validated"; failed=1; return; }
  if cmp -s "$dir/fixed.bin" "$dir/$name.bin"; then echo "$name: 4 -> 3 -> 2 -> 4 ranks, final particles byte-identical"
  else echo "$name: final particles DIFFER from the fixed run"; failed=1; fi
}
check tempered --tessera_lb_name=TemperedLB
check split --tessera_lb_name=GreedyLB --color_loads=particles --tessera_lb_split_above=0.25 --tessera_lb_merge_below=0.5
if [ "${TESSERA_HAVE_OFI:-1}" = 1 ]; then
  check ofi --tessera_lb_name=TemperedLB --tessera_transport=ofi --tessera_shm=false --tessera_transport_args=provider=tcp
fi
# --report=json lists each rescale's stages as its statistics line gives them; the trace of the
# same run holds them too, with a file per process (the two spawned ones numbered 4 and 5); its LB
# data is a data set per rank set, and the LB report one report per rank set, each listing the
# three rescales.
$spawning --host localhost:8 -np 4 "$pic" "${run[@]}" "$plan" --tessera_lb_name=TemperedLB --report=json \
  "--tessera_trace=$dir/trace" "--tessera_lb_data_dir=$dir/lb" "--tessera_lb_report=$dir/report.html" > "$dir/json.txt" 2>&1
python3 - "$dir" <<'PY' || { echo "the LB data and reports of the elastic run"; failed=1; }
import glob, json, re, sys
d = sys.argv[1]
sets = {"": (4, 0, 10), "rescale-1/": (3, 11, 25), "rescale-2/": (2, 26, 30), "rescale-3/": (4, 31, 39)}
for folder, (ranks, first, last) in sets.items():
    files = sorted(glob.glob(f"{d}/lb/{folder}data.*.json"))
    assert len(files) == ranks, (folder, files)
    for f in files:
        ids = [p["id"] for p in json.load(open(f))["phases"]]
        assert ids == list(range(first, last + 1)), (f, ids)
for name in ("report", "report-rescale-1", "report-rescale-2", "report-rescale-3"):
    html = open(f"{d}/{name}.html").read()
    rows = re.search(r'<table id="rescales">(.*?)</table>', html).group(1).count("<tr>") - 1
    assert rows == 3, (name, rows)
    assert 'id="rank-set">Rank set' in html, name  # each says which rank set it shows
print("LB data: 4 rank sets of 4, 3, 2, 4 ranks (phases 0-10, 11-25, 26-30, 31-39); 4 reports with 3 rescales each")
PY
for set in "" rescale-1/ rescale-2/ rescale-3/; do
  "$(dirname "$pic")/lbsim" --data "$dir/lb/${set}data" --stats > "$dir/lbsim.txt" 2>&1 || { cat "$dir/lbsim.txt"; echo "lbsim cannot read $dir/lb/${set}data"; failed=1; }
done
python3 - "$dir/trace/trace.json" <<'PY' || { echo "the trace of the elastic run"; failed=1; }
import json, sys, collections
events = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["pid"]: e["args"]["name"] for e in events if e.get("name") == "process_name"}
want = {0: "rank 0", 1: "rank 1", 2: "rank 2 -> 1 (rescale 1)", 3: "rank 3 -> 2 (rescale 1)",
        4: "rank 2 (joined at rescale 3)", 5: "rank 3 (joined at rescale 3)"}
assert names == want, names
count = collections.Counter((e["pid"], e.get("name")) for e in events if e["ph"] in "BX")
stages = {s: count[(0, s)] for s in ("decision", "evacuation", "rescale", "spawn", "quiescence", "cut", "merge")}
assert stages == {"decision": 3, "evacuation": 2, "rescale": 3, "spawn": 1, "quiescence": 3, "cut": 2, "merge": 1}, stages
flows = collections.defaultdict(list)
for e in events:
    if e.get("cat") == "flow": flows[e["id"]].append(e["ph"])
assert flows and all(sorted(v) == ["f", "s"] for v in flows.values()), "every sampled flow has one start and one end"
spawn = next(e["ts"] for e in events if e["pid"] == 0 and e.get("name") == "spawn")
assert min(e["ts"] for e in events if e["pid"] == 4 and "ts" in e) > spawn, "a joined process's events start after the spawn"
print("trace: 6 processes", names, "; rank 0's stages", stages, ";", len(flows), "flows paired")
PY
stages=$(tail -1 "$dir/json.txt" | python3 -c "import json,sys; r=json.load(sys.stdin)['rescale_stages']; print(' '.join(f\"{s['rescale']}:{s['old_size']}->{s['new_size']}:{int(s['cut_s'] > 0)}\" for s in r))" 2>&1)
if [ "$stages" = "shrink:4->3:1 shrink:3->2:1 expand:2->4:1" ]; then echo "--report=json: rescale_stages $stages"
else cat "$dir/json.txt"; echo "--report=json: rescale_stages '$stages', expected the 3 rescales with their cut"; failed=1; fi
# Without --host the job has the slots of this machine's cores (2) and 2 processes already.
out=$($spawning -np 2 "$pic" "${run[@]}" --tessera_lb_name=GreedyLB "--tessera_elastic_plan=5:expand 2" 2>&1)
status=$?
n=$(grep -c "refused 'expand 2'.*slots (MPI_UNIVERSE_SIZE)" <<<"$out")
if [ "$status" -ne 0 ] || [ "$n" -ne 1 ] || ! grep -q "ranks  *2 on" <<<"$out"; then echo "$out"; echo "expand beyond the job's slots: expected one refusal and a run on 2 ranks"; failed=1
else echo "expand beyond the job's slots: refused with one message, the run went on on 2 ranks"; fi
out=$($MPIRUN -np 2 "$pic" "${run[@]}" --recut auto --tessera_lb_name=GreedyLB "--tessera_elastic_plan=5:shrink 1" 2>&1)
status=$?
n=$(grep -c "cannot be combined with --tessera_elastic_plan" <<<"$out")
if [ "$status" -eq 0 ] || [ "$n" -ne 1 ]; then echo "$out"; echo "--recut auto with a plan: expected one message and a non-zero exit"; failed=1
else echo "--recut auto with a plan: refused with one message (exit $status)"; fi
exit $failed
