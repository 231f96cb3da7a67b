#!/usr/bin/env python3
"""The faultline executable against stores and disks that are not what a verb hopes for: a missing store is
never created by a verb that only reads or derives, a busy store says so, and output files on a full disk
(RLIMIT_FSIZE stands in for it) fail loudly and leave the previous file as it was."""
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile

faultline, source_dir = sys.argv[1], sys.argv[2]
snapshot = os.path.join(source_dir, "datasets", "snapshot")


def run(*args, db, file_size_limit=None, env=None):
    def limit():
        if file_size_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, resource.RLIM_INFINITY))
    return subprocess.run([faultline, "--db", db, *args], capture_output=True, text=True, preexec_fn=limit,
                          env={**os.environ, **(env or {})})


def check(condition, message):
    if not condition:
        print("FAIL:", message)
        sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    missing = os.path.join(tmp, "nosuch.db")
    # Verbs that read or derive: "no store at PATH", non-zero, nothing created, no report files.
    for verb in (["funnel"], ["screen"], ["audit"], ["export", "--what", "issues"],
                 ["report", "--out", os.path.join(tmp, "report")], ["sample", "--total", "3"]):
        out = run(*verb, db=missing)
        check(out.returncode != 0, f"{verb} on a missing store exited 0")
        check(out.stderr.startswith("faultline: no store at " + missing), f"{verb}: {out.stderr!r}")
        check(not os.path.exists(missing), f"{verb} created the store")
    check(not os.path.exists(os.path.join(tmp, "report")), "report wrote files without a store")
    # An all-or-nothing verb that fails on a new store leaves no store behind: an empty one would pass for a
    # study with no issues. A bad snapshot (a missing file, a line that is not JSON) and a label file.
    bad_snapshot = os.path.join(tmp, "bad.jsonl")
    with open(bad_snapshot, "w") as f:
        f.write("{not json\n")
    for verb in (["import", "--snapshot", os.path.join(tmp, "nosuch.jsonl")], ["import", "--snapshot", bad_snapshot],
                 ["label", "import", "--rater", "a", os.path.join(snapshot, "labels_rater_a.csv")]):
        out = run(*verb, db=missing)
        check(out.returncode == 1, f"{verb}: exit {out.returncode}")
        check(sorted(f for f in os.listdir(tmp) if "nosuch.db" in f) == [], f"{verb} left a store or a hidden one")

    # A database faultline did not make is not a store: another program's is left as it was (tables, journal
    # mode, user_version), and an empty file stays empty.
    foreign = os.path.join(tmp, "foreign.db")
    with sqlite3.connect(foreign) as c:
        c.execute("CREATE TABLE issues (x)")
    # One that sets a user_version of its own, as faultline's stores do, but has none of their tables.
    versioned = os.path.join(tmp, "versioned.db")
    with sqlite3.connect(versioned) as c:
        c.execute("CREATE TABLE contacts (x)")
        c.execute("PRAGMA user_version=3")
    out = run("funnel", db=versioned)
    check(out.returncode == 1 and "not a faultline store (it holds another program's tables)" in out.stderr,
          f"funnel on a versioned foreign database: exit {out.returncode}, {out.stderr!r}")
    with sqlite3.connect(versioned) as c:
        check(c.execute("PRAGMA journal_mode").fetchone()[0] == "delete", "journal mode changed")
        check([r[0] for r in c.execute("SELECT name FROM sqlite_master")] == ["contacts"], "tables added")
    # A version and no tables at all (no faultline leaves that) is said as it is, not as another's tables.
    bare = os.path.join(tmp, "bare.db")
    with sqlite3.connect(bare) as c:
        c.execute("PRAGMA user_version=5")
    out = run("funnel", db=bare)
    check(out.returncode == 1 and f"{bare}: not a faultline store (schema version 5 but no tables)" in out.stderr,
          f"funnel on a versioned empty database: exit {out.returncode}, {out.stderr!r}")
    empty = os.path.join(tmp, "empty.db")
    open(empty, "w").close()
    for path, why in ((foreign, "it holds another program's tables"), (empty, "an empty database")):
        for verb in (["funnel"], ["import", "--snapshot", os.path.join(snapshot, "issues.jsonl")]):
            if path == empty and verb[0] == "import":
                continue  # a verb that creates a store may make one of an empty file
            out = run(*verb, db=path)
            check(out.returncode == 1 and f"{path}: not a faultline store ({why})" in out.stderr,
                  f"{verb} on {path}: exit {out.returncode}, {out.stderr!r}")
    with sqlite3.connect(foreign) as c:
        check([r[0] for r in c.execute("SELECT name FROM sqlite_master")] == ["issues"], "tables added")
        check(c.execute("PRAGMA user_version").fetchone()[0] == 0, "user_version set")
        check(c.execute("PRAGMA journal_mode").fetchone()[0] == "delete", "journal mode changed")
    check(os.path.getsize(empty) == 0, "the empty file was written")

    # A verb that brings data in creates it. What a killed import left beside the same path (a store being
    # made, and its log) is removed first, once no process holds it and it is a minute old; the same left by
    # another path, or one just made, stays.
    db = os.path.join(tmp, "store.db")
    two_minutes_ago = os.path.getmtime(tmp) - 120
    left = [".store.db.faultline-Ab12Cd", ".store.db.faultline-Ab12Cd-wal"]
    kept = [".store.db.faultline-Yy00Yy", ".other.db.faultline-Ab12Cd"]
    for name in left + kept:
        with open(os.path.join(tmp, name), "w") as f:
            f.write("x")
        if name != kept[0]:
            os.utime(os.path.join(tmp, name), (two_minutes_ago, two_minutes_ago))
    out = run("import", "--snapshot", os.path.join(snapshot, "issues.jsonl"), db=db)
    check(out.returncode == 0 and os.path.exists(db), out.stderr)
    check(sorted(f for f in os.listdir(tmp) if ".faultline-" in f) == sorted(kept),
          f"hidden work after the import: {sorted(f for f in os.listdir(tmp) if '.faultline-' in f)}")
    for name in kept:
        os.remove(os.path.join(tmp, name))
    check(run("funnel", db=db).returncode == 0, "funnel on an existing store failed")

    # Output written to stdout by name (--out /dev/stdout) is only that output: what the verb says about it
    # goes to stderr. A file elsewhere keeps the message on stdout.
    out = run("export", "--what", "issues", "--out", "/dev/stdout", db=db)
    lines = out.stdout.splitlines()
    check(out.returncode == 0 and len(lines) == 432, f"export to /dev/stdout: {len(lines)} lines, {out.stderr!r}")
    for line in lines:
        json.loads(line)
    check("exported 432 issues (jsonl) to /dev/stdout" in out.stderr, f"export's message: {out.stderr!r}")
    out = run("--json", "label", "export", "--rater", "a", "--out", "/dev/stdout", db=db)
    check(out.returncode == 0 and out.stdout.startswith("repo,number,") and '"rows":432' in out.stderr
          and "faultline_version" not in out.stdout, f"label export to /dev/stdout: {out.stderr!r}")
    out = run("export", "--what", "issues", "--out", os.path.join(tmp, "issues.jsonl"), db=db)
    check(out.stdout.startswith("exported 432 issues (jsonl) to ") and out.stderr == "",
          f"export to a file: {out.stdout!r}, {out.stderr!r}")
    # An output named as the store itself replaced it with JSONL: every label and decision gone, exit 0.
    for verb in (["export", "--what", "issues", "--out", db], ["label", "export", "--rater", "a", "--out", db],
                 ["train", "--models", db]):
        out = run(*verb, db=db)
        check(out.returncode == 1 and ("is an SQLite database or its log (a store?)" in out.stderr
                                       or "is a file, not a directory" in out.stderr),
              f"{verb[0]} --out the store: exit {out.returncode}, {out.stderr!r}")
        with sqlite3.connect(db) as c:
            check(c.execute("SELECT COUNT(*) FROM issues").fetchone()[0] == 432, f"{verb[0]}: the store changed")

    # A file that is not a database at all, and a faultline store whose schema version is under 0 (no
    # faultline writes one; the migrations are indexed by it, and such a store once crashed every verb),
    # are refused with their path and left as they were.
    text = os.path.join(tmp, "notes.db")
    with open(text, "w") as f:
        f.write("these are notes, not a database\n" * 200)
    negative = os.path.join(tmp, "negative.db")
    with sqlite3.connect(db) as source, sqlite3.connect(negative) as copy:
        source.backup(copy)
    with sqlite3.connect(negative) as c:
        c.execute("PRAGMA user_version=-7")
    for path, why in ((text, "not an SQLite database"), (negative, "schema version -7, which no faultline writes")):
        for verb in (["funnel"], ["import", "--snapshot", os.path.join(snapshot, "issues.jsonl")]):
            out = run(*verb, db=path)
            check(out.returncode == 1 and f"{path}: not a faultline store ({why})" in out.stderr,
                  f"{verb} on {path}: exit {out.returncode}, {out.stderr!r}")
    check(open(text).read() == "these are notes, not a database\n" * 200, "the text file was written")
    # A store damaged where a verb reads it (the issues table's first page made unreadable) says so, and
    # what to do, rather than SQLite's words and the statement it ran.
    damaged = os.path.join(tmp, "damaged.db")
    with sqlite3.connect(db) as source, sqlite3.connect(damaged) as copy:
        source.backup(copy)
    with sqlite3.connect(damaged) as c:
        page_size = c.execute("PRAGMA page_size").fetchone()[0]
        root = c.execute("SELECT rootpage FROM sqlite_master WHERE name = 'issues'").fetchone()[0]
    with open(damaged, "r+b") as f:
        f.seek((root - 1) * page_size)
        f.write(b"\xff")  # no b-tree page has this type
    out = run("export", "--what", "issues", db=damaged)
    check(out.returncode == 1 and f"database {damaged}: the store is damaged (SQLite: database disk image is "
          "malformed); restore it from a copy" in out.stderr and " in: SELECT" not in out.stderr,
          f"export of a damaged store: exit {out.returncode}, {out.stderr!r}")
    folder = os.path.join(tmp, "folder")
    os.mkdir(folder)
    for verb in (["funnel"], ["import", "--snapshot", os.path.join(snapshot, "issues.jsonl")]):
        out = run(*verb, db=folder)
        check(out.returncode == 1 and f"database {folder}: a directory, not a store file" in out.stderr
              and os.listdir(folder) == [], f"{verb} on a directory: exit {out.returncode}, {out.stderr!r}")
    with sqlite3.connect(negative) as c:
        check(c.execute("PRAGMA user_version").fetchone()[0] == -7, "the negative version was changed")

    # A busy store: another connection holds the write lock; the verb waits --busy-timeout and says so.
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    out = run("screen", "--busy-timeout", "0.2", db=db)
    check(out.returncode != 0, "screen on a locked store exited 0")
    check("the store is busy (another faultline is writing); waited 0.2 s" in out.stderr, out.stderr)
    out = run("screen", db=db, env={"FAULTLINE_BUSY_TIMEOUT": "0.3"})
    check("waited 0.3 s" in out.stderr, out.stderr)
    holder.execute("ROLLBACK")
    holder.close()
    check(run("screen", db=db).returncode == 0, "screen after the lock was released failed")

    # A write-protected store can be reported: the report reads the manifests instead of registering them in
    # the store. As root, write protection means nothing, so the report then runs as user nobody.
    protected = os.path.join(tmp, "protected")
    os.makedirs(protected)
    shutil.copy(db, os.path.join(protected, "store.db"))
    report_dir = os.path.join(tmp, "protected-report")
    os.makedirs(report_dir)
    os.chmod(report_dir, 0o777)
    os.chmod(tmp, 0o755)
    os.chmod(os.path.join(protected, "store.db"), 0o444)
    os.chmod(protected, 0o555)
    as_nobody = (lambda: (os.setgid(65534), os.setuid(65534))) if os.geteuid() == 0 else None
    out = subprocess.run([faultline, "--db", os.path.join(protected, "store.db"), "report", "--out", report_dir,
                          "--format", "md"], capture_output=True, text=True, preexec_fn=as_nobody)
    check(out.returncode == 0, f"report on a write-protected store: {out.stderr}")
    check(os.path.exists(os.path.join(report_dir, "report.md")), "report on a write-protected store wrote no file")
    os.chmod(protected, 0o755)

    # A store that cannot grow (a file-size limit stands in for a full disk): one line that says so and what
    # to do, not SQLite's "disk I/O error" with the statement that met it; nothing is left of the new store.
    full = os.path.join(tmp, "full.db")
    out = run("import", "--snapshot", os.path.join(snapshot, "issues.jsonl"), db=full, file_size_limit=200 * 1024)
    check(out.returncode == 1 and out.stderr.count("\n") == 1 and " in: " not in out.stderr
          and "the disk is full, a file-size limit was reached" in out.stderr,
          f"import on a full disk: {out.returncode}, {out.stderr!r}")
    check(not os.path.exists(full), "import on a full disk left a store")
    check(run("import", "--snapshot", os.path.join(snapshot, "issues.jsonl"), db=full).returncode == 0,
          "import with room")
    # A reading verb on an existing store where not even the -shm file SQLite makes beside it fits (it met
    # the full disk while preparing its first statement, and printed SQLite's text with the statement).
    for suffix in ("-wal", "-shm"):
        if os.path.exists(full + suffix):
            os.remove(full + suffix)
    out = run("funnel", db=full, file_size_limit=8 * 1024)
    check(out.returncode == 1 and " in: " not in out.stderr and "the disk is full" in out.stderr,
          f"funnel on a full disk: {out.returncode}, {out.stderr!r}")
    check(run("funnel", db=full).returncode == 0, "funnel with room")

    # Output files on a full disk: non-zero, the message names the file, the old file is untouched and
    # no temporary file is left. The same command with room succeeds (the limit made the difference).
    # The limit must leave room for the store's own -shm and -wal files (32 KiB and a few pages).
    limit = 64 * 1024
    outputs = {"issues.jsonl": ["export", "--what", "issues", "--format", "jsonl"],
               "issues.csv": ["export", "--what", "issues", "--format", "csv"],
               "sheet.csv": ["label", "export", "--rater", "alice"]}
    for name, verb in outputs.items():
        path = os.path.join(tmp, name)
        with open(path, "w") as f:
            f.write("previous\n")
        out = run(*verb, "--out", path, db=db, file_size_limit=limit)
        check(out.returncode != 0, f"{name}: exited 0 on a full disk")
        check(path + ": cannot write the file" in out.stderr, f"{name}: {out.stderr!r}")
        check(open(path).read() == "previous\n", f"{name}: the previous file was changed")
        check(sorted(f for f in os.listdir(tmp) if f.startswith("." + name)) == [], f"{name}: temp left")
        out = run(*verb, "--out", path, db=db)
        check(out.returncode == 0, f"{name}: {out.stderr}")
        check(os.path.getsize(path) > limit, f"{name}: the test output is not larger than the limit")

    # Output on stdout that cannot all be written (a file-size limit stands in for a full disk): exit 1 and
    # a line on stderr, not 0 with the output cut. With room the same command exits 0.
    def to_file(*verb, limit=None):
        def set_limit():
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        with open(os.path.join(tmp, "stdout.txt"), "w") as f:
            return subprocess.run([faultline, "--db", db, *verb], stdout=f, stderr=subprocess.PIPE, text=True,
                                  preexec_fn=set_limit)
    for verb in (["export", "--what", "issues", "--format", "jsonl"], ["export", "--what", "issues", "--format", "csv"]):
        out = to_file(*verb, limit=limit)
        check(out.returncode == 1 and out.stderr.startswith("faultline: cannot write the output"),
              f"{verb} with its output cut: exit {out.returncode}, {out.stderr!r}")
        out = to_file(*verb)
        check(out.returncode == 0 and os.path.getsize(os.path.join(tmp, "stdout.txt")) > limit,
              f"{verb} with room: exit {out.returncode}, {out.stderr!r}")

    # A rater name that is not UTF-8: a sheet export and an import refuse it in one line, writing nothing.
    bad_rater = b"al\xffice"
    for verb in ("export", "import"):
        args = ["--out", os.path.join(tmp, "bad.csv")] if verb == "export" else [os.path.join(snapshot, "labels_rater_a.csv")]
        out = subprocess.run([faultline, "--db", db, "label", verb, "--rater", bad_rater, *args], capture_output=True,
                             text=True, errors="replace")
        check(out.returncode == 1 and out.stderr == f"faultline: label {verb}: --rater is not valid UTF-8 text\n",
              out.stderr)
    check(not os.path.exists(os.path.join(tmp, "bad.csv")), "a refused export wrote its sheet")

    # Text that is not UTF-8, written into the store by another program: the JSONL export names the issue
    # in one line (it was an "unexpected error" from the JSON library); the CSV export still writes it.
    with sqlite3.connect(db) as c:
        row_id, repo, number = c.execute("SELECT i.id, r.full_name, i.number FROM issues i JOIN repositories r "
                                         "ON r.id = i.repository_id ORDER BY i.id LIMIT 1").fetchone()
        c.execute("UPDATE issues SET title = CAST(X'6261DF64' AS TEXT) WHERE id = ?", (row_id,))
    out = run("export", "--what", "issues", "--format", "jsonl", "--out", os.path.join(tmp, "not_utf8.jsonl"), db=db)
    check(out.returncode == 1 and out.stderr.startswith(f"faultline: {repo}#{number}: the store holds text")
          and out.stderr.count("\n") == 1 and not os.path.exists(os.path.join(tmp, "not_utf8.jsonl")),
          f"export of text that is not UTF-8: {out.returncode}, {out.stderr!r}")
    out = run("export", "--what", "issues", "--format", "csv", "--out", os.path.join(tmp, "bad.csv"), db=db)
    check(out.returncode == 0, f"csv export of text that is not UTF-8: {out.stderr!r}")

    # A reason given on the command line is echoed in one line, its escape, newline and right-to-left override
    # written out, as every message writes text from outside.
    check(run("screen", db=db).returncode == 0 and run("sample", "--total", "20", "--seed", "1", db=db).returncode == 0,
          "screen and sample")
    with sqlite3.connect(db) as c:
        repo, number = c.execute("SELECT r.full_name, i.number FROM samples s JOIN issues i ON i.id = s.issue_id "
                                 "JOIN repositories r ON r.id = i.repository_id WHERE s.status = 'sampled' "
                                 "ORDER BY i.id LIMIT 1").fetchone()
    out = run("sample", "replace", f"{repo}#{number}", "--reason", "a\x1b[31mRED\nsecond\u202e", db=db)
    check(out.returncode == 0 and out.stdout.count("\n") == 1 and "\x1b" not in out.stdout and "\u202e" not in out.stdout
          and f"excluded {repo}#{number} (a\\x1b[31mRED\\nsecond\\u202e); replaced by " in out.stdout,
          f"sample replace: {out.stdout!r}, {out.stderr!r}")
    out = run("label", "export", "--rater", "a\x1bb", "--out", os.path.join(tmp, "esc.csv"), db=db)
    check(out.returncode == 1 and out.stderr == "faultline: label export: --rater 'a\\x1bb' is not a name a new "
          "rater may have: 1 to 64 ASCII letters, digits, '.', '_' or '-', with single spaces between words\n",
          f"label export: {out.stderr!r}")

print("ok")
