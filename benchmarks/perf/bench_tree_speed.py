# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""PartitionTreeClassifier vs scikit-learn's DecisionTreeClassifier (issue 19).

Three fits with the defaults of both trees (no depth limit, ``min_samples_leaf=1``):
adult with all 14 columns (the 8 text columns as they are for partikit, ``?``
one more category; ordinal-encoded for scikit-learn, ``OrdinalEncoder`` fitted
inside the timed call), scikit-learn's digits (64 numeric columns), and a
1,000,000-row table (``make_classification``: 20 numeric columns plus 5 columns of
100 string categories, each the shuffled quantile bin of a further informative
feature). Then ``predict`` on the 1M rows with the tree fitted on them (the
encoder's ``transform`` included for scikit-learn). Each call is timed after a
warm-up call (numba compile or cache load excluded): median of 3 (one run when
the warm-up took more than 30 s). Target: partikit's fit within 2x of
scikit-learn's, its predict at most 1x.

    python benchmarks/perf/bench_tree_speed.py [--quick] [--output FILE]

``--quick``: 100,000 rows instead of 1,000,000 (**not the issue's size**); the
result is only printed unless ``--output`` is given. A full run replaces the
section of ``RESULTS.md`` and appends the run it held to
``benchmarks/results/<its date>-bench_tree_speed.md``.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from _common import (  # noqa: E402
    Report,
    RunContext,
    finish,
    parse_args,
    progress,
    read_dataset,
    script_path,
    table,
)
from _harness import Comparison, verdict  # noqa: E402

NAME = "bench_tree_speed"
FIT_TARGET = 2.0
PREDICT_TARGET = 1.0


def load_adult():
    read = read_dataset("adult")
    if read is None:
        return None
    frame, _ = read
    y = frame.pop("income").to_numpy()
    for column in frame:
        numbers = pd.to_numeric(frame[column], errors="coerce")
        if numbers.notna().all():
            frame[column] = numbers
    return frame, y


def load_digits_frame():
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return pd.DataFrame(X, columns=[f"pixel{j}" for j in range(X.shape[1])]), y


def make_large(n_samples):
    """20 numeric columns and 5 string columns of 100 categories, 2 classes."""
    from sklearn.datasets import make_classification

    X, y = make_classification(
        n_samples=n_samples, n_features=25, n_informative=15, n_redundant=0,
        random_state=0,
    )  # fmt: skip
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(X[:, :20], columns=[f"x{j}" for j in range(20)])
    names = np.array([f"v{k:02d}" for k in range(100)])
    for j in range(5):
        hidden = X[:, 20 + j]
        bins = np.searchsorted(
            np.quantile(hidden, np.linspace(0, 1, 101)[1:-1]), hidden
        )
        frame[f"c{j}"] = pd.Categorical(names[rng.permutation(100)][bins])
    return frame, y


def _categorical_columns(frame):
    return [c for c in frame if not pd.api.types.is_numeric_dtype(frame[c])]


class SklearnTree:
    """Ordinal encoder on the text columns + DecisionTreeClassifier."""

    def __init__(self, frame):
        self.categorical = _categorical_columns(frame)
        self.numeric = [c for c in frame if c not in self.categorical]

    def _matrix(self, frame):
        parts = [frame[self.numeric].to_numpy(dtype=np.float64)]
        if self.categorical:
            parts.append(self.encoder.transform(frame[self.categorical]))
        return np.column_stack(parts)

    def fit(self, frame, y):
        from sklearn.preprocessing import OrdinalEncoder
        from sklearn.tree import DecisionTreeClassifier

        self.encoder = OrdinalEncoder(
            handle_unknown="use_encoded_value", unknown_value=-1
        )
        if self.categorical:
            self.encoder.fit(frame[self.categorical])
        self.tree = DecisionTreeClassifier(random_state=0).fit(self._matrix(frame), y)
        return self

    def predict(self, frame):
        return self.tree.predict(self._matrix(frame))

    def summary(self):
        return f"{self.tree.tree_.node_count} nodes, depth {self.tree.get_depth()}"


def _fit_row(comparison, label, frame, y):
    from partikit.tree import PartitionTreeClassifier

    progress(f"{label}: scikit-learn")
    sk = comparison.time(
        label, "scikit-learn", lambda: SklearnTree(frame).fit(frame, y), repeats=3,
        single_if_slower_than=30,
    )  # fmt: skip
    progress(f"{label}: partikit")
    # compile (or load) the kernels outside the timed calls
    PartitionTreeClassifier().fit(frame.iloc[:2000], y[:2000])
    pk = comparison.time(
        label, "partikit", lambda: PartitionTreeClassifier().fit(frame, y), repeats=3,
        single_if_slower_than=30,
    )  # fmt: skip
    ours = pk.result
    ratio = comparison.ratio(label, "partikit")
    return [
        label,
        f"{len(frame):,} x {frame.shape[1]}",
        pk.cell(),
        sk.cell(),
        f"**{ratio:.2f}x**",
        verdict(ratio <= FIT_TARGET),
        f"{ours.tree_.n_nodes} nodes, depth {ours.get_depth()} / {sk.result.summary()}",
    ], (ours, sk.result)


def main():
    args = parse_args(__doc__.splitlines()[0])
    n_large = 100_000 if args.quick else 1_000_000
    context = RunContext(NAME, quick=args.quick)
    fit_rows = []
    # ratios: partikit's median over scikit-learn's
    comparison = Comparison(reference="scikit-learn")
    adult = load_adult()
    if adult is None:
        fit_rows.append(["adult", "–", "not run: shared/datasets absent"] + ["–"] * 4)
    else:
        fit_rows.append(_fit_row(comparison, "adult", *adult)[0])
    fit_rows.append(_fit_row(comparison, "digits", *load_digits_frame())[0])
    progress(f"make_large({n_large})")
    large, y_large = make_large(n_large)
    label = f"make_classification {n_large:,}"
    row, (ours, theirs) = _fit_row(comparison, label, large, y_large)
    fit_rows.append(row)
    progress("predict")
    key = ("predict", label)
    pk = comparison.time(key, "partikit", lambda: ours.predict(large), repeats=3)
    sk = comparison.time(key, "scikit-learn", lambda: theirs.predict(large), repeats=3)
    ratio = comparison.ratio(key, "partikit")
    predict_rows = [[
        label,
        pk.cell(),
        sk.cell(),
        f"**{ratio:.2f}x**",
        verdict(ratio <= PREDICT_TARGET),
    ]]  # fmt: skip
    context.stop()
    report = Report(NAME)
    report.add(f"## Tree speed vs scikit-learn ({script_path(NAME)})")
    report.add()
    report.add(__doc__.split("\n\n")[1].replace("\n", " "))
    report.add()
    report.header(context)
    report.add(context.usage_lines())
    report.add()
    report.add("### fit")
    report.add()
    header = [
        "data", "rows x columns", "partikit s", "scikit-learn s", "ratio",
        "<= 2x", "trees (partikit / scikit-learn)",
    ]  # fmt: skip
    report.add(table(header, fit_rows))
    report.add()
    report.add("### predict")
    report.add()
    header = ["data", "partikit s", "scikit-learn s", "ratio", "<= 1x"]
    report.add(table(header, predict_rows))
    finish(report, args.output, keep_history=True)


if __name__ == "__main__":
    main()
