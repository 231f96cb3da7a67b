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
step "import both raters' labels";       run label import --rater rater_a "$data/labels_rater_a.csv" > "$work/rater_a.json"
                                         run label import --rater rater_b "$data/labels_rater_b.csv" > "$work/rater_b.json"
step "audit the raters (Cohen's kappa)"; run audit --raters rater_a,rater_b --threshold 0.8 > "$work/audit.json"
step "adjudicate the disagreements";     run adjudicate "$data/labels_adjudicated.csv" > "$work/adjudicate.json"
step "train the classifier";             run train > "$work/train.json"
step "classify every issue";             run classify > "$work/classify.json"
step "cross-validate ($folds folds)";    run eval --folds "$folds" > "$work/eval.json"
step "run the reproducer suite";         run suite --mode auto --junit "$work/suite.xml" > "$work/suite.json" || true
step "write the report";                 run report --out "$work/report" > "$work/report.json"

python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
load = lambda name: json.load(open(f"{w}/{name}.json"))
imp, scr, a, b = load("import"), load("screen"), load("rater_a"), load("rater_b")
adj, train, cls, ev, suite, rep = load("adjudicate"), load("train"), load("classify"), load("eval"), load("suite"), load("report")
audit = adj["audit"]
s, r = ev["symptom"], ev["root_cause"]
base = ev["baselines"]
print(f"issues:       {imp['issues']} in the store, {scr['candidates']} candidates after screening")
print(f"labels:       rater_a {a['labeled']}, rater_b {b['labeled']}; audit on {audit['n']} issues: kappa {audit['kappa_joint']:.3f} "
      f"(95% CI {audit['kappa_joint_ci95'][0]:.3f}-{audit['kappa_joint_ci95'][1]:.3f}), gate {audit['gate']}")
print(f"final labels: {audit['promoted']['agreed']} agreed + {audit['promoted']['adjudicated']} adjudicated "
      f"= {audit['promoted']['agreed'] + audit['promoted']['adjudicated']}; {len(audit['pending'])} pending")
print(f"classifier:   model {train['version']}, trained on {train['labeled']} labels ({train['scoped']} with a scope decision)")
print(f"  {ev['folds']}-fold CV:  symptom acc {s['accuracy']:.3f} macro-F1 {s['macro_f1']:.3f} kappa {s['kappa']:.3f}; "
      f"root cause acc {r['accuracy']:.3f} macro-F1 {r['macro_f1']:.3f} kappa {r['kappa']:.3f}")
print(f"  baselines:  accuracy symptom/root cause: rules {base['rules']['symptom']['accuracy']:.3f}/{base['rules']['root_cause']['accuracy']:.3f}, "
      f"fastText {base['fasttext']['symptom']['accuracy']:.3f}/{base['fasttext']['root_cause']['accuracy']:.3f}, "
      f"majority {base['majority']['symptom']['accuracy']:.3f}/{base['majority']['root_cause']['accuracy']:.3f}")
print(f"predictions:  {cls['classified']} issues classified; {cls['manual']} keep their manual label; {cls['abstained']} unlabeled queued as uncertain")
print(f"suite:        {suite['summary']}{'' if suite['healthy'] else ' (FAILURES: see ' + w + '/suite.json)'}")
print(f"report:       {w}/report/index.html ({len(rep['files'])} files, {rep['cases']} labeled issues: "
      f"{rep['cases_with_source_reproducer']} with a reproducer modeled on them, "
      f"{rep['cases_with_related_reproducer']} with a related reproducer only)")
print(f"finding:      {rep['findings'][0]}")
PY
