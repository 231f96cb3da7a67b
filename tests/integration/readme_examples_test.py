#!/usr/bin/env python3
"""Every `faultline …` command the README shows runs as written, in the README's order, on a copy of the
demo store (where ./run demo leaves it, and in FAULTLINE_DB), from a directory where the README's relative
paths (datasets/, reproducers/) resolve. Mining needs GitHub, the GPU-bundle example `./run gpu-bundle`
first, gpu mode a GPU, and submitting to Slurm (or collecting from it, or `doctor --slurm`) a Slurm cluster;
those are listed as skipped (gpu mode runs where there is a GPU; the Slurm test runs the Slurm ones)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from demo_store import build_demo_store

faultline, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
have_gpu = shutil.which("nvidia-smi") is not None and subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0


def readme_examples(text):
    """Backticked spans and lines of fenced blocks that start with `faultline` and an option or verb (or
    VAR=… faultline …)."""
    examples = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            if re.match(r"(\w+=\S+ )*faultline [-\w]", line):
                examples.append(line.split("#")[0].strip())
            continue
        for span in re.findall(r"`([^`]+)`", line):
            if re.match(r"(\w+=\S+ )*faultline [-\w]", span):  # not the bare name, not "faultline …"
                examples.append(span.replace("\\|", "|"))
    return examples


def skip_reason(example):
    words = shlex.split(example)
    verb = next((w for w in words[words.index("faultline") + 1:] if not w.startswith("-")), None)
    if verb == "mine":
        return "mining needs GitHub"
    if "--submit" in words or "collect" in words or "--rerun-lost" in words or "--slurm" in words and verb == "doctor":
        return "needs a Slurm cluster (Integration.SuiteRunsAsSlurmJobArraysOnARealCluster runs these on one)"
    if "gpu-bundle" in words:
        return "needs the output of ./run gpu-bundle"
    if "gpu" in words and not have_gpu:
        return "gpu mode needs a GPU, and this machine has none"
    return None


# Each distinct example once, where it first appears (the README repeats `faultline eval --folds 10`).
examples = list(dict.fromkeys(readme_examples(open(os.path.join(source_dir, "README.md"), encoding="utf-8").read())))
assert len(examples) >= 20, examples  # the Commands table alone has more; a broken extraction must fail

with tempfile.TemporaryDirectory() as tmp:
    demo_db = os.path.join(tmp, "demo.db")
    build_demo_store(faultline, source_dir, demo_db)
    work = os.path.join(tmp, "work")
    os.makedirs(work)
    for name in ("datasets", "reproducers"):
        os.symlink(os.path.join(source_dir, name), os.path.join(work, name))
    # Where ./run demo leaves its store, which some examples name with --db.
    os.makedirs(os.path.join(work, "out", "demo"))
    db = os.path.join(work, "out", "demo", "faultline.db")
    shutil.copy(demo_db, db)
    shutil.copytree(demo_db + ".models", db + ".models")
    env = dict(os.environ, FAULTLINE_DB=db)
    failures, ran, skipped = [], 0, 0
    for example in examples:
        reason = skip_reason(example)
        if reason:
            print(f"skipped ({reason}): {example}")
            skipped += 1
            continue
        words = shlex.split(example)
        example_env = dict(env)
        while words[0] != "faultline":  # VAR=value before the command
            name, value = words.pop(0).split("=", 1)
            example_env[name] = value
        words[0] = faultline
        out = subprocess.run(words, cwd=work, env=example_env, capture_output=True, text=True, timeout=900)
        ran += 1
        status = "ok" if out.returncode == 0 else f"exit {out.returncode}"
        print(f"{status}: {example}")
        if out.returncode != 0:
            failures.append(f"{example}\n  exit {out.returncode}: {out.stderr.strip()}")
    print(f"{ran} README examples ran, {len(failures)} failed, {skipped} skipped")
    assert not failures, "README examples that fail as written:\n" + "\n".join(failures)
