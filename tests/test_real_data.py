# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""KhiopsGrouper on the shared UCI datasets (skipped when they are absent)."""

import numpy as np
import pandas as pd
import pytest

from partikit import KhiopsGrouper


def _load(folder, target):
    data = pd.read_csv(
        folder / "data.csv", dtype=str, na_values=["?"], keep_default_na=False
    )
    y = data.pop(target).to_numpy()
    numeric = [
        c
        for c in data
        if pd.to_numeric(data[c], errors="coerce").notna().eq(data[c].notna()).all()
    ]
    return data.drop(columns=numeric), y


def test_adult_groups_are_few_and_significant(datasets_dir):
    """Check that every nominal column of adult is grouped into a few groups,
    all clearly informative (the census attributes all carry income signal)."""
    X, y = _load(datasets_dir / "adult", "income")
    grouper = KhiopsGrouper().fit(X, y)
    n_categories = np.array([len(c) for c in grouper.categories_])
    assert (grouper.n_groups_ < n_categories).sum() >= 5
    assert (grouper.n_groups_ >= 2).all()
    assert all(s["log10_pvalue"] < -10 for s in grouper.statistics_)


def test_mushroom_uninformative_column_is_one_group(datasets_dir):
    """Check that mushroom's constant veil-type is one group and that odor, the
    near-perfect predictor, splits edible-smelling from the rest, strongly."""
    X, y = _load(datasets_dir / "mushroom", "class")
    with pytest.warns(UserWarning, match="veil-type"):
        grouper = KhiopsGrouper().fit(X, y)
    groups = dict(zip(grouper.feature_names_in_, grouper.n_groups_, strict=True))
    assert groups["veil-type"] == 1
    assert groups["odor"] >= 2
    odor = list(grouper.feature_names_in_).index("odor")
    assert grouper.statistics_[odor]["log10_pvalue"] < -300
