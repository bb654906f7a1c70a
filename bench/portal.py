#!/usr/bin/env python3
"""A whole portal every night: socload refresh of a simulated portal of N datasets (sizes drawn as
real portals have them, `socload-datasets serve-portal`), mirrored through a catalog-search
entry into SQLite and PostgreSQL: the first mirror, a no-op refresh (--jobs 4 and --jobs 1), a
refresh after 5% of the datasets changed, and one after the same 5% changed again with their pages
failing first (500, 429, cut and slow bodies), against the longest one faulty dataset takes alone. Also a load's fixed cost: the first and last 100 small datasets
of the first mirror, and one fetch of a ~200-row dataset into a database of 400 datasets and into the
mirror, against an empty database.

Writes the section between <!-- portal --> and <!-- /portal --> of bench/results.md (appended
when absent), after bench.py has written the rest.

    python3 bench/portal.py --n 1000 --postgres postgresql://...      # what `make bench` runs
    python3 bench/portal.py --n 60 --scale 0.01 --bin-dir .build/debug --out /tmp/portal.md
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, run_measured, serve_tool  # noqa: E402

BEGIN, END = "<!-- portal -->", "<!-- /portal -->"


def get(url):
    with urllib.request.urlopen(url) as response:
        return json.loads(response.read())


def refresh(bin_dir, folder, jobs, extra=(), notices=None):
    """(wall seconds, peak RSS KiB, the --json reports in finishing order). With a list as
    `notices`, the run is not --quiet and its standard error's lines go into it."""
    out = os.path.join(folder, "refresh.jsonl")
    argv = [os.path.join(bin_dir, "socload"), "refresh", "--jobs", str(jobs), "--json", *extra]
    argv += [] if notices is not None else ["--quiet"]
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss, open(out, "w") as stdout:
        start = time.perf_counter()
        process = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name] + argv, cwd=folder, stdout=stdout,
                                 stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        peak = int(rss.read().strip().splitlines()[-1])
    reports = [json.loads(line) for line in open(out) if line.strip()]
    if notices is not None:
        notices += process.stderr.decode("utf-8", "replace").splitlines()
    failed = [r for r in reports if r.get("status") == "failed"]
    if process.returncode != 0 or failed:
        sys.exit(f"portal bench: refresh failed ({process.returncode}): {failed[:3]} "
                 f"{process.stderr.decode('utf-8', 'replace')[-2000:]}")
    return wall, peak, reports


def row_counts(bin_dir, db):
    process = subprocess.run([os.path.join(bin_dir, "socload"), "tables", "--db", db, "--format", "json"],
                             capture_output=True, text=True, check=True)
    return {row["table"]: row["rows"] for row in json.loads(process.stdout)}


def write_project(folder, url, db, schema=None):
    project = {"database": db, "datasets": [{"search": {"domain": url, "catalog": url}, "name": "portal"}]}
    if schema:
        project["defaults"] = {"schema": schema}
    with open(os.path.join(folder, "socload.json"), "w") as file:
        json.dump(project, file)


def fetch_nearest_200(args, url, db, schema):
    """Median seconds of `fetch --force` of the portal's dataset nearest 200 rows into `db` (and
    its rows)."""
    nearest = min(get(url + "/_datasets"), key=lambda d: abs(d["rows"] - 200))
    fetch = [os.path.join(args.bin_dir, "socload"), "fetch", nearest["id"], "--domain", url, "--force", "--quiet", "--db", db]
    fetch += ["--schema", schema] if schema else []
    return nearest["rows"], statistics.median(run_measured(fetch)[0] for _ in range(max(args.runs, 9)))


RETRY = re.compile(r"^Retrying: .*?/resource/([a-z0-9]{4}-[a-z0-9]{4})\.json.*; retry \d+ of \d+ in ([0-9.]+) s$")


def longest_retry_waits(notices):
    """The most seconds one dataset waited between its retries, from a refresh's notices."""
    waits = {}
    for line in notices:
        match = RETRY.match(line)
        if match:
            waits[match.group(1)] = waits.get(match.group(1), 0) + float(match.group(2))
    return max(waits.values(), default=0)


def longest_single_fault(args, url, db):
    """The longest a single dataset's faults cost it: a fetch of one small dataset with its pages
    failing first, each kind of fault in turn, less the same fetch clean (seconds)."""
    postgres = db.startswith("postgresql")
    nearest = min(get(url + "/_datasets"), key=lambda d: abs(d["rows"] - 200))
    fetch = [os.path.join(args.bin_dir, "socload"), "fetch", nearest["id"], "--domain", url, "--force", "--quiet",
             "--db", db if postgres else db + "-faults"] + (["--schema", "faults"] if postgres else [])
    clean = statistics.median(run_measured(fetch)[0] for _ in range(3))
    faulty = []
    for kind in ("serverError", "throttled", "cut", "slow"):
        get(url + f"/_faults?id={nearest['id']}&kind={kind}")
        faulty.append(run_measured(fetch)[0])
    get(url + "/_faults?fraction=0&seed=1")
    return max(faulty) - clean


def fixed_cost_at_400(args, db):
    """The issue's measure of a load's fixed cost: one fetch of a ~200-row dataset into a
    database of 400 datasets (a portal of 400 small ones mirrored first) against an empty one."""
    portal, url = serve_tool(args.bin_dir, "serve-portal", "400", str(0.05 * args.scale))
    folder = tempfile.mkdtemp(prefix="socload-portal-400-")
    try:
        postgres = db.startswith("postgresql")
        mirror = db if postgres else db + "-400"
        write_project(folder, url, mirror, "portal400" if postgres else None)
        refresh(args.bin_dir, folder, 4)
        _, into_400 = fetch_nearest_200(args, url, mirror, "portal400" if postgres else None)
        _, into_empty = fetch_nearest_200(args, url, db if postgres else db + "-400-empty", "empty_400" if postgres else None)
        return into_400, into_empty
    finally:
        portal.kill()
        shutil.rmtree(folder, ignore_errors=True)


def measure(args, url, db, label):
    folder = tempfile.mkdtemp(prefix="socload-portal-")
    try:
        write_project(folder, url, db)
        result = {"database": label}
        wall, peak, reports = refresh(args.bin_dir, folder, 4)
        result["first"] = (wall, peak)
        expected = {d["id"].replace("-", "_"): d["rows"] for d in get(url + "/_datasets")}
        counts = row_counts(args.bin_dir, db)
        wrong = [t for t, rows in expected.items() if counts.get(t) != rows]
        if wrong:
            sys.exit(f"portal bench: {len(wrong)} tables have wrong row counts, e.g. {wrong[:3]}")
        result["rows"] = sum(expected.values())
        small = [r["seconds"] for r in reports if r.get("status") == "loaded" and r.get("rows", 0) <= 2000]
        result["fixed"] = (statistics.median(small[:100]), statistics.median(small[-100:])) if len(small) >= 200 else None
        for jobs in (4, 1):
            wall, peak, reports = refresh(args.bin_dir, folder, jobs)
            assert all(r["status"] == "up_to_date" for r in reports), reports[:3]
            result[f"noop{jobs}"] = (wall, peak)
        get(url + "/_change?fraction=0.05&seed=12")
        wall, peak, reports = refresh(args.bin_dir, folder, 4)
        result["changed"] = (wall, peak, sum(1 for r in reports if r["status"] == "loaded"))
        # The same 5% changed again, their pages failing first (the first two requests each: 500,
        # 429, a cut body, a slow body, in turn).
        faults_before = get(url + "/_stats").get("faults", 0)
        get(url + "/_change?fraction=0.05&seed=12&faulty=1")
        notices = []
        wall, peak, reports = refresh(args.bin_dir, folder, 4, notices=notices)
        get(url + "/_faults?fraction=0&seed=1")
        result["faulty"] = (wall, peak, get(url + "/_stats").get("faults", 0) - faults_before, longest_retry_waits(notices))
        result["single_fault"] = longest_single_fault(args, url, db)
        # One fetch of the dataset nearest 200 rows, into the mirror and into an empty database.
        postgres = db.startswith("postgresql")
        rows, into_mirror = fetch_nearest_200(args, url, db, None)
        _, into_empty = fetch_nearest_200(args, url, db if postgres else db + "-empty", "empty_one" if postgres else None)
        result["fetch200"] = (rows, into_mirror, into_empty)
        result["fetch400"] = fixed_cost_at_400(args, db)
        return result
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def report(args, results):
    lines = [BEGIN, "", f"## A whole portal every night ({args.n:,} datasets)", "",
             f"`python3 bench/portal.py --n {args.n}` (part of `make bench`), {platform.machine()}, "
             f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}: a simulated portal (`socload-datasets serve-portal`, "
             "sizes drawn as real portals have them) mirrored through a catalog-search entry with `socload refresh`, "
             "SODA 2.1 pages by key (the default without an app token). PostgreSQL with fsync on.", "",
             "| | " + " | ".join(r["database"] for r in results) + " |", "|---|" + "---|" * len(results)]

    def row(name, cell):
        lines.append(f"| {name} | " + " | ".join(cell(r) for r in results) + " |")

    row("rows mirrored (every table's count checked)", lambda r: f"{r['rows']:,}")
    row("first mirror, --jobs 4", lambda r: f"{r['first'][0]:.1f} s, {r['first'][1] / 1024:.0f} MB")
    row("no-op refresh, --jobs 4", lambda r: f"{r['noop4'][0]:.1f} s, {r['noop4'][1] / 1024:.0f} MB")
    row("no-op refresh, --jobs 1", lambda r: f"{r['noop1'][0]:.1f} s")
    row("5% changed, --jobs 4", lambda r: f"{r['changed'][0]:.1f} s ({r['changed'][2]} reloaded), {r['changed'][1] / 1024:.0f} MB")
    row("the same 5% changed again, their pages faulty, --jobs 4",
        lambda r: f"{r['faulty'][0]:.1f} s ({r['faulty'][2]} faults met): clean + {r['faulty'][0] - r['changed'][0]:.1f} s")
    row("the longest one dataset waited between its retries in that refresh (the bound on clean + ...)",
        lambda r: f"{r['faulty'][3]:.1f} s")
    row("the longest one dataset's faults cost it alone (its two retries wait 1-3 s with jitter: at most 4.5 s)",
        lambda r: f"{r['single_fault']:.1f} s")
    row("first / last 100 small datasets (median load)",
        lambda r: "n/a" if not r["fixed"] else f"{r['fixed'][0] * 1000:.0f} / {r['fixed'][1] * 1000:.0f} ms "
                                               f"({r['fixed'][1] / r['fixed'][0]:.2f}x)")
    row("fetch of one ~200-row dataset: into 400 datasets / an empty database",
        lambda r: f"{r['fetch400'][0]:.3f} / {r['fetch400'][1]:.3f} s ({r['fetch400'][0] / r['fetch400'][1]:.2f}x)")
    row(f"the same into the {args.n:,}-dataset mirror / an empty database",
        lambda r: f"{r['fetch200'][1]:.3f} / {r['fetch200'][2]:.3f} s ({r['fetch200'][1] / r['fetch200'][2]:.2f}x)")
    lines += ["", END]
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--postgres", help="also mirror into this PostgreSQL database (schema public)")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results.md"))
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="socload-portal-db-")
    results = []
    try:
        for label, db in [("SQLite", os.path.join(scratch, "portal.sqlite"))] + ([("PostgreSQL", args.postgres)] if args.postgres else []):
            portal, url = serve_tool(args.bin_dir, "serve-portal", str(args.n), str(args.scale))
            try:
                results.append(measure(args, url, db, label))
            finally:
                portal.kill()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    section = report(args, results)
    print(section)
    text = open(args.out).read() if os.path.exists(args.out) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END) + 1:]
    else:
        text = text + ("\n" if text and not text.endswith("\n\n") else "") + section
    with open(args.out, "w") as out:
        out.write(text)


if __name__ == "__main__":
    main()
