#!/usr/bin/env python3
"""Runs the demo pipeline on the whole bundled dataset, as ./run demo does, and compares the lines it
prints with the block the README shows under "What `./run demo` prints": the README must stay true.
The report path is the checkout's, so it is compared with the README's placeholder put in its place; the
suite line is compared only where CUDA is built, and without the gpu part a GPU machine adds (the README says
both differ)."""
import os
import re
import subprocess
import sys
import tempfile

faultline, source_dir, have_cuda = sys.argv[1], sys.argv[2], sys.argv[3] == "ON"
readme = open(os.path.join(source_dir, "README.md")).read()
block = re.search(r"## What `\./run demo` prints.*?```\n(.*?)```", readme, re.S)
assert block, "the README has no block under 'What `./run demo` prints'"
expected = block.group(1).rstrip("\n").splitlines()

with tempfile.TemporaryDirectory() as tmp:
    work = os.path.join(tmp, "out", "demo")
    out = subprocess.run([os.path.join(source_dir, "cli", "demo_pipeline.sh"), faultline,
                          os.path.join(source_dir, "datasets", "snapshot"), work],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    printed = out.stdout.replace(work, "/path/to/checkout/out/demo").rstrip("\n").splitlines()

assert len(printed) == len(expected), f"the demo printed {len(printed)} lines, the README shows {len(expected)}"
differences = []
for shown, got in zip(expected, printed):
    if shown.startswith("suite:") and not have_cuda:
        print("not compared (built without CUDA):", got)
        continue
    if shown.startswith("suite:") and "; gpu:" in got:  # a GPU machine adds its mode, as the README says
        print("gpu part not compared:", got[got.index("; gpu:"):])
        got = got[:got.index("; gpu:")]
    if shown != got:
        differences.append(f"README: {shown}\ndemo:   {got}")
assert not differences, "the README's demo block is out of date:\n" + "\n".join(differences)
print(f"the demo printed the README's {len(expected)} lines")
