"""Builds a store the way cli/demo_pipeline.sh does, from the bundled snapshot, minus the slow steps a test
does not need (cross-validation, the suite): import, screen, the census sample, both raters' labels, audit, adjudication,
training, classification, and the reproducer catalog (`repro list` records it, as the suite does)."""
import os
import subprocess


def run(faultline, db, *args, cwd=None):
    out = subprocess.run([faultline, "--db", db, "--quiet", *args], capture_output=True, text=True, cwd=cwd)
    assert out.returncode == 0, f"{args}: exit {out.returncode}\n{out.stderr}"
    return out.stdout


def build_demo_store(faultline, source_dir, db):
    snapshot = os.path.join(source_dir, "datasets", "snapshot")
    run(faultline, db, "import", "--snapshot", os.path.join(snapshot, "issues.jsonl"))
    run(faultline, db, "screen")
    run(faultline, db, "sample", "--census", "--name", "bundled")
    run(faultline, db, "label", "import", "--rater", "rater_a", os.path.join(snapshot, "labels_rater_a.csv"))
    run(faultline, db, "label", "import", "--rater", "rater_b", os.path.join(snapshot, "labels_rater_b.csv"))
    run(faultline, db, "audit", "--raters", "rater_a,rater_b", "--threshold", "0.8")
    run(faultline, db, "adjudicate", os.path.join(snapshot, "labels_adjudicated.csv"))
    run(faultline, db, "train")
    run(faultline, db, "classify")
    run(faultline, db, "repro", "list", "--manifests", os.path.join(source_dir, "reproducers"))
