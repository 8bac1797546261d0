# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Boulle's MODL discretization: the core and MODLDiscretizer."""

from __future__ import annotations

from numbers import Integral

import numpy as np

from partikit._compat import Interval
from partikit._kernels._modl_intervals import (
    blocks_cumulative,
    greedy_merges,
    optimal_intervals,
    refresh_moves,
)
from partikit._statistics._constraints import (
    constrained_multisplit,
    infeasible_message,
    quiet_in_a_tree,
    resolve_constraints,
    trends_to_solve,
)
from partikit._statistics._contingency import check_table
from partikit._statistics._modl import (
    class_columns,
    log_discretization_prior,
    log_factorials,
    part_costs,
)
from partikit._statistics._results import Intervals
from partikit.discretizers._base import BaseDiscretizer

#: Up to this many blocks the search is the exact dynamic programme (O(m^2 (J +
#: K)) time, O(m^2) memory: 64 blocks of 10 classes take 0.1 ms); past it, the
#: greedy merges and the post-optimisation (O(m J log m)).
EXACT_LIMIT = 64

#: Past this many blocks the greedy merges and the post-optimisation run on
#: about this many granules of about equal weight, cut at block boundaries
#: (Khiops' granularisation), and the cuts they choose are then refined on the
#: blocks (each moved to its best block between the granule boundaries around
#: it, and adjacent intervals merged while that pays): the search on 756,172
#: blocks (1M distinct values, 10 classes) took 1.3 s, on the granules some
#: 0.05 s, with the same cuts.
GRANULE_LIMIT = 1 << 15


def modl_discretization(table, *, max_bins=None):
    """Boulle's MODL discretization: the Bayes optimal intervals of a value table.

    Minimises the MODL criterion (:func:`modl_discretization_cost`), minus the
    log of the posterior probability of the discretization given the data,
    over every cut of the table into intervals. One interval (no cut) is the
    null model: a column independent of the class is left in one interval.
    The cuts are searched on the blocks of the table (Boulle's theorem: an
    optimal cut never separates two rows of the same single class); up to
    ``EXACT_LIMIT`` (64) blocks the search is exact (a dynamic programme over
    the end block and the number of intervals), past it it is the paper's
    greedy bottom-up merges (down to one interval, the best discretization
    met kept) followed by its post-optimisation. Past ``GRANULE_LIMIT``
    (32,768) blocks, these run on that many granules of blocks of about equal
    weight, and the cuts are then refined on the blocks.

    Parameters
    ----------
    table : array-like of shape (n_values, n_classes)
        Class counts of each distinct value, in value order. Weights are used as
        counts.
    max_bins : int or None, default=None
        Most intervals; None: no limit.

    Returns
    -------
    result : Intervals
        ``cuts``: value-table positions (rows before each cut); ``n_bins``;
        ``criterion``: the compression level ``1 - cost / null_cost`` (0 for
        one interval, at most 1; higher is better); ``statistics``: ``cost``
        and ``null_cost`` (the criterion of the cuts and of one interval, in
        nats), ``n_units`` (blocks), ``n_granules`` (granules the greedy
        search ran on, 0 when it ran on the blocks), ``exact`` (whether the
        dynamic programme ran), ``n_moves`` (improving moves of the
        post-optimisation, 0 when exact); ``thresholds``: None.

    See Also
    --------
    MODLDiscretizer : The estimator calling it on every column.

    Notes
    -----
    The criterion of ``I`` intervals of ``n`` rows, ``J`` classes present,
    ``n_i`` rows in interval ``i`` of which ``n_ij`` of class ``j``, is

    .. math::

        \\log n + \\log \\binom{n + I - 1}{I - 1}
        + \\sum_i \\log \\binom{n_i + J - 1}{J - 1}
        + \\sum_i \\log \\frac{n_i!}{n_{i1}! \\cdots n_{iJ}!}.

    Past ``EXACT_LIMIT`` blocks, the greedy search merges, from the blocks
    down to one interval, the two adjacent intervals whose merge costs the
    least (ties: the leftmost pair), keeping the best discretization met with
    at most ``max_bins`` intervals; then the post-optimisation applies the best
    of the moves Split, Merge, MergeSplit (two intervals merged and cut again
    at their best cut) and MergeMergeSplit (three into two) while one lowers
    the cost. Ties between discretizations of equal cost go to the fewest
    intervals, then to the leftmost cuts. The search is then near-optimal, not
    guaranteed optimal. O(m J log m) time and O(m J) memory on ``m`` blocks.
    Past ``GRANULE_LIMIT`` blocks, the greedy merges and the
    post-optimisation run on granules (consecutive blocks of about equal
    weight, Khiops' granularisation), then each cut is moved to its best block
    between the granule boundaries around it, the others fixed, and the best
    merge of two adjacent intervals is applied while it lowers the cost: the
    cuts can fall on any block again. O(V J + G J log G) for ``G`` granules.

    References
    ----------
    .. [1] Boulle, M. (2006). MODL: a Bayes optimal discretization method for
       continuous attributes. Machine Learning 65, 131-165.
       doi:10.1007/s10994-006-8364-x

    Examples
    --------
    Eight values of class a then twelve of class b are cut once:

    >>> import numpy as np
    >>> from partikit.discretizers import modl_discretization
    >>> table = np.array([[1, 0]] * 8 + [[0, 1]] * 12)
    >>> modl_discretization(table).cuts
    array([8])
    """
    if max_bins is not None and (
        not isinstance(max_bins, Integral) or isinstance(max_bins, bool) or max_bins < 1
    ):
        raise ValueError(f"max_bins must be an int >= 1 or None, got {max_bins!r}.")
    return _modl_discretization(check_table(table), max_bins)


def _modl_discretization(
    table,
    max_bins=None,
    *,
    exact_limit=EXACT_LIMIT,
    granule_limit=GRANULE_LIMIT,
    post_optimization=True,
):
    """:func:`modl_discretization` of a table already checked.

    ``exact_limit`` and ``post_optimization`` are for the tests: the greedy
    search (with or without its post-optimisation) on tables of any size.
    """
    n_rows = table.shape[0]
    if n_rows < 2:
        return _no_cut(n_rows)
    starts, columns, units, cumulative = blocks_cumulative(
        table, max(granule_limit, exact_limit)
    )
    n = float(cumulative[-1].sum())
    if n <= 0:
        return _no_cut(n_rows)
    n_classes = float(len(columns))
    m = len(starts)
    factorials = log_factorials(n, n_classes)
    max_intervals = m if max_bins is None else min(int(max_bins), m)
    exact = m <= exact_limit
    n_moves = 0
    if exact:
        bounds = _exact_search(cumulative, n, n_classes, factorials, max_intervals)
    else:
        bounds, n_moves = _greedy_search(
            cumulative, n, n_classes, factorials, max_intervals, post_optimization
        )
    if len(units) <= m:  # granules: the cuts refined on the blocks
        bounds, cumulative = _refine_cuts(
            table, columns, starts, units, cumulative, bounds, n, n_classes,
            factorials,
        )  # fmt: skip
    else:
        cumulative = cumulative[bounds]
    # cumulative: the counts before each bound
    intervals = cumulative[1:] - cumulative[:-1]
    cost = float(
        log_discretization_prior(n, len(intervals))
        + part_costs(intervals, n_classes, factorials).sum()
    )
    null_cost = float(
        log_discretization_prior(n, 1)
        + part_costs(cumulative[-1] - cumulative[0], n_classes, factorials)
    )
    cuts = starts[bounds[1:-1]]
    level = 0.0
    if len(cuts) and null_cost > 0:
        level = 1.0 - cost / null_cost
    return Intervals.from_cuts(
        cuts,
        n_rows,
        level,
        _statistics(
            cost,
            null_cost,
            m,
            len(units) - 1 if len(units) <= m else 0,
            exact,
            int(n_moves),
        ),  # fmt: skip
    )


def _no_cut(n_rows):
    return Intervals.from_cuts([], n_rows, 0.0, _statistics(0.0, 0.0, 1, 0, True, 0))


def _exact_search(cum, n, n_classes, factorials, max_intervals):
    """The bounds of the optimal discretization (dynamic programme)."""
    m = cum.shape[0] - 1
    best, start = optimal_intervals(cum, n_classes, factorials, max_intervals)
    counts = np.arange(1, max_intervals + 1)
    totals = log_discretization_prior(n, counts) + best[1:]
    k = int(counts[int(np.argmin(totals))])  # the first minimum: fewest
    bounds = [m]
    for kk in range(k, 0, -1):
        bounds.append(int(start[kk, bounds[-1]]))
    return np.array(bounds[::-1], dtype=np.int64)


def _greedy_search(cum, n, n_classes, factorials, max_intervals, post_optimization):
    """The greedy merges of the units of ``cum`` down to one interval, the
    best discretization met kept, then post-optimised: ``(bounds, n_moves)``."""
    m = cum.shape[0] - 1
    absorbed, part_sums = greedy_merges(cum, n_classes, factorials)
    n_intervals = m - np.arange(m)  # after 0 .. m - 1 merges
    totals = log_discretization_prior(n, n_intervals) + part_sums
    totals[n_intervals > max_intervals] = np.inf
    # the last minimum: the fewest intervals among equal costs
    t = m - 1 - int(np.argmin(totals[::-1]))
    alive = np.ones(m, dtype=bool)
    alive[absorbed[:t]] = False
    bounds = np.concatenate([np.flatnonzero(alive), [m]]).astype(np.int64)
    n_moves = 0
    if post_optimization:
        bounds, n_moves = post_optimize(
            cum, bounds, n_classes, factorials, max_intervals
        )
    return bounds, n_moves


def _refine_cuts(table, columns, starts, units, unit_cum, bounds, n, n_classes,
                 factorials, max_passes=20):  # fmt: skip
    """Refine on the blocks the cuts of a search on granules.

    Each cut is moved to its best block between the granule boundaries around
    it, the other cuts fixed (the interval count, hence the prior, unchanged),
    in passes until none moves; then the best Merge of two adjacent intervals
    (prior included) is applied if it lowers the cost, and the cuts are moved
    again, until no merge pays. A cut whose true place lies inside a granule
    can thus leave the narrow interval the granules gave it.

    ``bounds`` are granule positions, ``unit_cum`` the counts before each
    granule. Returns the block positions of the bounds and the counts before
    them; the counts inside a window are summed from the table rows.
    """
    blocks = [int(b) for b in units[bounds]]
    before = list(unit_cum[bounds])  # counts before each bound
    windows = [None]  # per bound: its first candidate block, the counts there
    for g in bounds[1:-1]:
        first, last = units[g - 1], units[g + 1]  # candidates first+1..last-1
        rows = starts[first:last]
        sums = table[rows[0] : starts[last] if last < len(starts) else None]
        sums = np.cumsum(sums[:, columns], axis=0)
        at = np.empty((last - first, len(columns)))  # before blocks first..last-1
        at[0] = unit_cum[g - 1]
        at[1:] = unit_cum[g - 1] + sums[rows[1:] - rows[0] - 1]
        windows.append((first, at))
    windows.append(None)
    while True:
        for _ in range(max_passes):
            moved = False
            for i in range(1, len(blocks) - 1):
                first, at = windows[i]
                lo = max(first, blocks[i - 1]) + 1
                hi = min(first + len(at), blocks[i + 1]) - 1
                if hi <= lo:
                    continue
                candidates = at[lo - first : hi - first + 1]
                value = part_costs(
                    candidates - before[i - 1], n_classes, factorials
                ) + part_costs(before[i + 1] - candidates, n_classes, factorials)
                best = int(np.argmin(value))  # ties: the leftmost
                current = blocks[i] - lo
                if best != current and value[best] < value[current] - 1e-12 * abs(
                    value[current]
                ):
                    blocks[i] = lo + best
                    before[i] = candidates[best]
                    moved = True
            if not moved:
                break
        k = len(blocks) - 1
        if k < 2:
            break
        cum = np.array(before)
        costs = part_costs(cum[1:] - cum[:-1], n_classes, factorials)
        merged = part_costs(cum[2:] - cum[:-2], n_classes, factorials)
        prior = log_discretization_prior(n, np.array([k - 1, k]))
        delta = merged - costs[1:] - costs[:-1] + (prior[0] - prior[1])
        i = int(np.argmin(delta))
        if not delta[i] < -1e-10 * (1.0 + abs(costs.sum())):
            break
        del blocks[i + 1], before[i + 1], windows[i + 1]
    return np.array(blocks, dtype=np.int64), np.array(before)


def post_optimize(cum, bounds, n_classes, factorials, max_intervals):
    """Improve a discretization by Boulle's moves until none lowers its cost.

    ``bounds`` (int64, ``[0, ..., m]``): the intervals' first blocks and ``m``.
    The moves, on consecutive intervals: Split one in two; Merge two; MergeSplit
    two (merge them and cut the union at its best cut); MergeMergeSplit three
    into two. Each round applies the move of least total cost change (prior
    included), if it is below ``-tolerance``; ties go to the leftmost move, in
    that order of kinds. The best move of each place is kept and recomputed
    (:func:`~partikit._kernels._modl_intervals.refresh_moves`, compiled) only
    where a move changed the intervals, so a round costs O(I) besides the
    sweeps of the changed intervals; the choice and the application of the
    moves are numpy's (a smaller kernel, a shorter first compilation).

    Returns the new bounds and the number of moves applied.
    """
    m = cum.shape[0] - 1
    n = float(cum[m].sum())
    prior = np.full(m + 2, np.inf)
    prior[1:] = log_discretization_prior(n, np.arange(1, m + 2))
    size = len(bounds) - 1
    edge = np.empty(m + 2, dtype=np.int64)
    edge[: size + 1] = bounds
    cost = np.empty(m + 1)
    gain = np.full((4, m + 1), np.inf)
    at = np.zeros((3, m + 1), dtype=np.int64)
    refresh_moves(cum, edge, size, 0, size - 1, 0, size - 1, cost, gain, at,
                  n_classes, factorials)  # fmt: skip
    total = cost[:size].sum()
    tolerance = 1e-10 * (1.0 + abs(total) + abs(np.log(max(n, 1.0))))
    total += prior[size]
    n_moves = 0
    offsets = np.zeros((4, 1))
    while True:
        offsets[0] = prior[size + 1] - prior[size] if size < max_intervals else np.inf
        offsets[1] = offsets[3] = prior[size - 1] - prior[size]
        values = (gain[:, :size] + offsets).T.ravel()  # by place, then kind
        best = int(np.argmin(values))  # the first minimum: leftmost, kind order
        if not values[best] < -tolerance:
            break
        n_moves += 1
        i, kind = divmod(best, 4)
        if kind == 0:  # one interval becomes two: shift right by one
            edge[i + 2 : size + 2] = edge[i + 1 : size + 1].copy()
            for array in (cost, gain, at):
                array[..., i + 1 : size + 1] = array[..., i:size].copy()
            edge[i + 1] = at[0, i]
            size += 1
            changed_hi = i + 1
        elif kind == 2:  # two stay two, the cut moves
            edge[i + 1] = at[1, i]
            changed_hi = i + 1
        else:  # two or three become one or two: shift left by one
            new_cut = at[2, i]
            edge[i + 1 : size] = edge[i + 2 : size + 1].copy()
            for array in (cost, gain, at):
                array[..., i + 1 : size - 1] = array[..., i + 2 : size].copy()
            size -= 1
            if kind == 3:
                edge[i + 1] = new_cut
                changed_hi = i + 1
            else:
                changed_hi = i
        # every place whose intervals include a changed one
        refresh_moves(cum, edge, size, i - 2, changed_hi, i, changed_hi, cost,
                      gain, at, n_classes, factorials)  # fmt: skip
        # every move lowers the cost by more than the tolerance; a move that
        # does not is a rounding artefact (the costs of huge weights are
        # differences of huge log factorials) and the next one would undo it:
        # stop rather than cycle for ever
        moved_total = cost[:size].sum() + prior[size]
        if not moved_total < total:
            break
        total = moved_total
    return edge[: size + 1].copy(), n_moves


def _statistics(cost, null_cost, n_units, n_granules, exact, n_moves):
    return {
        "cost": cost,
        "null_cost": null_cost,
        "n_units": int(n_units),
        "n_granules": int(n_granules),
        "exact": bool(exact),
        "n_moves": n_moves,
    }


class MODLDiscretizer(BaseDiscretizer):
    """Boulle's MODL discretization (Bayes optimal intervals, no parameter to tune).

    For each numeric column, chooses the intervals of least MODL cost: minus the
    log of their posterior probability given the class, under a prior uniform
    on the number of intervals, on their bounds and on their class
    distributions. The criterion needs no threshold: a column independent of
    the class stays in one interval, and more data reveals finer patterns.

    Read more in the :ref:`User Guide <discretization>`.

    Parameters
    ----------
    max_bins : int or None, default=None
        Most intervals of a column; None: as many as the criterion chooses.
    max_values : int or None, default=None
        Cap on the rows of a column's value table. None (the default): the
        search runs on every distinct value. An int (at least 2): a column with
        more distinct values has them pooled into at most ``max_values`` rows
        of adjacent values, with exact class counts (see
        :func:`~partikit.column_tables`), in ``fit``, ``partial_fit`` and
        ``fit_tables`` alike, so the tables stay small however many rows are
        seen; the cuts inside a pooled row are lost (see
        :ref:`pooled_values`). ``statistics_[j]`` records it.
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output: bin ids as float64; one-hot of the bins (sparse CSR or dense);
        or the weight of evidence of each bin, the missing bin included (binary
        targets only; computed from the bins' class counts with the regularised
        formula of ``category_encoders.WOEEncoder``, as the groupers do).
        ``"target"``: the bin's mean target, shrunk toward the overall mean
        as ``TargetEncoder(smooth="auto")`` shrinks a category's (continuous
        and binary targets; for a binary one, the mean of the second class).
    woe_sign : {"event", "non_event"}, default="event"
        Sign of the weight of evidence, in ``encode="woe"``, in the ``woe``
        column of :meth:`partition_table` and in the plots: ``"event"``,
        ``ln(share of events / share of non-events)``, is positive where the
        second class of ``classes_`` is over-represented (the sign of
        ``category_encoders``); ``"non_event"`` is its opposite, the sign of
        optbinning and of credit scorecards.
    n_jobs : int or None, default=None
        Number of columns fitted in parallel (threads). None means 1, -1 all
        processors.
    monotonic_trend : {"ascending", "descending", "peak", "valley", "auto"} or None, \
            default=None
        Shape of the bins' event rate (binary target), in value order, the
        missing bin excluded; equal rates are allowed (as in optbinning).
        ``"peak"``: rising then falling; ``"valley"``: falling then rising.
        ``"auto"``: each of ascending, descending, peak and valley is solved
        and the least MODL cost wins, a peak or valley charged the prior of
        one more interval (its turning point). The trend kept is
        ``statistics_[j]["monotonic_trend"]``. A multiclass target raises a
        ValueError. Solved exactly: a dynamic programme over the column's
        distinct values whose state is the last bin finds, for every number
        of bins, the least-cost partition meeting every constraint (O(V^2
        log V + K V^2) time, O(K V^2) memory for V values and K = max_bins;
        twice for a peak or valley); past 1,024 (fewer with
        ``max_bins=None``, to bound memory) values it runs on that many
        equal-weight granules of values (``statistics_[j]["exact"]`` False),
        the constraints still met exactly. MODL's prior depends on the
        number of intervals only, so the least MODL cost is then chosen
        among those optima: exact.

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
        DeltaChi2 of the merge, Khiops' measure [2]_; for a continuous target
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
        Per feature: ``cost`` and ``null_cost`` (the MODL criterion of the bins
        and of one bin, in nats; the compression level of the column is
        ``1 - cost / null_cost``), ``n_units`` (blocks), ``n_granules``
        (granules the greedy search ran on past 32,768 blocks, else 0),
        ``exact`` (whether the search was the exact dynamic programme) and
        ``n_moves`` (improving moves of the post-optimisation). With
        ``max_values``, a pooled column also has ``pooled_rows`` and
        ``max_pooled_share``.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit. Defined only when ``X`` has feature
        names that are all strings.

    See Also
    --------
    MDLPDiscretizer : Fayyad & Irani's recursive entropy cuts with an MDL stop.
    KhiopsDiscretizer : Boulle's robust chi-square discretization.
    BlockOptDiscretizer : The optimal multisplit of entropy or Gini.

    Notes
    -----
    The search runs on the ``m`` blocks of a column's ``V`` distinct values
    (runs of values of one single class; an optimal cut is never inside one)
    with ``J`` classes present. Up to 64 blocks it is exact: a dynamic
    programme over the end block and the number of intervals, O(m^3 + m^2 J).
    Past 64, it is the paper's: greedy merges of adjacent intervals with a
    heap, from the blocks down to one interval, the best discretization met
    kept, O(m J log m), then the post-optimisation moves (Split, Merge,
    MergeSplit, MergeMergeSplit) while one improves, each a sweep of the
    intervals it changes that reads only the classes a block holds. Past
    32,768 blocks, these run on 32,768 granules of consecutive blocks of
    about equal weight (Khiops' granularisation), and each cut is then moved
    to its best block between the granule boundaries around it (adjacent
    intervals merged while that pays): 1M distinct values of 10 classes take
    about 0.1 s. Memory is O(m J). Finding the blocks is one O(V J) pass.
    Missing values are left out and encoded as ``missing_bin_``; infinity
    raises a ``ValueError``; a column with one distinct value gives one bin
    and a ``UserWarning``.

    References
    ----------
    .. [1] Boulle, M. (2006). MODL: a Bayes optimal discretization method for
       continuous attributes. Machine Learning 65, 131-165.
       doi:10.1007/s10994-006-8364-x
    .. [2] Boulle, M. (2004). Khiops: A Statistical Discretization Method of
       Continuous Attributes. Machine Learning 55:53-69. (DeltaChi2, the
       measure of ``missing="attach"``.)

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers import MODLDiscretizer
    >>> rng = np.random.RandomState(0)
    >>> x = rng.uniform(0, 10, size=3000)
    >>> y = (x > 3) & (x < 7)
    >>> disc = MODLDiscretizer().fit(x.reshape(-1, 1), y)
    >>> np.round(disc.bin_edges_[0], 2)
    array([ 0.,  3.,  7., 10.])
    """

    _parameter_constraints: dict = {
        **BaseDiscretizer._parameter_constraints,
        "max_bins": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        *,
        max_bins=None,
        max_values=None,
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
        self.max_bins = max_bins

    def _cut_table(self, table, context):
        constraints = resolve_constraints(self, table, False)
        if constraints is not None:
            return quiet_in_a_tree(
                constrained_modl_discretization(table, constraints, self.max_bins),
                context,
            )
        return _modl_discretization(table, self.max_bins)


def modl_interval_costs(table):
    """An ``interval_costs`` function for
    :func:`~partikit._statistics._constraints.constrained_multisplit`: MODL's
    terms of one interval (:func:`~partikit._statistics._modl.part_costs`), with
    the classes (non-empty columns) and the total of the whole ``table``."""
    columns = class_columns(table)
    n = float(table.sum())
    n_classes = float(max(len(columns), 1))
    factorials = log_factorials(n, n_classes)

    def costs(units):
        cum = np.concatenate(
            [np.zeros((1, len(columns))), np.cumsum(units[:, columns], axis=0)]
        )
        # pairs j >= i are never read (part_costs clips their negative counts)
        return part_costs(cum[None, :, :] - cum[:, None, :], n_classes, factorials)

    return costs


def constrained_modl_discretization(table, constraints, max_bins=None):
    """The MODL discretization of least cost under bin constraints (exact).

    Given the number of intervals ``I``, MODL's prior terms depend on ``I`` and
    ``n`` only and the rest is a sum over intervals, so the constrained dynamic
    programme of
    :func:`~partikit._statistics._constraints.constrained_multisplit` with the
    interval terms gives, for each ``I``, the least-cost constrained
    discretization; ``I`` is then chosen by the whole criterion (the first
    minimum: fewest intervals). With ``monotonic_trend="auto"``, each of
    ascending, descending, peak and valley is solved and the least total cost
    wins, a peak or a valley being charged the prior of ``I + 1`` intervals
    (its turning point). Exact up to
    :data:`~partikit._statistics._constraints.CONSTRAINED_EXACT_LIMIT` rows
    (fewer when ``max_bins`` is None: the back-pointers of ``I <= m`` layers
    are bounded), else on equal-weight granules (``statistics["exact"]``
    False).
    """
    n_rows = table.shape[0]
    n = float(table.sum())
    costs = modl_interval_costs(table)
    null_cost = float(
        log_discretization_prior(n, 1) + costs(table.sum(axis=0, keepdims=True))[0, 1]
    )
    trends = (None,)
    if constraints.monotonic_trend is not None:
        trends = trends_to_solve(constraints.monotonic_trend, all_shapes=True)
    max_intervals = n_rows if max_bins is None else int(max_bins)
    best = None
    for trend in trends:
        split = constrained_multisplit(
            table, costs, max_bins=max_intervals, monotonic_trend=trend,
            min_bin_weight=constraints.min_bin_weight,
            max_bin_weight=constraints.max_bin_weight,
            min_bin_n_event=constraints.min_bin_n_event,
            min_bin_n_nonevent=constraints.min_bin_n_nonevent,
        )  # fmt: skip
        turn = int(
            constraints.monotonic_trend == "auto" and trend in ("peak", "valley")
        )
        counts = np.arange(1, len(split.values) + 1)
        totals = log_discretization_prior(n, counts + turn) + split.values
        if not np.isfinite(totals).any():
            continue
        k = int(np.argmin(totals)) + 1
        # the cost reported is the criterion of the intervals themselves
        cost = float(log_discretization_prior(n, k) + split.values[k - 1])
        if best is None or totals[k - 1] < best[0]:
            best = (totals[k - 1], k, split, trend, cost)
    if best is None:
        result = _no_cut(n_rows)
        result.statistics["monotonic_trend"] = constraints.monotonic_trend
        result.statistics["feasible"] = False
        result.statistics["warning"] = infeasible_message(constraints)
        return result
    _, k, split, trend, cost = best
    cuts = split.cuts[k - 1]
    level = 1.0 - cost / null_cost if len(cuts) and null_cost > 0 else 0.0
    statistics = _statistics(cost, null_cost, split.n_units, 0, split.exact, 0)
    statistics["monotonic_trend"] = trend
    statistics["feasible"] = True
    return Intervals.from_cuts(cuts, n_rows, level, statistics)
