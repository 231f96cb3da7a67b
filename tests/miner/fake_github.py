#!/usr/bin/env python3
"""A fake GitHub REST API for the miner's tests and benchmark, on 127.0.0.1 only.

It serves generated repositories with the real response shapes and headers (Link pagination, ETag,
x-ratelimit-*, 304 on If-None-Match) and injects faults by request number. Usage:

    fake_github.py --config CONFIG.json --port-file FILE

CONFIG: {"repos": {"o/r": {"issues": 250, "prs": 30, "comments": 420,
                          "deleted": [12], "not_found": [14],   # 410 / 404, and absent from listings
                          "hidden": [20],                       # absent from listings, fetchable alone
                          "transferred": {"13": "x/y"},         # 301 to /repos/x/y/issues/13
                          "ghost_every": 10,                    # every 10th comment: user null / login null
                          "one_second": true,   # every entry updated in one second (a bulk edit)
                          "self_link": true,    # a listing's Link rel="next" is the page itself
                          "moved_objects": {"3": {"repo": "x/y", "number": 1}},  # GET issues/3: 200, x/y's #1
                          "id_base": 7000000,   # GitHub ids of the issues: id_base + number (5000000)
                          "overrides": {"issues": {"5": {"html_url": "x"}},   # fields of issue 5 as sent
                                        "comments": {"3": {"created_at": "y"}}}}},  # of the 3rd comment
         "renamed": {"old/name": "o/r"},                 # 301 from the old name to the new one
         "full_names": {"o/r": "o/r x"},                 # what GET /repos/o/r says its full_name is
         "redirect_host": "localhost",  # renamed: Location names this host (another origin) instead of a path
         "redirect_by_id": true,        # renamed: Location is /repositories/ID/..., as GitHub's is
         "link_host": "localhost",      # Link rel="next" URLs name this host (another origin)
         "touch_at": {"3": {"repo": "o/r", "issues": [5]}},   # an edit just before request 3 is answered
         "rename_at": {"2": {"from": "o/r", "to": "o/new"}},  # a rename just before request 2 is answered
         "backdate_at": {"9": {"repo": "o/r", "issues": [200], "seconds": 420, "version": 1}},  # before the
                        # touch of the same request: as /_control/backdate, a write GitHub shows late
         "no_validators": true,    # no ETag on any answer (and so no 304)
         "every_number": true,     # a number asked for alone that no entry has is answered as an issue
         "spent_from": {"request": 2, "for_s": 3},  # the rate limit spent from request 2 on, for 3 seconds
         "synthetic_date": true,   # the Date header is the repositories' own clock (their newest edit),
                                   # not this machine's: the fake's times are in 2024
         "token_budgets": {"t1": 50},   # per-token limits; another or no token: 401
         "always": {"status": 403, "retry_after": 1},         # a fault on every request
         "faults": {"3": {"status": 502}, "4": {"drop": true}, "5": {"status": 403, "retry_after": 1},
                    "6": {"status": 403, "remaining": 0, "reset_in": 1}, "7": {"status": 429},
                    "8": {"malformed": true}, "9": {"truncate": true}, "10": {"wrong_type": true},
                    "11": {"status": 429, "retry_after_date": 120},     # Retry-After as an HTTP-date
                    "12": {"status": 403, "remaining": 0, "reset_at": 9999999999},
                    "13": {"gzip_bomb": 8388608},       # gzip that expands to that many bytes
                    "14": {"stall_ms": 2500},           # nothing sent for that long, then the answer
                    "15": {"redirect_to": "x/y"}},      # 301 to the same path of another repository
         "exhaust_at": 2,          # that response carries x-ratelimit-remaining: 0, reset in 1 s
         "extra_param": true,      # next links carry an extra query parameter the client must keep
         "rate_limit": 1000000,    # requests before x-ratelimit-remaining reaches 0 (reset in an hour)
         "delay_ms": 0,
         "close_connections": true}  # one connection per request, so a dropped one is never retried
                                     # silently by the client library on a fresh connection
Control (GET, not counted): /_control/stats, /_control/touch?repo=o/r&issues=1,2[&same_second=1],
/_control/delete?repo=o/r&issues=3, /_control/add?repo=o/r (one new issue),
/_control/rename?from=o/r&to=o/new,
/_control/backdate?repo=o/r&issues=3,281&seconds=120[&version=0] (updated that long before the newest
entry: an earlier version served again, or a new issue GitHub shows only after a later entry was listed),
/_control/take?name=o/r&issues=5[&after=1] (a new repository under a name, a new GitHub id, its entries after
every repository's newest with after=1; the name no longer redirects),
/_control/reset
"""
import argparse
import bisect
import email.utils
import gzip
import hashlib
import json
import math
import socket
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlparse

BASE = datetime(2024, 1, 1, tzinfo=timezone.utc)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class Repo:
    def __init__(self, full_name, spec, repo_id):
        self.full_name, self.id = full_name, repo_id
        self.deleted, self.not_found = set(spec.get("deleted", [])), set(spec.get("not_found", []))
        self.hidden = set(spec.get("hidden", []))
        self.transferred = {int(k): v for k, v in spec.get("transferred", {}).items()}
        self.ghost_every = spec.get("ghost_every", 0)
        self.self_link = spec.get("self_link", False)
        self.moved_objects = {int(k): v for k, v in spec.get("moved_objects", {}).items()}
        self.id_base = spec.get("id_base", 5000000)
        overrides = spec.get("overrides", {})
        self.issue_overrides = {int(k): v for k, v in overrides.get("issues", {}).items()}
        self.comment_overrides = {1000000 + int(k): v for k, v in overrides.get("comments", {}).items()}
        issues, prs, comments = spec.get("issues", 0), spec.get("prs", 0), spec.get("comments", 0)
        total = issues + prs
        self.entries = {}  # number -> dict
        for n in range(1, total + 1):
            is_pr = prs > 0 and (n * prs) // total != ((n - 1) * prs) // total
            updated = BASE if spec.get("one_second") else BASE + timedelta(minutes=spec.get("offset_minutes", 0) + n)
            self.entries[n] = {"number": n, "pr": is_pr, "updated": updated,
                               "created": updated - timedelta(hours=1), "version": 0}
        plain = [n for n, e in self.entries.items() if not e["pr"]] or [1]
        self.comments = {}
        self.comments_by_issue = {}
        for j in range(1, comments + 1):
            c = {"id": 1000000 + j, "issue": plain[(j - 1) % len(plain)],
                 "updated": BASE + timedelta(seconds=30 * j), "created": BASE + timedelta(seconds=30 * j)}
            self.comments[j] = c
            self.comments_by_issue.setdefault(c["issue"], []).append(c)
        self.clock = BASE + timedelta(minutes=spec.get("offset_minutes", 0) + total + 1)
        self.sort_entries()
        self.sorted_comments = sorted(self.comments.values(), key=lambda c: (c["updated"], c["id"]))
        self.comment_keys = [c["updated"] for c in self.sorted_comments]

    def sort_entries(self):
        unlisted = self.deleted | self.not_found | self.hidden | set(self.transferred)
        self.sorted_entries = sorted((e for e in self.entries.values() if e["number"] not in unlisted),
                                     key=lambda e: (e["updated"], e["number"]))
        self.entry_keys = [e["updated"] for e in self.sorted_entries]  # for since= by bisection

    def touch(self, numbers, same_second=False):
        for n in numbers:
            if same_second:  # in the second of the newest edit so far, as a busy repository does
                self.clock = max(e["updated"] for e in self.entries.values())
            else:
                self.clock += timedelta(minutes=1)
            self.entries[n]["updated"] = self.clock
            self.entries[n]["version"] += 1
        self.sort_entries()

    def backdate(self, numbers, seconds, version=None):
        at = max(e["updated"] for e in self.entries.values()) - timedelta(seconds=seconds)
        for n in numbers:
            entry = self.entries.setdefault(n, {"number": n, "pr": False, "created": at, "version": 0})
            entry["updated"] = at
            if version is not None:
                entry["version"] = version
        self.sort_entries()

    def issue_json(self, base, e):
        n = e["number"]
        obj = {"id": self.id_base + n, "number": n, "url": f"{base}/repos/{self.full_name}/issues/{n}",
               "html_url": f"https://github.com/{self.full_name}/{'pull' if e['pr'] else 'issues'}/{n}",
               "state": "closed" if n % 3 else "open", "title": f"Kernel crash {n} (v{e['version']})",
               "body": None if n % 7 == 0 else f"Body of {n}, version {e['version']}.",
               "labels": [{"id": 1, "name": "bug"}] if n % 2 else [],
               "created_at": iso(e["created"]), "updated_at": iso(e["updated"]), "user": {"login": "reporter"}}
        if e["pr"]:
            obj["pull_request"] = {"url": f"{base}/repos/{self.full_name}/pulls/{n}"}
        obj.update(self.issue_overrides.get(n, {}))
        return obj

    def comment_json(self, base, c):
        user = {"login": "maintainer"}
        if self.ghost_every and (c["id"] - 1000000) % self.ghost_every == 0:
            user = None if (c["id"] // self.ghost_every) % 2 else {"login": None}
        obj = {"id": c["id"], "issue_url": f"{base}/repos/{self.full_name}/issues/{c['issue']}",
               "user": user, "body": f"comment {c['id']}",
               "created_at": iso(c["created"]), "updated_at": iso(c["updated"])}
        obj.update(self.comment_overrides.get(c["id"], {}))
        return obj


class State:
    def __init__(self, config):
        self.config = config
        self.lock = threading.RLock()
        self.repos = {name: Repo(name, spec, i + 1) for i, (name, spec) in enumerate(config.get("repos", {}).items())}
        self.renamed = config.get("renamed", {})
        self.faults = {int(k): v for k, v in config.get("faults", {}).items()}
        self.touch_at = {int(k): v for k, v in config.get("touch_at", {}).items()}
        self.rename_at = {int(k): v for k, v in config.get("rename_at", {}).items()}
        self.backdate_at = {int(k): v for k, v in config.get("backdate_at", {}).items()}
        self.token_budgets = config.get("token_budgets")
        self.requests = 0
        self.spent_until = None  # spent_from: when the spent limit resets
        self.not_modified = 0
        self.paths = {}
        self.tokens = {}           # token -> requests that carried it
        self.authorized_hosts = {}  # Host header -> requests that carried a token

    def rename(self, old, new):
        repo = self.repos.pop(old)
        repo.full_name = new
        self.repos[new] = repo
        self.renamed[old] = new


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def date_time_string(self, timestamp=None):
        st = self.server.state
        if st.config.get("synthetic_date") and st.repos:
            with st.lock:
                newest = max(max(e["updated"] for e in r.entries.values()) for r in st.repos.values() if r.entries)
            return email.utils.formatdate(newest.timestamp(), usegmt=True)
        return super().date_time_string(timestamp)

    def setup(self):
        super().setup()
        # Headers and body go out in separate writes: without this, Nagle's algorithm and delayed ACKs
        # add ~40 ms to every keep-alive request.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def send(self, status, body=b"", headers=None):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if self.server.state.config.get("close_connections"):
            self.send_header("Connection", "close")
            self.close_connection = True
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        st = self.server.state
        url = urlparse(self.path)
        query = parse_qs(url.query)
        if url.path.startswith("/_control/"):
            return self.control(st, url.path, query)
        auth = self.headers.get("Authorization", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else None
        with st.lock:
            st.requests += 1
            number = st.requests
            st.paths[url.path] = st.paths.get(url.path, 0) + 1
            fault = st.faults.get(number, st.config.get("always"))
            if token is not None:
                host = self.headers.get("Host", "").split(":")[0]
                st.authorized_hosts[host] = st.authorized_hosts.get(host, 0) + 1
                st.tokens[token] = st.tokens.get(token, 0) + 1
            late = st.backdate_at.get(number)
            if late:
                st.repos[late["repo"]].backdate(late["issues"], late["seconds"], late.get("version"))
            touch = st.touch_at.get(number)
            if touch:
                st.repos[touch["repo"]].touch(touch["issues"], touch.get("same_second", False))
            if number in st.rename_at:
                st.rename(st.rename_at[number]["from"], st.rename_at[number]["to"])
        if fault and "stall_ms" in fault:
            time.sleep(fault["stall_ms"] / 1000.0)
            fault = None
        delay = st.config.get("delay_ms", 0)
        if delay:
            time.sleep(delay / 1000.0)
        limit = st.config.get("rate_limit", 1000000)
        remaining = max(0, limit - number)
        reset = int(time.time()) + 3600
        if st.config.get("exhaust_at") == number:
            remaining, reset = 0, int(time.time()) + 1
        rate = {"x-ratelimit-limit": str(limit), "x-ratelimit-remaining": str(remaining), "x-ratelimit-reset": str(reset)}
        if st.token_budgets is not None:
            budget = st.token_budgets.get(token)
            if budget is None:
                return self.send(401, b'{"message": "Bad credentials"}')
            used = st.tokens[token]
            rate = {"x-ratelimit-limit": str(budget), "x-ratelimit-remaining": str(max(0, budget - used)),
                    "x-ratelimit-reset": str(reset)}
            if used > budget:
                return self.send(403, b'{"message": "API rate limit exceeded"}', rate)
        spent = st.config.get("spent_from")
        if spent and number >= spent["request"]:
            with st.lock:
                if st.spent_until is None:
                    st.spent_until = math.ceil(time.time() + spent["for_s"])
            if time.time() < st.spent_until:
                return self.send(403, b'{"message": "API rate limit exceeded"}',
                                 {"x-ratelimit-limit": str(limit), "x-ratelimit-remaining": "0",
                                  "x-ratelimit-reset": str(st.spent_until)})
        if fault:
            if fault.get("drop"):
                # Half a status line, then the connection goes: a reset mid-response, not an idle close
                # (which libcurl would silently retry on a fresh connection).
                self.wfile.write(b"HTTP/1.1 2")
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)
                return
            if fault.get("truncate"):
                self.send_response(200)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b'[{"number": 1')
                self.close_connection = True
                return
            if fault.get("wrong_type"):
                body = json.dumps([{"number": "seven", "title": 7, "updated_at": "2024-01-01T00:00:00Z"}]).encode()
                return self.send(200, body, {"Content-Type": "application/json", **rate})
            if fault.get("gzip_bomb"):
                body = gzip.compress(b" " * fault["gzip_bomb"], compresslevel=9)
                return self.send(200, body, {"Content-Type": "application/json", "Content-Encoding": "gzip", **rate})
            if fault.get("malformed"):
                return self.send(200, b'[{"number": 1, "title": ', {"Content-Type": "application/json", **rate})
            if "redirect_to" in fault:
                rest = url.path.strip("/").split("/")[3:]
                location = "/repos/" + fault["redirect_to"] + "".join("/" + p for p in rest)
                location += "?" + url.query if url.query else ""
                return self.send(301, b'{"message": "Moved Permanently"}', {"Location": location, **rate})
            headers = dict(rate)
            if "retry_after" in fault:
                headers["retry-after"] = str(fault["retry_after"])
            if "retry_after_date" in fault:
                headers["retry-after"] = email.utils.formatdate(time.time() + fault["retry_after_date"], usegmt=True)
            if fault.get("remaining") == 0:
                headers["x-ratelimit-remaining"] = "0"
                headers["x-ratelimit-reset"] = str(fault.get("reset_at", int(time.time()) + fault.get("reset_in", 1)))
            return self.send(fault["status"], b'{"message": "injected fault"}', headers)

        parts = url.path.strip("/").split("/")
        if len(parts) >= 2 and parts[0] == "repositories" and parts[1].isdigit():
            by_id = next((r for r in st.repos.values() if r.id == int(parts[1])), None)
            if by_id is None:
                return self.send(404, b'{"message": "Not Found"}', rate)
            parts = ["repos"] + by_id.full_name.split("/") + parts[2:]
        if len(parts) >= 3 and parts[0] == "repos":
            name = parts[1] + "/" + parts[2]
            if name in st.renamed:
                location = "/repos/" + st.renamed[name] + "/" + "/".join(parts[3:])
                if st.config.get("redirect_by_id"):
                    location = f"/repositories/{st.repos[st.renamed[name]].id}/" + "/".join(parts[3:])
                location = location.rstrip("/") + ("?" + url.query if url.query else "")
                if st.config.get("redirect_host"):
                    location = f"http://{st.config['redirect_host']}:{self.server.server_address[1]}{location}"
                return self.send(301, b'{"message": "Moved Permanently"}', {"Location": location, **rate})
            repo = st.repos.get(name)
            if repo is None:
                return self.send(404, b'{"message": "Not Found"}', rate)
            base = f"http://{self.headers.get('Host')}"
            rest = parts[3:]
            with st.lock:
                if not rest:
                    full_name = st.config.get("full_names", {}).get(name, repo.full_name)
                    return self.json(200, {"id": repo.id, "full_name": full_name}, rate)
                if rest == ["issues"]:
                    entries = repo.sorted_entries
                    return self.listing(entries, lambda e: repo.issue_json(base, e), query, url.path, rate,
                                        repo.entry_keys, repo.self_link)
                if rest == ["issues", "comments"]:
                    entries = repo.sorted_comments
                    return self.listing(entries, lambda c: repo.comment_json(base, c), query, url.path, rate,
                                        repo.comment_keys)
                if len(rest) == 2 and rest[0] == "issues" and rest[1].isdigit():
                    n = int(rest[1])
                    if n in repo.moved_objects:  # the moved issue itself, as GitHub may answer
                        moved = repo.moved_objects[n]
                        other = st.repos[moved["repo"]]
                        return self.json(200, other.issue_json(base, other.entries[moved["number"]]), rate)
                    if n in repo.transferred:
                        location = f"/repos/{repo.transferred[n]}/issues/{n}"
                        return self.send(301, b'{"message": "Moved Permanently"}', {"Location": location, **rate})
                    if n in repo.deleted:
                        return self.send(410, b'{"message": "This issue was deleted"}', rate)
                    if n not in repo.entries and n not in repo.not_found and st.config.get("every_number"):
                        made = {"number": n, "pr": False, "updated": BASE, "created": BASE, "version": 0}
                        return self.json(200, repo.issue_json(base, made), rate)
                    if n in repo.not_found or n not in repo.entries:
                        return self.send(404, b'{"message": "Not Found"}', rate)
                    return self.json(200, repo.issue_json(base, repo.entries[n]), rate)
                if len(rest) == 3 and rest[0] == "issues" and rest[2] == "comments":
                    # Per-issue comments: what a naive miner asks for, once per issue.
                    entries = repo.comments_by_issue.get(int(rest[1]), [])
                    return self.listing(entries, lambda c: repo.comment_json(base, c), query, url.path, rate)
                if len(rest) == 3 and rest[0] == "issues" and rest[2] == "timeline":
                    n = int(rest[1])
                    if n in repo.deleted:
                        return self.send(410, b'{"message": "This issue was deleted"}', rate)
                    events = [{"event": "cross-referenced", "source": {"issue": {"html_url": f"https://github.com/{name}/pull/{n + 1000}"}}},
                              {"event": "referenced", "commit_id": hashlib.sha1(str(n).encode()).hexdigest()},
                              {"event": "closed", "commit_id": None}]
                    return self.json(200, events, rate)
        return self.send(404, b'{"message": "Not Found"}', rate)

    def json(self, status, obj, headers):
        body = json.dumps(obj).encode()
        if self.server.state.config.get("no_validators"):
            return self.send(status, body, {"Content-Type": "application/json", **headers})
        etag = 'W/"' + hashlib.sha1(body).hexdigest() + '"'
        if self.headers.get("If-None-Match") == etag:
            with self.server.state.lock:
                self.server.state.not_modified += 1
            return self.send(304, b"", {"ETag": etag, **headers})
        return self.send(status, body, {"Content-Type": "application/json", "ETag": etag, **headers})

    def listing(self, entries, to_json, query, path, rate, keys=None, self_link=False):
        since = query.get("since", [None])[0]
        if since:
            since_time = datetime.strptime(since, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
            if keys is None:
                keys = [e["updated"] for e in entries]
            entries = entries[bisect.bisect_left(keys, since_time):]
        if query.get("sort") == ["created"] and query.get("direction") == ["desc"]:
            entries = sorted(entries, key=lambda e: -e["number"])
        items = entries
        per_page = min(100, int(query.get("per_page", ["30"])[0]))
        page = int(query.get("page", ["1"])[0])
        chunk = [to_json(e) for e in entries[(page - 1) * per_page: page * per_page]]
        headers = dict(rate)
        last = max(1, (len(items) + per_page - 1) // per_page)
        if page < last:
            params = {k: v[0] for k, v in query.items()}
            params["page"] = str(page + 1)
            if self.server.state.config.get("extra_param"):
                params["hint"] = "keep-me"
            host = f"http://{self.headers.get('Host')}"
            if self.server.state.config.get("link_host"):
                host = f"http://{self.server.state.config['link_host']}:{self.server.server_address[1]}"
            headers["Link"] = f'<{host}{path}?{urlencode(params)}>; rel="next", <{host}{path}?page={last}>; rel="last"'
        if self_link:
            headers["Link"] = f'<http://{self.headers.get("Host")}{self.path}>; rel="next"'
        if self.server.state.config.get("extra_param") and page > 1 and query.get("hint") != ["keep-me"]:
            return self.send(400, b'{"message": "pagination parameter lost"}', rate)
        return self.json(200, chunk, headers)

    def control(self, st, path, query):
        with st.lock:
            if path == "/_control/stats":
                body = {"requests": st.requests, "not_modified": st.not_modified, "paths": st.paths,
                        "tokens": st.tokens, "authorized_hosts": st.authorized_hosts}
            elif path == "/_control/touch":
                repo = st.repos[query["repo"][0]]
                repo.touch([int(n) for n in query["issues"][0].split(",")], query.get("same_second") == ["1"])
                body = {"ok": True}
            elif path == "/_control/add":  # a new issue, edited now
                repo = st.repos[query["repo"][0]]
                n = max(repo.entries) + 1
                repo.clock += timedelta(minutes=1)
                repo.entries[n] = {"number": n, "pr": False, "updated": repo.clock,
                                   "created": repo.clock, "version": 0}
                repo.sort_entries()
                body = {"ok": True}
            elif path == "/_control/backdate":
                version = query.get("version")
                st.repos[query["repo"][0]].backdate([int(n) for n in query["issues"][0].split(",")],
                                                    int(query["seconds"][0]), int(version[0]) if version else None)
                body = {"ok": True}
            elif path == "/_control/delete":  # deleted after it was listed: 410 from now on
                repo = st.repos[query["repo"][0]]
                repo.deleted |= {int(n) for n in query["issues"][0].split(",")}
                repo.sort_entries()
                body = {"ok": True}
            elif path == "/_control/rename":
                st.rename(query["from"][0], query["to"][0])
                body = {"ok": True}
            elif path == "/_control/take":  # the name given to a new repository, as GitHub allows after a rename
                name = query["name"][0]
                st.renamed.pop(name, None)
                offset = 0
                if query.get("after") == ["1"]:
                    newest = max(e["updated"] for r in st.repos.values() for e in r.entries.values())
                    offset = (newest - BASE) // timedelta(minutes=1)
                st.repos[name] = Repo(name, {"issues": int(query["issues"][0]), "id_base": 9000000,
                                             "offset_minutes": offset},
                                      1 + max(r.id for r in st.repos.values()))
                body = {"ok": True}
            elif path == "/_control/reset":
                st.requests, st.not_modified, st.paths, st.faults = 0, 0, {}, {}
                body = {"ok": True}
            else:
                return self.send(404)
        data = json.dumps(body).encode()
        return self.send(200, data, {"Content-Type": "application/json"})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", required=True)
    parser.add_argument("--port-file", required=True)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.state = State(json.load(open(args.config)))
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    import os
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
