#!/usr/bin/env python3
"""The uncertain queue on the demo store with the scope decisions of its unlabeled issues taken away and the
store screened again by the rules (the bundled unlabeled issues are all out of scope, so the demo's own queue
is empty): `classify` says how many it queues, `label export --queue uncertain` writes exactly those issues
(the abstentions on unlabeled screening candidates, recomputed here from `export --what predictions` and the
store's screening table) in the order of their margin under the label thresholds (min over the two axes of
p - threshold). With the decisions back, the queue is empty again."""
import csv
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

from demo_store import build_demo_store

faultline, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])


def run(db, *args):
    out = subprocess.run([faultline, "--db", db, *args], capture_output=True, text=True)
    assert out.returncode == 0, (args, out.returncode, out.stderr)
    return out.stdout


def queue(db, tmp):
    sheet = os.path.join(tmp, "uncertain.csv")
    run(db, "label", "export", "--rater", "alice", "--queue", "uncertain", "--out", sheet)
    with open(sheet, newline="", encoding="utf-8") as f:
        return [(row["repo"], int(row["number"])) for row in csv.DictReader(f)]


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")
    build_demo_store(faultline, source_dir, db)
    assert queue(db, tmp) == []
    report_dir = os.path.join(tmp, "report")
    assert "every screened-in candidate has a final label: no prediction to add" in \
        run(db, "report", "--with-predictions", "--out", report_dir)
    # A store nothing was screened in has no candidate to say that of.
    bare = os.path.join(tmp, "bare.db")
    run(bare, "import", "--snapshot", os.path.join(source_dir, "datasets", "snapshot", "issues.jsonl"))
    said = run(bare, "report", "--with-predictions", "--out", os.path.join(tmp, "bare-report"))
    assert "no issue is a screened-in candidate: no prediction to add" in said and "final label" not in said, said

    with sqlite3.connect(db) as con:
        unlabeled_out = con.execute(
            "SELECT COUNT(*) FROM issues WHERE scope = 'out' AND id NOT IN (SELECT issue_id FROM final_labels)"
        ).fetchone()[0]
        con.execute("UPDATE issues SET scope = NULL, scope_reason = NULL "
                    "WHERE id NOT IN (SELECT issue_id FROM final_labels)")
    assert unlabeled_out > 0, unlabeled_out
    run(db, "screen")
    summary = json.loads(run(db, "--json", "classify"))

    predictions = [json.loads(line) for line in run(db, "export", "--what", "predictions").splitlines()]
    with sqlite3.connect(db) as con:
        def keys(sql):
            return {(repo, number) for repo, number in con.execute(
                "SELECT r.full_name, i.number FROM issues i JOIN repositories r ON r.id = i.repository_id " + sql)}
        labeled = keys("WHERE i.id IN (SELECT issue_id FROM final_labels)")
        candidates = keys("WHERE i.id IN (SELECT issue_id FROM screening WHERE decision = 'candidate')")
    expected, left_out = {}, 0
    for p in predictions:
        key = (p["repo"], p["number"])
        if p["abstain"] and key not in labeled and key not in candidates:
            left_out += 1
        elif p["abstain"] and key not in labeled:
            expected[key] = min(p["symptom_p"] - p["symptom_threshold"], p["root_cause_p"] - p["root_cause_threshold"])
    got = queue(db, tmp)
    assert summary["queued"] == len(got) == len(expected) > 0, (summary, len(got), len(expected))
    assert summary["abstained_excluded"] == left_out > 0, (summary, left_out)
    assert set(got) == set(expected)
    margins = [expected[key] for key in got]
    assert margins == sorted(margins) and margins[-1] < 0, margins
    # The report's predicted tables leave out the unlabeled candidates the model abstains on or puts out of
    # scope, and count them by why.
    by_key = {(p["repo"], p["number"]): p for p in predictions}
    unlabeled_candidates = [by_key[key] for key in candidates - labeled]
    confident = sum(1 for p in unlabeled_candidates if not p["abstain"] and p["scope"] == "in")
    out_of_scope = sum(1 for p in unlabeled_candidates if not p["abstain"] and p["scope"] != "in")
    report = json.loads(run(db, "--json", "report", "--with-predictions", "--out", report_dir))
    assert report["not_predicted"] == {"abstained": len(expected), "predicted_out_of_scope": out_of_scope,
                                       "unclassified": 0}, report["not_predicted"]
    assert report["predicted"] == confident, (report["predicted"], confident)
    # `show` tells the same standing: the first queued issue, and an abstention screening left out.
    def standing(key):
        return json.loads(run(db, "--json", "show", f"{key[0]}#{key[1]}"))["prediction"]["queue_standing"]
    assert standing(got[0]) == "queued"
    not_candidate = next((p["repo"], p["number"]) for p in predictions if p["abstain"] and
                         (p["repo"], p["number"]) not in labeled and (p["repo"], p["number"]) not in candidates)
    assert standing(not_candidate) == "not_candidate"

    # Candidates whose predictions are gone (as issues that came after the last classify) leave the queue and
    # are counted as having no prediction; an excluded issue without one is not counted.
    with sqlite3.connect(db) as con:
        key_ids = {(repo, number): i for i, repo, number in con.execute(
            "SELECT i.id, r.full_name, i.number FROM issues i JOIN repositories r ON r.id = i.repository_id")}
        excluded = next(key_ids[k] for k in key_ids if k not in candidates and k not in labeled)
        con.executemany("DELETE FROM predictions WHERE issue_id = ?", [(key_ids[k],) for k in got[:3]] + [(excluded,)])
    sheet = os.path.join(tmp, "partial.csv")
    partial = json.loads(run(db, "--json", "label", "export", "--rater", "alice", "--queue", "uncertain", "--out", sheet))
    assert (partial["rows"], partial["unclassified"]) == (len(got) - 3, 3), partial
    assert "3 issues have no prediction yet" in run(db, "label", "export", "--rater", "alice", "--queue", "uncertain",
                                                   "--out", sheet)
    run(db, "classify")
    assert queue(db, tmp) == got

    # Queued issues whose screening decisions are gone (as issues that came since the last screen) wait for
    # screening: left out of the queue, counted apart, shown as not screened; one whose prediction is gone too
    # is counted as neither screened nor classified. A classify counts all three as waiting, a screen brings
    # them back.
    with sqlite3.connect(db) as con:
        con.executemany("DELETE FROM screening WHERE issue_id = ?", [(key_ids[k],) for k in got[:3]])
        con.execute("DELETE FROM predictions WHERE issue_id = ?", (key_ids[got[2]],))
    waiting = json.loads(run(db, "--json", "label", "export", "--rater", "alice", "--queue", "uncertain", "--out", sheet))
    assert (waiting["rows"], waiting["abstained_unscreened"], waiting["abstained_excluded"], waiting["unclassified"],
            waiting["unclassified_unscreened"]) == (len(got) - 3, 2, left_out, 0, 1), waiting
    assert standing(got[0]) == "not_screened"
    text = run(db, "label", "export", "--rater", "alice", "--queue", "uncertain", "--out", sheet)
    assert "2 abstentions wait for their issues to be screened" in text, text
    assert "1 issue has neither a screening decision nor a prediction yet" in text, text
    summary = json.loads(run(db, "--json", "classify"))
    assert (summary["queued"], summary["abstained_unscreened"], summary["abstained_excluded"]) == \
        (len(got) - 3, 3, left_out), summary
    run(db, "screen")
    assert queue(db, tmp) == got

    # An import that changes what screening reads (here the issue is reopened) drops that decision:
    # it waits for screening as a new issue would, and the funnel counts it apart; the same record imported
    # again, or the unchanged store's own records exported and imported, keep every decision. A screen then
    # excludes the reopened issue.
    snapshot = os.path.join(source_dir, "datasets", "snapshot", "issues.jsonl")
    with open(snapshot, encoding="utf-8") as f:
        reopened = next(r for r in map(json.loads, f) if (r["repo"], r["number"]) == got[0])
    reopened.update(state="open", scope=None, scope_reason=None)  # as mined: no person's decision
    changed = os.path.join(tmp, "reopened.jsonl")
    with open(changed, "w", encoding="utf-8") as f:
        f.write(json.dumps(reopened) + "\n")
    def not_screened():
        return json.loads(run(db, "--json", "funnel"))["not_screened"]
    assert not_screened() == 0
    imported = run(db, "import", "--snapshot", changed)
    assert "1 issue changed in what screening reads" in imported and "run 'faultline screen'" in imported, imported
    assert "classifier reads" not in imported, imported  # the state is no word of the classifier's
    assert not_screened() == 1 and standing(got[0]) == "not_screened"
    assert "not screened since it was stored or changed" in run(db, "show", f"{got[0][0]}#{got[0][1]}")
    assert queue(db, tmp) == got[1:]
    run(db, "screen")
    assert json.loads(run(db, "--json", "import", "--snapshot", changed))["screening_outdated"] == 0
    store_records = os.path.join(tmp, "store.jsonl")
    run(db, "export", "--what", "issues", "--out", store_records)
    assert json.loads(run(db, "--json", "import", "--snapshot", store_records))["screening_outdated"] == 0
    assert not_screened() == 0 and standing(got[0]) == "not_candidate"
    # Closed again with a sentence more in its body: screening and the classifier both read it anew.
    reopened["state"] = "closed"
    reopened["body"] += " The reporter added a smaller script that fails the same way."
    with open(changed, "w", encoding="utf-8") as f:
        f.write(json.dumps(reopened) + "\n")
    outdated = json.loads(run(db, "--json", "import", "--snapshot", changed))
    assert (outdated["screening_outdated"], outdated["predictions_outdated"]) == (1, 1), outdated
    assert "not classified since it was stored or changed" in run(db, "show", f"{got[0][0]}#{got[0][1]}")
    run(db, "screen")
    partial = json.loads(run(db, "--json", "label", "export", "--rater", "alice", "--queue", "uncertain", "--out", sheet))
    assert (partial["rows"], partial["unclassified"]) == (len(got) - 1, 1), partial
    run(db, "classify")  # back in the queue, at the place its new text's margin gives it
    after = queue(db, tmp)
    assert set(after) == set(got) and [key for key in after if key != got[0]] == got[1:], (after, got)

    # The scope decisions restored (by a person, as an import of the snapshot records them): nothing queued.
    run(db, "import", "--snapshot", os.path.join(source_dir, "datasets", "snapshot", "issues.jsonl"))
    summary = json.loads(run(db, "--json", "classify"))
    assert (summary["queued"], summary["abstained_excluded"], summary["abstained_unscreened"]) == \
        (0, len(expected) + left_out, 0), summary
    assert queue(db, tmp) == []
    print(f"{len(got)} issues queued, furthest under a threshold first, {left_out} abstentions a person or screening excluded; "
          "none once a person scoped them out")
