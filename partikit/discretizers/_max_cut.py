# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The max-cut threshold of a numeric feature (Bodine & Hochbaum)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from partikit._kernels._thresholds import max_cut_sweep
from partikit._statistics._contingency import check_table, midpoints

#: Thresholds whose metric is within this relative distance of the best tie.
RELATIVE_TOLERANCE = 1e-12


class MaxCutThreshold(NamedTuple):
    """Result of :func:`max_cut_threshold`.

    Attributes
    ----------
    threshold : float
        The best threshold (NaN when no threshold exists): left side ``x <=
        threshold``.
    value : float
        Its max-cut metric (0 when no threshold exists).
    n_left : int
        Number of (non-empty) value-table rows on its left.
    thresholds : ndarray of float64
        Every candidate threshold, halfway between consecutive distinct values.
    values : ndarray of float64
        The metric of each candidate threshold.
    """

    threshold: float
    value: float
    n_left: int
    thresholds: np.ndarray
    values: np.ndarray


def max_cut_threshold(values, table, *, min_side_weight=0.0):
    """Max-cut metric of every threshold of a value table, and the best threshold.

    The metric of threshold ``theta`` is the total distance between the pairs of
    observations of different classes that it separates:

    .. math::

        MC(\\theta) = \\sum_{x_i \\le \\theta < x_k} [y_i \\ne y_k]\\, w_i w_k
        (x_k - x_i).

    Computed for all thresholds in O(n) by the recurrence of Bodine & Hochbaum's
    appendix, on one weighted point per non-empty cell of the value table (a pair
    of observations counts ``w_i w_k`` times).

    Parameters
    ----------
    values : array-like of shape (n_values,)
        The distinct values of the feature, finite, strictly increasing.
    table : array-like of shape (n_values, n_classes)
        Class counts (weighted) of each value. An empty row is a value absent
        from the data: it is ignored.
    min_side_weight : float, default=0.0
        Thresholds leaving less weight than this on a side are not candidates
        (a tree's ``min_samples_leaf``); when none is left, there is no
        threshold.

    Returns
    -------
    result : MaxCutThreshold
        ``threshold`` (NaN when there is none; the left side is ``x <=
        threshold``), ``value`` (its metric, 0 when there is none), ``n_left``
        (the number of non-empty table rows on its left, a cut position as the
        other cores return), and ``thresholds`` / ``values``: every candidate
        threshold and its metric.

    Notes
    -----
    Thresholds lie halfway between consecutive values (equal values are never
    separated). Ties in the metric go to the most balanced split (least
    difference of the side weights, as in the paper), then to the smallest
    threshold. The metric is in the units of ``x``; the values are centred and
    scaled inside the computation for accuracy (the metric is
    translation-invariant and scales with ``x``).

    References
    ----------
    .. [1] Bodine, J. and Hochbaum, D. S. (2020). The max-cut decision tree:
       improving on the accuracy and running time of decision trees. KDIR 2020,
       59-70. doi:10.5220/0010107400590070

    Examples
    --------
    The worked example of ALGORITHMS section 5.6, observations 1, 2, 2, 4, 7, 8
    of classes a, a, b, a, b, b:

    >>> from partikit.discretizers import max_cut_threshold
    >>> values = [1, 2, 4, 7, 8]
    >>> table = [[1, 0], [1, 1], [1, 0], [0, 1], [0, 1]]
    >>> result = max_cut_threshold(values, table)
    >>> result.thresholds
    array([1.5, 3. , 5.5, 7.5])
    >>> result.values
    array([14., 26., 31., 17.])
    >>> float(result.threshold), result.n_left
    (5.5, 3)
    """
    table = check_table(table)
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or len(values) != table.shape[0]:
        raise ValueError(
            f"values must be 1-D with one entry per table row; got shape "
            f"{values.shape} for a table of shape {table.shape}."
        )
    if not np.isfinite(values).all():
        raise ValueError("values must be finite.")
    if np.any(values[1:] <= values[:-1]):
        raise ValueError("values must be strictly increasing (distinct values).")
    present = table.sum(axis=1) > 0
    values, table = values[present], table[present]
    thresholds = midpoints(values, np.arange(1, len(values)))
    if len(values) < 2:
        return MaxCutThreshold(np.nan, 0.0, 0, thresholds, np.zeros(0))
    # One weighted point per (value, class) cell gives the metric of the rows
    # themselves: two observations of one value are at distance 0.
    value_index, class_index = np.nonzero(table)
    weights = np.ascontiguousarray(table[value_index, class_index])
    x = values[value_index]
    scale = max(abs(x[0]), abs(x[-1]))
    centre = x[len(x) // 2] / scale
    z = x / scale - centre
    sweep, left_weight = max_cut_sweep(
        z, np.ascontiguousarray(class_index, dtype=np.intp), weights, table.shape[1]
    )
    # the last cell of each value but the last ends a candidate left side
    ends = np.cumsum(np.count_nonzero(table, axis=1))[:-1] - 1
    metrics = sweep[ends] * scale
    total = float(table.sum())
    side = left_weight[ends]
    allowed = (side >= min_side_weight) & (total - side >= min_side_weight)
    if not allowed.any():
        return MaxCutThreshold(np.nan, 0.0, 0, thresholds, metrics)
    best = metrics[allowed].max()
    tied = np.flatnonzero(allowed & (metrics >= best - RELATIVE_TOLERANCE * abs(best)))
    imbalance = np.abs(2 * side[tied] - total)
    choice = tied[np.argmin(imbalance)]
    return MaxCutThreshold(
        float(thresholds[choice]),
        float(metrics[choice]),
        int(choice + 1),
        thresholds,
        metrics,
    )
