#!/usr/bin/env python3
"""The suite as Slurm job arrays on a real one-node Slurm cluster started here, not a mock: munged with its own
key and socket, slurmctld and slurmd with their own slurm.conf in a temp directory (the node's real CPU count
and memory from `slurmd -C`, free ports). Checks that

1. the build and host modes, submitted as an array of 3 shards balanced by the durations of a local run, come
   back through `suite collect` with the same outcome for every run as that local `faultline suite` run, each
   result from a Slurm task (its job id) on this node;
2. an array task cancelled while its harness runs leaves its shard `lost` (every run of it, none passed or
   reproduced, collect exits non-zero), and `suite --slurm --rerun-lost` resubmits only that shard and
   completes the run.

The slow task is a test-only reproducer (a stand-in harness that sleeps) in a manifest directory of the test's
own, so no production flag exists for it. Every daemon started is stopped by pid. Exits 77 (skipped) only when
the daemons cannot be started here, saying why."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

faultline, source_dir, build_dir = (os.path.abspath(a) for a in sys.argv[1:4])
SKIP = 77
daemons = []  # Popen objects, stopped in reverse order


def stop_daemons():
    for p in reversed(daemons):
        if p.poll() is None:
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    daemons.clear()


def on_signal(signum, _frame):
    stop_daemons()
    sys.exit(128 + signum)


signal.signal(signal.SIGTERM, on_signal)
signal.signal(signal.SIGINT, on_signal)


def skip(why):
    print(f"SKIPPED: {why}")
    stop_daemons()
    sys.exit(SKIP)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, check, timeout, logs=()):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.5)
    return False


def tail(path):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-15:])
    except OSError:
        return "(no log)"


def start_cluster(tmp):
    for tool in ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel"):
        if shutil.which(tool) is None:
            skip(f"{tool} is not installed (Debian: munge, slurmctld, slurmd, slurm-client)")
    munge_dir = os.path.join(tmp, "munge")
    os.makedirs(munge_dir, mode=0o700)
    key = os.path.join(munge_dir, "munge.key")
    with open(key, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    munge_socket = os.path.join(munge_dir, "munge.socket")
    daemons.append(subprocess.Popen(
        ["munged", "--foreground", "--force", f"--key-file={key}", f"--socket={munge_socket}",
         f"--pid-file={munge_dir}/munged.pid", f"--log-file={munge_dir}/munged.log",
         f"--seed-file={munge_dir}/munged.seed"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(munge_dir, "stderr"), "w")))
    if not wait_for("munged", lambda: os.path.exists(munge_socket) or daemons[-1].poll() is not None, 15) \
            or daemons[-1].poll() is not None:
        skip("munged did not start: " + tail(os.path.join(munge_dir, "munged.log")) + tail(os.path.join(munge_dir, "stderr")))

    node_line = subprocess.run(["slurmd", "-C"], capture_output=True, text=True).stdout.splitlines()[0]
    node = dict(field.split("=", 1) for field in node_line.split())["NodeName"]
    state = os.path.join(tmp, "state")
    spool = os.path.join(tmp, "spool")
    os.makedirs(state)
    os.makedirs(spool)
    conf = os.path.join(tmp, "slurm.conf")
    with open(conf, "w") as f:
        f.write(f"""ClusterName=faultlinetest
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={munge_socket}
CredType=cred/munge
StateSaveLocation={state}
SlurmdSpoolDir={spool}
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/slurmctld.log
SlurmdLogFile={tmp}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
{node_line} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes={node} Default=YES MaxTime=INFINITE State=UP
""")
    env = dict(os.environ, SLURM_CONF=conf)
    daemons.append(subprocess.Popen(["slurmctld", "-D", "-f", conf], env=env, stdout=subprocess.DEVNULL,
                                    stderr=open(os.path.join(tmp, "slurmctld.stderr"), "w")))
    daemons.append(subprocess.Popen(["slurmd", "-D", "-f", conf], env=env, stdout=subprocess.DEVNULL,
                                    stderr=open(os.path.join(tmp, "slurmd.stderr"), "w")))

    def idle():
        out = subprocess.run(["sinfo", "-h", "-o", "%t"], env=env, capture_output=True, text=True)
        return out.returncode == 0 and out.stdout.strip() == "idle"

    if not wait_for("the node", lambda: idle() or any(p.poll() is not None for p in daemons), 45) or not idle():
        skip("the one-node Slurm cluster did not come up:\nslurmctld: " + tail(os.path.join(tmp, "slurmctld.log")) +
             tail(os.path.join(tmp, "slurmctld.stderr")) + "\nslurmd: " + tail(os.path.join(tmp, "slurmd.log")) +
             tail(os.path.join(tmp, "slurmd.stderr")))
    print(f"cluster up: {node_line}")
    return env


def run(args, env, expect=0):
    out = subprocess.run([faultline] + args, env=env, capture_output=True, text=True, timeout=600)
    if expect is not None and out.returncode != expect:
        raise AssertionError(f"faultline {' '.join(args)}: exit {out.returncode}, wanted {expect}\n"
                             f"stdout: {out.stdout[-3000:]}\nstderr: {out.stderr[-3000:]}")
    return out


def outcomes(results):
    return {(r["id"], r["mode"], r["variant"]): r["outcome"] for r in results}


def queue_empty(env, job):
    out = subprocess.run(["squeue", "-h", "-r", "-j", job, "-o", "%T"], env=env, capture_output=True, text=True)
    return out.returncode != 0 or not any(s in out.stdout for s in ("PENDING", "RUNNING", "COMPLETING", "CONFIGURING"))


def parity_with_a_local_suite(tmp, env):
    db = os.path.join(tmp, "local.db")
    local = {}
    for mode in ("build", "host"):
        out = run(["--db", db, "--json", "suite", "--mode", mode], env)
        local.update(outcomes(json.loads(out.stdout)["results"]))
    run_dir = os.path.join(tmp, "run-parity")
    out = run(["--db", db, "--json", "suite", "--slurm", "--mode", "auto", "--shards", "3", "--max-parallel", "2",
               "--time-limit", "10", "--run-dir", run_dir, "--submit", "--wait"], env)
    submitted = json.loads(out.stdout)
    job = submitted["arrays"][0]["job_id"]
    # --wait reports progress on stderr, ending with every task done.
    assert f"slurm: job {job} (default): 0 pending, 0 running, 3 done of 3" in out.stderr, out.stderr
    assert submitted["balanced_by"] == "durations", submitted  # the local run's durations were in the store
    assert submitted["modes"] == ["build", "host"], submitted
    script = open(submitted["arrays"][0]["script"]).read()
    assert "#SBATCH --array=0-2%2\n" in script, script
    out = run(["--db", db, "--json", "suite", "collect", run_dir, "--junit", os.path.join(tmp, "slurm.xml")], env)
    collected = json.loads(out.stdout)
    array = collected["arrays"][0]
    assert array["lost_shards"] == [], array["lost_shards"]
    cluster = outcomes(array["results"])
    assert set(cluster) == set(local), (set(cluster) ^ set(local))
    differ = {k: (local[k], cluster[k]) for k in local if local[k] != cluster[k]}
    assert not differ, f"outcomes differ (local, Slurm): {differ}"
    assert len(cluster) >= 60, len(cluster)  # 40 build runs and 35 host runs when this was written
    for k in range(3):
        task = json.load(open(os.path.join(run_dir, "results", "default", f"task-{k}.json")))
        assert task["slurm_job_id"] == job and task["slurm_task_id"] == str(k), (task["slurm_job_id"], task["slurm_task_id"])
        assert task["node"] == socket.gethostname(), task["node"]
    print(f"parity: {len(cluster)} runs, the same outcome from the 3-shard array (job {job}) as from the local suite")


def write_stand_in(tmp):
    """Three test-only reproducers: two quick ones and one whose buggy harness sleeps long enough to be
    cancelled while it runs (it touches a marker file when it starts)."""
    manifests = os.path.join(tmp, "manifests")
    build = os.path.join(tmp, "stand-in-build")
    os.makedirs(manifests)
    marker = os.path.join(tmp, "sleepy-started")
    # Each prints the verdict line a harness prints (kernels/common/verdict.hpp) with its exit status.
    symptom = """echo '{"symptom": true, "detail": "seen"}'; exit 10"""
    correct = """echo '{"symptom": false, "detail": "not seen"}'; exit 0"""
    harnesses = {"quick-a": {"buggy": symptom, "fixed": correct},
                 "quick-b": {"buggy": symptom, "fixed": correct},
                 "sleepy": {"buggy": f"touch {marker}; sleep 15; {symptom}"}}
    for rid, variants in harnesses.items():
        modes = {"host": {v: {"expect": "symptom" if v == "buggy" else "correct"} for v in variants}}
        with open(os.path.join(manifests, rid + ".json"), "w") as f:
            json.dump({"id": rid, "title": "stand-in", "symptom": "hang", "root_cause": "concurrency_error",
                       "issues": ["https://github.com/example/example/issues/1"], "mechanism": "test stand-in",
                       "requirements": {"min_compute_capability": "7.0"},
                       "modes": modes, "timeout_s": 60}, f)
        os.makedirs(os.path.join(build, "kernels", rid))
        for variant, body in variants.items():
            path = os.path.join(build, "kernels", rid, f"repro_{rid}_{variant}_host")
            with open(path, "w") as f:
                f.write(f"#!/bin/sh\necho stand-in {rid} {variant}\n{body}\n")
            os.chmod(path, 0o755)
    return manifests, build, marker


def lost_shard_and_rerun(tmp, env):
    manifests, build, marker = write_stand_in(tmp)
    db = os.path.join(tmp, "lost.db")
    run_dir = os.path.join(tmp, "run-lost")
    where = ["--manifests", manifests, "--build-dir", build]
    out = run(["--db", db, "--json", "suite", "--slurm", "--mode", "host", "--shards", "3", "--max-parallel", "2",
               "--run-dir", run_dir, "--submit"] + where, env)
    job = json.loads(out.stdout)["arrays"][0]["job_id"]
    shards = [json.load(open(os.path.join(run_dir, f"shard-{k}.json")))["runs"] for k in range(3)]
    sleepy = next(k for k, runs in enumerate(shards) if any(r["id"] == "sleepy" for r in runs))
    assert wait_for("the sleepy harness", lambda: os.path.exists(marker), 60), "the sleepy harness never started"
    subprocess.run(["scancel", f"{job}_{sleepy}"], env=env, check=True)
    assert wait_for("the array", lambda: queue_empty(env, job), 60), "the array did not end"
    out = run(["--db", db, "--json", "suite", "collect", run_dir], env, expect=1)
    array = json.loads(out.stdout)["arrays"][0]
    assert array["lost_shards"] == [sleepy], (array["lost_shards"], sleepy)
    lost_runs = {(r["id"], r["variant"]) for r in shards[sleepy]}
    for r in array["results"]:
        if (r["id"], r["variant"]) in lost_runs:
            # The oracle of this test: a cancelled shard must never read as passed or reproduced.
            assert r["outcome"] == "lost", r
            assert f"shard {sleepy}" in r["detail"], r
        else:
            assert r["outcome"] == ("reproduced" if r["variant"] == "buggy" else "pass"), r
    assert array["counts"]["host"]["lost"] == len(lost_runs), array["counts"]
    assert "suite collect: default: sleepy [host/buggy] lost" in out.stderr, out.stderr
    print(f"lost: shard {sleepy} of job {job} cancelled mid-run, its {len(lost_runs)} runs reported lost")

    os.remove(marker)
    out = run(["--db", db, "--json", "suite", "--slurm", "--rerun-lost", run_dir, "--submit", "--wait"], env)
    again = json.loads(out.stdout)["arrays"]
    assert [a["shards"] for a in again] == [[sleepy]], again
    # sbatch's --array replaces the script's, so it keeps the script's %2 (--max-parallel).
    assert f"--array={sleepy}%2 " in again[0]["sbatch"], again
    out = run(["--db", db, "--json", "suite", "collect", run_dir], env)
    array = json.loads(out.stdout)["arrays"][0]
    assert array["lost_shards"] == [], array
    got = outcomes(array["results"])
    assert got[("sleepy", "host", "buggy")] == "reproduced", got
    assert len(got) == 5, got
    print(f"rerun-lost: shard {sleepy} resubmitted as job {again[0]['job_id']}; the run is complete")


def doctor(env):
    out = run(["--json", "doctor", "--slurm", "--partition", "test"], env)
    assert json.loads(out.stdout)["ready"] is True, out.stdout
    out = run(["--json", "doctor", "--slurm", "--partition", "no-such-partition"], env, expect=1)
    checks = {c["what"]: c for c in json.loads(out.stdout)["slurm"]}
    assert not checks["partition no-such-partition"]["ok"], checks
    assert "partition 'no-such-partition' not found" in checks["partition no-such-partition"]["detail"], checks
    # With no controller to ask (an empty configuration: scontrol fails at once; a missing one makes it look
    # for one for a minute), the partition is not said to be missing.
    empty_conf = os.path.join(tmp, "empty.conf")
    open(empty_conf, "w").close()
    out = run(["--json", "doctor", "--slurm", "--partition", "test"], dict(env, SLURM_CONF=empty_conf), expect=1)
    checks = {c["what"]: c for c in json.loads(out.stdout)["slurm"]}
    detail = checks["partition test"]["detail"]
    assert "not found" not in detail and detail.startswith("scontrol show partition test failed: "), checks
    print("doctor --slurm: the test partition is found, a missing one is reported, an unreachable cluster is "
          "not taken for a missing partition")


tmp = tempfile.mkdtemp(prefix="faultline-slurm-")
try:
    started = time.time()
    env = start_cluster(tmp)
    doctor(env)
    parity_with_a_local_suite(tmp, env)
    lost_shard_and_rerun(tmp, env)
    print(f"Slurm cluster test passed in {time.time() - started:.0f} s")
finally:
    stop_daemons()
    shutil.rmtree(tmp, ignore_errors=True)
