# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Many classes (issue 17, part 1): 500 classes on 100,000 rows.

Data: ``scale_data.many_classes_numeric()``: a numeric column ``x`` whose class
depends on 20 hidden intervals, and a categorical column ``category`` (200
categories) carrying the same signal. Each estimator runs in its own fresh
subprocess: a warm-up fit on 2,000 rows of the same data (numba compile or cache
load excluded), then the fit, timed by ``time.perf_counter`` (median of 3 when
the first took < 5 s, else that one fit). Peak memory: the subprocess's
``ru_maxrss`` after the fits (GiB), with its RSS just before the first timed fit
in brackets. Targets (issue 17): every fit <= 5 s and <= 1 GB.

    python benchmarks/perf/bench_many_classes.py [--output FILE]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from _common import (  # noqa: E402
    RESULTS,
    Report,
    RunContext,
    Timing,
    add_earlier_runs,
    cpu_seconds,
    digest_line,
    emit,
    finish,
    other_processes_line,
    progress,
    run_subprocess,
    source_digest,
    table,
)

NAME = "bench_many_classes"
TIME_TARGET = 5.0  # seconds
MEMORY_TARGET = 1.0  # GB (10^9 bytes) of peak RSS
TIMEOUT = 120  # seconds per fit

#: label -> (estimator expression, columns it is fitted on)
ESTIMATORS = {
    "mdlp": ("MDLPDiscretizer()", ["x"]),
    "blockopt": ("BlockOptDiscretizer()", ["x"]),
    "khiops_discretizer": ("KhiopsDiscretizer()", ["x"]),
    "khiops_grouper": ("KhiopsGrouper()", ["category"]),
    "chaid_grouper": ("CHAIDGrouper()", ["category"]),
    "maxcut": ("MaxCutGrouper()", ["category"]),
    "tree": ("PartitionTreeClassifier(max_depth=5)", ["x", "category"]),
}


def _rss_gb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e9


def child(label):
    """Fit one estimator and emit its times and memory (runs in a subprocess)."""
    from scale_data import many_classes_numeric

    import partikit.discretizers as discretizers
    import partikit.groupers as groupers
    import partikit.tree as tree

    namespace = {**vars(discretizers), **vars(groupers), **vars(tree)}
    expression, columns = ESTIMATORS[label]
    X, y = many_classes_numeric()
    X = X[columns]
    eval(expression, namespace).fit(X.iloc[:2000], y[:2000])
    emit(event="ready", rss_before=_rss_gb())
    times = []
    for _ in range(3):
        start = time.perf_counter()
        estimator = eval(expression, namespace).fit(X, y)
        times.append(time.perf_counter() - start)
        emit(event="fit", seconds=times[-1])
        if times[0] >= TIME_TARGET:
            break
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e9
    emit(event="done", times=times, peak=peak, summary=_summary(estimator))


def _summary(estimator):
    if hasattr(estimator, "tree_"):
        return f"{estimator.get_n_leaves()} leaves"
    if hasattr(estimator, "n_bins_"):
        return f"{int(estimator.n_bins_[0])} intervals"
    return f"{len(estimator.groups_[0])} groups"


def measure(label):
    result = {}

    def on_event(kind, event):
        result[kind] = event
        return ("fit", TIMEOUT)

    command = [sys.executable, os.path.abspath(__file__), "--child", label]
    run_subprocess(command, on_event, result, mem_limit_gb=8)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=RESULTS)
    parser.add_argument("--child")
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    context = RunContext("perf/bench_many_classes.py", quick=False)
    digest = source_digest()
    busy0, own0 = cpu_seconds()
    wall0 = time.monotonic()
    rows = []
    for label, (expression, columns) in ESTIMATORS.items():
        progress(label)
        result = measure(label)
        done = result.get("done")
        if done is None:
            failure = result.get("error") or f"timed out ({result.get('timeout')})"
            rows.append([expression, ", ".join(columns), f"failed: {failure}"])
            rows[-1] += ["–"] * 3
            continue
        times = done["times"]
        timing = Timing(times[0], times if len(times) > 1 else [])
        met = timing.median <= TIME_TARGET and done["peak"] <= MEMORY_TARGET
        rows.append([
            expression,
            ", ".join(columns),
            timing.cell(),
            f"{done['peak']:.2f} (before: {result['ready']['rss_before']:.2f})",
            done["summary"],
            "met" if met else "**not met**",
        ])  # fmt: skip
    busy1, own1 = cpu_seconds()
    report = Report(NAME)
    report.add("## Many classes: 500 classes on 100,000 rows (bench_many_classes.py)")
    report.add()
    report.add(__doc__.split("\n\n")[1].replace("\n", " "))
    report.add()
    report.add(context)
    report.add(digest_line(digest, source_digest()))
    report.add(
        other_processes_line(busy1 - busy0, own1 - own0, time.monotonic() - wall0)
    )
    report.add()
    header = ["estimator", "columns", "fit s", "peak RSS GB", "result", "<= 5 s, 1 GB"]
    report.add(table(header, rows))
    if args.output:
        add_earlier_runs(report, args.output)
    finish(report, args.output)


if __name__ == "__main__":
    main()
