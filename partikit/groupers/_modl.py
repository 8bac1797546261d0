# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""MODL value grouping (Boulle 2005): the core and the estimator."""

from __future__ import annotations

import functools
import math
from numbers import Integral
from typing import NamedTuple

import numpy as np

from partikit._compat import Interval, RealNotInt, StrOptions
from partikit._kernels._modl import modl_merge_sequence, modl_moves
from partikit._statistics._contingency import (
    check_table,
    content_keys,
    number_by_first_row,
    resolve_count,
)
from partikit._statistics._modl import (
    class_columns,
    log_bell,
    log_factorials,
    part_costs,
)
from partikit._statistics._results import Grouping
from partikit.groupers._base import BaseGrouper
from partikit.groupers._khiops import labels_after_merges
from partikit.groupers._max_cut import _profile_cells

#: Up to this many values to group (after the pure values of each class are
#: pooled), every partition is evaluated: Bell(8) = 4,140 of them.
EXHAUSTIVE_LIMIT = 8

#: Work budget (pairs of groups times classes) of the greedy merging: past
#: ``isqrt(MERGE_WORK / J)`` groups, the least frequent values are pre-grouped.
MERGE_WORK = 30_000_000

#: Passes of the post-optimisation over the values, at most (each pass moves
#: every value to its best group; it stops as soon as a pass changes nothing):
#: while the pooling threshold is searched, then on the grouping chosen.
SEARCH_PASSES = 2
MAX_PASSES = 10


@functools.cache
def _partitions_of(n):
    """Every partition of ``n`` items, for :func:`exhaustive_grouping`.

    Returns ``labels`` (Bell(n), n): restricted growth strings (item 0 in group
    0, each item in a group already used or the next one), in lexicographic
    order; ``block_masks`` (Bell(n), n): the bit mask of each group's items
    (0 for a group number not used); ``n_groups`` (Bell(n),); and
    ``membership`` (2^n, n): row ``m`` is 1 at the items of bit mask ``m``.
    """
    strings = [[0]] if n else [[]]
    for _ in range(1, n):
        strings = [s + [g] for s in strings for g in range(max(s) + 2)]
    labels = np.array(strings, dtype=np.intp).reshape(len(strings), n)
    block_masks = np.zeros(labels.shape, dtype=np.intp)
    for item in range(n):
        block_masks[np.arange(len(labels)), labels[:, item]] += 1 << item
    membership = (np.arange(1 << n)[:, None] >> np.arange(n)) & 1
    return labels, block_masks, labels.max(axis=1) + 1, membership.astype(np.float64)


def exhaustive_grouping(groups, n_classes, log_bell_numbers, max_groups):
    """The partition of the rows of ``groups`` of least MODL cost among every
    partition into at most ``max_groups`` groups.

    For a handful of rows: every block of rows (2^n - 1 of them) is costed
    once, and each of the Bell(n) partitions (4,140 for 8 rows) adds up the
    costs of its blocks. The first partition of least cost in lexicographic
    order wins ties.

    Returns
    -------
    labels : ndarray of intp of shape (n_rows,)
    cost : float
        Part costs plus ``log_bell_numbers[k]`` for ``k`` groups: the terms of
        the criterion that depend on the partition.
    """
    labels, block_masks, n_groups, membership = _partitions_of(len(groups))
    block_cost = part_costs(membership @ groups, n_classes)
    block_cost[0] = 0.0  # the empty block of a partition with fewer groups
    cost = block_cost[block_masks].sum(axis=1) + log_bell_numbers[n_groups]
    cost[n_groups > max_groups] = np.inf
    best = int(np.argmin(cost))
    return labels[best].copy(), float(cost[best])


def initial_group_limit(n_rows, n_classes):
    """Number of groups the greedy merging starts from, at most.

    ``sqrt(N)`` for ``N`` rows (Boulle 2005, section 4: the pre-grouping that
    keeps the merging super-linear), and at most ``isqrt(MERGE_WORK / J)`` so
    that the merging's O(I^2 J) stays within about 3 10^7 steps; never below
    :data:`EXHAUSTIVE_LIMIT`.
    """
    by_rows = int(math.ceil(math.sqrt(max(n_rows, 1.0))))
    by_work = math.isqrt(MERGE_WORK // max(int(n_classes), 1))
    return max(EXHAUSTIVE_LIMIT, min(by_rows, by_work))


def _pure_classes(sub):
    """The class of each value (row of ``sub``) that holds rows of one class
    only, -1 for the others."""
    nonzero = sub > 0
    return np.where(nonzero.sum(axis=1) == 1, np.argmax(nonzero, axis=1), -1)


def _pure_units(sub, pure_class):
    """Pool the values pure in one class, one pool per class.

    Returns the unit of each value and the units' table: the values of
    ``pure_class`` ``c >= 0`` are gathered by class (as the Khiops tool does;
    on every table of up to 8 values tested, the optimum keeps them together),
    every other value is its own unit.
    """
    pure = pure_class >= 0
    mixed = np.flatnonzero(~pure)
    classes, pool = np.unique(pure_class[pure], return_inverse=True)
    unit = np.empty(len(sub), dtype=np.intp)
    unit[mixed] = np.arange(len(mixed))
    unit[pure] = len(mixed) + pool.reshape(-1)
    units = np.zeros((len(mixed) + len(classes), sub.shape[1]))
    units[: len(mixed)] = sub[mixed]
    np.add.at(units, unit[pure], sub[pure])
    return unit, units


def _pre_group(units, limit):
    """Initial groups of the merging: the ``units`` (in the order of
    :func:`_content_order`), the least frequent pooled into cells of similar
    class profiles when there are more than ``limit``.

    Returns the initial group of each unit, the initial groups' table, and the
    number of units pooled. The most frequent ``limit // 2`` units start alone;
    the others are pooled into at most ``limit - limit // 2`` cells, units of
    identical counts always together, distinct counts cut by median splits of
    their class proportions along the class of largest spread (a k-d tree on
    the profiles, each unit weighing its total), so that a cell holds units
    that the merging would have brought together early.
    """
    n_units = units.shape[0]
    order = np.arange(n_units)  # the units come in content order
    initial = np.empty(n_units, dtype=np.intp)
    if n_units <= limit:
        initial[order] = np.arange(n_units)
        return initial, units[order], 0
    keep = limit // 2
    initial[order[:keep]] = np.arange(keep)
    tail = order[keep:]
    tail_table = np.ascontiguousarray(units[tail])
    cell, _ = _profile_cells(tail_table, tail_table.sum(axis=1), limit - keep)
    # cells numbered in the order of their first unit: the canonical order
    _, cell = np.unique(cell, return_inverse=True)
    first = np.full(cell.max() + 1, len(tail))
    np.minimum.at(first, cell, np.arange(len(tail)))
    rank = np.empty(len(first), dtype=np.intp)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    cell = rank[cell]
    initial[tail] = keep + cell
    groups = np.zeros((keep + len(first), units.shape[1]))
    groups[:keep] = units[order[:keep]]
    np.add.at(groups, keep + cell, tail_table)
    return initial, groups, len(tail)


def _content_order(units):
    """An order of the rows that depends on their counts only: by decreasing
    total, then by :func:`content_keys` (identical rows keep their given
    order)."""
    return np.lexsort((content_keys(units), -units.sum(axis=1)))


def modl_grouping(table, *, min_frequency="auto", max_groups=None):
    """Group the rows of a contingency table by the MODL criterion.

    The MODL grouping is the Bayes optimal one for a prior uniform on the
    number of groups, then on the partitions into that many groups, then on
    the class distribution of each group: it minimises

    .. math::

        \\log I + \\log B(I, K) + \\sum_k \\log \\binom{n_k + J - 1}{J - 1}
        + \\sum_k \\log \\frac{n_k!}{n_{k1}! \\cdots n_{kJ}!}

    (:func:`~partikit._statistics._modl.modl_grouping_cost`). One group is the
    null model: a column independent of the class ends in one group unless
    the data say otherwise, without any threshold to set.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows). Empty rows get group -1; empty
        columns are ignored (``J`` counts the classes present). Weighted counts
        are used as counts.
    min_frequency : "auto", int or float, default="auto"
        Categories whose total is below this are pooled into one rare value
        before the grouping, which no step splits (its group is
        ``rare_group``). ``"auto"``: the threshold of least criterion among 1
        (no pooling, the paper's method) and the powers of 2, the criterion of
        each being that of the grouping of the values left once the rare ones
        are pooled (the granularity of the Khiops tool). An int is a count (0
        or 1: no pooling), a float in (0, 1) a fraction of the total weight.
    max_groups : int or None, default=None
        At most this many groups.

    Returns
    -------
    result : Grouping
        ``group_ids`` (numbered by first row, -1 for an empty row),
        ``n_groups``, ``criterion``: the compression level ``1 - cost /
        null_cost`` (0 for one group, higher is better), ``rare_group`` (the
        group of the pooled rare categories, -1 if none) and ``statistics``:
        ``cost`` and ``null_cost`` (the criterion of the grouping, over the
        values left once the rare ones are pooled, and of one group, nats),
        ``n_categories`` (non-empty rows), ``min_frequency`` (the threshold
        used, 0 without pooling), ``n_rare`` (categories pooled as rare),
        ``n_units`` (values once the rare ones and those pure in one class
        are pooled), ``n_pre_grouped`` (units pooled into cells of similar
        profiles before the merging), ``n_initial_groups``, ``exhaustive``
        (every partition was evaluated), ``n_moves`` and ``n_post_merges``
        (post-optimisation).

    Notes
    -----
    For each pooling threshold tried (``min_frequency``), as in the paper
    (Boulle 2005, section 4):

    1. the rare values are pooled into one value, and the values pure in one
       class are pooled, one pool per class;
    2. when more than ``sqrt(N)`` values remain (``N`` rows; or more than
       ``isqrt(3 10^7 / J)``), the most frequent half start alone and the
       others are pooled into cells of similar class profiles (a pre-grouping
       that the post-optimisation undoes where it pays);
    3. greedy bottom-up merges, the merge of least cost increase first, down to
       one group; the number of groups of least criterion is kept (up to
       ``max_groups``); with at most 8 values, every partition is evaluated
       instead, so that small tables get the exact optimum;
    4. post-optimisation: each value of step 1 moves to the group where the
       criterion is least, and the best merge of two groups is made if it
       lowers the criterion, until neither changes anything.

    With ``"auto"``, the thresholds are tried in increasing order and the
    search stops when the criterion has risen twice in a row. Pooling the
    rare values matters at high cardinality: a category seen once is pure in
    its class, and the paper's criterion, which charges nothing for moving a
    value between groups of a fixed number, would gather the categories seen
    once by class, a grouping that does not generalise.

    Cost, per threshold: O(R J) for the pooling of ``R`` rows, O(I^2 J) for
    the merging of ``I = min(sqrt(N), isqrt(3 10^7 / J))`` initial groups
    (each group keeps its best partner: O(I J) memory), and O(V (J + K z))
    per post-optimisation pass over ``V`` values with ``z`` non-zero classes
    each, into ``K`` groups; about ``log2`` of the largest category's count
    thresholds at most. Ties are broken by an order of the rows that depends
    on their counts only, so renaming the categories never changes the
    groups.

    References
    ----------
    .. [1] Boulle, M. (2005). A Bayes optimal approach for partitioning the
       values of categorical attributes. Journal of Machine Learning Research
       6, 1431-1452.

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.groupers import modl_grouping
    >>> table = np.array([[40, 10], [38, 12], [9, 41], [12, 38], [25, 25]])
    >>> modl_grouping(table).group_ids
    array([0, 0, 1, 1, 2])
    """
    table = check_table(table)
    row_mask = table.sum(axis=1) > 0
    rows = np.flatnonzero(row_mask)
    columns = class_columns(table)
    n_values, n_classes = len(rows), len(columns)
    statistics = {
        "cost": 0.0,
        "null_cost": 0.0,
        "n_categories": int(n_values),
        "min_frequency": 0.0,
        "n_rare": 0,
        "n_units": int(n_values),
        "n_pre_grouped": 0,
        "n_initial_groups": int(n_values),
        "exhaustive": False,
        "n_moves": 0,
        "n_post_merges": 0,
    }
    if n_values == 0:
        return Grouping(np.full(len(table), -1, dtype=np.intp), 0, 0.0, statistics)
    sub = table[rows] if len(rows) < len(table) else table
    if n_classes < sub.shape[1]:
        sub = sub[:, columns]
    value_totals = sub.sum(axis=1)
    totals = sub.sum(axis=0)
    factorials = log_factorials(totals.sum(), n_classes)
    null_cost = math.log(n_values) + float(
        part_costs(totals[None, :], max(n_classes, 1), factorials)[0]
    )
    statistics["cost"] = statistics["null_cost"] = null_cost
    max_groups = n_values if max_groups is None else int(max_groups)
    if n_values < 2 or n_classes < 2 or max_groups < 2:
        group_ids = np.where(row_mask, 0, -1).astype(np.intp)
        return Grouping(group_ids, 1, 0.0, statistics)

    pure_class = _pure_classes(sub)
    best = None
    previous_cost, n_rare_tried, rises = math.inf, -1, 0
    for threshold in _frequency_thresholds(min_frequency, value_totals):
        rare = value_totals < threshold
        if rare.sum() == 1:  # one rare value pooled alone is no pooling
            rare[:] = False
        if rare.sum() == n_rare_tried:
            continue
        n_rare_tried = int(rare.sum())
        found = _group_values(
            sub, pure_class, rare, max_groups, factorials, SEARCH_PASSES
        )
        found.statistics["min_frequency"] = float(threshold) if rare.any() else 0.0
        if best is None or found.cost < best.cost - 1e-9 * abs(best.cost):
            best = found
        # the criterion falls then rises with the threshold: two rises in a
        # row end the search
        rises = rises + 1 if found.cost > previous_cost else 0
        previous_cost = found.cost
        if rises == 2:
            break
    best = _post_optimise(best, factorials, MAX_PASSES)
    statistics.update(best.statistics, cost=best.cost)
    value_labels = best.unit_labels[best.unit_of_value]
    n_groups = int(value_labels.max()) + 1
    group_ids, _ = number_by_first_row(value_labels, len(table), rows)
    rare_rows = rows[value_totals < statistics["min_frequency"]]
    rare_group = int(group_ids[rare_rows[0]]) if len(rare_rows) else -1
    criterion = max(0.0, 1.0 - best.cost / null_cost) if n_groups > 1 else 0.0
    return Grouping(group_ids, n_groups, criterion, statistics, rare_group)


def _frequency_thresholds(min_frequency, value_totals):
    """The pooling thresholds to try: the given one, or (``"auto"``) 1 (no
    pooling) and the powers of 2 up to the largest value's total."""
    if min_frequency != "auto":
        return [resolve_count(min_frequency, value_totals.sum())]
    largest = float(value_totals.max())
    thresholds = [1.0]
    while thresholds[-1] * 2 <= largest:
        thresholds.append(thresholds[-1] * 2)
    return thresholds


class _Candidate(NamedTuple):
    """A grouping of the values at one pooling threshold."""

    cost: float  # the criterion, over the values left once the rare are pooled
    statistics: dict
    units: np.ndarray  # the units' class counts (rare pool last, if any)
    unit_labels: np.ndarray  # the group of each unit
    unit_of_value: np.ndarray  # the unit of each value (row of sub)
    bell: np.ndarray  # log B(n_values, k), k = 0 .. the initial groups
    n_values: int  # the values left once the rare ones are pooled
    optimised: bool  # the post-optimisation applies


def _group_values(sub, pure_class, rare, max_groups, factorials, max_passes):
    """The MODL grouping of the values (rows of ``sub``; ``pure_class`` from
    :func:`_pure_classes`) with the ``rare`` ones pooled into one value that no
    step splits, post-optimised by at most ``max_passes`` passes: a
    :class:`_Candidate`.
    """
    n_classes = sub.shape[1]
    j = float(n_classes)
    n_rare = int(rare.sum())
    frequent = np.flatnonzero(~rare)
    unit_of_frequent, units = _pure_units(sub[frequent], pure_class[frequent])
    # units in an order of their counts: the moves visit them in that order
    by_content = _content_order(units)
    rank = np.empty(len(units), dtype=np.intp)
    rank[by_content] = np.arange(len(units))
    units, unit_of_frequent = units[by_content], rank[unit_of_frequent]
    unit_of_value = np.empty(len(sub), dtype=np.intp)
    unit_of_value[frequent] = unit_of_frequent
    if n_rare:
        unit_of_value[rare] = len(units)
        units = np.vstack([units, (rare.astype(np.float64) @ sub)[None, :]])
    units = np.ascontiguousarray(units)
    n_values = len(frequent) + (1 if n_rare else 0)
    statistics = {"n_rare": n_rare, "n_units": len(units)}
    if n_values < 2:
        unit_labels = np.zeros(len(units), dtype=np.intp)
        bell = log_bell(max(n_values, 1), 1)
        cost = _cost(units, unit_labels, 1, bell, max(n_values, 1), factorials)
        return _Candidate(
            cost, statistics, units, unit_labels, unit_of_value, bell, 1, False
        )
    limit = initial_group_limit(units.sum(), n_classes)
    initial_of_unit, initial, n_pooled = _pre_group(units, limit)
    n_initial = len(initial)
    statistics.update(n_pre_grouped=int(n_pooled), n_initial_groups=n_initial)
    bell = log_bell(n_values, min(n_initial, n_values))
    exhaustive = n_initial <= EXHAUSTIVE_LIMIT
    if exhaustive:
        labels, _ = exhaustive_grouping(initial, n_classes, bell, max_groups)
    else:
        kept, absorbed, costs_by_size = modl_merge_sequence(initial, j, factorials)
        sizes = np.arange(1, n_initial + 1)
        allowed = sizes[sizes <= max_groups]
        best_size = int(allowed[np.argmin(bell[allowed] + costs_by_size[allowed - 1])])
        labels = labels_after_merges(
            n_initial, kept, absorbed, np.arange(len(kept)), n_initial - best_size
        )
    statistics.update(exhaustive=exhaustive, n_moves=0, n_post_merges=0)
    unit_labels = np.ascontiguousarray(labels[initial_of_unit], dtype=np.intp)
    candidate = _Candidate(
        math.inf, statistics, units, unit_labels, unit_of_value, bell, n_values,
        not exhaustive or n_pooled > 0,
    )  # fmt: skip
    return _post_optimise(candidate, factorials, max_passes)


def _post_optimise(candidate, factorials, max_passes):
    """The candidate after at most ``max_passes`` more rounds of moves and
    merges (none when the enumeration found its grouping), with its cost."""
    units, unit_labels = candidate.units, candidate.unit_labels
    statistics = dict(candidate.statistics)
    if candidate.optimised:
        n_moves, n_merges = post_optimise(
            units, unit_labels, candidate.bell, factorials, max_passes
        )
        statistics["n_moves"] += n_moves
        statistics["n_post_merges"] += n_merges
    n_groups = int(unit_labels.max()) + 1
    cost = _cost(
        units, unit_labels, n_groups, candidate.bell, candidate.n_values, factorials
    )
    return candidate._replace(cost=cost, statistics=statistics)


def post_optimise(values, labels, log_bell_numbers, factorials, max_passes):
    """Moves of values between groups, then merges of groups, while they lower
    the MODL grouping criterion (Boulle 2005, section 4: post-optimisation).

    Rounds of: passes of moves of single values to their best group until a
    pass moves nothing (:func:`~partikit._kernels._modl.modl_moves`, at most
    ``max_passes``), then the merge of two groups that lowers the criterion
    the most, if one does; at most ``max_passes`` rounds, ending at the first
    without a merge.

    Parameters
    ----------
    values : ndarray of float64 of shape (n_values, n_classes)
    labels : ndarray of intp of shape (n_values,)
        The group of each value, ``0 .. n_groups - 1``; changed in place and
        renumbered ``0, 1, ...`` in order of first value.
    log_bell_numbers : ndarray of float64
        ``log B(I, k)`` for ``k`` up to the number of groups.
    factorials : ndarray of float64
        Table of ``log i!``.
    max_passes : int

    Returns
    -------
    n_moves, n_merges : int
    """
    n_classes = values.shape[1]
    groups = np.zeros((int(labels.max()) + 1, n_classes))
    np.add.at(groups, labels, values)
    n_moves = n_merges = 0
    for _ in range(max_passes):
        n_moves += int(
            modl_moves(
                values, labels, groups, float(n_classes), factorials,
                log_bell_numbers, max_passes,
            )
        )  # fmt: skip
        pair = _best_merge(groups, log_bell_numbers)
        if pair is None:
            break
        a, b = pair
        groups[a] += groups[b]
        groups[b] = 0.0
        labels[labels == b] = a
        n_merges += 1
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.intp)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    labels[:] = rank[inverse.reshape(-1)]
    return n_moves, n_merges


def _best_merge(groups, log_bell_numbers):
    """The pair of non-empty groups whose merge lowers the criterion the most
    (by more than 1e-9; the first pair in order on ties), or None."""
    alive = np.flatnonzero(groups.sum(axis=1) > 0)
    k = len(alive)
    if k < 2:
        return None
    n_classes = groups.shape[1]
    costs = part_costs(groups[alive], n_classes)
    prior = log_bell_numbers[k - 1] - log_bell_numbers[k]
    best, pair = -1e-9, None
    for i in range(k - 1):
        merged = part_costs(groups[alive[i]] + groups[alive[i + 1 :]], n_classes)
        delta = merged - costs[i] - costs[i + 1 :] + prior
        j = int(np.argmin(delta))
        if delta[j] < best:
            best, pair = float(delta[j]), (int(alive[i]), int(alive[i + 1 + j]))
    return pair


def _cost(units, unit_labels, n_groups, bell, n_values, factorials):
    """The MODL criterion of a grouping of units into ``n_groups`` groups."""
    groups = np.zeros((n_groups, units.shape[1]))
    np.add.at(groups, unit_labels, units)
    return (
        math.log(n_values)
        + float(bell[n_groups])
        + float(part_costs(groups, units.shape[1], factorials).sum())
    )


class MODLGrouper(BaseGrouper):
    """Bayes optimal grouping of categories (MODL, Boulle 2005).

    Learns, for each categorical column, the groups of categories of least
    MODL criterion: the grouping that is most probable given the data for a
    prior uniform on the number of groups, on the partitions and on the class
    distributions of the groups. The criterion trades the likelihood of the
    classes against the cost of describing the groups, so that a column
    independent of the class ends in **one group** without any threshold to
    tune, and a column of many rare categories keeps the groups its data
    support. It is the method the Khiops tool ships. The column is then
    encoded by its groups.

    Read more in the :ref:`User Guide <grouping>`.

    Parameters
    ----------
    min_frequency : "auto", int or float, default="auto"
        Categories with a smaller (weighted) count are pooled into one special
        group before the grouping, which no step splits; that group also
        receives unseen categories at transform time. ``"auto"`` chooses the
        threshold by the criterion itself, among 1 (no pooling: the paper's
        method) and the powers of 2 (see :func:`modl_grouping`). An int is a
        count (0 or 1 disables pooling), a float in (0, 1) a fraction of the
        total weight.
    max_groups : int or None, default=None
        At most this many groups per column.
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output: group ids as float64; one-hot of the groups (sparse CSR or dense);
        or the weight of evidence of each group (binary targets only, the second
        class of ``classes_`` being the positive one; computed from the groups'
        class counts with the regularised formula of
        ``category_encoders.WOEEncoder``).
        ``"target"``: the group's mean target, shrunk toward the overall mean
        as ``TargetEncoder(smooth="auto")`` shrinks a category's (continuous
        and binary targets; for a binary one, the mean of the second class).
    woe_sign : {"event", "non_event"}, default="event"
        Sign of the weight of evidence, in ``encode="woe"``, in the ``woe``
        column of :meth:`partition_table` and in the plots: ``"event"``,
        ``ln(share of events / share of non-events)``, is positive where the
        second class of ``classes_`` is over-represented (the sign of
        ``category_encoders``); ``"non_event"`` is its opposite, the sign of
        optbinning and of credit scorecards [2]_.
    handle_unknown : {"default_group", "error"}, default="default_group"
        A category not seen in fit goes to ``default_group_[j]``, or raises a
        ``ValueError`` naming the column and the unseen values.
    n_jobs : int or None, default=None
        Number of columns fitted in parallel (threads). None means 1, -1 all
        processors.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels seen in fit with positive weight.
    categories_ : list of ndarray
        Per feature, the categories seen in fit with positive weight, sorted, the
        missing category (``np.nan``) last when present.
    group_ids_ : list of ndarray of int
        Per feature, the group of each category of ``categories_``.
    n_groups_ : ndarray of shape (n_features,)
        Number of groups per feature.
    groups_ : list of list of ndarray
        Per feature, the categories of each group.
    default_group_ : ndarray of shape (n_features,)
        Group of unseen categories: the group holding the rare categories when
        some were pooled, otherwise the largest group (lowest id on ties).
    table_ : list of ndarray of shape (n_groups, n_classes)
        Per feature, the (weighted) class counts of each group.
    statistics_ : list of dict
        Per feature: ``cost`` and ``null_cost`` (the MODL criterion of the
        grouping and of one group, in nats), ``n_categories``,
        ``min_frequency`` (the threshold used, 0 without pooling), ``n_rare``
        (categories pooled as rare), ``n_units`` (categories once the rare
        ones and those pure in one class are pooled), ``n_pre_grouped``
        (pooled into cells of similar profiles before the merging),
        ``n_initial_groups``, ``exhaustive``, ``n_moves`` and
        ``n_post_merges`` (post-optimisation).
    woe_ : list of ndarray
        Per feature, the weight of evidence of each group (``encode="woe"`` only).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit. Defined only when ``X`` has feature
        names that are all strings.

    See Also
    --------
    KhiopsGrouper : Robust chi-square grouping, with a tunable noise guarantee.
    CHAIDGrouper : Merges of categories by Bonferroni-adjusted tests.
    sklearn.preprocessing.TargetEncoder : Encodes categories by target means.

    Notes
    -----
    *Algorithm* (Boulle 2005, section 4). The rare categories are pooled
    (the threshold of least criterion, with ``"auto"``), and the categories
    pure in one class are pooled by class; past ``sqrt(N)`` remaining
    categories (``N`` the rows), the least frequent half are pooled into
    cells of similar class profiles; greedy bottom-up merges
    of the pair of least cost increase run down to one group and the number
    of groups of least criterion is kept (every partition is evaluated when at
    most 8 categories remain); then each category moves to the group where the
    criterion is least, and groups merge where that lowers it, until nothing
    changes. See :func:`modl_grouping` for the criterion and the costs.

    *Complexity.* One pass over the rows builds each column's table; the
    grouping never reads rows again: O(I^2 J) for the merging of ``I =
    min(sqrt(N), isqrt(3 10^7 / J))`` initial groups and ``J`` classes, and
    O(V (J + K z)) per pass of the post-optimisation over ``V`` categories of
    ``z`` classes each, into ``K`` groups. Memory O(V J).

    *Weights.* Weighted counts are used as counts in the criterion (its
    factorials become gamma functions): the grouping of weights that are all
    2 is that of every row seen twice, which the criterion finds more
    significant.

    *Missing values and unseen categories.* NaN, None and ``pd.NA`` are one
    category, grouped like any other. Categories seen only with zero weight
    are unseen. Group numbers follow the category order.

    *Bad input.* A target with a single class (after zero-weight rows are
    dropped) raises a ``ValueError``; so do NaN in ``y``, an empty ``X``,
    mismatched lengths, negative or non-finite weights, infinity in a numeric
    column and a column whose kind (strings or numbers) changes between fit
    and transform. A constant column gives one group and a ``UserWarning``.

    References
    ----------
    .. [1] Boulle, M. (2005). A Bayes optimal approach for partitioning the
       values of categorical attributes. Journal of Machine Learning Research
       6, 1431-1452.
    .. [2] Siddiqi, N. (2006). Credit Risk Scorecards: Developing and
       Implementing Intelligent Credit Scoring. Wiley. (Weight of evidence and
       its sign in scorecards.)

    Examples
    --------
    A column of two hidden groups, and a column of noise:

    >>> import numpy as np
    >>> from partikit.groupers import MODLGrouper
    >>> rng = np.random.RandomState(0)
    >>> color = rng.choice(["red", "green", "blue", "black"], size=2000)
    >>> size = rng.choice(["S", "M", "L", "XL", "XXL"], size=2000)
    >>> y = np.where(np.isin(color, ["red", "green"]), rng.rand(2000) < 0.8,
    ...              rng.rand(2000) < 0.2)
    >>> grouper = MODLGrouper().fit(np.column_stack([color, size]), y)
    >>> grouper.n_groups_
    array([2, 1])
    >>> grouper.groups_[0]
    [array(['black', 'blue'], dtype=object), array(['green', 'red'], dtype=object)]
    >>> grouper.transform([["red", "S"], ["blue", "XL"]])
    array([[1., 0.],
           [0., 0.]])
    """

    _parameter_constraints: dict = {
        **BaseGrouper._parameter_constraints,
        "min_frequency": [
            StrOptions({"auto"}),
            Interval(Integral, 0, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="neither"),
        ],
        "max_groups": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        *,
        min_frequency="auto",
        max_groups=None,
        encode="ordinal",
        woe_sign="event",
        handle_unknown="default_group",
        n_jobs=None,
    ):
        super().__init__(
            encode=encode,
            woe_sign=woe_sign,
            handle_unknown=handle_unknown,
            n_jobs=n_jobs,
        )
        self.min_frequency = min_frequency
        self.max_groups = max_groups

    def _group_table(self, table, context):
        return modl_grouping(
            table, min_frequency=self.min_frequency, max_groups=self.max_groups
        )
