# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""CHAID category merging (Kass 1980): the core and the estimator."""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd

from partikit._compat import Interval, RealNotInt, StrOptions, _check_feature_names_in
from partikit._estimator._renames import (
    DEPRECATED,
    Renamed,
    RenamedParametersMixin,
    deprecated_constraints,
    renamed_keywords,
)
from partikit._kernels._chaid import (
    COMPOUND,
    f_pair_statistics,
    group_labels,
    init_state,
    members,
    merge_until,
    nonempty_rows,
    pair_statistics,
    split_group,
)
from partikit._kernels._codes import F_TEST, TEST_CODES
from partikit._kernels._special import log_f_sf
from partikit._statistics._contingency import (
    merge_rows,
    number_by_first_row,
    resolve_count,
)
from partikit._statistics._measures import (
    bonferroni_adjust,
    chi2_statistic,
    g2_statistic,
    log10_bonferroni_floating,
    log10_bonferroni_nominal,
    log10_bonferroni_ordinal,
    log10_chi2_sf,
    significance_order,
)
from partikit._statistics._moments import (
    CONTINUOUS,
    LN10,
    WEIGHT,
    check_moment_table,
    f_test,
    part_means,
    squared_errors,
)
from partikit._statistics._results import Grouping
from partikit._threads import n_cpus, shared_threads
from partikit.groupers._base import BaseGrouper
from partikit.groupers._bipartition import best_chi2_bipartition, sort_by_mean

_MULTIPLIERS = {
    "nominal": log10_bonferroni_nominal,
    "ordinal": log10_bonferroni_ordinal,
    "floating": log10_bonferroni_floating,
}
#: Re-splits allowed per category before re-splitting is switched off (merging
#: and re-splitting can cycle when alpha_resplit > alpha_merge).
_RESPLITS_PER_CATEGORY = 10
#: ``exact_limit="auto"``: nominal columns of up to this many categories are
#: merged exactly (about 0.05 s at 1,024 categories and 10 classes).
AUTO_EXACT_LIMIT = 1024
#: Threads sharing out the initial pair tests of a large table, at most.
_MAX_THREADS = 4
#: Pools of the rare categories of a continuous target past ``exact_limit``:
#: the rare categories are pooled by the rank of their target mean, in this
#: many pools of about equal weight (a classification target pools them by
#: their most frequent class).
MEAN_POOLS = 10
#: The name of the F test in ``statistics["test"]`` (continuous targets).
F_TEST_NAME = "f"


def table_test(table, test="pearson"):
    """Chi-square test of a groups x classes table with the chosen statistic,
    or the F test of a moment table.

    Parameters
    ----------
    table : array-like of shape (n_groups, n_classes) or (n_groups, 3)
    test : {"pearson", "likelihood_ratio", "f"}, default="pearson"
        ``"f"``: ``table`` is a moment table (continuous target), tested by the
        F test of its one-way analysis of variance.

    Returns
    -------
    statistic : float
        Pearson's ``X2``, the likelihood ratio ``G2`` or ``F``.
    dof : int or float
        Degrees of freedom (``F``: of the numerator).
    log10_pvalue : float
    """
    if test == F_TEST_NAME:
        statistic, dfn, _, log10_p, _ = f_test(table)
        return statistic, dfn, log10_p
    statistic, dof = (chi2_statistic if test == "pearson" else g2_statistic)(table)
    return statistic, dof, log10_chi2_sf(statistic, dof)


def _pair_tests(counts, g, partners, test):
    """Statistics and log10 p-values of the pairs of row g with each partner."""
    partners = np.asarray(partners, dtype=np.intp)
    rows_g = np.full(len(partners), g, dtype=np.intp)
    if test == F_TEST_NAME:
        statistics, dfd = f_pair_statistics(counts, rows_g, partners)
        log10_p = np.array(
            [log_f_sf(f, 1.0, d) / LN10 for f, d in zip(statistics, dfd, strict=True)]
        )
        return statistics, log10_p
    statistics, n_present = pair_statistics(counts, rows_g, partners, TEST_CODES[test])
    return statistics, log10_chi2_sf(statistics, np.maximum(n_present - 1, 0))


def _most_similar(counts, g, partners, test):
    """Partner of group g with the largest pairwise p-value (then the smaller
    statistic, then the lower index), and that p-value's log10."""
    partners = np.asarray(partners, dtype=np.intp)
    statistics, log10_p = _pair_tests(counts, g, partners, test)
    best = np.lexsort((partners, statistics, -log10_p))[0]
    return int(partners[best]), float(log10_p[best])


def _merge_phase(
    table, ordinal, test, alpha_merge, min_groups, max_groups, resplit, alpha_resplit
):
    """Labels of the rows of ``table`` after the CHAID merge loop (SPSS steps 2-5)."""
    # the initial tests of a large table in threads (their keys are the same)
    n_threads = min(n_cpus(), _MAX_THREADS)
    code = F_TEST if test == F_TEST_NAME else TEST_CODES[test]
    state = init_state(table, ordinal, code, shared_threads(n_threads), n_threads)
    max_neg_log_alpha = -math.log(alpha_merge)
    max_groups = -1 if max_groups is None else max_groups
    resplit_budget = _RESPLITS_PER_CATEGORY * table.shape[0] if resplit else 0
    n_resplits = 0
    log10_alpha_resplit = math.log10(alpha_resplit)
    while True:
        status, group = merge_until(
            state,
            max_neg_log_alpha,
            min_groups,
            max_groups,
            n_resplits < resplit_budget,
        )
        if status != COMPOUND:
            break
        rows = np.sort(members(state, group))
        if test == F_TEST_NAME:
            side, log10_p = best_mean_bipartition(table[rows], ordered=ordinal)
        else:
            side, log10_p = best_chi2_bipartition(
                table[rows], ordered=ordinal, test=test
            )
        if log10_p <= log10_alpha_resplit:
            split_group(state, group, rows[side])
            n_resplits += 1
            if n_resplits == resplit_budget:
                warnings.warn(
                    f"CHAID re-splitting stopped after {n_resplits} re-splits: "
                    "merging and re-splitting cycle when alpha_resplit > "
                    "alpha_merge. The grouping is what merging gives from there.",
                    UserWarning,
                    stacklevel=4,
                )
    return group_labels(state), n_resplits


def best_mean_bipartition(table, *, ordered=False):
    """Most significant split of the rows of a moment table into two sides.

    Every split of the same rows has the same F degrees of freedom, ``(1, n -
    2)``, and its F statistic grows with the squared error it removes: the most
    significant split is the one of least squared error, found by
    :func:`~partikit.groupers._bipartition.sort_by_mean` (every bipartition,
    Fisher 1958) or, for ordered rows, by the best of the ``m - 1`` cuts.

    Parameters
    ----------
    table : ndarray of shape (m, 3)
        Non-empty moment rows, ``m >= 2``.
    ordered : bool, default=False
        True: only the cuts of the rows in their order.

    Returns
    -------
    side : ndarray of bool of shape (m,)
        Rows on one side (the side without row 0 for a free split; the rows
        after the cut otherwise).
    log10_pvalue : float
        log10 p-value of the F test of the split.

    Notes
    -----
    Ties go to the first cut, or to the split :func:`sort_by_mean` keeps.

    References
    ----------
    .. [1] W. D. Fisher, "On grouping for maximum homogeneity", Journal of the
       American Statistical Association 53(284):789-798, 1958,
       doi:10.1080/01621459.1958.10501479.
    """
    table = np.asarray(table, dtype=np.float64)
    if ordered:
        left = np.cumsum(table, axis=0)[:-1]
        right = table.sum(axis=0) - left
        # the squared error of the two sides of each cut (the parent's is fixed)
        cut = int(np.argmin(squared_errors(left) + squared_errors(right)))
        side = np.arange(len(table)) > cut
    else:
        side = sort_by_mean(table).group_ids == 1
    grouped = np.stack([table[~side].sum(axis=0), table[side].sum(axis=0)])
    return side, f_test(grouped)[3]


def _merge_labels(labels, keep, gone):
    """Merge group ``gone`` into ``keep`` and close the gap in the numbering."""
    low, high = min(keep, gone), max(keep, gone)
    labels = labels.copy()
    labels[labels == high] = low
    labels[labels > high] -= 1
    return labels


def _attach_floating(
    core, floating, labels, test, alpha_merge, allow_single_group, max_groups
):
    """SPSS's floating-category rule.

    The floating row is compared with each group of the ordinal rows; it joins the
    most similar one when the grouped table is then more significant (ties: joins,
    as in SPSS) and, with ``allow_single_group``, also when the two are not
    significantly different (p-value above ``alpha_merge``), as any merge would.
    """
    n_core = int(labels.max()) + 1
    grouped = merge_rows(core, labels, n_core)
    stacked = np.vstack([grouped, floating[None, :]])
    partner, log10_p_pair = _most_similar(stacked, n_core, np.arange(n_core), test)
    separate = np.append(labels, n_core)
    attached = np.append(labels, partner)
    rows = np.vstack([core, floating[None, :]])
    *_, log10_p_attached = table_test(merge_rows(rows, attached, n_core), test)
    *_, log10_p_separate = table_test(merge_rows(rows, separate, n_core + 1), test)
    attach = (
        log10_p_attached <= log10_p_separate
        or (allow_single_group and log10_p_pair > math.log10(alpha_merge))
        or (max_groups is not None and n_core + 1 > max_groups)
    )
    return (attached, -1) if attach else (separate, n_core)


def _absorb_small_groups(rows, labels, floating_label, ordinal, test, min_size):
    """SPSS step 7: merge each group below ``min_size`` into its most similar
    allowed partner, smallest group first."""
    while True:
        n_groups = int(labels.max()) + 1
        if n_groups < 2:
            return labels
        grouped = merge_rows(rows, labels, n_groups)
        totals = grouped[:, WEIGHT] if test == F_TEST_NAME else grouped.sum(axis=1)
        small = np.flatnonzero(totals < min_size)
        if small.size == 0:
            return labels
        g = int(small[np.argmin(totals[small])])
        others = np.delete(np.arange(n_groups), g)
        if ordinal and g != floating_label:
            allowed = np.abs(others - g) == 1
            if floating_label >= 0:
                allowed |= others == floating_label
            # adjacency among the ordinal groups skips the floating group
            others = others[allowed]
        partner, _ = _most_similar(grouped, g, others, test)
        if floating_label in (g, partner):
            floating_label = -1
        elif floating_label > max(g, partner):
            floating_label -= 1
        labels = _merge_labels(labels, partner, g)


def _pool_rare(table, exact_limit, continuous=False):
    """Pool the rarest rows of a nominal table by their most frequent class, or
    by the rank of their mean (a moment table).

    When the table has more than ``exact_limit`` rows, the rows with at most
    ``m`` cases (``m`` the smallest count that leaves at most ``exact_limit -
    n_pools`` rows of their own, ``n_pools`` the number of classes or
    ``MEAN_POOLS``) are pooled: all the pooled rows whose most frequent class
    (the lowest on ties) is ``k`` form one row; for a moment table (``continuous``)
    the pooled rows, sorted by their target mean (stable), are cut into
    ``MEAN_POOLS`` runs of about equal weight. Each pooled row stands at the
    place of its first member.

    Returns
    -------
    pooled : ndarray of float64 of shape (n_kept + n_pools, n_classes)
    row_of : ndarray of intp of shape (n_rows,)
        Row of ``pooled`` holding each row of ``table``.
    n_pooled : int
        Rows of ``table`` pooled.
    n_pools : int
    """
    n_rows, n_classes = table.shape
    totals = table[:, WEIGHT] if continuous else table.sum(axis=1)
    n_keys = MEAN_POOLS if continuous else n_classes
    budget = exact_limit - n_keys
    if budget > 0:
        # the (budget + 1)-th largest count: rows with more are kept
        limit = np.partition(totals, n_rows - budget - 1)[n_rows - budget - 1]
        kept = totals > limit
    else:
        kept = np.zeros(n_rows, dtype=bool)
    # output rows: the kept rows and one pool per key present, each placed at
    # its first member (a sort of at most exact_limit + n_keys entries)
    kept_rows = np.flatnonzero(kept)
    pooled_rows = np.flatnonzero(~kept)
    if continuous:
        # equal-weight runs of the pooled rows in the order of their means
        by_mean = np.argsort(part_means(table[pooled_rows]), kind="stable")
        weights = totals[pooled_rows][by_mean]
        before = np.cumsum(weights) - weights
        pool_class = np.empty(len(pooled_rows), dtype=np.intp)
        pool_class[by_mean] = np.minimum(
            (before * n_keys / max(weights.sum(), 1e-300)).astype(np.intp), n_keys - 1
        )
    else:
        pool_class = table.argmax(axis=1)[pooled_rows]
    first_of_class = np.full(n_keys, n_rows, dtype=np.intp)
    np.minimum.at(first_of_class, pool_class, pooled_rows)
    classes = np.flatnonzero(first_of_class < n_rows)
    firsts = np.concatenate([kept_rows, first_of_class[classes]])
    rank = np.empty(len(firsts), dtype=np.intp)
    rank[np.argsort(firsts, kind="stable")] = np.arange(len(firsts))
    row_of = np.empty(n_rows, dtype=np.intp)
    row_of[kept_rows] = rank[: len(kept_rows)]
    pool_rank = np.zeros(n_keys, dtype=np.intp)
    pool_rank[classes] = rank[len(kept_rows) :]
    row_of[pooled_rows] = pool_rank[pool_class]
    n_out = len(firsts)
    pooled = np.empty((n_out, n_classes))
    for j in range(n_classes):
        pooled[:, j] = np.bincount(row_of, table[:, j], n_out)
    n_pooled = int(n_rows - kept.sum())
    return pooled, row_of, n_pooled, n_out - len(kept_rows)


def _check_moment_table(table):
    """The non-empty rows of a moment table, after checking it."""
    return check_moment_table(table)[:, WEIGHT] > 0


@renamed_keywords(Renamed("max_categories", "exact_limit"))
def chaid_grouping(
    table,
    *,
    ordinal=False,
    floating_row=None,
    alpha_merge=0.05,
    alpha_split=0.05,
    test="pearson",
    resplit=False,
    alpha_resplit=None,
    min_group_size=0,
    max_groups=None,
    allow_single_group=True,
    bonferroni=True,
    exact_limit="auto",
    target_type=None,
):
    """Group the rows of a contingency table by CHAID merging (Kass 1980).

    Repeatedly merges the least significant allowed pair of groups, tested on the
    2 x J table of their own cases, while its p-value is above ``alpha_merge``;
    then tests the grouped table and adjusts its p-value with the Bonferroni
    multiplier of the predictor type.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows). Empty rows get group -1 and do not
        count as categories; empty columns are ignored. Ordinal predictors: rows
        in their order.
    ordinal : bool, default=False
        Only adjacent groups may merge (a "monotonic" predictor).
    floating_row : int or None, default=None
        Ordinal predictors only: the row of the floating category (typically the
        missing values), which may join any group (SPSS's "floating" rule).
    alpha_merge : float, default=0.05
        A pair merges while its p-value is above this; 1 disables merging.
    alpha_split : float, default=0.05
        The predictor is ``significant`` when its adjusted p-value is at most this.
    test : {"pearson", "likelihood_ratio"}, default="pearson"
        Pearson's ``X2`` or the likelihood ratio ``G2``, for the pairs and the
        grouped table.
    resplit : bool, default=False
        After a merge that forms a compound of at least three categories, split it
        back along its most significant binary split if that split's p-value is at
        most ``alpha_resplit`` (Kass's step 3, SPSS's SPLITMERGED).
    alpha_resplit : float or None, default=None
        Level of the re-split test; None means ``alpha_merge``.
    min_group_size : int or float, default=0
        Groups with a smaller (weighted) count are merged into their most similar
        allowed partner after merging, smallest first; a float in (0, 1) is a
        fraction of the total. 0 disables it.
    max_groups : int or None, default=None
        Merging goes on, least significant pair first, until at most this many
        groups remain.
    allow_single_group : bool, default=True
        Whether the last two groups may merge. False reproduces SPSS, which stops
        at two groups.
    bonferroni : bool, default=True
        Adjust the p-value by the number of groupings searched.
    exact_limit : "auto", int or None, default="auto"
        Nominal predictors with more categories pool their rarest ones first: each
        category with at most ``m`` cases, ``m`` the smallest count that leaves
        at most ``exact_limit - n_classes`` categories of their own, joins the
        pool of its most frequent class (the lowest on ties), and the pools are
        merged as categories. Up to this many categories nothing is pooled and
        the merging is exact. ``"auto"``: ``AUTO_EXACT_LIMIT`` (1,024). None
        never pools (cost O(c^2 J) and more). A moment table pools its rarest
        categories (by weight) into ``MEAN_POOLS`` (10) pools of about equal
        weight by the rank of their target mean.
    target_type : {None, "continuous"}, default=None
        ``"continuous"``: ``table`` is a moment table of shape (n_rows, 3), each
        row ``(sum w, sum w y, sum w y^2)`` of a continuous target ``y``
        (:mod:`partikit._statistics._moments`), and every test is the F test of
        a one-way analysis of variance (``test`` is not used): a pair of groups
        by F with ``(1, n_g + n_h - 2)`` degrees of freedom, the grouped table
        by F with ``(r - 1, n - r)`` (the SPSS CHAID algorithm for a
        continuous dependent variable [2]_, Magidson's extension [3]_). None: a
        table of class counts.

    Returns
    -------
    result : Grouping
        ``group_ids`` (the group of each row, numbered 0, 1, ... by first row,
        -1 for an empty row), ``n_groups``, ``criterion`` (-log10 of the
        Bonferroni-adjusted p-value), ``rare_group`` (-1: CHAID has no
        rare-category group), ``pooled`` (False; the rare categories pooled by
        ``exact_limit`` are counted in ``statistics``) and ``statistics``:
        ``chi2`` (the statistic of ``test`` on the grouped table), ``dof``,
        ``log10_pvalue``, ``log10_bonferroni`` (the multiplier),
        ``log10_adjusted_pvalue``, ``pvalue`` and ``adjusted_pvalue`` (plain,
        may underflow to 0), ``significant`` (adjusted p-value at most
        ``alpha_split``), ``predictor`` (``"nominal"``, ``"ordinal"`` or
        ``"floating"``), ``test``, ``n_categories`` (non-empty rows),
        ``n_resplits``, ``n_pooled`` and ``n_pools`` (rare categories pooled by
        ``exact_limit``, and the pools they formed) and
        ``floating_attached`` (floating predictors: whether the floating
        category joined a group). For a moment table ``chi2`` and ``dof`` are
        replaced by ``F``, ``dfn``, ``dfd`` (the F test of the grouped table)
        and ``r2`` (the share of the target's squared error the groups
        explain), and ``test`` is ``"f"``.

    Notes
    -----
    Ties between pairs go to the larger p-value, then the smaller statistic, then
    the lexicographically smallest pair of rows (a group is represented by its
    first row). The Bonferroni multipliers for ``c`` categories and ``r`` groups
    are ``S(c, r)`` (nominal, a Stirling number of the second kind),
    ``C(c - 1, r - 1)`` (ordinal) and ``C(c - 2, r - 2) + r C(c - 2, r - 1)``
    (floating). Cost: O(c^2 J) for a nominal predictor, O(c J + c log c) for an
    ordinal one. Past ``exact_limit`` the nominal merging runs on the pooled
    table, of at most ``exact_limit`` rows, and the Bonferroni multiplier counts
    its rows; ``statistics["n_pooled"]`` and ``statistics["n_pools"]`` record the
    pooling.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.
    .. [2] IBM SPSS Statistics, "CHAID and Exhaustive CHAID Algorithms" (TREE
       command), IBM SPSS Statistics Algorithms: a pair's p-value from the F
       statistic of the one-way ANOVA of its two categories, and the merged
       predictor's from the F test of its groups, Bonferroni-adjusted, for a
       continuous dependent variable.
    .. [3] J. Magidson, "The CHAID approach to segmentation modeling: chi-squared
       automatic interaction detection", in R. P. Bagozzi (ed.), Advanced
       Methods of Marketing Research, Blackwell, 1994, 118-159.

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.groupers import chaid_grouping
    >>> table = np.array([[30, 10], [28, 12], [10, 30], [12, 28]], dtype=float)
    >>> result = chaid_grouping(table)
    >>> result.group_ids
    array([0, 0, 1, 1])
    >>> round(result.statistics["chi2"], 2), result.statistics["adjusted_pvalue"]
    (32.4, 8.78...e-08)
    """
    table = np.ascontiguousarray(table, dtype=np.float64)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D, got shape {table.shape}.")
    continuous = target_type == CONTINUOUS
    if target_type is not None and not continuous:
        raise ValueError(
            f"target_type must be None or 'continuous', got {target_type!r}."
        )
    if continuous:
        row_mask = _check_moment_table(table)
        test = F_TEST_NAME
    else:
        # a table of up to a million categories: one compiled pass checks it and
        # finds the non-empty rows (numpy's check and row sums take three)
        row_mask, valid = nonempty_rows(table)
        if not valid:
            raise ValueError("table must hold finite non-negative counts.")
        if test not in TEST_CODES:
            raise ValueError(
                f"test must be 'pearson' or 'likelihood_ratio', got {test!r}."
            )
    if floating_row is not None and not ordinal:
        raise ValueError("floating_row applies to ordinal predictors only.")
    if alpha_resplit is None:
        alpha_resplit = alpha_merge
    if max_groups is not None and max_groups < 2 and not allow_single_group:
        raise ValueError(
            "max_groups=1 asks for a single group, which allow_single_group=False "
            "forbids."
        )
    nonempty = table if row_mask.all() else table[row_mask]
    # (a moment table keeps its three columns)
    col_mask = np.ones(table.shape[1], bool) if continuous else nonempty.sum(axis=0) > 0
    floating = floating_row is not None and bool(row_mask[floating_row])
    core_mask = row_mask.copy()
    if floating:
        core_mask[floating_row] = False
    core_rows = np.flatnonzero(core_mask)
    # row and column selections only where they drop something (a fancy index of a
    # million-row table takes a second)
    core = table if len(core_rows) == len(table) else table[core_rows]
    if not col_mask.all():
        core = np.ascontiguousarray(core[:, col_mask])
    n_categories = int(row_mask.sum())
    predictor = "floating" if floating else ("ordinal" if ordinal else "nominal")

    n_resplits = 0
    floating_label = -1
    n_pooled = n_pools = 0
    merged = core
    if exact_limit == "auto":
        exact_limit = AUTO_EXACT_LIMIT
    if not ordinal and exact_limit is not None and len(core) > exact_limit:
        merged, row_of, n_pooled, n_pools = _pool_rare(core, exact_limit, continuous)
    if n_categories < 2:
        labels = np.zeros(len(core_rows), dtype=np.intp)
    else:
        labels, n_resplits = _merge_phase(
            merged,
            ordinal,
            test,
            alpha_merge,
            1 if allow_single_group else 2,
            max_groups,
            resplit,
            alpha_resplit,
        )
        if merged is not core:
            labels = labels[row_of]
    rows = core
    if floating:
        floating_counts = table[floating_row, col_mask]
        if len(core_rows):
            labels, floating_label = _attach_floating(
                core,
                floating_counts,
                labels,
                test,
                alpha_merge,
                allow_single_group,
                max_groups,
            )
        else:
            labels = np.zeros(1, dtype=np.intp)
        core_rows = np.append(core_rows, floating_row)
        rows = np.vstack([core, floating_counts[None, :]])
    min_size = 0
    if min_group_size:
        total_weight = nonempty[:, WEIGHT].sum() if continuous else table.sum()
        min_size = resolve_count(min_group_size, float(total_weight))
    if min_size > 0 and n_categories >= 2:
        labels = _absorb_small_groups(
            rows, labels, floating_label, ordinal, test, min_size
        )

    if floating:
        by_row = np.argsort(core_rows)  # the floating row was appended last
        labels, core_rows = labels[by_row], core_rows[by_row]
    group_ids, renumber = number_by_first_row(labels, table.shape[0], core_rows)
    n_groups = int(renumber.max()) + 1 if len(renumber) else 0

    if not col_mask.all():
        nonempty = nonempty[:, col_mask]
    grouped = merge_rows(nonempty, group_ids[row_mask], n_groups)
    if continuous:
        statistic, dof, dfd, log10_p, r2 = f_test(grouped)
    else:
        statistic, dof, log10_p = table_test(grouped, test)
    log10_multiplier = 0.0
    if bonferroni and n_groups >= 1:
        # the groupings searched are those of the (pooled) rows merged
        n_searched = n_categories - n_pooled + n_pools
        log10_multiplier = _MULTIPLIERS[predictor](n_searched, n_groups)
    log10_adjusted = bonferroni_adjust(log10_p, log10_multiplier)
    statistics = (
        {"F": float(statistic), "dfn": dof, "dfd": dfd, "r2": r2}
        if continuous
        else {"chi2": statistic, "dof": dof}
    )
    statistics |= {
        "log10_pvalue": log10_p,
        "log10_bonferroni": log10_multiplier,
        "log10_adjusted_pvalue": log10_adjusted,
        "pvalue": 10.0**log10_p,
        "adjusted_pvalue": 10.0**log10_adjusted,
        "significant": bool(
            n_groups >= 2 and log10_adjusted <= math.log10(alpha_split)
        ),
        "predictor": predictor,
        "test": test,
        "n_categories": n_categories,
        "n_resplits": n_resplits,
        "n_pooled": n_pooled,
        "n_pools": n_pools,
    }
    if floating:
        statistics["floating_attached"] = bool(
            n_categories >= 2 and np.sum(group_ids == group_ids[floating_row]) > 1
        )
    criterion = 0.0 - float(statistics["log10_adjusted_pvalue"])
    return Grouping(group_ids, n_groups, criterion, statistics)


def rank_attributes(statistics):
    """Order attributes by CHAID's selection rule.

    Parameters
    ----------
    statistics : sequence of dict
        One ``statistics`` of :func:`chaid_grouping` per attribute.

    Returns
    -------
    order : ndarray of intp
        Attribute indices, best first: smallest adjusted p-value, then larger
        statistic, then lower index.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.
    """
    return significance_order(
        [s["log10_adjusted_pvalue"] for s in statistics],
        # (a continuous target's statistic: F)
        [s["chi2"] if "chi2" in s else s["F"] for s in statistics],
    )


# --------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------


class CHAIDGrouper(RenamedParametersMixin, BaseGrouper):
    """CHAID merging of categories with Bonferroni-adjusted significance (Kass 1980).

    Learns, for each categorical column, groups of categories by repeatedly merging
    the two groups whose class distributions differ least (largest p-value of the
    chi-square test of their own cases) while that p-value is above
    ``alpha_merge``. Nominal columns may merge any two groups; ordinal columns only
    adjacent ones, so that their groups are intervals of the category order. The
    grouped column is then tested against the class and its p-value adjusted for
    the number of groupings searched. The column is encoded by its groups.

    A continuous target is compared by means instead: two groups are tested by
    the F test of the one-way analysis of variance of their own cases, and the
    grouped column by the F test of its groups (SPSS's CHAID for a continuous
    dependent variable).

    Read more in the :ref:`User Guide <chaid>`.

    Parameters
    ----------
    alpha_merge : float, default=0.05
        Two groups merge while the p-value of their pairwise test is above this.
        1 disables merging.
    alpha_split : float, default=0.05
        A column is flagged ``significant`` in ``statistics_`` when its adjusted
        p-value is at most this (SPSS's ALPHASPLIT); it does not change the groups.
    test : {"pearson", "likelihood_ratio"}, default="pearson"
        Statistic of the pairwise and final tests: Pearson's chi-square or the
        likelihood ratio ``G2``. A continuous target is always tested by the F
        test (this is not used).
    ordinal : None, "all", list or dict, default=None
        Which columns are ordinal (only adjacent categories merge), besides pandas
        ordered ``Categorical`` columns, which always are, in their categories'
        order (``.cat.as_unordered()`` makes one nominal). None: no other column.
        ``"all"``: every column. A list of column names (DataFrame input) or
        indices: those columns, in their categories' sorted order. A dict
        ``{column: order}``: those columns, each with an explicit sequence of its
        categories in order (None for the sorted order); a category seen in fit
        but absent from its order raises a ``ValueError``. Missing values of an
        ordinal column form a floating category.
    resplit : bool, default=False
        After each merge that forms a group of at least three categories, split it
        back along its most significant binary split when that split's p-value is
        at most ``alpha_resplit`` (SPSS's SPLITMERGED). Exhaustive over the
        bipartitions of up to 12 categories, the principal-component ordering
        above that; contiguous cuts for ordinal columns.
    alpha_resplit : float or None, default=None
        Level of the re-split test; None means ``alpha_merge``.
    min_group_size : int or float, default=0
        After merging, a group with a smaller (weighted) count is merged into its
        most similar allowed group, smallest group first. A float in (0, 1) is a
        fraction of the total weight; 0 disables it.
    max_groups : int or None, default=None
        After the ``alpha_merge`` rule, merging goes on (least significant pair
        first) until at most this many groups remain.
    allow_single_group : bool, default=True
        Whether merging by p-value may merge the last two groups, so that a
        column unrelated to the class ends in one group. False reproduces SPSS,
        which never does (``min_group_size`` may still merge them: a group too
        small to stand alone is always absorbed).
    bonferroni : bool, default=True
        Adjust each column's p-value for the number of groupings searched.
    exact_limit : "auto", int or None, default="auto"
        A nominal column with more categories first pools its rarest ones by
        their most frequent class (see the Notes), so that the merging stays
        fast at any number of categories; up to this many the merging is exact
        and nothing changes. ``"auto"``: 1,024. None never pools.
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The kind of target, as scikit-learn's ``TargetEncoder`` takes it.
        ``"auto"``: floats that are not all integers are a continuous target,
        anything else class labels; say ``"continuous"`` for a target of
        integer amounts (prices, counts). A continuous target is read through
        the weight, sum and sum of squares of its values in each category
        (``target_type_`` says which kind the fit read; ``classes_`` is set
        for class labels only).
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output: group ids as float64; one-hot of the groups (sparse CSR or dense);
        or the weight of evidence of each group (binary targets only, computed
        from the groups' class counts with the regularised formula of
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
        optbinning and of credit scorecards [4]_.

        .. versionadded:: 0.2
    handle_unknown : {"default_group", "error"}, default="default_group"
        A category not seen in fit goes to ``default_group_[j]``, or raises a
        ``ValueError`` naming the column and the unseen values.
    n_jobs : int or None, default=None
        Number of columns fitted in parallel (threads). None means 1, -1 all
        processors.

    max_categories : int or None
        The 0.1 name of ``exact_limit``.

        .. deprecated:: 0.2
           Renamed ``exact_limit``; ``max_categories`` will be removed in 0.4.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels seen in fit with positive weight.
    categories_ : list of ndarray
        Per feature, the categories seen in fit with positive weight: sorted for
        nominal columns, in their order for ordinal ones; the missing category
        (``np.nan``) last when present.
    group_ids_ : list of ndarray of int
        Per feature, the group of each category of ``categories_``.
    n_groups_ : ndarray of shape (n_features,)
        Number of groups per feature.
    groups_ : list of list of ndarray
        Per feature, the categories of each group.
    default_group_ : ndarray of shape (n_features,)
        Group of unseen categories: the largest group (lowest id on ties).
    table_ : list of ndarray of shape (n_groups, n_classes)
        Per feature, the (weighted) class counts of each group.
    statistics_ : list of dict
        Per feature, the statistics of the column's grouping: ``chi2``, ``dof``,
        ``log10_pvalue``, ``log10_bonferroni``, ``log10_adjusted_pvalue``,
        ``pvalue``, ``adjusted_pvalue``, ``significant``, ``predictor``,
        ``test``, ``n_categories``, ``n_resplits``, ``n_pooled`` and ``n_pools``
        (categories pooled before merging, and the pools they formed; see
        ``exact_limit``) and ``floating_attached`` (ordinal columns with
        missing values). A continuous target reports ``F``, ``dfn``, ``dfd``
        and ``r2`` (the share of the target's squared error the groups
        explain) instead of ``chi2`` and ``dof``, and ``test`` is ``"f"``.
    woe_ : list of ndarray
        Per feature, the weight of evidence of each group (``encode="woe"`` only).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit. Defined only when ``X`` has feature
        names that are all strings.

    See Also
    --------
    KhiopsGrouper : Robust chi-square grouping with a global criterion.
    chaid_feature_ranking : Rank the columns of X by adjusted p-value.

    Notes
    -----
    *Algorithm* (SPSS's CHAID steps). The pair of groups with the largest
    pairwise p-value is merged while that p-value is above ``alpha_merge``
    (ties: smaller statistic, then the pair of lowest categories). The pairwise
    test uses the two groups' cases only, with ``J_gh - 1`` degrees of freedom
    for the ``J_gh`` classes present in them. Optionally a new compound is
    re-split; then small groups are absorbed. The grouped column's p-value is
    multiplied by ``S(c, r)`` (nominal: the number of partitions of ``c``
    categories into ``r`` groups), ``C(c - 1, r - 1)`` (ordinal) or
    ``C(c - 2, r - 2) + r C(c - 2, r - 1)`` (ordinal with missing values).

    *Missing values.* In a nominal column NaN is a category like any other. In
    an ordinal column the missing category floats: the ordinal categories are
    merged first, then the missing category joins the group most similar to it
    if the grouped column is then more significant (SPSS), or, with
    ``allow_single_group=True``, if it is not significantly different from that
    group (p-value above ``alpha_merge``), as any merge would.

    *Ordinal columns with gaps.* Only the categories seen in fit count: the
    categories on either side of an absent one are adjacent. A value never seen
    in fit (one in a gap included) is an unseen category at transform time.

    *Edge cases.* A single category gives one group and a ``UserWarning``; an
    all-NaN column is a single (missing) category. A target with one class
    raises a ``ValueError``.

    *Complexity.* One pass over the rows builds each column's table. The merging
    reads the table only: O(c^2 J) for a nominal column of ``c`` categories and
    ``J`` classes (each merge re-tests only the new group's pairs), O(c J +
    c log c) for an ordinal one. A long merge returns to Python every few tens of
    milliseconds, so that Ctrl-C interrupts it.

    *Many categories.* A nominal column with more than ``exact_limit``
    categories is not merged category by category: its rarest categories, each
    with at most ``m`` cases (``m`` the smallest count that leaves at most
    ``exact_limit - n_classes`` categories of their own), are first pooled by
    their most frequent class (the lowest class on ties), one pool per class, and
    the pools are merged as categories; the Bonferroni multiplier counts the
    categories and pools merged. Categories of a few cases cannot be told apart by
    a chi-square test, and CHAID would first merge a category of one case with
    the others of its class. ``statistics_[j]["n_pooled"]`` (0: no pooling) and
    ``statistics_[j]["n_pools"]`` record it. Ordinal columns are never pooled.

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.
    .. [2] IBM SPSS Statistics, "TREE: CHAID algorithm", IBM SPSS Statistics
       Algorithms.
    .. [3] D. Biggs, B. de Ville and E. Suen, "A method of choosing multiway
       partitions for classification and decision trees", Journal of Applied
       Statistics 18(1):49-62, 1991, doi:10.1080/02664769100000005.
    .. [4] Siddiqi, N. (2006). Credit Risk Scorecards: Developing and
       Implementing Intelligent Credit Scoring. Wiley. (Weight of evidence and
       its sign in scorecards.)

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.groupers import CHAIDGrouper
    >>> rng = np.random.RandomState(0)
    >>> color = rng.choice(["red", "green", "blue", "black"], size=2000)
    >>> y = np.where(np.isin(color, ["red", "green"]), rng.rand(2000) < 0.8,
    ...              rng.rand(2000) < 0.2)
    >>> grouper = CHAIDGrouper().fit(color.reshape(-1, 1), y)
    >>> grouper.groups_[0]
    [array(['black', 'blue'], dtype=object), array(['green', 'red'], dtype=object)]
    >>> grouper.statistics_[0]["significant"]
    True
    """

    _target_types = ("binary", "multiclass", "continuous")

    _parameter_constraints: dict = {
        **BaseGrouper._parameter_constraints,
        "target_type": BaseGrouper._target_type_constraint,
        "alpha_merge": [Interval(Real, 0, 1, closed="right")],
        "alpha_split": [Interval(Real, 0, 1, closed="right")],
        "test": [StrOptions({"pearson", "likelihood_ratio"})],
        "ordinal": [None, StrOptions({"all"}), list, dict],
        "resplit": ["boolean"],
        "alpha_resplit": [Interval(Real, 0, 1, closed="right"), None],
        "min_group_size": [
            Interval(Integral, 0, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="neither"),
        ],
        "max_groups": [Interval(Integral, 1, None, closed="left"), None],
        "allow_single_group": ["boolean"],
        "bonferroni": ["boolean"],
        "exact_limit": [
            StrOptions({"auto"}),
            Interval(Integral, 2, None, closed="left"),
            None,
        ],
        "max_categories": deprecated_constraints(
            [Interval(Integral, 2, None, closed="left"), None]
        ),
    }
    _renamed_parameters = (Renamed("max_categories", "exact_limit"),)

    def __init__(
        self,
        *,
        alpha_merge=0.05,
        alpha_split=0.05,
        test="pearson",
        ordinal=None,
        resplit=False,
        alpha_resplit=None,
        min_group_size=0,
        max_groups=None,
        allow_single_group=True,
        bonferroni=True,
        exact_limit="auto",
        target_type="auto",
        encode="ordinal",
        woe_sign="event",
        handle_unknown="default_group",
        n_jobs=None,
        max_categories=DEPRECATED,
    ):
        super().__init__(
            encode=encode,
            woe_sign=woe_sign,
            handle_unknown=handle_unknown,
            n_jobs=n_jobs,
        )
        self.target_type = target_type
        self.alpha_merge = alpha_merge
        self.alpha_split = alpha_split
        self.test = test
        self.ordinal = ordinal
        self.resplit = resplit
        self.alpha_resplit = alpha_resplit
        self.min_group_size = min_group_size
        self.max_groups = max_groups
        self.allow_single_group = allow_single_group
        self.bonferroni = bonferroni
        self.exact_limit = exact_limit
        self.max_categories = max_categories

    def _column_keys(self):
        """The column references of ``ordinal``, checked against X."""
        if not isinstance(self.ordinal, (list, dict)):
            return []
        names = getattr(self, "feature_names_in_", None)
        known = set(range(self.n_features_in_))
        if names is not None:
            known |= {str(n) for n in names}
        for key in self.ordinal:
            valid = (
                isinstance(key, (Integral, np.integer))
                and 0 <= key < self.n_features_in_
            ) or (isinstance(key, str) and key in known)
            if not valid:
                raise ValueError(
                    f"ordinal names column {key!r}, which is not a column of X "
                    f"(X has {self.n_features_in_} columns"
                    + (f": {list(names)}" if names is not None else "")
                    + ")."
                )
        return list(self.ordinal)

    def _start_fit(self):
        self._column_keys()
        if self.max_groups == 1 and not self.allow_single_group:
            raise ValueError(
                "max_groups=1 asks for a single group, which allow_single_group=False "
                "forbids."
            )

    def _ordinal_order(self, context):
        """None (nominal column), or the explicit order of an ordinal column
        (an empty tuple meaning the natural order); a table given to
        ``group_table`` (``context=None``) is nominal."""
        if context is None:
            return None
        spec = self.ordinal
        natural = (
            () if context.ordered_categories is None else context.ordered_categories
        )
        if isinstance(spec, dict):
            for key in (context.index, context.name):
                if key in spec:
                    return natural if spec[key] is None else spec[key]
        elif spec == "all" or (
            isinstance(spec, list) and (context.index in spec or context.name in spec)
        ):
            return natural
        return context.ordered_categories

    def _category_order(self, categories, context):
        order = self._ordinal_order(context)
        if order is None or len(order) == 0:
            return None
        order = pd.Index(list(order))
        if order.has_duplicates:
            raise ValueError(
                f"The order given for column {context.name!r} repeats categories."
            )
        position = order.get_indexer(categories)
        if (position < 0).any():
            missing = categories[position < 0][:5].tolist()
            raise ValueError(
                f"Column {context.name!r} has categories {missing} that are not in "
                "the order given for it; an ordinal column's order must list every "
                "category."
            )
        return np.argsort(position, kind="stable")

    def _group_table(self, table, context):
        # a continuous target's tables are moment tables (the F test)
        continuous = getattr(self, "target_type_", None) == CONTINUOUS
        ordinal = self._ordinal_order(context) is not None
        floating_row = table.shape[0] - 1 if ordinal and context.has_missing else None
        return chaid_grouping(
            table,
            ordinal=ordinal,
            floating_row=floating_row,
            alpha_merge=self.alpha_merge,
            alpha_split=self.alpha_split,
            test=self.test,
            resplit=self.resplit,
            alpha_resplit=self.alpha_resplit,
            min_group_size=self.min_group_size,
            max_groups=self.max_groups,
            allow_single_group=self.allow_single_group,
            bonferroni=self.bonferroni,
            exact_limit=self._parameter("exact_limit"),
            target_type=CONTINUOUS if continuous else None,
        )


def chaid_feature_ranking(X, y, *, sample_weight=None, **params):
    """Rank the columns of X by CHAID's adjusted p-value.

    Fits a :class:`CHAIDGrouper` and orders its columns by CHAID's selection rule:
    smallest adjusted p-value first, then larger statistic, then column order. The
    column whose grouping is most significantly related to the target comes
    first: to the class (chi-square test) or, for a continuous target, to its
    mean (F test).

    Parameters
    ----------
    X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
        Categorical columns.
    y : array-like of shape (n_samples,)
        Class labels, or a continuous target (floats, or any numbers with
        ``target_type="continuous"`` in ``params``).
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights.
    **params
        Parameters of :class:`CHAIDGrouper`.

    Returns
    -------
    ranking : pandas.DataFrame
        One row per column, best first, indexed by feature name, with columns
        ``n_groups``, ``chi2``, ``dof``, ``log10_pvalue``,
        ``log10_adjusted_pvalue``, ``adjusted_pvalue`` and ``significant``;
        for a continuous target ``F``, ``dfn``, ``dfd`` and ``r2`` instead of
        ``chi2`` and ``dof`` (columns ranked by the adjusted p-value of the F
        test, then by F).

    References
    ----------
    .. [1] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.groupers import chaid_feature_ranking
    >>> rng = np.random.RandomState(0)
    >>> signal = rng.choice(["a", "b", "c"], size=1000)
    >>> noise = rng.choice(["u", "v"], size=1000)
    >>> y = (signal == "a") ^ (rng.rand(1000) < 0.1)
    >>> X = np.column_stack([noise, signal])
    >>> chaid_feature_ranking(X, y).index.tolist()
    ['x1', 'x0']
    """
    grouper = CHAIDGrouper(**params).fit(X, y, sample_weight=sample_weight)
    order = rank_attributes(grouper.statistics_)
    names = np.asarray(_check_feature_names_in(grouper, None), dtype=object)
    tests = (
        ["F", "dfn", "dfd", "r2"] if "F" in grouper.statistics_[0] else ["chi2", "dof"]
    )
    keys = [*tests, "log10_pvalue", "log10_adjusted_pvalue", "adjusted_pvalue",
            "significant"]  # fmt: skip
    frame = pd.DataFrame(
        {
            "n_groups": grouper.n_groups_[order],
            **{k: [grouper.statistics_[j][k] for j in order] for k in keys},
        },
        index=pd.Index(names[order], name="feature"),
    )
    return frame
