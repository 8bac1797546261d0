# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""AttributeAggregator: quality on adult and on k-of-n, speed on 10M rows.

Four measurements, in this one process:

1. Adult, categorical columns only (8 columns, 32,561 rows, missing values kept as
   a value): 5-fold ``cross_validate`` (``StratifiedKFold(5, shuffle=True,
   random_state=0)``, scoring log-loss and accuracy) of
   ``Pipeline([encoder, LogisticRegression(max_iter=5000)])``, the encoder refitted
   in each fold: raw one-hot, scikit-learn TargetEncoder, category_encoders
   WOEEncoder, optbinning BinningProcess (one-hot of its bins, and its default
   WoE), KhiopsGrouper and CHAIDGrouper (one-hot), and AttributeAggregator with
   ``search`` = "pairs" (all pairs, ``top_k`` = 3, 5, 10) and "greedy", grouper
   KhiopsGrouper / CHAIDGrouper with ``encode`` = "onehot" / "woe", and
   ``keep_original`` True / False. Columns = columns entering the regression.
   Issue target: a partikit encoder with a log-loss no worse than raw one-hot and
   at most a third of its columns. Also the Pareto front (columns vs log-loss) of
   the partikit rows.
2. Adult, all 14 columns in one ColumnTransformer: partikit groups of the
   categorical columns (CHAIDGrouper, AttributeAggregator pairs / greedy over it)
   x partikit intervals of the numeric ones (MDLP, BlockOpt, Khiops; one-hot),
   then the same regression; raw one-hot + StandardScaler and
   HistGradientBoostingClassifier (native categorical) as references. Target:
   log-loss <= 0.285 with the whole 5-fold CV under 15 s.
3. ``make_k_of_n(5000, n_noise_features=3, random_state=0)``: the same CV for
   one-hot of the raw columns, AttributeAggregator(search="greedy") and the
   explicit aggregate of the 5 tests; whether greedy finds exactly the 5 tests;
   the Bayes log-loss.
4. Speed on 10,000,000 rows x 5 columns (cardinalities 10, 8, 6, 4, 3) as pandas
   ``category``, ``object`` and ``str`` columns: AttributeAggregator fit and
   transform vs one ``pd.factorize`` of an int64 column and vs string
   concatenation + ``pd.factorize``; the partitions must agree. Target: >= 10x
   faster than the string baseline, about one int64 factorize.

Reads ``shared/datasets`` beside the repository, or the folder named by
``$PARTIKIT_DATASETS`` (parts 1 and 2 are skipped, with the reason, without it).
``--quick``: 5,000 random rows of adult, 2,000 k-of-n rows, 1,000,000 rows for the
speed part.

    python benchmarks/perf/bench_aggregation.py [--quick] [--output FILE]
"""

from __future__ import annotations

import gc
import math
import os
import sys
import time
import warnings

# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from _common import (  # noqa: E402
    DATASETS_DIR,
    Report,
    RunContext,
    attempt,
    finish,
    first_calls_line,
    fmt_s,
    parse_args,
    progress,
    quiet_peer_warnings,
    read_dataset,
    script_path,
    table,
    time_call,
)
from _harness import verdict  # noqa: E402

NAME = "bench_aggregation"
ADULT_NUMERIC = ("age", "fnlwgt", "education.num", "capital.gain", "capital.loss",
                 "hours.per.week")  # fmt: skip
ADULT_TARGET, ADULT_POSITIVE = "income", ">50K"
QUICK_ADULT_ROWS = 5000
LR_MAX_ITER = 5000
N_FOLDS = 5
COLUMN_SHARE = 1 / 3  # part 1: at most this share of raw one-hot's columns
ALL_COLUMNS_LOSS = 0.285  # part 2: log-loss target
ALL_COLUMNS_SECONDS = 15.0  # part 2: whole 5-fold CV
KOFN_ROWS, QUICK_KOFN_ROWS = 5000, 2000
KOFN_NOISE_FEATURES = 3
SPEED_ROWS, QUICK_SPEED_ROWS = 10_000_000, 1_000_000
CARDINALITIES = (10, 8, 6, 4, 3)
FAST_REPEATS = 5  # partikit, int64 factorize
BASELINE_REPEATS = 3  # string baseline, transform with keep_original=True
SINGLE_RUN = 5.0  # seconds: a slower warm-up call is the only measurement
SPEED_TARGET = 10.0  # string baseline / ours
FACTORIZE_READING = 2.0  # "about one int64 factorize", read as within this factor
#: search x top_k of the AttributeAggregator rows of part 1 (top_k None: all kept)
SEARCHES = (("pairs", None), ("greedy", None), ("pairs", 3), ("pairs", 5),
            ("pairs", 10))  # fmt: skip
GROUPERS = ("KhiopsGrouper", "CHAIDGrouper")
ENCODES = ("onehot", "woe")


# ----------------------------------------------------------------------------------
# data
# ----------------------------------------------------------------------------------


def load_adult(quick):
    """Adult as a DataFrame (categorical columns as strings, NaN = missing; numeric
    columns as float64), the 0/1 target and the file's number of rows; None when
    the file is absent."""
    read = read_dataset("adult")
    if read is None:
        return None
    frame = read[0]
    frame = frame.mask(frame == "?")  # the file's missing-value string
    n_rows = len(frame)
    y = (frame.pop(ADULT_TARGET).str.strip() == ADULT_POSITIVE).astype(np.int64)
    for column in ADULT_NUMERIC:
        frame[column] = frame[column].astype(np.float64)
    if quick:
        rows = np.sort(
            np.random.default_rng(0).choice(len(frame), QUICK_ADULT_ROWS, replace=False)
        )
        frame, y = frame.iloc[rows].reset_index(drop=True), y.iloc[rows]
    return frame, y.to_numpy(), n_rows


# ----------------------------------------------------------------------------------
# cross-validation
# ----------------------------------------------------------------------------------


def evaluate(label, kind, make_model, X, y):
    """5-fold CV of ``make_model()``: log-loss and accuracy per fold, columns.

    ``make_model`` returns a Pipeline whose step ``"encode"`` (if any) makes the
    model's input columns; without one, the columns are X's.
    """
    from sklearn.model_selection import StratifiedKFold, cross_validate

    progress(f"CV: {label}")
    cv = StratifiedKFold(N_FOLDS, shuffle=True, random_state=0)

    def run():
        model = make_model()
        t0 = time.perf_counter()
        out = cross_validate(
            model, X, y, cv=cv, scoring=("neg_log_loss", "accuracy"),
            return_estimator=True, error_score="raise",
        )  # fmt: skip
        seconds = time.perf_counter() - t0
        encoders = [
            e.named_steps.get("encode") if hasattr(e, "named_steps") else None
            for e in out["estimator"]
        ]
        columns = [
            X.shape[1] if enc is None else enc.transform(X.iloc[:2]).shape[1]
            for enc in encoders
        ]
        aggregates = [
            len(aggregator.aggregates_)
            for aggregator in map(find_aggregator, encoders)
            if aggregator is not None
        ]
        return out, seconds, columns, aggregates

    result, error, caught = attempt(run)
    row = {"label": label, "kind": kind, "warnings": caught}
    if error is not None:
        row["error"] = error
        return row
    out, seconds, columns, aggregates = result
    row.update(
        losses=-out["test_neg_log_loss"],
        accuracies=out["test_accuracy"],
        columns=np.array(columns, dtype=np.float64),
        seconds=seconds,
        aggregates=np.array(aggregates, dtype=np.float64) if aggregates else None,
    )
    return row


def find_aggregator(encoder):
    """The AttributeAggregator inside ``encoder`` (itself, a step or a transformer
    of a ColumnTransformer), or None."""
    from partikit import AttributeAggregator

    if encoder is None or isinstance(encoder, AttributeAggregator):
        return encoder
    parts = list(getattr(encoder, "named_steps", {}).values())
    parts += [t for _, t, _ in getattr(encoder, "transformers_", [])]
    return next(
        (p for p in parts if isinstance(p, AttributeAggregator)),
        None,
    )


def lr_pipeline(encoder):
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline

    return Pipeline(
        [("encode", encoder), ("lr", LogisticRegression(max_iter=LR_MAX_ITER))]
    )


def make_grouper(name, encode):
    from partikit import CHAIDGrouper, KhiopsGrouper

    return {"KhiopsGrouper": KhiopsGrouper, "CHAIDGrouper": CHAIDGrouper}[name](
        encode=encode
    )


def aggregator_label(search, top_k, grouper, encode, keep_original=None):
    parts = [search + ("" if top_k is None else f", top_k={top_k}")]
    parts.append(f'{grouper}(encode="{encode}")')
    if keep_original is not None:
        parts.append(f"keep_original={keep_original}")
    return "Aggregator(" + "; ".join(parts) + ")"


def make_aggregator(search, top_k, grouper, encode, keep_original=True):
    from partikit import AttributeAggregator

    return AttributeAggregator(
        search=search,
        top_k=top_k,
        grouper=make_grouper(grouper, encode),
        keep_original=keep_original,
    )


# ----------------------------------------------------------------------------------
# 1. adult, categorical columns
# ----------------------------------------------------------------------------------


def categorical_rows(X, y):
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, TargetEncoder

    cat = list(X.columns)

    def woe_encoder():
        from category_encoders import WOEEncoder

        return WOEEncoder()

    def binning_process(metric):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from optbinning import BinningProcess

        params = None if metric is None else {c: {"metric": metric} for c in cat}
        return BinningProcess(
            variable_names=cat,
            categorical_variables=cat,
            binning_transform_params=params,
        )

    candidates = [
        ('raw one-hot: OneHotEncoder(handle_unknown="ignore")', "reference",
         lambda: OneHotEncoder(handle_unknown="ignore")),
        ("sklearn TargetEncoder(random_state=0)", "peer",
         lambda: TargetEncoder(random_state=0)),
        ("category_encoders WOEEncoder()", "peer", woe_encoder),
        ('optbinning BinningProcess(metric "bins") + OneHotEncoder', "peer",
         lambda: Pipeline([("bins", binning_process("bins")),
                           ("onehot", OneHotEncoder(handle_unknown="ignore"))])),
        ("optbinning BinningProcess (WoE, its default)", "peer",
         lambda: binning_process(None)),
        ('KhiopsGrouper(encode="onehot")', "partikit",
         lambda: make_grouper("KhiopsGrouper", "onehot")),
        ('CHAIDGrouper(encode="onehot")', "partikit",
         lambda: make_grouper("CHAIDGrouper", "onehot")),
    ]  # fmt: skip
    for search, top_k in SEARCHES:
        for grouper in GROUPERS:
            for encode in ENCODES:
                for keep in (True, False):
                    candidates.append(
                        (
                            aggregator_label(search, top_k, grouper, encode, keep),
                            "partikit",
                            lambda a=(search, top_k, grouper, encode, keep): (
                                make_aggregator(*a)
                            ),
                        )
                    )
    return [
        evaluate(label, kind, lambda make=make: lr_pipeline(make()), X, y)
        for label, kind, make in candidates
    ]


def searched_aggregates(X, y):
    """``aggregates_`` of each search x scoring grouper, fitted on all the rows
    (the grouper's encode and keep_original do not change the search)."""
    found = []
    for search in ("pairs", "greedy"):
        for grouper in GROUPERS:
            progress(f"aggregates on all rows: {search} / {grouper}")
            aggregator, error, _ = attempt(
                lambda s=search, g=grouper: make_aggregator(s, None, g, "onehot").fit(
                    X, y
                )
            )
            found.append(
                {
                    "search": search,
                    "grouper": grouper,
                    "error": error,
                    "aggregator": aggregator,
                }
            )
    return found


def pareto_front(rows):
    """Rows not dominated in (mean columns, mean log-loss), fewest columns first."""
    front, best = [], math.inf
    for r in sorted(rows, key=lambda r: (r["columns"].mean(), r["losses"].mean())):
        if r["losses"].mean() < best:
            front.append(r)
            best = r["losses"].mean()
    return front


# ----------------------------------------------------------------------------------
# 2. adult, all columns
# ----------------------------------------------------------------------------------


def all_columns_rows(X, y):
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    from partikit import (
        AttributeAggregator,
        BlockOptDiscretizer,
        CHAIDGrouper,
        KhiopsDiscretizer,
        MDLPDiscretizer,
    )

    num = list(ADULT_NUMERIC)
    cat = [c for c in X.columns if c not in num]
    categorical = [
        ('CHAIDGrouper(encode="onehot")', lambda: CHAIDGrouper(encode="onehot")),
        ('AttributeAggregator(search="pairs", grouper=CHAIDGrouper(encode="onehot"))',
         lambda: AttributeAggregator(search="pairs",
                                     grouper=CHAIDGrouper(encode="onehot"))),
        ('AttributeAggregator(search="greedy", grouper=CHAIDGrouper(encode="onehot"))',
         lambda: AttributeAggregator(search="greedy",
                                     grouper=CHAIDGrouper(encode="onehot"))),
    ]  # fmt: skip
    numeric = [
        ('MDLPDiscretizer(encode="onehot")', lambda: MDLPDiscretizer(encode="onehot")),
        ('BlockOptDiscretizer(encode="onehot")',
         lambda: BlockOptDiscretizer(encode="onehot")),
        ('KhiopsDiscretizer(encode="onehot")',
         lambda: KhiopsDiscretizer(encode="onehot")),
    ]  # fmt: skip
    rows = []
    for cat_label, make_cat in categorical:
        for num_label, make_num in numeric:

            def make(make_cat=make_cat, make_num=make_num):
                return lr_pipeline(
                    ColumnTransformer(
                        [("cat", make_cat(), cat), ("num", make_num(), num)]
                    )
                )

            rows.append(evaluate(f"{cat_label} + {num_label}", "partikit", make, X, y))
    rows.append(
        evaluate(
            'reference: OneHotEncoder(handle_unknown="ignore") + StandardScaler()',
            "reference",
            lambda: lr_pipeline(
                ColumnTransformer(
                    [
                        ("cat", OneHotEncoder(handle_unknown="ignore"), cat),
                        ("num", StandardScaler(), num),
                    ]
                )
            ),
            X,
            y,
        )
    )
    X_hgb = X.astype(dict.fromkeys(cat, "category"))
    rows.append(
        evaluate(
            "reference: HistGradientBoostingClassifier(categorical_features="
            '"from_dtype", random_state=0) on `category` columns (no LR)',
            "reference",
            lambda: Pipeline(
                [
                    (
                        "model",
                        HistGradientBoostingClassifier(
                            categorical_features="from_dtype", random_state=0
                        ),
                    )
                ]
            ),
            X_hgb,
            y,
        )
    )
    return rows


# ----------------------------------------------------------------------------------
# 3. k-of-n
# ----------------------------------------------------------------------------------


def k_of_n(n_rows):
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import OneHotEncoder

    from partikit import AttributeAggregator, KhiopsGrouper
    from partikit.datasets import make_k_of_n

    X, y = make_k_of_n(
        n_samples=n_rows, n_noise_features=KOFN_NOISE_FEATURES, random_state=0
    )
    tests = [c for c in X.columns if c.startswith("test_")]

    def greedy():
        return AttributeAggregator(
            search="greedy",
            grouper=KhiopsGrouper(encode="onehot"),
            keep_original=False,
        )

    candidates = [
        ('one-hot of the raw columns: OneHotEncoder(handle_unknown="ignore")',
         "reference", lambda: OneHotEncoder(handle_unknown="ignore")),
        ('AttributeAggregator(search="greedy", grouper=KhiopsGrouper(encode="onehot"), '
         "keep_original=False)", "partikit", greedy),
        ("AttributeAggregator(aggregates=[the 5 tests], grouper=KhiopsGrouper("
         'encode="onehot"), keep_original=False)', "partikit",
         lambda: AttributeAggregator(aggregates=[tests],
                                     grouper=KhiopsGrouper(encode="onehot"),
                                     keep_original=False)),
        ("AttributeAggregator(aggregates=[the 5 tests], keep_original=False) + "
         'OneHotEncoder(handle_unknown="ignore") (combinations not grouped)',
         "partikit",
         lambda: Pipeline([("aggregate", AttributeAggregator(aggregates=[tests],
                                                             keep_original=False)),
                           ("onehot", OneHotEncoder(handle_unknown="ignore"))])),
    ]  # fmt: skip
    rows = [
        evaluate(label, kind, lambda make=make: lr_pipeline(make()), X, y)
        for label, kind, make in candidates
    ]
    progress("k-of-n: greedy on all rows")
    fitted, error, _ = attempt(lambda: greedy().fit(X, y))
    return {"rows": rows, "tests": tests, "greedy": fitted, "greedy_error": error,
            "n_rows": n_rows}  # fmt: skip


# ----------------------------------------------------------------------------------
# 4. speed
# ----------------------------------------------------------------------------------


def string_baseline(X):
    """The user's way: join the columns' values as strings, factorize."""
    joined = X.iloc[:, 0].astype(str)
    for name in X.columns[1:]:
        joined = joined + "|" + X[name].astype(str)
    return pd.factorize(joined)[0]


def same_partition(a, b):
    """Whether two code arrays group the same rows together (and have no -1)."""
    a, b = np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)
    if a.min() < 0 or b.min() < 0:
        return False
    n_a, n_b = len(pd.unique(a)), len(pd.unique(b))
    return n_a == n_b == len(pd.unique(a * (b.max() + 1) + b))


def speed(n_rows):
    from partikit import AttributeAggregator

    rng = np.random.default_rng(0)
    codes = [rng.integers(0, k, n_rows).astype(np.int8) for k in CARDINALITIES]
    key = np.zeros(n_rows, dtype=np.int64)
    for column, k in zip(codes, CARDINALITIES, strict=True):
        key = key * k + column
    progress("speed: int64 factorize")
    factorize = time_call(lambda: pd.factorize(key)[0], FAST_REPEATS)
    reference = factorize.result
    factorize.result = None

    def category_frame():
        return pd.DataFrame(
            {
                f"c{j}": pd.Categorical.from_codes(
                    column, categories=[f"v{v}" for v in range(k)]
                )
                for j, (column, k) in enumerate(zip(codes, CARDINALITIES, strict=True))
            }
        )

    builders = {
        "category": category_frame,
        "object": lambda: category_frame().astype(object),
        "str": lambda: category_frame().astype("str"),
    }
    results = []
    first_codes = None
    for dtype_name, build in builders.items():
        X = build()
        r = {"dtype": dtype_name, "pandas_dtype": str(X.dtypes.iloc[0])}
        progress(f"speed: {dtype_name} fit / transform")
        r["fit"] = time_call(
            lambda X=X: AttributeAggregator(
                max_categories=None, keep_original=False
            ).fit(X),
            FAST_REPEATS,
        )
        fitted = r["fit"].result
        r["fit"].result = None
        r["n_combinations"] = int(fitted.n_combinations_[0])
        r["transform"] = time_call(
            lambda X=X, fitted=fitted: fitted.transform(X), FAST_REPEATS
        )
        ours = r["transform"].result[:, 0].astype(np.int64)
        r["transform"].result = None
        progress(f"speed: {dtype_name} transform, keep_original=True")
        kept = AttributeAggregator(max_categories=None).fit(X)
        r["transform_kept"] = time_call(
            lambda X=X, kept=kept: kept.transform(X).shape,
            BASELINE_REPEATS,
            single_if_slower_than=SINGLE_RUN,
        )
        progress(f"speed: {dtype_name} string baseline")
        r["string"] = time_call(
            lambda X=X: string_baseline(X),
            BASELINE_REPEATS,
            single_if_slower_than=SINGLE_RUN,
        )
        r["agree_string"] = same_partition(ours, r["string"].result)
        r["string"].result = None
        r["agree_key"] = same_partition(ours, reference)
        if first_codes is None:
            first_codes = ours
        r["same_codes_as_category"] = bool(np.array_equal(ours, first_codes))
        results.append(r)
        del X, fitted, kept, ours
        gc.collect()
    return {"factorize": factorize, "rows": results}


# ----------------------------------------------------------------------------------
# report helpers
# ----------------------------------------------------------------------------------


def loss_cell(r):
    return f"{r['losses'].mean():.4f} ± {r['losses'].std(ddof=1):.4f}"


def accuracy_cell(r):
    return f"{r['accuracies'].mean():.4f} ± {r['accuracies'].std(ddof=1):.4f}"


def delta(r, base):
    """Paired difference of the fold log-losses with ``base``: (mean, sd)."""
    d = r["losses"] - base["losses"]
    return d.mean(), d.std(ddof=1)


def delta_cell(r, base):
    if base is None or "error" in base:
        return "–"
    mean, sd = delta(r, base)
    return f"{mean:+.4f} ± {sd:.4f}"


def columns_cell(r):
    c = r["columns"]
    if c.min() == c.max():
        return f"{c[0]:.0f}"
    return f"{c.mean():.1f} ({c.min():.0f}–{c.max():.0f})"


def aggregates_cell(r):
    a = r.get("aggregates")
    if a is None:
        return ""
    return f"{a[0]:.0f}" if a.min() == a.max() else f"{a.mean():.1f}"


def failed_row(r, width):
    return [r["label"], f"**failed**: {r['error']}"] + ["–"] * (width - 2)


def warnings_note(rows):
    """A details block listing the warnings of each row that raised some."""
    noisy = [r for r in rows if r["warnings"]]
    if not noisy:
        return "No warning was raised during these runs."
    lines = ["<details><summary>Warnings raised during the runs</summary>", ""]
    for r in noisy:
        lines.append(f"* {r['label']}: " + "; ".join(f"`{w}`" for w in r["warnings"]))
    lines += ["", "</details>"]
    return "\n".join(lines)


def ratio_cell(x):
    return f"{x:.1f}x" if x >= 1 else f"{x:.2f}x"


# ----------------------------------------------------------------------------------


def main():
    args = parse_args(__doc__.splitlines()[0])
    quiet_peer_warnings()
    context = RunContext(os.path.basename(__file__), args.quick)

    from partikit import (
        AttributeAggregator,
        CHAIDGrouper,
        KhiopsGrouper,
        MDLPDiscretizer,
    )
    from partikit.datasets import make_k_of_n

    report = Report(NAME)
    report.add(
        f"## AttributeAggregator: adult, k-of-n, speed on "
        f"{QUICK_SPEED_ROWS if args.quick else SPEED_ROWS:,} rows ({script_path(NAME)})"
    )
    report.add()
    report.header(context)

    # ---- first calls (numba kernels compiled or loaded from the on-disk cache)
    Xw, yw = make_k_of_n(n_samples=500, n_noise_features=1, random_state=1)
    first_calls = {}
    for label, fn in [
        ("AttributeAggregator().fit", lambda: AttributeAggregator().fit(Xw)),
        ('AttributeAggregator(search="pairs").fit',
         lambda: AttributeAggregator(search="pairs").fit(Xw, yw)),
        ("KhiopsGrouper().fit", lambda: KhiopsGrouper().fit(Xw, yw)),
        ("CHAIDGrouper().fit", lambda: CHAIDGrouper().fit(Xw, yw)),
        ("MDLPDiscretizer().fit",
         lambda: MDLPDiscretizer().fit(np.arange(500.0)[:, None], yw)),
    ]:  # fmt: skip
        t0 = time.perf_counter()
        _, error, _ = attempt(fn)
        first_calls[label] = (
            f"failed: {error}" if error else f"{fmt_s(time.perf_counter() - t0)} s"
        )

    adult = load_adult(args.quick)
    categorical = all_columns = aggregates_found = None
    if adult is not None:
        X_adult, y_adult, n_adult = adult
        X_cat = X_adult.drop(columns=list(ADULT_NUMERIC))
        categorical = categorical_rows(X_cat, y_adult)
        aggregates_found = searched_aggregates(X_cat, y_adult)
        all_columns = all_columns_rows(X_adult, y_adult)
    kofn = k_of_n(QUICK_KOFN_ROWS if args.quick else KOFN_ROWS)
    n_speed = QUICK_SPEED_ROWS if args.quick else SPEED_ROWS
    speed_results = speed(n_speed)

    context.stop()

    # ------------------------------------------------------------------ report
    report.add(context.usage_lines())
    report.add(first_calls_line(first_calls))
    report.add(
        f"* Cross-validation (parts 1–3): `cross_validate(Pipeline([('encode', "
        f"encoder), ('lr', LogisticRegression(max_iter={LR_MAX_ITER}))]), X, y, "
        f"cv=StratifiedKFold({N_FOLDS}, shuffle=True, random_state=0), "
        "scoring=('neg_log_loss', 'accuracy'))` on a DataFrame: every encoder is "
        "refitted in each training fold, every row sees the same folds. Log-loss "
        "and accuracy: mean ± sd over the folds; **Δ log-loss**: the paired "
        "difference with the reference row, fold by fold (mean ± sd; negative = "
        "better than the reference); **columns**: columns entering the model (the "
        "encoder's output on two rows), mean over the folds (min–max when they "
        "differ); **CV s**: wall time of the whole `cross_validate` (one run, "
        "one thread)."
    )
    report.add()
    if adult is None:
        report.add(
            f"**Datasets folder `{DATASETS_DIR}` (adult/data.csv) absent**: parts 1 "
            "and 2 (adult) are skipped."
        )
        report.add()
    else:
        adult_text = (
            f"adult (`data.csv`, {n_adult:,} rows"
            + (f", a random {len(X_adult):,} of them" if args.quick else "")
            + ', `?` read as missing and kept, target `income == ">50K"`)'
        )
        report_categorical(report, categorical, aggregates_found, adult_text, X_cat)
        report_all_columns(report, all_columns, adult_text)
    report_k_of_n(report, kofn)
    report_speed(report, speed_results, n_speed)
    finish(report, args.output)


# ----------------------------------------------------------------------------------
# report sections
# ----------------------------------------------------------------------------------


def report_categorical(report, rows, found, adult_text, X_cat):
    report.add("### 1. Adult, categorical columns only: logistic regression")
    report.add()
    report.add(
        f"Data: {adult_text}, its {X_cat.shape[1]} categorical columns only "
        f"({', '.join(X_cat.columns)}). "
        '"Aggregator(search[, top_k]; Grouper(encode=...); keep_original=...)" '
        "stands for `AttributeAggregator(search=..., top_k=..., grouper=Grouper("
        "encode=...), keep_original=...)` (its other parameters at their "
        "defaults). optbinning's `BinningProcess(variable_names=cat, "
        "categorical_variables=cat)` transforms to bin labels through "
        "`binning_transform_params={col: {'metric': 'bins'}}` (the labels are the "
        "repr of each bin's category array under pandas 3, one distinct string per "
        'bin, and `Missing`), then `OneHotEncoder(handle_unknown="ignore")`; its '
        "missing-value bin of workclass, occupation and native.country makes a "
        "column of its own. **aggregates**: `len(aggregates_)`, fold mean. "
        "**target**: log-loss no worse than raw one-hot (fold means) with at most "
        "a third of its columns; **Pareto**: on the Pareto front of the partikit "
        "rows (no partikit row has fewer or as many columns and a lower log-loss)."
    )
    report.add()
    raw = rows[0]
    ok = [r for r in rows if "error" not in r]
    partikit_ok = [r for r in ok if r["kind"] == "partikit"]
    front = pareto_front(partikit_ok) if partikit_ok else []
    raw_ok = "error" not in raw
    limit = raw["columns"].mean() * COLUMN_SHARE if raw_ok else None

    def meets(r):
        return (
            raw_ok
            and r["losses"].mean() <= raw["losses"].mean()
            and r["columns"].mean() <= limit
        )

    header = ["encoder", "log-loss", "Δ log-loss vs raw one-hot", "accuracy",
              "columns", "aggregates", "CV s", "target", "Pareto"]  # fmt: skip
    table_rows = []
    for r in rows:
        if "error" in r:
            table_rows.append(failed_row(r, len(header)))
            continue
        partikit = r["kind"] == "partikit"
        table_rows.append(
            [
                r["label"],
                loss_cell(r),
                "(reference)" if r is raw else delta_cell(r, raw),
                accuracy_cell(r),
                columns_cell(r),
                aggregates_cell(r),
                fmt_s(r["seconds"]),
                verdict(meets(r)) if partikit else "",
                ("yes" if r in front else "") if partikit else "",
            ]
        )
    report.add(table(header, table_rows))
    report.add()

    sentences = []
    if not raw_ok:
        sentences.append(f"Raw one-hot failed ({raw['error']}): no target to check.")
    else:
        sentences.append(
            f"Raw one-hot: log-loss {raw['losses'].mean():.4f} with "
            f"{raw['columns'].mean():.1f} columns, so the target asks for a "
            f"log-loss <= {raw['losses'].mean():.4f} with <= {limit:.1f} columns."
        )
        eligible = [r for r in partikit_ok if meets(r)]
        if eligible:
            best = min(eligible, key=lambda r: r["losses"].mean())
            mean, sd = delta(best, raw)
            sentences.append(
                f"Target **met** by {len(eligible)} partikit row(s); the best is "
                f"{best['label']}: log-loss {best['losses'].mean():.4f} with "
                f"{best['columns'].mean():.1f} columns (paired Δ {mean:+.4f} ± "
                f"{sd:.4f} over the folds"
                + (
                    ", within one sd of zero: a tie with raw one-hot rather than a "
                    "win)."
                    if abs(mean) <= sd
                    else ")."
                )
            )
        else:
            sentences.append("Target **not met**: no partikit row meets both bounds.")
        few = [r for r in partikit_ok if r["columns"].mean() <= limit]
        good = [r for r in partikit_ok if r["losses"].mean() <= raw["losses"].mean()]
        if few:
            best_few = min(few, key=lambda r: r["losses"].mean())
            mean, sd = delta(best_few, raw)
            sentences.append(
                f"Lowest log-loss within {limit:.1f} columns: {best_few['label']}, "
                f"{best_few['losses'].mean():.4f} ({best_few['columns'].mean():.1f} "
                f"columns; Δ {mean:+.4f} ± {sd:.4f})."
            )
        if good:
            fewest = min(good, key=lambda r: (r["columns"].mean(), r["losses"].mean()))
            sentences.append(
                f"Fewest columns at a log-loss <= raw one-hot's: {fewest['label']}, "
                f"{fewest['columns'].mean():.1f} columns "
                f"({fewest['losses'].mean():.4f})."
            )
        else:
            sentences.append("No partikit row reaches raw one-hot's log-loss.")
        best_loss = min(partikit_ok, key=lambda r: r["losses"].mean(), default=None)
        if best_loss is not None:
            mean, sd = delta(best_loss, raw)
            sentences.append(
                f"Lowest log-loss of all partikit rows: {best_loss['label']}, "
                f"{best_loss['losses'].mean():.4f} ({best_loss['columns'].mean():.1f} "
                f"columns; Δ {mean:+.4f} ± {sd:.4f})."
            )
        peers = [r for r in ok if r["kind"] == "peer"]
        if peers:
            best_peer = min(peers, key=lambda r: r["losses"].mean())
            sentences.append(
                f"Best peer: {best_peer['label']}, {best_peer['losses'].mean():.4f} "
                f"with {best_peer['columns'].mean():.1f} columns."
            )
    failed = [r["label"] for r in rows if "error" in r]
    if failed:
        sentences.append(
            "**Failed**: " + "; ".join(failed) + " (first line of the error above)."
        )
    report.add("What the numbers show: " + " ".join(sentences))
    report.add()
    if front:
        report.add(
            "Pareto front of the partikit rows (columns → log-loss): "
            + "; ".join(
                f"{r['columns'].mean():.1f} → {r['losses'].mean():.4f} ({r['label']})"
                for r in front
            )
            + "."
        )
        report.add()
    report.add(
        "<details><summary>Aggregates chosen by the search, fitted on all the "
        "rows</summary>"
    )
    report.add()
    found_rows = []
    for f in found:
        if f["error"] is not None:
            found_rows.append([f["search"], f["grouper"], f"**failed**: {f['error']}"])
            continue
        aggregator = f["aggregator"]
        found_rows.append(
            [
                f["search"],
                f["grouper"],
                "; ".join(
                    f"{'*'.join(a)} ({n})"
                    for a, n in zip(
                        aggregator.aggregates_, aggregator.n_combinations_, strict=True
                    )
                )
                or "none",
            ]
        )
    report.add(
        table(
            ["search", "scoring grouper", "aggregates_, best first (combinations)"],
            found_rows,
        )
    )
    report.add()
    report.add(
        "`top_k=k` keeps the first k pairs of the `pairs` list. The grouper's "
        "`encode` and `keep_original` do not change the search (it scores with the "
        'grouper set to `encode="ordinal"`).'
    )
    report.add()
    report.add("</details>")
    report.add()
    report.add(warnings_note(rows))
    report.add()


def report_all_columns(report, rows, adult_text):
    report.add("### 2. Adult, all 14 columns: one ColumnTransformer, then LR")
    report.add()
    report.add(
        f"Data: {adult_text}, its 8 categorical columns (strings) and 6 numeric "
        "ones (float64). partikit rows: `ColumnTransformer([('cat', <grouping of "
        "the categorical columns>, cat), ('num', <discretizer>, num)])` then the "
        "logistic regression; references: one-hot + `StandardScaler`, and "
        "`HistGradientBoostingClassifier` (default parameters, its early stopping "
        "on, categorical columns cast to `category`, no LR). **target**: log-loss "
        f"<= {ALL_COLUMNS_LOSS} with the whole {N_FOLDS}-fold CV under "
        f"{ALL_COLUMNS_SECONDS:.0f} s."
    )
    report.add()
    header = ["setup", "log-loss", "Δ log-loss vs one-hot + scaler", "accuracy",
              "columns", "CV s", "target"]  # fmt: skip
    base = next((r for r in rows if "StandardScaler" in r["label"]), None)
    table_rows = []
    met = []
    for r in rows:
        if "error" in r:
            table_rows.append(failed_row(r, len(header)))
            continue
        target = ""
        if r["kind"] == "partikit":
            ok = (
                r["losses"].mean() <= ALL_COLUMNS_LOSS
                and r["seconds"] < ALL_COLUMNS_SECONDS
            )
            target = verdict(ok)
            if ok:
                met.append(r)
        table_rows.append(
            [
                r["label"],
                loss_cell(r),
                "(reference)" if r is base else delta_cell(r, base),
                accuracy_cell(r),
                columns_cell(r) + (" (input)" if "HistGradient" in r["label"] else ""),
                fmt_s(r["seconds"]),
                target,
            ]
        )
    report.add(table(header, table_rows))
    report.add()
    partikit_ok = [r for r in rows if r["kind"] == "partikit" and "error" not in r]
    sentences = [
        f"Target (log-loss <= {ALL_COLUMNS_LOSS}, CV < {ALL_COLUMNS_SECONDS:.0f} s) "
        + (
            f"**met** by {len(met)} of {len(partikit_ok)} partikit rows"
            if met
            else "**not met** by any partikit row"
        )
        + "."
    ]
    if partikit_ok:
        best = min(partikit_ok, key=lambda r: r["losses"].mean())
        slowest = max(partikit_ok, key=lambda r: r["seconds"])
        sentences.append(
            f"Lowest log-loss: {best['label']}, {best['losses'].mean():.4f} in "
            f"{fmt_s(best['seconds'])} s; slowest CV: {slowest['label']}, "
            f"{fmt_s(slowest['seconds'])} s."
        )
        hgb = next(
            (r for r in rows if "HistGradient" in r["label"] and "error" not in r),
            None,
        )
        if hgb is not None:
            sentences.append(
                f"Gradient boosting (native categorical): "
                f"{hgb['losses'].mean():.4f}; the best partikit + LR row is "
                f"{best['losses'].mean() - hgb['losses'].mean():+.4f} from it."
            )
    report.add("What the numbers show: " + " ".join(sentences))
    report.add()
    report.add(warnings_note(rows))
    report.add()


def report_k_of_n(report, kofn):
    rows = kofn["rows"]
    noise = 0.1
    bayes = -(noise * math.log(noise) + (1 - noise) * math.log(1 - noise))
    report.add("### 3. k-of-n: the aggregate of the 5 tests")
    report.add()
    report.add(
        f"Data: `make_k_of_n(n_samples={kofn['n_rows']}, n_noise_features="
        f"{KOFN_NOISE_FEATURES}, random_state=0)` (5 binary tests, class = at "
        "least 3 positive, flipped with probability 0.1; 3 binary noise columns). "
        f"Bayes log-loss −(0.9 ln 0.9 + 0.1 ln 0.1) = {bayes:.4f}, Bayes accuracy "
        "0.9. The class is a threshold on the count of positive tests, which a "
        "linear model on the one-hot tests can draw (equal weights): accuracy can "
        "tie; what the aggregate must win is the log-loss (the model's "
        "probabilities as a function of the count are a sigmoid, not a step)."
    )
    report.add()
    header = ["encoder", "log-loss", "Δ log-loss vs one-hot", "accuracy", "columns",
              "CV s"]  # fmt: skip
    base = rows[0]
    table_rows = []
    for r in rows:
        if "error" in r:
            table_rows.append(failed_row(r, len(header)))
            continue
        table_rows.append(
            [
                r["label"],
                loss_cell(r),
                "(reference)" if r is base else delta_cell(r, base),
                accuracy_cell(r),
                columns_cell(r),
                fmt_s(r["seconds"]),
            ]
        )
    report.add(table(header, table_rows))
    report.add()
    sentences = []
    greedy = kofn["greedy"]
    if greedy is None:
        sentences.append(
            f"The greedy fit on all rows **failed**: {kofn['greedy_error']}."
        )
    else:
        found = greedy.aggregates_
        exact = len(found) == 1 and set(found[0]) == set(kofn["tests"])
        n_groups = greedy.grouper_.n_groups_[-len(found) :] if found else []
        sentences.append(
            "Greedy search, fitted on all rows: aggregates_ = "
            + (
                ", ".join(
                    f"({', '.join(a)}) with {n} combinations and {g} groups"
                    for a, n, g in zip(
                        found, greedy.n_combinations_, n_groups, strict=True
                    )
                )
                or "none"
            )
            + " — "
            + ("exactly the 5 tests" if exact else "**not exactly the 5 tests**")
            + "."
        )
    greedy_row = rows[1]
    if "error" not in greedy_row and "error" not in base:
        mean, sd = delta(greedy_row, base)
        wins = mean < 0
        sentences.append(
            f"Log-loss, greedy aggregate vs one-hot: {greedy_row['losses'].mean():.4f} "
            f"vs {base['losses'].mean():.4f} (paired Δ {mean:+.4f} ± {sd:.4f}) — "
            + ("the aggregate wins" if wins else "**the aggregate does not win**")
            + f"; accuracy {greedy_row['accuracies'].mean():.4f} vs "
            f"{base['accuracies'].mean():.4f}. Bayes log-loss {bayes:.4f}: the "
            f"aggregate is {greedy_row['losses'].mean() - bayes:+.4f} from it, "
            f"one-hot {base['losses'].mean() - bayes:+.4f}."
        )
    report.add("What the numbers show: " + " ".join(sentences))
    report.add()
    report.add(warnings_note(rows))
    report.add()


def report_speed(report, results, n_rows):
    factorize = results["factorize"]
    rows = results["rows"]
    report.add(f"### 4. Speed: {n_rows:,} rows x {len(CARDINALITIES)} columns")
    report.add()
    report.add(
        f"Data: {len(CARDINALITIES)} columns of cardinalities "
        f"{', '.join(map(str, CARDINALITIES))} (codes drawn uniformly, numpy "
        "`default_rng(0)`; values `v0`, `v1`, ...), as pandas `category`, as "
        "`object` (`.astype(object)`: Python strings) and as pandas' default "
        '`str` dtype (`.astype("str")`); no missing value. **ours fit**: '
        "`AttributeAggregator(max_categories=None, keep_original=False).fit(X)` "
        "(one aggregate of the 5 columns; no y: no grouper, no search; fit learns "
        "the combinations and computes every row's code); **ours transform**: its "
        "`.transform(X)` (a float64 column of codes). **transform, "
        "keep_original=True**: the default, whose output also holds the 5 original "
        "columns as they are (an object array for non-numeric columns); fit does "
        "not depend on `keep_original`. **int64 factorize**: `pd.factorize` of "
        "the precomputed mixed-radix int64 key of the 5 codes (dtype-independent; "
        "building the key is not timed). **string baseline**: `(X.c0.astype(str) "
        '+ "|" + X.c1.astype(str) + ...)` then `pd.factorize`. Times: median '
        f"(min–max, n) after a warm-up call, {FAST_REPEATS} repeats for ours and "
        f"the int64 factorize, {BASELINE_REPEATS} for the string baseline and the "
        f"keep_original=True transform, or the warm-up call alone when it took "
        f'more than {SINGLE_RUN:.0f} s ("1 run"). Partitions: ours vs the '
        "baseline's codes group the same rows together (a bijection between "
        "codes, no code -1)."
    )
    report.add()
    header = ["columns", "ours fit s", "ours transform s",
              "transform, keep_original=True s", "string baseline s",
              "baseline / fit", "baseline / transform", "fit / int64 factorize",
              "transform / int64 factorize", "same partition as baseline / key",
              "combinations"]  # fmt: skip
    table_rows = []
    for r in rows:
        f, t, s = r["fit"].median, r["transform"].median, r["string"].median
        table_rows.append(
            [
                f"`{r['dtype']}` ({r['pandas_dtype']})",
                r["fit"].cell(),
                r["transform"].cell(),
                r["transform_kept"].cell(),
                r["string"].cell(),
                ratio_cell(s / f),
                ratio_cell(s / t),
                ratio_cell(f / factorize.median),
                ratio_cell(t / factorize.median),
                f"{'yes' if r['agree_string'] else '**NO**'} / "
                f"{'yes' if r['agree_key'] else '**NO**'}",
                f"{r['n_combinations']:,}",
            ]
        )
    report.add(table(header, table_rows))
    report.add()
    report.add(
        f"int64 factorize of the key: {factorize.cell()} (first call "
        f"{fmt_s(factorize.first)} s). First fit of each dtype (warm-up, excluded): "
        + ", ".join(f"{r['dtype']} {fmt_s(r['fit'].first)} s" for r in rows)
        + "."
    )
    report.add()
    sentences = []
    for r in rows:
        f, t, s = r["fit"].median, r["transform"].median, r["string"].median
        ok = min(s / f, s / t) >= SPEED_TARGET
        sentences.append(
            f"`{r['dtype']}`: ours is {ratio_cell(s / f)} (fit) and "
            f"{ratio_cell(s / t)} (transform) faster than the string baseline — "
            f">= {SPEED_TARGET:.0f}x " + verdict(ok) + "; "
            f"fit = {ratio_cell(f / factorize.median)} and transform = "
            f"{ratio_cell(t / factorize.median)} one int64 factorize"
            + (
                " (about one: within "
                f"{FACTORIZE_READING:.0f}x — "
                + (
                    "yes"
                    if max(f, t) / factorize.median <= FACTORIZE_READING
                    else "**no**"
                )
                + ")"
            )
            + "."
        )
    same = all(r["same_codes_as_category"] for r in rows)
    agree = all(r["agree_string"] and r["agree_key"] for r in rows)
    sentences.append(
        "Partitions agree with the string baseline and the int64 key for every "
        "dtype: " + ("yes" if agree else "**NO**") + "; ours gives identical codes "
        "for the three dtypes: " + ("yes" if same else "**no**") + "."
    )
    kept = ", ".join(
        f"{r['dtype']} {fmt_s(r['transform_kept'].median)} s" for r in rows
    )
    sentences.append(
        "The default `keep_original=True` transform, which copies the 5 original "
        f"columns into the output, takes {kept}."
    )
    report.add("What the numbers show: " + " ".join(sentences))
    report.add()


if __name__ == "__main__":
    main()
