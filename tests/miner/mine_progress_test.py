#!/usr/bin/env python3
"""Mining progress on stderr, against the fake GitHub server: off a terminal the first page line (repository,
listing, page, items so far, requests, rate limit left), every wait with its length and reason, and the last
line; --quiet silences them; --json stdout is the same object with or without them."""
import json
import os
import subprocess
import sys
import tempfile
import time

faultline, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
server_script = os.path.join(source_dir, "tests", "miner", "fake_github.py")

# 250 issues (3 pages of 100) and 420 comments (5 pages); request 3 gets a secondary rate limit that asks
# for a 1 s wait (Retry-After: 1).
CONFIG = {"repos": {"o/r": {"issues": 250, "prs": 0, "comments": 420}},
          "faults": {"3": {"status": 403, "retry_after": 1}}}


def start_server(tmp, name):
    config = os.path.join(tmp, name + ".json")
    port_file = os.path.join(tmp, name + ".port")
    json.dump(CONFIG, open(config, "w"))
    server = subprocess.Popen([sys.executable, server_script, "--config", config, "--port-file", port_file])
    for _ in range(100):
        if os.path.exists(port_file):
            return server, int(open(port_file).read())
        time.sleep(0.05)
    server.kill()
    raise SystemExit("the fake GitHub server did not start")


def mine(tmp, name, *flags):
    server, port = start_server(tmp, name)
    try:
        env = dict(os.environ, GITHUB_TOKEN="t")
        return subprocess.run([faultline, "--db", os.path.join(tmp, name + ".db"), *flags, "mine", "--repo", "o/r",
                               "--api-url", f"http://127.0.0.1:{port}"], capture_output=True, text=True, env=env,
                              timeout=120)
    finally:
        server.kill()
        server.wait()


with tempfile.TemporaryDirectory() as tmp:
    out = mine(tmp, "plain", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["issues"] == 250 and summary["comments"] == 420 and summary["rate_limit_waits"] == 1, summary
    lines = out.stderr.splitlines()
    assert all("\r" not in l and "\033" not in l for l in lines), repr(out.stderr)  # not a terminal: plain lines
    # The first line is the first page, with its figures so far (request 1 is the repository itself).
    assert lines[0] == "o/r, issues page 1: issues 100, comments 0, requests 2, rate limit 999998 left, " \
                       "rate-limit waits 0", lines
    # The wait is said with its length and reason, although it comes within 5 s of the first line.
    waits = [l for l in lines if l.startswith("waiting ")]
    assert len(waits) == 1 and waits[0].startswith("waiting 1 s for ") and "(until " in waits[0], lines
    # The last line is the final state: every issue and comment, the one wait (the comment listing's last
    # page is the one more request from the new high-water mark that makes the next refresh a 304).
    assert lines[-1].startswith("o/r, comments page 6: issues 250, comments 420, ") and \
        lines[-1].endswith("rate-limit waits 1"), lines
    assert len(lines) <= 4, lines  # a few seconds of mining: the first line, the wait, perhaps one more, the last

    quiet = mine(tmp, "quiet", "--json", "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    same = json.loads(quiet.stdout)
    for key in ("issues", "comments", "requests", "rate_limit_waits", "retries"):
        assert same[key] == summary[key], (key, same, summary)

    text = mine(tmp, "text")
    assert text.returncode == 0 and text.stdout.startswith("mined 1 repository: 250 issues, 420 comments"), text.stdout
    assert text.stderr.splitlines()[0] == lines[0], text.stderr
print("ok")
