"""The other platforms' rows (issue 49): the same rows (the new-shape benchmark dataset, at most
100,000 of them) fetched over loopback as a CKAN DataStore resource (its JSON dump, and pages of
32,000 sorted by `_id`), an ArcGIS layer (pages of 2,000 by `OBJECTID > N`, dates as epoch milliseconds) and an
OpenDataSoft export (one JSONL body), against the SODA 2.1 fetch of those rows (pages of 50,000
by key) in the same run. Target: each within 1.3x of SODA 2.1. The servers are the project's own
(`socload-datasets serve-soda` and `serve-platforms`), made before the timing starts. Used by
bench.py."""
import os
import statistics
import subprocess
import sys

LIMIT = 100_000
SODA = "socload fetch --api soda2 (SODA 2.1, pages of 50,000 by key)"
CASES = [
    ("socload fetch CKAN resource (one JSON dump)", "/dataset/bench/resource/bench"),
    ("socload fetch CKAN resource --page-size 32000 (DataStore pages)", "/dataset/bench/resource/bench --page-size 32000"),
    ("socload fetch ArcGIS layer (pages of 2,000 by object id)", "/arcgis/rest/services/Bench/FeatureServer/0"),
    ("socload fetch OpenDataSoft dataset (JSONL export)", "/explore/dataset/bench/"),
]


def measure_platforms(args, generate, serve_tool, run_measured, scratch):
    """The rows, by name: wall seconds (median), peak RSS in MB and the rows loaded."""
    n = min(args.n, LIMIT)
    base = generate(args.bin_dir, args.data_dir, n, "new")
    socload = os.path.join(args.bin_dir, "socload")
    soda, soda_url = serve_tool(args.bin_dir, "serve-soda", base)
    platforms, platforms_url = serve_tool(args.bin_dir, "serve-platforms", base)
    rows = {}
    try:
        commands = [(SODA, lambda db: [socload, "fetch", "bnch-0001", "--domain", soda_url, "--api", "soda2", "--db", db,
                                       "--table", "bench", "--quiet"])]
        commands += [(name, (lambda path: lambda db: [socload, "fetch", platforms_url + path.split(" ")[0], "--db", db, "--table",
                                                        "bench", "--quiet"] + path.split(" ")[1:])(path)) for name, path in CASES]
        for name, command in commands:
            walls, rss = [], []
            for _ in range(args.runs):
                db = os.path.join(scratch, "platform.sqlite")
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(db + suffix):
                        os.remove(db + suffix)
                wall, peak = run_measured(command(db))
                walls.append(wall)
                rss.append(peak)
            count = subprocess.run(["sqlite3", db, "SELECT count(*) FROM bench"], check=True, capture_output=True, text=True)
            rows[name] = {"wall": statistics.median(walls), "rss_mb": max(rss) / 1024, "rows": int(count.stdout)}
    finally:
        for process in (soda, platforms):
            process.kill()
            process.wait()
    if {row["rows"] for row in rows.values()} != {n}:
        sys.exit(f"bench: the platform fetches loaded other row counts than {n}: {rows}")
    return rows


def report_platforms(rows):
    """Markdown lines: each platform's fetch against SODA 2.1's of the same rows."""
    if not rows:
        return []
    soda = rows[SODA]
    lines = ["", f"## Other platforms ({soda['rows']:,} rows over loopback, into SQLite)", "",
             "| what | wall s | peak RSS MB | against SODA 2.1 |", "|---|---:|---:|---:|"]
    for name, row in rows.items():
        lines.append(f"| {name} | {row['wall']:.2f} | {row['rss_mb']:.1f} | {row['wall'] / soda['wall']:.2f}x |")
    lines += ["", "- Target: each platform within **1.3x** of the SODA 2.1 fetch of the same rows."]
    return lines
