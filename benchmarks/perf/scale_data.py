# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The workloads of issue 17 ("fast at every size"), made once for every script.

* :func:`cardinality_data`: 1,000,000 rows x 10 classes, one categorical column of
  ``n_categories`` integer (or string) categories falling into 5 hidden groups.
  At ``n_categories == n_samples`` every row has a category of its own.
* :func:`one_pass_categorical`: 1,000,000 rows x 1,000 categories x 10 classes.
* :func:`one_pass_numeric`: 1,000,000 distinct floats with 8 hidden intervals.
* :func:`many_classes_numeric`: 100,000 rows x 500 classes, one numeric column.

Import from the repository root: ``from benchmarks.perf.scale_data import ...`` or
with ``benchmarks/perf`` on ``sys.path``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

N_GROUPS = 5


def _labels_from_groups(group, n_classes, signal, rng):
    """Class of each row: the group's favourite class with extra probability."""
    favourite = group % n_classes
    noise = rng.integers(0, n_classes, size=len(group))
    return np.where(rng.random(len(group)) < signal, favourite, noise)


def cardinality_data(
    n_categories, *, n_samples=1_000_000, n_classes=10, dtype="int", seed=0
):
    """One categorical column with ``n_categories`` categories in 5 hidden groups.

    Parameters
    ----------
    n_categories : int
        Distinct categories. When it equals ``n_samples`` the categories are a
        permutation of the rows (all distinct), else drawn uniformly.
    n_samples, n_classes : int
    dtype : {"int", "str", "category"}
        ``"int"``: int64 values; ``"str"``: strings ``"c<k>"`` (an object
        array, which pandas 3 stores as its ``str`` dtype: Arrow-backed when
        pyarrow is installed);
        ``"category"``: a pandas categorical of the integers.
    seed : int

    Returns
    -------
    X : DataFrame with one column ``"category"``
    y : ndarray of int64
    hidden : ndarray of int64 of shape (n_categories,)
        Hidden group of each category code ``k`` (``k % 5``).
    """
    rng = np.random.default_rng(seed)
    if n_categories == n_samples:
        codes = rng.permutation(n_samples)
    else:
        codes = rng.integers(0, n_categories, size=n_samples)
    hidden = np.arange(n_categories) % N_GROUPS
    y = _labels_from_groups(hidden[codes], n_classes, 0.4, rng)
    if dtype == "int":
        column = codes.astype(np.int64)
    elif dtype == "str":
        column = np.array([f"c{k}" for k in range(n_categories)], dtype=object)[codes]
    elif dtype == "category":
        column = pd.Categorical(codes)
    else:
        raise ValueError(f"dtype must be 'int', 'str' or 'category', got {dtype!r}")
    return pd.DataFrame({"category": column}), y, hidden


def one_pass_categorical(dtype="int", seed=0):
    """1,000,000 rows x 1,000 categories x 10 classes (issue 17, part 3)."""
    return cardinality_data(1000, dtype=dtype, seed=seed)


def one_pass_numeric(n_samples=1_000_000, n_classes=10, n_intervals=8, seed=0):
    """``n_samples`` distinct floats whose class depends on 8 hidden intervals.

    Returns
    -------
    X : DataFrame with one float64 column ``"x"``
    y : ndarray of int64
    cuts : ndarray of the 7 hidden cut points
    """
    rng = np.random.default_rng(seed)
    x = rng.permutation(np.linspace(0.0, 1.0, n_samples)) + 1e-12
    cuts = np.sort(rng.uniform(0.05, 0.95, n_intervals - 1))
    interval = np.searchsorted(cuts, x)
    y = _labels_from_groups(interval, n_classes, 0.4, rng)
    return pd.DataFrame({"x": x}), y, cuts


def many_classes_numeric(n_samples=100_000, n_classes=500, seed=0):
    """One numeric column, 500 classes on 100,000 rows (issue 17, many classes).

    The class depends on 20 hidden intervals of ``x`` (interval ``i`` favours
    classes ``25 i`` to ``25 i + 24``); a second, categorical column of 200
    categories carries the same signal, for the tree.
    """
    rng = np.random.default_rng(seed)
    x = rng.random(n_samples)
    interval = np.minimum((x * 20).astype(np.int64), 19)
    favoured = interval * (n_classes // 20) + rng.integers(
        0, n_classes // 20, n_samples
    )
    noise = rng.integers(0, n_classes, n_samples)
    y = np.where(rng.random(n_samples) < 0.5, favoured, noise)
    category = (interval * 10 + rng.integers(0, 10, n_samples)).astype(np.int64)
    X = pd.DataFrame({"x": x, "category": pd.Categorical(category)})
    return X, y
