"""Before and after, side by side: with `--baseline-bin-dir DIR` every socload measurement also
runs DIR's socload (a build of the code before a change) on the same input, alternating with the
new one run by run (new, then before, each from the same starting state), so both see the same
machine. The rows then carry the baseline's median wall time, and the report its ratio."""
import statistics

# (new socload path, baseline socload path), set by bench.py's main when comparing.
PAIR = None


def swapped(argv):
    """argv with the baseline's socload in place of the new one; None when not comparing or
    when argv does not run socload."""
    if not PAIR or PAIR[0] not in argv:
        return None
    return [PAIR[1] if part == PAIR[0] else part for part in argv]


def record(row, baseline_walls):
    """Adds the baseline's median to a result row."""
    if baseline_walls:
        row["before"] = statistics.median(baseline_walls)
    return row


def cells(row):
    """The two extra table cells of a row: the baseline's wall time and after/before."""
    before = row.get("before")
    if not before:
        return " | | |" if PAIR else ""
    return f" | {before:.2f} | {row['wall'] / before:.3f} |"


def header():
    return (" before s | after/before |", "---:|---:|") if PAIR else ("", "")


def summary(sections):
    """A closing line per row over 5% slower than before, or that none is."""
    if not PAIR:
        return []
    rows = [(section, name, row["wall"] / row["before"]) for section, results in sections
            for name, row in results.items() if isinstance(row, dict) and row.get("before")]
    if not rows:
        return []
    worst = max(rows, key=lambda item: item[2])
    slower = [f"{section}: {name} {ratio:.3f}" for section, name, ratio in rows if ratio > 1.05]
    return ["", "## Before and after", "",
            f"Each socload row above also ran the baseline build (`--baseline-bin-dir {PAIR[1].rsplit('/', 1)[0]}`), "
            "alternating run by run. " + (f"Rows over 5% slower than before: {'; '.join(slower)}." if slower else
                                           f"No row is over 5% slower than before (the largest after/before: "
                                           f"{worst[2]:.3f}, {worst[0]}: {worst[1]}).")]
