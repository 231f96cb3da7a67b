#!/usr/bin/env python3
"""`faultline triage` on the demo store: its prediction of a stored issue is what `classify` stored, a labeled
issue finds itself first with similarity 1, a record from a file or stdin answers as the stored issue does,
--batch prints what one-by-one runs print, the --json keys are the documented ones, a write-protected store
can be triaged, and hostile input (malformed JSON, missing fields, a several-MB body, markup and formula
text, an unknown issue, a store without a model) gets one line on stderr and the CLI's exit status."""
import json
import shlex
import os
import shutil
import subprocess
import sys
import tempfile
import time

from demo_store import build_demo_store

faultline, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
snapshot = os.path.join(source_dir, "datasets", "snapshot", "issues.jsonl")
KEYS = ["faultline_version", "final_label", "issue", "label_thresholds", "model_version", "moved_by", "queue_standing", "queued",
        "root_cause",
        "root_cause_reproducers", "rules_fired", "scope", "similar", "similar_case_reproducers", "symptom",
        "tokens_distinct", "tokens_tried"]


def run(db, *args, stdin=None, preexec_fn=None):
    return subprocess.run([faultline, "--db", db, *args], capture_output=True, text=True, input=stdin,
                          cwd=source_dir, preexec_fn=preexec_fn)


def triage_json(db, *args, stdin=None):
    out = run(db, "--json", "triage", *args, stdin=stdin)
    assert out.returncode == 0, (args, out.returncode, out.stderr)
    return json.loads(out.stdout)


def one_line_error(db, args, status, expected, stdin=None):
    out = run(db, *args, stdin=stdin)
    lines = out.stderr.strip().splitlines()
    assert out.returncode == status, (args, out.returncode, out.stderr)
    assert len(lines) == 1 and expected in lines[0], (args, out.stderr)
    assert out.stdout == "", (args, out.stdout[:300])


with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")
    build_demo_store(faultline, source_dir, db)
    records = [json.loads(line) for line in open(snapshot, encoding="utf-8")]
    keys = [f"{r['repo']}#{r['number']}" for r in records]

    # The stored prediction (as `show` prints it) and the triage of the same issue agree to the last digit.
    labeled_seen = 0
    standings_seen = set()
    for record, key in zip(records[:40], keys[:40]):
        shown = json.loads(run(db, "--json", "show", key).stdout)
        t = triage_json(db, key)
        assert sorted(t) == KEYS, sorted(t)
        p = shown["prediction"]
        assert t["model_version"] == p["model_version"], (key, t["model_version"], p)
        for axis in ("scope", "symptom", "root_cause"):
            assert (t[axis]["label"], t[axis]["p"]) == (p[axis], p[axis + "_p"]), (key, axis, t[axis], p)
            # Every class's probability: they sum to 1, and the chosen class is the likeliest with its p.
            d = t[axis]["distribution"]
            taxonomy_size = {"scope": 2, "symptom": 6, "root_cause": 15}[axis]
            assert len(d) == taxonomy_size and abs(sum(d.values()) - 1) < 1e-9, (key, axis, d)
            assert d[t[axis]["label"]] == t[axis]["p"] and t[axis]["p"] == max(d.values()), (key, axis, d)
        assert t["rules_fired"] == p["rules_fired"], (key, t, p)
        # It abstains exactly where a probability is under its axis's threshold, as stored.
        thresholds = t["label_thresholds"]
        under = t["symptom"]["p"] < thresholds["symptom"] or t["root_cause"]["p"] < thresholds["root_cause"]
        assert p["abstain"] == under, (key, p, thresholds)
        # A person is asked only where the model abstains, no manual label is in force, no person put the
        # issue out of scope (the record's own scope decision) and it is a screening candidate (or a person
        # put it in scope); an issue not screened yet waits for screening.
        person_in = record.get("scope") == "in"
        screened = shown["screening"]
        standing = ("manual_label" if shown["final_label"] else "out_of_scope" if record.get("scope") == "out"
                    else "not_screened" if not person_in and not screened
                    else "not_candidate" if not person_in and screened["decision"] != "candidate"
                    else "queued" if p["abstain"] else "model_labels")
        assert (t["queue_standing"], t["queued"]) == (standing, standing == "queued"), (key, t["queue_standing"], p)
        standings_seen.add(standing)
        assert len(t["similar"]) == 5, t["similar"]
        if shown["final_label"]:
            # In the index: itself first, at similarity 1, with its final labels.
            labeled_seen += 1
            first = t["similar"][0]
            assert first["issue"] == key and abs(first["similarity"] - 1) < 1e-12, (key, first)
            assert (first["symptom"], first["root_cause"]) == \
                (shown["final_label"]["symptom"], shown["final_label"]["root_cause"]), (key, first)
            assert t["similar"][1]["similarity"] < 1, t["similar"]
        else:
            assert all(c["issue"] != key for c in t["similar"]), (key, t["similar"])
        sims = [c["similarity"] for c in t["similar"]]
        assert sims == sorted(sims, reverse=True) and all(0 < s <= 1 for s in sims), sims
        for axis in ("symptom", "root_cause"):
            drops = [m["drop"] for m in t["moved_by"][axis]]
            assert 0 < len(drops) <= 5 and drops == sorted(drops, reverse=True) and all(d > 0 for d in drops), (key, axis, drops)
    assert labeled_seen >= 20, labeled_seen
    assert {"manual_label", "out_of_scope"} <= standings_seen, standings_seen
    # The same issue without its scope decision, as a new record from outside: the model's abstention decides.
    out_record = next(r for r in records[:40] if r.get("scope") == "out" and
                      json.loads(run(db, "--json", "show", f"{r['repo']}#{r['number']}").stdout)["prediction"]["abstain"])
    unscoped = {k: v for k, v in out_record.items() if k not in ("scope", "scope_reason", "url")}
    unscoped.update(number=888888, state="closed", labels=[], title="illegal memory access crash in the kernel")
    t = triage_json(db, "-", stdin=json.dumps(unscoped))
    under = (t["symptom"]["p"] < t["label_thresholds"]["symptom"] or
             t["root_cause"]["p"] < t["label_thresholds"]["root_cause"])
    assert (t["queue_standing"], t["queued"]) == (("queued", True) if under else ("model_labels", False)), t
    unscoped["state"] = "open"  # the study screens open issues out
    assert triage_json(db, "-", stdin=json.dumps(unscoped))["queue_standing"] == "not_candidate"
    assert "would not be queued: a person put it out of scope" in \
        run(db, "triage", f"{out_record['repo']}#{out_record['number']}").stdout

    # A corpus record from a file, or on stdin, is triaged as the stored issue it is.
    record_file = os.path.join(tmp, "record.json")
    with open(record_file, "w") as f:
        json.dump(records[0], f, indent=2)  # a pretty-printed file is one record too
    stored = triage_json(db, keys[0])
    assert triage_json(db, record_file) == stored
    assert triage_json(db, "-", stdin=json.dumps(records[0])) == stored

    # --batch prints, line by line, what one-by-one runs print; a new issue (not in the store) included.
    new_issue = {"repo": "NVIDIA/cutlass", "number": 999999, "state": "open", "title": "illegal memory access in grouped GEMM",
                 "body": "CUDA error: an illegal memory access was encountered when running the grouped kernel on H100",
                 "error_lines": ["RuntimeError: CUDA error: an illegal memory access was encountered"]}
    batch_file = os.path.join(tmp, "batch.jsonl")
    batch_records = [records[3], new_issue, records[100]]
    with open(batch_file, "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in batch_records))
    out = run(db, "--json", "triage", "--batch", batch_file)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3, out.stdout[:500]
    for line, record in zip(lines, batch_records):
        assert json.loads(line) == triage_json(db, "-", stdin=json.dumps(record)), record["number"]
    new = json.loads(lines[1])
    assert new["issue"]["url"] == "https://github.com/NVIDIA/cutlass/issues/999999", new["issue"]
    assert all(c["issue"] != "NVIDIA/cutlass#999999" for c in new["similar"])
    text = run(db, "triage", "--batch", batch_file).stdout
    singles = [run(db, "triage", "-", stdin=json.dumps(r)).stdout for r in batch_records]
    assert text == "\n".join(singles), (text[:300], singles[0][:300])

    # Reproducers: those of the predicted root cause, each with its last suite outcome ("never run" here:
    # the demo store has no suite run), and the one modeled on the most similar case that has one.
    t = triage_json(db, keys[0])
    assert t["root_cause_reproducers"], t["root_cause"]
    assert all(r["last_suite"] == [] for r in t["root_cause_reproducers"])
    assert "never run" in run(db, "triage", keys[0]).stdout

    # A write-protected store is triaged without a write (as root, as user nobody, for whom it is protected).
    protected = os.path.join(tmp, "protected")
    os.makedirs(protected)
    shutil.copy(db, os.path.join(protected, "store.db"))
    models = os.path.join(protected, "store.db.models")
    shutil.copytree(db + ".models", models)
    # The models are written private to their owner; here they are readable by all, but not writable.
    for name in os.listdir(models):
        os.chmod(os.path.join(models, name), 0o444)
    os.chmod(models, 0o555)
    os.chmod(tmp, 0o755)
    os.chmod(os.path.join(protected, "store.db"), 0o444)
    os.chmod(protected, 0o555)
    before = open(os.path.join(protected, "store.db"), "rb").read()
    as_nobody = (lambda: (os.setgid(65534), os.setuid(65534))) if os.geteuid() == 0 else None
    out = run(os.path.join(protected, "store.db"), "--json", "triage", keys[0], preexec_fn=as_nobody)
    assert out.returncode == 0, f"triage of a write-protected store: {out.stderr}"
    assert json.loads(out.stdout) == stored
    assert open(os.path.join(protected, "store.db"), "rb").read() == before
    os.chmod(protected, 0o755)
    os.chmod(models, 0o755)

    # Hostile input: one line on stderr, exit 1 (2 for a command line not understood), nothing on stdout.
    def write(name, text):
        path = os.path.join(tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path
    one_line_error(db, ["triage", write("bad.json", '{"repo": "NVIDIA/cutlass", "number": 1,')], 1, "bad.json: not valid JSON")
    one_line_error(db, ["triage", write("notitle.json", '{"repo": "NVIDIA/cutlass", "number": 1, "state": "open"}')], 1,
                   "notitle.json: missing field 'title'")
    one_line_error(db, ["triage", "-"], 1, "stdin: missing field 'state'", stdin='{"repo": "a/b", "number": 3}')
    one_line_error(db, ["triage", "-"], 1, "stdin: not valid JSON", stdin="")
    one_line_error(db, ["triage", "nobody/nothing#1"], 1, "triage: issue nobody/nothing#1 is not in the store")
    one_line_error(db, ["triage", "nothing.json"], 1, "there is no file 'nothing.json', and it is no issue key")
    one_line_error(db, ["triage"], 2, "give one issue")
    one_line_error(db, ["triage", "--batch", "-"], 1, "--batch reads a JSONL file, not stdin")
    one_line_error(db, ["triage", "-"], 1, "(several records? triage a JSONL file with --batch FILE.jsonl)",
                   stdin=json.dumps(records[0]) + "\n" + json.dumps(records[1]) + "\n")
    # One record over several lines, refused for what it holds, gets no such hint.
    pretty = dict(records[0], title=None)
    one_line_error(db, ["triage", "-"], 1, "stdin: field 'title' must be a string, not null",
                   stdin=json.dumps(pretty, indent=2) + "\n")
    assert "several records" not in run(db, "triage", "-", stdin=json.dumps(pretty, indent=2)).stderr
    # A NUL, a newline or an escape in a refused repository name is written out: the message stays one line
    # and keeps its reason.
    for repo, shown in [("a\x00b/c", "a\\x00b/c"), ("foo\nbar/baz", "foo\\nbar/baz"), ("a/b\x1b[31mX", "a/b\\x1b[31mX")]:
        one_line_error(db, ["triage", "-"], 1, f"repo '{shown}' is not of the form OWNER/NAME",
                       stdin=json.dumps(dict(new_issue, repo=repo)))
    one_line_error(db, ["triage", keys[0], "--batch", batch_file], 2, "excludes")
    bad_batch = write("bad.jsonl", json.dumps(records[0]) + "\n" + '{"repo": "x"\n')
    one_line_error(db, ["--json", "triage", "--batch", bad_batch], 1, "bad.jsonl:2: not valid JSON")
    empty = os.path.join(tmp, "nomodel.db")
    shutil.copy(db, empty)
    one_line_error(empty, ["triage", keys[0]], 1, "no trained model here (run 'faultline train' first)")
    one_line_error(os.path.join(tmp, "absent.db"), ["triage", keys[0]], 1, "no store at")

    # An endless stream on stdin is refused at 64 MiB, not read until memory runs out; a device or a pipe
    # named as a file is read as one (a record from /dev/stdin works, /dev/zero is refused at the same size).
    endless = subprocess.run(f"yes | {shlex.quote(faultline)} --db {shlex.quote(db)} triage -", shell=True,
                             capture_output=True, text=True, timeout=120)
    assert endless.returncode == 1 and endless.stderr.strip() == "faultline: stdin: more than 64 MiB; refused (one record is expected)", endless.stderr[:300]
    one_line_error(db, ["triage", "/dev/zero"], 1, "/dev/zero: more than 64 MiB; refused (one record is expected)")
    assert triage_json(db, "/dev/stdin", stdin=json.dumps(new_issue))["issue"]["title"] == new_issue["title"]

    # Markup, a spreadsheet formula and terminal escapes in the title: JSON carries them as they are; the text
    # writes the control characters out (\x1b, \n), so the title stays one line and sends the terminal nothing.
    hostile_title = "<script>alert(1)</script> =HYPERLINK(\"http://x\") \x1b[31mred\x1b[0m\nforged: line"
    hostile = dict(new_issue, title=hostile_title)
    assert triage_json(db, "-", stdin=json.dumps(hostile))["issue"]["title"] == hostile_title
    text = run(db, "triage", "-", stdin=json.dumps(hostile)).stdout
    assert "\x1b" not in text and "\nforged: line" not in text, text[:400]
    assert "title:       <script>alert(1)</script> =HYPERLINK(\"http://x\") \\x1b[31mred\\x1b[0m\\nforged: line\n" in text, text[:400]
    # A right-to-left override would show "abc" + U+202E + "gnp.exe" as "abcexe.png": it is written out.
    text = run(db, "triage", "-", stdin=json.dumps(dict(new_issue, title="abc\u202egnp.exe"))).stdout
    assert "title:       abc\\u202egnp.exe\n" in text and "\u202e" not in text, text[:400]
    # A 3 MB title (GitHub allows 256 characters) is shown cut, with its length; JSON carries it whole.
    long_title = dict(new_issue, title="x" * 3_000_000)
    title_line = next(l for l in run(db, "triage", "-", stdin=json.dumps(long_title)).stdout.splitlines()
                      if l.startswith("title:"))
    assert title_line == "title:       " + "x" * 1024 + " … (3000000 bytes in all)", title_line[-80:]
    assert len(triage_json(db, "-", stdin=json.dumps(long_title))["issue"]["title"]) == 3_000_000

    # A 5.9 MB body: answered, the explanation bounded (fewer tokens tried than there are), within seconds.
    huge = dict(new_issue, body=" ".join(f"w{i} illegal memory" for i in range(260_000)))
    assert len(huge["body"]) > 5_500_000
    start = time.monotonic()
    t = triage_json(db, "-", stdin=json.dumps(huge))
    seconds = time.monotonic() - start
    assert t["tokens_tried"] < t["tokens_distinct"], (t["tokens_tried"], t["tokens_distinct"])
    assert seconds < 30, seconds
    print(f"5.9 MB body triaged in {seconds:.2f} s ({t['tokens_tried']} of {t['tokens_distinct']} tokens tried)")
print("triage: all checks passed")
