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
    """The figures `eval --seeds` reports of an axis, read off a single `eval --json`."""
    surest = next(p["accuracy"] for p in axis["selective"] if abs(p["coverage"] - share) < 1e-9)
    return {"accuracy": axis["accuracy"], "macro_f1": axis["macro_f1"], "kappa": axis["kappa"],
            "surest_accuracy": surest, "own_threshold_coverage": axis["own_threshold"]["coverage"],
            "own_threshold_accuracy": axis["own_threshold"]["accuracy"]}


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

    # The text: the mean row holds the mean accuracy and the standard-deviation row the sample standard
    # deviation (|a − b| / √2 for two values), each to three places; `--time-split 0` is no time split.
    text = run(db, "--quiet", "eval", "--folds", "2", "--seeds", "3-4", "--time-split", "0").stdout
    rows = {line.split("  ")[0]: line for line in text.splitlines()}
    # Each fold assignment's row is named by its seed, on the left as the summary rows are.
    assert rows["seed 3"].split()[2] == f"{alone[3]['symptom']['accuracy']:.3f}", text
    a, b = alone[3]["symptom"]["accuracy"], alone[4]["symptom"]["accuracy"]
    assert rows["mean"].split()[1] == f"{(a + b) / 2:.3f}", text
    assert rows["standard deviation"].split()[2] == f"{abs(a - b) / 2 ** 0.5:.3f}", text
    # The lowest and highest rows, every column: the smaller and larger of the two seeds' figures.
    columns = [(axis, figure) for axis in ("symptom", "root_cause") for figure in ("accuracy", "macro_f1", "kappa", "surest_accuracy",
                                                                             "own_threshold_coverage", "own_threshold_accuracy")]
    for row, pick in (("lowest", min), ("highest", max)):
        cells = rows[row].split()[1:]
        assert cells == [f"{pick(alone[3][x][f], alone[4][x][f]):.3f}" for x, f in columns], (row, cells)
    # One fold assignment: no standard deviation (a sample of one has none).
    out = run(db, "--json", "--quiet", "eval", "--folds", "2", "--seeds", "3")
    assert out.returncode == 0 and json.loads(out.stdout)["standard_deviation"] is None, out.stdout
    assert "standard deviation" not in run(db, "--quiet", "eval", "--folds", "2", "--seeds", "3").stdout

    # A seed list with --seed, --out or a time split, or one that is not a list of seeds: usage errors
    # (exit 2), one line, nothing on stdout.
    for other, expected in ((["--seed", "2"], "--seed excludes --seeds"), (["--out", "e.json"], "--out excludes --seeds")):
        out = run(db, "eval", "--seeds", "1-3", *other)
        assert out.returncode == 2 and expected in out.stderr and out.stdout == "", out
    out = run(db, "eval", "--seeds", "1-3", "--time-split", "0.8")
    assert out.returncode == 2 and "--seeds runs no time split" in out.stderr and out.stdout == "", out
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    for bad, expected in (("3-1", "3-1 runs backwards"), ("1,,2", "--seeds '1,,2'"), ("1-", "--seeds '1-'")):
        out = run(db, "eval", "--seeds", bad)
        assert out.returncode == 2 and expected in out.stderr and out.stdout == "", (bad, out)
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
print("ok")
