#!/usr/bin/env python3
"""./run refuses what it cannot do before it installs, builds or runs anything: arguments a job does not take
(they were passed over without a word) and a gpu-suite N that is not a whole number from 1 (it was refused by
faultline only after the whole suite had run, then blamed on the GPU results). The source tree is left as
it was (no out/gpu-suite made). And a job waits while another ./run job of the same checkout holds
build/ (two builds in one build/ spoil each other's files)."""
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time

source_dir = os.path.abspath(sys.argv[1])
run = os.path.join(source_dir, "run")
made = os.path.join(source_dir, "out", "gpu-suite")
existed = os.path.exists(made)


def refused(args, message):
    out = subprocess.run([run, *args], capture_output=True, text=True, cwd="/", timeout=60)
    assert out.returncode == 2 and message in out.stderr and out.stdout == "", (args, out.returncode, out.stderr)


refused(["demo", "extra"], "run: 'demo' takes no argument; left over: extra")
refused(["test", "a", "b"], "run: 'test' takes no argument; left over: a b")
refused(["gpu-suite", "1", "junk"], "run: 'gpu-suite' takes one argument, N; left over: junk")
for n in ("abc", "0", "1.5", "-3", ""):
    refused(["gpu-suite", n], f"run: gpu-suite N: N is how many times each GPU variant runs, a whole number from 1, not '{n}'")
refused(["bogus"], "run: unknown job 'bogus'")
assert os.path.exists(made) == existed, "a refused gpu-suite made its results folder"
# The trigger removed: no job prints the usage and exits 0.
out = subprocess.run([run], capture_output=True, text=True, timeout=60)
assert out.returncode == 0 and out.stdout.startswith("usage: ./run <job>"), out

# The lock, on a copy of ./run in an empty checkout: its build step fails at once (no CMakeLists.txt), so
# how long the job takes says whether it waited.
with tempfile.TemporaryDirectory() as checkout:
    shutil.copy(run, checkout)
    copy = os.path.join(checkout, "run")
    env = {k: v for k, v in os.environ.items() if k != "FAULTLINE_RUN_HOLDS_LOCK"}
    waiting = "run: another ./run job is using"
    # Nobody holds the lock: the job goes straight on to its build, which fails.
    free = subprocess.run([copy, "demo"], capture_output=True, text=True, env=env, timeout=120)
    assert free.returncode != 0 and "CMakeLists.txt" in free.stderr and waiting not in free.stderr, free
    os.makedirs(os.path.join(checkout, "build"), exist_ok=True)
    with open(os.path.join(checkout, "build", ".run.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        job = subprocess.Popen([copy, "demo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        time.sleep(3)
        assert job.poll() is None, "the job ran while another held the checkout's lock"
        fcntl.flock(lock, fcntl.LOCK_UN)
    stdout, stderr = job.communicate(timeout=120)
    assert job.returncode != 0 and stderr.index(waiting) < stderr.index("CMakeLists.txt"), stderr
print("ok")
