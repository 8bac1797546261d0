# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Moment tables: the sufficient statistics of a continuous target (private).

For a continuous target a table has three columns instead of one per class:
the weight of each part, the weighted sum of its target values and the
weighted sum of their squares, ``(sum w, sum w y, sum w y^2)``. These add up
exactly as class counts do (a union of rows is the sum of its rows' moments),
so the same stage-1 tables, ``+``, ``partial_fit`` and Dask serve both kinds
of target; the algorithms read means, squared errors and F-tests from them.

References
----------
.. [1] G. V. Kass, "An exploratory technique for investigating large quantities of
   categorical data", Applied Statistics 29(2):119-127, 1980,
   doi:10.2307/2986296 (CHAID; the F-test for an interval target is the
   extension of SPSS's CHAID and of J. Magidson, "The CHAID approach to
   segmentation modeling", in R. Bagozzi (ed.), Advanced Methods of Marketing
   Research, Blackwell, 1994).
.. [2] D. Micci-Barreca, "A preprocessing scheme for high-cardinality
   categorical attributes in classification and prediction problems", ACM
   SIGKDD Explorations Newsletter 3(1):27-32, 2001, doi:10.1145/507533.507538
   (the shrunk part means of :func:`shrunk_means`).
"""

from __future__ import annotations

import numpy as np

from partikit._kernels._special import log_f_sf

#: Columns of a moment table.
WEIGHT, SUM, SUM_OF_SQUARES = 0, 1, 2
#: Number of columns of a moment table.
N_MOMENTS = 3
#: ``ColumnTables.target_type`` (and ``target_type_``) of a continuous target.
CONTINUOUS = "continuous"

LN10 = np.log(10.0)


def moments_of(y, sample_weight=None):
    """The moment row ``(sum w, sum w y, sum w y^2)`` of some target values.

    Parameters
    ----------
    y : array-like of float of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None

    Returns
    -------
    moments : ndarray of float64 of shape (3,)

    Examples
    --------
    >>> from partikit._statistics._moments import moments_of
    >>> moments_of([1.0, 2.0, 3.0])
    array([ 3.,  6., 14.])
    """
    y = np.asarray(y, dtype=np.float64)
    w = np.ones_like(y) if sample_weight is None else np.asarray(sample_weight, float)
    return np.array([w.sum(), (w * y).sum(), (w * y * y).sum()])


def check_moment_table(table):
    """A moment table as a C-contiguous float64 array, after checking it.

    Parameters
    ----------
    table : array-like of shape (n_parts, 3)

    Returns
    -------
    table : ndarray of float64 of shape (n_parts, 3)

    Raises
    ------
    ValueError
        Unless the table is 2-D with 3 columns of finite values and its
        weights are non-negative.
    """
    table = np.ascontiguousarray(table, dtype=np.float64)
    if table.ndim != 2 or table.shape[1] != N_MOMENTS:
        raise ValueError(
            "A moment table (target_type='continuous') has 3 columns (weight, sum, "
            f"sum of squares), got shape {table.shape}."
        )
    if not np.isfinite(table).all():
        raise ValueError("table must hold finite moments.")
    if (table[:, WEIGHT] < 0).any():
        raise ValueError("table must hold non-negative weights.")
    return table


def part_weights(table, target_type=None):
    """The weight of each part of a table, of class counts or of moments.

    Parameters
    ----------
    table : array-like of shape (n_parts, n_columns)
    target_type : str or None, default=None
        ``"continuous"``: a moment table (the weight is its first column);
        anything else: class counts (the weight is their sum).

    Returns
    -------
    weights : ndarray of float64 of shape (n_parts,)
    """
    table = np.asarray(table, dtype=np.float64)
    if target_type == CONTINUOUS:
        return table[:, WEIGHT]
    return table.sum(axis=1)


def part_means(table, default=0.0):
    """The target mean of each part (``default`` for an empty part).

    Parameters
    ----------
    table : array-like of shape (n_parts, 3)
    default : float, default=0.0

    Returns
    -------
    means : ndarray of float64 of shape (n_parts,)
    """
    table = np.asarray(table, dtype=np.float64)
    weights = table[:, WEIGHT]
    means = np.full(len(table), float(default))
    filled = weights > 0
    means[filled] = table[filled, SUM] / weights[filled]
    return means


def squared_errors(table):
    """The sum of squared deviations from its own mean of each part.

    ``sum w y^2 - (sum w y)^2 / sum w``, clipped at 0 (the rounding of the
    difference of two large sums can make it slightly negative).

    Parameters
    ----------
    table : array-like of shape (..., 3)

    Returns
    -------
    sse : ndarray of float64 of shape (...)
    """
    table = np.asarray(table, dtype=np.float64)
    weights = table[..., WEIGHT]
    with np.errstate(invalid="ignore", divide="ignore"):
        sse = table[..., SUM_OF_SQUARES] - np.where(
            weights > 0, table[..., SUM] ** 2 / weights, 0.0
        )
    return np.maximum(sse, 0.0)


def merge_squared_error_increase(table, row):
    """What merging one part with each part adds to the squared error.

    ``sse(a + b) - sse(a) - sse(b)`` (:func:`squared_errors`) for the merge of
    part ``row`` with each part ``b``: the continuous target's counterpart of
    :func:`~partikit._statistics._measures.merge_delta_chi2`, the smallest
    for the part whose mean is closest, weight for weight (it equals
    ``n_a n_b / (n_a + n_b) * (mean_a - mean_b)^2``, Ward's criterion).

    Parameters
    ----------
    table : array-like of shape (n_parts, 3)
        A moment table.
    row : int

    Returns
    -------
    increase : ndarray of float64 of shape (n_parts,)
        0 at ``row`` and for an empty part.
    """
    table = np.asarray(table, dtype=np.float64)
    separate = squared_errors(table) + squared_errors(table[row])
    increase = np.maximum(squared_errors(table + table[row]) - separate, 0.0)
    increase[row] = 0.0
    return increase


def part_variances(table):
    """The (population) variance of the target in each part, 0 when empty."""
    table = np.asarray(table, dtype=np.float64)
    weights = table[:, WEIGHT]
    return np.where(weights > 0, squared_errors(table) / np.maximum(weights, 1e-300), 0)


def f_test(table):
    """One-way analysis of variance of the parts of a moment table.

    Parameters
    ----------
    table : array-like of shape (n_parts, 3)
        Empty parts are left out.

    Returns
    -------
    statistic : float
        ``(between / (k - 1)) / (within / (n - k))`` for ``k`` non-empty
        parts of total weight ``n``; 0.0 when ``k < 2``; ``inf`` when the
        parts are pure (no spread within) and their means differ.
    dfn, dfd : float
        The degrees of freedom ``k - 1`` and ``n - k``.
    log10_pvalue : float
        ``log10 P[F(dfn, dfd) >= statistic]``, finite for any finite
        statistic (0.0 for one part, ``-inf`` for pure parts of different
        means, 0.0 when ``n - k <= 0``).
    r2 : float
        The share of the target's squared error the parts explain, ``between
        / total`` (0.0 when the target is constant).

    Examples
    --------
    >>> import numpy as np
    >>> from partikit._statistics._moments import f_test, moments_of
    >>> table = np.array([moments_of([1.0, 2.0, 3.0]), moments_of([5.0, 6.0, 7.0])])
    >>> statistic, dfn, dfd, log10_p, r2 = f_test(table)
    >>> float(statistic), dfn, dfd, round(float(log10_p), 3), float(r2)
    (24.0, 1.0, 4.0, -2.094, 0.8571428571428571)
    """
    table = np.asarray(table, dtype=np.float64)
    table = table[table[:, WEIGHT] > 0]
    k = len(table)
    n = float(table[:, WEIGHT].sum())
    total = squared_errors(table.sum(axis=0))
    within = float(squared_errors(table).sum())
    between = max(float(total) - within, 0.0)
    r2 = between / float(total) if total > 0 else 0.0
    dfn, dfd = float(k - 1), float(n - k)
    if k < 2 or dfd <= 0 or between <= 0:
        return 0.0, dfn, max(dfd, 0.0), 0.0, r2
    if within <= 0:
        return np.inf, dfn, dfd, -np.inf, r2
    statistic = (between / dfn) / (within / dfd)
    return statistic, dfn, dfd, log_f_sf(statistic, dfn, dfd) / LN10, r2


def shrunk_means(table, total=None):
    """Part means shrunk toward the overall mean, as ``TargetEncoder`` shrinks.

    scikit-learn's ``TargetEncoder(smooth="auto")`` for a continuous target:
    ``lambda m_i + (1 - lambda) m`` with ``lambda = n_i / (n_i + s_i^2 /
    s^2)``, where ``m_i, s_i^2, n_i`` are the part's mean, variance and
    weight and ``m, s^2`` the target's (an empirical Bayes estimate [2]_).
    A part of one value keeps its mean when the target varies; an empty part
    gets ``m``.

    Parameters
    ----------
    table : array-like of shape (n_parts, 3)
    total : array-like of shape (3,), default=None
        The moments of the whole target; None: the sum of the parts.

    Returns
    -------
    encoding : ndarray of float64 of shape (n_parts,)

    Examples
    --------
    >>> import numpy as np
    >>> from partikit._statistics._moments import moments_of, shrunk_means
    >>> table = np.array([moments_of([0.0, 2.0]), moments_of([10.0, 12.0])])
    >>> shrunk_means(table).round(3)
    array([ 1.094, 10.906])
    """
    table = np.asarray(table, dtype=np.float64)
    total = table.sum(axis=0) if total is None else np.asarray(total, float)
    overall_mean = total[SUM] / total[WEIGHT] if total[WEIGHT] > 0 else 0.0
    overall_variance = squared_errors(total) / total[WEIGHT] if total[WEIGHT] > 0 else 0
    means = part_means(table, default=overall_mean)
    if overall_variance <= 0:
        return means
    weights = table[:, WEIGHT]
    smoothing = part_variances(table) / overall_variance
    with np.errstate(invalid="ignore", divide="ignore"):
        shrink = np.where(weights > 0, weights / (weights + smoothing), 0.0)
    return shrink * means + (1.0 - shrink) * overall_mean
