"""The Parquet export rows (issue 48): `socload export` of the legacy rows from SQLite to zstd
Parquet, against the same export through Python (a `sqlite3` cursor into a pyarrow `Table`,
written by `pyarrow.parquet.write_table` with zstd) in the same run. Targets: socload at least
2x faster, at a tenth of the memory, its file no larger. Both files are read back by pyarrow and
must hold the same number of rows. Used by bench.py."""
import os
import statistics
import subprocess
import sys

from documents import ensure_package, remove

PYARROW_EXPORT = """
import sqlite3, sys
import pyarrow as pa, pyarrow.parquet as pq
database, table, out = sys.argv[1:4]
cursor = sqlite3.connect(database).execute('SELECT * FROM "%s"' % table)
names = [column[0] for column in cursor.description]
rows = cursor.fetchall()
columns = list(zip(*rows)) if rows else [[] for _ in names]
pq.write_table(pa.table({name: pa.array(values) for name, values in zip(names, columns)}), out, compression="zstd")
"""

ROW_COUNT = """
import sys
sys.path.insert(0, sys.argv[1])
import pyarrow.parquet as pq
print(pq.ParquetFile(sys.argv[2]).metadata.num_rows)
"""


def measure_parquet(args, base, table, scratch, run_measured):
    """The rows, by name: wall seconds (median), peak RSS in MB and the file's size in MB."""
    pyarrow = ensure_package(args.data_dir, "pyarrow", "pyarrow")
    if pyarrow is None:
        return {}
    socload = os.path.join(args.bin_dir, "socload")
    db = os.path.join(scratch, "parquet.sqlite")
    remove(db)
    subprocess.run([socload, "fetch", base + ".rows.json", "--table", table, "--quiet", "--db", db], check=True)
    rows = {}
    environment = dict(os.environ, PYTHONPATH=pyarrow)

    def timed(name, argv, target, env=None):
        walls, rss = [], []
        for _ in range(args.runs):
            if os.path.exists(target):
                os.remove(target)
            wall, peak = run_measured(argv, env=env)
            walls.append(wall)
            rss.append(peak)
        counted = subprocess.run([sys.executable, "-c", ROW_COUNT, pyarrow, target], check=True, capture_output=True, text=True)
        rows[name] = {"wall": statistics.median(walls), "rss_mb": max(rss) / 1024, "file_mb": os.path.getsize(target) / 1e6,
                      "rows": int(counted.stdout)}

    socload_file, geo_file, python_file = (os.path.join(scratch, name) for name in ("s.parquet", "g.parquet", "p.parquet"))
    timed("socload export --format parquet (zstd)", [socload, "export", table, "--db", db, "-o", socload_file, "--format", "parquet",
                                                     "--no-datapackage", "--quiet"], socload_file)
    timed("socload export (GeoParquet: also WKB and bbox columns)", [socload, "export", table, "--db", db, "-o", geo_file,
                                                                    "--no-datapackage", "--quiet"], geo_file)
    timed("Python: sqlite3 cursor -> pyarrow Table -> write_table (zstd)", [sys.executable, "-c", PYARROW_EXPORT, db, table, python_file],
          python_file, env=environment)
    counts = {row["rows"] for row in rows.values()}
    if len(counts) != 1:
        sys.exit(f"bench: the Parquet files hold different numbers of rows: {rows}")
    return rows


def report_parquet(rows):
    """Markdown lines: the rows and the ratios issue 48 sets targets for."""
    if not rows:
        return []
    lines = ["", "## Parquet export (legacy shape, from SQLite)", "", "| what | wall s | peak RSS MB | file MB |", "|---|---:|---:|---:|"]
    for name, row in rows.items():
        lines.append(f"| {name} | {row['wall']:.2f} | {row['rss_mb']:.1f} | {row['file_mb']:.1f} |")
    ours = rows["socload export --format parquet (zstd)"]
    theirs = rows["Python: sqlite3 cursor -> pyarrow Table -> write_table (zstd)"]
    lines += ["", f"- socload against pyarrow: **{theirs['wall'] / ours['wall']:.2f}x** faster (target >= 2), "
              f"memory **{ours['rss_mb'] / theirs['rss_mb']:.2f}x** (target <= 0.1), file **{ours['file_mb'] / theirs['file_mb']:.2f}x** "
              f"(target <= 1), {ours['rows']:,} rows in each."]
    return lines
