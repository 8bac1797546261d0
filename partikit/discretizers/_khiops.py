# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Khiops robust chi-square discretization (Boulle 2004): core and estimator."""

from __future__ import annotations

import math
import os
from numbers import Integral

import numpy as np

from partikit._compat import Interval, RealNotInt, StrOptions
from partikit._estimator._renames import (
    DEPRECATED,
    P_TO_ALPHA,
    Renamed,
    RenamedParametersMixin,
    deprecated_constraints,
    renamed_keywords,
)
from partikit._kernels._khiops import adjacent_merges, granules
from partikit._kernels._multisplit import segment_sums
from partikit._statistics._constraints import (
    chi2_merge_cost,
    constrained_repair,
    quiet_in_a_tree,
    resolve_constraints,
)
from partikit._statistics._contingency import check_table
from partikit._statistics._measures import LN10, chi2_test
from partikit._statistics._results import Intervals
from partikit._statistics._robust_chi2 import (
    KhiopsTrace,
    chi2_classes,
    frequency_collapse_message,
    khiops_stopping_rule,
    max_delta_chi2_quantile,
    resolve_min_frequency,
)
from partikit.discretizers._base import BaseDiscretizer

#: MaxDeltaChi2 of adjacent merges, simulated by tools/calibrate_khiops.py.
DISCRETIZATION_TABLE = os.path.join(
    os.path.dirname(__file__), "_data", "khiops_discretization_max_delta_chi2.csv"
)

#: ``exact_limit="auto"``: the merges are exact up to this many distinct
#: values (about 0.1 s with 10 classes; every test and worked example is below) ...
AUTO_EXACT_VALUES = 250_000
#: ... and above it start from this many equal-frequency granules (some 30 ms),
#: or more when half the minimum frequency is lighter.
AUTO_CANDIDATES = 100_000


def discretization_max_delta_chi2(n_values, n_classes, p):
    """MaxDeltaChi2 of the Khiops discretization at probability ``p``.

    The largest DeltaChi2 that the adjacent merges of a column independent of the
    class meet, with probability ``p``, when its ``n_values`` distinct values are
    merged down to one interval.

    Parameters
    ----------
    n_values : int
        Number of distinct values (elementary intervals) of the column.
    n_classes : int
        Number of classes present.
    p : float
        Probability of the guarantee, in (0, 1).

    Returns
    -------
    threshold : float
        ``+inf`` when there is nothing to merge.

    Notes
    -----
    With two values it is the chi-square quantile with ``J - 1`` degrees of
    freedom (Boulle's proposition). Otherwise it is the quantile of the normal law
    fitted to the upper quantiles simulated by ``tools/calibrate_khiops.py
    --discretization``, interpolated bilinearly in ``(log I, J)``: the maxima of
    adjacent merges grow like ``log I``, and the table (I up to 20,000) is
    extended linearly in ``log I``, not in ``I``; never below the two-value
    quantile (:func:`partikit._statistics._robust_chi2.max_delta_chi2_quantile`).
    """
    return max_delta_chi2_quantile(
        n_values, n_classes, p, DISCRETIZATION_TABLE, log_groups=True
    )


@renamed_keywords(
    P_TO_ALPHA,
    Renamed("min_frequency", "min_bin_size"),
    Renamed("max_candidates", "exact_limit"),
)
def khiops_discretization(
    table,
    *,
    alpha=0.05,
    min_bin_size="auto",
    max_bins=None,
    robust=True,
    max_delta_chi2=None,
    keep_trace=False,
    exact_limit=None,
):
    """Cut a value table into intervals with the robust Khiops method.

    Starting from one interval per distinct value, adjacent intervals are merged
    bottom-up, the merge lowering the chi-square the least (smallest DeltaChi2)
    first. While an interval is lighter than the minimum frequency, only merges
    involving such an interval are made. Then a merge is made while its
    DeltaChi2 is at most MaxDeltaChi2 (the largest DeltaChi2 a column
    independent of the class meets with probability ``1 - alpha``) or it lowers the
    confidence level of the chi-square test of the whole table; the first merge
    doing neither stops.

    Parameters
    ----------
    table : array-like of shape (n_values, n_classes)
        Class counts of each distinct value, in value order (no empty row).
    alpha : float, default=0.05
        Probability that a column independent of the class is cut into more
        than one interval (the paper's ``p`` is ``1 - alpha``).
    min_bin_size : "auto", int, float or None, default="auto"
        Minimum interval weight of the frequency phase, as the parameter of
        :class:`KhiopsDiscretizer` (``"auto"``: Cochran's validity rule for the
        chi-square approximation).
    max_bins : int or None, default=None
        After the stopping rule, merging goes on until at most this many
        intervals remain.
    robust : bool, default=True
        False: no forced merges (the initial Khiops algorithm).
    max_delta_chi2 : float or None, default=None
        Use this threshold instead of the calibrated one.
    keep_trace : bool, default=False
        Record the merges in ``statistics["trace"]`` (:class:`KhiopsTrace`).
    exact_limit : "auto", int or None, default=None
        Exact up to this many distinct values; a table with more is first cut
        into at most this many equal-frequency granules, cut on boundary points
        only (Khiops' granularisation), and the merges start from the granules:
        cut points can then only fall between granules. None: always exact.
        ``"auto"``: exact up to 250,000 distinct values, and above as
        ``exact_limit=100_000``, or as many granules as weigh half the
        minimum frequency each when they are more (a granule heavier than the
        minimum frequency is not merged in the frequency phase, and one that
        straddles a class change can stay an interval of its own).

    Returns
    -------
    result : Intervals
        ``cuts``: value-table positions (rows before each cut); ``n_bins``;
        ``criterion``: -log10 of the confidence level of the intervals, that is
        of the chi-square p-value of the intervals against the class (0 for
        one interval); ``statistics``: ``chi2``, ``dof``, ``log10_pvalue`` of
        the intervals against the class; ``n_initial_intervals`` (after the
        frequency phase), ``min_bin_size``, ``max_delta_chi2``; ``n_units``,
        the elementary intervals the merges started from (distinct values, or
        granules), and ``exact``, False when they were granules;
        ``thresholds``: None.

    Notes
    -----
    MaxDeltaChi2 (:func:`discretization_max_delta_chi2`) depends on the number
    of distinct values and of classes: the quantile at ``p`` of the largest
    DeltaChi2 met while an independent column's adjacent intervals are merged
    down to one, simulated by ``tools/calibrate_khiops.py --discretization`` (a
    table of its own: adjacent merges meet smaller maxima than the grouping's
    merges of any two groups). It is taken at the number of distinct values, not
    of intervals left by the frequency phase: that phase merges the most similar
    neighbours first, so the intervals it leaves differ more than chance
    intervals of their size, and a threshold taken at their number would keep
    noise cuts far more often than ``1 - p``. Each merge costs O(J + log m)
    (a linked list and a tournament tree over blocks of adjacent pairs), but
    at a million values the merges wander over the whole table and are bound
    by memory latency (about 0.5 s with 10 classes): hence ``exact_limit``.
    Granules keep the threshold of the distinct values, the higher one: an
    independent column still ends in one interval with probability ``p`` at
    least.

    References
    ----------
    .. [1] Boulle, M. (2004). Khiops: A statistical discretization method of
       continuous attributes. Machine Learning 55, 53-69.
       doi:10.1023/B:MACH.0000019804.29836.05
    .. [2] Boulle, M. (2003). Khiops: a discretization method of continuous
       attributes with guaranteed resistance to noise. MLDM 2003, LNAI 2734,
       50-64.

    Examples
    --------
    Worked example (b) of ALGORITHMS section 1.10:

    >>> import numpy as np
    >>> from partikit.discretizers import khiops_discretization
    >>> y = (np.arange(30) >= 15).astype(int)
    >>> y[[6, 23, 24]] = [1, 0, 0]
    >>> table = np.eye(2)[y]
    >>> result = khiops_discretization(table, min_bin_size=6,
    ...                                max_delta_chi2=9.7769)
    >>> result.cuts
    array([15])
    """
    table = check_table(table)
    return _khiops_cut(
        table, alpha, min_bin_size, max_bins, robust, max_delta_chi2, keep_trace,
        exact_limit,
    )  # fmt: skip


def _khiops_cut(
    table, alpha, min_bin_size, max_bins, robust, max_delta_chi2, keep_trace,
    exact_limit=None,
):  # fmt: skip
    """:func:`khiops_discretization` of a checked table (``check_table``)."""
    totals = table.sum(axis=0)
    tested = chi2_classes(totals)
    if table.shape[1] and tested.all() and _no_empty_row(table):
        # every row and class takes part: nothing to index, nothing to count
        return _khiops_discretization(
            table, None, np.arange(table.shape[1]), totals, alpha, min_bin_size,
            max_bins, robust, max_delta_chi2, keep_trace, exact_limit,
        )  # fmt: skip
    # classes too light for the chi-square take no part in it; the values that
    # only they hold join the interval on their left (cuts fall between values
    # of the tested classes). Without them the shares of the others change, so
    # the choice is made again while it empties values: the rows and classes
    # kept are found on the class totals (the emptied rows held none of the
    # kept classes' weight) and the table is copied once, not at each round.
    tested = np.ones(table.shape[1], dtype=bool)
    # classes present in each row among those still tested
    n_present = np.zeros(table.shape[0], dtype=np.intp)
    for start in range(0, table.shape[0], 4096):
        n_present[start : start + 4096] = np.count_nonzero(
            table[start : start + 4096] > 0, axis=1
        )
    rows = np.arange(table.shape[0])
    while True:
        columns = np.flatnonzero(tested)
        kept = np.zeros_like(tested)
        kept[columns[chi2_classes(totals[columns])]] = True
        dropped = np.flatnonzero(tested & ~kept)
        tested = kept
        if len(dropped):
            n_present -= np.count_nonzero(table[:, dropped] > 0, axis=1)
        weighted = n_present[rows] > 0
        if weighted.all():
            break
        rows = rows[weighted]
    result = _khiops_discretization(
        table, rows, np.flatnonzero(tested), totals, alpha, min_bin_size, max_bins,
        robust, max_delta_chi2, keep_trace, exact_limit,
    )  # fmt: skip
    if len(rows) < table.shape[0]:
        trace = result.statistics.get("trace")
        if trace is not None:
            trace.kept, trace.absorbed = rows[trace.kept], rows[trace.absorbed]
        return _intervals(rows[result.cuts], table.shape[0], result.statistics)
    return result


def _intervals(cuts, n_rows, statistics):
    """The :class:`Intervals` of a Khiops discretization; its criterion is
    -log10 of the confidence level of the intervals."""
    criterion = 0.0 - float(statistics["log10_pvalue"])  # 0, not -0, for one part
    return Intervals.from_cuts(cuts, n_rows, criterion, statistics)


def _no_empty_row(table):
    """Whether every row of a non-negative table holds some weight.

    By matrix-vector products on chunks of rows: ten times faster than a
    reduction along the short rows, and no table-sized temporary (chunks small
    enough for the BLAS to stay on one thread).
    """
    ones = np.ones(table.shape[1])
    for start in range(0, table.shape[0], 16384):
        if not (table[start : start + 16384] @ ones).min() > 0:
            return False
    return True


def _khiops_discretization(
    table, rows, columns, totals, alpha, min_bin_size, max_bins, robust,
    max_delta_chi2, keep_trace, exact_limit,
):  # fmt: skip
    """:func:`khiops_discretization` of the ``rows`` and ``columns`` of a checked
    table (no empty row among them), without copying them out: the rows left out
    hold no weight in ``columns``, so the interval sums over the whole table's
    rows are the same floats. Cut positions and the trace index ``rows`` (None:
    every row)."""
    n_values = table.shape[0] if rows is None else len(rows)
    n_classes = len(columns)
    statistics = {
        "n_initial_intervals": int(n_values),
        "min_bin_size": 0.0,
        "max_delta_chi2": math.inf,
        "n_units": int(n_values),
        "exact": True,
    }
    no_cut = np.zeros(0, dtype=np.intp)
    if n_values < 2 or n_classes < 2:
        statistics.update(chi2=0.0, dof=0, log10_pvalue=0.0)
        return _intervals(no_cut, table.shape[0], statistics)
    min_count = resolve_min_frequency(min_bin_size, totals[columns])
    statistics["min_bin_size"] = min_count
    total = float(totals[columns].sum())
    if isinstance(exact_limit, str):  # "auto"
        exact_limit = None
        if n_values > AUTO_EXACT_VALUES:
            # granules lighter than the minimum frequency, all merged in the
            # frequency phase: a heavier one straddling a cut can stay an
            # interval of its own
            exact_limit = AUTO_CANDIDATES
            if min_count > 0:
                exact_limit = max(exact_limit, math.ceil(2 * total / min_count))
    if exact_limit is not None and n_values > exact_limit:
        # Khiops' granularisation: the merges start from equal-frequency
        # granules cut on boundary points, not from the distinct values
        units, counts = granules(table, rows, columns, total, exact_limit)
        statistics["n_units"] = len(units)
        statistics["exact"] = False
        starts, left, right, delta = adjacent_merges(
            counts, None, np.arange(n_classes), float(min_count)
        )
        initial = segment_sums(counts, starts) if len(starts) >= 2 else None
        # from here on, positions are those of the values (in ``rows``)
        starts, left, right = units[starts], units[left], units[right]
    else:
        units = None
        starts, left, right, delta = adjacent_merges(
            table, rows, columns, float(min_count)
        )
        initial = None
        if len(starts) >= 2:
            initial = segment_sums(table, starts if rows is None else rows[starts])
            initial = initial[:, columns]
    n_initial = len(starts)
    statistics["n_initial_intervals"] = int(n_initial)
    if max_delta_chi2 is not None:
        threshold = float(max_delta_chi2)
    elif robust:
        # From the distinct values, as in Boulle's method: the merges of the
        # frequency phase are part of the full merge whose maximum is modelled.
        # With granules too: the threshold of the values is the higher, so an
        # independent column still ends in one interval with probability
        # 1 - alpha.
        threshold = discretization_max_delta_chi2(n_values, n_classes, 1.0 - alpha)
    else:
        threshold = -math.inf
    statistics["max_delta_chi2"] = threshold
    if initial is not None:
        n_merges, log_p, forced = khiops_stopping_rule(initial, delta, threshold)
    else:
        n_merges, log_p, forced = 0, np.zeros(1), np.zeros(0, dtype=bool)
    if max_bins is not None and n_initial - n_merges > max_bins:
        n_merges = n_initial - max_bins
    removed = np.zeros(n_values, dtype=bool)
    removed[right[:n_merges]] = True
    cuts = starts[~removed[starts]][1:]
    bounds = np.concatenate([[0], cuts]).astype(np.intp)
    if units is not None:
        # the cuts fall between granules: their sums are the intervals'
        grouped = segment_sums(counts, np.searchsorted(units, bounds))
    else:
        grouped = segment_sums(table, bounds if rows is None else rows[bounds])
        if len(columns) < table.shape[1]:
            grouped = grouped[:, columns]
    chi2_value, dof_value, log10_p = chi2_test(grouped)
    statistics.update(chi2=chi2_value, dof=dof_value, log10_pvalue=log10_p)
    if keep_trace:
        statistics["trace"] = KhiopsTrace(
            kept=left,
            absorbed=right,
            delta_chi2=delta,
            log10_pvalue=log_p[1:] / LN10,
            forced=forced,
            accepted=np.arange(len(delta)) < n_merges,
        )
    return _intervals(cuts, table.shape[0], statistics)


class KhiopsDiscretizer(RenamedParametersMixin, BaseDiscretizer):
    """Robust chi-square discretization (Khiops, Boulle 2004).

    For each numeric column, merges adjacent intervals bottom-up, starting from
    one interval per distinct value, so as to minimise the confidence level of
    the chi-square test between the intervals and the class. Merges are forced
    while they are within what chance produces (MaxDeltaChi2), so that a column
    independent of the class ends in **one interval** with probability
    ``1 - alpha``.
    The sibling of :class:`~partikit.groupers.KhiopsGrouper`, with which it
    shares the stopping rule and the calibration method.

    Read more in the :ref:`User Guide <discretization>`.

    Parameters
    ----------
    alpha : float, default=0.05
        Probability that a column independent of the class is cut into more
        than one interval: the method's false-positive rate, ``1 - p`` in the
        paper's notation. Lower values force more merges (fewer, more robust
        intervals).
    min_bin_size : "auto", int or float, default="auto"
        Least weight of an interval: while an interval weighs less than this,
        only merges involving such an interval are made. ``"auto"`` applies
        Cochran's validity rule for the chi-square approximation (expected class counts
        at least 1, and at least 5 for 80% of the classes) over the classes the
        chi-square is computed on (classes holding together at most 1% of the weight are
        left out of both, at least two classes stay); an int is a count (0 or None:
        no frequency phase), a float in (0, 1) a fraction of the total weight. A
        column that the frequency phase alone leaves in one interval although its
        best cut is significant warns.
    max_bins : int or None, default=None
        After the robust stopping rule, merging goes on until at most this many
        intervals remain.
    robust : bool, default=True
        False runs the initial Khiops algorithm: no forced merges.
    keep_trace : bool, default=False
        Keep each column's merge sequence in ``statistics_[j]["trace"]``.
    exact_limit : "auto", int or None, default="auto"
        The merges are exact (they start from one interval per distinct value)
        for a column of at most ``exact_limit`` distinct values. A column
        with more is first cut into at most ``exact_limit`` granules of equal
        frequency, cut on boundary points only (Khiops' granularisation), and
        the merges start from the granules: a cut point can then only fall
        between granules; keep them lighter than ``min_bin_size`` (a heavier
        granule straddling a class change can stay an interval of its own).
        ``"auto"`` (the default) is exact up to 250,000 distinct values and
        above takes 100,000 granules, or as many as weigh half the minimum
        frequency each when they are more (at a million distinct values a
        granule holds about ten, and the fit takes about a third of the exact
        time). None: always exact, about 0.5 s per million distinct values with
        10 classes. ``statistics_[j]["exact"]`` and ``["n_units"]`` record which
        one each column got.
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
        Shape of the bins' event rate (binary target), in value order, the
        missing bin excluded; equal rates are allowed (as in optbinning).
        ``"peak"``: rising then falling; ``"valley"``: falling then rising.
        ``"auto"``: ascending and descending are tried and the larger chi-
        square wins (optbinning's ``"auto_asc_desc"``). The trend kept is
        ``statistics_[j]["monotonic_trend"]``. A multiclass target raises a
        ValueError. A heuristic, not an optimum: Khiops's own bins, then a
        bin over ``max_bin_size`` cut at its admissible cut of largest
        DeltaChi2, then adjacent bins merged, the merge of least DeltaChi2
        first, while a bin is below a minimum or the rates break the trend
        (O(B^2) merge evaluations for B bins). :class:`BlockOptDiscretizer`
        and :class:`MODLDiscretizer` give the exact constrained optimum.

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
        DeltaChi2 of the merge, Khiops' measure [1]_; for a continuous target
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
    p : float
        The 0.1 name of ``alpha``, in the other direction: ``alpha = 1 - p``.

        .. deprecated:: 0.2
           Use ``alpha = 1 - p``; ``p`` will be removed in 0.4.
    min_frequency : "auto", int or float
        The 0.1 name of ``min_bin_size``.

        .. deprecated:: 0.2
           Renamed ``min_bin_size``; ``min_frequency`` will be removed in 0.4.
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
    special_bins_ : ndarray of shape (n_features, n_special_parts)
        Per feature, the ordinal codes of its special parts
        (``special_codes``), in the order of their names; they follow the
        intervals and the missing bin (when it is apart).

        .. versionadded:: 0.2
    statistics_ : list of dict
        Per feature: ``chi2``, ``dof``, ``log10_pvalue`` of the bins against the
        class, ``n_initial_intervals`` (after the frequency phase),
        ``min_bin_size``, ``max_delta_chi2``, ``n_units`` (distinct values, or
        granules, the merges started from), ``exact`` (False when they were
        granules, see ``exact_limit``) and, with ``keep_trace=True``,
        ``trace``.
        With ``max_values``, a pooled column also has ``pooled_rows`` (rows of
        its table that pool several values) and ``max_pooled_share`` (the
        largest weight of such a row over the column's).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit. Defined only when ``X`` has feature
        names that are all strings.

    See Also
    --------
    partikit.groupers.KhiopsGrouper : The same method for categorical columns.
    BlockOptDiscretizer : Optimal entropy or Gini multisplit.
    MDLPDiscretizer : Fayyad & Irani's recursive entropy discretization.

    Notes
    -----
    Missing values are left out and encoded as ``missing_bin_``; infinity raises
    a ``ValueError``; a column with one distinct value gives one bin and a
    ``UserWarning``.

    References
    ----------
    .. [1] Boulle, M. (2004). Khiops: A statistical discretization method of
       continuous attributes. Machine Learning 55, 53-69.
       doi:10.1023/B:MACH.0000019804.29836.05
    .. [2] Boulle, M. (2003). Khiops: a discretization method of continuous
       attributes with guaranteed resistance to noise. MLDM 2003, LNAI 2734,
       50-64.
    .. [3] Cochran, W. G. (1954). Some methods for strengthening the common
       chi-square tests. Biometrics 10(4), 417-451. doi:10.2307/3001616
    .. [4] Siddiqi, N. (2006). Credit Risk Scorecards: Developing and
       Implementing Intelligent Credit Scoring. Wiley. (Weight of evidence and
       its sign in scorecards.)

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers import KhiopsDiscretizer
    >>> rng = np.random.RandomState(0)
    >>> x = rng.uniform(0, 10, size=3000)
    >>> y = (x > 3) & (x < 7)
    >>> disc = KhiopsDiscretizer().fit(x.reshape(-1, 1), y)
    >>> np.round(disc.bin_edges_[0], 2)
    array([ 0.,  3.,  7., 10.])
    """

    _parameter_constraints: dict = {
        **BaseDiscretizer._parameter_constraints,
        "alpha": [Interval(RealNotInt, 0, 1, closed="neither")],
        "min_bin_size": BaseDiscretizer._parameter_constraints["min_bin_size"],
        "max_bins": [Interval(Integral, 1, None, closed="left"), None],
        "robust": ["boolean"],
        "keep_trace": ["boolean"],
        "exact_limit": [
            StrOptions({"auto"}),
            Interval(Integral, 2, None, closed="left"),
            None,
        ],
        "p": deprecated_constraints([Interval(RealNotInt, 0, 1, closed="neither")]),
        "min_frequency": deprecated_constraints(
            [
                StrOptions({"auto"}),
                Interval(Integral, 0, None, closed="left"),
                Interval(RealNotInt, 0, 1, closed="neither"),
            ]
        ),
        "max_candidates": deprecated_constraints(
            [StrOptions({"auto"}), Interval(Integral, 2, None, closed="left"), None]
        ),
    }
    _renamed_parameters = (
        P_TO_ALPHA,
        Renamed("min_frequency", "min_bin_size"),
        Renamed("max_candidates", "exact_limit"),
    )

    def __init__(
        self,
        *,
        alpha=0.05,
        min_bin_size="auto",
        max_bins=None,
        robust=True,
        keep_trace=False,
        exact_limit="auto",
        max_values=None,
        encode="ordinal",
        woe_sign="event",
        n_jobs=None,
        monotonic_trend=None,
        max_bin_size=None,
        min_bin_n_event=None,
        min_bin_n_nonevent=None,
        special_codes=None,
        missing="separate",
        p=DEPRECATED,
        min_frequency=DEPRECATED,
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
        self.alpha = alpha
        self.max_bins = max_bins
        self.robust = robust
        self.keep_trace = keep_trace
        self.exact_limit = exact_limit
        self.p = p
        self.min_frequency = min_frequency
        self.max_candidates = max_candidates

    def _cut_table(self, table, context):
        # fit and cut_table hand over a checked table
        alpha = self._parameter("alpha")
        min_bin_size = self._parameter("min_bin_size")
        # None: no minimum, as 0
        min_bin_size = 0 if min_bin_size is None else min_bin_size
        result = _khiops_cut(
            table, alpha, min_bin_size, self.max_bins,
            self.robust, None, self.keep_trace, self._parameter("exact_limit"),
        )  # fmt: skip
        message = frequency_collapse_message(
            table,
            result.statistics,
            "n_initial_intervals",
            alpha,
            "values",
            parameter="min_bin_size",
        )
        if message is not None:
            result.statistics["warning"] = message
        # min_bin_size is Khiops' own (its frequency phase): not repaired
        constraints = resolve_constraints(self, table, False, min_bin_size=False)
        if constraints is None:
            return result
        # Khiops' own minimum (its frequency phase) holds for the cuts the
        # heuristic adds too
        min_count = float(result.statistics.get("min_bin_size", 0.0))
        if min_count > 0:
            constraints.min_bin_weight = min_count
        # the heuristic: Khiops' intervals cut and merged (smallest DeltaChi2)
        cuts, statistics = constrained_repair(
            table, result.cuts, constraints, chi2_merge_cost,
            lambda cuts: _chi2_of(table, cuts),
        )  # fmt: skip
        statistics = {**result.statistics, **statistics}
        chi2, dof, log10_pvalue = chi2_test(_intervals_table(table, cuts))
        statistics.update(
            chi2=float(chi2), dof=int(dof), log10_pvalue=float(log10_pvalue)
        )
        return quiet_in_a_tree(
            _intervals(cuts, table.shape[0], statistics),
            context,
        )


def _intervals_table(table, cuts):
    return segment_sums(table, np.concatenate([[0], cuts]).astype(np.intp))


def _chi2_of(table, cuts):
    """The chi-square of the intervals of ``cuts`` against the class."""
    return float(chi2_test(_intervals_table(table, cuts))[0])
