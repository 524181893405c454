#!/usr/bin/env python3
"""kill_test.py PIC DIR: a 4-rank tessera-pic run checkpointing every 10 steps loses one rank to
SIGKILL after its second checkpoint (mpirun then ends the job); the restart on 2 ranks picks the
newest complete checkpoint and ends with the uninterrupted run's particles, byte for byte.

The kill lands wherever the run is: often while a later checkpoint is being written (its
directory exists without a manifest), which the restart must skip. The test says which it hit.
MPIRUN in the environment holds mpirun and its flags."""
import filecmp, os, pathlib, shlex, signal, subprocess, sys, time

pic, work = sys.argv[1], pathlib.Path(sys.argv[2])
mpirun = shlex.split(os.environ["MPIRUN"])
run = ["--mode=amt", "--L", "240", "--n", "60000", "--steps", "200", "--print_every", "0"]
subprocess.run(["rm", "-rf", str(work)], check=True)
work.mkdir(parents=True)
ck = work / "ck"

def mpi(ranks, *args, **kw):
    return mpirun + ["-np", str(ranks), pic] + run + list(args)

full = subprocess.run(mpi(4, "--dump_particles", str(work / "uninterrupted.bin")), capture_output=True, text=True)
if full.returncode != 0:
    print(full.stdout, full.stderr); sys.exit("the uninterrupted run failed")

job = subprocess.Popen(mpi(4, "--checkpoint_every", "10", f"--tessera_checkpoint_dir={ck}"),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
second = ck / "phase.000000000020" / "manifest.json"
deadline = time.time() + 120
while not second.exists():
    if job.poll() is not None or time.time() > deadline:
        print(job.stdout.read()); sys.exit("the run ended before its second checkpoint")
    time.sleep(0.002)
# Wait until a later checkpoint is being written, if one comes soon, to kill in the middle of it.
writing = None
until = time.time() + 2.0
while time.time() < until and job.poll() is None:
    partial = [d for d in ck.glob("phase.*") if d.name > "phase.000000000020" and not (d / "manifest.json").exists()
               and any(d.glob("rank.*.tck"))]
    if partial:
        writing = partial[0].name
        break
    time.sleep(0.0005)
ranks = subprocess.run(["pgrep", "-P", str(job.pid)], capture_output=True, text=True).stdout.split()
if not ranks or job.poll() is not None:
    sys.exit("no rank process to kill: the run had already ended")
os.kill(int(ranks[-1]), signal.SIGKILL)
out, _ = job.communicate(timeout=120)
if job.returncode == 0:
    print(out); sys.exit("mpirun exited 0 after a rank was killed")
complete = sorted(d.name for d in ck.glob("phase.*") if (d / "manifest.json").exists())
incomplete = sorted(d.name for d in ck.glob("phase.*") if not (d / "manifest.json").exists())
print(f"killed rank pid {ranks[-1]} ({'while ' + writing + ' was being written' if writing else 'between checkpoints'});"
      f" complete: {complete}, incomplete: {incomplete}")

restart = subprocess.run(mpirun + ["-np", "2", pic] + run + ["--restart", str(ck), "--dump_particles", str(work / "restarted.bin")],
                         capture_output=True, text=True)
print(restart.stdout.strip().splitlines()[1] if restart.stdout else "")
if restart.returncode != 0:
    print(restart.stdout, restart.stderr); sys.exit("the restart failed")
if f"restarted from {ck / complete[-1]}" not in restart.stdout:
    print(restart.stdout); sys.exit(f"the restart did not pick the newest complete checkpoint {complete[-1]}")
if not filecmp.cmp(work / "uninterrupted.bin", work / "restarted.bin", shallow=False):
    sys.exit("the restarted run's particles differ from the uninterrupted run's")
print(f"restart on 2 ranks from {complete[-1]}: final particles byte-identical")
