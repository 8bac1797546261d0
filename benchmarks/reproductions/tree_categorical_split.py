# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The tree's categorical split: max-cut (the default), MODL and Khiops compared.

Why the default of ``PartitionTreeClassifier(categorical_split=...)`` stayed
``"maxcut_chi2"`` when the report's grouper became MODL (issue 32): on the
shared datasets with categorical columns, the accuracy of 5-fold stratified
cross-validation (shuffled, seed 0) of ``PartitionTreeClassifier(
categorical_split=s, min_samples_leaf=5)`` for ``s`` in ``"maxcut_chi2"``,
``"modl"`` and ``"khiops"``, and the time of the 5 fits. Files read as
``benchmarks/_common.read_dataset`` reads them; rows holding the dataset's
missing-value string dropped (the thesis's rule); a column is numeric when every
value parses as a float, else a pandas ``category``.

    python benchmarks/reproductions/tree_categorical_split.py [--quick]

``--quick``: the first 3,000 rows of each dataset (**not the full run**).
"""

from __future__ import annotations

import os
import sys
import time
import warnings

# the shared helpers (_common.py) live one folder up
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from _common import (  # noqa: E402
    DATASETS_DIR,
    Report,
    RunContext,
    finish,
    parse_args,
    progress,
    read_dataset,
    script_path,
    table,
)

NAME = "tree_categorical_split"
DATASETS = (
    "adult", "cars_ext", "nursery_ext", "shelter_15", "reuters_phonemes_15",
    "contraceptive_ext", "mushroom",
)  # fmt: skip
SPLITS = ("maxcut_chi2", "modl", "khiops")
FOLDS = 5


def load(folder, n_rows):
    """(X, y) of one dataset: numeric columns as floats, others as categories."""
    frame, config = read_dataset(folder, n_rows)
    missing = config.get("missing value string")
    if missing:
        frame = frame[~(frame == missing).any(axis=1)]
    target = frame.columns[config["class attrib index"]]
    y = frame[target].to_numpy()
    X = frame.drop(columns=[target])
    for name in X.columns:
        try:
            X[name] = X[name].astype(float)
        except ValueError:
            X[name] = X[name].astype("category")
    return X, y


def cross_validate(X, y, split):
    """(mean accuracy, seconds of the fits and predictions) of one split method."""
    from sklearn.metrics import accuracy_score
    from sklearn.model_selection import StratifiedKFold

    from partikit import PartitionTreeClassifier

    scores = []
    start = time.perf_counter()
    folds = StratifiedKFold(FOLDS, shuffle=True, random_state=0)
    for train, test in folds.split(X, y):
        tree = PartitionTreeClassifier(categorical_split=split, min_samples_leaf=5)
        tree.fit(X.iloc[train], y[train])
        scores.append(accuracy_score(y[test], tree.predict(X.iloc[test])))
    return float(np.mean(scores)), time.perf_counter() - start


def main():
    args = parse_args(__doc__.splitlines()[0])
    context = RunContext(os.path.basename(__file__), args.quick)
    report = Report(NAME)
    report.add(
        f"## The tree's categorical split: max-cut, MODL, Khiops ({script_path(NAME)})"
    )
    report.add()
    report.add(__doc__.split("\n\n")[1].replace("\n", " "))
    report.add()
    if not os.path.isdir(DATASETS_DIR):
        report.header(context)
        report.add(f"**Skipped**: the datasets folder `{DATASETS_DIR}` is absent.")
        finish(report, args.output)
        return
    rows = []
    warnings.simplefilter("ignore")  # constant columns at some folds
    for folder in DATASETS:
        progress(folder)
        X, y = load(folder, 3000 if args.quick else None)
        # a warm-up fit on a few rows: numba compiles outside the timings
        cross_validate(X.iloc[:300], y[:300], "modl")
        row = [f"{folder} ({len(X):,} rows, {len(np.unique(y))} classes)"]
        for split in SPLITS:
            accuracy, seconds = cross_validate(X, y, split)
            row.append(f"{accuracy:.4f} ({seconds:.1f} s)")
        rows.append(row)
    context.stop()
    report.header(context)
    report.add(context.usage_lines())
    report.add()
    header = ["dataset", *(f'"{s}": accuracy (5 fits)' for s in SPLITS)]
    report.add(table(header, rows))
    finish(report, args.output)


if __name__ == "__main__":
    main()
