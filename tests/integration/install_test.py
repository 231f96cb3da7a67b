#!/usr/bin/env python3
"""`cmake --install` puts a faultline into PREFIX/bin that starts, tells its version and reads the
reproducer manifests installed beside it in PREFIX/share/faultline/reproducers (not the source tree's)."""
import glob
import json
import os
import subprocess
import sys
import tempfile

build_dir, source_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
in_source = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(source_dir, "reproducers", "*.json")))


def listed(faultline, db):
    out = subprocess.run([faultline, "--db", db, "--json", "repro", "list"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return sorted(r["id"] for r in json.loads(out.stdout)["reproducers"])


with tempfile.TemporaryDirectory() as prefix:
    out = subprocess.run(["cmake", "--install", build_dir, "--prefix", prefix], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    faultline = os.path.join(prefix, "bin", "faultline")
    version = subprocess.run([faultline, "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("faultline "), version
    installed = os.path.join(prefix, "share", "faultline", "reproducers")
    assert sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(installed, "*.json"))) == in_source
    db = os.path.join(prefix, "s.db")
    assert listed(faultline, db) == in_source
    # Take one manifest out of the installed copy: the installed faultline no longer lists it, so it reads
    # the installed manifests; the build's own faultline still reads the source tree.
    os.remove(os.path.join(installed, in_source[0] + ".json"))
    assert listed(faultline, db) == in_source[1:]
    assert listed(os.path.join(build_dir, "cli", "faultline"), db) == in_source
print("ok")
