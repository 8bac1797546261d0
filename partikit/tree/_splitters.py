# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Adapters from node tables to splits: the tree's only route to the cores.

Each splitter calls one pure function of :mod:`partikit.groupers` or
:mod:`partikit.discretizers` (the same function the estimators call) on a table
built at the node, and translates its answer into children:

* a **categorical splitter** takes the node's categories x classes table and
  returns a :class:`~partikit._statistics._results.Grouping`: the child of every
  row of the table in ``group_ids`` (-1 for a category absent at the node),
  the number of children in ``n_groups`` (1: no split), the method's own
  ``criterion`` and ``pooled``;
* a **numeric splitter** takes the node's value table (class counts of each
  distinct value, in increasing order) and returns an
  :class:`~partikit._statistics._results.Intervals`: the ``cuts`` (rows before
  each cut), the increasing ``thresholds`` (empty: no split; value ``x`` goes to
  the child of the number of thresholds it exceeds) and the method's own
  ``criterion``.

The method's own ``criterion`` is what it optimises: the cut weight of a
max-cut, the twoing value, an impurity decrease, a -log10 p-value, the max-cut
metric of a threshold. ``split_score="raw"`` compares attributes by it, as the
papers do.

For a continuous target (the regressor) the tables hold moments (weight, sum,
sum of squares of the target) instead of class counts, and the methods are
those of :data:`REGRESSION_SPLITTERS`.

A method is named by a string (the registry :data:`SPLITTERS`) or given as a
configured estimator: a grouper's ``group_table`` or a discretizer's
``cut_table`` is the same core call with the estimator's own parameters
(:func:`categorical_splitter`, :func:`numeric_splitter`). The tree never names
an estimator class: it only calls those two methods.
"""

from __future__ import annotations

import numpy as np

from partikit._kernels._bipartition import (
    candidate_impurities,
    candidate_twoing_values,
    node_impurity,
)
from partikit._kernels._codes import IMPURITY_CODES as CLASS_IMPURITY_CODES
from partikit._kernels._codes import SQUARED_ERROR
from partikit._statistics._contingency import midpoints
from partikit._statistics._moments import CONTINUOUS, WEIGHT
from partikit._statistics._results import Grouping, Intervals
from partikit.discretizers import (
    choose_arity,
    max_cut_threshold,
    modl_discretization,
    optimal_multisplit,
)
from partikit.groupers import (
    BIPARTITIONS,
    REGRESSION_BIPARTITIONS,
    chaid_grouping,
    khiops_grouping,
    modl_grouping,
    split_cut_weights,
)

#: The nodes' impurities by name: the classifier's, and the regressor's
#: weighted variance.
IMPURITY_CODES = {**CLASS_IMPURITY_CODES, "squared_error": SQUARED_ERROR}


def _no_split(values):
    """The numeric split that makes no cut, on ``values``."""
    return Intervals.from_cuts([], len(values), 0.0, thresholds=np.zeros(0))


def _threshold_split(values, cuts, criterion):
    """The numeric split at ``cuts`` (rows before each cut) of ``values``."""
    return Intervals.from_cuts(
        cuts, len(values), criterion, thresholds=midpoints(values, cuts)
    )


def _split_present_rows(method, table, weights, **options):
    """``method(table[present], **options)`` on the rows of positive weight,
    its groups mapped back to every row of the node table (-1: an empty row).

    Deep nodes of a column of a million categories hold a few of them: the
    method's passes see only those.
    """
    present = np.flatnonzero(weights > 0)
    result = method(table[present], **options)
    child = np.full(len(table), -1, dtype=np.intp)
    child[present] = result.group_ids
    return Grouping(
        child, result.n_groups, result.criterion, result.statistics,
        pooled=result.pooled,
    )  # fmt: skip


def _bipartition_splitter(name):
    method = BIPARTITIONS[name]
    options = {"score": "twoing"} if name == "twoing" else {}

    def split(table, impurity):
        return _split_present_rows(
            method, table, table.sum(axis=1), impurity=impurity, **options
        )

    split.__name__ = f"split_{name}"
    return split


def _grouping_split(result):
    """A grouping core's result (one group per child) as a split: a
    :class:`Grouping` whatever object a grouper's ``group_table`` returned."""
    return Grouping(
        np.asarray(result.group_ids, dtype=np.intp),
        int(result.n_groups),
        float(result.criterion),
        getattr(result, "statistics", {}),
        int(getattr(result, "rare_group", -1)),
    )


def split_khiops(table, impurity):
    """Multiway split by Boulle's robust Khiops grouping (default settings).

    The criterion value is -log10 of the chi2 p-value of the grouped table.
    """
    return _grouping_split(khiops_grouping(table))


def split_modl_grouping(table, impurity):
    """Multiway split by Boulle's MODL grouping (default settings).

    The criterion value is the grouping's compression level, ``1 - cost /
    null_cost``.
    """
    return _grouping_split(modl_grouping(table))


def split_chaid(table, impurity):
    """Multiway split by CHAID merging (default settings).

    The criterion value is -log10 of the Bonferroni-adjusted p-value.
    """
    return _grouping_split(chaid_grouping(table))


def _valid_sizes(sizes, min_leaf):
    return bool(np.all(sizes >= min_leaf))


def _interval_sizes(table, cuts):
    """Weight of each interval of a value table cut at ``cuts``."""
    return np.add.reduceat(table.sum(axis=1), np.concatenate([[0], cuts]))


def _threshold_candidates(values, table, min_leaf):
    """The class totals, the left side of every threshold between consecutive
    values (cumulative rows) and which thresholds leave ``min_leaf`` weight on
    each side; None when there is no valid threshold."""
    if len(values) < 2:
        return None
    total = table.sum(axis=0)
    lefts = np.ascontiguousarray(np.cumsum(table, axis=0)[:-1])
    left_size = lefts.sum(axis=1)
    valid = (left_size >= min_leaf) & (total.sum() - left_size >= min_leaf)
    if not valid.any():
        return None
    return total, lefts, valid


def split_impurity_threshold(values, table, impurity, min_leaf, max_bins):
    """The binary threshold of least weighted impurity (Gini or entropy).

    Every boundary between consecutive distinct values is a candidate; those
    leaving less than ``min_leaf`` weight on a side are not. Ties go to the
    smallest threshold. The criterion value is the impurity decrease.
    """
    candidates = _threshold_candidates(values, table, min_leaf)
    if candidates is None:
        return _no_split(values)
    total, lefts, valid = candidates
    code = IMPURITY_CODES[impurity]
    impurities = candidate_impurities(lefts, total, code)
    impurities[~valid] = np.inf
    best = int(np.argmin(impurities))
    decrease = node_impurity(total, code) - impurities[best]
    return _threshold_split(values, [best + 1], decrease)


def split_max_cut_threshold(values, table, impurity, min_leaf, max_bins):
    """The threshold of largest max-cut metric (Bodine & Hochbaum).

    Thresholds leaving less than ``min_leaf`` weight on a side are not
    candidates (the core's ``min_side_weight``). The criterion value is the
    metric.
    """
    if len(values) < 2:
        return _no_split(values)
    result = max_cut_threshold(values, table, min_side_weight=min_leaf)
    if len(result.thresholds) == 0:
        return _no_split(values)
    return Intervals.from_cuts(
        result.cuts, len(values), result.criterion, thresholds=result.thresholds
    )


def _threshold_criteria(lefts, total, name):
    """The categorical method ``name``'s value of each 2-row table ``{<= v_j},
    {> v_j}``, from the cumulative counts ``lefts`` of the sorted values."""
    if name == "twoing":
        return candidate_twoing_values(lefts, total)
    return split_cut_weights(lefts, total, name.removeprefix("maxcut_"))


def _criterion_threshold_splitter(name):
    """A numeric splitter scoring thresholds as the categorical ``name`` would."""

    def split(values, table, impurity, min_leaf, max_bins):
        candidates = _threshold_candidates(values, table, min_leaf)
        if candidates is None:
            return _no_split(values)
        total, lefts, valid = candidates
        criteria = _threshold_criteria(lefts, total, name)
        criteria[~valid] = -np.inf
        best = int(np.argmax(criteria))  # the first maximum: the smallest threshold
        # a value of 0 separates no class profile from another: the max-cut
        # methods leave such a table unsplit
        if not criteria[best] > 0.0:
            return _no_split(values)
        return _threshold_split(values, [best + 1], criteria[best])

    split.__name__ = f"split_{name}_threshold"
    split.__qualname__ = split.__name__
    split.__doc__ = f"""The threshold of largest ``{name!r}`` value: the thesis's
    numeric attribute under a nominal criterion.

    A numeric attribute with ``t`` distinct values is the collection of its
    ``t - 1`` binary attributes ``x <= v_j`` / ``x > v_j``; its split is the best
    of them under the categorical method ``{name!r}``, and its criterion value
    is that method's value of the binary split (the 2-row table of the two
    sides), computed by the method's own arithmetic for every threshold at
    once. Thresholds leaving less than ``min_leaf`` weight on a side are not
    candidates; ties go to the smallest threshold; a best value of 0 (no
    threshold separates two class profiles) is no split. ``impurity`` and
    ``max_bins`` are not used. O(t J) on the node's value table.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large
       categorical attributes in decision trees", M.Sc. dissertation, PUC-Rio,
       2018, section 4.2.3 ("Handling Numeric Attributes").
    """
    return split


def split_block_opt(values, table, impurity, min_leaf, max_bins):
    """Optimal multiway split (Elomaa & Rousu's Block-Opt with pruning).

    Up to ``max_bins`` intervals; the number is chosen by the MDL code length
    (:func:`~partikit.discretizers.choose_arity`). A split leaving less than
    ``min_leaf`` weight in an interval is rejected. The criterion value is the
    impurity decrease.
    """
    if len(values) < 2:
        return _no_split(values)
    if max_bins is None:
        max_bins = len(values)
    result = optimal_multisplit(table, criterion=impurity, max_bins=max_bins)
    k, _ = choose_arity(result, table)
    cuts = np.asarray(result.cuts[k - 1], dtype=np.intp)
    if len(cuts) == 0:
        return _no_split(values)
    if not _valid_sizes(_interval_sizes(table, cuts), min_leaf):
        return _no_split(values)
    total = table.sum(axis=0)
    parent = node_impurity(total, IMPURITY_CODES[impurity])
    decrease = parent - result.values[k - 1] / total.sum()
    return _threshold_split(values, cuts, decrease)


def split_modl_intervals(values, table, impurity, min_leaf, max_bins):
    """Multiway split by Boulle's MODL discretization.

    Up to ``max_bins`` intervals, their number chosen by the MODL criterion
    (:func:`~partikit.discretizers.modl_discretization`): a node where the
    column tells nothing of the class is not split. A split leaving less than
    ``min_leaf`` weight in an interval is rejected. ``impurity`` is not used.
    The criterion value is the compression level ``1 - cost / null_cost``.
    """
    if len(values) < 2:
        return _no_split(values)
    result = modl_discretization(table, max_bins=max_bins)
    cuts = np.asarray(result.cuts, dtype=np.intp)
    if len(cuts) == 0:
        return _no_split(values)
    if not _valid_sizes(_interval_sizes(table, cuts), min_leaf):
        return _no_split(values)
    return _threshold_split(values, cuts, result.criterion)


#: The splitters by kind and name.
SPLITTERS = {
    "categorical": {
        **{
            name: _bipartition_splitter(name)
            for name in (
                "maxcut_chi2",
                "maxcut_squared_gini",
                "twoing",
                "exhaustive",
                "exact_two_class",
                "pc_ext",
                "largest_alone",
                "list_scheduling",
                "sliq_ext",
                "flip_flop",
            )
        },  # fmt: skip
        "khiops": split_khiops,
        "modl": split_modl_grouping,
        "chaid": split_chaid,
    },
    "numeric": {
        "gini": split_impurity_threshold,
        "entropy": split_impurity_threshold,
        "maxcut": split_max_cut_threshold,
        "block_opt": split_block_opt,
        "modl": split_modl_intervals,
        **{
            name: _criterion_threshold_splitter(name)
            for name in ("twoing", "maxcut_squared_gini", "maxcut_chi2")
        },
    },
}


def _regression_bipartition_splitter(name):
    """The splitter of the moment-table method ``name`` of
    :data:`~partikit.groupers.REGRESSION_BIPARTITIONS`: its two sides are the
    two children, its criterion value the method's own (the decrease of the
    squared error for ``"sort_by_mean"``, the cut weight for
    ``"maxcut_squared_error"``). ``impurity`` is not used (always squared
    error)."""
    method = REGRESSION_BIPARTITIONS[name]

    def split(table, impurity):
        return _split_present_rows(method, table, table[:, WEIGHT])

    split.__name__ = f"split_{name}"
    return split


def split_chaid_continuous(table, impurity):
    """Multiway split by CHAID merging on a moment table (default settings).

    The categories merged by F tests of their means (Kass 1980, the
    continuous-target CHAID), one child per group. The criterion value is -log10
    of the Bonferroni-adjusted p-value. ``impurity`` is not used.
    """
    return _grouping_split(chaid_grouping(table, target_type=CONTINUOUS))


#: The splitters of the regressor (a continuous target, moment tables), by kind
#: and name. ``"squared_error"``, the threshold of least squared error, is one
#: compiled pass over the node's sorted rows for every column at once
#: (:func:`~partikit._kernels._tree.node_squared_error_thresholds`), called by
#: the builder: it has no value-table splitter.
REGRESSION_SPLITTERS = {
    "categorical": {
        **{
            name: _regression_bipartition_splitter(name)
            for name in REGRESSION_BIPARTITIONS
        },
        "chaid": split_chaid_continuous,
    },
    "numeric": {"squared_error": None},
}


def grouper_splitter(grouper, target_type=None):
    """A categorical splitter that groups a node's table with ``grouper``.

    Parameters
    ----------
    grouper : object
        A configured grouper (it has ``group_table``). Its own parameters make the
        grouping; it is called, never changed or fitted.
    target_type : {None, "continuous"}, default=None
        ``"continuous"``: the node tables are moment tables, passed on to
        ``group_table(table, target_type="continuous")`` (a grouper that does
        not read them raises).

    Returns
    -------
    split : callable
        ``split(table, impurity)``: one child per group (``group_ids``, -1 for a
        category absent at the node); the criterion value is the grouping's
        ``criterion`` (-log10 p for Khiops, the adjusted -log10 p for CHAID, the
        cut weight for a max-cut). ``impurity`` is not used: the grouper brings
        its own objective.
    """

    def split(table, impurity):
        if target_type is None:
            return _grouping_split(grouper.group_table(table))
        return _grouping_split(grouper.group_table(table, target_type=target_type))

    split.__name__ = f"split_{type(grouper).__name__}"
    return split


def discretizer_splitter(discretizer):
    """A numeric splitter that cuts a node's value table with ``discretizer``.

    Parameters
    ----------
    discretizer : object
        A configured discretizer (it has ``cut_table``). Its own parameters make
        the cuts (its number of intervals, its impurity, ...); it is called,
        never changed or fitted.

    Returns
    -------
    split : callable
        ``split(values, table, impurity, min_leaf, max_bins)``: thresholds
        halfway between the values on each side of each cut; the split is
        rejected if an interval weighs less than ``min_leaf``. The criterion
        value is the impurity decrease of the cuts, of the node's ``impurity``
        (as for ``"block_opt"``). ``max_bins`` is not used: the discretizer
        brings its own limit.
    """

    def split(values, table, impurity, min_leaf, max_bins):
        if len(values) < 2:
            return _no_split(values)
        cuts = np.asarray(discretizer.cut_table(table).cuts, dtype=np.intp)
        if len(cuts) == 0:
            return _no_split(values)
        sizes = _interval_sizes(table, cuts)
        if not _valid_sizes(sizes, min_leaf):
            return _no_split(values)
        code = IMPURITY_CODES[impurity]
        intervals = np.add.reduceat(table, np.concatenate([[0], cuts]), axis=0)
        children = sum(
            size * node_impurity(row, code)
            for size, row in zip(sizes, intervals, strict=True)
        )
        decrease = node_impurity(table.sum(axis=0), code) - children / sizes.sum()
        return _threshold_split(values, cuts, decrease)

    split.__name__ = f"split_{type(discretizer).__name__}"
    return split


def categorical_splitter(method, target_type=None):
    """The categorical splitter of ``categorical_split``: a name or a grouper,
    for class counts or (``target_type="continuous"``) moment tables."""
    if isinstance(method, str):
        registry = SPLITTERS if target_type is None else REGRESSION_SPLITTERS
        return registry["categorical"][method]
    return grouper_splitter(method, target_type)


def numeric_splitter(method):
    """The numeric splitter of ``numeric_split``: a name or a discretizer (None
    for the regressor's ``"squared_error"``, which the builder streams)."""
    if isinstance(method, str):
        if method in REGRESSION_SPLITTERS["numeric"]:
            return REGRESSION_SPLITTERS["numeric"][method]
        return SPLITTERS["numeric"][method]
    return discretizer_splitter(method)
