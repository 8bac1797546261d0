# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The MODL criteria of a grouping and of a discretization (Boulle 2005, 2006).

Each is minus the log of the posterior probability of the partition given the
data, up to a constant: a prior on the number of parts and on the partition,
a prior on the class distribution of each part, and the likelihood of the
classes of the rows. The Bayes optimal partition minimises it; one part is
the null model. Costs are in nats.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

#: Longest table of ``log i!`` built for a fit (8 bytes an entry): counts past it
#: are computed by ``lgamma``.
LOG_FACTORIAL_LIMIT = 1 << 22


def log_factorials(total, n_classes):
    """Table of ``log i!`` for ``i = 0 ..`` the largest whole count a fit of
    total weight ``total`` and ``n_classes`` classes looks up (capped at
    :data:`LOG_FACTORIAL_LIMIT` entries)."""
    size = min(int(math.ceil(total)) + int(n_classes) + 1, LOG_FACTORIAL_LIMIT)
    return gammaln(np.arange(size, dtype=np.float64) + 1.0)


def class_columns(table):
    """The classes present in a table (columns of positive total); ``J`` of the
    MODL criteria is their number."""
    return np.flatnonzero(table.sum(axis=0) > 0)


def _log_factorial(x, factorials):
    """``log x!`` elementwise (0 for ``x <= 0``): from the table ``factorials``
    when every ``x`` is a whole number within it, else ``gammaln``."""
    x = np.maximum(x, 0.0)
    if factorials is not None and x.size and x.max() < len(factorials):
        index = x.astype(np.intp)
        if np.array_equal(index, x):
            return factorials[index]
    return gammaln(x + 1.0)


def part_costs(parts, n_classes, factorials=None):
    """MODL cost of each part of class counts ``parts`` (shape ``(..., J)``):
    ``log C(n + J - 1, J - 1) + log(n! / prod_j n_j!)``, that is
    ``lgamma(n + J) - lgamma(J) - sum_j lgamma(n_j + 1)``.

    NumPy's twin of :func:`~partikit._kernels._modl.part_cost`, with the same
    sums in the same (class) order. ``factorials``, a table of ``log i!``, is
    read where every count is a whole number within it (``gammaln`` gives the
    same values, more slowly).
    """
    parts = np.maximum(np.asarray(parts, dtype=np.float64), 0.0)
    totals = np.zeros(parts.shape[:-1])
    multinomial = np.zeros(parts.shape[:-1])
    logs = _log_factorial(parts, factorials)
    for j in range(parts.shape[-1]):
        totals += parts[..., j]
        multinomial += logs[..., j]
    return (
        _log_factorial(totals + (n_classes - 1.0), factorials)
        - _log_factorial(np.float64(n_classes - 1.0), factorials)
        - multinomial
    )


#: Beyond this many terms, the partial sums of 1/e in the Bell series equal
#: 1/e to double precision (their error is below 1/20!).
_SERIES_TERMS = 20


def _log_series_weights(size):
    """``log e_m`` for ``m = 0 .. size - 1``, ``e_m = sum_{j <= m} (-1)^j / j!``
    (``-inf`` at ``m = 1``; ``-1``, the log of ``1/e``, from ``m = 20``)."""
    weights = np.full(size, -1.0)
    term, partial = 1.0, 0.0
    for m in range(min(size, _SERIES_TERMS)):
        term = 1.0 if m == 0 else term * (-1.0 / m)
        partial += term
        weights[m] = math.log(partial) if partial > 0 else -np.inf
    return weights


def log_bell(n_values, max_groups):
    """``log B(n_values, k)`` for ``k = 0 .. max_groups``: the log of the number
    of partitions of ``n_values`` values into at most ``k`` groups (``-inf`` at
    ``k = 0``).

    ``B(n, k) = sum_{i <= k} S(n, i) = sum_{i=1}^{k} (i^n / i!) e_{k-i}`` with
    ``e_m = sum_{j <= m} (-1)^j / j!``, the partial sums of ``1/e`` (all
    non-negative: no term cancels another), summed in the log domain. Up to 64
    groups every term is weighed at once; past that, for ``m >= 20``, ``e_m``
    is ``1/e`` to double precision, so the terms ``i <= k - 20`` add up to
    ``1/e`` times a running sum of ``i^n / i!`` (``np.logaddexp.accumulate``)
    and only the last 20 terms of each ``k`` are weighed one by one: O(20 k).
    """
    n, k_max = int(n_values), int(max_groups)
    out = np.full(k_max + 1, -np.inf)
    if k_max < 1:
        return out
    if n <= 1:
        out[1:] = 0.0
        return out
    size = min(k_max, n)
    i = np.arange(1, size + 1, dtype=np.float64)
    log_terms = n * np.log(i) - gammaln(i + 1.0)  # log(i^n / i!), i = 1 .. k
    weights = _log_series_weights(size)
    if size <= 64:
        offsets = np.subtract.outer(np.arange(size), np.arange(size))  # k - i
        with np.errstate(invalid="ignore"):
            terms = np.where(
                offsets >= 0,
                log_terms[None, :] + weights[np.maximum(offsets, 0)],
                -np.inf,
            )
        total = np.logaddexp.reduce(terms, axis=1)
    else:
        running = np.logaddexp.accumulate(log_terms)  # log sum_{i' <= i}
        k = np.arange(1, size + 1)
        head = k - _SERIES_TERMS - 1  # the terms i <= k - 20, weighed 1/e
        total = np.where(head >= 0, running[np.maximum(head, 0)] - 1.0, -np.inf)
        for m in range(_SERIES_TERMS):  # the term i = k - m, weighed e_m
            index = k - m - 1
            term = log_terms[np.maximum(index, 0)] + weights[m]
            total = np.logaddexp(total, np.where(index >= 0, term, -np.inf))
    out[1 : size + 1] = total
    out[size + 1 :] = total[-1]  # B(n, k) = B(n, n) for k > n
    return out


def modl_grouping_cost(table, group_ids):
    """The MODL criterion of a grouping of the rows of a contingency table.

    .. math::

        \\log I + \\log B(I, K) + \\sum_k \\log \\binom{n_k + J - 1}{J - 1}
        + \\sum_k \\log \\frac{n_k!}{n_{k1}! \\cdots n_{kJ}!}

    for ``I`` values (non-empty rows), ``K`` groups, ``J`` classes (non-empty
    columns), ``n_k`` rows of the table in group ``k`` of which ``n_kj`` of
    class ``j``; ``B(I, K)`` is the number of partitions of ``I`` values into
    at most ``K`` groups (Boulle 2005, theorem 1).

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
    group_ids : array-like of int of shape (n_rows,)
        Group of each row; empty rows are ignored whatever their group.

    Returns
    -------
    cost : float
        In nats.

    References
    ----------
    .. [1] Boulle, M. (2005). A Bayes optimal approach for partitioning the
       values of categorical attributes. Journal of Machine Learning Research
       6, 1431-1452.
    """
    table = np.asarray(table, dtype=np.float64)
    group_ids = np.asarray(group_ids)
    present = table.sum(axis=1) > 0
    table, group_ids = table[present], group_ids[present]
    columns = class_columns(table)
    n_values = table.shape[0]
    if n_values == 0:
        return 0.0
    _, labels = np.unique(group_ids, return_inverse=True)
    n_groups = int(labels.max()) + 1
    groups = np.zeros((n_groups, len(columns)))
    np.add.at(groups, labels, table[:, columns])
    prior = math.log(n_values) + float(log_bell(n_values, n_groups)[n_groups])
    return prior + float(part_costs(groups, max(len(columns), 1)).sum())


def modl_discretization_cost(table, cuts):
    """The MODL criterion of a discretization of a value table.

    .. math::

        \\log n + \\log \\binom{n + I - 1}{I - 1}
        + \\sum_i \\log \\binom{n_i + J - 1}{J - 1}
        + \\sum_i \\log \\frac{n_i!}{n_{i1}! \\cdots n_{iJ}!}

    for ``n`` rows (the table's total), ``I`` intervals, ``J`` classes
    (non-empty columns), ``n_i`` rows in interval ``i`` of which ``n_ij`` of
    class ``j`` (Boulle 2006, theorem 1).

    Parameters
    ----------
    table : ndarray of float64 of shape (n_values, n_classes)
        Class counts of each distinct value, in value order.
    cuts : array-like of int
        Table positions of the cuts (rows before each cut), increasing.

    Returns
    -------
    cost : float
        In nats.

    References
    ----------
    .. [1] Boulle, M. (2006). MODL: a Bayes optimal discretization method for
       continuous attributes. Machine Learning 65, 131-165.
    """
    table = np.asarray(table, dtype=np.float64)
    columns = class_columns(table)
    n = float(table.sum())
    if n <= 0:
        return 0.0
    starts = np.concatenate([[0], np.asarray(cuts, dtype=np.intp)])
    intervals = np.add.reduceat(table[:, columns], starts, axis=0)
    prior = float(log_discretization_prior(n, len(starts)))
    return prior + float(part_costs(intervals, max(len(columns), 1)).sum())


# --- discretization ---


def log_discretization_prior(n, n_intervals):
    """The prior terms of the MODL discretization criterion,
    ``log n + log C(n + I - 1, I - 1)``, for each ``I`` of ``n_intervals``
    (an array), ``n`` rows."""
    n_intervals = np.asarray(n_intervals, dtype=np.float64)
    return (
        math.log(n)
        + gammaln(n + n_intervals)
        - gammaln(n_intervals)
        - math.lgamma(n + 1.0)
    )
