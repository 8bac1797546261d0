# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The report on a 1M-row x 20-column file, against Khiops analysing the same file (issue 18).

Data (written once to a temporary CSV): 1,000,000 rows, a binary target ``y``
(``yes``/``no``), 10 string columns of 10 to 10,000 categories (five carry a
hidden grouping of their categories, five are noise) and 10 numeric columns
(five with hidden intervals, five noise; 3 decimals, so up to about 10^5
distinct values each).

Runs, each in its own subprocess, timed as a whole (wall clock) with the
process's peak RSS (``wait4``):

* ``partikit report data.csv --target y --out r.html --json m.json --sql m.sql``
  (the command line: read the CSV with pandas, fit ``KhiopsGrouper()`` and
  ``KhiopsDiscretizer()`` per column, print the ranking, write the three files),
  after a warm-up run on a small file (numba's cache filled: the cold first run
  is ``bench_cold_start``'s subject). A second subprocess times the stages
  (CSV read, fits, HTML, JSON, SQL) in process.
* Khiops (``khiops.core``): ``build_dictionary_from_data_table`` then
  ``train_predictor(..., do_data_preparation_only=True)`` on the same CSV, 100%
  of the rows, no constructed variables, no trees, no pairs: its analysis
  report (univariate MODL discretization and grouping of every column, ranked
  by level), using all cores.

Target (issue 18): partikit faster than Khiops.

    python benchmarks/perf/bench_report.py [--quick] [--rows 1000000] [--output RESULTS.md]

Without ``--output`` the section is only printed.
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
                  "peak_rss": usage.ru_maxrss * 1024}))
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
path, out = sys.argv[1], sys.argv[2]
times = {}
t = time.perf_counter(); frame = pd.read_csv(path, low_memory=False)
times["read CSV"] = time.perf_counter() - t
y = frame.pop("y")
t = time.perf_counter(); result = report(frame, y)
times["fit 20 columns"] = time.perf_counter() - t
t = time.perf_counter(); result.to_html(out + ".html")
times["HTML (tables + 20 SVG plots)"] = time.perf_counter() - t
t = time.perf_counter(); result.to_json(out + ".json")
times["JSON"] = time.perf_counter() - t
t = time.perf_counter(); result.to_sql("data")
times["SQL"] = time.perf_counter() - t
ranking = list(result.summary.index)
print(json.dumps({"times": times, "ranking": ranking}))
"""


def khiops_command(folder, data):
    """A Python command running Khiops' analysis of ``data`` in ``folder``."""
    code = (
        "import sys\n"
        "from khiops import core as kh\n"
        f"kh.build_dictionary_from_data_table({data!r}, 'data', "
        f"{os.path.join(folder, 'data.kdic')!r})\n"
        f"kh.train_predictor({os.path.join(folder, 'data.kdic')!r}, 'data', "
        f"{data!r}, 'y', {os.path.join(folder, 'AnalysisResults.khj')!r}, "
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
        progress(f"writing {n_rows:,} rows x 20 columns to CSV")
        data = os.path.join(folder, "data.csv")
        frame = make_data(n_rows)
        frame.to_csv(data, index=False)
        size_mb = os.path.getsize(data) / 1e6
        in_memory_mb = frame.memory_usage(deep=True).sum() / 1e6
        small = os.path.join(folder, "small.csv")
        frame.iloc[:5000].to_csv(small, index=False)
        del frame
        cli = [sys.executable, "-m", "partikit", "report"]
        progress("partikit: warm-up on 5,000 rows (numba cache)")
        measured([*cli, small, "--target", "y"], env=env)
        out = os.path.join(folder, "r")
        runs = []
        for attempt in range(2):
            progress(f"partikit report, run {attempt + 1}")
            runs.append(measured(
                [*cli, data, "--target", "y", "--out", out + ".html",
                 "--json", out + ".json", "--sql", out + ".sql"], env=env,
            ))  # fmt: skip
        best = min(runs, key=lambda r: r["wall"])
        progress("partikit stages in process")
        stages = subprocess.run(
            [sys.executable, "-c", STAGES, data, os.path.join(folder, "s")],
            capture_output=True, text=True, env=env,
        )  # fmt: skip
        staged = json.loads(stages.stdout.strip().splitlines()[-1])
        html_mb = os.path.getsize(out + ".html") / 1e6
        progress("Khiops analysis")
        khiops_folder = os.path.join(folder, "khiops")
        os.makedirs(khiops_folder)
        khiops = measured(khiops_command(khiops_folder, data), env=env)
        khiops_error = None
        khiops_rank = []
        if khiops["status"] != 0:
            khiops_error = first_line(RuntimeError(khiops["stderr"].strip()[-300:]))
        else:
            khiops_rank = khiops_ranking(khiops_folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    report = Report(NAME)
    report.add(
        "## bench_report: the report on 1M rows x 20 columns, against Khiops "
        f"({script_path(NAME)})"
    )
    report.add()
    report.header(context)
    report.add(
        f"* data: {n_rows:,} rows x 20 columns + binary target; CSV {size_mb:.0f} MB "
        f"({in_memory_mb:.0f} MB as a pandas frame); 10 string columns of "
        f"{', '.join(map(str, CARDINALITIES))} categories (even-numbered ones "
        "informative), 10 numeric columns (even-numbered ones with hidden "
        "intervals)"
    )
    report.add()
    rows = [[
        "`partikit report` (read CSV, fit, print, write HTML + JSON + SQL)",
        f"{best['wall']:.1f} s", f"{best['peak_rss'] / 1e9:.2f} GB",
        " / ".join(f"{r['wall']:.1f}" for r in runs) + " s",
    ]]  # fmt: skip
    if khiops_error is None:
        rows.append([
            "Khiops `train_predictor(do_data_preparation_only=True)` (2 cores)",
            f"{khiops['wall']:.1f} s", f"{khiops['peak_rss'] / 1e9:.2f} GB "
            "(the Python driver and the binary: largest of the two)", "1 run",
        ])  # fmt: skip
        ratio = khiops["wall"] / best["wall"]
    else:
        rows.append(["Khiops", f"failed: {khiops_error}", "", ""])
        ratio = None
    report.add(table(["run", "wall time", "peak RSS", "runs"], rows))
    report.add()
    if ratio is not None:
        report.add(f"partikit is **{ratio:.1f}x faster** than Khiops on this file.")
        report.add()
    report.add("partikit's stages, in one process (seconds):")
    report.add()
    report.add(table(
        ["stage", "seconds"],
        [[k, f"{v:.2f}"] for k, v in staged["times"].items()],
    ))  # fmt: skip
    report.add()
    report.add(f"HTML report: {html_mb:.1f} MB, one file.")
    report.add()
    ranking = staged["ranking"]
    report.add("Ranking, partikit (top 10): " + ", ".join(ranking[:10]) + ".")
    if khiops_rank:
        report.add()
        report.add(
            "Ranking, Khiops (level > 0): "
            + ", ".join(
                f"{name} ({level:.3f})" for name, level in khiops_rank if level > 0
            )  # fmt: skip
            + "."
        )
    finish(report, args.output)


if __name__ == "__main__":
    main()
