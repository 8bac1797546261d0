# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Every fit near the one-pass limit (issue 17, part 3): warm fit and transform vs one pass.

Workloads (``scale_data``): ``one_pass_categorical`` (1,000,000 rows x 1,000
categories x 10 classes; integer and string categories) and ``one_pass_numeric``
(1,000,000 distinct floats, 8 hidden intervals, 10 classes). Baselines, the least
any fit must do, timed in the same process as the fits they are compared with:

* categorical: ``codes, uniques = pd.factorize(col)`` then
  ``np.bincount(codes * 10 + y)``;
* numeric: ``uniques, inverse = np.unique(x, return_inverse=True)`` then
  ``np.bincount(inverse * 10 + y)``.

Estimators: ``MODLGrouper()``, ``KhiopsGrouper()``, ``CHAIDGrouper()``, ``MaxCutGrouper()`` (chi2),
``MaxCutGrouper(weights="squared_gini")``, ``AttributeAggregator`` (two integer
columns whose combinations are the 1,000 categories, grouped by ``KhiopsGrouper``);
``BlockOptDiscretizer()``, ``BlockOptDiscretizer(exact_limit=256)``,
``MDLPDiscretizer()``, ``KhiopsDiscretizer()``, ``MODLDiscretizer()``. Each (estimator, workload) runs in
its own subprocess: a warm-up fit on small data of the same kind, then fits and
baselines alternate (median of each, 9 rounds, or the first fit alone when it
took > 5 s) and transforms likewise; a fit slower than ``--timeout`` s is killed
and reported as such. Peak memory of one extra fit: ``tracemalloc`` (numpy
buffers, Python objects, pandas' hash tables; not numba's own allocations) and
the growth of ``ru_maxrss``, against the input column plus the (values x classes)
float64 table.

Targets (issue 17): grouper fit <= 1.5x and discretizer fit <= 3x their baseline,
every transform <= 1x the baseline, fit peak memory <= 2x column + table.

    python benchmarks/perf/bench_one_pass.py [--quick] [--estimators a,b]
        [--workloads int,str,numeric] [--timeout 60] [--profile] [--label before]

``--profile`` adds a cProfile breakdown of the warm fits (where the time goes:
validation, pandas and numpy conversions, partikit's Python and the numba kernels
it calls). ``--list`` prints the names.

A full run (or one given ``--output``) replaces this script's section of the
output file, whatever its label; the run the section held is appended to
``results/<its date>-bench_one_pass.md`` beside that file.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    RESULTS,
    Report,
    RunContext,
    dump_raw,
    emit,
    finish,
    first_line,
    fmt_s,
    progress,
    run_subprocess,
    script_path,
    table,
)
from _harness import verdict  # noqa: E402

NAME = "bench_one_pass"
N_CLASSES = 10
ROUNDS = 9
SINGLE_IF_SLOWER = 5.0
GROUPER_TARGET = 1.5
DISCRETIZER_TARGET = 3.0
TRANSFORM_TARGET = 1.0
MEMORY_TARGET = 2.0

GROUPERS = {
    "modl_grouper": "MODLGrouper()",
    "khiops_grouper": "KhiopsGrouper()",
    "chaid_grouper": "CHAIDGrouper()",
    "maxcut_chi2": "MaxCutGrouper()",
    "maxcut_squared_gini": 'MaxCutGrouper(weights="squared_gini")',
    "aggregator": 'AttributeAggregator([["a", "b"]], grouper=KhiopsGrouper(), '
    "keep_original=False)",
}
DISCRETIZERS = {
    "blockopt": "BlockOptDiscretizer()",
    "blockopt_256": "BlockOptDiscretizer(exact_limit=256)",
    "mdlp": "MDLPDiscretizer()",
    "khiops_discretizer": "KhiopsDiscretizer()",
    "modl_discretizer": "MODLDiscretizer()",
}
WORKLOADS = ("int", "str", "numeric")


def configurations(names, workloads):
    """(estimator, workload) pairs to run, in report order."""
    out = []
    for workload in workloads:
        pool = DISCRETIZERS if workload == "numeric" else GROUPERS
        for name in pool:
            if names and name not in names:
                continue
            if name == "aggregator" and workload != "int":
                continue  # two integer columns: one workload is enough
            out.append((name, workload))
    return out


# ----------------------------------------------------------------------------------
# child
# ----------------------------------------------------------------------------------


def _estimator(name):
    from partikit.discretizers import (
        BlockOptDiscretizer,
        KhiopsDiscretizer,
        MDLPDiscretizer,
        MODLDiscretizer,
    )
    from partikit.groupers import (
        AttributeAggregator,
        CHAIDGrouper,
        KhiopsGrouper,
        MaxCutGrouper,
        MODLGrouper,
    )

    return {
        "modl_grouper": MODLGrouper,
        "khiops_grouper": KhiopsGrouper,
        "chaid_grouper": CHAIDGrouper,
        "maxcut_chi2": MaxCutGrouper,
        "maxcut_squared_gini": lambda: MaxCutGrouper(weights="squared_gini"),
        "aggregator": lambda: AttributeAggregator(
            [["a", "b"]], grouper=KhiopsGrouper(), keep_original=False
        ),
        "blockopt": BlockOptDiscretizer,
        "blockopt_256": lambda: BlockOptDiscretizer(exact_limit=256),
        "mdlp": MDLPDiscretizer,
        "khiops_discretizer": KhiopsDiscretizer,
        "modl_discretizer": MODLDiscretizer,
    }[name]


def _workload(name, workload, n_samples):
    """(X, y, baseline function, column + table bytes, what they are)."""
    import pandas as pd
    from scale_data import cardinality_data, one_pass_numeric

    if workload == "numeric":
        X, y, _ = one_pass_numeric(n_samples=n_samples)
        x = X["x"].to_numpy()

        def baseline():
            uniques, inverse = np.unique(x, return_inverse=True)
            return np.bincount(inverse * N_CLASSES + y)

        n_values = len(np.unique(x))
        column = x.nbytes
        what = "float64 column"
    else:
        n_categories = 1000 if n_samples >= 100_000 else 100
        X, y, _ = cardinality_data(n_categories, n_samples=n_samples, dtype=workload)
        col = X["category"]
        if name == "aggregator":
            k = col.to_numpy()
            X = pd.DataFrame({"a": k // 40, "b": k % 40})

        def baseline():
            codes, uniques = pd.factorize(col)
            return np.bincount(codes * N_CLASSES + y)

        n_values = n_categories
        if workload == "int":
            column = col.to_numpy().nbytes * (2 if name == "aggregator" else 1)
            what = "int64 column" + ("s a, b" if name == "aggregator" else "")
        else:
            uniques = pd.unique(col.to_numpy())
            column = col.to_numpy().nbytes + sum(sys.getsizeof(u) for u in uniques)
            what = "object column (pointers + its distinct strings)"
    table_bytes = n_values * N_CLASSES * 8
    return X, y, baseline, column + table_bytes, f"{what} + float64 table"


def _profile(fit, rounds=3):
    """Per-category and top-function cProfile times (seconds per fit)."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.enable()
    for _ in range(rounds):
        fit()
    prof.disable()
    stats = pstats.Stats(prof)
    categories = {}
    functions, cumulative = [], []
    total = sum(tt for (_cc, _nc, tt, _ct, _callers) in stats.stats.values())
    for (filename, line, func), (_cc, _nc, tt, ct, _callers) in stats.stats.items():
        kind = _category(filename, func)
        categories[kind] = categories.get(kind, 0.0) + tt / rounds
        short = os.path.basename(filename)
        for marker in ("site-packages/", "/partikit/"):
            if marker in filename:
                short = filename.split(marker, 1)[1]
                if marker == "/partikit/":
                    short = "partikit/" + short
                break
        name = f"{short}:{func}" if line else func
        functions.append((tt / rounds, name))
        # the callees that make up a fit: partikit's and scikit-learn's functions
        # below the estimator's own fit wrappers
        if ("/partikit/" in filename or "/sklearn/" in filename) and ct < 0.9 * total:
            cumulative.append((ct / rounds, name))
    functions.sort(reverse=True)
    cumulative.sort(reverse=True)
    return categories, functions[:8], cumulative[:8]


def _category(filename, func):
    text = f"{filename}:{func}"
    if "validation" in text or "_param_validation" in text or "check_" in func:
        return "validation"
    if "/partikit/" in filename:
        return "partikit Python + numba kernels it calls"
    if "/pandas/" in filename or "pandas" in func:
        return "pandas (conversion, factorize)"
    if "/numpy/" in filename or "numpy" in func or func.startswith("<method '"):
        return "numpy (copies, conversions, reductions)"
    if "/sklearn/" in filename:
        return "scikit-learn (other)"
    return "other (interpreter, builtins)"


def child(name, workload, n_samples, profile):
    import warnings

    warnings.simplefilter("ignore")
    make = _estimator(name)
    # warm-up on small data of the same kind: numba kernels compiled or loaded
    Xw, yw, _, _, _ = _workload(name, workload, 2000)
    warm = time.perf_counter()
    try:
        make().fit(Xw, yw).transform(Xw)
    except Exception as exc:  # noqa: BLE001 - the real fit reports it again
        emit(event="warmup_error", error=first_line(exc))
    warm = time.perf_counter() - warm
    X, y, baseline, reference_bytes, reference_what = _workload(
        name, workload, n_samples
    )
    baseline()
    emit(event="ready", warmup=warm)
    fits, bases, model = [], [], None
    try:
        for _ in range(ROUNDS):
            model = None
            gc.collect()
            t0 = time.perf_counter()
            baseline()
            bases.append(time.perf_counter() - t0)
            gc.collect()
            t0 = time.perf_counter()
            model = make().fit(X, y)
            fits.append(time.perf_counter() - t0)
            emit(event="fit", seconds=fits[-1], baseline=bases[-1])
            if fits[0] > SINGLE_IF_SLOWER:
                break
        stats = getattr(model, "statistics_", None)
        if stats:
            emit(
                event="stats",
                stats={
                    k: v
                    for k, v in dict(stats[0]).items()
                    if isinstance(v, (bool, int, float, str)) or v is None
                },
            )
        transforms, tbases = [], []
        for _ in range(ROUNDS):
            gc.collect()
            t0 = time.perf_counter()
            baseline()
            tbases.append(time.perf_counter() - t0)
            gc.collect()
            t0 = time.perf_counter()
            model.transform(X)
            transforms.append(time.perf_counter() - t0)
        emit(event="transform", seconds=transforms, baseline=tbases)
        # memory: one more fit, untimed
        gc.collect()
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        tracemalloc.start()
        base, _ = tracemalloc.get_traced_memory()
        make().fit(X, y)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        emit(
            event="memory",
            traced=peak - base,
            maxrss_growth=rss1 - rss0,
            reference=reference_bytes,
            reference_what=reference_what,
        )
        if profile:
            categories, functions, cumulative = _profile(lambda: make().fit(X, y))
            emit(
                event="profile",
                categories=categories,
                functions=functions,
                cumulative=cumulative,
            )
    except MemoryError as exc:
        emit(event="error", kind="MemoryError", error=first_line(exc))
    except Exception as exc:  # noqa: BLE001 - reported, never faked
        emit(event="error", kind=type(exc).__name__, error=first_line(exc))
    emit(event="done")


# ----------------------------------------------------------------------------------
# parent
# ----------------------------------------------------------------------------------


def run_one(name, workload, n_samples, timeout, profile, mem_limit_gb):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name, workload,
           str(n_samples), "1" if profile else "0"]  # fmt: skip
    result = {"name": name, "workload": workload, "fits": [], "bases": []}

    def on_event(kind, event):
        if kind == "fit":
            result["fits"].append(event["seconds"])
            result["bases"].append(event["baseline"])
        elif kind in ("transform", "memory", "profile", "stats"):
            result[kind] = event
        elif kind == "warmup_error":
            result["warmup_error"] = event["error"]
        elif kind == "error":
            result["error"], result["error_kind"] = event["error"], event["kind"]
        elif kind == "ready":
            result["warmup"] = event["warmup"]
        if kind == "warmup_error":
            return None
        return {"ready": "fit", "fit": "fit"}.get(kind, "after " + kind), timeout

    run_subprocess(cmd, on_event, result, mem_limit_gb=mem_limit_gb)
    return result


def median(values):
    return statistics.median(values) if values else None


def cell(values):
    if not values:
        return "–"
    if len(values) == 1:
        return f"{fmt_s(values[0])} (1 run)"
    return (
        f"{fmt_s(median(values))} ({fmt_s(min(values))}–{fmt_s(max(values))}, "
        f"n={len(values)})"
    )


def ratio_verdict(ratio, target):
    if ratio is None:
        return "–"
    return f"{ratio:.2f}x: " + verdict(ratio <= target)


def failure(r):
    if r.get("timeout") == "fit" and not r["fits"]:
        return f"> {r['timeout_s']:.0f} s (killed)"
    if r.get("timeout"):
        return f"timed out ({r['timeout']})"
    if r.get("error"):
        return (
            "MemoryError" if r.get("error_kind") == "MemoryError" else "error: "
        ) + ("" if r.get("error_kind") == "MemoryError" else r["error"][:100])
    return ""


WORKLOAD_TITLE = {
    "int": "one_pass_categorical, integer categories",
    "str": "one_pass_categorical, string categories",
    "numeric": "one_pass_numeric, distinct floats",
}


def preamble_text(n_samples):
    return "\n".join(
        [
            f"## Fits at the one-pass limit ({script_path(NAME)}, issue 17 part 3)",
            "",
            "Workloads: `benchmarks/perf/scale_data.one_pass_categorical(dtype)` "
            "(1,000,000 rows x 1,000 categories x 10 classes, int64 or strings; "
            "pandas 3 stores the strings as its `str` dtype, Arrow-backed when "
            "pyarrow is installed (see the versions line), which pyarrow's "
            "dictionary encoding factorizes about twice as fast as Python "
            "strings) and `one_pass_numeric()` (1,000,000 distinct floats, 8 hidden "
            "intervals, 10 classes). Baselines: `pd.factorize(col)` + "
            "`np.bincount(codes * 10 + y)`; `np.unique(x, return_inverse=True)` + "
            "`np.bincount(inverse * 10 + y)`. Each (estimator, workload) runs in its "
            "own subprocess after a warm-up fit + transform on 2,000 rows of the "
            "same kind (numba compile / cache load excluded); baseline and fit "
            f"alternate for {ROUNDS} rounds (or one round when the fit took > "
            f"{SINGLE_IF_SLOWER:.0f} s), likewise baseline and transform; times are "
            "`time.perf_counter` medians (min–max, n) and ratios are median / median "
            "of the same subprocess. The machine is shared (2 cores, other "
            "engineers' jobs): times are noisy, ratios less so. Memory: one more, "
            "untimed fit; tracemalloc peak (numpy buffers, Python objects, pandas' "
            "hash tables; numba's own allocations unseen) and the growth of the "
            "process's `ru_maxrss` during it (0 when the fit stays under the peak "
            "set before), against the input column(s) + the values x classes "
            "float64 table. `AttributeAggregator`: two int64 columns `a = k // 40`, "
            "`b = k % 40` whose 1,000 combinations are the categories `k`, grouped "
            "by `KhiopsGrouper`; its baseline is the one-column baseline on `k`.",
            "",
            f"Targets (issue 17): grouper fit <= {GROUPER_TARGET}x, discretizer fit "
            f"<= {DISCRETIZER_TARGET:.0f}x, transform <= {TRANSFORM_TARGET:.0f}x the "
            f"baseline; fit peak memory <= {MEMORY_TARGET:.0f}x column + table.",
        ]
    )


def build_report(results, args, context):
    report = Report(NAME)
    report.add(preamble_text(args.samples))
    report.add()
    report.add(f"### Run: {args.label}")
    report.add()
    report.header(context)
    report.add(
        f"* partikit imported from: `{context.partikit_path}`; {args.samples:,} rows; "
        f"timeout per fit {args.timeout:.0f} s."
    )
    report.add(context.usage_lines("this script's and its subprocesses'"))
    report.add()
    rows = []
    for r in results:
        target = DISCRETIZER_TARGET if r["workload"] == "numeric" else GROUPER_TARGET
        describe = {**GROUPERS, **DISCRETIZERS}[r["name"]]
        why = failure(r)
        fit_ratio = tr_ratio = None
        if r["fits"]:
            fit_ratio = median(r["fits"]) / median(r["bases"])
        tr = r.get("transform")
        if tr:
            tr_ratio = median(tr["seconds"]) / median(tr["baseline"])
        mem = r.get("memory")
        mem_cells = ["–", "–"]
        if mem:
            ratio = mem["traced"] / mem["reference"]
            mem_cells = [
                f"{mem['traced'] / 2**20:.1f} / {mem['reference'] / 2**20:.1f} MB "
                f"(ru_maxrss +{mem['maxrss_growth'] / 2**20:.0f} MB)",
                ratio_verdict(ratio, MEMORY_TARGET),
            ]
        rows.append(
            [
                WORKLOAD_TITLE[r["workload"]].split(", ")[1],
                describe,
                cell(r["bases"]),
                why if why and not r["fits"] else cell(r["fits"]),
                ratio_verdict(fit_ratio, target)
                + (f" ({why})" if why and r["fits"] else ""),
                cell(tr["seconds"]) if tr else "–",
                ratio_verdict(tr_ratio, TRANSFORM_TARGET),
                *mem_cells,
            ]
        )
    report.add(
        table(
            [
                "workload",
                "estimator",
                "baseline s",
                "fit s",
                "fit / baseline",
                "transform s",
                "transform / baseline",
                "fit peak traced / (column + table)",
                "memory ratio",
            ],
            rows,
        )
    )
    report.add()
    errors = [
        f"{r['name']} {r['workload']}: {r['error']}" for r in results if r.get("error")
    ]
    if errors:
        report.add("Errors (first line): " + "; ".join(errors) + ".")
        report.add()
    recorded = [
        f"{r['name']} {r['workload']}: "
        + ", ".join(
            f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in r["stats"]["stats"].items()
        )
        for r in results
        if r.get("stats") and r["workload"] == "numeric"
    ]
    if recorded:
        report.add(
            "Discretizers' `statistics_[0]` (scalars): " + "; ".join(recorded) + "."
        )
        report.add()
    profiled = [r for r in results if r.get("profile")]
    if profiled:
        report.add("#### Where the warm fit's time goes (cProfile, 3 fits, ms per fit)")
        report.add()
        report.add(
            "Own time (tottime) summed per kind of code. numba kernels are not seen "
            "by cProfile: their time is in the own time of the partikit function "
            "that calls them. cProfile adds overhead per Python call, so the "
            "Python-heavy parts are inflated."
        )
        report.add()
        kinds = sorted({k for r in profiled for k in r["profile"]["categories"]})
        rows = []
        for r in profiled:
            cats = r["profile"]["categories"]
            total = sum(cats.values())
            top = "; ".join(
                f"`{f}` {t * 1000:.0f}" for t, f in r["profile"]["functions"][:5]
            )
            top += "<br>cumulative: " + "; ".join(
                f"`{f}` {t * 1000:.0f}" for t, f in r["profile"]["cumulative"][:6]
            )
            rows.append(
                [r["workload"], {**GROUPERS, **DISCRETIZERS}[r["name"]]]
                + [
                    f"{cats.get(k, 0) * 1000:.0f} ({cats.get(k, 0) / total:.0%})"
                    for k in kinds
                ]
                + [top]
            )
        report.add(table(["workload", "estimator", *kinds, "top own times"], rows))
        report.add()
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 rows; "
                        "printed only unless --output")  # fmt: skip
    parser.add_argument("--output", default=None)
    parser.add_argument("--estimators", default=None, help="comma-separated "
                        "names (see --list); default all")  # fmt: skip
    parser.add_argument("--workloads", default="int,str,numeric")
    parser.add_argument("--samples", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--mem-limit-gb", type=float, default=8.0)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--label",
        default="current",
        help='name of the run, in its heading ("before" for the starting commit)',
    )
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, workload, n_samples, profile = args.child
        child(name, workload, int(n_samples), profile == "1")
        return
    if args.list:
        for name, text in {**GROUPERS, **DISCRETIZERS}.items():
            print(f"{name:20s} {text}")
        return
    if args.output is None and not args.quick:
        args.output = RESULTS
    args.samples = args.samples or (100_000 if args.quick else 1_000_000)
    names = args.estimators.split(",") if args.estimators else None
    if names:
        unknown = [n for n in names if n not in {**GROUPERS, **DISCRETIZERS}]
        if unknown:
            parser.error(f"unknown estimators {unknown}; see --list")
    import partikit

    context = RunContext(
        "perf/" + os.path.basename(__file__)
        + (f" --label {args.label}" if args.label != "current" else "")
        + (" --profile" if args.profile else ""),
        args.quick,
    )  # fmt: skip
    context.partikit_path = os.path.dirname(partikit.__file__)
    results = []
    for name, workload in configurations(names, args.workloads.split(",")):
        progress(f"{name} {workload}")
        r = run_one(
            name, workload, args.samples, args.timeout, args.profile, args.mem_limit_gb
        )
        r["timeout_s"] = args.timeout
        results.append(r)
        fr = median(r["fits"]) / median(r["bases"]) if r["fits"] else None
        progress(f"  -> fit {cell(r['fits'])} ratio {fr} {failure(r)}")
    report = build_report(results, args, context.stop())
    finish(report, args.output, keep_history=True)
    dump_raw(f"{NAME}_{args.label}", results)


if __name__ == "__main__":
    main()
