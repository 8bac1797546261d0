# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The max-cut threshold of a numeric feature (Bodine & Hochbaum)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from partikit._kernels._thresholds import max_cut_sweep

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
        Number of sorted observations on the left of it.
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


def max_cut_threshold(x_sorted, y, sample_weight=None, *, min_side_weight=0.0):
    """Max-cut metric of every threshold of a sorted feature, and the best one.

    The metric of threshold ``theta`` is the total distance between the pairs of
    observations of different classes that it separates:

    .. math::

        MC(\\theta) = \\sum_{x_i \\le \\theta < x_k} [y_i \\ne y_k]\\, w_i w_k
        (x_k - x_i).

    Computed for all thresholds in O(n) by the recurrence of Bodine & Hochbaum's
    appendix.

    Parameters
    ----------
    x_sorted : array-like of shape (n,)
        Finite feature values, sorted increasingly.
    y : array-like of shape (n,)
        Class labels (any type).
    sample_weight : array-like of shape (n,), default=None
        Observation weights (a pair counts ``w_i w_k`` times).
    min_side_weight : float, default=0.0
        Thresholds leaving less weight than this on a side are not candidates
        (a tree's ``min_samples_leaf``); when none is left, there is no
        threshold.

    Returns
    -------
    MaxCutThreshold

    Notes
    -----
    Thresholds lie halfway between consecutive distinct values (equal values are
    never separated). Ties in the metric go to the most balanced split (least
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
    The worked example of ALGORITHMS section 5.6:

    >>> from partikit.discretizers import max_cut_threshold
    >>> result = max_cut_threshold([1, 2, 2, 4, 7, 8], list("aababb"))
    >>> result.thresholds
    array([1.5, 3. , 5.5, 7.5])
    >>> result.values
    array([14., 26., 31., 17.])
    >>> float(result.threshold)
    5.5
    """
    x = np.asarray(x_sorted, dtype=np.float64)
    if x.ndim != 1 or not np.isfinite(x).all():
        raise ValueError("x_sorted must be a 1-D array of finite values.")
    if x.size > 1 and np.any(x[1:] < x[:-1]):
        raise ValueError("x_sorted must be sorted increasingly.")
    _, y_codes = np.unique(np.asarray(y), return_inverse=True)
    if len(y_codes) != len(x):
        raise ValueError("x_sorted and y must have the same length.")
    weights = None
    if sample_weight is not None:
        weights = np.ascontiguousarray(sample_weight, dtype=np.float64)
    n_classes = int(y_codes.max()) + 1 if len(y_codes) else 0
    distinct = np.flatnonzero(x[1:] > x[:-1]) if len(x) > 1 else np.zeros(0, int)
    thresholds = x[distinct] / 2 + x[distinct + 1] / 2
    if len(distinct) == 0:
        return MaxCutThreshold(np.nan, 0.0, 0, thresholds, np.zeros(0))
    scale = max(abs(x[0]), abs(x[-1]))
    centre = x[len(x) // 2] / scale
    z = x / scale - centre
    sweep, left_weight = max_cut_sweep(
        z, np.ascontiguousarray(y_codes, dtype=np.intp), weights, n_classes
    )
    values = sweep[distinct] * scale
    total = left_weight[-1] + (1.0 if weights is None else weights[-1])
    side = left_weight[distinct]
    allowed = (side >= min_side_weight) & (total - side >= min_side_weight)
    if not allowed.any():
        return MaxCutThreshold(np.nan, 0.0, 0, thresholds, values)
    best = values[allowed].max()
    tied = np.flatnonzero(allowed & (values >= best - RELATIVE_TOLERANCE * abs(best)))
    imbalance = np.abs(2 * side[tied] - total)
    choice = tied[np.argmin(imbalance)]
    return MaxCutThreshold(
        float(thresholds[choice]),
        float(values[choice]),
        int(distinct[choice] + 1),
        thresholds,
        values,
    )
