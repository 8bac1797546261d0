# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The thesis's tree on the shared datasets (skipped when they are absent)."""

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from partikit import AttributeAggregator
from partikit.tree import PartitionTreeClassifier

#: The thesis's protocol (reference/thesis_tree_accuracy.md).
THESIS = {
    "split_score": "raw",
    "max_depth": 16,
    "alpha_split": 0.10,
    "min_second_value_count": 15,
    "unknown_routing": "stop",
}


def _cv_accuracy(X, y, n_repetitions=3, **params):
    accuracies = []
    for repetition in range(n_repetitions):
        folds = StratifiedKFold(3, shuffle=True, random_state=repetition)
        correct = 0
        for train, test in folds.split(X, y):
            tree = PartitionTreeClassifier(**THESIS, **params)
            tree.fit(X.iloc[train], y[train])
            correct += np.sum(tree.predict(X.iloc[test]) == y[test])
        accuracies.append(100 * correct / len(y))
    return np.mean(accuracies)


def test_cars_ext_rebuilt_by_the_aggregator_matches_the_thesis(datasets_dir):
    """Check that the tree on cars with PRICE and CONFORT rebuilt by
    AttributeAggregator reaches the thesis's cars_ext accuracy (GL-Chi2 94.44 +/-
    0.52, Twoing 96.49 +/- 0.69), and that the rebuilt columns hold the same
    partition of the rows as the file's own _ext columns."""
    cars = pd.read_csv(datasets_dir / "cars" / "data.csv", dtype=str)
    ext = pd.read_csv(datasets_dir / "cars_ext" / "data.csv", dtype=str)
    y = cars.pop("class").to_numpy()
    aggregator = AttributeAggregator(
        aggregates=[["buying", "maint"], ["doors", "persons", "lug_boot"]]
    )
    codes = aggregator.fit_transform(cars, y)
    rebuilt = cars.assign(
        PRICE=codes[:, -2].astype(int).astype(str),
        CONFORT=codes[:, -1].astype(int).astype(str),
    )
    for ours, theirs in (("PRICE", ext.columns[6]), ("CONFORT", ext.columns[7])):
        pairs = pd.crosstab(rebuilt[ours], ext[theirs])
        assert ((pairs > 0).sum(axis=1) == 1).all()
        assert ((pairs > 0).sum(axis=0) == 1).all()
    assert abs(_cv_accuracy(rebuilt, y, categorical_split="maxcut_chi2") - 94.44) <= 1.5
    assert abs(_cv_accuracy(rebuilt, y, categorical_split="twoing") - 96.49) <= 1.5
