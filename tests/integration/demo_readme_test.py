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

    # demo-summary against step files that are not what a step writes. Each copy differs from the demo's
    # in one file; the unchanged copy is the trigger removed (it prints what the demo printed).
    import json
    import shutil

    def summary_of(change):
        copy = os.path.join(tmp, "copy")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(work, copy, ignore=shutil.ignore_patterns("report", "*.db*"))
        change(os.path.join(copy, "import.json"), os.path.join(copy, "sample.json"))
        return subprocess.run([faultline, "demo-summary", copy], capture_output=True, text=True, timeout=30)

    def rewrite(path, edit):
        step = json.load(open(path))
        edit(step)
        json.dump(step, open(path, "w"))

    plain = summary_of(lambda imp, smp: None)
    assert plain.returncode == 0 and plain.stdout.splitlines()[0] == out.stdout.splitlines()[-len(expected)], plain
    def fifo(imp, smp):
        os.remove(imp)
        os.mkfifo(imp)
    for change, message in ((fifo, "import.json: not a regular file"),
                            (lambda imp, smp: rewrite(imp, lambda j: j.update(issues=1e20)), "not a whole number from 0 to 2147483647 (1e+20)"),
                            (lambda imp, smp: rewrite(imp, lambda j: j.update(issues=432.5)), "not a whole number from 0 to 2147483647 (432.5)"),
                            (lambda imp, smp: rewrite(imp, lambda j: j.update(issues=18446744073709551615)), "(18446744073709551615)"),
                            (lambda imp, smp: rewrite(imp, lambda j: j.update(issues=-7)), "(-7)"),
                            (lambda imp, smp: open(imp, "w").write('{"issues": 1, "issues": 2}'), "appears twice")):
        got = summary_of(change)
        assert got.returncode == 1 and message in got.stderr and got.stdout == "", (message, got)
    got = summary_of(lambda imp, smp: rewrite(smp, lambda j: j.update(name="x\x1b[2J\nfake line")))
    assert got.returncode == 0 and "sample 'x\\x1b[2J\\nfake line'" in got.stdout and "\x1b" not in got.stdout, got

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
