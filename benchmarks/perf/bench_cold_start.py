# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Cold start: ``import partikit`` and the first fit with an empty numba cache.

Each public estimator runs in its own fresh subprocess with an empty
``NUMBA_CACHE_DIR`` on 500 rows of small synthetic data (``partikit.datasets``):

* import: ``import partikit`` on top of ``import numpy, pandas, scipy, sklearn,
  numba`` (issue target <= 0.3 s);
* first fit: the fit that compiles the kernels (target <= 3 s); second fit: the
  same fit again in the same process;
* warm process: a second subprocess with the cache the first one wrote; its first
  fit must load every kernel from the cache (zero compilations, counted through
  numba's ``numba:compile`` events and its per-dispatcher cache misses).

Every compilation of the cold process is recorded (kernel, argument types, seconds
of its own, nested compilations excluded): the tables list the kernels that cost
the most. ``python -m partikit demo`` is timed the same way (whole process, cold
and warm cache). The subprocesses run one at a time; every measurement is repeated
``--runs`` times (min and max reported).

A run replaces this script's section of ``RESULTS.md``; the run the section held
is appended to ``benchmarks/results/<its date>-bench_cold_start.md``, so that a
rerun loses none. To compare with a "before" (e.g. the starting commit), run the
script with ``PYTHONPATH`` pointing at its checkout first.

``--json FILE``: every measurement, raw (each compilation with its argument types).

    python benchmarks/perf/bench_cold_start.py [--quick] [--runs N]
        [--json FILE] [--output FILE]
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(HERE))

NAME = "bench_cold_start"
N_SAMPLES = 500
RUNS, QUICK_RUNS = 2, 1
IMPORT_TARGET = 0.3  # seconds added by import partikit
FIT_TARGET = 3.0  # seconds of the first fit with an empty cache
TOP_KERNELS = 6  # costliest compilations listed per estimator
CHILD_TIMEOUT = 600  # seconds

#: label -> (estimator expression, data maker); evaluated in the child process.
ESTIMATORS = {
    "KhiopsGrouper": ("KhiopsGrouper()", "categorical"),
    "MODLGrouper": ("MODLGrouper()", "categorical"),
    "CHAIDGrouper": ("CHAIDGrouper()", "categorical"),
    "MaxCutGrouper chi2": ("MaxCutGrouper(weights='chi2')", "categorical"),
    "MaxCutGrouper squared_gini": (
        "MaxCutGrouper(weights='squared_gini')",
        "categorical",
    ),
    "AttributeAggregator greedy": ("AttributeAggregator(search='greedy')", "k_of_n"),
    "AttributeAggregator greedy + KhiopsGrouper": (
        "AttributeAggregator(search='greedy', grouper=KhiopsGrouper())",
        "k_of_n",
    ),
    "BlockOptDiscretizer": ("BlockOptDiscretizer()", "numeric"),
    "MDLPDiscretizer": ("MDLPDiscretizer()", "numeric"),
    "KhiopsDiscretizer": ("KhiopsDiscretizer()", "numeric"),
    "MODLDiscretizer": ("MODLDiscretizer()", "numeric"),
    "PartitionTreeClassifier": ("PartitionTreeClassifier()", "mixed"),
    # a continuous target (issue 33): moment tables, the F-test, squared error
    "CHAIDGrouper continuous": ("CHAIDGrouper()", "categorical continuous"),
    "MaxCutGrouper continuous": ("MaxCutGrouper()", "categorical continuous"),
    "BlockOptDiscretizer continuous": ("BlockOptDiscretizer()", "numeric continuous"),
    "PartitionTreeRegressor": ("PartitionTreeRegressor()", "mixed continuous"),
}


# ----------------------------------------------------------------------------------
# child: one estimator in a fresh process
# ----------------------------------------------------------------------------------


def _make_data(kind):
    import numpy as np
    import pandas as pd

    if kind.endswith(" continuous"):
        # the same columns, and a continuous target that depends on the class
        # they were drawn for
        X, y = _make_data(kind.removesuffix(" continuous"))
        noise = np.random.default_rng(0).normal(size=len(y))
        return X, np.asarray(y, dtype=np.float64) + noise

    from partikit.datasets import (
        make_grouped_categorical,
        make_interval_target,
        make_k_of_n,
    )

    if kind == "categorical":
        X, y, _ = make_grouped_categorical(
            N_SAMPLES, n_categories=20, n_classes=3, n_noise_features=1, random_state=0
        )
        return X, y
    if kind == "k_of_n":
        X, y = make_k_of_n(N_SAMPLES, n_noise_features=1, random_state=0)[:2]
        return X, y
    if kind == "numeric":
        X, y = make_interval_target(
            N_SAMPLES, n_classes=3, n_noise_features=1, random_state=0
        )[:2]
        return X, y
    # mixed: the categorical columns beside the numeric ones, the categorical target
    Xc, y, _ = make_grouped_categorical(
        N_SAMPLES, n_categories=20, n_classes=3, n_noise_features=1, random_state=0
    )
    Xn = make_interval_target(N_SAMPLES, n_classes=3, random_state=0)[0]
    numeric = pd.DataFrame(Xn, columns=[f"x{j}" for j in range(Xn.shape[1])])
    return pd.concat([Xc, numeric.set_axis(Xc.index)], axis=1), y


def child(label):
    """Measure one estimator; print one JSON line."""
    t0 = time.perf_counter()
    import numba  # noqa: F401
    import numpy  # noqa: F401
    import pandas  # noqa: F401
    import scipy  # noqa: F401
    import sklearn  # noqa: F401

    t1, c1 = time.perf_counter(), time.process_time()
    import partikit

    t2, c2 = time.perf_counter(), time.process_time()
    import numba.core.event as ev
    from numba.core.registry import CPUDispatcher

    compiles = []
    stack = []

    class Recorder(ev.Listener):
        # The time of numba's own helpers (np.zeros, sum, ...) compiled while a
        # partikit kernel compiles is that kernel's; a nested partikit kernel's is not.
        def on_start(self, event):
            stack.append([time.perf_counter(), 0.0])

        def on_end(self, event):
            start, nested = stack.pop()
            total = time.perf_counter() - start
            func = event.data["dispatcher"].py_func
            if not func.__module__.startswith("partikit"):
                return
            if stack:
                stack[-1][1] += total
            compiles.append(
                {
                    "kernel": f"{func.__module__}.{func.__qualname__}",
                    "args": ", ".join(str(a) for a in event.data["args"]),
                    "own": total - nested,
                    "total": total,
                }
            )

    ev.register("numba:compile", Recorder())
    namespace = {name: getattr(partikit, name) for name in partikit.__all__}
    expression, kind = ESTIMATORS[label]
    X, y = _make_data(kind)
    t3, c3 = time.perf_counter(), time.process_time()
    eval(expression, namespace).fit(X, y)
    t4, c4 = time.perf_counter(), time.process_time()
    eval(expression, namespace).fit(X, y)
    t5 = time.perf_counter()
    misses = hits = 0
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("partikit"):
            continue
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher):
                misses += sum(obj._cache_misses.values())
                hits += sum(obj._cache_hits.values())
    print(
        json.dumps(
            {
                "deps_import": t1 - t0,
                "import": t2 - t1,
                "import_cpu": c2 - c1,
                "first_fit": t4 - t3,
                "first_fit_cpu": c4 - c3,
                "second_fit": t5 - t4,
                "compiles": compiles,
                "cache_hits": hits,
                "cache_misses": misses,
            }
        )
    )


# ----------------------------------------------------------------------------------
# parent
# ----------------------------------------------------------------------------------


def _run(args, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    t0 = time.perf_counter()
    out = subprocess.run(
        args, env=env, capture_output=True, text=True, timeout=CHILD_TIMEOUT
    )
    wall = time.perf_counter() - t0
    if out.returncode != 0:
        raise RuntimeError(f"{args} failed:\n{out.stderr[-2000:]}")
    return out.stdout, wall


def measure_estimator(label):
    """(cold, warm) child results, each process with the same fresh cache dir."""
    cache_dir = tempfile.mkdtemp(prefix="partikit-cold-")
    try:
        command = [sys.executable, os.path.abspath(__file__), "--child", label]
        cold = json.loads(_run(command, cache_dir)[0].splitlines()[-1])
        warm = json.loads(_run(command, cache_dir)[0].splitlines()[-1])
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    return cold, warm


def _attempt(measure, *args):
    """The measurement, or the last line of its error (a failure is reported)."""
    try:
        return measure(*args)
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as exc:
        lines = str(exc).strip().splitlines()
        return lines[-1] if lines else type(exc).__name__


def measure_demo():
    cache_dir = tempfile.mkdtemp(prefix="partikit-cold-")
    try:
        command = [sys.executable, "-m", "partikit", "demo"]
        cold = _run(command, cache_dir)[1]
        warm = _run(command, cache_dir)[1]
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    return cold, warm


def _span(values, digits=2):
    lo, hi = min(values), max(values)
    if f"{lo:.{digits}f}" == f"{hi:.{digits}f}":
        return f"{lo:.{digits}f}"
    return f"{lo:.{digits}f}–{hi:.{digits}f}"


def _met(values, target):
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return "n/a"
    return "yes" if max(values) <= target else "**no**"


def main():
    from _common import (
        Report,
        RunContext,
        finish,
        parse_args,
        progress,
        script_path,
        table,
    )

    if len(sys.argv) == 3 and sys.argv[1] == "--child":
        child(sys.argv[2])
        return
    runs = QUICK_RUNS if "--quick" in sys.argv else RUNS
    dump = None
    for option in ("--runs", "--json"):
        if option in sys.argv:
            i = sys.argv.index(option)
            value = sys.argv[i + 1]
            del sys.argv[i : i + 2]
            if option == "--runs":
                runs = int(value)
            else:
                dump = value
    args = parse_args(__doc__.splitlines()[0])
    context = RunContext(os.path.basename(__file__), args.quick)

    results = {label: [] for label in ESTIMATORS}
    demo = []
    for run in range(runs):
        for label in ESTIMATORS:
            progress(f"run {run + 1}/{runs}: {label}")
            results[label].append(_attempt(measure_estimator, label))
        progress(f"run {run + 1}/{runs}: python -m partikit demo")
        demo.append(_attempt(measure_demo))

    if dump is not None:
        with open(dump, "w") as f:
            json.dump({"estimators": results, "demo": demo}, f)
    context.stop()
    report = Report(NAME)
    report.add(
        f"## Cold start: import and first fit with an empty numba cache ({script_path(NAME)})"
    )
    report.add()
    report.header(context)
    report.add(context.usage_lines("these processes'"))
    report.add(
        f"* {N_SAMPLES} rows of `partikit.datasets` data (categorical: "
        "`make_grouped_categorical`, 20 categories + 1 noise column, 3 classes; "
        "numeric: `make_interval_target`, 3 classes + 1 noise column; aggregator: "
        "`make_k_of_n` + 1 noise column; tree: the categorical and numeric columns "
        "together). Each cell: min–max over "
        f"{runs} run(s), each run a fresh process with an empty `NUMBA_CACHE_DIR`, "
        'then a second fresh process on the cache the first wrote ("warm process"). '
        '"its CPU s": the CPU time of the import or of the cold first fit (`time.process_time`), less '
        "sensitive than wall time to other processes sharing the cores; compilation "
        "is single-threaded."
    )
    report.add()
    rows = []
    all_imports, all_import_cpu, all_first, all_first_cpu, all_warm = [], [], [], [], []
    for label, attempts in results.items():
        pairs = [a for a in attempts if not isinstance(a, str)]
        if not pairs:
            rows.append([label, f"failed: {attempts[0]}"] + [""] * 9)
            continue
        imports = [cold["import"] for cold, _ in pairs]
        import_cpu = [cold.get("import_cpu", math.nan) for cold, _ in pairs]
        deps = [cold["deps_import"] for cold, _ in pairs]
        first = [cold["first_fit"] for cold, _ in pairs]
        first_cpu = [cold["first_fit_cpu"] for cold, _ in pairs]
        second = [cold["second_fit"] for cold, _ in pairs]
        warm_first = [warm["first_fit"] for _, warm in pairs]
        n_compiled = [len(cold["compiles"]) for cold, _ in pairs]
        recompiled = [len(warm["compiles"]) for _, warm in pairs]
        all_imports += imports
        all_import_cpu += import_cpu
        all_first += first
        all_first_cpu += first_cpu
        all_warm += recompiled
        rows.append(
            [
                label,
                _span(deps),
                _span(imports),
                _span(import_cpu),
                _span(first),
                _span(first_cpu),
                _span(second, 3),
                _span(warm_first, 3),
                _span(n_compiled, 0),
                _span(recompiled, 0),
            ]
        )
    report.add(
        table(
            [
                "estimator",
                "import deps s",
                "import partikit s",
                "its CPU s",
                "first fit s (cold)",
                "its CPU s",
                "second fit s",
                "first fit s, warm process",
                "compilations (cold)",
                "compilations (warm process)",
            ],
            rows,
        )
    )
    report.add()
    demo_ok = [d for d in demo if not isinstance(d, str)]
    if demo_ok:
        report.add(
            "`python -m partikit demo`, whole process: cold cache "
            f"{_span([c for c, _ in demo_ok])} s, warm cache "
            f"{_span([w for _, w in demo_ok])} s."
        )
    else:
        report.add(f"`python -m partikit demo` failed: {demo[0]}")
    report.add()
    report.add(
        table(
            ["target", "measured (max): wall", "CPU", "met (wall)", "met (CPU)"],
            [
                [
                    f"import partikit <= {IMPORT_TARGET} s",
                    f"{max(all_imports, default=math.nan):.2f} s",
                    f"{max(all_import_cpu, default=math.nan):.2f} s",
                    _met(all_imports, IMPORT_TARGET),
                    _met(all_import_cpu, IMPORT_TARGET),
                ],
                [
                    f"every first fit, empty cache <= {FIT_TARGET} s",
                    f"{max(all_first, default=math.nan):.2f} s",
                    f"{max(all_first_cpu, default=math.nan):.2f} s",
                    _met(all_first, FIT_TARGET),
                    _met(all_first_cpu, FIT_TARGET),
                ],
                [
                    "no compilation in a warm process",
                    f"{max(all_warm, default=0)} compilation(s)",
                    "",
                    "yes" if max(all_warm, default=0) == 0 else "**no**",
                    "",
                ],
            ],
        )
    )
    report.add()
    report.add(
        "Costliest compilations of the first cold run, per estimator (own seconds: "
        "nested compilations of called kernels excluded; a kernel listed twice was "
        "specialised for two argument-type tuples):"
    )
    report.add()
    rows = []
    for label, attempts in results.items():
        pairs = [a for a in attempts if not isinstance(a, str)]
        if not pairs:
            continue
        compiles = sorted(pairs[0][0]["compiles"], key=lambda c: -c["own"])
        total = sum(c["own"] for c in compiles)
        listed = "; ".join(
            f"`{c['kernel'].removeprefix('partikit.')}` {c['own']:.2f}"
            for c in compiles[:TOP_KERNELS]
        )
        rows.append([label, len(compiles), f"{total:.2f}", listed])
    report.add(table(["estimator", "compilations", "compile s", "costliest (s)"], rows))
    finish(report, args.output, keep_history=True)


if __name__ == "__main__":
    main()
