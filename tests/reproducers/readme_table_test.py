#!/usr/bin/env python3
"""The README's reproducer table is `faultline repro list --format md`, not a hand-kept copy.

Every column but the last (the last outcome, which depends on the store it was generated from) must be
what the manifests give now; the README's rows must be the manifests' ids, in order. Run from CTest with
the faultline executable and the source tree.
"""
import os
import subprocess
import sys
import tempfile

BEGIN, END = "<!-- repro list --format md -->", "<!-- end of repro list -->"


def rows(markdown):
    """Table rows as lists of cells, without the last column; the header included, the rule left out."""
    out = []
    for line in markdown.strip().splitlines():
        if line.startswith("|---"):
            continue
        cells = line.strip().strip("|").split(" | ")
        out.append([c.strip() for c in cells[:-1]])
    return out


def main():
    faultline, source = sys.argv[1], sys.argv[2]
    readme = open(os.path.join(source, "README.md"), encoding="utf-8").read()
    assert BEGIN in readme and END in readme, "README.md has no generated reproducer table"
    embedded = readme.split(BEGIN, 1)[1].split(END, 1)[0]
    with tempfile.TemporaryDirectory() as tmp:
        generated = subprocess.run([faultline, "--db", os.path.join(tmp, "s.db"), "repro", "list", "--format", "md",
                                    "--manifests", os.path.join(source, "reproducers")],
                                   capture_output=True, text=True, check=True).stdout
    want, got = rows(generated), rows(embedded)
    assert [r[0] for r in got] == [r[0] for r in want], "README rows differ from the manifests' ids"
    for w, g in zip(want, got):
        assert w == g, f"README row for {g[0]} is stale: regenerate it with repro list --format md\n{g}\n{w}"
    print(f"README table matches the {len(want) - 1} manifests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
