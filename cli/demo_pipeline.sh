#!/usr/bin/env bash
# The demo pipeline: every faultline verb in order on one dataset, then a ten-line summary.
# usage: demo_pipeline.sh FAULTLINE DATA_DIR WORK_DIR [FOLDS]
#   DATA_DIR holds issues.jsonl, labels_rater_a.csv, labels_rater_b.csv, labels_adjudicated.csv.
# Starts from an empty store every time, so a second run gives the same results.
set -euo pipefail
faultline=$1
data=$2
work=$3
folds=${4:-10}
mkdir -p "$work"
db="$work/faultline.db"
rm -rf "$db" "$db-wal" "$db-shm" "$db.models" "$work/report"
run() { "$faultline" --db "$db" --json "$@"; }
step() { printf '[demo] %s\n' "$1" >&2; }

step "import the bundled issues";        run import --snapshot "$data/issues.jsonl" > "$work/import.json"
step "screen them into candidates";      run screen > "$work/screen.json"
step "record the labeled set (a census)"; run sample --census --name bundled > "$work/sample.json"
step "import both raters' labels";       run label import --rater rater_a "$data/labels_rater_a.csv" > "$work/rater_a.json"
                                         run label import --rater rater_b "$data/labels_rater_b.csv" > "$work/rater_b.json"
step "audit the raters (Cohen's kappa)"; run audit --raters rater_a,rater_b --threshold 0.8 > "$work/audit.json"
step "adjudicate the disagreements";     run adjudicate "$data/labels_adjudicated.csv" > "$work/adjudicate.json"
step "train the classifier";             run train > "$work/train.json"
step "classify every issue";             run classify > "$work/classify.json"
step "cross-validate ($folds folds)";    run eval --folds "$folds" > "$work/eval.json"
step "run the reproducer suite";         run suite --mode auto --junit "$work/suite.xml" > "$work/suite.json" || true
step "write the report";                 run report --out "$work/report" --evaluation "$work/eval.json" > "$work/report.json"

"$faultline" demo-summary "$work"
