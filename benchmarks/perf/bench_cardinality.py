# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Any cardinality (issue 17, part 1): 1M rows x 10 classes, 1,000 to 1,000,000 categories.

Data: ``scale_data.cardinality_data(n_categories, dtype=...)`` (1,000,000 rows, 10
classes, 5 hidden groups of categories; at 1,000,000 categories every row has its
own), integer and string categories. Estimators: ``MODLGrouper()``, ``KhiopsGrouper()``,
``CHAIDGrouper()``, ``MaxCutGrouper(weights="chi2")``,
``MaxCutGrouper(weights="squared_gini")`` and ``PartitionTreeClassifier(max_depth=3,
categorical_split=s)`` for every categorical splitter ``s`` (the column as a pandas
``category``). Peer: Khiops (``khiops.sklearn.KhiopsEncoder``) on the string column.

Every (estimator, size, dtype) runs in its own fresh subprocess: warm-up fits on
small data of the same kind (numba compile / cache load excluded), then the fit is
timed (3 runs and the median when a fit takes < 5 s, else one run), the peak RSS is
read from ``getrusage(RUSAGE_SELF).ru_maxrss`` (with the RSS and the peak before the
fit), and the adjusted Rand index (ARI) of the categories' groups (a tree: their
leaves) against the hidden groups is computed over the categories present. A fit
that takes longer than ``--timeout`` seconds is killed and reported as "> T s"; a
``MemoryError`` is reported as such (the subprocess's address space is limited by
``--mem-limit-gb`` to protect the shared machine). A configuration that timed out or
ran out of memory is not re-run at larger sizes of the same dtype.

Targets (issue 17): fit <= 5 s, peak RSS <= 1.5 GB, faster than Khiops on the same
data.

    python benchmarks/perf/bench_cardinality.py [--quick] [--estimators a,b]
        [--sizes 1000,20000] [--dtypes int,str] [--timeout 60] [--label before]

``--list`` prints the estimator names. With ``PYTHONPATH`` pointing at another
checkout, the subprocesses measure that checkout's partikit.

A full run (or one given ``--output``) replaces this script's section of the
output file, whatever its label; the run the section held is appended to
``results/<its date>-bench_cardinality.md`` beside that file.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# the shared helpers (_common.py) live one folder up, the workloads here
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    RESULTS,
    Report,
    RunContext,
    dump_raw,
    emit,
    ensure_khiops_path,
    finish,
    first_line,
    fmt_s,
    progress,
    quiet_peer_warnings,
    run_subprocess,
    script_path,
    table,
)

NAME = "bench_cardinality"
N_SAMPLES = 1_000_000
SIZES = (1000, 20_000, 200_000, 1_000_000)
QUICK_SIZES = (1000, 20_000)
DTYPES = ("int", "str")
TARGET_SECONDS = 5.0
TARGET_GB = 1.5
REPEAT_BELOW = 5.0  # seconds: a faster first fit is repeated, the median reported
REPEATS = 3
GROUPERS = (
    "modl_grouper", "khiops_grouper", "chaid_grouper", "maxcut_chi2",
    "maxcut_squared_gini",
)  # fmt: skip
KHIOPS_PEER = "khiops_peer"
#: the categorical splitters of partikit.tree._splitters.SPLITTERS at 053e790;
#: the list is read from the installed partikit when it can be
DEFAULT_SPLITTERS = (
    "maxcut_chi2", "maxcut_squared_gini", "twoing", "exhaustive", "exact_two_class",
    "pc_ext", "largest_alone", "list_scheduling", "sliq_ext", "khiops", "chaid",
)  # fmt: skip


#: ``statistics_[0]`` keys of the groupers at 053e790: any other key is something a
#: later version records (e.g. how a large column was approximated) and is reported
BEFORE_KEYS = frozenset(
    "n_categories n_rare n_initial_groups min_frequency max_delta_chi2 chi2 dof "
    "log10_pvalue log10_bonferroni log10_adjusted_pvalue pvalue adjusted_pvalue "
    "significant predictor test n_resplits weights solver cut_weight total_weight "
    "certified_ratio greedy_cut_weight n_flips n_swaps gini entropy".split()
)


def splitter_names():
    try:
        from partikit.tree._splitters import SPLITTERS

        return tuple(SPLITTERS["categorical"])
    except Exception:  # noqa: BLE001 - an older checkout: the known list
        return DEFAULT_SPLITTERS


def estimator_names():
    return GROUPERS + tuple(f"tree_{s}" for s in splitter_names()) + (KHIOPS_PEER,)


def describe(name):
    """The constructor call that ``name`` stands for."""
    return {
        "modl_grouper": "MODLGrouper()",
        "khiops_grouper": "KhiopsGrouper()",
        "chaid_grouper": "CHAIDGrouper()",
        "maxcut_chi2": 'MaxCutGrouper(weights="chi2")',
        "maxcut_squared_gini": 'MaxCutGrouper(weights="squared_gini")',
        KHIOPS_PEER: "khiops KhiopsEncoder() (str column)",
    }.get(name) or (
        f'PartitionTreeClassifier(max_depth=3, categorical_split="{name[5:]}")'
    )


# ----------------------------------------------------------------------------------
# the child: one configuration in a fresh process
# ----------------------------------------------------------------------------------


def _rss_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) * 1024
    return 0


def _maxrss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _make(name):
    """(fit function of X, y, labels function of the fitted model and the probe)."""
    from partikit import PartitionTreeClassifier
    from partikit.groupers import (
        CHAIDGrouper,
        KhiopsGrouper,
        MaxCutGrouper,
        MODLGrouper,
    )

    if name in GROUPERS:
        make = {
            "modl_grouper": MODLGrouper,
            "khiops_grouper": KhiopsGrouper,
            "chaid_grouper": CHAIDGrouper,
            "maxcut_chi2": lambda: MaxCutGrouper(weights="chi2"),
            "maxcut_squared_gini": lambda: MaxCutGrouper(weights="squared_gini"),
        }[name]
        return (lambda X, y: make().fit(X, y)), None
    splitter = name[5:]

    def fit(X, y):
        return PartitionTreeClassifier(max_depth=3, categorical_split=splitter).fit(
            X, y
        )

    return fit, "tree"


def _keys_of(values, dtype):
    """Category values as their integer keys k (the str categories are "c<k>")."""
    values = np.asarray(values)
    if dtype == "int":
        return values.astype(np.int64)
    import pandas as pd

    return pd.Series(values.astype(object)).str.slice(1).astype(np.int64).to_numpy()


def _data(n_categories, dtype, n_samples, tree):
    from scale_data import cardinality_data

    X, y, hidden = cardinality_data(n_categories, n_samples=n_samples, dtype=dtype)
    if tree:  # the tree reads categorical columns from the dtype
        X = X.astype({"category": "category"})
    return X, y, hidden


def _partition(name, model, X, dtype, tree):
    """(keys of the categories present, their group or leaf, n groups, stats)."""
    import pandas as pd

    if tree:
        col = X["category"]
        cats = col.cat.categories[np.unique(col.cat.codes.to_numpy())]
        probe = pd.DataFrame(
            {"category": pd.Categorical(cats, categories=col.cat.categories)}
        )
        leaves = model.apply(probe)
        return (
            _keys_of(np.asarray(cats), dtype),
            np.asarray(leaves),
            int(model.get_n_leaves()),
            {"depth": int(model.get_depth())},
        )
    keys = _keys_of(model.categories_[0], dtype)
    groups = np.asarray(model.group_ids_[0])
    present = np.unique(_keys_of(pd.unique(X["category"].to_numpy()), dtype))
    label = np.full(int(max(keys.max(), present.max())) + 1, -1, dtype=np.int64)
    label[keys] = groups
    stats = {}
    for key, value in dict(model.statistics_[0]).items():
        if isinstance(value, (bool, int, float, str)) or value is None:
            stats[key] = value
    return present, label[present], int(model.n_groups_[0]), stats


def child(name, n_categories, dtype, n_samples, timeout):
    """Run one configuration; report events as JSON lines on stdout."""
    import warnings

    warnings.simplefilter("ignore")
    from sklearn.metrics import adjusted_rand_score

    t0 = time.perf_counter()
    if name == KHIOPS_PEER:
        ensure_khiops_path()
        quiet_peer_warnings()
        from bench_khiops_grouper import khiops_labels
        from khiops.sklearn import KhiopsEncoder

        def fit(X, y):
            return KhiopsEncoder().fit(X, y)

        tree = False
        dtype = "str"
    else:
        fit, tree = _make(name)
        tree = tree == "tree"
    # warm-up on small data of the same kind: numba kernels compiled or loaded
    warm = time.perf_counter()
    for k, n in ((50, 5000), (2000, 20_000), (2000, 2000)):
        Xw, yw, _ = _data(k, dtype, n, tree)
        try:
            fit(Xw, yw)
        except Exception as exc:  # noqa: BLE001 - the big fit reports it again
            emit(event="warmup_error", error=first_line(exc))
    warm = time.perf_counter() - warm
    X, y, hidden = _data(n_categories, dtype, n_samples, tree)
    import gc

    gc.collect()
    emit(
        event="ready",
        setup=time.perf_counter() - t0,
        warmup=warm,
        rss_before=_rss_bytes(),
        maxrss_before=_maxrss_bytes(),
        children_maxrss_before=resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        * 1024,
    )
    model = None
    times = []
    try:
        while True:
            model = None
            gc.collect()
            start = time.perf_counter()
            model = fit(X, y)
            times.append(time.perf_counter() - start)
            emit(event="fit", seconds=times[-1], maxrss=_maxrss_bytes())
            if times[0] >= REPEAT_BELOW or len(times) >= REPEATS:
                break
    except MemoryError as exc:
        emit(event="error", kind="MemoryError", error=first_line(exc))
        return
    except Exception as exc:  # noqa: BLE001 - reported, never faked
        emit(event="error", kind=type(exc).__name__, error=first_line(exc))
        return
    done = {
        "maxrss": _maxrss_bytes(),
        "children_maxrss": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        * 1024,
    }
    try:
        if name == KHIOPS_PEER:
            cats = np.unique(X["category"].to_numpy().astype(str))
            if hasattr(model, "model_report_"):
                n_groups, labels, level = khiops_labels(model, cats)
            else:  # no informative variable: Khiops keeps none, i.e. one group
                n_groups, labels, level = 1, np.zeros(len(cats), dtype=int), 0.0
            present = _keys_of(cats, "str")
            done["stats"] = {"level": level}
        else:
            present, labels, n_groups, done["stats"] = _partition(
                name, model, X, dtype, tree
            )
        done["n_groups"] = n_groups
        done["n_present"] = len(present)
        done["ari"] = float(adjusted_rand_score(hidden[present], labels))
    except Exception as exc:  # noqa: BLE001
        done["ari_error"] = first_line(exc)
    emit(event="done", **done)


# ----------------------------------------------------------------------------------
# the parent: one subprocess per configuration, with a time limit per fit
# ----------------------------------------------------------------------------------


def run_config(name, n_categories, dtype, n_samples, timeout, mem_limit_gb):
    """Run one configuration in a fresh subprocess; returns its result dict."""
    cmd = [
        sys.executable,
        os.path.abspath(__file__),
        "--child",
        name,
        str(n_categories),
        dtype,
        str(n_samples),
        str(timeout),
    ]

    result = {"name": name, "n_categories": n_categories, "dtype": dtype, "fits": []}

    def on_event(kind, event):
        if kind == "ready":
            result.update(event)
            return "fit", timeout
        if kind == "fit":
            result["fits"].append(event["seconds"])
            result["maxrss_fit"] = event["maxrss"]
            return "after fit", timeout + 120
        if kind == "warmup_error":
            result.setdefault("warmup_errors", []).append(event["error"])
        elif kind == "error":
            result["error"] = event["error"]
            result["error_kind"] = event["kind"]
        elif kind == "done":
            result.update(event)
            result["done"] = True
        return None

    run_subprocess(
        cmd,
        on_event,
        result,
        mem_limit_gb=None if name == KHIOPS_PEER else mem_limit_gb,
        # a run that measured its partition counts even if it died afterwards
        complete=lambda r: "done" in r or "n_groups" in r or "ari_error" in r,
    )
    return result


# ----------------------------------------------------------------------------------
# report
# ----------------------------------------------------------------------------------


def fit_seconds(r):
    return statistics.median(r["fits"]) if r["fits"] else None


def failed(r):
    """Why a configuration has no fit time ("" when it has one)."""
    if r.get("skipped"):
        return r["skipped"]
    if r.get("timeout") == "fit":
        return f"> {r['timeout_s']:.0f} s"
    if r.get("timeout"):
        return f"timed out in {r['timeout']}"
    if r.get("error_kind") == "MemoryError":
        return "MemoryError"
    if r.get("error"):
        return "error: " + r["error"][:60]
    return ""


def time_cell(r):
    why = failed(r)
    if why:
        return why
    fits = r["fits"]
    if len(fits) == 1:
        return f"{fmt_s(fits[0])} (1 run)"
    return f"{fmt_s(statistics.median(fits))} ({fmt_s(min(fits))}–{fmt_s(max(fits))}, n={len(fits)})"


def gb(n_bytes):
    return n_bytes / 2**30


def rss_cell(r):
    if "maxrss_fit" not in r and "maxrss" not in r:
        return "–"
    peak = r.get("maxrss", r.get("maxrss_fit"))
    text = f"{gb(peak):.2f} (before: {gb(r['rss_before']):.2f})"
    if peak <= r["maxrss_before"]:
        text += "*"
    return text


def preamble_text():
    lines = [
        f"## Any cardinality: 1M rows x 10 classes, 1,000 to 1,000,000 categories "
        f"({script_path(NAME)}, issue 17 part 1)",
        "",
        "Data: `benchmarks/perf/scale_data.cardinality_data(n_categories, "
        'dtype="int" | "str")`: 1,000,000 rows, 10 classes, categories in 5 hidden '
        "groups (at 1,000,000 categories every row has its own). Each (estimator, "
        "size, dtype) runs in its own fresh subprocess: three warm-up fits on small "
        "data of the same kind first (numba compile or cache load excluded), then "
        f"the fit, timed by `time.perf_counter`: the median of {REPEATS} fits when "
        f'the first took < {REPEAT_BELOW:.0f} s, else that one fit ("1 run"). '
        "Peak RSS: `getrusage(RUSAGE_SELF).ru_maxrss` of the subprocess after the "
        "fits, in GiB, with its RSS just before the first fit (data, imports, "
        "warm-ups) in brackets; `*` = the fit did not raise the peak set before it. "
        "ARI: adjusted Rand index between the categories' groups (a tree: the leaf "
        "each category reaches) and the hidden groups, over the categories present "
        "(a 2-group max-cut cannot exceed about 0.3 against 5 groups; reported "
        "anyway). Trees get the column as a pandas `category`. Khiops "
        "(`khiops.sklearn.KhiopsEncoder()`, the binary in a subprocess, all cores) "
        "always gets the string column; its RSS is not measured (another process). "
        "A configuration that timed out, ran out of memory or raised is not re-run at the "
        "larger sizes of the same dtype. The machine is shared (2 cores, other "
        "engineers' jobs): times are noisy.",
        "",
        f"Targets (issue 17): fit <= {TARGET_SECONDS:.0f} s, peak RSS <= "
        f"{TARGET_GB} GB, faster than Khiops on the same data.",
    ]
    return "\n".join(lines)


def build_report(results, args, context):
    report = Report(NAME)
    report.add(preamble_text())
    report.add()
    report.add(f"### Run: {args.label}")
    report.add()
    report.header(context)
    report.add(
        f"* partikit imported from: `{context.partikit_path}`; timeout per fit "
        f"{args.timeout:.0f} s; subprocess address space limited to "
        f"{args.mem_limit_gb:g} GiB (not Khiops)."
    )
    report.add(context.usage_lines("this script's and its subprocesses'"))
    report.add()
    sizes = sorted({r["n_categories"] for r in results})
    dtypes = [d for d in DTYPES if d in args.dtypes.split(",")]
    by = {(r["name"], r["n_categories"], r["dtype"]): r for r in results}
    names = [n for n in estimator_names() if any(r["name"] == n for r in results)]
    khiops_time = {}
    for s in sizes:
        r = by.get((KHIOPS_PEER, s, "str"))
        if r is not None and r["fits"]:
            khiops_time[s] = fit_seconds(r)
    reused = {}
    for item in (args.khiops_seconds or "").split(","):
        if item and int(item.split("=")[0]) not in khiops_time:
            size, seconds = item.split("=")
            reused[int(size)] = khiops_time[int(size)] = float(seconds)
    if reused:
        report.add(
            "* Khiops not run here: its times are taken from an earlier run "
            "(`--khiops-seconds`): "
            + ", ".join(f"{s:,} categories {fmt_s(t)} s" for s, t in reused.items())
            + "."
        )
        report.add()

    for dtype in dtypes:
        report.add(f"#### {dtype} categories: fit time s, peak RSS GiB, groups, ARI")
        report.add()
        rows = []
        for name in names:
            for s in sizes:
                r = by.get((name, s, dtype))
                if r is None and name == KHIOPS_PEER:
                    r = by.get((name, s, "str"))
                if r is None:
                    continue
                secs = fit_seconds(r)
                kh = khiops_time.get(s)
                ratio = (
                    f"{secs / kh:.2f}x" if secs is not None and kh is not None else "–"
                )
                verdict = []
                raised = r.get("error_kind") not in (None, "MemoryError", "crash")
                if raised or "raised" in r.get("skipped", ""):
                    verdict.append("n/a (raised)")
                elif secs is None:
                    verdict.append("time **not met**")
                else:
                    verdict.append(
                        "time met" if secs <= TARGET_SECONDS else "time **not met**"
                    )
                if name != KHIOPS_PEER and verdict != ["n/a (raised)"]:
                    peak = r.get("maxrss", r.get("maxrss_fit"))
                    if peak is None:
                        verdict.append(
                            "memory **not met**"
                            if r.get("error_kind") == "MemoryError"
                            else "memory –"
                        )
                    else:
                        verdict.append(
                            "memory met"
                            if gb(peak) <= TARGET_GB
                            else "memory **not met**"
                        )
                    if kh is not None:
                        verdict.append(
                            "vs Khiops met"
                            if secs is not None and secs < kh
                            else "vs Khiops **not met**"
                        )
                    else:
                        verdict.append("vs Khiops ?")
                ari = "–"
                if "ari" in r:
                    ari = f"{r['ari']:.3f}"
                elif "ari_error" in r:
                    ari = "error: " + r["ari_error"][:60]
                rows.append(
                    [
                        describe(name),
                        f"{s:,}",
                        time_cell(r),
                        rss_cell(r) if name != KHIOPS_PEER else "–",
                        str(r.get("n_groups", "–")),
                        ari,
                        ratio,
                        ", ".join(verdict),
                    ]
                )
        report.add(
            table(
                [
                    "estimator",
                    "categories",
                    "fit s",
                    "peak RSS GiB (before fit)",
                    "groups / leaves",
                    "ARI",
                    "time / Khiops",
                    "targets",
                ],
                rows,
            )
        )
        report.add()
    notes = []
    for r in results:
        if r.get("warmup_errors") and not failed(r):
            notes.append(
                f"{describe(r['name'])} {r['dtype']}: warm-up raised "
                f"{r['warmup_errors'][0][:100]}"
            )
        stats = r.get("stats") or {}
        if r["name"] == "khiops_grouper" and "n_rare" in stats:
            notes.append(
                f"KhiopsGrouper {r['dtype']} {r['n_categories']:,}: n_rare="
                f"{stats['n_rare']}, min_frequency={stats.get('min_frequency', '?'):.4g}"
                if isinstance(stats.get("min_frequency"), float)
                else f"KhiopsGrouper {r['dtype']} {r['n_categories']:,}: "
                f"n_rare={stats['n_rare']}"
            )
    recorded = []
    for r in results:
        stats = r.get("stats") or {}
        new = {k: v for k, v in stats.items() if k not in BEFORE_KEYS}
        if r["name"] in GROUPERS and new:
            recorded.append(
                f"{describe(r['name'])} {r['dtype']} {r['n_categories']:,}: "
                + ", ".join(
                    f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                    for k, v in new.items()
                )
            )
    if recorded:
        report.add(
            "Recorded in `statistics_[0]` beyond the keys of 053e790: "
            + "; ".join(recorded)
            + "."
        )
        report.add()
    errors = sorted(
        {
            f"{describe(r['name'])}: {r['error'][:200]}"
            for r in results
            if r.get("error") and r.get("error_kind") != "MemoryError"
        }
    )
    if errors:
        report.add("Errors (first line): " + "; ".join(errors) + ".")
        report.add()
    if notes:
        report.add("Notes: " + "; ".join(notes) + ".")
        report.add()
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes 1,000 and 20,000 "
                        "on 100,000 rows, timeout 30 s; printed only unless --output")  # fmt: skip
    parser.add_argument("--output", default=None, help="markdown file (default: "
                        "benchmarks/RESULTS.md for a full run)")  # fmt: skip
    parser.add_argument("--estimators", default=None, help="comma-separated names "
                        "(see --list); default all")  # fmt: skip
    parser.add_argument("--sizes", default=None, help="comma-separated numbers of "
                        "categories")  # fmt: skip
    parser.add_argument("--dtypes", default="int,str")
    parser.add_argument("--samples", type=int, default=None, help="rows (default "
                        "1,000,000; --quick 100,000)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=None, help="seconds per "
                        "fit (default 60; --quick 30)")  # fmt: skip
    parser.add_argument("--mem-limit-gb", type=float, default=8.0)
    parser.add_argument("--label", default="current", help='name of the run, '
                        'in its heading ("before" for the starting commit)')  # fmt: skip
    parser.add_argument("--khiops-seconds", default=None, help="SIZE=SECONDS,...: "
                        "Khiops fit times of an earlier run, for the ratios when "
                        "khiops_peer is not run")  # fmt: skip
    parser.add_argument("--list", action="store_true", help="print the names")
    parser.add_argument("--child", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        name, n_categories, dtype, n_samples, timeout = args.child
        child(name, int(n_categories), dtype, int(n_samples), float(timeout))
        return
    if args.list:
        for name in estimator_names():
            print(f"{name:28s} {describe(name)}")
        return
    if args.output is None and not args.quick:
        args.output = RESULTS
    n_samples = args.samples or (100_000 if args.quick else N_SAMPLES)
    args.timeout = args.timeout or (30.0 if args.quick else 60.0)
    sizes = (
        [int(s.replace("_", "")) for s in args.sizes.split(",")]
        if args.sizes
        else list(QUICK_SIZES if args.quick else SIZES)
    )
    sizes = [min(s, n_samples) for s in sizes]
    dtypes = args.dtypes.split(",")
    names = estimator_names()
    if args.estimators:
        wanted = args.estimators.split(",")
        unknown = [w for w in wanted if w not in names]
        if unknown:
            parser.error(f"unknown estimators {unknown}; see --list")
        names = tuple(w for w in names if w in wanted)

    import partikit

    context = RunContext(
        "perf/" + os.path.basename(__file__)
        + (f" --label {args.label}" if args.label != "current" else ""),
        args.quick,
        with_khiops=KHIOPS_PEER in names,
    )  # fmt: skip
    context.partikit_path = os.path.dirname(partikit.__file__)
    results = []
    for dtype in dtypes:
        for name in names:
            if name == KHIOPS_PEER and dtype != "str" and "str" in dtypes:
                continue  # Khiops gets the string column once per size
            gave_up = gave_up_at = None
            for s in sizes:
                if gave_up:
                    results.append(
                        {"name": name, "n_categories": s, "dtype": dtype, "fits": [],
                         "skipped": f"not run ({gave_up} at {gave_up_at:,})"}
                    )  # fmt: skip
                    continue
                progress(f"{name} {s:,} {dtype}")
                r = run_config(
                    name,
                    s,
                    "str" if name == KHIOPS_PEER else dtype,
                    n_samples,
                    args.timeout,
                    args.mem_limit_gb,
                )
                r["timeout_s"] = args.timeout
                results.append(r)
                progress(
                    f"  -> {time_cell(r)}; RSS {rss_cell(r)}; ARI {r.get('ari', '–')}"
                )
                if failed(r):  # a larger size would fail the same way, slower
                    gave_up = failed(r)
                    if gave_up.startswith("error"):
                        gave_up = "raised"
                    gave_up_at = s
    report = build_report(results, args, context.stop())
    finish(report, args.output, keep_history=True)
    dump_raw(f"{NAME}_{args.label}", results)


if __name__ == "__main__":
    main()
