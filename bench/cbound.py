"""The C bound of a SQLite load (issue 46): bench/cbound.c, compiled here, loads the same CSV the
sqlite3 shell imports with one prepared INSERT per record, in one transaction, synchronous FULL;
once as it is and once keeping what socload promises on top (the unique key, row fingerprints).
Rows of the SQLite tables in `make bench`, beside the shell's `.import`."""
import os
import shutil
import subprocess

PLAIN = "C bound: a prepared INSERT loop from CSV (reference)"
KEEPING = "C bound keeping socload's key and fingerprints (reference)"


def compiled(scratch):
    """The bound's executable, built in scratch; None (said once) when no C compiler is found."""
    compiler = shutil.which("cc") or shutil.which("clang")
    if compiler is None:
        print("bench: no C compiler (cc, clang): the C bound rows are left out")
        return None
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cbound.c")
    binary = os.path.join(scratch, "cbound")
    subprocess.run([compiler, "-O2", source, "-lsqlite3", "-o", binary], check=True)
    return binary


def cases(binary, base, table, csv_mb):
    """(name, megabytes, command for a database path) for both bounds of the CSV at base."""
    if binary is None:
        return []
    argv = [binary, "DB", base + ".schema.sql", base + ".csv", table]
    return [
        (PLAIN, csv_mb, lambda db: [db if part == "DB" else part for part in argv]),
        (KEEPING, csv_mb, lambda db: [db if part == "DB" else part for part in argv] + ["_id"]),
    ]


def summary(results, socload_wall, reference_wall):
    """The report's lines on the bounds: socload against each, and what the promises cost alone."""
    if PLAIN not in results:
        return []
    plain, keeping = results[PLAIN]["wall"], results[KEEPING]["wall"]
    return [
        f"- socload FILE / the C bound: **{socload_wall / plain:.2f}** (target ≤ 1.3); / the C bound keeping the same "
        f"key and fingerprints: **{socload_wall / keeping:.2f}**",
        f"- The C bound keeping socload's key and fingerprints / sqlite3 import: **{keeping / reference_wall:.2f}** "
        f"(the plain bound: {plain / reference_wall:.2f}): what the promised key and fingerprints cost on one thread",
    ]
