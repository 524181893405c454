#!/usr/bin/env python3
"""soak_harness.py: runs tessera-soak until its planned phases are done, restarting it after every kill.

  soak_harness.py --soak build/bin/tessera-soak --work DIR [--np 3] [--max_kills K] [--compare]
                  [--timeout S] [--seed N] [--total_seconds T] -- SOAK_FLAGS...

SOAK_FLAGS are tessera-soak's (--phases, --seed, --kill_every S, --checkpoint_every K, transport
flags...); the harness adds --tessera_checkpoint_dir=DIR/ck and --report=json. A run that ends
with tessera-soak's own kill line counts as a kill; a run whose output holds the runtime's hang
report ("made no progress") counts as a hang; either way the next run starts on a rank count in
1-4 other than the last one, from the newest complete checkpoint (or afresh when there is none
yet). Any other failure ends the harness with exit 1. After --max_kills kills, --kill_every is
dropped so the run can finish. With --total_seconds T the soak is timed instead of planned: each
run gets --seconds (what is left of T, at least 1), and --kill_every is dropped once less than two
kill intervals are left.

The last line printed is tessera-soak's JSON with "kills", "restarts" and "hangs" counted here.
With --compare the harness first runs the same workload uninterrupted (no kill, no checkpoint)
on --np ranks and exits 1 unless the final totals and element fingerprint are equal.
MPIRUN in the environment holds mpirun and its flags (default: mpirun --oversubscribe)."""
import argparse, json, os, pathlib, random, shlex, shutil, subprocess, sys, time

COMPARED = ["messages", "delivered", "duplicated", "lost", "corrupted", "bytes", "phases", "broadcasts", "tasks",
            "inserted", "destroyed", "fingerprint"]


def last_json(text):
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return None


def without_kill(flags):
    out, skip = [], False
    for f in flags:
        if skip:
            skip = False
            continue
        if f == "--kill_every":
            skip = True
            continue
        if f.startswith("--kill_every="):
            continue
        out.append(f)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--soak", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--np", type=int, default=3)
    ap.add_argument("--max_kills", type=int, default=1000)
    ap.add_argument("--timeout", type=float, default=3600, help="seconds one run may take")
    ap.add_argument("--seed", type=int, default=1, help="seed of the rank counts chosen")
    ap.add_argument("--compare", action="store_true")
    ap.add_argument("--total_seconds", type=float, default=0)
    ap.add_argument("flags", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    flags = a.flags[1:] if a.flags[:1] == ["--"] else a.flags
    mpirun = shlex.split(os.environ.get("MPIRUN", "mpirun --oversubscribe"))
    work = pathlib.Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    ck = work / "ck"
    rng = random.Random(a.seed)

    reference = None
    if a.compare:
        plain = [f for f in without_kill(flags)]
        # Checkpoints do not change the workload; keep them out of the reference run anyway.
        plain = [f for i, f in enumerate(plain) if f != "--checkpoint_every" and (i == 0 or plain[i - 1] != "--checkpoint_every")]
        cmd = mpirun + ["-np", str(a.np), a.soak] + plain + ["--report=json"]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
        reference = last_json(run.stdout)
        if run.returncode != 0 or reference is None:
            print(run.stdout, run.stderr)
            sys.exit("soak_harness: the uninterrupted run failed")
        print(f"soak_harness: uninterrupted on {a.np} ranks: " + json.dumps({k: reference[k] for k in COMPARED}))

    kill_every = next((float(f.split("=", 1)[1]) if "=" in f else float(flags[i + 1]))
                      for i, f in enumerate(flags) if f.startswith("--kill_every")) if any(
                          f.startswith("--kill_every") for f in flags) else 0
    started = time.time()
    kills = hangs = restarts = 0
    ranks = a.np
    history = []
    while True:
        run_flags = flags if kills < a.max_kills else without_kill(flags)
        if a.total_seconds > 0:
            left = a.total_seconds - (time.time() - started)
            if left < 2 * kill_every:
                run_flags = without_kill(run_flags)
            run_flags = run_flags + ["--seconds", f"{max(left, 1.0):.1f}"]
        complete = sorted(d for d in ck.glob("phase.*") if (d / "manifest.json").exists())
        cmd = mpirun + ["-np", str(ranks), a.soak] + run_flags + [f"--tessera_checkpoint_dir={ck}", "--report=json"]
        if complete:
            cmd += ["--restart", str(ck)]
        began = time.time()
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired as e:
            print(((e.stdout or b"")[-4000:]).decode(errors="replace"), ((e.stderr or b"")[-4000:]).decode(errors="replace"))
            sys.exit(f"soak_harness: a run on {ranks} ranks took more than {a.timeout} s")
        out = run.stdout + run.stderr
        history.append((ranks, complete[-1].name if complete else "start", run.returncode))
        print(f"soak_harness: run on {ranks} ranks from {history[-1][1]}: exit {run.returncode} after "
              f"{time.time() - began:.1f} s", flush=True)
        if run.returncode == 0:
            break
        if "kills itself now" in out:
            kills += 1
        elif "made no progress" in out:
            hangs += 1
            print(out[-4000:])
        else:
            print(out[-4000:])
            sys.exit(f"soak_harness: a run on {ranks} ranks failed (exit {run.returncode}) without a kill")
        restarts += 1
        ranks = rng.choice([r for r in (1, 2, 3, 4) if r != ranks])
    result = last_json(run.stdout)
    if result is None:
        print(run.stdout)
        sys.exit("soak_harness: the last run printed no JSON")
    print("soak_harness: runs (ranks, from, exit): " + ", ".join(f"({r}, {f}, {c})" for r, f, c in history))
    result["kills"], result["restarts"], result["hangs"] = kills, restarts, hangs
    code = 0
    if reference is not None:
        differ = [k for k in COMPARED if reference[k] != result[k]]
        if differ:
            print("soak_harness: the interrupted run differs from the uninterrupted one in " +
                  ", ".join(f"{k} ({result[k]} vs {reference[k]})" for k in differ))
            code = 1
        else:
            print(f"soak_harness: after {kills} kill(s) and {restarts} restart(s), totals and fingerprint equal the "
                  "uninterrupted run's")
    if result["lost"] or result["duplicated"] or result["corrupted"] or hangs:
        code = 1
    print(json.dumps(result, separators=(",", ":")))
    sys.exit(code)


if __name__ == "__main__":
    main()
