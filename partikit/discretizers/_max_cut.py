# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The max-cut threshold of a numeric feature (Bodine & Hochbaum)."""

from __future__ import annotations

import numpy as np

from partikit._kernels._thresholds import max_cut_sweep
from partikit._statistics._contingency import check_table, midpoints
from partikit._statistics._results import Intervals

#: Thresholds whose metric is within this relative distance of the best tie.
RELATIVE_TOLERANCE = 1e-12


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
    result : Intervals
        ``thresholds``: the best threshold, one value (the left side is ``x <=
        threshold``), empty when there is none; ``cuts``: its cut position, the
        number of table rows up to the last non-empty row on its left (empty
        rows, values absent from the data, after it count on the right), empty
        when there is none; ``n_bins``: 2, or 1 without a
        threshold (0 for an empty table); ``criterion``: its max-cut metric, 0
        when there is none; ``statistics``: ``candidate_thresholds`` and
        ``candidate_metrics``, every candidate threshold (halfway between
        consecutive values of non-empty rows) and its metric.

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
    >>> result.statistics["candidate_thresholds"]
    array([1.5, 3. , 5.5, 7.5])
    >>> result.statistics["candidate_metrics"]
    array([14., 26., 31., 17.])
    >>> result.thresholds, result.cuts, result.criterion
    (array([5.5]), array([3]), 31.0)
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
    n_rows = table.shape[0]
    present = table.sum(axis=1) > 0
    values, table = values[present], table[present]
    thresholds = midpoints(values, np.arange(1, len(values)))
    if len(values) < 2:
        return _no_threshold(n_rows, thresholds, np.zeros(0))
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
        return _no_threshold(n_rows, thresholds, metrics)
    best = metrics[allowed].max()
    tied = np.flatnonzero(allowed & (metrics >= best - RELATIVE_TOLERANCE * abs(best)))
    imbalance = np.abs(2 * side[tied] - total)
    choice = tied[np.argmin(imbalance)]
    threshold = float(thresholds[choice])
    return Intervals.from_cuts(
        [np.flatnonzero(present)[choice] + 1],
        n_rows,
        float(metrics[choice]),
        {"candidate_thresholds": thresholds, "candidate_metrics": metrics},
        [threshold],
    )


def _no_threshold(n_rows, thresholds, metrics):
    """The result of :func:`max_cut_threshold` when no threshold is allowed."""
    return Intervals.from_cuts(
        [],
        n_rows,
        0.0,
        {"candidate_thresholds": thresholds, "candidate_metrics": metrics},
        np.zeros(0),
    )
