"""The benchmark's rows for the nightly refresh of documents: `load --mode upsert` of every row
again and of two records into a table of the dataset's rows (keyed by `:id` as `_id`), against
`sqlite-utils upsert` of the same records (from PyPI into the data directory, for the benchmark
only), and `load --fts` against the plain load. Used by documents.py."""
import json
import os
import subprocess
import sys


def two_records(ndjson, scratch):
    """The first record with its name changed and a record of a new id, as NDJSON."""
    with open(ndjson, "rb") as source:
        first = json.loads(source.readline())
    changed = dict(first, name="Changed by the upsert")
    new = dict(first, **{":id": "row-bench_new0.0000", "name": "Added by the upsert"})
    path = os.path.join(scratch, "two.ndjson")
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(changed, ensure_ascii=False) + "\n" + json.dumps(new, ensure_ascii=False) + "\n")
    return path


def measure_merges(args, ndjson, scratch, db, socload, results, median_run, remove, ensure_package, run_measured):
    """Adds the rows to `results`: wall seconds (median) and peak RSS in MB."""
    def loaded():
        remove(db)
        subprocess.run([socload, "load", ndjson, "--table", "docs", "--db", db, "--quiet"], check=True,
                       stderr=subprocess.DEVNULL)
    two = two_records(ndjson, scratch)
    results["socload load --mode upsert (every row again)"] = median_run(run_measured, args.runs, lambda: [
        socload, "load", ndjson, "--table", "docs", "--db", db, "--quiet", "--mode", "upsert"], loaded)
    results["socload load --mode upsert (2 records)"] = median_run(run_measured, args.runs, lambda: [
        socload, "load", two, "--table", "docs", "--db", db, "--quiet", "--mode", "upsert"], loaded)
    results["socload load --fts name,description"] = median_run(run_measured, args.runs, lambda: [
        socload, "load", ndjson, "--table", "docs", "--db", db, "--quiet", "--fts", "name,description"], lambda: remove(db))
    library = ensure_package(args.data_dir, "sqlite-utils", "sqlite_utils")
    if library:
        tool = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv.pop(1)); "
                "from sqlite_utils.cli import cli; sys.argv[0] = 'sqlite-utils'; cli()", library]

        def inserted():
            remove(db)
            subprocess.run(tool + ["insert", db, "docs", ndjson, "--nl", "--pk", ":id"], check=True)
        results["sqlite-utils upsert --nl (every row again, reference)"] = median_run(run_measured, args.runs, lambda: (
            tool + ["upsert", db, "docs", ndjson, "--nl", "--pk", ":id"]), inserted)
        results["sqlite-utils upsert --nl (2 records, reference)"] = median_run(run_measured, args.runs, lambda: (
            tool + ["upsert", db, "docs", two, "--nl", "--pk", ":id"]), inserted)
    remove(db)


def report_merges(results, plain):
    """Markdown lines of the ratios: upsert against sqlite-utils, --fts against the plain load."""
    lines = []
    for what in ("every row again", "2 records"):
        ours = results.get(f"socload load --mode upsert ({what})")
        theirs = results.get(f"sqlite-utils upsert --nl ({what}, reference)")
        if ours and theirs:
            lines.append(f"- `load --mode upsert` ({what}) / `sqlite-utils upsert`: time **{ours['wall'] / theirs['wall']:.2f}x**; "
                         f"peak RSS {ours['rss_mb']:.0f} MB against {theirs['rss_mb']:.0f} MB")
    again = results.get("socload load --mode upsert (every row again)")
    if again and plain:
        lines.append(f"- `load --mode upsert` (every row again) / `load` (a replace of the same records): time "
                     f"**{again['wall'] / plain['wall']:.2f}x** (target <= 1.3)")
    fts = results.get("socload load --fts name,description")
    if fts and plain:
        lines.append(f"- `load --fts name,description` / `load`: time **{fts['wall'] / plain['wall']:.2f}x**")
    return lines
