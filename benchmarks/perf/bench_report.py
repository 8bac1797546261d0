# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The report from the command line, end to end, against Khiops on the same files (issues 18, 35).

Two files (written once to temporary CSVs):

* **prices**: 54,000 rows x 10 columns, like the diamonds data (carat, cut,
  color, clarity, depth, table, x, y, z and the target ``price``: ``high``
  above the median price, else ``low``), generated with numpy;
* **wide**: 1,000,000 rows x 20 columns and a binary target ``y``
  (``yes``/``no``): 10 string columns of 10 to 10,000 categories (five carry a
  hidden grouping of their categories, five are noise) and 10 numeric columns
  (five with hidden intervals, five noise; 3 decimals, so up to about 10^5
  distinct values each).

Runs, each in its own subprocess, timed as a whole (wall clock, process start
and imports included) with the process's peak RSS (``wait4``), after a
warm-up run on a small file (numba's cache filled: the cold first run is
``bench_cold_start``'s subject):

* ``partikit report data.csv --target T`` (read the CSV, fit the default
  grouper and discretizer per column, print the ranking): the fits, no files;
* ``... --out r.html``: the same and the HTML report (these two alternate,
  best of 3 on prices, of 2 on the wide file: the machine's load hits both);
* ``... --out r.html --json m.json --sql m.sql``: every file;
* ``python -c "import partikit"``: the process start alone (best of 3);
* a second subprocess times the stages (CSV read, fits, HTML, JSON, SQL) in
  process.
* Khiops (``khiops.core``): ``build_dictionary_from_data_table`` then
  ``train_predictor(..., do_data_preparation_only=True)`` on the same CSV, 100%
  of the rows, no constructed variables, no trees, no pairs: its analysis
  report (univariate MODL discretization and grouping of every column, ranked
  by level), using all cores.

Targets (issue 35, "A report in seconds"): the HTML report of the prices file
in at most 2 s end to end; on the wide file, the HTML report at most 1 s more
than the fits (the command without files). Issue 18: faster than Khiops.

    python benchmarks/perf/bench_report.py [--quick] [--rows 1000000] [--output RESULTS.md]

``--quick`` and ``--rows`` change the wide file's rows only. Without
``--output`` the section is only printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from _common import (  # noqa: E402
    Report,
    RunContext,
    ensure_khiops_path,
    finish,
    first_line,
    progress,
    script_path,
    table,
)

NAME = "bench_report"
CARDINALITIES = (10, 20, 50, 100, 300, 1_000, 2_000, 5_000, 10_000, 10_000)


def make_prices(n_rows=54_000, random_state=0):
    """A diamonds-like frame: 3 string columns, 6 numeric ones, and the target
    ``price``: ``high`` above the median, else ``low``."""
    rng = np.random.default_rng(random_state)
    carat = np.round(rng.gamma(2.2, 0.36, n_rows) + 0.2, 2)
    cuts = np.array(["Fair", "Good", "Very Good", "Premium", "Ideal"])
    cut = rng.choice(5, n_rows, p=[0.03, 0.09, 0.22, 0.26, 0.40])
    color = rng.choice(7, n_rows, p=[0.12, 0.18, 0.18, 0.21, 0.15, 0.10, 0.06])
    clarities = np.array(["I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"])
    clarity = rng.choice(8, n_rows, p=[0.01, 0.17, 0.24, 0.23, 0.15, 0.09, 0.07, 0.04])
    x = np.round(6.5 * carat ** (1 / 3) + rng.normal(0, 0.05, n_rows), 2)
    log_price = (
        8.0 + 1.7 * np.log(carat) + 0.03 * cut - 0.05 * color + 0.04 * clarity
        + rng.normal(0, 0.2, n_rows)
    )  # fmt: skip
    return pd.DataFrame({
        "carat": carat,
        "cut": cuts[cut],
        "color": np.array(list("DEFGHIJ"))[color],
        "clarity": clarities[clarity],
        "depth": np.round(rng.normal(61.7, 1.4, n_rows), 1),
        "table": np.round(rng.normal(57.5, 2.2, n_rows), 0),
        "price": np.where(log_price > np.median(log_price), "high", "low"),
        "x": x,
        "y": np.round(x + rng.normal(0, 0.05, n_rows), 2),
        "z": np.round(0.618 * x + rng.normal(0, 0.03, n_rows), 2),
    })  # fmt: skip


def make_data(n_rows, random_state=0):
    """The benchmark's frame: 10 string columns, 10 numeric ones, target ``y``."""
    rng = np.random.default_rng(random_state)
    columns, logit = {}, np.full(n_rows, -0.8)
    for i, k in enumerate(CARDINALITIES):
        codes = rng.integers(0, k, n_rows)
        if i % 2 == 0:
            # informative: a hidden group of 4 per category moves the log-odds
            effect = np.array([-0.6, -0.2, 0.2, 0.6])[rng.integers(0, 4, k)]
            logit += effect[codes] * (0.5 + 0.1 * i)
        columns[f"cat_{i}_k{k}"] = np.char.add("c", codes.astype(str))
    for i in range(10):
        x = rng.normal(size=n_rows).round(3)
        if i % 2 == 0:
            cuts = np.sort(rng.normal(size=3))
            steps = np.array([-0.5, 0.3, -0.2, 0.6]) * (0.5 + 0.1 * i)
            logit += steps[np.searchsorted(cuts, x)]
        columns[f"num_{i}"] = x
    y = rng.random(n_rows) < 1.0 / (1.0 + np.exp(-logit))
    columns["y"] = np.where(y, "yes", "no")
    return pd.DataFrame(columns)


WRAPPER = r"""
import json, os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:])
_, status, usage = os.wait4(process.pid, 0)
wall = time.perf_counter() - start
print(json.dumps({"wall": wall, "status": os.waitstatus_to_exitcode(status),
                  "peak_rss": usage.ru_maxrss * 1024,
                  "cpu": usage.ru_utime + usage.ru_stime}))
"""


def measured(command, env=None):
    """Wall time and peak RSS of ``command`` (and of its own children)."""
    completed = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    lines = completed.stdout.strip().splitlines()
    result = json.loads(lines[-1])
    result["stdout"] = "\n".join(lines[:-1])
    result["stderr"] = completed.stderr
    return result


STAGES = r"""
import json, sys, time
import pandas as pd
from partikit import report
path, target, out = sys.argv[1], sys.argv[2], sys.argv[3]
times = {}
t = time.perf_counter(); frame = pd.read_csv(path, low_memory=False)
times["read CSV"] = time.perf_counter() - t
y = frame.pop(target)
t = time.perf_counter(); result = report(frame, y)
times[f"fit {frame.shape[1]} columns"] = time.perf_counter() - t
t = time.perf_counter(); result.to_html(out + ".html")
times[f"HTML (tables + {frame.shape[1]} SVG plots)"] = time.perf_counter() - t
t = time.perf_counter(); result.to_json(out + ".json")
times["JSON"] = time.perf_counter() - t
t = time.perf_counter(); result.to_sql("data")
times["SQL"] = time.perf_counter() - t
ranking = list(result.summary.index)
print(json.dumps({"times": times, "ranking": ranking}))
"""


def khiops_command(folder, data, target):
    """A Python command running Khiops' analysis of ``data`` in ``folder``."""
    code = (
        "import sys\n"
        "from khiops import core as kh\n"
        f"kh.build_dictionary_from_data_table({data!r}, 'data', "
        f"{os.path.join(folder, 'data.kdic')!r})\n"
        f"kh.train_predictor({os.path.join(folder, 'data.kdic')!r}, 'data', "
        f"{data!r}, {target!r}, {os.path.join(folder, 'AnalysisResults.khj')!r}, "
        "sample_percentage=100, use_complement_as_test=False, "
        "do_data_preparation_only=True, max_constructed_variables=0, "
        "max_trees=0, max_pairs=0)\n"
    )
    return [sys.executable, "-c", code]


def khiops_ranking(folder):
    """The variables of Khiops' preparation report, by decreasing level."""
    from khiops import core as kh

    candidates = [f for f in os.listdir(folder) if f.endswith(".khj")]
    results = kh.read_analysis_results_file(os.path.join(folder, candidates[0]))
    report = results.preparation_report
    stats = sorted(
        (report.get_variable_statistics(name) for name in report.get_variable_names()),
        key=lambda s: -s.level,
    )
    return [(s.name, s.level) for s in stats]


def best_of(command, env, n_runs):
    runs = [measured(command, env=env) for _ in range(n_runs)]
    failed = [r for r in runs if r["status"] != 0]
    if failed:
        raise RuntimeError(f"{command} failed: {failed[0]['stderr'][-500:]}")
    return min(runs, key=lambda r: r["wall"]), runs


def run_file(folder, name, frame, target, env, n_runs):
    """Every measurement of one file; returns a dict of the results."""
    data = os.path.join(folder, f"{name}.csv")
    frame.to_csv(data, index=False)
    shape = frame.shape
    size_mb = os.path.getsize(data) / 1e6
    cli = [sys.executable, "-m", "partikit", "report", data, "--target", target]
    out = os.path.join(folder, name)
    fits_runs, html_runs = [], []
    for attempt in range(n_runs):
        progress(f"{name}: the command without files, then with the HTML report "
                 f"({attempt + 1}/{n_runs})")  # fmt: skip
        fits_runs.append(best_of(cli, env, 1)[0])
        html_runs.append(best_of([*cli, "--out", out + ".html"], env, 1)[0])
    fits = min(fits_runs, key=lambda r: r["wall"])
    with_html = min(html_runs, key=lambda r: r["wall"])
    progress(f"{name}: the command with every file")
    every, _ = best_of(
        [*cli, "--out", out + ".html", "--json", out + ".json", "--sql",
         out + ".sql"], env, 1,
    )  # fmt: skip
    html_mb = os.path.getsize(out + ".html") / 1e6
    progress(f"{name}: stages in process")
    stages = subprocess.run(
        [sys.executable, "-c", STAGES, data, target, os.path.join(folder, "s")],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    staged = json.loads(stages.stdout.strip().splitlines()[-1])
    progress(f"{name}: Khiops analysis")
    khiops_folder = os.path.join(folder, f"khiops-{name}")
    os.makedirs(khiops_folder)
    khiops = measured(khiops_command(khiops_folder, data, target), env=env)
    khiops_error, khiops_rank = None, []
    if khiops["status"] != 0:
        khiops_error = first_line(RuntimeError(khiops["stderr"].strip()[-300:]))
    else:
        khiops_rank = khiops_ranking(khiops_folder)
    os.remove(data)
    return {
        "shape": shape, "size_mb": size_mb, "fits": fits, "html": with_html,
        "html_runs": html_runs, "fits_runs": fits_runs, "every": every, "html_mb": html_mb,
        "staged": staged, "khiops": khiops, "khiops_error": khiops_error,
        "khiops_rank": khiops_rank,
    }  # fmt: skip


def file_section(report, title, result, target_line, met):
    """One file's table, stages and rankings."""
    report.add(f"### {title}")
    report.add()
    gb = 1e9
    rows = [
        [what, f"{result[key]['wall']:.2f} s", f"{result[key]['cpu']:.2f} s",
         f"{result[key]['peak_rss'] / gb:.2f} GB"]
        for what, key in (
            ("`partikit report` without files (read CSV, fit, print): the fits",
             "fits"),
            ("`partikit report --out r.html` (+ the HTML report)", "html"),
            ("`partikit report --out --json --sql` (every file)", "every"),
        )
    ]  # fmt: skip
    if result["khiops_error"] is None:
        rows.append([
            "Khiops `train_predictor(do_data_preparation_only=True)` (2 cores)",
            f"{result['khiops']['wall']:.2f} s",
            f"{result['khiops']['cpu']:.2f} s",
            f"{result['khiops']['peak_rss'] / gb:.2f} GB (largest process)",
        ])  # fmt: skip
    else:
        rows.append(["Khiops", f"failed: {result['khiops_error']}", "", ""])
    report.add(table(["run (process start included)", "wall", "CPU (user + sys)",
                      "peak RSS"], rows))  # fmt: skip
    report.add()
    report.add(
        "Runs without files: "
        + " / ".join(f"{r['wall']:.2f}" for r in result["fits_runs"])
        + " s; with the HTML report: "
        + " / ".join(f"{r['wall']:.2f}" for r in result["html_runs"])
        + f" s; HTML file {result['html_mb']:.2f} MB."
    )  # fmt: skip
    report.add()
    report.add(f"**Target: {target_line}: {'met' if met else 'NOT met'}.**")
    if result["khiops_error"] is None:
        ratio = result["khiops"]["wall"] / result["every"]["wall"]
        report.add(
            f"partikit (every file) is {ratio:.1f}x "
            + ("faster" if ratio >= 1 else "slower (1/x)")
            + " than Khiops on this file."
        )
    report.add()
    report.add("partikit's stages, in one process (seconds):")
    report.add()
    report.add(table(
        ["stage", "seconds"],
        [[k, f"{v:.3f}"] for k, v in result["staged"]["times"].items()],
    ))  # fmt: skip
    report.add()
    ranking = result["staged"]["ranking"]
    report.add("Ranking, partikit (top 10): " + ", ".join(ranking[:10]) + ".")
    if result["khiops_rank"]:
        report.add()
        report.add(
            "Ranking, Khiops (level > 0): "
            + ", ".join(
                f"{name} ({level:.3f})"
                for name, level in result["khiops_rank"]
                if level > 0
            )  # fmt: skip
            + "."
        )
    report.add()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 rows")
    parser.add_argument("--rows", type=int, default=None, help="rows of the file")
    parser.add_argument("--output", default=None, help="markdown file to write")
    args = parser.parse_args()
    n_rows = args.rows or (100_000 if args.quick else 1_000_000)
    ensure_khiops_path()
    context = RunContext("perf/bench_report.py", args.quick, with_khiops=True)
    folder = tempfile.mkdtemp(prefix="partikit-bench-report-")
    env = dict(os.environ)
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(folder, "numba-cache"))
    try:
        small = os.path.join(folder, "small.csv")
        make_data(5000).to_csv(small, index=False)
        cli = [sys.executable, "-m", "partikit", "report"]
        progress("partikit: warm-up on 5,000 rows (numba cache)")
        measured([*cli, small, "--target", "y"], env=env)
        measured([*cli, small, "--target", "num_0"], env=env)
        start, _ = best_of([sys.executable, "-c", "import partikit"], env, 3)
        prices = run_file(folder, "prices", make_prices(), "price", env, 3)
        progress(f"writing {n_rows:,} rows x 20 columns to CSV")
        wide = run_file(folder, "wide", make_data(n_rows), "y", env, 2)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    report = Report(NAME)
    report.add(
        "## bench_report: the report from the command line, 54,000 x 10 and "
        f"{n_rows:,} x 20, against Khiops ({script_path(NAME)})"
    )
    report.add()
    report.header(context)
    report.add(
        f"* prices: {prices['shape'][0]:,} rows x {prices['shape'][1]} columns "
        f"(diamonds-like, generated; binary target `price`: high / low), CSV "
        f"{prices['size_mb']:.1f} MB"
    )
    report.add(
        f"* wide: {wide['shape'][0]:,} rows x {wide['shape'][1] - 1} columns + "
        f"binary target `y`; CSV {wide['size_mb']:.0f} MB; 10 string columns of "
        f"{', '.join(map(str, CARDINALITIES))} categories (even-numbered ones "
        "informative), 10 numeric columns (even-numbered ones with hidden "
        "intervals)"
    )
    report.add(
        f'* process start (`python -c "import partikit"`, best of 3): '
        f"{start['wall']:.2f} s"
    )
    report.add()
    html_seconds = prices["html"]["wall"]
    file_section(
        report, "prices (54,000 x 10)", prices,
        f"the HTML report in at most 2 s end to end ({html_seconds:.2f} s)",
        html_seconds <= 2.0,
    )  # fmt: skip
    extra = wide["html"]["wall"] - wide["fits"]["wall"]
    file_section(
        report, f"wide ({n_rows:,} x 20)", wide,
        "the HTML report at most 1 s more than the fits "
        f"({wide['html']['wall']:.2f} s - {wide['fits']['wall']:.2f} s = "
        f"{extra:+.2f} s)",
        extra <= 1.0,
    )  # fmt: skip
    finish(report, args.output)


if __name__ == "__main__":
    main()
