#!/usr/bin/env python3
"""`eval --seeds` on the demo store: each fold assignment's figures are those `eval --seed S` prints for it,
the mean is their average, progress names each assignment, and a seed list that is not one is refused."""
import json
import os
import subprocess
import sys
import tempfile

from demo_store import build_demo_store

faultline, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def run(db, *args):
    return subprocess.run([faultline, "--db", db, *args], capture_output=True, text=True)


def figures(axis, share):
    """The four figures `eval --seeds` reports of an axis, read off a single `eval --json`."""
    surest = next(p["accuracy"] for p in axis["selective"] if abs(p["coverage"] - share) < 1e-9)
    return {"accuracy": axis["accuracy"], "macro_f1": axis["macro_f1"], "kappa": axis["kappa"],
            "surest_accuracy": surest}


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")
    build_demo_store(faultline, source_dir, db)
    # Two folds keep it short.
    alone = {}
    for seed in (3, 4):
        out = run(db, "--json", "--quiet", "eval", "--folds", "2", "--seed", str(seed), "--time-split", "0")
        assert out.returncode == 0, out.stderr
        e = json.loads(out.stdout)
        alone[seed] = {"symptom": figures(e["symptom"], 0.6), "root_cause": figures(e["root_cause"], 0.4)}
    assert alone[3] != alone[4], alone  # else an evaluation that ignored the seed would pass

    out = run(db, "--json", "eval", "--folds", "2", "--seeds", "3-4")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    each = [(a["seed"], {"symptom": a["symptom"], "root_cause": a["root_cause"]}) for a in summary["fold_assignments"]]
    assert each == [(3, alone[3]), (4, alone[4])], each
    for axis in ("symptom", "root_cause"):
        for figure, value in summary["mean"][axis].items():
            assert abs(value - (alone[3][axis][figure] + alone[4][axis][figure]) / 2) < 1e-12, (axis, figure)
    assert out.stderr.strip().splitlines()[-1].startswith("eval: fold assignment 2 of 2 (seed 4) done"), out.stderr

    # The text names each seed and the mean row holds the mean accuracy to three places.
    text = run(db, "--quiet", "eval", "--folds", "2", "--seeds", "3-4").stdout
    mean_row = next(line for line in text.splitlines() if line.startswith("mean"))
    assert f"{(alone[3]['symptom']['accuracy'] + alone[4]['symptom']['accuracy']) / 2:.3f}" in mean_row, text

    # A seed list with --seed, or one that is not a list of seeds: one line, nothing on stdout.
    out = run(db, "eval", "--seeds", "1-3", "--seed", "2")
    assert out.returncode == 2 and "--seed excludes --seeds" in out.stderr and out.stdout == "", out
    out = run(db, "eval", "--seeds", "3-1")
    assert out.returncode == 1 and "3-1 runs backwards" in out.stderr and out.stdout == "", out
print("ok")
