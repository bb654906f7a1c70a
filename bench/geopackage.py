"""The GeoPackage rows (performance issue): `socload fetch` of the legacy rows, whose location
column makes a point layer, into a `.gpkg` against the same fetch into a plain `.sqlite`, and
GDAL's `ogr2ogr -f GPKG` of the same layer (read from socload's GeoPackage, written with its
RTree) as the reference. Targets: the GeoPackage at most 1.6x the plain fetch, at least 2x faster
than ogr2ogr. Each GeoPackage is checked: `rtreecheck()` ok and one index entry per geometry.
Used by bench.py."""
import os
import shutil
import sqlite3
import statistics
import sys

from documents import remove


def measure_geopackage(args, base, table, scratch, run_measured):
    """The rows, by name: wall seconds (median) and peak RSS in MB."""
    socload = os.path.join(args.bin_dir, "socload")
    plain, gpkg, copy = (os.path.join(scratch, name) for name in ("gp-plain.sqlite", "gp.gpkg", "gp-ogr.gpkg"))
    rows = {}

    def timed(name, argv, target):
        walls, rss = [], []
        for _ in range(args.runs):
            remove(target)
            wall, peak = run_measured(argv)
            walls.append(wall)
            rss.append(peak)
        rows[name] = {"wall": statistics.median(walls), "rss_mb": max(rss) / 1024}

    fetch = [socload, "fetch", base + ".rows.json", "--table", table, "--quiet", "--db"]
    timed("socload fetch FILE (plain .sqlite)", fetch + [plain], plain)
    timed("socload fetch FILE --db x.gpkg", fetch + [gpkg], gpkg)
    check_index(gpkg, table)
    if shutil.which("ogr2ogr"):
        timed("ogr2ogr -f GPKG of the same layer (reference)", ["ogr2ogr", "-f", "GPKG", copy, gpkg, table], copy)
        check_index(copy, table)
    else:
        print("bench: ogr2ogr not found (apt-get install gdal-bin): its row is left out")
    return rows


def check_index(path, table):
    with sqlite3.connect(path) as db:
        column = db.execute("SELECT column_name FROM gpkg_geometry_columns WHERE table_name = ?", (table,)).fetchone()
        if column is None:
            sys.exit(f"bench: {path} has no geometry column for {table}")
        rtree = f"rtree_{table}_{column[0]}"
        check = db.execute("SELECT rtreecheck(?)", (rtree,)).fetchone()[0]
        entries = db.execute(f'SELECT count(*) FROM "{rtree}"').fetchone()[0]
        geometries = db.execute(f'SELECT count(*) FROM "{table}" WHERE "{column[0]}" IS NOT NULL').fetchone()[0]
        if check != "ok" or entries != geometries:
            sys.exit(f"bench: the spatial index of {path} is wrong: rtreecheck {check!r}, {entries} entries for {geometries} geometries")


def report_geopackage(rows):
    """Markdown lines: the rows and the ratios the performance issue sets targets for."""
    if not rows:
        return []
    lines = ["", "## GeoPackage (legacy shape: a point layer)", "", "| what | wall s | peak RSS MB |", "|---|---:|---:|"]
    for name, row in rows.items():
        lines.append(f"| {name} | {row['wall']:.2f} | {row['rss_mb']:.1f} |")
    lines.append("")
    plain = rows["socload fetch FILE (plain .sqlite)"]["wall"]
    gpkg = rows["socload fetch FILE --db x.gpkg"]["wall"]
    lines.append(f"- GeoPackage / plain fetch: time **{gpkg / plain:.2f}x** (target <= 1.6)")
    ogr = rows.get("ogr2ogr -f GPKG of the same layer (reference)")
    if ogr:
        lines.append(f"- socload's GeoPackage against `ogr2ogr -f GPKG`: **{ogr['wall'] / gpkg:.2f}x** faster (target >= 2)")
    lines.append("- Each GeoPackage's spatial index checked: one entry per geometry, `rtreecheck()` ok.")
    return lines
