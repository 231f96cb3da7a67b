#!/usr/bin/env python3
"""The demo model's predictions are what an earlier faultline computed: demo_predictions.jsonl is what
faultline exported from the demo store when the file was last recorded (its git log says when and why; first
at a5ffe98, before classify was made faster, and the speed-up was checked against that). The same model
version must give every issue the same labels, the same rules and probabilities within 1e-9, so that a
speed-up cannot change a prediction unnoticed. A change that is meant to change the model records the file
again and says so in its commit."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from demo_store import build_demo_store  # noqa: E402

faultline, source_dir = sys.argv[1], sys.argv[2]
REFERENCE = os.path.join(os.path.dirname(__file__), "demo_predictions.jsonl")
TOLERANCE = 1e-9


def by_issue(lines):
    return {(r["repo"], r["number"]): r for r in (json.loads(line) for line in lines if line.strip())}


def differences(expected, got):
    """What differs between two sets of exported predictions, one line per difference."""
    out = []
    for key in sorted(set(expected) | set(got)):
        if key not in got or key not in expected:
            out.append(f"{key}: only in {'the reference' if key in expected else 'this run'}")
            continue
        e, g = expected[key], got[key]
        for field in e.keys() | g.keys():
            a, b = e.get(field), g.get(field)
            if isinstance(a, float) and isinstance(b, float):
                if abs(a - b) > TOLERANCE:
                    out.append(f"{key} {field}: {a!r} then, {b!r} now")
            elif a != b:
                out.append(f"{key} {field}: {a!r} then, {b!r} now")
    return out


expected = by_issue(open(REFERENCE))
with tempfile.TemporaryDirectory() as tmp:
    db = os.path.join(tmp, "demo.db")
    build_demo_store(faultline, source_dir, db)
    out = subprocess.run([faultline, "--db", db, "export", "--what", "predictions"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    got = by_issue(out.stdout.splitlines())

# The comparison itself must be able to fail: a probability moved by 1e-8 and a changed label are caught.
key = next(iter(expected))
nudged = {k: dict(v) for k, v in expected.items()}
nudged[key]["symptom_p"] += 1e-8
relabeled = {k: dict(v) for k, v in expected.items()}
relabeled[key]["root_cause"] = "not_a_root_cause"
assert len(differences(expected, nudged)) == 1 and len(differences(expected, relabeled)) == 1

found = differences(expected, got)
assert not found, f"{len(found)} differences from the recorded predictions:\n" + "\n".join(found[:20])
print(f"{len(got)} predictions equal the recorded ones (labels, rules, probabilities within {TOLERANCE})")
