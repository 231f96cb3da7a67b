#!/usr/bin/env python3
"""The report's files are usable as they come, checked on the report of the bundled dataset.

  report_files_test.py FAULTLINE SOURCE_DIR data   every CSV and JSON table reads back with typed columns: snake_case
                                                   column ids, numbers as numbers (shares as fractions in [0, 1], no
                                                   '%', no '2/2', no '20 reproducers'), ids beside names, totals
                                                   marked by row_kind so that the data rows add up to them
  report_files_test.py FAULTLINE SOURCE_DIR latex  every .tex compiles with pdflatex in an article page without an
                                                   Overfull \\hbox (beyond 1 pt); skipped (77) without pdflatex
"""
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

faultline, source_dir, part = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
snapshot = os.path.join(source_dir, "datasets", "snapshot")
SNAKE = re.compile(r"[a-z][a-z0-9_]*$")
INTEGER = re.compile(r"-?\d+$")
DECIMAL = re.compile(r"-?\d+\.\d+$")
# What a number written for people looks like: a percentage, a k/n pair, a count with its noun.
PROSE_NUMBER = re.compile(r"\d%|^\d+/\d+$|^\d+ [a-z]")
ROW_KINDS = {"data", "subtotal", "total"}
OVERFULL_TOLERANCE_PT = 1.0

if part == "latex" and not shutil.which("pdflatex"):
    print("SKIP: pdflatex is not installed (Debian: texlive-latex-base texlive-latex-recommended)")
    sys.exit(77)


def run(db, *args):
    out = subprocess.run([faultline, "--db", db, "--quiet", *args], capture_output=True, text=True)
    assert out.returncode == 0, f"{args}: exit {out.returncode}\n{out.stderr}"
    return out.stdout


def make_report(tmp, formats):
    db = os.path.join(tmp, "r.db")
    run(db, "import", "--snapshot", os.path.join(snapshot, "issues.jsonl"))
    run(db, "screen")
    run(db, "label", "import", "--rater", "rater_a", os.path.join(snapshot, "labels_rater_a.csv"))
    run(db, "label", "import", "--rater", "rater_b", os.path.join(snapshot, "labels_rater_b.csv"))
    run(db, "audit")
    run(db, "adjudicate", os.path.join(snapshot, "labels_adjudicated.csv"))
    run(db, "repro", "list", "--manifests", os.path.join(source_dir, "reproducers"))
    out = os.path.join(tmp, "report")
    run(db, "report", "--out", out, "--format", formats)
    return out


def known_ids():
    """Taxonomy ids from the taxonomy file and repository names from the snapshot, not from the report."""
    taxonomy = json.load(open(os.path.join(source_dir, "taxonomy", "taxonomy.json")))
    ids = set()
    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("id"), str):
                ids.add(node["id"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(taxonomy)
    for line in open(os.path.join(snapshot, "issues.jsonl")):
        ids.add(json.loads(line)["repo"])
    return ids | {"symptom", "root_cause"}  # the taxonomy's two axes


def column_type(name, values):
    if all(INTEGER.match(v) for v in values):
        return "integer"
    if all(INTEGER.match(v) or DECIMAL.match(v) for v in values):
        return "decimal"
    assert not any(INTEGER.match(v) or DECIMAL.match(v) for v in values), \
        f"column {name} mixes numbers and text: {sorted(set(values))[:8]}"
    return "text"


def check_csv(path, ids):
    name = os.path.basename(path)
    rows = list(csv.DictReader(open(path, newline="")))
    assert rows, name
    header = list(rows[0].keys())
    for column in header:
        assert SNAKE.match(column), f"{name}: column id {column!r} is not snake_case"
    assert "row_kind" in header, f"{name}: no row_kind column marking the totals"
    assert {r["row_kind"] for r in rows} <= ROW_KINDS, (name, {r["row_kind"] for r in rows})
    types = {}
    for column in header:
        values = [r[column] for r in rows]
        for v in values:
            assert not PROSE_NUMBER.search(v), f"{name}: {column} holds {v!r}, a number written for people"
        types[column] = column_type(f"{name}:{column}", values)
        if column.endswith("share"):
            assert types[column] == "decimal" and all(0 <= float(v) <= 1 for v in values), (name, column, values)
        if column.endswith("_id"):
            # An id beside its name column; empty only where a row totals over that id.
            assert column[:-3] in header, f"{name}: {column} has no name column {column[:-3]} beside it"
            for r in rows:
                assert r[column] in ids or (r[column] == "" and r["row_kind"] != "data"), (name, column, r)
    numeric = [c for c in header if types[c] != "text"]
    assert numeric, f"{name}: no numeric column"
    # Totals are marked, so that summing the data rows gives the grand total (every id column empty).
    id_columns = [c for c in header if c.endswith("_id")]
    grand = [r for r in rows if r["row_kind"] == "total" and all(r[c] == "" for c in id_columns)]
    if grand and id_columns:
        assert len(grand) == 1, (name, grand)
        data = [r for r in rows if r["row_kind"] == "data"]
        for column in numeric:
            total = sum(float(r[column]) for r in data)
            assert abs(total - float(grand[0][column])) <= 1e-6 * max(1, len(data)), \
                f"{name}: the data rows of {column} add up to {total}, the total row says {grand[0][column]}"
    return rows, types


def check_json_table(table, csv_rows, types, origin):
    assert [c["id"] for c in table["columns"]] + ["row_kind"] == list(csv_rows[0].keys()), origin
    assert len(table["rows"]) == len(csv_rows), origin
    for j, c in zip(table["rows"], csv_rows):
        assert set(j.keys()) == set(c.keys()), (origin, j.keys())  # a JSON object has no key order
        for key, value in j.items():
            if types[key] == "integer":
                assert isinstance(value, int) and not isinstance(value, bool) and value == int(c[key]), \
                    (origin, key, value)
            elif types[key] == "decimal":
                assert isinstance(value, (int, float)) and abs(value - float(c[key])) <= 5e-7, (origin, key, value)
            else:
                assert isinstance(value, str) and value == c[key], (origin, key, value)


def check_data(report):
    ids = known_ids()
    csvs = sorted(glob.glob(os.path.join(report, "*.csv")))
    assert len(csvs) >= 7, csvs
    combined = {t["id"]: t for t in json.load(open(os.path.join(report, "report.json")))["tables"]}
    for path in csvs:
        stem = os.path.splitext(os.path.basename(path))[0]
        rows, types = check_csv(path, ids)
        check_json_table(json.load(open(os.path.join(report, stem + ".json"))), rows, types, stem + ".json")
        check_json_table(combined[stem], rows, types, "report.json:" + stem)
    print(f"{len(csvs)} CSV files and their JSON tables read back with typed columns")


def check_latex_file(tex, tmp):
    stem = os.path.splitext(os.path.basename(tex))[0]
    body = open(tex).read()
    assert "(Table" not in body, f"{stem}.tex: the caption names the study's table"
    document = os.path.join(tmp, f"doc_{stem}.tex")
    with open(document, "w") as f:
        f.write("\\documentclass{article}\n\\usepackage{booktabs,graphicx,array}\n\\begin{document}\n"
                f"\\input{{{tex}}}\n\\end{{document}}\n")
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"doc_{stem}.tex"],
                         cwd=tmp, capture_output=True, text=True, errors="replace", timeout=120)
    log = open(os.path.join(tmp, f"doc_{stem}.log"), errors="replace").read()
    assert out.returncode == 0, f"{stem}.tex does not compile:\n{log[-3000:]}"
    overfull = [float(m) for m in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert all(pt <= OVERFULL_TOLERANCE_PT for pt in overfull), f"{stem}.tex: Overfull \\hbox {overfull} pt"
    return max(overfull, default=0)


def check_latex(report, tmp):
    texs = sorted(glob.glob(os.path.join(report, "*.tex")))
    assert len(texs) >= 7, texs
    for tex in texs:
        widest = check_latex_file(tex, tmp)
        print(f"{os.path.basename(tex)}: compiles, widest overfull box {widest} pt")


def must_fail(check, *args):
    """The oracle can fail: a file written the old way (or a table too wide) is refused."""
    try:
        check(*args)
    except AssertionError as e:
        return str(e)
    raise AssertionError(f"{check.__name__} accepted {args}")


def oracle_self_checks(tmp):
    bad = {"percent.csv": "symptom,total_ratio,row_kind\nCrash,26.17%,data\nTotal,100.00%,total\n",
           "pairs.csv": "root_cause,fixed_passing,row_kind\nx,2/2,data\n,2/2,total\n",
           "unmarked.csv": "symptom_id,symptom,count,row_kind\ncrash,Crash,2,data\nhang,Hang,3,data\n,Total,6,total\n",
           "mixed.csv": "symptom,count,row_kind\nCrash,2,data\nTotal,n/a,total\n"}
    for name, text in bad.items():
        path = os.path.join(tmp, name)
        open(path, "w").write(text)
        must_fail(check_csv, path, known_ids())


def latex_self_check(tmp):
    wide = os.path.join(tmp, "wide.tex")
    open(wide, "w").write("\\begin{tabular}{" + "r" * 40 + "}\n" + " & ".join(["1000"] * 40) + "\\\\\n\\end{tabular}\n")
    must_fail(check_latex_file, wide, tmp)


with tempfile.TemporaryDirectory() as tmp:
    if part == "data":
        oracle_self_checks(tmp)
        check_data(make_report(tmp, "csv,json"))
    elif part == "latex":
        latex_self_check(tmp)
        check_latex(make_report(tmp, "tex"), tmp)
    else:
        raise SystemExit(f"unknown part {part}")
print("ok")
