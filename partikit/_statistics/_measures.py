# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Chi-square tests and Bonferroni multipliers on the log10 scale (private).

Every probability and every multiplier is returned as a base-10 logarithm: strong
attributes on large samples have p-values far below the smallest float64 and the
Bonferroni multipliers of CHAID for a hundred thousand categories overflow any
float, but both are ordinary numbers once logged.

References
----------
.. [1] G. V. Kass, "An exploratory technique for investigating large quantities of
   categorical data", Journal of the Royal Statistical Society, Series C (Applied
   Statistics) 29(2):119-127, 1980, doi:10.2307/2986296.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from partikit._kernels._special import log_chi2_sf, log_chi2_sf_array
from partikit._statistics._moments import WEIGHT, f_test

__all__ = [
    "LN10",
    "bonferroni_adjust",
    "chi2_statistic",
    "chi2_test",
    "g2_statistic",
    "grouped_significance",
    "log10_binom",
    "log10_bonferroni_floating",
    "log10_bonferroni_nominal",
    "log10_bonferroni_ordinal",
    "log10_chi2_sf",
    "log10_stirling2",
    "significance_order",
    "weight_of_evidence",
]

LN10 = math.log(10.0)

# Below this many factors a binomial coefficient is a short product of exact
# ratios; above, lgamma's absolute error (about 1e-16 * n log n) is negligible
# relative to the coefficient's own logarithm.
_BINOM_PRODUCT_MAX = 64


def log10_chi2_sf(statistic, dof):
    """Return the log10 of the chi-square upper tail probability.

    Parameters
    ----------
    statistic : float or array-like of float
        Chi-square statistics.
    dof : int, float or array-like
        Degrees of freedom, broadcast against ``statistic``.

    Returns
    -------
    log10_pvalue : float or ndarray of float64
        ``log10 P[chi2_dof >= statistic]``, finite for every finite statistic;
        ``0.0`` where ``statistic <= 0`` or ``dof <= 0``. A Python float when both
        inputs are scalars, else an array of the broadcast shape.

    Notes
    -----
    The tail is evaluated by :func:`partikit._kernels._special.log_chi2_sf`, which
    works on the natural-log scale throughout, so that a statistic of ``1e6``
    gives about ``-2.2e5`` rather than ``-inf``.

    References
    ----------
    .. [1] W. H. Press, S. A. Teukolsky, W. T. Vetterling and B. P. Flannery,
       "Numerical Recipes: The Art of Scientific Computing", 3rd ed., Cambridge
       University Press, 2007, section 6.2.

    Examples
    --------
    >>> from partikit._statistics._measures import log10_chi2_sf
    >>> round(log10_chi2_sf(3.841458820694124, 1), 6)
    -1.30103
    >>> log10_chi2_sf(1e6, 1) > -1e300
    True
    """
    if np.ndim(statistic) == 0 and np.ndim(dof) == 0:
        return log_chi2_sf(float(statistic), float(dof)) / LN10
    x, d = np.broadcast_arrays(
        np.asarray(statistic, dtype=np.float64), np.asarray(dof, dtype=np.float64)
    )
    flat = log_chi2_sf_array(_writable_flat(x), _writable_flat(d))
    return (flat / LN10).reshape(x.shape)


def _writable_flat(values):
    """The values as a writable C-contiguous 1-D float64 array.

    numba compiles a kernel again for a read-only array (a broadcast view, a
    read-only input), so the kernel always receives a writable one: a copy,
    which costs nothing next to the tail of each value (and numpy < 1.25 warns
    when the writable flag of a broadcast view is even read).
    """
    return np.array(values, dtype=np.float64, order="C").ravel()


def _non_empty(table):
    """The table as float64 without its empty rows and columns."""
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D, got {table.ndim} dimension(s).")
    rows = table.sum(axis=1) > 0
    columns = table.sum(axis=0) > 0
    # copies only when something is dropped: tables reach a million rows
    if not rows.all():
        table = table[rows]
    if not columns.all():
        table = table[:, columns]
    return table


#: Rows of a table handled at a time by :func:`chi2_statistic`.
_CHI2_BLOCK_ROWS = 1 << 12


def chi2_statistic(table):
    """Return Pearson's chi-square statistic of a contingency table.

    Parameters
    ----------
    table : array-like of shape (n_parts, n_classes)
        Non-negative (weighted) counts: one row per part, one column per class.

    Returns
    -------
    statistic : float
        Pearson's ``X^2`` of the table once empty rows and empty columns are
        dropped; ``0.0`` if fewer than two rows or two columns remain.
    dof : int
        ``(I - 1) (J - 1)`` for the ``I`` non-empty rows and ``J`` non-empty
        columns, ``0`` if ``I < 2`` or ``J < 2``.

    Notes
    -----
    With row totals ``n_i``, row profiles ``p_ij = n_ij / n_i`` and the marginal
    class distribution ``q_j``, the statistic is computed as
    ``X^2 = sum_i n_i sum_j (p_ij - q_j)^2 / q_j``, which equals
    ``sum_ij (n_ij - E_ij)^2 / E_ij`` with ``E_ij = n_i q_j`` but divides only by
    quantities that are positive once empty rows and columns are gone.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import chi2_statistic
    >>> statistic, dof = chi2_statistic([[58.0, 22.0], [22.0, 58.0]])
    >>> round(statistic, 9), dof
    (32.4, 1)
    """
    table = _non_empty(table)
    n_rows, n_cols = table.shape
    if n_rows < 2 or n_cols < 2:
        return 0.0, 0
    row_totals = table.sum(axis=1)
    col_totals = table.sum(axis=0)
    q = col_totals / col_totals.sum()
    per_row = np.empty(n_rows)
    # by blocks of rows: the same arithmetic, with temporaries that stay in the
    # cache instead of four copies of a table that may have a million rows
    for start in range(0, n_rows, _CHI2_BLOCK_ROWS):
        block = slice(start, start + _CHI2_BLOCK_ROWS)
        profiles = table[block] / row_totals[block, None]
        per_row[block] = ((profiles - q) ** 2 / q).sum(axis=1)
    statistic = float(row_totals @ per_row)
    return statistic, (n_rows - 1) * (n_cols - 1)


def merge_delta_chi2(table, row):
    """DeltaChi2 of merging one row of a table with each row (Khiops' measure).

    The chi-square that the table loses when row ``row`` is merged with row
    ``i``, for every ``i``: with the table's class proportions ``q_j`` (a
    merge leaves them unchanged), row totals ``n`` and row profiles ``p``,
    ``DeltaChi2 = n_a n_b / (n_a + n_b) * sum_j (p_aj - p_bj)^2 / q_j`` (the
    closed form of ALGORITHMS.md, section 1.3; at least 0). The smallest
    value marks the row whose class distribution is most similar to
    ``row``'s. A merge with an empty row changes nothing: 0.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Non-negative (weighted) class counts.
    row : int
        The row merged with each of the others.

    Returns
    -------
    delta : ndarray of float64 of shape (n_rows,)
        ``delta[i]`` for the merge of ``row`` with row ``i`` (0 at ``row``).

    References
    ----------
    .. [1] M. Boulle, "Khiops: A Statistical Discretization Method of
       Continuous Attributes", Machine Learning 55:53-69, 2004,
       doi:10.1023/B:MACH.0000019804.29836.05.

    Examples
    --------
    >>> merge_delta_chi2([[30.0, 10.0], [28.0, 12.0], [10.0, 30.0]], 0).round(4)
    array([ 0.    ,  0.2036, 20.362 ])
    """
    table = np.asarray(table, dtype=np.float64)
    totals = table.sum(axis=1)
    classes = table.sum(axis=0) > 0
    q = table.sum(axis=0)[classes] / table.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        profiles = table[:, classes] / totals[:, None]
        weights = totals[row] * totals / (totals[row] + totals)
    distances = ((profiles - profiles[row]) ** 2 / q).sum(axis=1)
    delta = weights * distances
    delta[(totals <= 0) | (totals[row] <= 0)] = 0.0
    delta[row] = 0.0
    return delta


def chi2_test(table):
    """Return Pearson's chi-square test of independence of a contingency table.

    Parameters
    ----------
    table : array-like of shape (n_parts, n_classes)
        Non-negative (weighted) counts: one row per part, one column per class.

    Returns
    -------
    statistic : float
        Pearson's ``X^2``, see :func:`chi2_statistic`.
    dof : int
        Degrees of freedom, ``0`` for a table with a single non-empty row or
        column.
    log10_pvalue : float
        log10 of the asymptotic p-value; ``0.0`` when ``dof == 0``.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import chi2_test
    >>> statistic, dof, log10_pvalue = chi2_test([[58.0, 22.0], [22.0, 58.0]])
    >>> dof, round(10.0**log10_pvalue, 12)
    (1, 1.2549e-08)
    """
    statistic, dof = chi2_statistic(table)
    return statistic, dof, log10_chi2_sf(statistic, dof)


def g2_statistic(table):
    """Return the likelihood ratio statistic ``G2`` of a contingency table.

    Parameters
    ----------
    table : array-like of shape (n_parts, n_classes)
        Non-negative (weighted) counts: one row per part, one column per class.

    Returns
    -------
    statistic : float
        ``G2 = 2 sum_ij n_ij log(n_ij / E_ij)`` with ``E_ij = n_i n_j / N``, over the
        non-empty cells once empty rows and columns are dropped; ``0.0`` if fewer
        than two rows or two columns remain.
    dof : int
        ``(I - 1) (J - 1)``, as for :func:`chi2_statistic`.

    Notes
    -----
    ``G2`` has the same asymptotic chi-square law as Pearson's ``X2`` under
    independence (CHAID's ``test="likelihood_ratio"``).

    References
    ----------
    .. [1] A. Agresti, "Categorical Data Analysis", 3rd ed., Wiley, 2013,
       section 3.2.1.

    Examples
    --------
    >>> from partikit._statistics._measures import g2_statistic
    >>> statistic, dof = g2_statistic([[58.0, 22.0], [22.0, 58.0]])
    >>> round(statistic, 6), dof
    (33.593089, 1)
    """
    table = _non_empty(table)
    n_rows, n_cols = table.shape
    if n_rows < 2 or n_cols < 2:
        return 0.0, 0
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
    cells = table > 0
    statistic = 2.0 * float(
        np.sum(table[cells] * np.log(table[cells] / expected[cells]))
    )
    return max(statistic, 0.0), (n_rows - 1) * (n_cols - 1)


def _log_add_exp(a, b):
    """Return ``log(exp(a) + exp(b))`` without overflow (``-inf`` allowed)."""
    hi, lo = (a, b) if a >= b else (b, a)
    if lo == -math.inf:
        return hi
    return hi + math.log1p(math.exp(lo - hi))


def log10_stirling2(n, k):
    """Return the log10 of the Stirling number of the second kind ``S(n, k)``.

    Parameters
    ----------
    n : int
        Number of elements, ``n >= 0``.
    k : int
        Number of non-empty blocks, ``k >= 0``.

    Returns
    -------
    value : float
        ``log10 S(n, k)``, the number of partitions of ``n`` labelled elements
        into ``k`` non-empty unlabelled blocks; ``-inf`` when ``S(n, k) = 0``
        (``k > n``, or ``k = 0 < n``), ``0.0`` when ``k = n`` or ``k = 1``.

    Notes
    -----
    The recurrence ``S(n, k) = k S(n - 1, k) + S(n - 1, k - 1)`` is carried in
    log space. Writing ``T(d, j) = S(j + d, j)`` it reads
    ``T(d, j) = j T(d - 1, j) + T(d, j - 1)``, which unrolls along either index
    into a cumulative sum, i.e. a :func:`numpy.logaddexp` accumulation:
    ``T(d, .)`` is the running sum of ``j T(d - 1, j)`` over ``j``, and
    ``T(., j)`` is the running sum of ``j^(d - e) T(e, j - 1)`` over ``e``. The
    cost is ``O(k (n - k))`` operations in ``min(k, n - k)`` vectorised passes, so
    ``S(100000, 8)`` takes a few milliseconds.

    When ``r = k (1 - 1/k)^n <= 0.1`` (many more elements than blocks, the usual
    case of a column's categories and its groups) the explicit formula is summed
    instead, from its dominant term:
    ``S(n, k) = k^n / k! * sum_m (-1)^m C(k, m) (1 - m/k)^n``. Its terms are
    bounded by ``r^m / m!``, so they decrease from the first, the sum lies within
    ``[1 - r, 1]``, there is no cancellation, and a handful of terms reach full
    precision in microseconds (``S(1000, 123)`` took 2.7 ms by the recurrence).

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import log10_stirling2
    >>> round(10.0 ** log10_stirling2(4, 2), 9)
    7.0
    """
    n = operator.index(n)
    k = operator.index(k)
    if n < 0 or k < 0:
        raise ValueError(f"n and k must be non-negative, got n={n}, k={k}.")
    if k > n or (k == 0 and n > 0):
        return -math.inf
    if k == n or k == 1:
        return 0.0
    ratio = k * math.exp(n * math.log1p(-1.0 / k))
    if ratio <= 0.1:
        terms = [1.0]
        log_binom = 0.0
        for m in range(1, k):
            log_binom += math.log((k - m + 1) / m)
            term = math.exp(log_binom + n * math.log1p(-m / k))
            terms.append(-term if m % 2 else term)
            # terms fall by a factor r or more each: the rest is below rounding
            if term < 1e-18:
                break
        log_value = n * math.log(k) - math.lgamma(k + 1) + math.log(math.fsum(terms))
        return log_value / LN10
    depth = n - k
    if depth < k:
        # Walk the rows d = 1 .. n - k, each a vector over j = 0 .. k.
        log_j = np.log(np.arange(1, k + 1, dtype=np.float64))
        row = np.zeros(k + 1)  # T(0, j) = S(j, j) = 1
        for _ in range(depth):
            row[1:] = np.logaddexp.accumulate(log_j + row[1:])
            row[0] = -np.inf  # T(d, 0) = S(d, 0) = 0 for d > 0
        value = row[k]
    else:
        # Walk the columns j = 1 .. k, each a vector over d = 0 .. n - k.
        d = np.arange(depth + 1, dtype=np.float64)
        col = np.full(depth + 1, -np.inf)
        col[0] = 0.0  # T(d, 0) = S(d, 0) = [d == 0]
        for j in range(1, k + 1):
            log_j = math.log(j)
            col = d * log_j + np.logaddexp.accumulate(col - d * log_j)
        value = col[depth]
    return float(value) / LN10


def log10_binom(n, k):
    """Return the log10 of the binomial coefficient ``C(n, k)``.

    Parameters
    ----------
    n : int
        Size of the set.
    k : int
        Size of the subsets.

    Returns
    -------
    value : float
        ``log10 C(n, k)``; ``-inf`` when ``k < 0`` or ``k > n`` (``C(n, k) = 0``).

    Notes
    -----
    A product of ``min(k, n - k)`` ratios when that is small (exact ``0.0`` for
    ``C(n, 0) = C(n, n) = 1``), ``lgamma`` otherwise.

    Examples
    --------
    >>> from partikit._statistics._measures import log10_binom
    >>> round(10.0 ** log10_binom(5, 2), 9)
    10.0
    """
    n = operator.index(n)
    k = operator.index(k)
    if k < 0 or k > n:
        return -math.inf
    m = min(k, n - k)
    if m <= _BINOM_PRODUCT_MAX:
        return math.fsum(math.log10((n - m + i) / i) for i in range(1, m + 1))
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / LN10


def _check_categories_groups(c, r):
    """Validate a number of categories ``c`` and of groups ``1 <= r <= c``."""
    c = operator.index(c)
    r = operator.index(r)
    if not 1 <= r <= c:
        raise ValueError(
            f"the number of groups r must satisfy 1 <= r <= c, got c={c}, r={r}."
        )
    return c, r


def log10_bonferroni_nominal(c, r):
    """Return the log10 Bonferroni multiplier of a nominal predictor (CHAID).

    Parameters
    ----------
    c : int
        Number of categories present, ``c >= 1``.
    r : int
        Number of groups they were merged into, ``1 <= r <= c``.

    Returns
    -------
    value : float
        ``log10 S(c, r)``, the log of the number of ways to partition ``c``
        unordered categories into ``r`` groups; ``0.0`` for ``r = c`` or ``r = 1``.

    Raises
    ------
    ValueError
        If not ``1 <= r <= c``.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import log10_bonferroni_nominal
    >>> round(10.0 ** log10_bonferroni_nominal(4, 2), 9)
    7.0
    """
    c, r = _check_categories_groups(c, r)
    return log10_stirling2(c, r)


def log10_bonferroni_ordinal(c, r):
    """Return the log10 Bonferroni multiplier of an ordinal predictor (CHAID).

    Parameters
    ----------
    c : int
        Number of categories present, ``c >= 1``.
    r : int
        Number of groups of adjacent categories, ``1 <= r <= c``.

    Returns
    -------
    value : float
        ``log10 C(c - 1, r - 1)``, the log of the number of ways to cut ``c``
        ordered categories into ``r`` intervals; ``0.0`` for ``r = c`` or ``r = 1``.

    Raises
    ------
    ValueError
        If not ``1 <= r <= c``.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import log10_bonferroni_ordinal
    >>> round(10.0 ** log10_bonferroni_ordinal(4, 2), 9)
    3.0
    """
    c, r = _check_categories_groups(c, r)
    return log10_binom(c - 1, r - 1)


def log10_bonferroni_floating(c, r):
    """Return the log10 Bonferroni multiplier of a floating predictor (CHAID).

    Parameters
    ----------
    c : int
        Number of categories present, ``c >= 1``, counting the floating one (an
        ordinal predictor plus one category, typically "missing", that may join
        any group).
    r : int
        Number of groups, ``1 <= r <= c``.

    Returns
    -------
    value : float
        ``log10(C(c - 2, r - 2) + r C(c - 2, r - 1))``, with ``C(n, k) = 0`` for
        ``k < 0`` or ``k > n``: the floating category either forms a group of its
        own next to ``r - 1`` intervals of the ``c - 1`` ordered ones, or joins one
        of ``r`` intervals. ``0.0`` when ``c = 1``.

    Raises
    ------
    ValueError
        If not ``1 <= r <= c``.

    Notes
    -----
    Equal to Kass's ``[(r - 1) + r (c - r)] / (c - 1) * C(c - 1, r - 1)`` for
    ``c >= 2``. The two terms are added on the log scale so that neither is
    formed as a float.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import log10_bonferroni_floating
    >>> round(10.0 ** log10_bonferroni_floating(4, 2), 9)
    5.0
    """
    c, r = _check_categories_groups(c, r)
    if c == 1:
        # A lone floating category: one grouping, the formula's terms both vanish.
        return 0.0
    own_group = log10_binom(c - 2, r - 2) * LN10
    joins = log10_binom(c - 2, r - 1) * LN10 + math.log(r)
    return _log_add_exp(own_group, joins) / LN10


def bonferroni_adjust(log10_p, log10_multiplier):
    """Return a Bonferroni-adjusted p-value on the log10 scale.

    Parameters
    ----------
    log10_p : float or array-like of float
        log10 of the unadjusted p-values.
    log10_multiplier : float or array-like of float
        log10 of the Bonferroni multipliers, broadcast against ``log10_p``.

    Returns
    -------
    log10_adjusted : float or ndarray of float64
        ``min(0, log10_p + log10_multiplier)``: the adjusted p-value, capped at 1.
        A Python float when both inputs are scalars.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import bonferroni_adjust
    >>> bonferroni_adjust(-3.0, 1.0), bonferroni_adjust(-1.0, 2.0)
    (-2.0, 0.0)
    """
    adjusted = np.minimum(0.0, np.add(log10_p, log10_multiplier, dtype=np.float64))
    if np.ndim(adjusted) == 0:
        return float(adjusted)
    return adjusted


def grouped_significance(grouped_table, n_categories, target_type=None):
    """Bonferroni-adjusted significance of a grouped attribute, in log10.

    The chi-square test of the grouped table (groups x classes), adjusted by
    CHAID's multiplier for a nominal predictor: the number of ways to partition
    the attribute's ``n_categories`` categories into its groups. This is the score
    of :class:`~partikit.groupers.AttributeAggregator`'s search, whatever grouper
    made the groups.

    Parameters
    ----------
    grouped_table : array-like of shape (n_groups, n_classes)
        Class counts of each group.
    n_categories : int
        Number of categories that were grouped.
    target_type : str or None, default=None
        ``"continuous"``: ``grouped_table`` is a moment table (groups x
        (weight, sum, sum of squares)), tested by the F-test of the one-way
        analysis of variance (CHAID's test for an interval target) instead of
        the chi-square.

    Returns
    -------
    log10_adjusted_pvalue : float
        At most 0; the smaller, the more significant.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> from partikit._statistics._measures import grouped_significance
    >>> round(grouped_significance([[40.0, 10.0], [10.0, 40.0]], 4), 2)
    -7.86
    """
    grouped_table = np.asarray(grouped_table, dtype=np.float64)
    if target_type == "continuous":
        log10_p = float(f_test(grouped_table)[3])
        n_groups = int((grouped_table[:, WEIGHT] > 0).sum())
    else:
        statistic, dof = chi2_statistic(grouped_table)
        log10_p = float(log10_chi2_sf(statistic, dof)) if dof > 0 else 0.0
        n_groups = int((grouped_table.sum(axis=1) > 0).sum())
    if n_categories < 1 or n_groups < 1:
        return 0.0
    return bonferroni_adjust(
        log10_p, log10_bonferroni_nominal(n_categories, min(n_groups, n_categories))
    )


def significance_order(log10_adjusted_pvalue, tie_break):
    """Order of attributes by significance, the most significant first.

    The smallest Bonferroni-adjusted log10 p-value first (CHAID's selection
    rule); ties by the larger ``tie_break`` value, then by the lower index.
    :func:`~partikit.groupers.chaid_feature_ranking` breaks ties by the
    chi-square statistic, ``partition_summary`` and the report by Cramer's V.

    Parameters
    ----------
    log10_adjusted_pvalue : array-like of shape (n_attributes,)
    tie_break : array-like of shape (n_attributes,)

    Returns
    -------
    order : ndarray of intp of shape (n_attributes,)
        Attribute indices, best first.

    Examples
    --------
    >>> from partikit._statistics._measures import significance_order
    >>> significance_order([-3.0, -5.0, -3.0], [1.0, 0.5, 2.0])
    array([1, 2, 0])
    """
    adjusted = np.asarray(log10_adjusted_pvalue, dtype=np.float64)
    tie_break = np.asarray(tie_break, dtype=np.float64)
    return np.lexsort((np.arange(len(adjusted)), -tie_break, adjusted)).astype(np.intp)


def weight_of_evidence(table, *, sign="event"):
    """Regularised weight of evidence of each part of a two-class table.

    ``log(((pos_g + 1) / (P + 2)) / ((neg_g + 1) / (N + 2)))`` with the second
    class positive (the event): the formula of ``category_encoders.WOEEncoder``
    (regularization 1), which stays finite for a pure part. A part of total
    weight 1 (one row) gets 0, as that encoder gives a single-row category, and
    so does an empty part (no evidence either way, as that encoder gives a
    category not seen in fit).

    Parameters
    ----------
    table : array-like of shape (n_parts, 2)
        Class counts (weighted) of each part: negatives, positives.
    sign : {"event", "non_event"}, default="event"
        ``"event"``: the formula above, positive where the events (the second
        class) are over-represented, the sign of ``category_encoders``;
        ``"non_event"``: its opposite, ``log(share of non-events / share of
        events)``, the sign of optbinning and of credit scorecards [1]_.

    Returns
    -------
    woe : ndarray of float64 of shape (n_parts,)

    References
    ----------
    .. [1] N. Siddiqi, "Credit Risk Scorecards: Developing and Implementing
       Intelligent Credit Scoring", Wiley, 2006.

    Examples
    --------
    >>> from partikit._statistics._measures import weight_of_evidence
    >>> weight_of_evidence([[30.0, 10.0], [10.0, 30.0]]).round(3)
    array([-1.036,  1.036])
    >>> weight_of_evidence([[30.0, 10.0], [10.0, 30.0]], sign="non_event").round(3)
    array([ 1.036, -1.036])
    """
    if sign not in ("event", "non_event"):
        raise ValueError(f"sign must be 'event' or 'non_event', got {sign!r}.")
    table = np.asarray(table, dtype=np.float64)
    negatives, positives = table[:, 0], table[:, 1]
    share_positive = (positives + 1.0) / (positives.sum() + 2.0)
    share_negative = (negatives + 1.0) / (negatives.sum() + 2.0)
    woe = np.log(share_positive / share_negative)
    if sign == "non_event":
        # negated, not recomputed: the two signs are exact opposites
        woe = -woe
    weights = table.sum(axis=1)
    woe[(weights == 1.0) | (weights == 0.0)] = 0.0
    return woe
