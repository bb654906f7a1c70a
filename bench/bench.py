#!/usr/bin/env python3
"""socload's benchmark: socload fetch of a file and over loopback HTTP, against the sqlite3 shell's
own `.import --csv` of the same rows into a table of the same column types, in one transaction.

Each measurement runs a few times; the median is reported, with the peak RSS of the measured
process (from wait4). Results are printed and written as Markdown.

    python3 bench/bench.py --n 1000000                 # what `make bench` runs
    python3 bench/bench.py --n 200 --runs 1 --sizes 100,200 --bin-dir .build/debug --out /tmp/x.md
"""
import argparse
import datetime
import functools
import hashlib
import json
import http.server
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import baseline  # noqa: E402
import cbound  # noqa: E402
from documents import measure_documents, report_documents  # noqa: E402
from geopackage import measure_geopackage, report_geopackage  # noqa: E402
from parquet import measure_parquet, report_parquet  # noqa: E402
from platforms import measure_platforms, report_platforms  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = "bnch_0001"


def run_measured(argv, cwd=None, env=None):
    """Runs argv under GNU time; returns (wall seconds, peak RSS in KiB). GNU time's own small
    process forks the command, so the peak is the command's alone (a fork of this Python process
    would count Python's memory too). Fails loudly on a non-zero exit."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.perf_counter()
        process = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + argv, cwd=cwd, env=env,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if process.returncode != 0:
            sys.exit(f"bench: {' '.join(argv)} failed with exit {process.returncode}: "
                     f"{process.stderr.decode('utf-8', 'replace').strip()}")
        peak = int(rss.read().strip().splitlines()[-1])
    return wall, peak


REFRESH_CASE = "socload fetch FILE (refresh: the file re-published, its rows as they were)"
LIFECYCLE_NONE = "reload counting nothing (SOCLOAD_COUNT_CHANGES=0)"
LIFECYCLE_COUNTS = "reload counting row changes (--keep-changes 0)"
LIFECYCLE_HISTORY = "reload with --history, nothing changed"

SHAPES = {
    "new": "new backend: `:sid` row ids, compact, one row a line",
    "legacy": "old backend: GUID row ids, numbers as strings, url/phone/location arrays, pretty printed",
}


def generate(bin_dir, data_dir, n, shape="new"):
    """The dataset of n rows in a shape (random row ids, as real exports have)."""
    base = os.path.join(data_dir, f"bench-{n}" + ("-legacy" if shape == "legacy" else ""))
    suffixes = (".rows.json", ".csv", ".schema.sql") + ((".soda.ndjson", ".view.json") if shape == "new" else ())
    if not all(os.path.exists(base + suffix) for suffix in suffixes):
        subprocess.run([os.path.join(bin_dir, "socload-datasets"), "bench", str(n), data_dir, "--shape", shape],
                       check=True, stdout=subprocess.DEVNULL)
    return base


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def serve_tool(bin_dir, *arguments):
    """`socload-datasets ARGUMENTS...`, a loopback server of the project's own (a Python server
    would compete with socload for the two cores): the process and the URL it printed."""
    process = subprocess.Popen([os.path.join(bin_dir, "socload-datasets"), *arguments], stdout=subprocess.PIPE, text=True)
    url = process.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        process.kill()
        sys.exit(f"bench: socload-datasets {' '.join(arguments)} did not start: {url!r}")
    return process, url


def soda_portal(bin_dir, base):
    """The new-shape rows served as SODA 2.1 and SODA3 pages."""
    return serve_tool(bin_dir, "serve-soda", base)


SODA2_CASE = "socload fetch --api soda2 (pages of 50,000 by key over loopback)"
SODA3_CASE = "socload fetch --api soda3 (pages of 50,000 by key over loopback)"


def soda_stats(url):
    """The benchmark portal's counts: pages served, and those that asked for an offset."""
    with urllib.request.urlopen(url + "/_stats") as response:
        return json.loads(response.read())


def table_digest(db):
    """A digest of every row, so two loads can be compared."""
    output = subprocess.run(["sqlite3", "-csv", db, f'SELECT * FROM "{TABLE}" ORDER BY _id'],
                            check=True, capture_output=True).stdout
    count = subprocess.run(["sqlite3", db, f'SELECT count(*) FROM "{TABLE}"'], check=True, capture_output=True).stdout
    return hashlib.sha256(output).hexdigest(), int(count)


def measure(args, base, url, scratch, soda_url=None):
    json_mb = os.path.getsize(base + ".rows.json") / 1e6
    csv_mb = os.path.getsize(base + ".csv") / 1e6
    socload = os.path.join(args.bin_dir, "socload")
    results = {}

    def fresh_db(name):
        path = os.path.join(scratch, name)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        return path

    cases = [
        ("socload fetch FILE", json_mb,
         lambda db: [socload, "fetch", base + ".rows.json", "--db", db, "--table", TABLE, "--quiet"]),
        ("socload fetch http://127.0.0.1", json_mb,
         lambda db: [socload, "fetch", url, "--db", db, "--table", TABLE, "--quiet"]),
        ("sqlite3 .import --csv (reference)", csv_mb,
         lambda db: ["sqlite3", db, "-cmd", f".read {base}.schema.sql", "-cmd", "BEGIN",
                     f".import --csv --skip 1 {base}.csv {TABLE}", "COMMIT"]),
    ]
    if soda_url:
        # Both query APIs, paged by key as socload does by default (an app token for SODA3).
        cases.insert(2, (SODA2_CASE, json_mb,
                         lambda db: [socload, "fetch", "bnch-0001", "--domain", soda_url, "--api", "soda2", "--db", db,
                                     "--table", TABLE, "--quiet"]))
        cases.insert(3, (SODA3_CASE, json_mb,
                         lambda db: ["env", "SOCRATA_APP_TOKEN=bench", socload, "fetch", "bnch-0001", "--domain", soda_url,
                                     "--api", "soda3", "--db", db, "--table", TABLE, "--quiet"]))
    cases += cbound.cases(cbound.compiled(scratch), base, TABLE, csv_mb)
    digests = {}
    # A reload into a database that already holds the table runs in WAL mode (readers keep the
    # previous table), which writes every page twice; measured separately for honesty.
    reload_db = os.path.join(scratch, "reload.sqlite")
    cases.insert(2, ("socload fetch FILE (reload, WAL)", json_mb,
                     lambda db: [socload, "fetch", base + ".rows.json", "--db", reload_db, "--table", TABLE, "--quiet",
                                 "--force"]))
    run_measured([socload, "fetch", base + ".rows.json", "--db", reload_db, "--table", TABLE, "--quiet"])
    # The nightly refresh: the source re-published (a new time), its rows as they were. Not
    # --force: SQLite refreshes such a table in place, writing only what changed.
    # Every run (this build's and a baseline's) starts from the same first load, copied.
    loaded_db = os.path.join(scratch, "first-load.sqlite")
    run_measured([socload, "fetch", base + ".rows.json", "--db", loaded_db, "--table", TABLE, "--quiet"])

    def republished(db):
        shutil.copyfile(loaded_db, db)
        # On disk, as a database that has been there a while: the refresh's own fsync must not
        # also flush the copy's pages.
        with open(db, "rb+") as copied:
            os.fsync(copied.fileno())
        os.utime(base + ".rows.json")
        return [socload, "fetch", base + ".rows.json", "--db", db, "--table", TABLE, "--quiet"]
    cases.insert(3, (REFRESH_CASE, json_mb, republished))
    # What the refresh lifecycle costs on a reload (nothing changed, the worst case for its share):
    # counting alone (--keep-changes 0), counting and the change log (the default, above), and
    # --history on top; against a reload that counts nothing (SOCLOAD_COUNT_CHANGES=0).
    lifecycle = [
        (LIFECYCLE_NONE, ["env", "SOCLOAD_COUNT_CHANGES=0"], []),
        (LIFECYCLE_COUNTS, [], ["--keep-changes", "0"]),
        (LIFECYCLE_HISTORY, [], ["--history"]),
    ]
    for index, (name, prefix, options) in enumerate(lifecycle):
        lifecycle_db = os.path.join(scratch, f"lifecycle-{index}.sqlite")
        run_measured(prefix + [socload, "fetch", base + ".rows.json", "--db", lifecycle_db, "--table", TABLE, "--quiet"]
                     + options)
        cases.insert(3 + index, (name, json_mb,
                                 functools.partial(lambda prefix, path, options, db: prefix + [
                                     socload, "fetch", base + ".rows.json", "--db", path, "--table", TABLE, "--quiet",
                                     "--force"] + options, prefix, lifecycle_db, options)))
    for name, megabytes, command in cases:
        pages_before = soda_stats(soda_url) if soda_url and name in (SODA2_CASE, SODA3_CASE) else None
        walls, rss, baseline_walls = [], [], []
        for _ in range(args.runs):
            old = baseline.swapped(command(fresh_db("bench.sqlite")))
            if old:
                baseline_walls.append(run_measured(old)[0])
            db = fresh_db("bench.sqlite")
            wall, peak = run_measured(command(db))
            walls.append(wall)
            rss.append(peak)
        if name.startswith("socload fetch FILE (reload"):
            digests[name] = table_digest(reload_db)
        elif name in (LIFECYCLE_NONE, LIFECYCLE_COUNTS, LIFECYCLE_HISTORY):
            pass
        elif name.startswith("socload"):
            digests[name] = table_digest(db)
        wall = statistics.median(walls)
        results[name] = baseline.record({"wall": wall, "rows_per_s": args.n / wall if wall else 0,
                                         "mb_per_s": megabytes / wall if wall else 0, "rss_mb": max(rss) / 1024}, baseline_walls)
        if pages_before:
            after = soda_stats(soda_url)
            results[name]["pages"] = after["pages"] - pages_before["pages"]
            results[name]["offsets"] = after["offsets"] - pages_before["offsets"]
    if len(set(digests.values())) != 1:
        sys.exit(f"bench: the socload loads differ: {digests}")
    return results, json_mb, csv_mb, next(iter(digests.values()))[1]


def psql(url, *commands):
    """Runs psql commands against the benchmark server; returns standard output."""
    argv = ["psql", url, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"]
    for command in commands:
        argv += ["-c", command]
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout.strip()


def pg_count(url, table):
    return int(psql(url, f'SELECT count(*) FROM "{table}"'))


def pg_same_rows(url, table, other):
    """True when two tables of the same columns hold the same rows, value for value (numeric by
    value: socload keeps the digits a source wrote, `14873.000000`, where the CSV says `14873`)."""
    differing = psql(url, f'SELECT (SELECT count(*) FROM (SELECT * FROM "{table}" EXCEPT ALL SELECT * FROM "{other}") a)'
                          f' + (SELECT count(*) FROM (SELECT * FROM "{other}" EXCEPT ALL SELECT * FROM "{table}") b)')
    return int(differing) == 0


def measure_postgres(args, base):
    """socload fetch into PostgreSQL, end to end (new table, binary COPY, key, swap, catalog),
    against psql's \\copy of the same rows as CSV into a table of the same column types without
    any index. Each run starts without the table."""
    json_mb = os.path.getsize(base + ".rows.json") / 1e6
    socload = os.path.join(args.bin_dir, "socload")
    reset = [f'DROP TABLE IF EXISTS "{TABLE}"', "DROP TABLE IF EXISTS bnch_ref",
             "DELETE FROM _socload_datasets WHERE table_name = 'bnch_0001'"]
    # A first load makes the catalog and shows the column types the reference table takes.
    run_measured([socload, "fetch", base + ".rows.json", "--db", args.postgres, "--table", TABLE, "--quiet"])
    results = {}
    walls, rss, baseline_walls = [], [], []
    for _ in range(args.runs):
        argv = [socload, "fetch", base + ".rows.json", "--db", args.postgres, "--table", TABLE, "--quiet"]
        old = baseline.swapped(argv)
        if old:
            psql(args.postgres, *reset)
            baseline_walls.append(run_measured(old)[0])
        psql(args.postgres, *reset)
        wall, peak = run_measured(argv)
        walls.append(wall)
        rss.append(peak)
    socload_count = pg_count(args.postgres, TABLE)
    results["socload fetch FILE --db postgresql://"] = baseline.record({"wall": statistics.median(walls),
                                                                         "rss_mb": max(rss) / 1024}, baseline_walls)
    walls, rss = [], []
    for _ in range(args.runs):
        psql(args.postgres, "DROP TABLE IF EXISTS bnch_ref", f'CREATE TABLE bnch_ref (LIKE "{TABLE}")')
        wall, peak = run_measured(["psql", args.postgres, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                                   f"\\copy bnch_ref FROM '{base}.csv' WITH (FORMAT csv, HEADER true)"])
        walls.append(wall)
        rss.append(peak)
    reference_count = pg_count(args.postgres, "bnch_ref")
    results["psql \\copy CSV (reference)"] = {"wall": statistics.median(walls), "rss_mb": max(rss) / 1024}
    results[PG_SERVER_PART] = server_part(args, scratch_binary=base + ".pg-binary")
    for row in results.values():
        row["rows_per_s"] = args.n / row["wall"] if row["wall"] else 0
        row["mb_per_s"] = json_mb / row["wall"] if row["wall"] else 0
    if socload_count != args.n or reference_count != args.n:
        sys.exit(f"bench: expected {args.n} rows in PostgreSQL: socload {socload_count}, psql {reference_count}")
    results["same_values"] = pg_same_rows(args.postgres, TABLE, "bnch_ref")
    psql(args.postgres, *reset)
    return results


PG_SERVER_PART = "the server's part alone: psql \\copy of socload's rows in binary, then the key (reference)"


def server_part(args, scratch_binary):
    """What the server must do of socload's load whatever the client does: the same rows taken in
    PostgreSQL's binary COPY format (from a file psql sends as is), then the primary key, in one
    transaction. The floor of socload's time on a server sharing the machine's cores."""
    psql(args.postgres, f"\\copy \"{TABLE}\" TO '{scratch_binary}' WITH (FORMAT binary)")
    walls, rss = [], []
    try:
        for _ in range(args.runs):
            psql(args.postgres, "DROP TABLE IF EXISTS bnch_floor")
            wall, peak = run_measured(["psql", args.postgres, "-X", "-q", "-1", "-v", "ON_ERROR_STOP=1",
                                       "-c", f'CREATE TABLE bnch_floor (LIKE "{TABLE}")',
                                       "-c", f"\\copy bnch_floor FROM '{scratch_binary}' WITH (FORMAT binary)",
                                       "-c", 'ALTER TABLE bnch_floor ADD PRIMARY KEY ("_id")'])
            walls.append(wall)
            rss.append(peak)
        if pg_count(args.postgres, "bnch_floor") != args.n:
            sys.exit("bench: the server's part alone did not load every row")
    finally:
        os.remove(scratch_binary)
        psql(args.postgres, "DROP TABLE IF EXISTS bnch_floor")
    return {"wall": statistics.median(walls), "rss_mb": max(rss) / 1024}


def memory_per_size(args, data_dir, scratch):
    socload = os.path.join(args.bin_dir, "socload")
    rows = []
    for n in args.sizes:
        base = generate(args.bin_dir, data_dir, n, "legacy")
        db = os.path.join(scratch, f"size-{n}.sqlite")
        wall, peak = run_measured([socload, "fetch", base + ".rows.json", "--db", db, "--table", TABLE, "--quiet"])
        rows.append((n, wall, peak / 1024))
    return rows


def memory_with_long_description(args, data_dir, scratch):
    """Peak RSS of `fetch` of the smallest size's file, plain and with a description of
    args.meta_mb MB in its meta (a long text socload must hold once): (plain MB, long MB)."""
    if args.meta_mb <= 0:
        return None
    socload = os.path.join(args.bin_dir, "socload")
    base = generate(args.bin_dir, data_dir, min(args.sizes), "legacy")
    with open(base + ".rows.json") as source:
        document = json.load(source)
    document["meta"]["view"]["description"] = "Ü described at length. " * (args.meta_mb * 1_000_000 // 24)
    long_path = os.path.join(scratch, "long-description.rows.json")
    with open(long_path, "w") as out:
        json.dump({"meta": document["meta"], "data": document["data"]}, out)
    peaks = []
    for path in (base + ".rows.json", long_path):
        db = os.path.join(scratch, f"description-{len(peaks)}.sqlite")
        peaks.append(run_measured([socload, "fetch", path, "--db", db, "--table", TABLE, "--quiet"])[1] / 1024)
    return peaks[0], peaks[1]


def version(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def report(args, measured, sizes, measured_pg=None, documents=None, long_description=None, geopackage=None, parquet=None,
           platforms=None):
    cpu = "unknown"
    if os.path.exists("/proc/cpuinfo"):
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    lines = [
        "# socload benchmark",
        "",
        f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: {os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}",
        f"- socload {version([os.path.join(args.bin_dir, 'socload'), '--version'])}, SQLite {version(['sqlite3', '--version']).split(' ')[0]}",
        f"- Each measurement run {args.runs} times, median shown; peak RSS is the largest of the runs.",
        "- Reference: the sqlite3 shell's `.import --csv` of the same rows, in one transaction, into a table of",
        "  the same column types with no index at all. socload's times include building the key (a unique",
        "  index on `_id`) after the rows.",
        "- Command: `" + " ".join(["make bench", f"N={args.n}"] + ([f"BASELINE={args.baseline_bin_dir}"] if args.baseline_bin_dir
                                                                  else [])) + "`",
    ]
    for shape, (results, json_mb, csv_mb) in measured.items():
        reference = results["sqlite3 .import --csv (reference)"]["wall"]
        file_wall = results["socload fetch FILE"]["wall"]
        http_wall = results["socload fetch http://127.0.0.1"]["wall"]
        target = "≤ 0.80"
        lines += [
            "",
            f"## {shape} shape: {SHAPES[shape]}",
            "",
            f"{args.n:,} rows, 26 source columns (25 table columns); rows.json {json_mb:.1f} MB, CSV {csv_mb:.1f} MB, random row ids.",
            "",
            "| what | wall s | rows/s | MB/s | peak RSS MB | time vs sqlite3 |" + baseline.header()[0],
            "|---|---:|---:|---:|---:|---:|" + baseline.header()[1],
        ]
        for name, row in results.items():
            lines.append(f"| {name} | {row['wall']:.2f} | {row['rows_per_s']:,.0f} | {row['mb_per_s']:.1f} | "
                         f"{row['rss_mb']:.1f} | {row['wall'] / reference:.2f} |" + baseline.cells(row).removeprefix(" |"))
        lines += [
            "",
            f"- socload FILE / sqlite3 import: **{file_wall / reference:.2f}** (target {target})",
            f"- loopback HTTP / FILE: **{http_wall / file_wall:.2f}**",
        ] + cbound.summary(results, file_wall, reference) + [f"- {label} pages by key, throughput vs rows.json FILE: **{file_wall / results[case]['wall']:.2f}** "
             f"(target ≥ 0.70); peak RSS {results[case]['rss_mb']:.0f} MB (target ≤ 64); {results[case].get('pages', 0)} pages "
             f"served, **{results[case].get('offsets', 0)}** of them with an offset (target 0)"
             for label, case in (("SODA 2.1", SODA2_CASE), ("SODA3", SODA3_CASE)) if case in results] + [
            "- All socload loads produced identical tables (a digest of every row is compared).",
        ]
        if REFRESH_CASE in results:
            lines.append(f"- The default refresh of a re-published file, nothing changed / first load: "
                         f"**{results[REFRESH_CASE]['wall'] / file_wall:.2f}** (target ≤ 1.2)")
        none = results.get(LIFECYCLE_NONE)
        if none:
            counts = results[LIFECYCLE_COUNTS]["wall"]
            logged = results["socload fetch FILE (reload, WAL)"]["wall"]
            history = results[LIFECYCLE_HISTORY]["wall"]
            lines += [
                f"- Refresh lifecycle on a reload: counting row changes costs **{counts / none['wall'] - 1:+.0%}** of a reload "
                f"that counts nothing (target ≤ +30%); with the change log (the default) **{logged / none['wall'] - 1:+.0%}**; "
                f"--history with nothing changed **{history / logged - 1:+.0%}** on top (target ≤ +10%).",
            ]
    lines += report_documents(documents or {})
    lines += report_geopackage(geopackage or {})
    lines += report_parquet(parquet or {})
    lines += report_platforms(platforms or {})
    lines += [
        "",
        "A first load into a new database uses SQLite's rollback journal (each page written once); a reload",
        "into a database that has tables uses WAL so readers keep the previous table, and writes pages twice",
        "(WAL, then checkpoint): that is the `reload, WAL` row.",
        "",
        "## Peak RSS per dataset size (socload fetch FILE, legacy shape)",
        "",
        "| rows | wall s | peak RSS MB |",
        "|---:|---:|---:|",
    ]
    for n, wall, rss in sizes:
        lines.append(f"| {n:,} | {wall:.2f} | {rss:.1f} |")
    if long_description:
        plain, long = long_description
        lines += [
            "",
            f"The {min(args.sizes):,}-row file with a {args.meta_mb} MB description in its meta: peak RSS {long:.1f} MB, "
            f"{plain:.1f} MB without it: the description costs **{(long - plain) / args.meta_mb:.2f}×** its size "
            "(target: about 2, the text held once and the copy SQLite builds of the catalog row).",
        ]
    if measured_pg:
        server = psql(args.postgres, "SHOW server_version")
        fsync = psql(args.postgres, "SHOW fsync")
        lines += [
            "",
            "## PostgreSQL",
            "",
            f"PostgreSQL {server} on the same machine (fsync={fsync}, other settings default), started by",
            "`scripts/with-postgres.sh`; the server shares the two cores with the client. socload's time is end to",
            "end: the new table, binary COPY, the key, the swap and the catalog, in one transaction. The reference is",
            "`psql \\copy` of the same rows as CSV into a table of the same column types with no index.",
            "",
            "| shape | what | wall s | rows/s | peak RSS MB | speed vs psql |" + baseline.header()[0],
            "|---|---|---:|---:|---:|---:|" + baseline.header()[1],
        ]
        for shape, results in measured_pg.items():
            reference = results["psql \\copy CSV (reference)"]["wall"]
            for name, row in results.items():
                if name == "same_values":
                    continue
                lines.append(f"| {shape} | {name} | {row['wall']:.2f} | {row['rows_per_s']:,.0f} | {row['rss_mb']:.1f} | "
                             f"{reference / row['wall']:.2f} |" + baseline.cells(row).removeprefix(" |"))
        lines.append("")
        for shape, results in measured_pg.items():
            speed = results["psql \\copy CSV (reference)"]["wall"] / results["socload fetch FILE --db postgresql://"]["wall"]
            rss = results["socload fetch FILE --db postgresql://"]["rss_mb"]
            lines.append(f"- {shape}: socload is **{speed:.2f}×** psql's speed (target ≥ 1.3), client peak RSS **{rss:.1f} MB** "
                         f"(target ≤ 64); the two tables hold {'the same' if results['same_values'] else 'DIFFERENT'} rows "
                         "(compared with EXCEPT ALL both ways).")
            if PG_SERVER_PART in results:
                ceiling = results["psql \\copy CSV (reference)"]["wall"] / results[PG_SERVER_PART]["wall"]
                lines.append(f"  The server's part alone (binary COPY of the same rows, then the key) is **{ceiling:.2f}×** psql's "
                             "speed: the most a load that keeps the key can reach on this machine.")
    lines += baseline.summary([(f"{shape} shape", results) for shape, (results, _, _) in measured.items()]
                              + [("documents", documents or {})]
                              + [(f"PostgreSQL {shape}", results) for shape, results in (measured_pg or {}).items()])
    # Where the time goes: a profile written by hand (perf), kept beside the script.
    profile = os.path.join(ROOT, "bench", "profile.md")
    if os.path.exists(profile):
        lines += ["", open(profile, encoding="utf-8").read().rstrip()]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="10000,100000,1000000",
                        help="sizes whose peak RSS is reported (comma-separated)")
    parser.add_argument("--meta-mb", type=int, default=100,
                        help="the size of the long description whose memory cost is reported (0: not measured)")
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--baseline-bin-dir", help="also run this build's socload on every socload row, alternating run by "
                        "run, and report after/before (a build of the code before a change)")
    parser.add_argument("--data-dir", default=os.path.join(ROOT, "bench", "data"))
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results.md"))
    parser.add_argument("--shapes", default="new,legacy", help="dataset shapes to measure (comma-separated)")
    parser.add_argument("--postgres", help="also load into this PostgreSQL database and compare with psql's \\copy")
    parser.add_argument("--postgres-only", action="store_true", help="measure only the PostgreSQL rows (print, write nothing)")
    parser.add_argument("--duckdb", action="store_true", help="also measure DuckDB's read_json_auto (installed from PyPI "
                        "into the data directory)")
    args = parser.parse_args()
    args.sizes = [int(size) for size in args.sizes.split(",") if size]
    args.shapes = [shape for shape in args.shapes.split(",") if shape]
    for shape in args.shapes:
        if shape not in SHAPES:
            sys.exit(f"bench: unknown shape {shape} (known: {', '.join(SHAPES)})")
    for tool, package in (("sqlite3", "sqlite3"), ("/usr/bin/time", "time")):
        if shutil.which(tool) is None:
            sys.exit(f"bench: {tool} is needed (apt-get install {package})")
    os.makedirs(args.data_dir, exist_ok=True)
    if args.baseline_bin_dir:
        baseline.PAIR = (os.path.join(args.bin_dir, "socload"), os.path.join(os.path.abspath(args.baseline_bin_dir), "socload"))
    if args.postgres_only:
        for shape in args.shapes:
            results = measure_postgres(args, generate(args.bin_dir, args.data_dir, args.n, shape))
            print(shape, {name: row if name == "same_values" else {key: round(value, 2) for key, value in row.items()}
                          for name, row in results.items()})
        return
    server = serve(args.data_dir)
    measured = {}
    documents = {}
    with tempfile.TemporaryDirectory(prefix="socload-bench-") as scratch:
        for shape in args.shapes:
            base = generate(args.bin_dir, args.data_dir, args.n, shape)
            url = f"http://127.0.0.1:{server.server_address[1]}/{os.path.basename(base)}.rows.json"
            portal, soda_url = soda_portal(args.bin_dir, base) if shape == "new" else (None, None)
            try:
                results, json_mb, csv_mb, row_count = measure(args, base, url, scratch, soda_url)
            finally:
                if portal:
                    portal.kill()
                    portal.wait()
            if row_count != args.n:
                sys.exit(f"bench: expected {args.n} rows, the table has {row_count}")
            measured[shape] = (results, json_mb, csv_mb)
            if shape == "new":
                documents = measure_documents(args, base, scratch, run_measured)
        geopackage = measure_geopackage(args, generate(args.bin_dir, args.data_dir, args.n, "legacy"), TABLE, scratch, run_measured)
        parquet = measure_parquet(args, generate(args.bin_dir, args.data_dir, args.n, "legacy"), TABLE, scratch, run_measured)
        platforms = measure_platforms(args, generate, serve_tool, run_measured, scratch) if "new" in args.shapes else {}
        sizes = memory_per_size(args, args.data_dir, scratch)
        long_description = memory_with_long_description(args, args.data_dir, scratch)
    server.shutdown()
    measured_pg = {}
    if args.postgres:
        for shape in args.shapes:
            measured_pg[shape] = measure_postgres(args, generate(args.bin_dir, args.data_dir, args.n, shape))
    text = report(args, measured, sizes, measured_pg, documents, long_description, geopackage, parquet, platforms)
    with open(args.out, "w") as out:
        out.write(text)
    print(text)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
