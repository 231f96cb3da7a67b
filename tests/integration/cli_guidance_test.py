#!/usr/bin/env python3
"""What the faultline executable tells a person: its version, one line naming a mistyped verb or option
with the nearest known one (exit 2), the tool's own errors (exit 1), `show` for one issue, and progress
lines on stderr that --quiet silences and that leave --json output alone."""
import csv
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from demo_store import build_demo_store

faultline, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
snapshot = os.path.join(source_dir, "datasets", "snapshot")
# The version as the build declares it, read from CMakeLists.txt rather than from the program.
version = re.search(r"project\(faultline VERSION (\S+)", open(os.path.join(source_dir, "CMakeLists.txt")).read()).group(1)


def run(db, *args):
    return subprocess.run([faultline, "--db", db, *args], capture_output=True, text=True)


def usage_error(db, args, expected):
    out = run(db, *args)
    assert out.returncode == 2, (args, out.returncode, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], (args, out.stderr)
    assert out.stdout == "", (args, out.stdout)


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")

    # --version and the version in --json output.
    out = run(db, "--version")
    assert out.returncode == 0 and out.stdout.strip() == f"faultline {version}", out
    # Every --json object names the faultline that wrote it; the reproducer list too, asked either way.
    for args in (["--json", "taxonomy"], ["--json", "repro", "list"], ["repro", "list", "--format", "json"]):
        out = run(db, *args)
        assert out.returncode == 0 and json.loads(out.stdout)["faultline_version"] == version, (args, out.stdout[:200])

    # Typos: one line, the nearest word, exit 2; checked before any requirement of the verb.
    usage_error(db, ["screan"], "unknown verb 'screan' for 'faultline'; did you mean 'screen'?")
    usage_error(db, ["label", "exprt"], "unknown verb 'exprt' for 'faultline label'; did you mean 'export'?")
    usage_error(db, ["repro", "lst"], "unknown verb 'lst' for 'faultline repro'; did you mean 'list'?")
    usage_error(db, ["report", "--formt", "md"], "unknown option '--formt' for 'faultline report'; did you mean '--format'?")
    usage_error(db, ["sample", "--totl", "300"], "unknown option '--totl' for 'faultline sample'; did you mean '--total'?")
    # With the typo fixed, the requirement it hid is what is reported.
    usage_error(db, ["report", "--format", "md"], "--out is required")
    usage_error(db, [], "A subcommand is required")
    # A range lets NaN through (every comparison with it is false); each number option refuses it itself.
    for args, option, value in ((["train", "--abstain-below", "nan"], "--abstain-below", "nan"),
                                (["eval", "--time-split", "NaN"], "--time-split", "NaN"),
                                (["audit", "--threshold", "nan"], "--threshold", "nan"),
                                (["--busy-timeout", "nan", "funnel"], "--busy-timeout", "nan")):
        usage_error(db, args, f"{option}: '{value}' is not a number")
    # Nor does a number with something after it; an accuracy to label at is more than 0 (0 would be met by
    # labeling everything: that is --abstain-below 0) and at most 1.
    for args, option, message in ((["audit", "--threshold", "0.8abc"], "--threshold", "'0.8abc' is not a number"),
                                  (["train", "--root-cause-accuracy", "0"], "--root-cause-accuracy",
                                   "'0' is not more than 0 and at most 1"),
                                  (["eval", "--symptom-accuracy", "1.5"], "--symptom-accuracy",
                                   "'1.5' is not more than 0 and at most 1"),
                                  (["train", "--symptom-accuracy", ""], "--symptom-accuracy", "'' is not a number")):
        usage_error(db, args, f"{option}: {message}")
    # A seed CLI11 would wrap (-1 is 2^64 - 1) or saturate, and an empty sample name (it meant 'main').
    for args, option, message in ((["sample", "--seed", "-1"], "--seed", "'-1' is not a whole number"),
                                  (["eval", "--seed", "99999999999999999999"], "--seed",
                                   "'99999999999999999999' is not a whole number from 0 to 18446744073709551615"),
                                  (["sample", "--name", ""], "--name", "an empty name names nothing"),
                                  (["funnel", "--name", ""], "--name", "an empty name names nothing")):
        usage_error(db, args, f"{option}: {message}")
    # An empty --out (an unset shell variable) would have exported to stdout or failed late; a sample of no
    # issues and a report format there is none of are usage errors too.
    for args in (["export", "--out", ""], ["label", "export", "--rater", "a", "--out", ""], ["eval", "--out", ""],
                 ["report", "--out", ""]):
        usage_error(db, args, "--out: an empty name names nothing")
    # So would any other name left empty: a store, a sample, a rater, a model, manifest or results place.
    for args, option in ((["--db", "", "funnel"], "--db"), (["suite", "--junit", ""], "--junit"),
                         (["suite", "collect", "x", "--junit", ""], "--junit"),
                         (["label", "export", "--rater", "a", "--out", "a.csv", "--sample", ""], "--sample"),
                         (["label", "export", "--rater", "", "--out", "a.csv"], "--rater"),
                         (["report", "--out", "r", "--sample", ""], "--sample"), (["mine", "--sample", ""], "--sample"),
                         (["train", "--models", ""], "--models"), (["classify", "--models", ""], "--models"),
                         (["triage", "a/b#1", "--models", ""], "--models"), (["repro", "list", "--manifests", ""], "--manifests"),
                         (["suite", "--shard-file", "s", "--results", ""], "--results")):
        usage_error(db, args, f"{option}: an empty name names nothing")
    usage_error(db, ["sample", "--total", "-5"], "--total: Value -5 not in range 1 to 2147483647")
    usage_error(db, ["sample", "--total", "0"], "--total: Value 0 not in range 1 to 2147483647")
    # What is not a whole number is said to be so, not out of a range (it said "Value abc not in range").
    for args, option, value in ((["sample", "--total"], "--total", "abc"), (["sample", "--total"], "--total", "1.5"),
                                (["eval", "--folds"], "--folds", ""), (["eval", "--jobs"], "--jobs", "2x"),
                                (["mine", "--repo", "o/r", "--overlap"], "--overlap", "ten")):
        usage_error(db, args + [value], f"{option}: '{value}' is not a whole number")
    # What goes into a request (a time, a repository) or names an issue is checked before anything runs:
    # "--since yesterday" went into the URL as it was, "&state=open" into the query.
    for since in ("yesterday", "2025-13-45T00:00:00Z", "2025-01-01T00:00:00Z&state=open", "2025-01-01"):
        usage_error(db, ["mine", "--repo", "o/r", "--since", since],
                    f"--since: '{since}' is not a UTC time of the form YYYY-MM-DDTHH:MM:SSZ")
    usage_error(db, ["mine", "--repo", "cutlass"], "--repo: 'cutlass' is not of the form OWNER/NAME")
    usage_error(db, ["mine"], "name repositories with --repo OWNER/NAME or use --study")
    usage_error(db, ["mine", "--repo", "o/r", "--max-requests", "-5"], "--max-requests: Value -5 not in range 0 to")
    usage_error(db, ["mine", "--repo", "o/r", "--overlap", "-1"], "--overlap: Value -1 not in range 0 to 2592000")
    # A negative wait or backoff made every wait a stop, or all five retries within 77 ms.
    usage_error(db, ["mine", "--repo", "o/r", "--max-wait", "-5"], "--max-wait: Value -5 not in range 0 to 2592000")
    usage_error(db, ["mine", "--repo", "o/r", "--backoff-ms", "-100000"],
                "--backoff-ms: Value -100000 not in range 0 to 600000")
    usage_error(db, ["show", "cutlass#12"], "issue: 'cutlass#12': repo 'cutlass' is not of the form OWNER/NAME")
    usage_error(db, ["link", "cutlass#12", "causal-mask-corner"], "issue: ")
    usage_error(db, ["report", "--out", os.path.join(tmp, "r"), "--format", "md,pdf"],
                "--format: pdf not in {md,csv,tex,json,html}")
    # CLI11's own messages quote the refused word: an escape in it is written out, not sent to the terminal.
    usage_error(db, ["report", "--out", os.path.join(tmp, "r"), "--format", "md,\x1b[2J"],
                "--format: \\x1b[2J not in {md,csv,tex,json,html}")
    usage_error(db, ["sample", "--total", "5\x1b[31mX"], "--total: '5\\x1b[31mX' is not a whole number")

    build_demo_store(faultline, source_dir, db)

    # eval --out /dev/stdout: stdout is the evaluation file alone (one JSON document, as eval writes it
    # indented), and the text eval prints of it goes to stderr.
    out = run(db, "eval", "--folds", "2", "--time-split", "0", "--out", "/dev/stdout")
    assert out.returncode == 0, out.stderr
    evaluation = json.loads(out.stdout)
    assert evaluation["folds"] == 2 and "faultline_version" not in evaluation, sorted(evaluation)
    assert "2-fold cross-validation" in out.stderr, out.stderr[-500:]

    # export --out: the file holds the records; stdout, one JSON object saying how many (--json) or one line.
    # The reference count is the file's own records, read back with Python's csv and json modules.
    for what, fmt in (("labels", "csv"), ("predictions", "jsonl"), ("issues", "csv")):
        path = os.path.join(tmp, f"{what}.{fmt}")
        out = run(db, "--json", "export", "--what", what, "--format", fmt, "--out", path)
        assert out.returncode == 0, out.stderr
        summary = json.loads(out.stdout)
        with open(path, newline="") as f:
            records = list(csv.DictReader(f)) if fmt == "csv" else [json.loads(line) for line in f]
        assert summary["records"] == len(records) > 0, (what, summary, len(records))
        assert (summary["what"], summary["format"], summary["out"]) == (what, fmt, path), summary
        assert summary["faultline_version"] == version, summary
    labels_csv = os.path.join(tmp, "labels.csv")
    out = run(db, "export", "--what", "labels", "--format", "csv", "--out", labels_csv)
    with open(labels_csv, newline="") as f:
        assert out.stdout == f"exported {len(list(csv.DictReader(f)))} final labels (csv) to {labels_csv}\n", out.stdout

    # The tool's own error: exit 1, one line naming the value.
    out = run(db, "show", "nobody/nothing#1")
    assert out.returncode == 1 and "nobody/nothing#1" in out.stderr and len(out.stderr.strip().splitlines()) == 1, out

    # show: an issue the raters disagreed on and the adjudicator settled, checked against the label files.
    def rows(name):
        return list(csv.DictReader(open(os.path.join(snapshot, name))))
    a = {(r["repo"], r["number"]): r for r in rows("labels_rater_a.csv") if r["symptom"]}
    b = {(r["repo"], r["number"]): r for r in rows("labels_rater_b.csv") if r["symptom"]}
    adjudicated = {(r["repo"], r["number"]): r for r in rows("labels_adjudicated.csv")}
    key = next(k for k in sorted(adjudicated) if k in a and k in b and
               (a[k]["symptom"], a[k]["root_cause"]) != (b[k]["symptom"], b[k]["root_cause"]))
    issue = f"{key[0]}#{key[1]}"
    out = run(db, "--json", "show", issue)
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert view["issue"]["key"] == issue
    labels = {l["rater"]: (l["symptom"], l["root_cause"]) for l in view["rater_labels"]}
    assert labels == {"rater_a": (a[key]["symptom"], a[key]["root_cause"]),
                      "rater_b": (b[key]["symptom"], b[key]["root_cause"])}, labels
    assert view["rater_labels"][0]["source"].endswith("labels_rater_a.csv"), view["rater_labels"][0]
    final = view["final_label"]
    assert (final["symptom"], final["root_cause"], final["provenance"]) == \
        (adjudicated[key]["symptom"], adjudicated[key]["root_cause"], "adjudicated"), final
    assert view["screening"]["decision"] in ("candidate", "excluded") and view["screening"]["rule"], view["screening"]
    p = view["prediction"]
    assert all(0 <= p[f] <= 1 for f in ("scope_p", "symptom_p", "root_cause_p")), p
    assert view["reproducers"] and view["reproducers"][0]["how"] in ("source", "related"), view["reproducers"]
    assert p["queue_standing"] == "manual_label" and 0 < p["root_cause_threshold"] <= 1, p
    text = run(db, "show", issue).stdout
    assert view["screening"]["rule"] in text and "rater_a" in text and "adjudicated" in text, text
    assert "\nqueue:      not queued: its manual label is in force (symptom p " in text, text
    # An issue no rater labeled: no rater lines and no final label.
    labeled = set(a) | set(b) | set(adjudicated)
    records = [json.loads(line) for line in open(os.path.join(snapshot, "issues.jsonl"))]
    unlabeled = next(r for r in records if (r["repo"], str(r["number"])) not in labeled)
    view = json.loads(run(db, "--json", "show", f"{unlabeled['repo']}#{unlabeled['number']}").stdout)
    assert view["rater_labels"] == [] and view["final_label"] is None, view
    # The bundled unlabeled issues are out of scope by a person's decision: shown as not queued for that.
    assert unlabeled["scope"] == "out" and view["prediction"]["queue_standing"] == "out_of_scope", view["prediction"]
    assert "not queued: a person put it out of scope" in run(db, "show", f"{unlabeled['repo']}#{unlabeled['number']}").stdout

    # show matches reproducers against the manifests as they are, as the report does: a `repro list` of a folder
    # holding one other manifest (it rewrites the store's catalog) changes neither. triton#5929 is the source
    # issue named by ptx-version-mismatch's manifest.
    one = os.path.join(tmp, "one-manifest")
    os.mkdir(one)
    shutil.copy(os.path.join(source_dir, "reproducers", "tf32-vs-fp32-reference.json"), one)
    shown = os.path.join(tmp, "shown.db")
    shutil.copy(db, shown)
    assert run(shown, "repro", "list", "--manifests", one).returncode == 0
    out = run(shown, "show", "triton-lang/triton#5929")
    assert "reproducer: ptx-version-mismatch (modeled on this issue)" in out.stdout, out.stdout[-400:]

    # link: an issue named in another case, or by a name its repository had before a rename, is linked and
    # told as stored.
    linked = os.path.join(tmp, "linked.db")
    shutil.copy(db, linked)
    with sqlite3.connect(linked) as con:
        con.execute("INSERT INTO repository_aliases(name, repository_id) "
                    "SELECT 'former-owner/former-name', id FROM repositories WHERE full_name = ?", (key[0],))
    reproducer = json.loads(run(db, "--json", "repro", "list").stdout)["reproducers"][0]["id"]
    for asked in (f"{key[0].upper()}#{key[1]}", f"former-owner/FORMER-name#{key[1]}"):
        out = run(linked, "--json", "link", asked, reproducer)
        assert out.returncode == 0 and json.loads(out.stdout)["issue"] == issue, (asked, out)
    with sqlite3.connect(linked) as con:
        assert con.execute("SELECT COUNT(*) FROM repro_links l JOIN issues i ON i.id = l.issue_id JOIN repositories r "
                           "ON r.id = i.repository_id WHERE r.full_name = ? AND i.number = ? AND l.repro_id = ?",
                           (key[0], int(key[1]), reproducer)).fetchone()[0] == 1

    # A reproducer run in a mode it does not have ran nothing and exited 0, as if it had passed.
    out = run(db, "repro", "run", "missing-rdc-link", "--mode", "host")
    assert out.returncode == 1 and out.stdout == "" and \
        "missing-rdc-link has no run in --mode host (its modes: build, gpu)" in out.stderr, out

    # Progress: off a terminal, lines on stderr (the first axis, then the end); --json stdout unchanged.
    copy = os.path.join(tmp, "copy.db")
    shutil.copy(db, copy)
    out = run(copy, "--json", "train")
    assert out.returncode == 0, out.stderr
    json.loads(out.stdout)
    lines = out.stderr.strip().splitlines()
    assert lines[0] == "train: axis 1 of 3 (symptom)" and lines[-1].startswith("train: done in "), out.stderr
    out = run(copy, "--json", "--quiet", "train")
    assert out.returncode == 0 and out.stderr == "", out.stderr
    json.loads(out.stdout)

    # Final labels follow the latest audit. The reference: the store's own final_labels rows, counted by
    # sqlite3 before anything below. A re-import of a rater the audit counted runs it again (the same
    # labels: the same finals); an audit whose gate fails withdraws them all, so the funnel's final column
    # is empty; one that passes brings them back.
    snapshot = os.path.join(source_dir, "datasets", "snapshot")
    finals = lambda: sqlite3.connect(copy).execute("SELECT COUNT(*) FROM final_labels").fetchone()[0]
    before = finals()
    assert before > 0
    out = run(copy, "--json", "--quiet", "label", "import", "--rater", "rater_a",
              os.path.join(snapshot, "labels_rater_a.csv"))
    audit = json.loads(out.stdout)["audit"]
    assert out.returncode == 0 and audit["gate"] == "pass" and audit["withdrawn"] == 0, out
    assert audit["promoted"]["agreed"] + audit["promoted"]["adjudicated"] == before == finals(), audit["promoted"]
    out = run(copy, "--json", "--quiet", "audit", "--raters", "rater_a,rater_b", "--threshold", "0.99")
    audit = json.loads(out.stdout)
    assert out.returncode == 0 and audit["gate"] == "fail" and audit["withdrawn"] == before and finals() == 0, out
    funnel = json.loads(run(copy, "--json", "--quiet", "funnel").stdout)
    assert funnel["total"]["final"] == 0, funnel["total"]
    text = run(copy, "--quiet", "audit", "--raters", "rater_a,rater_b", "--threshold", "0.99").stdout
    assert "final labels withdrawn" not in text, text  # none left to withdraw
    out = run(copy, "--quiet", "audit", "--raters", "rater_a,rater_b", "--threshold", "0.8")
    assert out.returncode == 0 and finals() == before, out
    text = run(copy, "--quiet", "audit", "--raters", "rater_a,rater_b", "--threshold", "0.99").stdout
    assert f"final labels withdrawn: {before} " in text, text

    # A report's files are all written before any replaces its old one. A full disk (a file-size limit that
    # report.json and index.html pass and each table's file does not) leaves the old report as it was, byte
    # for byte, where the tables written before the failure used to be new beside the old rest; with room
    # every file is replaced (Table I differs: the store was screened again in between). Files of the
    # user's in the directory, and the link the directory is reached by, stay.
    import resource
    real_dir = os.path.join(tmp, "rep-real")
    report_dir = os.path.join(tmp, "rep")
    os.makedirs(real_dir)
    os.symlink(real_dir, report_dir)
    with open(os.path.join(real_dir, "notes.txt"), "w") as f:
        f.write("mine")
    assert run(db, "--quiet", "report", "--out", report_dir).returncode == 0
    def contents():
        return {name: open(os.path.join(real_dir, name), "rb").read() for name in os.listdir(real_dir)}
    old = contents()
    assert max(len(v) for v in old.values()) > 100 * 1024 > len(old["table1_funnel.csv"]), sorted(old)
    out = run(db, "--quiet", "screen", "--rules-only")
    # The column counts decisions that followed a person's scope: none here, though the store holds them.
    assert out.returncode == 0 and "screened by a scope decision" in out.stdout, out
    assert "but not in this screen (--rules-only): the rules decided every issue" in out.stdout, out.stdout
    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (100 * 1024, resource.RLIM_INFINITY))
    out = subprocess.run([faultline, "--db", db, "--quiet", "report", "--out", report_dir], capture_output=True,
                         text=True, preexec_fn=limit)
    assert out.returncode == 1 and "cannot write the file" in out.stderr, out
    assert contents() == old, "a failed report changed the old one"
    assert run(db, "--quiet", "report", "--out", report_dir).returncode == 0
    new = contents()
    assert sorted(new) == sorted(old) and new["table1_funnel.csv"] != old["table1_funnel.csv"], "not replaced"
    assert new["notes.txt"] == b"mine" and os.path.islink(report_dir), "the user's file or link went"

    # A report writes the tables it holds and removes the files an earlier report wrote of the tables it
    # does not hold (they would pass for its own), in the formats it writes: the prediction tables of a
    # report --with-predictions go with the next report without it; their .tex stay when it writes no tex.
    # (The prediction: a copy of an in-scope issue under a new number and without its scope decision, and a
    # model that never abstains.)
    with open(os.path.join(snapshot, "issues.jsonl")) as f:
        record = next(r for r in map(json.loads, f) if r.get("scope") == "in" and r["state"] == "closed")
    record.update(number=990001, url=record["url"].rsplit("/", 1)[0] + "/990001")
    del record["scope"], record["scope_reason"]
    with open(os.path.join(tmp, "new.jsonl"), "w") as f:
        f.write(json.dumps(record) + "\n")
    for args in (["import", "--snapshot", os.path.join(tmp, "new.jsonl")], ["screen"],
                 ["train", "--abstain-below", "0"], ["classify"]):
        assert run(db, "--quiet", *args).returncode == 0, args
    assert run(db, "--quiet", "report", "--out", report_dir, "--with-predictions").returncode == 0
    predicted = lambda: sorted(n for n in os.listdir(real_dir) if "_predicted." in n)
    expected = sorted(f"{t}_predicted.{f}" for t in ("table2_symptoms", "table3_root_causes") for f in ("csv", "tex", "json"))
    assert predicted() == expected, predicted()
    assert run(db, "--quiet", "report", "--out", report_dir, "--format", "csv,json,md,html").returncode == 0
    assert predicted() == [n for n in expected if n.endswith(".tex")], predicted()
    assert open(os.path.join(real_dir, "notes.txt")).read() == "mine"
    assert "_predicted" not in open(os.path.join(real_dir, "report.json")).read()
print("ok")
