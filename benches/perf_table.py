#!/usr/bin/env python3
"""Regenerates the table of docs/performance.md from the benches.

    python3 benches/perf_table.py [--measurement-time SECONDS] [--print]

Builds the server with the bench profile (the release settings; the benches reuse that
build), runs the criterion benches (evaluate, charts, report, estate, avs_plan) with
short warm-up and measurement times, then the bench scripts against that server
(api_rate.sh, home_page.sh, render_memory.sh), and writes one table of medians between
the markers in docs/performance.md (with --print, to stdout instead). Criterion's
figures are read from its own estimates under target/criterion, by benchmark id, so a
bench that is renamed or removed shows as missing rather than stale. The scripts'
figures are read from their printed lines.
"""

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
START = "<!-- perf-table:start (benches/perf_table.py writes this block) -->"
END = "<!-- perf-table:end -->"
TARGET = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
BENCHES = ["evaluate", "charts", "report", "estate", "avs_plan"]

# (what a user waits for, criterion benchmark id, bench target)
CRITERION_ROWS = [
    ("Evaluate one scenario: every limit, the queueing solve, advice, cost and reverse "
     "sizing over four levels (AVS 4 x 20 TiB Ultra)", "evaluate contract example", "evaluate"),
    ("Layouts sweep, 8 volume counts", "layouts sweep 8 counts", "evaluate"),
    ("Layouts sweep, 256 volume counts", "layouts sweep 256 counts", "evaluate"),
    ("Chart SVG: ceilings", "svg ceilings", "charts"),
    ("Chart SVG: io-size (10 IO sizes x every ceiling, two panels)", "svg io-size", "charts"),
    ("Chart SVG: scaling (32 datastore counts evaluated)", "svg scaling", "charts"),
    ("Chart SVG: latency", "svg latency", "charts"),
    ("Chart SVG: compare (2 scenarios)", "svg compare (2 scenarios)", "charts"),
    ("Chart SVG: layouts (8 counts evaluated)", "svg layouts (8 counts, sweep included)", "charts"),
    ("Report PDF (report model, four charts, layout, font subsets)",
     "report pdf contract example", "report"),
    ("Report HTML (four inline SVG charts)", "report html contract example", "report"),
    ("Report XLSX (charts as PNG)", "report xlsx contract example", "report"),
    ("Report Markdown", "report md contract example", "report"),
    ("Report CSV", "report csv contract example", "report"),
    ("Report JSON", "report json contract example", "report"),
    ("Estate of 100 workloads, 1-year timeline",
     "estate/optimise 100 workloads, 1-year timeline", "estate"),
    ("Estate of 100 workloads, 3-year timeline",
     "estate/optimise 100 workloads, 3-year timeline", "estate"),
    ("AVS: import an RVTools workbook of 10,000 VMs / 40,000 disks",
     "avs/import 10,000 VMs / 40,000 disks", "avs_plan"),
    ("AVS: plan 10,000 VMs (hosts, layout search, TCO)", "avs/plan 10,000 VMs", "avs_plan"),
]


# The table's rows, from what every user meets to the largest jobs.
ORDER = [
    "evaluate contract example", "api", "planner", "first page", "search",
    *(bench_id for _, bench_id, target in CRITERION_ROWS if target in ("charts", "report")),
    "layouts sweep 8 counts", "layouts sweep 256 counts",
    *(bench_id for _, bench_id, target in CRITERION_ROWS if target in ("estate", "avs_plan")),
    "renders",
]


def run(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr, flush=True)
    return subprocess.run(cmd, cwd=ROOT, text=True, **kw)


def duration(ns):
    """A median in nanoseconds as people read it: 3 significant digits, a fitting unit."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def ms(text):
    """Milliseconds as printed by a script, to two significant digits."""
    x = float(text)
    return f"{x:.0f} ms" if x >= 10 else f"{x:.1f} ms"


def criterion_medians(since):
    """Median (ns) by benchmark id, from the estimates criterion wrote after `since`."""
    out = {}
    for bench in (TARGET / "criterion").glob("**/new/benchmark.json"):
        estimates = bench.with_name("estimates.json")
        if not estimates.exists() or estimates.stat().st_mtime < since:
            continue
        full_id = json.loads(bench.read_text())["full_id"]
        out[full_id] = json.loads(estimates.read_text())["median"]["point_estimate"]
    return out


def script(name, *args):
    """Runs a bench script; its report lines (stdout and stderr) whatever its verdict."""
    p = run(["bash", f"benches/{name}", str(TARGET / "release" / "volplan"), *args],
            capture_output=True)
    text = p.stdout + p.stderr
    print(text, file=sys.stderr)
    if p.returncode not in (0, 1):  # 1 is the script's own threshold, still a figure
        sys.exit(f"benches/{name} failed ({p.returncode})")
    return text


def find(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        sys.exit(f"no {what} in the output:\n{text}")
    return m


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measurement-time", type=float, default=3,
                    help="criterion's measurement time per bench, seconds (default 3)")
    ap.add_argument("--print", action="store_true", help="print the table, leave the doc")
    opts = ap.parse_args()

    run(["cargo", "build", "--profile", "bench"], check=True)
    since = time.time()
    for bench in BENCHES:
        run(["cargo", "bench", "--bench", bench, "--", "--warm-up-time", "1",
             "--measurement-time", str(opts.measurement_time), "--noplot"], check=True)
    medians = criterion_medians(since)

    rows = {}
    for what, bench_id, target in CRITERION_ROWS:
        value = duration(medians[bench_id]) if bench_id in medians else "missing"
        rows[bench_id] = (what, value, f"`cargo bench --bench {target}`")

    api = script("api_rate.sh", "5")
    health = float(find(r"^GET /healthz\s+([\d.]+) requests/s", api, "health check rate")[1])
    evaluate = float(find(r"^POST /api/v1/evaluate\s+([\d.]+) requests/s", api,
                          "evaluate rate")[1])
    rows["api"] = (
        "API: `POST /api/v1/evaluate` of the same scenario, requests per second "
        "(wrk, 2 threads, 32 connections, loopback)",
        f"{evaluate:,.0f}/s (`GET /healthz` just before: {health:,.0f}/s)",
        "`benches/api_rate.sh`",
    )

    home = script("home_page.sh")
    for label, path, what in [
        ("first page", "/", "Home page: the first 50 of 5,000 saved scenarios"),
        ("search", r"/\?q=\S*", "Home page: a search over 5,000 saved scenarios"),
        ("planner", "/scenarios/1",
         "Planner page of a saved scenario (evaluation, results, two inline charts)"),
    ]:
        m = find(rf"^GET {path}\s+median\s+([\d.]+) ms\s+p95\s+([\d.]+) ms", home, label)
        rows[label] = (what, f"{ms(m[1])} (p95 {ms(m[2])})", "`benches/home_page.sh`")

    mem = script("render_memory.sh")
    done = find(r"all 32 done in ([\d.]+) s", mem, "render time")[1]
    hz = find(r"healthz during the load: median ([\d.]+) ms", mem, "health check time")[1]
    peak = find(r"high-water mark \(VmHWM\) (\d+) MB", mem, "peak memory")[1]
    rows["renders"] = (
        "32 large renders at once (16 PNG charts at 4000 x 4000, 16 PDF reports): "
        "all answered; `GET /healthz` meanwhile; server peak memory",
        f"{done} s; {hz} ms; {peak} MB",
        "`benches/render_memory.sh`",
    )

    cpu = next((line.split(":", 1)[1].strip() for line in
                Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown CPU")
    table = [
        f"Measured {datetime.date.today().isoformat()} on {os.cpu_count()} cores of "
        f"{cpu} ({platform.system()}), release build, criterion measurement time "
        f"{opts.measurement_time:g} s.",
        "",
        "| what | median | measured by |",
        "|---|---:|---|",
        *(f"| {what} | {value} | {by} |" for what, value, by in (rows[k] for k in ORDER)),
    ]
    block = "\n".join(table)
    if opts.print:
        print(block)
        return
    doc = DOC.read_text()
    head, rest = doc.split(START, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{START}\n{block}\n{END}{tail}")
    print(f"wrote {DOC.relative_to(ROOT)}", file=sys.stderr)
    missing = [bench_id for _, bench_id, _ in CRITERION_ROWS if bench_id not in medians]
    if missing:
        sys.exit(f"missing criterion results: {missing}")


if __name__ == "__main__":
    main()
