#!/usr/bin/env python3
"""Runs the demo pipeline on a 30-issue slice of the bundled data and checks what it prints against the
store it leaves behind (read directly with sqlite3), and that a second run prints the same."""
import csv
import json
import os
import re
import sqlite3
import shutil
import subprocess
import sys
import tempfile

faultline, source_dir = sys.argv[1], sys.argv[2]
snapshot = os.path.join(source_dir, "datasets", "snapshot")
pipeline = os.path.join(source_dir, "cli", "demo_pipeline.sh")


def make_slice(out_dir):
    """The first 30 issues that both raters labeled, with their rows of every label file."""
    rows = {name: list(csv.DictReader(open(os.path.join(snapshot, name))))
            for name in ("labels_rater_a.csv", "labels_rater_b.csv", "labels_adjudicated.csv")}
    a = {(r["repo"], r["number"]) for r in rows["labels_rater_a.csv"]}
    b = {(r["repo"], r["number"]) for r in rows["labels_rater_b.csv"]}
    records = [json.loads(line) for line in open(os.path.join(snapshot, "issues.jsonl"))]
    chosen = [r for r in records if (r["repo"], str(r["number"])) in a & b][:30]
    keys = {(r["repo"], str(r["number"])) for r in chosen}
    with open(os.path.join(out_dir, "issues.jsonl"), "w") as f:
        for r in chosen:
            f.write(json.dumps(r) + "\n")
    for name, table in rows.items():
        with open(os.path.join(out_dir, name), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=["repo", "number", "rater", "symptom", "root_cause", "note"])
            writer.writeheader()
            for r in table:
                if (r["repo"], r["number"]) in keys:
                    writer.writerow(r)
    return keys


def run_demo(data, work):
    out = subprocess.run([pipeline, faultline, data, work, "3"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def number(pattern, text):
    m = re.search(pattern, text)
    assert m, f"{pattern!r} not in:\n{text}"
    return m.group(1)


with tempfile.TemporaryDirectory() as tmp:
    data = os.path.join(tmp, "data")
    work = os.path.join(tmp, "work")
    os.makedirs(data)
    keys = make_slice(data)
    first = run_demo(data, work)
    lines = first.strip().splitlines()
    assert len(lines) == 11, first

    db = sqlite3.connect(os.path.join(work, "faultline.db"))
    one = lambda sql: db.execute(sql).fetchone()[0]
    assert int(number(r"issues:\s+(\d+) in the store", first)) == one("SELECT COUNT(*) FROM issues") == 30
    assert int(number(r"(\d+) candidates", first)) == one("SELECT COUNT(*) FROM screening WHERE decision='candidate'")
    assert int(number(r"\((\d+) screened by a recorded scope decision", first)) == one(
        "SELECT COUNT(*) FROM screening WHERE rule LIKE 'scope:%'")
    # Overriding: where the study's rules (closed, a failure term, no out-of-scope label) decide otherwise;
    # the rules are applied again here by running screen --rules-only on a copy of the store.
    overriding = int(number(r"(\d+) overriding the rules\)", first))
    copy = os.path.join(tmp, "rules-only.db")
    shutil.copy(os.path.join(work, "faultline.db"), copy)
    subprocess.run([faultline, "--db", copy, "--quiet", "screen", "--rules-only"], check=True, capture_output=True)
    ruled = dict(sqlite3.connect(copy).execute("SELECT issue_id, decision FROM screening").fetchall())
    followed = dict(db.execute("SELECT issue_id, decision FROM screening").fetchall())
    assert overriding == sum(1 for i, d in followed.items() if ruled[i] != d), first
    # The line names the sample and how it was made, no size (a census's size is the candidates' by
    # construction); the store must hold that census: every candidate, nothing else.
    assert "sample 'bundled' (census)" in first, first
    assert one("SELECT COUNT(*) FROM samples WHERE name='bundled' AND status='sampled' AND origin='census'") == \
        one("SELECT COUNT(*) FROM screening WHERE decision='candidate'")
    kappa = float(number(r"kappa ([0-9.]+) \(95%", first))
    assert abs(kappa - one("SELECT kappa_joint FROM audits ORDER BY id DESC LIMIT 1")) < 5e-4
    agreed = int(number(r"final labels: (\d+) agreed", first))
    adjudicated = int(number(r"\+ (\d+) adjudicated", first))
    assert agreed == one("SELECT COUNT(*) FROM final_labels WHERE provenance='agreed'")
    assert adjudicated == one("SELECT COUNT(*) FROM final_labels WHERE provenance='adjudicated'")
    assert number(r"model ([0-9a-f]{16})", first) == one("SELECT DISTINCT model_version FROM predictions")
    assert int(number(r"predictions:\s+(\d+) issues classified", first)) == one("SELECT COUNT(*) FROM predictions")
    # The time split tests on the newest dated labeled issues and trains on the older: together every dated one,
    # and the test part holds none older than any training issue.
    older, newer = int(number(r"time split: (\d+) older", first)), int(number(r"(\d+) newer test", first))
    dated = sorted(r[0] for r in db.execute(
        "SELECT i.created FROM final_labels f JOIN issues i ON i.id = f.issue_id WHERE i.created != ''"))
    assert older + newer == len(dated), first
    assert older > 0 and newer > 0 and dated[older - 1] < dated[older], first
    run_id = one("SELECT MAX(id) FROM suite_runs")
    suite_line = next(l for l in lines if l.startswith("suite:"))
    # "suite: build: 4 reproduced, 36 built; host: ...": each count is of one mode and one outcome.
    for part in suite_line[len("suite:"):].split(";"):
        mode, counts = part.split(":", 1)
        for count, outcome in re.findall(r"(\d+) ([a-z-]+)", counts):
            assert int(count) == one(f"SELECT COUNT(*) FROM suite_results WHERE run_id={run_id} AND "
                                     f"mode='{mode.strip()}' AND outcome='{outcome}'"), suite_line
    assert int(number(r"\((\d+) files, (?:\d+) labeled", first)) > 0
    # Labeled issues the report counts: final labels of sampled candidates.
    assert int(number(r"files, (\d+) labeled issues", first)) == one(
        "SELECT COUNT(*) FROM final_labels f JOIN samples s ON s.issue_id = f.issue_id AND s.name = 'bundled' "
        "AND s.status = 'sampled' JOIN screening c ON c.issue_id = f.issue_id AND c.decision = 'candidate'")
    # Modeled on: a manual link or a manifest naming the issue.
    catalog = db.execute("SELECT source_issues, root_cause FROM reproducers").fetchall()
    sources = {u.lower() for issues, _ in catalog for u in json.loads(issues)}
    rows = db.execute("SELECT f.issue_id, f.root_cause, lower(i.url) FROM final_labels f "
                      "JOIN issues i ON i.id = f.issue_id").fetchall()
    manual = {r[0] for r in db.execute("SELECT issue_id FROM repro_links")}
    source = sum(1 for issue, _, url in rows if issue in manual or url in sources)
    labeled_causes = {rc for _, rc, _ in rows}
    assert int(number(r"labeled issues: (\d+) with a reproducer modeled on them", first)) == source, first
    # A root cause counts when one of its reproducers' buggy variant stands as reproduced: per (reproducer,
    # mode) its latest result, then the mode that ran over a skip, gpu over host over build.
    rank = lambda mode, outcome: 0 if outcome == "skipped" else {"gpu": 3, "host": 2, "build": 1}[mode]
    best = {}
    for repro, mode, outcome in db.execute(
            "SELECT repro_id, mode, outcome FROM suite_results r WHERE variant = 'buggy' AND run_id = "
            "(SELECT MAX(run_id) FROM suite_results x WHERE x.repro_id = r.repro_id AND x.variant = r.variant "
            "AND x.mode = r.mode)"):
        if repro not in best or rank(mode, outcome) > best[repro][0]:
            best[repro] = (rank(mode, outcome), outcome)
    cause_of = dict(db.execute("SELECT id, root_cause FROM reproducers").fetchall())
    reproduced = {cause_of[r] for r, (_, outcome) in best.items() if outcome == "reproduced"}
    assert int(number(r"(\d+) of their \d+ root causes have a reproducer that reproduced", first)) == \
        len(labeled_causes & reproduced), first
    assert int(number(r"of their (\d+) root causes", first)) == len(labeled_causes), first
    assert os.path.exists(os.path.join(work, "report", "index.html"))
    db.close()

    second = run_demo(data, work)
    assert second == first, f"second run differs:\n{first}\n---\n{second}"
    print("demo slice: 30 issues, summary matches the store, second run identical")
