# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""MODL grouping and discretization: held-out quality and speed vs Khiops's MODL.

**Groupers.** Every partikit grouper of one column (``MODLGrouper()``,
``KhiopsGrouper()``, ``CHAIDGrouper()``, ``MaxCutGrouper()`` and
``MaxCutGrouper(weights="squared_gini")``), one part per category, and the Khiops
tool's MODL grouping (``khiops.sklearn.KhiopsEncoder()``, its groups read from its
preparation report by ``bench_khiops_grouper.khiops_labels``), on:

* synthetic cells: ``partikit.datasets.make_grouped_categorical(500_000, K, J, 8,
  frequencies=F, zipf_exponent=1.1, dtype="object", random_state=seed)`` (the
  column as Python strings) for J = 2 and 10 classes, K = 1,000, 20,000 and
  200,000 categories, F = uniform and Zipf 1.1 (12 cells; the seed of a cell is
  20261201 + its index in that order); each category belongs to one of 8 hidden
  groups, and the class depends on the category through its group only;
* the shared datasets' columns with many categories (``shared/datasets`` beside the
  repository, or ``$PARTIKIT_DATASETS``; skipped with a message when absent):
  adult ``native.country``, cars_ext ``CONFORT``, nursery_ext ``struct_finan``,
  reuters_phonemes_15 ``a_0``, ``a_1``, ``a_2``, shelter ``Breed1``, ``Breed2``
  and ``Color`` (rows holding the dataset's missing-value string dropped;
  ``Breed2`` equals ``Breed1`` on 89% of the rows).

Evaluation, the same for every method. The rows are split at random into 70%
train and 30% test (synthetic: one split, seed ``seed + 1``; datasets: 5 splits,
seeds 0-4, and every number is the mean over them). The grouper is fitted on the
train column alone. Each of its groups predicts the class frequencies of its train
rows smoothed by adding 0.5 to every class count (Jeffreys/Krichevsky-Trofimov),
``p(j | g) = (n_gj + 0.5) / (n_g + 0.5 J)``; a test row gets the prediction of its
category's group (``transform``: an unseen category goes to the grouper's
``default_group_``). Khiops's groups are applied the same way: a category its
report does not list (an unseen one, or one it put in its ``*`` part) goes to the
part holding ``*``. One part per category: each train category predicts its own
smoothed frequencies and an unseen category the train prior (smoothed the same
way). Held-out log-loss: the mean of ``-ln p(y | row)`` over the test rows, in
nats. Synthetic cells report it minus the log-loss of the hidden groups' own
smoothed train frequencies (the oracle grouping, evaluated by the same code: the
excess over the best achievable with 8 groups); datasets report it minus the
log-loss of the smoothed train prior (one group; negative is better). "groups":
the number of groups of the fit (datasets: median over the splits); "vs Khiops":
the method's log-loss minus Khiops's.

Timing: each cell runs in a fresh subprocess, the methods one after the other,
each after its own warm-up fits on small data of the same kind (numba compile or
cache load, Khiops's runner set-up excluded; partikit also fits the first 2,000
rows of the train split); a method whose fit exceeds
``--timeout`` is killed, reported as such, and the cell goes on in a new
subprocess. Fit time is ``time.perf_counter`` around ``fit`` on the train split: the median of
3 fits when the first took < 5 s, else that one fit (synthetic); the median of the
5 splits' fits (datasets). Khiops's time is its whole ``KhiopsEncoder().fit`` as a
user sees it (data written to a file, the binary run as a subprocess on all cores,
its report read back); partikit fits one column on one thread.

Targets (issue): ``MODLGrouper``'s held-out log-loss at most 0.005 nats above
Khiops's in every cell, and its fit at most a tenth of Khiops's time.

**Discretizer.** ``MODLDiscretizer()`` (with ``MDLPDiscretizer()`` and
``KhiopsDiscretizer()`` for comparison) on (1) 20 pure-noise columns (the
``n_noise_features=20`` columns of ``make_interval_target(100_000, n_classes,
n_noise_features=20, random_state=SEED)``, 10 and 2 classes): target one interval
on at least 19 of the 20 columns (10 classes); (2) the recovery data of
``bench_discretizers`` (``make_interval_target(1_000_000, random_state=0)``, 7
hidden cuts, ``bench_discretizers.cut_errors``): target 8 intervals, all 7 cuts
matched within 1e-3, as ``MDLPDiscretizer`` does; (3) the one-pass limit of
``bench_one_pass`` (``scale_data.one_pass_numeric()``, 1,000,000 distinct floats:
``np.unique(x, return_inverse=True)`` + ``np.bincount``, timed alternately with the
fit in the same subprocess, 9 rounds, medians): target fit at most 3x the limit.

    PATH="$VIRTUAL_ENV/bin:$PATH" python benchmarks/perf/bench_modl.py [--quick]
        [--groupers modl,khiops_modl,...] [--discretizers modl,mdlp,...]
        [--cells 2:1000:uniform,...] [--datasets adult,shelter|none]
        [--sections groupers,discretizers] [--timeout 300]

``--list`` prints the method names. ``--quick``: 50,000 rows, 4 cells of 1,000
and 5,000 categories, adult and shelter on their first 5,000 rows and 2 splits,
the discretizer on a tenth of its rows (**not the issue's sizes**, printed only unless ``--output``). A full
run replaces this script's section of ``RESULTS.md``; the run it held goes to
``results/<its date>-bench_modl.md``.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# the shared helpers (_common.py) live one folder up, the workloads here
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    DATASETS_DIR,
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
    read_dataset,
    run_subprocess,
    script_path,
    table,
)
from _harness import verdict  # noqa: E402

NAME = "bench_modl"
N_SAMPLES = 500_000
QUICK_SAMPLES = 50_000
N_HIDDEN = 8
TRAIN_SHARE = 0.7
SMOOTHING = 0.5  # added to every class count of every part
SEED = 20261201
CLASSES = (2, 10)
CATEGORIES = (1000, 20_000, 200_000)
QUICK_CATEGORIES = (1000, 5000)
FREQUENCIES = ("uniform", "zipf")
ZIPF_EXPONENT = 1.1
REPEAT_BELOW = 5.0  # seconds: a faster first fit is repeated, the median reported
REPEATS = 3
DATA_SPLITS = 5
QUICK_DATA_SPLITS = 2
QUICK_DATA_ROWS = 5000
QUICK_DATASETS = ("adult", "shelter")
LOGLOSS_TARGET = 0.005  # nats above Khiops
TIME_TARGET = 0.1  # of Khiops's fit time
#: (folder, target, column): the shared datasets' columns with many categories
DATA_COLUMNS = (
    ("adult", "income", "native.country"),
    ("cars_ext", "class", "CONFORT"),
    ("nursery_ext", "class", "struct_finan"),
    ("reuters_phonemes_15", "class", "a_0"),
    ("reuters_phonemes_15", "class", "a_1"),
    ("reuters_phonemes_15", "class", "a_2"),
    ("shelter", "Outcome", "Breed1"),
    ("shelter", "Outcome", "Breed2"),
    ("shelter", "Outcome", "Color"),
)

KHIOPS_PEER = "khiops_modl"
ONE_PER_CATEGORY = "one_per_category"
#: name -> what it stands for, in report order
GROUPERS = {
    "modl": "MODLGrouper()",
    "khiops_grouper": "KhiopsGrouper()",
    "chaid_grouper": "CHAIDGrouper()",
    "maxcut_chi2": "MaxCutGrouper()",
    "maxcut_squared_gini": 'MaxCutGrouper(weights="squared_gini")',
    KHIOPS_PEER: "Khiops MODL (KhiopsEncoder())",
    ONE_PER_CATEGORY: "one part per category",
}
SHORT = {
    "modl": "MODLGrouper",
    "khiops_grouper": "KhiopsGrouper",
    "chaid_grouper": "CHAIDGrouper",
    "maxcut_chi2": "MaxCut chi2",
    "maxcut_squared_gini": "MaxCut sq. Gini",
    KHIOPS_PEER: "Khiops MODL",
    ONE_PER_CATEGORY: "one per category",
}
DISCRETIZERS = {
    "modl": "MODLDiscretizer()",
    "mdlp": "MDLPDiscretizer()",
    "khiops_discretizer": "KhiopsDiscretizer()",
}
NOISE_COLUMNS = 20
NOISE_ROWS = 100_000
NOISE_TARGET = 19  # of 20 columns in one interval
RECOVERY_ROWS = 1_000_000
ONE_PASS_ROWS = 1_000_000
ONE_PASS_TARGET = 3.0


# ----------------------------------------------------------------------------------
# cells
# ----------------------------------------------------------------------------------


def synthetic_cells(categories):
    """``"syn:J:K:F"`` for the grid, in the order of their seeds."""
    return [
        f"syn:{j}:{k}:{f}" for j in CLASSES for k in categories for f in FREQUENCIES
    ]


def cell_seed(cell):
    """The seed of a synthetic cell: SEED + its index in the grid (J, K, F
    order), SEED + 100 + its index in the quick grid, else SEED + J + K."""
    _, j, k, f = cell.split(":")
    key = f"syn:{j}:{k}:{f}"
    for offset, grid in ((0, synthetic_cells(CATEGORIES)),
                         (100, synthetic_cells(QUICK_CATEGORIES))):  # fmt: skip
        if key in grid:
            return SEED + offset + grid.index(key)
    return SEED + int(j) + int(k)


def cell_label(cell):
    kind, *rest = cell.split(":")
    if kind == "syn":
        j, k, f = rest
        return f"{j} / {int(k):,}, " + ("uniform" if f == "uniform" else "Zipf 1.1")
    return f"{rest[0]} `{rest[2]}`"


def smoothed_logloss(train_ids, y_train, test_ids, y_test, n_classes):
    """Held-out log-loss (nats) of the parts' smoothed train class frequencies.

    ``train_ids`` / ``test_ids``: the part (>= 0) of every train / test row; a
    test row of part -1 gets the smoothed train prior.
    """
    train_ids = np.asarray(train_ids, dtype=np.int64)
    test_ids = np.asarray(test_ids, dtype=np.int64)
    n_parts = int(max(train_ids.max(initial=-1), test_ids.max(initial=-1))) + 1
    counts = (
        np.bincount(
            train_ids * n_classes + y_train, minlength=n_parts * n_classes
        ).reshape(n_parts, n_classes)
        + SMOOTHING
    )
    probabilities = counts / counts.sum(axis=1, keepdims=True)
    prior = np.bincount(y_train, minlength=n_classes) + SMOOTHING
    prior = prior / prior.sum()
    p = np.where(
        test_ids >= 0,
        probabilities[np.maximum(test_ids, 0), y_test],
        prior[y_test],
    )
    return float(-np.log(p).mean())


def load_cell(cell, n_samples, quick):
    """(n_classes, splits, info): splits = [(X_train, y_train, X_test, y_test,
    reference_train_ids, reference_test_ids)], the reference parts being the
    hidden groups (synthetic) or one part (datasets)."""
    import pandas as pd

    kind, *rest = cell.split(":")
    if kind == "syn":
        from partikit.datasets import make_grouped_categorical

        j, k, f = int(rest[0]), int(rest[1]), rest[2]
        seed = cell_seed(cell)
        X, y, hidden = make_grouped_categorical(
            n_samples, k, j, N_HIDDEN, frequencies=f, zipf_exponent=ZIPF_EXPONENT,
            dtype="object", random_state=seed,
        )  # fmt: skip
        groups = hidden.reindex(X["category"].to_numpy()).to_numpy()
        order = np.random.default_rng(seed + 1).permutation(n_samples)
        n_train = int(round(TRAIN_SHARE * n_samples))
        tr, te = order[:n_train], order[n_train:]
        X_train, X_test = (X.iloc[idx].reset_index(drop=True) for idx in (tr, te))
        splits = [(X_train, y[tr], X_test, y[te], groups[tr], groups[te])]
        return j, splits, {"seed": seed}
    folder, target, column = rest
    frame, config = read_dataset(folder, QUICK_DATA_ROWS if quick else None)
    missing = config.get("missing value string")
    if missing is not None:
        keep = ~(frame == missing).any(axis=1).to_numpy()
        frame = frame[keep]
    y = pd.factorize(frame[target].to_numpy())[0].astype(np.int64)
    X = pd.DataFrame({"category": frame[column].to_numpy(dtype=object)})
    n = len(X)
    n_train = int(round(TRAIN_SHARE * n))
    splits = []
    for s in range(QUICK_DATA_SPLITS if quick else DATA_SPLITS):
        order = np.random.default_rng(s).permutation(n)
        tr, te = order[:n_train], order[n_train:]
        splits.append(
            (X.iloc[tr].reset_index(drop=True), y[tr],
             X.iloc[te].reset_index(drop=True), y[te],
             np.zeros(len(tr), dtype=np.int64), np.zeros(len(te), dtype=np.int64))
        )  # fmt: skip
    info = {"rows": n, "categories": int(X["category"].nunique())}
    return int(y.max()) + 1, splits, info


# ----------------------------------------------------------------------------------
# the child: the methods of one cell in a fresh process
# ----------------------------------------------------------------------------------


def _grouper(name):
    from partikit import groupers

    return {
        "modl": lambda: groupers.MODLGrouper(),
        "khiops_grouper": groupers.KhiopsGrouper,
        "chaid_grouper": groupers.CHAIDGrouper,
        "maxcut_chi2": groupers.MaxCutGrouper,
        "maxcut_squared_gini": lambda: groupers.MaxCutGrouper(weights="squared_gini"),
    }[name]


def _method(name):
    """(fit(X, y) -> model, parts(model, X_train, X_test) -> (ids, ids, n))."""
    if name == KHIOPS_PEER:
        ensure_khiops_path()
        quiet_peer_warnings()
        import pandas as pd
        from bench_khiops_grouper import khiops_labels
        from khiops.sklearn import KhiopsEncoder

        def fit(X, y):
            return KhiopsEncoder().fit(X, y)

        def parts(model, X_train, X_test):
            a, b = X_train["category"].to_numpy(), X_test["category"].to_numpy()
            cats = pd.unique(np.concatenate([a, b]))
            if hasattr(model, "model_report_"):
                n, labels, _ = khiops_labels(model, cats)
            else:  # no informative variable: Khiops keeps none, i.e. one group
                n, labels = 1, np.zeros(len(cats), dtype=np.int64)
            index = pd.Index(cats)
            return labels[index.get_indexer(a)], labels[index.get_indexer(b)], n

        return fit, parts
    if name == ONE_PER_CATEGORY:
        import pandas as pd

        def fit(X, y):
            return pd.Index(pd.unique(X["category"].to_numpy()))

        def parts(index, X_train, X_test):
            return (
                index.get_indexer(X_train["category"].to_numpy()),
                index.get_indexer(X_test["category"].to_numpy()),
                len(index),
            )

        return fit, parts
    make = _grouper(name)

    def fit(X, y):
        return make().fit(X, y)

    def parts(model, X_train, X_test):
        return (
            model.transform(X_train)[:, 0].astype(np.int64),
            model.transform(X_test)[:, 0].astype(np.int64),
            int(model.n_groups_[0]),
        )

    return fit, parts


def _warm_up(name, fit, parts, n_classes, X_train, y_train):
    """Fits on small data of the same kind: synthetic columns of 50 and 2,000
    categories, and (partikit) the first 2,000 rows of the cell's train split,
    so that the numba kernels of the paths its data takes are compiled or
    loaded from the cache before the timed fits."""
    from partikit.datasets import make_grouped_categorical

    for k, n in ((50, 5000), (2000, 20_000)):
        X, y, _ = make_grouped_categorical(
            n, k, n_classes, 4, dtype="object", random_state=0
        )
        parts(fit(X, y), X, X)
    if name != KHIOPS_PEER:
        X, y = X_train.iloc[:2000], y_train[:2000]
        if len(np.unique(y)) > 1:
            parts(fit(X, y), X, X)


def child(cell, names, n_samples, quick):
    """Measure ``names`` on one cell; report events as JSON lines on stdout."""
    import warnings

    warnings.simplefilter("ignore")
    t0 = time.perf_counter()
    n_classes, splits, info = load_cell(cell, n_samples, quick)
    references = [
        smoothed_logloss(ref_tr, y_tr, ref_te, y_te, n_classes)
        for (_, y_tr, _, y_te, ref_tr, ref_te) in splits
    ]
    X_train = splits[0][0]
    info.update(
        n_classes=n_classes,
        train_rows=len(X_train),
        train_categories=int(X_train["category"].nunique()),
        unseen_test_rows=float(
            (~splits[0][2]["category"].isin(X_train["category"])).mean()
        ),
    )
    emit(event="ready", setup=time.perf_counter() - t0, references=references, **info)
    for name in names:
        emit(event="start", name=name)
        try:
            fit, parts = _method(name)
            warm = time.perf_counter()
            _warm_up(name, fit, parts, n_classes, X_train, splits[0][1])
            warm = time.perf_counter() - warm
            emit(event="warm", name=name, seconds=warm)
            fits, losses, n_groups = [], [], []
            for X_tr, y_tr, X_te, y_te, _, _ in splits:
                model = None
                while True:
                    model = None
                    gc.collect()
                    start = time.perf_counter()
                    model = fit(X_tr, y_tr)
                    fits.append(time.perf_counter() - start)
                    emit(event="fit", name=name, seconds=fits[-1])
                    if (
                        len(splits) > 1
                        or fits[0] >= REPEAT_BELOW
                        or len(fits) >= REPEATS
                    ):
                        break
                ids_tr, ids_te, n = parts(model, X_tr, X_te)
                losses.append(smoothed_logloss(ids_tr, y_tr, ids_te, y_te, n_classes))
                n_groups.append(n)
            emit(event="result", name=name, fits=fits, losses=losses,
                 n_groups=n_groups, warmup=warm)  # fmt: skip
        except MemoryError as exc:
            emit(event="error", name=name, kind="MemoryError", error=first_line(exc))
        except Exception as exc:  # noqa: BLE001 - reported, never faked
            emit(event="error", name=name, kind=type(exc).__name__,
                 error=first_line(exc))  # fmt: skip
    emit(event="done")


def disc_child(names, quick):
    """The discretizer section, in one fresh process."""
    import warnings

    warnings.simplefilter("ignore")
    from bench_discretizers import CUT_TOLERANCE, cut_errors
    from bench_one_pass import ROUNDS, SINGLE_IF_SLOWER, _workload

    from partikit import discretizers
    from partikit.datasets import make_interval_target

    makers = {
        "modl": lambda: discretizers.MODLDiscretizer(),
        "mdlp": discretizers.MDLPDiscretizer,
        "khiops_discretizer": discretizers.KhiopsDiscretizer,
    }
    noise_rows = NOISE_ROWS // 10 if quick else NOISE_ROWS
    recovery_rows = RECOVERY_ROWS // 10 if quick else RECOVERY_ROWS
    one_pass_rows = ONE_PASS_ROWS // 10 if quick else ONE_PASS_ROWS
    noise = {
        j: make_interval_target(
            noise_rows, j, n_noise_features=NOISE_COLUMNS, random_state=SEED
        )  # fmt: skip
        for j in (10, 2)
    }
    X_rec, y_rec, true_cuts = make_interval_target(recovery_rows, random_state=0)
    X_one, y_one, baseline, _, _ = _workload("x", "numeric", one_pass_rows)
    baseline()
    emit(event="ready", true_cuts=[float(c) for c in true_cuts],
         tolerance=CUT_TOLERANCE)  # fmt: skip
    for name in names:
        emit(event="start", name=name)
        try:
            make = makers[name]
            Xw, yw, _ = make_interval_target(2000, random_state=1)
            make().fit(Xw, yw)  # warm-up: numba compile or cache load
            out = {"name": name}
            for j, (X, y, _) in noise.items():
                t = time.perf_counter()
                model = make().fit(X[:, 1:], y)
                out[f"noise_{j}"] = {
                    "n_bins": [int(b) for b in model.n_bins_],
                    "seconds": time.perf_counter() - t,
                }
            emit(event="noise", name=name)
            t = time.perf_counter()
            model = make().fit(X_rec[:, :1], y_rec)
            seconds = time.perf_counter() - t
            found = model.bin_edges_[0][1:-1]
            error, matched, spurious = cut_errors(found, true_cuts)
            out["recovery"] = {
                "n_bins": int(model.n_bins_[0]), "max_error": error,
                "matched": matched, "spurious": spurious, "seconds": seconds,
            }  # fmt: skip
            emit(event="recovery", name=name)
            fits, bases = [], []
            for _ in range(ROUNDS):
                gc.collect()
                t = time.perf_counter()
                baseline()
                bases.append(time.perf_counter() - t)
                model = None
                gc.collect()
                t = time.perf_counter()
                model = make().fit(X_one, y_one)
                fits.append(time.perf_counter() - t)
                emit(event="fit", name=name, seconds=fits[-1])
                if fits[0] > SINGLE_IF_SLOWER:
                    break
            out["one_pass"] = {"fits": fits, "bases": bases,
                               "n_bins": int(model.n_bins_[0])}  # fmt: skip
            emit(event="result", **out)
        except Exception as exc:  # noqa: BLE001 - reported, never faked
            emit(event="error", name=name, kind=type(exc).__name__,
                 error=first_line(exc))  # fmt: skip
    emit(event="done")


# ----------------------------------------------------------------------------------
# the parent
# ----------------------------------------------------------------------------------


def run_cell(cell, names, args, n_samples):
    """Run ``names`` on ``cell`` in fresh subprocesses; a method that times out is
    recorded and the others go on in a new one."""
    out = {"cell": cell, "methods": {}}
    remaining = list(names)
    while remaining:
        cmd = [sys.executable, os.path.abspath(__file__), "--child", cell,
               ",".join(remaining), str(n_samples), "1" if args.quick else "0"]  # fmt: skip
        result = {"current": None}

        def on_event(kind, event):
            if kind == "ready":
                out.update(event)
            elif kind == "start":
                result["current"] = event["name"]
                return "warm-up of " + event["name"], args.timeout + 120
            elif kind == "warm":
                return "fit", args.timeout
            elif kind == "fit":
                return "fit", args.timeout
            elif kind in ("result", "error"):
                out["methods"][event.pop("name")] = event
                result["current"] = None
            return None

        run_subprocess(cmd, on_event, result,
                       complete=lambda r: r.get("returncode") == 0)  # fmt: skip
        stuck = result["current"]
        done = set(out["methods"])
        if stuck is not None and stuck not in done:
            why = (
                f"> {args.timeout:.0f} s"
                if result.get("timeout") == "fit"
                else (f"timed out in {result['timeout']}" if result.get("timeout")
                      else result.get("error", "subprocess died"))
            )  # fmt: skip
            out["methods"][stuck] = {"kind": "timeout", "error": why}
            done.add(stuck)
        elif stuck is None and result.get("error") and "references" not in out:
            for name in remaining:  # the data itself failed
                out["methods"][name] = {"kind": "crash", "error": result["error"]}
            done.update(remaining)
        remaining = [n for n in remaining if n not in done]
    return out


def run_discretizers(names, args):
    cmd = [sys.executable, os.path.abspath(__file__), "--disc-child",
           ",".join(names), "1" if args.quick else "0"]  # fmt: skip
    out = {"methods": {}}
    result = {}

    def on_event(kind, event):
        if kind == "ready":
            out.update(event)
        elif kind in ("result", "error"):
            out["methods"][event.pop("name")] = event
        elif kind == "start":
            out["current"] = event["name"]
        return "measuring", args.timeout + 120

    run_subprocess(cmd, on_event, result)
    if result.get("timeout") or result.get("error"):
        current = out.get("current")
        if current and current not in out["methods"]:
            out["methods"][current] = {
                "error": f"timed out in {result['timeout']}"
                if result.get("timeout") else result.get("error")
            }  # fmt: skip
    return out


def mean(values):
    return float(np.mean(values)) if values else float("nan")


def median(values):
    return statistics.median(values) if values else None


def time_cell(fits, data):
    if not fits:
        return "–"
    if data:
        return f"{fmt_s(median(fits))} (median of {len(fits)} splits)"
    if len(fits) == 1:
        return f"{fmt_s(fits[0])} (1 run)"
    return (
        f"{fmt_s(median(fits))} ({fmt_s(min(fits))}–{fmt_s(max(fits))}, n={len(fits)})"
    )


def signed(x, digits=4):
    return f"{x:+.{digits}f}"


def analyse(r, names):
    """Per method: loss (mean), excess over the reference, vs Khiops, groups,
    time, time ratio; or the error."""
    reference = mean(r.get("references", []))
    methods = r["methods"]
    kh = methods.get(KHIOPS_PEER, {})
    kh_loss = mean(kh["losses"]) if "losses" in kh else None
    kh_time = median(kh.get("fits", [])) if "fits" in kh else None
    rows = {}
    for name in names:
        m = methods.get(name)
        if m is None:
            continue
        if "losses" not in m:
            rows[name] = {"error": m.get("error", "?")}
            continue
        loss = mean(m["losses"])
        secs = median(m["fits"]) if name != ONE_PER_CATEGORY else None
        rows[name] = {
            "loss": loss,
            "excess": loss - reference,
            "vs_khiops": None if kh_loss is None else loss - kh_loss,
            "groups": median(m["n_groups"]),
            "fits": m["fits"],
            "seconds": secs,
            "time_ratio": None if kh_time is None or secs is None else secs / kh_time,
        }
    return rows


def progress_text(a):
    """One method's result of a cell, for the progress lines."""
    if "error" in a:
        return a["error"]
    vs = "–" if a["vs_khiops"] is None else signed(a["vs_khiops"])
    secs = "–" if a["seconds"] is None else fmt_s(a["seconds"])
    return (f"{groups_text(a['groups'])} groups, excess {signed(a['excess'])}, "
            f"vs Khiops {vs}, fit {secs} s")  # fmt: skip


def groups_text(g):
    return f"{g:g}" if isinstance(g, float) else str(g)


def grouper_tables(results, names, data):
    """(pivot table, detailed table, target lines) of some cells."""
    pivot_names = [n for n in GROUPERS if n in names]
    pivot, detail, misses, checked = [], [], [], 0
    for r in results:
        rows = analyse(r, names)
        label = cell_label(r["cell"])
        if data:
            label += f" ({r.get('categories', '?')} cat., {r.get('rows', 0):,} rows, {r.get('n_classes', '?')} cl.)"
        line = [label]
        for name in pivot_names:
            a = rows.get(name)
            if a is None:
                line.append("–")
            elif "error" in a:
                line.append("failed: " + a["error"][:40])
            else:
                line.append(f"{signed(a['excess'])} ({groups_text(a['groups'])})")
        pivot.append(line)
        for name in pivot_names:
            a = rows.get(name)
            if a is None:
                continue
            if "error" in a:
                detail.append([label, GROUPERS[name], "failed: " + a["error"][:80]]
                              + ["–"] * 6)  # fmt: skip
                if name == "modl":
                    misses.append(f"{label}: MODLGrouper failed ({a['error'][:80]})")
                continue
            target = ""
            if name == "modl":
                checked += 1
                if a["vs_khiops"] is None or a["time_ratio"] is None:
                    target = "? (no Khiops)"
                    misses.append(f"{label}: no Khiops run to compare with")
                else:
                    ok_loss = a["vs_khiops"] <= LOGLOSS_TARGET
                    ok_time = a["time_ratio"] <= TIME_TARGET
                    target = (f"log-loss {verdict(ok_loss)}, "
                              f"time {verdict(ok_time)}")  # fmt: skip
                    if not ok_loss:
                        misses.append(
                            f"{label}: MODLGrouper {signed(a['vs_khiops'])} nats vs "
                            f"Khiops (target <= +{LOGLOSS_TARGET})"
                        )
                    if not ok_time:
                        misses.append(
                            f"{label}: MODLGrouper fit {fmt_s(a['seconds'])} s = "
                            f"{a['time_ratio']:.2f}x Khiops's {fmt_s(a['seconds'] / a['time_ratio'])} s "
                            f"(target <= {TIME_TARGET}x)"
                        )
            detail.append([
                label, GROUPERS[name], groups_text(a["groups"]), f"{a['loss']:.4f}",
                signed(a["excess"]),
                "–" if a["vs_khiops"] is None else signed(a["vs_khiops"]),
                time_cell(a["fits"], data) if name != ONE_PER_CATEGORY else "–",
                "–" if a["time_ratio"] is None else f"{a['time_ratio']:.3f}x",
                target,
            ])  # fmt: skip
    reference = "vs prior" if data else "vs hidden"
    pivot_table = table(
        ["cell" if not data else "column"] + [SHORT[n] for n in pivot_names], pivot
    )
    detail_table = table(
        ["cell" if not data else "column", "method", "groups", "log-loss",
         reference, "vs Khiops", "fit s", "time / Khiops", "MODL targets"],
        detail,
    )  # fmt: skip
    return pivot_table, detail_table, misses, checked


def discretizer_text(d, names):
    lines = []
    methods = d.get("methods", {})
    tolerance = d.get("tolerance", 1e-3)
    rows = []
    for name in names:
        m = methods.get(name)
        if m is None:
            continue
        if "error" in m:
            rows.append([DISCRETIZERS[name], "failed: " + m["error"][:80]]
                        + ["–"] * 8)  # fmt: skip
            continue
        n10 = m["noise_10"]["n_bins"]
        n2 = m["noise_2"]["n_bins"]
        rec = m["recovery"]
        one = m["one_pass"]
        fit, base = median(one["fits"]), median(one["bases"])
        ratio = fit / base
        ones10 = sum(b == 1 for b in n10)
        targets = ""
        if name == "modl":
            targets = (
                f"noise {verdict(ones10 >= NOISE_TARGET)}, recovery "
                f"{verdict(rec['n_bins'] == len(d['true_cuts']) + 1 and rec['matched'] == len(d['true_cuts']) and rec['max_error'] < tolerance)}, "
                f"time {verdict(ratio <= ONE_PASS_TARGET)}"
            )
        rows.append([
            DISCRETIZERS[name],
            f"{ones10}/{len(n10)} (max {max(n10)})",
            f"{sum(b == 1 for b in n2)}/{len(n2)} (max {max(n2)})",
            rec["n_bins"],
            f"{rec['matched']}/{len(d['true_cuts'])}",
            rec["spurious"],
            f"{rec['max_error']:.2g}",
            f"{fmt_s(fit)} (n={len(one['fits'])})",
            f"{ratio:.2f}x (limit {fmt_s(base)} s)",
            targets,
        ])  # fmt: skip
    lines.append(
        table(
            [
                "discretizer",
                "noise, 10 classes: one interval",
                "noise, 2 classes",
                "recovery: intervals",
                "cuts matched",
                "spurious",
                "max cut error",
                "one-pass fit s",
                "fit / one-pass limit",
                "MODL targets",
            ],
            rows,
        )  # fmt: skip
    )
    return "\n".join(lines)


def preamble_text():
    """The docstring's description (its paragraphs 2 to 6) as markdown."""
    out = []
    for paragraph in __doc__.split("\n\n")[1:6]:
        items = []
        for line in paragraph.splitlines():
            if line.startswith("* ") or not items:
                items.append(line.strip())
            else:
                items[-1] += " " + line.strip()
        if items[0].startswith("* ") or len(items) == 1:
            out.append("\n".join(items))
        else:  # an introduction, then bullets
            out.append(items[0] + "\n\n" + "\n".join(items[1:]))
    return "\n\n".join(out).replace("``", "`")


def build_report(cells_out, data_out, disc_out, args, context, names, disc_names,
                 n_samples, data_note):  # fmt: skip
    report = Report(NAME)
    report.add(
        f"## MODL grouping and discretization vs Khiops's MODL ({script_path(NAME)})"
    )
    report.add()
    report.add(preamble_text())
    report.add()
    report.header(context)
    report.add(
        f"* partikit imported from: `{context.partikit_path}`; timeout per fit "
        f"{args.timeout:.0f} s; {n_samples:,} rows per synthetic cell."
    )
    report.add(context.usage_lines("this script's and its subprocesses'"))
    report.add()
    misses, checked = [], 0
    if cells_out:
        pivot, detail, m, c = grouper_tables(cells_out, names, data=False)
        misses += m
        checked += c
        report.add(
            "### Synthetic cells: held-out log-loss in nats above the hidden groups' "
            "own (groups in brackets)"
        )
        report.add()
        report.add(
            "Classes / categories (all categories of the generator; the train "
            "split holds fewer at Zipf or 200,000): "
            + "; ".join(
                f"{cell_label(r['cell'])}: {r.get('train_categories', 0):,} train "
                f"categories, {r.get('unseen_test_rows', 0):.1%} of test rows unseen"
                for r in cells_out
            )
            + "."
        )
        report.add()
        report.add(pivot)
        report.add()
        report.add("Details (log-loss: nats; 'vs hidden': minus the hidden groups'; "
                   "'vs Khiops': minus Khiops's):")  # fmt: skip
        report.add()
        report.add(detail)
        report.add()
    report.add("### Shared datasets: held-out log-loss in nats minus the prior's "
               "(mean over the splits; groups: median)")  # fmt: skip
    report.add()
    if data_out:
        pivot, detail, m, c = grouper_tables(data_out, names, data=True)
        misses += m
        checked += c
        report.add(pivot)
        report.add()
        report.add(detail)
    else:
        report.add(data_note)
    report.add()
    if disc_out is not None:
        report.add("### MODLDiscretizer: noise, recovery, one-pass limit")
        report.add()
        report.add(
            f"Noise: {NOISE_COLUMNS} columns of `make_interval_target("
            f"{NOISE_ROWS // (10 if args.quick else 1):_}, J, n_noise_features="
            f"{NOISE_COLUMNS}, random_state={SEED})`, fitted together; recovery: "
            f"`make_interval_target({RECOVERY_ROWS // (10 if args.quick else 1):_}, "
            "random_state=0)`, true cuts "
            + ", ".join(f"{c:.5f}" for c in disc_out.get("true_cuts", []))
            + f" (matched within {disc_out.get('tolerance', 1e-3):g}); one-pass: "
            f"`scale_data.one_pass_numeric({ONE_PASS_ROWS // (10 if args.quick else 1):_})`"
            ", fit and `np.unique(return_inverse=True)` + `np.bincount` "
            "alternately (bench_one_pass's limit), medians. Targets: one interval "
            f"on >= {NOISE_TARGET}/{NOISE_COLUMNS} noise columns (10 classes), 8 "
            f"intervals with 7/7 cuts matched, fit <= {ONE_PASS_TARGET:g}x the limit."
        )
        report.add()
        report.add(discretizer_text(disc_out, disc_names))
        for name, m in disc_out.get("methods", {}).items():
            if name == "modl" and "error" not in m:
                ones = sum(b == 1 for b in m["noise_10"]["n_bins"])
                one = m["one_pass"]
                ratio = median(one["fits"]) / median(one["bases"])
                rec = m["recovery"]
                if ones < NOISE_TARGET:
                    misses.append(
                        f"MODLDiscretizer: one interval on {ones}/20 noise columns"
                    )
                if rec["n_bins"] != 8 or rec["matched"] != 7:
                    misses.append(
                        f"MODLDiscretizer: recovery {rec['n_bins']} intervals, {rec['matched']}/7 cuts"
                    )
                if ratio > ONE_PASS_TARGET:
                    misses.append(
                        f"MODLDiscretizer: fit {ratio:.2f}x the one-pass limit"
                    )
            elif name == "modl":
                misses.append(f"MODLDiscretizer failed: {m['error'][:80]}")
        report.add()
    report.add("### Targets")
    report.add()
    if "modl" not in names:
        report.add("* MODLGrouper not run (`--groupers`): the grouper targets are "
                   "not checked.")  # fmt: skip
    elif not misses:
        report.add(f"* MODLGrouper: all {checked} cells met both targets.")
    for m in misses:
        report.add(f"* **not met**: {m}")
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="50,000 rows, 1,000 "
                        "and 5,000 categories; printed only unless --output")  # fmt: skip
    parser.add_argument("--output", default=None, help="markdown file (default: "
                        "benchmarks/RESULTS.md for a full run)")  # fmt: skip
    parser.add_argument("--groupers", default=None, help="comma-separated grouper "
                        "rows (see --list); default all")  # fmt: skip
    parser.add_argument("--discretizers", default=None, help="comma-separated "
                        "discretizers (see --list); default all")  # fmt: skip
    parser.add_argument("--cells", default=None, help="J:K:F,... synthetic cells "
                        "(classes:categories:uniform|zipf); 'none' for none")  # fmt: skip
    parser.add_argument("--datasets", default=None, help="comma-separated dataset "
                        "folders; 'none' for none")  # fmt: skip
    parser.add_argument("--sections", default="groupers,discretizers")
    parser.add_argument("--samples", type=int, default=None)
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds per fit")  # fmt: skip
    parser.add_argument("--list", action="store_true", help="print the names")
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--disc-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        cell, names, n_samples, quick = args.child
        child(cell, names.split(","), int(n_samples), quick == "1")
        return
    if args.disc_child:
        names, quick = args.disc_child
        disc_child(names.split(","), quick == "1")
        return
    if args.list:
        for name, what in {**GROUPERS}.items():
            print(f"grouper      {name:22s} {what}")
        for name, what in DISCRETIZERS.items():
            print(f"discretizer  {name:22s} {what}")
        return
    if args.output is None and not args.quick:
        args.output = RESULTS
    n_samples = args.samples or (QUICK_SAMPLES if args.quick else N_SAMPLES)
    names = list(GROUPERS)
    if args.groupers:
        wanted = args.groupers.split(",")
        unknown = [w for w in wanted if w not in GROUPERS]
        if unknown:
            parser.error(f"unknown groupers {unknown}; see --list")
        names = [n for n in GROUPERS if n in wanted]
    disc_names = list(DISCRETIZERS)
    if args.discretizers:
        wanted = args.discretizers.split(",")
        unknown = [w for w in wanted if w not in DISCRETIZERS]
        if unknown:
            parser.error(f"unknown discretizers {unknown}; see --list")
        disc_names = [n for n in DISCRETIZERS if n in wanted]
    sections = args.sections.split(",")
    if args.cells == "none" or "groupers" not in sections:
        cells = []
    elif args.cells:
        cells = [f"syn:{c}" for c in args.cells.split(",")]
    else:
        cells = synthetic_cells(QUICK_CATEGORIES if args.quick else CATEGORIES)
        if args.quick:  # half the grid: each size and frequency law once per J
            cells = [c for i, c in enumerate(cells) if i in (0, 3, 5, 6)]
    data_cells, data_note = [], ""
    if "groupers" in sections and args.datasets != "none":
        wanted = None if args.datasets is None else args.datasets.split(",")
        if wanted is None and args.quick:
            wanted = list(QUICK_DATASETS)
        if not os.path.isdir(DATASETS_DIR):
            data_note = (
                f"Not run: the shared datasets folder `{DATASETS_DIR}` is absent "
                "(set `$PARTIKIT_DATASETS`)."
            )
        else:
            absent = set()
            for folder, target, column in DATA_COLUMNS:
                if wanted is not None and folder not in wanted:
                    continue
                if not os.path.exists(os.path.join(DATASETS_DIR, folder, "data.csv")):
                    absent.add(folder)
                    continue
                data_cells.append(f"data:{folder}:{target}:{column}")
            if absent:
                data_note = "Skipped (no data.csv): " + ", ".join(sorted(absent)) + "."
    if not data_cells and not data_note:
        data_note = "Not run (`--datasets none`)."

    import partikit

    options = " ".join(
        f"--{k} {v}" for k, v in (("groupers", args.groupers),
        ("discretizers", args.discretizers), ("cells", args.cells),
        ("datasets", args.datasets)) if v
    )  # fmt: skip
    if args.sections != "groupers,discretizers":
        options += f" --sections {args.sections}"
    context = RunContext(
        "perf/" + os.path.basename(__file__) + (f" {options}" if options else ""),
        args.quick,
        with_khiops=KHIOPS_PEER in names,
    )
    context.partikit_path = os.path.dirname(partikit.__file__)
    cells_out, data_out = [], []
    for cell in cells + data_cells:
        progress(cell)
        r = run_cell(cell, names, args, n_samples)
        (data_out if cell.startswith("data") else cells_out).append(r)
        for name, a in analyse(r, names).items():
            progress(f"  {name}: {progress_text(a)}")
    disc_out = None
    if "discretizers" in sections:
        progress("discretizers")
        disc_out = run_discretizers(disc_names, args)
    report = build_report(cells_out, data_out, disc_out, args, context.stop(), names,
                          disc_names, n_samples, data_note)  # fmt: skip
    finish(report, args.output, keep_history=True)
    dump_raw(NAME, {"cells": cells_out, "data": data_out, "disc": disc_out})


if __name__ == "__main__":
    main()
