"""The benchmark's rows beyond a plain fetch: `socload load` of the same rows as NDJSON against
DuckDB's `read_json_auto(..., sample_size=-1)` (types from every record, as socload's), as CSV
against sqlite3's `.import --csv` and DuckDB's `read_csv_auto`, a fetch
with two lookups against the plain one, `load --flatten` against `load` of the same records, and
the upserts and full-text index of merges.py. Used by bench.py; DuckDB comes from PyPI into the data directory, for the benchmark only."""
import os
import statistics

import baseline
import subprocess
import sys

from merges import measure_merges, report_merges

FLATTEN_RECORDS = 200_000


def ensure_package(data_dir, package, module):
    """A directory holding the PyPI `package` (importable as `module`), installed there once; None
    (and a line saying why) when pip cannot install it."""
    target = os.path.join(data_dir, "python-" + package)
    if not os.path.exists(os.path.join(target, module)):
        process = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", target, package],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if process.returncode != 0:
            print(f"bench: {package} not installed, its rows are left out: {process.stderr.decode().strip()[-200:]}")
            return None
    return target


def ensure_duckdb(data_dir):
    """A directory holding the duckdb Python package (installed there once), or None."""
    return ensure_package(data_dir, "duckdb", "duckdb")


def median_run(run_measured, runs, command, before=None):
    walls, rss, baseline_walls = [], [], []
    for _ in range(runs):
        if before:
            before()
        argv = command()
        wall, peak = run_measured(argv)
        walls.append(wall)
        rss.append(peak)
        old = baseline.swapped(argv)
        if old:
            if before:
                before()
            baseline_walls.append(run_measured(old)[0])
    return baseline.record({"wall": statistics.median(walls), "rss_mb": max(rss) / 1024}, baseline_walls)


def remove(path):
    for suffix in ("", "-wal", "-shm", ".wal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def measure_documents(args, base, scratch, run_measured):
    """The rows, by name: wall seconds (median) and peak RSS in MB."""
    socload = os.path.join(args.bin_dir, "socload")
    ndjson = base + ".soda.ndjson"
    db = os.path.join(scratch, "documents.sqlite")
    results = {}
    if not os.path.exists(ndjson):
        return results
    results["socload load NDJSON"] = median_run(run_measured, args.runs, lambda: [
        socload, "load", ndjson, "--table", "docs", "--db", db, "--quiet"], lambda: remove(db))
    duckdb_path = ensure_duckdb(args.data_dir) if args.duckdb else None
    if duckdb_path:
        results["DuckDB read_json_auto(sample_size=-1), 2 threads (reference)"] = duckdb_load(
            args, scratch, duckdb_path, "read_json_auto", ndjson, run_measured)
    results["socload fetch FILE (plain, for the lookups)"] = median_run(run_measured, args.runs, lambda: [
        socload, "fetch", base + ".rows.json", "--table", "lk", "--db", db, "--quiet"], lambda: remove(db))
    results["socload fetch FILE --extract category+count+distinct=city --extract status"] = median_run(
        run_measured, args.runs, lambda: [socload, "fetch", base + ".rows.json", "--table", "lk", "--db", db, "--quiet",
                                          "--extract", "category+count+distinct=city", "--extract", "status"],
        lambda: remove(db))
    measure_csv(args, base + ".csv", scratch, db, socload, duckdb_path, results, run_measured)
    measure_merges(args, ndjson, scratch, db, socload, results, median_run, remove, ensure_package, run_measured)
    subset = os.path.join(scratch, "flatten.ndjson")
    records = 0
    with open(ndjson, "rb") as source, open(subset, "wb") as out:
        for line in source:
            if records >= FLATTEN_RECORDS:
                break
            out.write(line)
            records += 1
    results[f"socload load ({records:,} records)"] = median_run(run_measured, args.runs, lambda: [
        socload, "load", subset, "--table", "fl", "--db", db, "--quiet"], lambda: remove(db))
    results[f"socload load --flatten ({records:,} records)"] = median_run(run_measured, args.runs, lambda: [
        socload, "load", subset, "--table", "fl", "--db", db, "--quiet", "--flatten"], lambda: remove(db))
    remove(db)
    return results


def measure_csv(args, path, scratch, db, socload, duckdb_path, results, run_measured):
    """`load` of the dataset's CSV (the one sqlite3 imports for the fetch rows), against sqlite3's
    `.import --csv` (every column text) and DuckDB's `read_csv_auto(sample_size=-1)` (typed from
    every row, as socload types it)."""
    if not os.path.exists(path):
        return
    results["socload load CSV"] = median_run(run_measured, args.runs, lambda: [
        socload, "load", path, "--table", "docs", "--db", db, "--quiet"], lambda: remove(db))
    results["sqlite3 .import --csv (all text, reference)"] = median_run(run_measured, args.runs, lambda: [
        "sqlite3", db, ".import --csv " + path + " docs"], lambda: remove(db))
    if duckdb_path:
        results["DuckDB read_csv_auto(sample_size=-1), 2 threads (reference)"] = duckdb_load(
            args, scratch, duckdb_path, "read_csv_auto", path, run_measured)


def duckdb_load(args, scratch, duckdb_path, reader, source, run_measured):
    """DuckDB creating a table from `source` with `reader` (typed from every row, 2 threads)."""
    target = os.path.join(scratch, "documents.duckdb")
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import duckdb; con = duckdb.connect(sys.argv[2]); "
              "con.execute('SET threads TO 2'); "
              "con.execute(f\"CREATE TABLE docs AS SELECT * FROM {sys.argv[3]}(?, sample_size=-1)\", [sys.argv[4]]); "
              "con.close()")
    return median_run(run_measured, args.runs, lambda: [
        sys.executable, "-c", script, duckdb_path, target, reader, source], lambda: remove(target))


def report_documents(results):
    """Markdown lines: the rows and the ratios the performance issue sets targets for."""
    if not results:
        return []
    extra, rule = baseline.header()
    lines = ["", "## Documents, lookups and flattening (new shape)", "",
             "| what | wall s | peak RSS MB |" + extra, "|---|---:|---:|" + rule]
    for name, row in results.items():
        lines.append(f"| {name} | {row['wall']:.2f} | {row['rss_mb']:.1f} |" + baseline.cells(row).removeprefix(" |"))
    lines.append("")
    load = results.get("socload load NDJSON")
    duck = results.get("DuckDB read_json_auto(sample_size=-1), 2 threads (reference)")
    if load and duck:
        lines.append(f"- `load` NDJSON / DuckDB: time **{load['wall'] / duck['wall']:.2f}x** (target <= 1.0), "
                     f"peak RSS {load['rss_mb']:.0f} MB against DuckDB's {duck['rss_mb']:.0f} MB (target <= 64)")
    csv_load = results.get("socload load CSV")
    csv_duck = results.get("DuckDB read_csv_auto(sample_size=-1), 2 threads (reference)")
    csv_sqlite = results.get("sqlite3 .import --csv (all text, reference)")
    if csv_load and csv_sqlite:
        lines.append(f"- `load` CSV / sqlite3 `.import`: time **{csv_load['wall'] / csv_sqlite['wall']:.2f}x**"
                     + (f", / DuckDB: **{csv_load['wall'] / csv_duck['wall']:.2f}x**" if csv_duck else "")
                     + f"; peak RSS {csv_load['rss_mb']:.0f} MB")
    plain = results["socload fetch FILE (plain, for the lookups)"]["wall"]
    extract = results["socload fetch FILE --extract category+count+distinct=city --extract status"]["wall"]
    lines.append(f"- two lookups / plain fetch: time **{extract / plain:.2f}x** (target <= 1.3)")
    lines += report_merges(results, load)
    flat = [row for name, row in results.items() if "--flatten" in name]
    unflat = [row for name, row in results.items() if name.startswith("socload load (")]
    if flat and unflat:
        lines.append(f"- `load --flatten` / `load`: time **{flat[0]['wall'] / unflat[0]['wall']:.2f}x** (target <= 1.3)")
    return lines
