# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Optimal multisplitting (Elomaa & Rousu): the core and BlockOptDiscretizer."""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np
from scipy.special import gammaln

from partikit._compat import Interval, StrOptions
from partikit._estimator._renames import (
    DEPRECATED,
    Renamed,
    RenamedParametersMixin,
    deprecated_constraints,
    renamed_keywords,
)
from partikit._kernels._codes import IMPURITY_CODES, SQUARED_ERROR
from partikit._kernels._multisplit import (
    multisplit_dp,
    refine_cuts,
    refine_memo,
    segment_sums,
)
from partikit._statistics._constraints import (
    CONSTRAINED_EXACT_LIMIT,
    constrained_multisplit,
    impurity_costs,
    infeasible_message,
    quiet_in_a_tree,
    resolve_constraints,
    trends_to_solve,
)
from partikit._statistics._contingency import check_table
from partikit._statistics._moments import (
    CONTINUOUS,
    SUM,
    SUM_OF_SQUARES,
    WEIGHT,
    check_moment_table,
    f_test,
    squared_errors,
)
from partikit._statistics._results import Intervals, Multisplit
from partikit.discretizers._base import BaseDiscretizer
from partikit.discretizers._blocks import (
    Units,
    _block_units,
    _quantile_units,
    bin_units,
    block_starts,
    log_table_for,
    table_sums,
)

ALGORITHMS = ("block_opt_pruned", "block_opt", "bin_opt")
#: The criteria by name: the impurities of class counts and the squared error of a
#: moment table (a continuous target).
MULTISPLIT_CODES = {**IMPURITY_CODES, "squared_error": SQUARED_ERROR}
#: ``criterion="auto"``: entropy for class counts, squared error for moments.
CRITERIA = ("auto", *MULTISPLIT_CODES)
ARITY_SELECTIONS = ("mdl", "balanced")

#: Ties between partitions are decided up to this relative difference.
RELATIVE_TOLERANCE = 1e-12

#: Units beyond which an exact search (quadratic in them) warns.
MANY_UNITS = 50_000

#: ``exact_limit="auto"``: the search is exact up to this many units (blocks,
#: or values for Bin-Opt), about 0.1 s with 10 classes ...
AUTO_EXACT_UNITS = 2048
#: ... and above it runs on the blocks of this many weighted-quantile pre-bins.
AUTO_CANDIDATES = 1024

_LN2 = math.log(2.0)


@renamed_keywords(Renamed("max_candidates", "exact_limit"))
def optimal_multisplit(
    table,
    *,
    criterion="auto",
    max_bins=10,
    algorithm="block_opt_pruned",
    exact_limit=None,
    target_type=None,
):
    """Optimal cut points of a value table for every number of intervals up to K.

    Minimises a cumulative concave impurity (class entropy or Gini) or, for a
    continuous target, the sum of squared errors of the intervals, over all
    combinations of cut points, by dynamic programming over units of the value
    table. One pass yields the optimum for every arity ``k <= max_bins``.

    Parameters
    ----------
    table : array-like of shape (n_values, n_classes) or (n_values, 3)
        Class counts of each distinct value, in value order; with
        ``target_type="continuous"``, the moments ``(sum w, sum w y, sum w
        y^2)`` of the target at each distinct value (a moment table).
    criterion : {"auto", "entropy", "gini", "squared_error"}, default="auto"
        Cost of an interval. ``"entropy"`` and ``"gini"``: its impurity
        weighted by its size (class counts only); ``"squared_error"``: the sum
        of squared deviations of its target values from their mean (moment
        tables only). ``"auto"``: ``"entropy"`` for class counts,
        ``"squared_error"`` for a moment table.
    max_bins : int, default=10
        K, the largest number of intervals.
    algorithm : {"block_opt_pruned", "block_opt", "bin_opt"}, default="block_opt_pruned"
        ``"bin_opt"`` searches over every distinct value; ``"block_opt"`` over
        blocks (runs of values between boundary points); ``"block_opt_pruned"``
        over blocks with the candidate pruning of Elomaa & Rousu (1999), Table 2.
        All three return the same optimal values.
    exact_limit : int, "auto" or None, default=None
        Approximate search: the cut candidates are first reduced to the gaps
        nearest ``exact_limit`` weighted quantiles (see
        :func:`~partikit.discretizers.quantile_units`), the search runs over the
        blocks of those pre-bins (with pruning unless ``algorithm="block_opt"``;
        ``"bin_opt"`` is then the same as ``"block_opt"``), and each cut found is
        moved to its best position within the two pre-bins around it. None
        searches exactly. ``"auto"`` searches exactly when there are at most
        2,048 units (blocks, or distinct values for ``"bin_opt"``) and as
        ``exact_limit=1024`` above.
    target_type : None or "continuous", default=None
        ``"continuous"``: ``table`` is a moment table. None: class counts.

    Returns
    -------
    result : Multisplit
        ``values[k - 1]``: the least cumulative impurity with at most ``k``
        intervals (non-increasing; entropy: ``sum_I n_I H(I)`` in bits, gini:
        ``sum_I n_I Gini(I)``, squared error: ``sum_I SSE(I)``);
        ``cuts[k - 1]``: the cut positions of that
        optimum (value-table rows before each cut; fewer than ``k - 1`` cuts
        when more intervals do not lower the impurity); ``n_evaluations``:
        candidate partitions evaluated (line 9 of Elomaa & Rousu's Table 2);
        ``n_units``: units searched; ``impurity`` (the ``criterion`` asked) and
        ``algorithm`` as asked; ``exact``: whether every candidate cut was
        searched; ``total_weight`` and ``n_rows``: the table's weight and
        rows. ``result.intervals(k)`` is the optimum of ``k`` intervals as an
        ``Intervals``, whose ``criterion`` is the impurity decrease per unit of
        weight, ``(values[0] - values[k - 1]) / total_weight``.

    Notes
    -----
    With ``m`` units, ``J`` classes and ``K = max_bins``, the search costs
    O(m^2 J) for the interval costs plus O(K m^2) candidate evaluations in the
    worst case; pruning removes a candidate for good as soon as the best
    ``(k-1)``-split of the prefix scanned so far is no worse than it (Theorem 2
    of the paper), which saves about half of the evaluations on real data.
    Equal values are never separated; ties between partitions go to the
    fewest intervals, then to the leftmost last cut.

    *Squared error.* The cost of an interval is ``SSE(I) = sum w y^2 - (sum w
    y)^2 / sum w``, read from prefix sums of the moment table. It is cumulative
    and merging two adjacent intervals never lowers it (``SSE(A u B) = SSE(A) +
    SSE(B) + w_A w_B (mean_A - mean_B)^2 / (w_A + w_B)``), which is all the
    pruning of Theorem 2 needs: it stays exact (it is the pruning of PELT [4]_
    without a penalty). The units are the runs of adjacent values whose target
    means are equal (the *segments* of Elomaa & Rousu [3]_, which for a moment
    table take the place of blocks): within such a run the total squared error
    is a concave function of where a cut falls (the sum of ``S_I^2 / w_I`` of
    the two intervals it separates is convex in the moved weight), so some
    optimum with at most ``k`` intervals cuts only between runs. No other gap
    can be dropped: unlike class counts, any two different means may be worth
    separating, so on distinct floats with noise every gap is a candidate and
    the exact search is quadratic in the distinct values. With the default of
    the estimator, ``exact_limit="auto"``, a column of more than 2,048 runs is
    searched on 1,024 weighted-quantile pre-bins and each cut is then moved to
    its best value within the two pre-bins around it: the cuts found are those
    of the best partition whose cuts lie near the quantiles, then each made
    locally optimal; what is lost is a better optimum with two cuts within one
    pre-bin's reach of each other or far from where the pre-binned optimum
    cuts (``exact`` is then False).

    References
    ----------
    .. [1] Elomaa, T. and Rousu, J. (1999). Speeding up the search for optimal
       partitions. PKDD'99, LNAI 1704, 89-97. doi:10.1007/978-3-540-48247-5_10
    .. [2] Elomaa, T. and Rousu, J. (1999). General and efficient multisplitting of
       numerical attributes. Machine Learning 36(3), 201-244.
       doi:10.1023/A:1007674919412
    .. [3] Elomaa, T. and Rousu, J. (2004). Efficient multisplitting revisited:
       optima-preserving elimination of partition candidates. Data Mining and
       Knowledge Discovery 8, 97-126.
    .. [4] Killick, R., Fearnhead, P. and Eckley, I. A. (2012). Optimal
       detection of changepoints with a linear computational cost. Journal of
       the American Statistical Association 107(500), 1590-1598.
       doi:10.1080/01621459.2012.737745
    .. [5] Fisher, W. D. (1958). On grouping for maximum homogeneity. Journal
       of the American Statistical Association 53(284), 789-798.
       doi:10.1080/01621459.1958.10501479

    Examples
    --------
    The worked example of ALGORITHMS section 3.8: values 1..7 with class counts

    >>> import numpy as np
    >>> from partikit.discretizers import optimal_multisplit
    >>> table = np.array([[2, 0], [1, 0], [1, 1], [0, 1], [0, 1], [2, 0], [1, 0]])
    >>> result = optimal_multisplit(table, max_bins=4)
    >>> np.round(result.values, 4)
    array([8.8129, 6.8966, 3.2451, 2.    ])
    >>> result.cuts[2]  # rows before each cut: between values 2|3 and 5|6
    array([2, 5])

    A continuous target, as the moments of its values at each distinct value:

    >>> y_by_value = [[1.0], [1.2, 0.8], [5.0], [5.2, 4.8, 5.0], [0.0]]
    >>> moments = np.array([[len(v), sum(v), np.dot(v, v)] for v in y_by_value])
    >>> result = optimal_multisplit(moments, max_bins=3, target_type="continuous")
    >>> result.cuts[2], np.round(result.values, 3)
    (array([2, 4]), array([37.035, 20.16 ,  0.16 ]))
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {list(ALGORITHMS)}.")
    if target_type == CONTINUOUS:
        table = check_moment_table(table)
    elif target_type is None:
        table = check_table(table)
    else:
        raise ValueError(
            f"target_type must be None or {CONTINUOUS!r}, got {target_type!r}."
        )
    criterion = _resolve_criterion(criterion, target_type)
    if criterion == "squared_error":
        return _squared_error_multisplit(table, max_bins, algorithm, exact_limit)
    return _optimal_multisplit(table, criterion, max_bins, algorithm, exact_limit)


def _resolve_criterion(criterion, target_type):
    """The criterion ``"auto"`` stands for, or a clear error for a criterion that
    does not fit the table."""
    if criterion not in CRITERIA:
        raise ValueError(
            f"criterion must be one of {list(CRITERIA)}, got {criterion!r}."
        )
    continuous = target_type == CONTINUOUS
    if criterion == "auto":
        return "squared_error" if continuous else "entropy"
    if continuous and criterion != "squared_error":
        raise ValueError(
            f"criterion={criterion!r} is an impurity of class counts; a continuous "
            "target (a moment table) takes criterion='squared_error' (or 'auto')."
        )
    if not continuous and criterion == "squared_error":
        raise ValueError(
            "criterion='squared_error' needs a continuous target (a moment table, "
            "target_type='continuous'); class counts take 'entropy' or 'gini'."
        )
    return criterion


def _optimal_multisplit(table, criterion, max_bins, algorithm, exact_limit):
    """:func:`optimal_multisplit` of a checked table (no copy of it when it can be
    avoided: with many classes a copy is large)."""
    # one pass for the classes present, the weighted quantiles and whether the
    # t log2 t lookup fits the table (numpy's column sums of a C-ordered table
    # take as long as the whole search)
    column_totals, cumulative, integral = table_sums(table)
    present = column_totals > 0
    if not present.all():
        table = table[:, present]
    units = None
    if isinstance(exact_limit, str):  # "auto"
        if algorithm == "bin_opt":
            n_units = table.shape[0]
        else:
            n_units = _count_blocks(table, AUTO_EXACT_UNITS)
            if n_units <= AUTO_EXACT_UNITS:
                starts = block_starts(table)
        if n_units <= AUTO_EXACT_UNITS:
            exact_limit = None
            if algorithm != "bin_opt" and n_units:
                units = Units(starts, segment_sums(table, starts))
        else:
            exact_limit = AUTO_CANDIDATES
    if units is not None:
        pass
    elif exact_limit is not None:
        units = _quantile_units(table, exact_limit, cumulative)
    elif algorithm == "bin_opt":
        units = bin_units(table)
    else:
        units = _block_units(table)
    n_units = units.table.shape[0]
    n_rows = table.shape[0]
    if n_units == 0:
        return Multisplit(
            np.zeros(1), [np.zeros(0, np.intp)], 0, 0, criterion, algorithm,
            n_rows=n_rows,
        )  # fmt: skip
    xlogx = log_table_for(units.table)
    total = float(units.table.sum())
    tolerance = RELATIVE_TOLERANCE * max(total * max(math.log2(total + 1), 1.0), 1.0)
    values, last_cut, n_evaluations = _multisplit_dp(
        units.table,
        MULTISPLIT_CODES[criterion],
        int(max_bins),
        algorithm == "block_opt_pruned",
        xlogx,
        tolerance,
    )
    cuts = [units.rows_of_cuts(_backtrack(last_cut, k)) for k in range(1, len(values))]
    values = values[1:].copy()
    exact = True
    if exact_limit is not None and n_units < table.shape[0]:
        exact = table.shape[0] <= exact_limit
        # the units' lookup covers the table's total: the same t log2 t values
        values, cuts = _refine(
            table, units, cuts, criterion, tolerance, xlogx if integral else None
        )
    return Multisplit(
        values, cuts, int(n_evaluations), n_units, criterion, algorithm, exact,
        total, n_rows,
    )  # fmt: skip


def _squared_error_multisplit(table, max_bins, algorithm, exact_limit):
    """:func:`optimal_multisplit` of a checked moment table (squared error)."""
    n_rows = table.shape[0]
    centred = _centred_moments(table)
    total_weight = float(table[:, WEIGHT].sum())
    starts = (
        np.arange(n_rows, dtype=np.intp)
        if algorithm == "bin_opt"
        else moment_segment_starts(centred)
    )
    if isinstance(exact_limit, str):  # "auto"
        exact_limit = None if len(starts) <= AUTO_EXACT_UNITS else AUTO_CANDIDATES
    if exact_limit is not None and n_rows > exact_limit:
        units = _moment_quantile_units(centred, exact_limit)
    elif len(starts) == n_rows:
        units = Units(starts, centred)
    else:
        units = Units(starts, segment_sums(centred, starts))
    n_units = units.table.shape[0]
    if n_units == 0 or total_weight <= 0:
        return Multisplit(
            np.zeros(1), [np.zeros(0, np.intp)], 0, n_units, "squared_error",
            algorithm, total_weight=total_weight, n_rows=n_rows,
        )  # fmt: skip
    total_squared_error = float(np.sum(centred[:, SUM_OF_SQUARES]))
    # the sums of the interval costs round at about this relative precision
    tolerance = RELATIVE_TOLERANCE * max(
        total_squared_error * max(math.log2(n_units), 1.0), np.finfo(float).tiny
    )
    values, last_cut, n_evaluations = _multisplit_dp(
        units.table,
        SQUARED_ERROR,
        int(max_bins),
        algorithm == "block_opt_pruned",
        np.zeros(0),
        tolerance,
    )
    cuts = [units.rows_of_cuts(_backtrack(last_cut, k)) for k in range(1, len(values))]
    values = values[1:].copy()
    exact = True
    if n_units < n_rows and exact_limit is not None:
        exact = n_rows <= exact_limit
        values, cuts = _refine(centred, units, cuts, "squared_error", tolerance)
    return Multisplit(
        values, cuts, int(n_evaluations), n_units, "squared_error", algorithm,
        exact, total_weight, n_rows,
    )  # fmt: skip


def _centred_moments(table):
    """The moment table of ``y - mean(y)``: the same squared errors, computed
    without the cancellation of ``sum w y^2 - (sum w y)^2 / sum w`` on a target
    far from 0 (each row's own squared error plus its weight times its squared
    distance to the overall mean)."""
    weight = table[:, WEIGHT]
    total_weight = weight.sum()
    overall_mean = table[:, SUM].sum() / total_weight if total_weight > 0 else 0.0
    centred = np.empty_like(table)
    centred[:, WEIGHT] = weight
    with np.errstate(invalid="ignore", divide="ignore"):
        offset = np.where(weight > 0, table[:, SUM] / weight - overall_mean, 0.0)
        own = np.where(
            weight > 0, table[:, SUM_OF_SQUARES] - table[:, SUM] ** 2 / weight, 0.0
        )
    centred[:, SUM] = weight * offset
    centred[:, SUM_OF_SQUARES] = np.maximum(own, 0.0) + weight * offset * offset
    return centred


def moment_segment_starts(table):
    """First row of every run of adjacent rows with the same target mean.

    These runs are the units of an exact squared-error search: within a run
    the squared error of a partition is concave in where a cut falls, so some
    optimum cuts only between runs (see :func:`optimal_multisplit`). A row of
    zero weight has no mean and joins the run before it (a cut on either side
    of it costs the same). Means are compared as floats: two means that round
    to the same float are one run, at a cost below the search's tie tolerance.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, 3)
        A moment table.

    Returns
    -------
    starts : ndarray of intp of shape (n_runs,)
        Increasing, ``starts[0] == 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers._block_opt import moment_segment_starts
    >>> table = np.array([[1, 2, 4], [2, 4, 8], [1, 3, 9], [0, 0, 0], [3, 9, 27]])
    >>> moment_segment_starts(table.astype(float))  # means 2, 2, 3, -, 3
    array([0, 2])
    """
    n_rows = table.shape[0]
    if n_rows == 0:
        return np.zeros(1, dtype=np.intp)
    weight = table[:, WEIGHT]
    positive = weight > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(positive, table[:, SUM] / weight, np.nan)
    # the mean of the last row of positive weight at or before each row
    last = np.maximum.accumulate(np.where(positive, np.arange(n_rows), 0))
    filled = means[last]
    # NaN (leading rows of zero weight) differs from everything: a new run, safe
    new_run = positive[1:] & (filled[1:] != filled[:-1])
    return np.concatenate([[0], np.flatnonzero(new_run) + 1]).astype(np.intp)


def _moment_quantile_units(table, exact_limit):
    """Runs of equal mean of the pre-bins nearest ``exact_limit`` weighted
    quantiles (the weight is the moment table's first column)."""
    cumulative = np.cumsum(table[:, WEIGHT])
    targets = cumulative[-1] * np.arange(1, exact_limit) / exact_limit
    ends = np.unique(np.searchsorted(cumulative, targets, side="left"))
    starts = np.concatenate([[0], ends[ends < table.shape[0] - 1] + 1]).astype(np.intp)
    pre_binned = segment_sums(table, starts)
    runs = moment_segment_starts(pre_binned)
    return Units(starts[runs], segment_sums(pre_binned, runs))


#: Work (units x (classes + arities)) of one call of the DP kernel: a few tens of
#: milliseconds, so that Ctrl-C stops a long exact search at once.
DP_CHUNK_WORK = 20_000_000


def _multisplit_dp(units, criterion, max_parts, prune, xlogx, tolerance):
    """Run Elomaa & Rousu's dynamic programme in chunks of prefixes.

    The state (prefix sums, ``P``, ``last_cut``, the candidate lists) is
    allocated here and the kernel solves a chunk of prefixes per call; prefix
    ``i`` costs about ``i (J + K)``, so chunks shrink as the prefixes grow.

    Returns
    -------
    values : ndarray of float64 of shape (K + 1,)
        ``values[k]`` = optimal cumulative impurity with at most ``k`` intervals
        (``values[0]`` is unused, +inf).
    last_cut : ndarray of intp of shape (K + 1, m + 1)
        See :func:`~partikit._kernels._multisplit.multisplit_dp`.
    n_evaluations : int
    """
    m, n_classes = units.shape
    K = min(max_parts, m)
    cum = np.zeros((m + 1, n_classes))
    np.cumsum(units, axis=0, out=cum[1:])
    cum_int = np.zeros((m + 1, n_classes), dtype=np.int64)
    if xlogx.shape[0] > 0:
        cum_int[:] = cum + 0.5
    P = np.full((K + 1, m + 1), np.inf)
    last_cut = np.full((K + 1, m + 1), -1, dtype=np.intp)
    live = np.empty((K + 1, m + 1), dtype=np.intp)
    n_live = np.zeros(K + 1, dtype=np.intp)
    cost = np.empty(m + 1)
    n_evaluations = 0
    start = 1
    while start <= m:
        stop = min(m + 1, start + max(1, DP_CHUNK_WORK // (start * (n_classes + K))))
        n_evaluations += multisplit_dp(
            cum, cum_int, xlogx, P, last_cut, live, n_live, cost, start, stop,
            criterion, prune, tolerance,
        )  # fmt: skip
        start = stop
    return P[:, m].copy(), last_cut, n_evaluations


def _count_blocks(table, limit, chunk=1 << 15):
    """Number of blocks of a table, or some number above ``limit`` as soon as the
    rows read show more (a large column is not scanned to the end for it)."""
    n_blocks = 0
    for start in range(0, table.shape[0], chunk):
        # one row of overlap: the gap before a chunk belongs to it
        first = max(start - 1, 0)
        n_blocks += len(block_starts(table[first : start + chunk])) - (start > 0)
        if n_blocks > limit:
            break
    return n_blocks


def _backtrack(last_cut, n_parts):
    """Cut positions (units before each cut, increasing) of the optimum ``P[k, m]``.

    At most ``k`` steps: plain Python, no kernel to compile.
    """
    i = last_cut.shape[1] - 1
    cuts = []
    for k in range(n_parts, 1, -1):
        if i <= 0:
            break
        j = int(last_cut[k, i])
        if j >= 0:
            cuts.append(j)
            i = j
    return np.array(cuts[::-1], dtype=np.intp)


def _refine(table, units, cuts, criterion, tolerance, xlogx=None):
    """Move the cuts of a pre-binned search to their best rows nearby.

    A cut found among pre-bin boundaries is moved within the two pre-bins around
    it; without this, a class change inside a pre-bin leaves a mixed pre-bin that
    more intervals would isolate. Keeps "at most k" values non-increasing.
    """
    values = np.empty(len(cuts))
    refined = []
    memo = refine_memo(sum(len(unit_cuts) for unit_cuts in cuts))
    for k, unit_cuts in enumerate(cuts):
        moved, value = refine_cuts(
            table,
            units.starts,
            units.table,
            unit_cuts,
            MULTISPLIT_CODES[criterion],
            tolerance,
            xlogx,
            memo,
        )
        if k > 0 and value >= values[k - 1] - tolerance:
            moved, value = refined[k - 1], values[k - 1]
        refined.append(moved)
        values[k] = value
    return values, refined


def _entropy_bits(parts):
    """``sum_I n_I H(I)`` in bits of the rows of a table."""
    totals = parts.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(parts > 0, parts * np.log2(parts), 0.0).sum(axis=1)
        whole = np.where(totals > 0, totals * np.log2(totals), 0.0)
    return float(np.sum(whole - terms))


def _log2_binom(n, k):
    return float((gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)) / _LN2)


def mdl_code_length(table, cuts, *, target_type=None):
    """Bits to send the classes of a value table given its intervals, and them.

    ``log2 C(V - 1, k - 1)`` to say which of the ``V - 1`` gaps between distinct
    values are cuts, ``log2 C(n_I + J - 1, J - 1)`` per interval to send its class
    counts, and ``sum_I n_I H(I)`` to send the classes given those counts
    (Rissanen's two-part code, as in Fayyad & Irani's acceptance test, for ``k``
    intervals at once). The gaps counted are all those between distinct values,
    not only boundary points: a receiver knows the values, not the classes that
    make the boundary points.

    For a continuous target (``target_type="continuous"``, a moment table) the
    same two-part code sends the target values instead of the classes: the same
    ``log2 C(V - 1, k - 1)`` for the cuts, ``(1/2) log2 n_I`` per interval for its
    mean and ``(1/2) log2 N`` for the common variance (Rissanen's cost of a real
    parameter estimated from ``n`` values, to its precision ``1 / sqrt(n)``), and
    ``(N / 2) log2(2 pi e SSE / N)`` for the values given them (their Gaussian
    code at the maximum-likelihood variance; the values' own precision adds the
    same constant to every partition and is left out). Davis, Lee &
    Rodriguez-Yam (2006) use this code, with a variance per segment, to choose
    the breaks of a time series. A cut pays for itself when it lowers ``SSE``
    by the factor ``2^(-2 c / N)`` for its ``c`` bits, about ``log2 V + (1/2)
    log2 n_I``: with ``V = N = 10^6``, about 30 bits, a drop of ``SSE`` of
    about 42 noise variances, far above the drop of the best cut of pure noise
    (a few variances: the maximum of the change-point statistic grows as
    ``2 log log N``).

    Parameters
    ----------
    table : ndarray of shape (n_values, n_classes) or (n_values, 3)
        Value table (``V = n_values``), or a moment table.
    cuts : ndarray of int
        Cut positions in the table.
    target_type : None or "continuous", default=None
        ``"continuous"``: ``table`` is a moment table.

    Returns
    -------
    bits : float
        The total code length, in bits.

    References
    ----------
    .. [1] Rissanen, J. (1983). A universal prior for integers and estimation by
       minimum description length. The Annals of Statistics 11(2), 416-431.
       doi:10.1214/aos/1176346150
    .. [2] Davis, R. A., Lee, T. C. M. and Rodriguez-Yam, G. A. (2006).
       Structural break estimation for nonstationary time series models.
       Journal of the American Statistical Association 101(473), 223-239.
       doi:10.1198/016214505000000745

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers import mdl_code_length
    >>> table = np.array([[2, 0], [1, 0], [1, 1], [0, 1], [0, 1], [2, 0], [1, 0]])
    >>> round(mdl_code_length(table, []), 4)  # log2 C(11, 1) + 10 H(S)
    12.2723
    """
    if target_type == CONTINUOUS:
        table = check_moment_table(table)
        return float(_gaussian_code_lengths(table, [np.asarray(cuts, np.intp)])[0])
    table = check_table(table)
    parts = np.add.reduceat(table, np.concatenate([[0], cuts]).astype(np.intp))
    n_classes = int((table.sum(axis=0) > 0).sum())
    k = len(parts)
    model = _log2_binom(max(table.shape[0] - 1, 0), k - 1)
    model += sum(
        _log2_binom(n + n_classes - 1, n_classes - 1) for n in parts.sum(axis=1)
    )
    return model + _entropy_bits(parts)


def _mdl_code_lengths(table, cut_lists):
    """:func:`mdl_code_length` of several partitions in one pass over the table.

    The table is summed once between the cuts of all partitions together; the
    intervals of each partition are sums of those pieces, in the same order.
    """
    positions = np.unique(np.concatenate([np.zeros(1, np.intp), *cut_lists]))
    pieces = segment_sums(table, positions.astype(np.intp))
    n_classes = int((pieces.sum(axis=0) > 0).sum())
    n_gaps = max(table.shape[0] - 1, 0)
    scores = np.empty(len(cut_lists))
    for i, cuts in enumerate(cut_lists):
        starts = np.searchsorted(positions, np.concatenate([[0], cuts]))
        parts = np.add.reduceat(pieces, starts.astype(np.intp), axis=0)
        k = len(parts)
        model = _log2_binom(n_gaps, k - 1)
        model += sum(
            _log2_binom(n + n_classes - 1, n_classes - 1) for n in parts.sum(axis=1)
        )
        scores[i] = model + _entropy_bits(parts)
    return scores


def _gaussian_code_lengths(table, cut_lists):
    """The continuous :func:`mdl_code_length` of several partitions of a moment
    table, in one pass over it (as :func:`_mdl_code_lengths`)."""
    centred = _centred_moments(table)
    positions = np.unique(np.concatenate([np.zeros(1, np.intp), *cut_lists]))
    pieces = segment_sums(centred, positions.astype(np.intp))
    n = float(pieces[:, WEIGHT].sum())
    n_gaps = max(table.shape[0] - 1, 0)
    errors = []
    sizes = []
    for cuts in cut_lists:
        starts = np.searchsorted(positions, np.concatenate([[0], cuts]))
        parts = np.add.reduceat(pieces, starts.astype(np.intp), axis=0)
        errors.append(float(squared_errors(parts).sum()))
        sizes.append(parts[:, WEIGHT])
    # a perfect fit would cost minus infinity bits: the squared error counts
    # down to the search's tie tolerance only (a constant target: all equal)
    whole = float(squared_errors(pieces.sum(axis=0)))
    floor = max(RELATIVE_TOLERANCE * whole, np.finfo(float).tiny)
    scores = np.empty(len(cut_lists))
    for i, (error, weights) in enumerate(zip(errors, sizes, strict=True)):
        k = len(weights)
        model = _log2_binom(n_gaps, k - 1)
        model += 0.5 * float(np.log2(np.maximum(weights, 1.0)).sum())
        model += 0.5 * math.log2(max(n, 1.0))
        data = (
            0.5
            * n
            * math.log2(2 * math.pi * math.e * max(error, floor) / max(n, 1e-300))
        )
        scores[i] = model + data
    return scores


def choose_arity(multisplit, table, method="mdl"):
    """Number of intervals chosen among the per-arity optima of one DP pass.

    Parameters
    ----------
    multisplit : Multisplit
        From :func:`optimal_multisplit` on ``table``.
    table : array-like of shape (n_values, n_classes)
        The value table the multisplit was computed on.
    method : {"mdl", "balanced"}, default="mdl"
        ``"mdl"``: the arity of least :func:`mdl_code_length` (for the Gini
        criterion, the entropy code length of the Gini optima; for the squared
        error, the Gaussian code length).
        ``"balanced"``: the arity of largest balanced gain ``gain_k / log2 k``
        (``gain_k`` = impurity decrease of the ``k``-interval optimum per
        example), one interval when no cut lowers the impurity.

    Returns
    -------
    k : int
        Number of intervals (index into ``multisplit.cuts`` is ``k - 1``).
    scores : ndarray of float64
        The score of every arity (code length in bits, or balanced gain with
        ``-inf`` at ``k = 1``).

    Examples
    --------
    On the ten rows of the worked example, MDL finds no interval worth its
    description, while the balanced gain takes three:

    >>> import numpy as np
    >>> from partikit.discretizers import choose_arity, optimal_multisplit
    >>> table = np.array([[2, 0], [1, 0], [1, 1], [0, 1], [0, 1], [2, 0], [1, 0]])
    >>> multisplit = optimal_multisplit(table, max_bins=4)
    >>> choose_arity(multisplit, table)[0]
    1
    >>> choose_arity(multisplit, table, method="balanced")[0]
    3
    """
    continuous = multisplit.impurity == "squared_error"
    table = check_moment_table(table) if continuous else check_table(table)
    return _choose_arity(multisplit, table, method)


def _choose_arity(multisplit, table, method):
    """:func:`choose_arity` on a checked table."""
    n_arities = len(multisplit.cuts)
    continuous = multisplit.impurity == "squared_error"
    if method == "mdl":
        if continuous:
            scores = _gaussian_code_lengths(table, multisplit.cuts)
        else:
            scores = _mdl_code_lengths(table, multisplit.cuts)
        return int(np.argmin(scores)) + 1, scores
    if method != "balanced":
        raise ValueError(f"method must be one of {list(ARITY_SELECTIONS)}.")
    total = float(table[:, WEIGHT].sum() if continuous else table.sum())
    gains = (multisplit.values[0] - multisplit.values) / total
    scores = np.full(n_arities, -np.inf)
    ks = np.arange(2, n_arities + 1)
    scores[1:] = gains[1:] / np.log2(ks)
    if n_arities < 2 or not gains[1:].max() > RELATIVE_TOLERANCE * max(
        multisplit.values[0] / total, 1.0
    ):
        return 1, scores
    return int(np.argmax(scores)) + 1, scores


def add_neutral_cuts(cuts, table, n_cuts):
    """Cut the heaviest intervals again until there are ``n_cuts`` cuts.

    When fewer cuts reach the optimal impurity of ``n_cuts`` cuts, any further
    cut keeps it (a cut never raises an impurity), so an optimal partition into
    exactly ``n_cuts + 1`` intervals is the optimum found plus cuts anywhere.
    The heaviest interval of at least two rows is cut at the row gap nearest
    its weighted median, then the next heaviest, and so on: deterministic, and
    the intervals stay balanced.

    Parameters
    ----------
    cuts : ndarray of intp
        Cut positions (value-table rows before each cut), increasing.
    table : ndarray of shape (n_rows, n_classes)
    n_cuts : int
        Cuts wanted; fewer are returned when the table has fewer row gaps.

    Returns
    -------
    cuts : ndarray of intp
    """
    # weight before each row: an interval's weight and its gaps' positions
    # are differences of it, with no sum per interval and per added cut
    before = np.concatenate([[0.0], np.cumsum(table.sum(axis=1))])
    cuts = list(cuts)
    while len(cuts) < n_cuts:
        edges = [0, *cuts, len(before) - 1]
        splittable = [
            (before[b] - before[a], -a, a, b)
            for a, b in zip(edges[:-1], edges[1:], strict=True)
            if b - a >= 2
        ]
        if not splittable:
            break
        _, _, start, stop = max(splittable)
        # the gap before row start + 1 + i, nearest half the interval's weight
        half = (before[start] + before[stop]) / 2
        at = start + 1 + int(np.argmin(np.abs(before[start + 1 : stop] - half)))
        cuts = sorted([*cuts, at])
    return np.asarray(cuts, dtype=np.intp)


class BlockOptDiscretizer(RenamedParametersMixin, BaseDiscretizer):
    """Optimal supervised discretization (Elomaa & Rousu's Block-Opt with pruning).

    For each numeric column, finds the cut points that minimise the class
    entropy (or Gini impurity) of the intervals, or for a continuous target
    their sum of squared errors, exactly, over all combinations of cut points,
    for every number of intervals up to ``max_bins`` in one dynamic-programming
    pass; then keeps the arity chosen by ``n_bins``.

    Read more in the :ref:`User Guide <discretization>`.

    Parameters
    ----------
    criterion : {"auto", "entropy", "gini", "squared_error"}, default="auto"
        Cost of an interval. For a class target, its impurity weighted by its
        size (entropy: average class entropy, i.e. information gain); for a
        continuous target, ``"squared_error"``: the sum of squared deviations
        of its target values from their mean. ``"auto"``: ``"entropy"`` for a
        class target, ``"squared_error"`` for a continuous one; a criterion
        that does not fit the target raises a ``ValueError`` in ``fit``.

        .. versionchanged:: 0.2
           ``"auto"`` (the default; it is ``"entropy"`` for a class target, the
           default before) and ``"squared_error"`` added.
    max_bins : int or None, default=10
        Most intervals of a column: ``n_bins="auto"`` chooses among 1 to
        ``max_bins`` intervals. None: no limit; the search then runs one pass
        per arity up to the number ``m`` of blocks it searches, O(m^3 J) time
        and O(m^2) memory (with ``exact_limit="auto"``, ``m`` is at most 2,048:
        32 MB).
    n_bins : "auto" or int, default="auto"
        ``"auto"``: the number of intervals chosen by ``arity_selection`` among
        1..``max_bins``. An int: exactly that many intervals, as in
        scikit-learn's ``KBinsDiscretizer``: the optimal partition into that
        many (when fewer cuts reach the same impurity, the heaviest intervals
        are cut again near their weighted median, which costs no impurity); a
        column of fewer distinct values gets one interval per value, with a
        warning. ``max_bins`` is then ignored.
    arity_selection : {"mdl", "balanced"}, default="mdl"
        How ``n_bins="auto"`` chooses the number of intervals. ``"mdl"`` (the
        default) minimises a two-part code length: which candidate cuts are used,
        the class counts of each interval, and the classes given those counts
        (for a continuous target: each interval's mean and the values' Gaussian
        code given the means, see :func:`mdl_code_length`); it leaves a column
        independent of the target in one interval and adds an interval only
        when it pays for itself. ``"balanced"`` maximises the
        balanced gain ``gain_k / log2 k`` of Elomaa & Rousu, which never chooses
        one interval when some cut lowers the impurity, so noise gets cut too.
    algorithm : {"block_opt_pruned", "block_opt", "bin_opt"}, \
            default="block_opt_pruned"
        The search; all three give the same optimal impurity. ``"bin_opt"``
        searches over distinct values, ``"block_opt"`` over blocks, and
        ``"block_opt_pruned"`` over blocks with candidate pruning. The choice
        changes the time and ``n_evaluations_`` only.
    exact_limit : "auto", int or None, default="auto"
        Approximate search for columns with very many distinct values: only the
        gaps nearest ``exact_limit`` weighted quantiles remain candidate
        cuts, and each cut found is then moved to its best value within the two
        pre-bins around it. ``"auto"`` (the default) searches **exactly** a
        column of at most 2,048 blocks (runs of values between boundary points;
        distinct values with ``algorithm="bin_opt"``) and approximately, as
        ``exact_limit=1024``, a column with more: a fit then takes well under
        a second at a million distinct values. None always searches exactly:
        the exact search is quadratic in the number of blocks (about 10^8
        candidate evaluations at 10^4 blocks, hours at 10^6); above 50,000
        blocks a ``UserWarning`` says so. ``statistics_[j]["exact"]`` records
        which search each column got.
    max_values : int or None, default=None
        Cap on the rows of a column's value table. None (the default): the
        search runs on every distinct value, exactly. An int (at least 2): a
        column with more distinct values has them pooled into at most
        ``max_values`` rows of adjacent values, with exact class counts (see
        :func:`~partikit.column_tables`), in ``fit``, ``partial_fit`` and
        ``fit_tables`` alike, so the tables stay small however many rows are
        seen. Every cut point is still one an exact fit could choose (halfway
        between two consecutive values of the column); what is lost is the
        cuts inside a pooled row, which weighs at most ``64 / max_values`` of
        the column (1.3 to 3.9 ``/ max_values`` measured on common
        distributions, and after ``partial_fit`` on chunks of one
        distribution): see :ref:`pooled_values`. ``statistics_[j]`` records
        it. ``partial_fit`` then equals ``fit`` on the concatenation while the
        tables are exact, and is within that bound after.
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The kind of target, as scikit-learn's ``TargetEncoder`` takes it.
        ``"auto"``: floats that are not all integers are a continuous target,
        anything else class labels; say ``"continuous"`` for a target of
        integer amounts (prices, counts). A continuous target is read through
        the weight, sum and sum of squares of its values at each distinct
        value of a column
        (``target_type_`` says which kind the fit read; ``classes_`` is set
        for class labels only).
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output: bin ids as float64; one-hot of the bins (sparse CSR or dense);
        or the weight of evidence of each bin, the missing bin included (binary
        targets only; computed from the bins' class counts with the regularised
        formula of ``category_encoders.WOEEncoder``, as the groupers do).
        ``"target"``: the bin's mean target, shrunk toward the overall mean
        as ``TargetEncoder(smooth="auto")`` shrinks a category's (continuous
        and binary targets; for a binary one, the mean of the second class).

        .. versionchanged:: 0.2
           ``"woe"`` and ``"target"`` added.
    woe_sign : {"event", "non_event"}, default="event"
        Sign of the weight of evidence, in ``encode="woe"``, in the ``woe``
        column of :meth:`partition_table` and in the plots: ``"event"``,
        ``ln(share of events / share of non-events)``, is positive where the
        second class of ``classes_`` is over-represented (the sign of
        ``category_encoders``); ``"non_event"`` is its opposite, the sign of
        optbinning and of credit scorecards [4]_.

        .. versionadded:: 0.2
    n_jobs : int or None, default=None
        Number of columns fitted in parallel (threads). None means 1, -1 all
        processors.

    monotonic_trend : {"ascending", "descending", "peak", "valley", "auto"} or None, \
            default=None
        Shape of the bins' event rate (binary target, or mean of a
        continuous target), in value order, the missing bin excluded; equal
        rates are allowed (as in optbinning). ``"peak"``: rising then
        falling; ``"valley"``: falling then rising. ``"auto"``: each of
        ascending, descending, peak and valley is solved and the best by
        ``arity_selection``'s score wins, a peak or valley counting its
        turning point as one more bin; with an int ``n_bins``, ascending and
        descending only, the least impurity winning. The trend kept is
        ``statistics_[j]["monotonic_trend"]``. A multiclass target raises a
        ValueError. Solved exactly: a dynamic programme over the column's
        distinct values whose state is the last bin finds, for every number
        of bins, the least-cost partition meeting every constraint (O(V^2
        log V + K V^2) time, O(K V^2) memory for V values and K = max_bins;
        twice for a peak or valley); past ``exact_limit`` (``"auto"``:
        1,024) values it runs on that many equal-weight granules of values
        (``statistics_[j]["exact"]`` False), the constraints still met
        exactly (with ``exact_limit=None`` too, past the values whose
        back-pointers fit in 256 MB). Boundary points do not prune this
        search: a constraint may force a cut between values of one class
        distribution. The arity is then chosen as without constraints among
        the constrained optima.

        .. versionadded:: 0.2
    min_bin_size : int, float, "auto" or None, default=None
        Least weight of a bin: an int is a weight (a count of rows without
        ``sample_weight``), a float in (0, 1) a fraction of the column's
        weight (missing values excluded); 0, None and ``"auto"`` (the
        method's own minimum: this method has none, KhiopsDiscretizer's is
        its frequency phase) set no minimum. When no partition meets the
        constraints, the column is one bin, with a warning
        (``statistics_[j]["feasible"]`` False; a tree's node is then not cut,
        silently).

        .. versionadded:: 0.2
    max_bin_size : int, float or None, default=None
        Largest weight of a bin, an int a weight, a float in (0, 1] a
        fraction of the column's weight (missing values excluded).

        .. versionadded:: 0.2
    min_bin_n_event : float or None, default=None
        Least weight of the event class (``classes_[1]``, the class
        ``woe_sign="event"`` calls the event) in each bin; binary targets only.

        .. versionadded:: 0.2
    min_bin_n_nonevent : float or None, default=None
        Least weight of the other class in each bin; binary targets only.

        .. versionadded:: 0.2
    special_codes : array-like of numbers, dict of str to array-like, or None, \
            default=None
        Values that mean something else than a measurement (``-1``,
        ``99999``: "not applicable"), as optbinning's ``special_codes``. Their
        rows are kept out of the cut search (and of ``max_values`` pooling)
        and form parts of their own: a list gives one part named
        ``"special"`` holding all its values, a dict ``{name: values}`` one
        part per name. The special parts follow the intervals and the missing
        bin (their codes are ``special_bins_``), have their own rows in
        ``table_`` and :meth:`partition_table` (flagged ``special``) and their
        own one-hot columns (``"{feature}_special"`` or ``"{feature}_{name}"``,
        also when fit saw none of their values: such a part is empty, its WoE
        0 and its target encoding the overall mean). A value listed twice,
        NaN (missing values are ``missing``'s business) or a value that is not
        a finite number raises a ``ValueError``. Because a special value must
        never share a pooled row, the tables of ``fit``, ``partial_fit`` and
        dask are then counted exact and pooled to ``max_values`` once the
        special rows are out: ``max_values`` bounds the cut search, not the
        memory of the counted tables.

        .. versionadded:: 0.2
    missing : {"separate", "attach"}, default="separate"
        Where missing values go. ``"separate"``: a bin of their own,
        ``missing_bin_ == n_bins_``. ``"attach"``: after the cut, into the
        interval whose class distribution is most similar (the smallest
        DeltaChi2 of the merge, Khiops' measure [5]_; for a continuous target
        the interval whose merge raises the squared error least; ties: the
        first interval); ``missing_bin_`` is then that interval's code, its
        row of ``table_`` counts the missing values too and its label reads
        ``"(a, b] + missing"``. With ``monotonic_trend``, the most similar
        interval whose merge keeps the trend; if none does, the missing
        values keep their bin and a ``UserWarning`` says so. When fit saw no
        missing value, they go to the interval of largest weight (a neutral
        choice). ``statistics_[j]`` records ``missing_bin``, ``missing_rule``
        (``"most_similar"``, ``"largest"`` or ``"separate_by_trend"``) and
        ``missing_weight``.

        .. versionadded:: 0.2
    max_candidates : "auto", int or None
        The 0.1 name of ``exact_limit``.

        .. deprecated:: 0.2
           Renamed ``exact_limit``; ``max_candidates`` will be removed in 0.4.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels seen in fit with positive weight.
    bin_edges_ : ndarray of ndarray of shape (n_features,)
        Per feature, ``[min, t_1, ..., t_{k-1}, max]``: the training range and the
        cut points, each halfway between the training values it separates. A
        value ``x`` goes to bin ``m`` when ``t_m < x <= t_{m+1}``.
    n_bins_ : ndarray of shape (n_features,)
        Number of bins per feature (the missing bin excluded).
    missing_bin_ : ndarray of shape (n_features,)
        Ordinal code of missing values per feature (``n_bins_``; with
        ``missing="attach"``, the code of the interval they join).
    table_ : list of ndarray of shape (n_parts, n_classes)
        Per feature, the (weighted) class counts of each part, by code: the
        bins, the missing bin (unless attached to a bin), the special parts.
    woe_ : list of ndarray of shape (n_parts,)
        Per feature, the weight of evidence of each part, in the order of
        ``table_`` (``encode="woe"`` only; 0 for a part without rows).
    n_evaluations_ : ndarray of shape (n_features,)
        Candidate partitions evaluated by the search of each feature (line 9 of
        Elomaa & Rousu's Table 2).
    special_bins_ : ndarray of shape (n_features, n_special_parts)
        Per feature, the ordinal codes of its special parts
        (``special_codes``), in the order of their names; they follow the
        intervals and the missing bin (when it is apart).

        .. versionadded:: 0.2
    statistics_ : list of dict
        Per feature: ``n_units`` (units searched), ``exact`` (False when the
        search ran on pre-bins, see ``exact_limit``), ``values`` (optimal
        impurity per arity, of the partitions found), ``scores`` (arity selection
        scores, with ``n_bins="auto"``), ``n_evaluations``. For a continuous
        target (``values``: the least sum of squared errors per arity) also the
        one-way analysis of variance of the bins (empty bins left out):
        ``f_statistic``, its degrees of freedom ``f_dfn`` and ``f_dfd``,
        ``log10_pvalue`` and ``r2``, the share of the target's squared error
        the bins explain. With ``max_values``, a pooled column also has
        ``pooled_rows`` (rows of its table that pool several values) and
        ``max_pooled_share`` (the largest weight of such a row over the
        column's).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit. Defined only when ``X`` has feature
        names that are all strings.

    See Also
    --------
    MDLPDiscretizer : Fayyad & Irani's greedy recursive entropy discretization.
    KhiopsDiscretizer : Boulle's robust chi-square discretization.
    sklearn.preprocessing.KBinsDiscretizer : Unsupervised binning.

    Notes
    -----
    *Algorithm.* The column's value table (class counts per distinct value) is cut
    into blocks at boundary points; the dynamic programme of Elomaa & Rousu
    computes the optimal partition of every prefix of blocks into at most k
    intervals, and drops for good every candidate prefix that the best
    ``(k-1)``-split of a longer prefix beats (Theorem 2: the impurity is concave,
    so such a candidate can never become optimal).

    *Missing values* are left out of the search and encoded as ``missing_bin_``.
    *Bad input*: infinity raises a ``ValueError`` naming the column; a column with
    one distinct value gives one bin and a ``UserWarning``.

    References
    ----------
    .. [1] Elomaa, T. and Rousu, J. (1999). Speeding up the search for optimal
       partitions. PKDD'99, LNAI 1704, 89-97. doi:10.1007/978-3-540-48247-5_10
    .. [2] Elomaa, T. and Rousu, J. (1999). General and efficient multisplitting of
       numerical attributes. Machine Learning 36(3), 201-244.
       doi:10.1023/A:1007674919412
    .. [3] Fayyad, U. M. and Irani, K. B. (1993). Multi-interval discretization of
       continuous-valued attributes for classification learning. IJCAI-93,
       1022-1027.
    .. [4] Siddiqi, N. (2006). Credit Risk Scorecards: Developing and
       Implementing Intelligent Credit Scoring. Wiley. (Weight of evidence and
       its sign in scorecards.)
    .. [5] Boulle, M. (2004). Khiops: A Statistical Discretization Method of
       Continuous Attributes. Machine Learning 55:53-69. (DeltaChi2, the
       measure of ``missing="attach"``.)

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers import BlockOptDiscretizer
    >>> rng = np.random.RandomState(0)
    >>> x = rng.uniform(0, 10, size=3000)
    >>> y = (x > 3) & (x < 7)
    >>> disc = BlockOptDiscretizer().fit(x.reshape(-1, 1), y)
    >>> np.round(disc.bin_edges_[0], 2)
    array([ 0.,  3.,  7., 10.])
    >>> disc.transform([[1.0], [5.0], [np.nan]])
    array([[0.],
           [1.],
           [3.]])
    """

    _target_types = ("binary", "multiclass", "continuous")

    _parameter_constraints: dict = {
        **BaseDiscretizer._parameter_constraints,
        "target_type": BaseDiscretizer._target_type_constraint,
        "criterion": [StrOptions(set(CRITERIA))],
        "max_bins": [Interval(Integral, 1, None, closed="left"), None],
        "n_bins": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "arity_selection": [StrOptions(set(ARITY_SELECTIONS))],
        "algorithm": [StrOptions(set(ALGORITHMS))],
        "exact_limit": [
            StrOptions({"auto"}),
            Interval(Integral, 2, None, closed="left"),
            None,
        ],
        "max_candidates": deprecated_constraints(
            [StrOptions({"auto"}), Interval(Integral, 2, None, closed="left"), None]
        ),
    }
    _renamed_parameters = (Renamed("max_candidates", "exact_limit"),)

    def __init__(
        self,
        *,
        criterion="auto",
        max_bins=10,
        n_bins="auto",
        arity_selection="mdl",
        algorithm="block_opt_pruned",
        exact_limit="auto",
        max_values=None,
        target_type="auto",
        encode="ordinal",
        woe_sign="event",
        n_jobs=None,
        monotonic_trend=None,
        min_bin_size=None,
        max_bin_size=None,
        min_bin_n_event=None,
        min_bin_n_nonevent=None,
        special_codes=None,
        missing="separate",
        max_candidates=DEPRECATED,
    ):
        super().__init__(
            encode=encode,
            woe_sign=woe_sign,
            n_jobs=n_jobs,
            max_values=max_values,
            monotonic_trend=monotonic_trend,
            min_bin_size=min_bin_size,
            max_bin_size=max_bin_size,
            min_bin_n_event=min_bin_n_event,
            min_bin_n_nonevent=min_bin_n_nonevent,
            special_codes=special_codes,
            missing=missing,
        ).__init__(
            encode=encode, woe_sign=woe_sign, n_jobs=n_jobs, max_values=max_values
        )
        self.target_type = target_type
        self.criterion = criterion
        self.max_bins = max_bins
        self.n_bins = n_bins
        self.arity_selection = arity_selection
        self.algorithm = algorithm
        self.exact_limit = exact_limit
        self.max_candidates = max_candidates

    def _end_fit(self):
        self.n_evaluations_ = np.array(
            [s.get("n_evaluations", 0) for s in self.statistics_], dtype=np.int64
        )

    def _continuous_target(self):
        """Whether the tables being cut are moment tables (a continuous target):
        the target of this fit, or the ``target_type`` given to
        :meth:`cut_table`."""
        return getattr(self, "target_type_", None) == CONTINUOUS

    def _cut_table(self, table, context):
        continuous = self._continuous_target()
        criterion = _resolve_criterion(
            self.criterion, CONTINUOUS if continuous else None
        )
        max_parts = self.max_bins if self.n_bins == "auto" else self.n_bins
        if max_parts is None:
            max_parts = max(table.shape[0], 1)
        constraints = resolve_constraints(self, table, continuous)
        if constraints is not None:
            result = quiet_in_a_tree(
                self._constrained_cut(
                    table, constraints, criterion, max_parts, continuous
                ),
                context,
            )
            if continuous:
                self._add_f_test(table, result)
            return result
        search = _squared_error_multisplit if continuous else _optimal_multisplit
        arguments = () if continuous else (criterion,)
        split = search(
            table,
            *arguments,
            max_parts,
            self.algorithm,
            self._parameter("exact_limit"),
        )
        if self.n_bins == "auto":
            k, scores = _choose_arity(split, table, self.arity_selection)
        else:
            k = len(split.cuts)
        result = split.intervals(k)
        if split.exact and split.n_units > MANY_UNITS:
            result.statistics["warning"] = (
                f"the exact search ran over {split.n_units} blocks, which is "
                "quadratic in them; set exact_limit for an approximate, much "
                "faster search."
            )
        if self.n_bins == "auto":
            result.statistics["scores"] = scores
        elif len(result.cuts) < self.n_bins - 1:
            # the weight of a moment table's rows is its first column only
            weights = table[:, : WEIGHT + 1] if continuous else table
            cuts = add_neutral_cuts(result.cuts, weights, self.n_bins - 1)
            if len(cuts) < self.n_bins - 1:
                result.statistics["warning"] = (
                    f"n_bins={self.n_bins} asks for more intervals than the "
                    f"column has distinct values ({table.shape[0]}); it gets "
                    f"{len(cuts) + 1}."
                )
            # the added cuts keep the optimal impurity, so the criterion stays
            result = Intervals.from_cuts(
                cuts, table.shape[0], result.criterion, result.statistics
            )
        if continuous:
            self._add_f_test(table, result)
        return result

    @staticmethod
    def _add_f_test(table, result):
        bins = segment_sums(table, np.concatenate([[0], result.cuts]).astype(np.intp))
        statistic, dfn, dfd, log10_pvalue, r2 = f_test(bins)
        result.statistics.update(
            f_statistic=float(statistic),
            f_dfn=dfn,
            f_dfd=dfd,
            log10_pvalue=float(log10_pvalue),
            r2=float(r2),
        )

    def _constrained_cut(self, table, constraints, criterion, max_parts, continuous):
        """The exact constrained optimum (:func:`constrained_multisplit` with
        this criterion's interval cost), its arity chosen as without
        constraints among the constrained optima of each arity."""
        exact_limit = self._parameter("exact_limit")
        if exact_limit == "auto":
            exact_limit = CONSTRAINED_EXACT_LIMIT
        automatic = self.n_bins == "auto"
        trends = (None,)
        if constraints.monotonic_trend is not None:
            trends = trends_to_solve(constraints.monotonic_trend, all_shapes=automatic)
        target_type = CONTINUOUS if continuous else None
        costs = impurity_costs(MULTISPLIT_CODES[criterion])
        n_rows = table.shape[0]
        n_gaps = max(n_rows - 1, 0)
        whole = costs(table.sum(axis=0, keepdims=True))[0, 1]
        total = float(table[:, WEIGHT].sum() if continuous else table.sum())
        best = None
        for trend in trends:
            split = constrained_multisplit(
                table, costs, max_bins=max_parts, monotonic_trend=trend,
                min_bin_weight=constraints.min_bin_weight,
                max_bin_weight=constraints.max_bin_weight,
                min_bin_n_event=constraints.min_bin_n_event,
                min_bin_n_nonevent=constraints.min_bin_n_nonevent,
                target_type=target_type, exact_limit=exact_limit,
            )  # fmt: skip
            feasible = [
                k
                for k in range(1, len(split.cuts) + 1)
                if split.cuts[k - 1] is not None
            ]
            if not feasible:
                continue
            # a peak or a valley of "auto" pays for its turning point as one
            # more interval (its code says where the trend turns)
            turn = int(
                constraints.monotonic_trend == "auto" and trend in ("peak", "valley")
            )
            scores = np.full(len(split.cuts), np.inf)
            if not automatic:
                k = max(feasible)
                scores[k - 1] = split.values[k - 1]
            elif self.arity_selection == "mdl":
                lists = [split.cuts[k - 1] for k in feasible]
                lengths = (
                    _gaussian_code_lengths(table, lists)
                    if continuous
                    else _mdl_code_lengths(table, lists)
                )
                for k, length in zip(feasible, lengths, strict=True):
                    extra = _log2_binom(n_gaps, k + turn - 1) - _log2_binom(
                        n_gaps, k - 1
                    )
                    scores[k - 1] = length + extra
            else:  # balanced gain, the turning point as one more interval
                for k in feasible:
                    gain = (whole - split.values[k - 1]) / total if total > 0 else 0.0
                    arity = k + turn
                    scores[k - 1] = -(gain / math.log2(arity)) if arity > 1 else 0.0
            k = int(np.argmin(scores)) + 1
            # with a fixed n_bins, the trend reaching the most intervals (up
            # to n_bins) wins, then the least impurity; else the least score
            # (ties: the first trend of ascending, descending, peak, valley)
            key = (-k if not automatic else 0, scores[k - 1])
            if best is None or key < best[0]:
                best = (key, k, split, trend, scores)
        if best is None:
            result = Intervals.from_cuts([], n_rows, 0.0, {"exact": True})
            result.statistics["monotonic_trend"] = constraints.monotonic_trend
            result.statistics["feasible"] = False
            result.statistics["warning"] = infeasible_message(constraints)
            return result
        _, k, split, trend, scores = best
        value = split.values[k - 1]
        statistics = {
            "n_units": split.n_units,
            "exact": split.exact,
            "values": split.values,
            "monotonic_trend": trend,
            "feasible": True,
        }
        if automatic:
            statistics["scores"] = scores
        elif k < self.n_bins:
            statistics["warning"] = (
                f"n_bins={self.n_bins}: no partition into {self.n_bins} intervals "
                f"meets the bin constraints; the column gets {k}."
            )
        decrease = (whole - value) / total if total > 0 else 0.0
        return Intervals.from_cuts(split.cuts[k - 1], n_rows, decrease, statistics)
