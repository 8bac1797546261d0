# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Binary partitions of the rows of a contingency table (pure cores).

Every method splits the categories (rows) of one table into two non-empty sides and
is registered in :data:`BIPARTITIONS` under its name, with the signature
``method(table, *, impurity="gini", **options) -> Grouping`` (a
:class:`~partikit._statistics._results.Grouping` of two groups, or one when
there is no split). The tree's splitter and the benchmarks call them through the
registry; CHAID's re-split calls :func:`best_chi2_bipartition`.

Notation of the thesis: ``n`` values (rows), ``k`` classes (columns). The impurity
of a split is ``sum_side n_side / N * phi(p_side)``, ``phi`` the Gini index or the
entropy in bits.

References
----------
.. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
   attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018, chapters 3-5.
.. [2] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone, "Classification
   and Regression Trees", Wadsworth, 1984, theorem 4.5.
.. [3] D. Coppersmith, S. J. Hong and J. R. M. Hosking, "Partitioning nominal
   attributes in decision trees", Data Mining and Knowledge Discovery
   3(2):197-217, 1999, doi:10.1023/A:1009869804967.
.. [4] E. Laber, M. Molinaro and F. de A. Mello Pereira, "Binary partitions with
   approximate minimum impurity", ICML 2018, PMLR 80:2854-2862.
.. [5] M. Mehta, R. Agrawal and J. Rissanen, "SLIQ: a fast scalable classifier for
   data mining", EDBT 1996, doi:10.1007/BFb0014141.
.. [6] A. Nadas, D. Nahamoo, M. A. Picheny and J. Powell, "An iterative
   "flip-flop" approximation of the most informative split in the construction
   of decision trees", Proceedings of ICASSP-91, IEEE, 1991.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from partikit._kernels._bipartition import (
    MAX_EXHAUSTIVE_ROWS,
    MAX_TWOING_CLASSES,
    best_mean_prefix,
    candidate_impurities,
    exhaustive_min_impurity,
    node_impurity,
    sliq_search,
    split_impurity,
    superclass_search,
)
from partikit._kernels._chaid import pair_statistics
from partikit._kernels._codes import GINI, IMPURITY_CODES, TEST_CODES, TWOING
from partikit._statistics._contingency import (
    check_table,
    merge_rows,
    number_by_first_row,
)
from partikit._statistics._measures import log10_chi2_sf
from partikit._statistics._moments import WEIGHT, check_moment_table, squared_errors
from partikit._statistics._results import Grouping
from partikit.groupers._max_cut import _max_cut_bipartition

#: Largest number of rows that CHAID's re-split searches exhaustively.
MAX_EXHAUSTIVE_RESPLIT_ROWS = 12
#: Tables of at most this many non-empty rows are never pooled (:func:`pooled_rows`).
MIN_POOLING_ROWS = 1024
#: SLIQ and SLIQ-ext search ``m`` rows of ``k`` classes exactly while ``m^2 k`` is
#: at most this (or ``m <= MIN_POOLING_ROWS``): about 1 s of compiled work.
MAX_SLIQ_WORK = 2**26
#: Twoing searches ``m`` rows of ``k`` classes exactly while ``2^(k-1) m`` is at most
#: this (or ``m <= MIN_POOLING_ROWS``).
MAX_TWOING_WORK = 2**22
#: Rows x superclasses scored per compiled call of Twoing: each call returns to
#: Python (and to Ctrl-C) within a fraction of a second.
TWOING_WORK_PER_CALL = 2**22


class _Prepared(NamedTuple):
    table: np.ndarray  # the checked input table
    rows: np.ndarray  # its non-empty rows
    sub: np.ndarray  # non-empty rows x non-empty classes
    code: int  # impurity code of the kernels


def _prepare(table, impurity):
    if impurity not in IMPURITY_CODES:
        raise ValueError(
            f"impurity must be one of {sorted(IMPURITY_CODES)}, got {impurity!r}."
        )
    table = check_table(table)
    rows = np.flatnonzero(table.sum(axis=1) > 0)
    classes = table.sum(axis=0) > 0
    # one copy at most: a node table of a million categories and 10 classes
    # weighs 80 MB
    if not classes.all():
        sub = np.ascontiguousarray(table[rows][:, classes])
    elif len(rows) < len(table):
        sub = table[rows]
    else:
        sub = table
    return _Prepared(table, rows, sub, IMPURITY_CODES[impurity])


def _split(table, impurity, search):
    """``search(prepared)`` on the non-empty rows and classes of ``table``, or "no
    split" when fewer than two of either remain."""
    prepared = _prepare(table, impurity)
    if prepared.sub.shape[0] < 2 or prepared.sub.shape[1] < 2:
        return _no_split(prepared)
    return search(prepared)


def _result(prepared, side, criterion=None, pooled=False):
    """The :class:`Grouping` of a side array over the non-empty rows: group 0 is
    the side of the first non-empty row, empty rows are -1.

    ``criterion=None`` means the impurity decrease.
    """
    side = np.asarray(side, dtype=bool)
    side = side != side[0]  # the first non-empty row goes to group 0
    group_ids = np.full(prepared.table.shape[0], -1, dtype=np.intp)
    group_ids[prepared.rows] = side
    total = prepared.sub.sum(axis=0)
    value = split_impurity(prepared.sub[~side].sum(axis=0), total, prepared.code)
    if criterion is None:
        criterion = node_impurity(total, prepared.code) - value
    n_groups = 2 if side.any() else 1
    statistics = {"impurity": float(value)}
    return Grouping(group_ids, n_groups, float(criterion), statistics, -1, pooled)


def _no_split(prepared, pooled=False):
    side = np.zeros(prepared.sub.shape[0], dtype=bool)
    if len(side):
        return _result(prepared, side, criterion=0.0, pooled=pooled)
    group_ids = np.full(prepared.table.shape[0], -1, dtype=np.intp)
    return Grouping(group_ids, 0, 0.0, {"impurity": 0.0})


def _best_candidate(prepared, lefts, members):
    """The first candidate of least impurity; ``members[c]`` lists its rows."""
    values = candidate_impurities(
        np.ascontiguousarray(lefts), prepared.sub.sum(axis=0), prepared.code
    )
    best = int(np.argmin(values))
    side = np.ones(prepared.sub.shape[0], dtype=bool)
    side[members(best)] = False
    return _result(prepared, side)


def _superclass_search(table, superclasses, criterion, k_class):
    """:func:`superclass_search` a few superclasses per compiled call, so that a
    long enumeration can be interrupted; the first best split met wins, as in one
    call."""
    per_call = max(1, TWOING_WORK_PER_CALL // table.shape[0])
    best_side, best = None, None
    for start in range(0, superclasses.shape[0], per_call):
        side, score = superclass_search(
            table, superclasses[start : start + per_call], criterion, k_class
        )
        if (
            best_side is None
            or (criterion == TWOING and score > best)
            or (criterion != TWOING and score < best)
        ):
            best_side, best = side, score
    return best_side, best


def _superclass_split(prepared, superclasses, criterion, k_class, max_rows=None):
    # A superclass and its complement define the same two-class problem, but rows
    # tied in their share sort the same way in both, so the two give different
    # prefixes. Every method uses the form with the last class outside, the form
    # Twoing enumerates: Twoing's candidates then include every other method's.
    superclasses = np.where(superclasses[:, -1:] == 1, 1 - superclasses, superclasses)
    superclasses = np.ascontiguousarray(superclasses, dtype=np.uint8)
    table, row_group = prepared.sub, None
    if max_rows is not None and table.shape[0] > max_rows:
        table, row_group = pooled_rows(table, max_rows)
        if table.shape[0] < 2:
            return _no_split(prepared, pooled=True)
    side, score = _superclass_search(table, superclasses, criterion, k_class)
    if row_group is not None:
        side = side[row_group]
    return _result(
        prepared, side, criterion=score if criterion == TWOING else None,
        pooled=row_group is not None,
    )  # fmt: skip


def exact_two_class(table, *, impurity="gini"):
    """Optimal split for two classes by Breiman's sort, O(n log n).

    Rows sorted by their proportion of the first class (stable: ties keep the row
    order); the best of the ``n - 1`` prefixes is an optimal split for any
    concave impurity (Breiman et al. 1984, theorem 4.5).

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows), at most two classes with positive
        counts.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).
    """

    def search(prepared):
        if prepared.sub.shape[1] > 2:
            raise ValueError(
                "exact_two_class needs at most two classes with positive counts; "
                f"this table has {prepared.sub.shape[1]}. Use twoing, pc_ext or a "
                "max-cut method."
            )
        return _superclass_split(prepared, np.array([[1, 0]]), prepared.code, True)

    return _split(table, impurity, search)


def sort_by_mean(table):
    """Optimal split of the rows of a moment table for squared error, O(n log n).

    The regression counterpart of :func:`exact_two_class`: rows sorted by their
    target mean (stable: ties keep the row order); the best of the ``n - 1``
    prefixes minimises the sum of squared errors of the two sides over every
    binary partition of the rows (Fisher 1958; Breiman et al. 1984, section
    9.4). Ties between prefixes keep the first.

    Parameters
    ----------
    table : array-like of shape (n_rows, 3)
        A moment table (weight, weighted sum and weighted sum of squares of
        the target, :mod:`partikit._statistics._moments`) of each category;
        empty rows are ignored.

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the
        other side, -1 for an empty row), ``n_groups`` (2; 1 when there is no
        split, 0 without a non-empty row), ``criterion`` (the decrease of the
        squared error, the parent's minus the two sides'), and
        ``statistics["squared_error"]`` (the two sides' squared error).

    References
    ----------
    .. [1] W. D. Fisher, "On grouping for maximum homogeneity", Journal of the
       American Statistical Association 53(284):789-798, 1958,
       doi:10.1080/01621459.1958.10501479.

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.groupers import sort_by_mean
    >>> table = np.array([[2.0, 2.0, 2.0], [2.0, 10.0, 50.0], [2.0, 3.0, 4.5]])
    >>> sort_by_mean(table).group_ids
    array([0, 1, 0])
    """
    table = check_moment_table(table)
    rows = np.flatnonzero(table[:, WEIGHT] > 0)
    group_ids = np.full(len(table), -1, dtype=np.intp)
    total = table[rows].sum(axis=0)
    parent = float(squared_errors(total))
    if len(rows) < 2:
        group_ids[rows] = 0
        return Grouping(group_ids, len(rows), 0.0, {"squared_error": parent})
    sub = np.ascontiguousarray(table[rows])
    order = np.empty(2 * len(rows), dtype=np.intp)  # (the second half: scratch)
    n_left, value = best_mean_prefix(sub, len(rows), np.empty(len(rows)), order)
    side = np.ones(len(rows), dtype=bool)
    side[order[:n_left]] = False
    side = side != side[0]
    group_ids[rows] = side
    value = float(value)
    return Grouping(group_ids, 2, max(parent - value, 0.0), {"squared_error": value})


def exhaustive(table, *, impurity="gini"):
    """Optimal split by enumeration of all ``2^(n-1) - 1`` splits (n <= 20).

    Splits are met in binary reflected Gray-code order (row 0 fixed on the left);
    ties keep the first one met.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).
    """

    def search(prepared):
        n = prepared.sub.shape[0]
        if n > MAX_EXHAUSTIVE_ROWS:
            raise ValueError(
                f"exhaustive enumerates 2^(n-1) splits and is limited to "
                f"{MAX_EXHAUSTIVE_ROWS} non-empty rows; this table has {n}."
            )
        side, _ = exhaustive_min_impurity(prepared.sub, prepared.code)
        return _result(prepared, side)

    return _split(table, impurity, search)


def _all_superclasses(n_classes):
    """The 2^(k-1) - 1 bipartitions of the classes, the last class always outside,
    in increasing binary code."""
    codes = np.arange(1, 1 << (n_classes - 1))
    inside = (codes[:, None] >> np.arange(n_classes - 1)) & 1
    return np.hstack([inside, np.zeros((len(codes), 1), dtype=inside.dtype)])


def twoing(table, *, impurity="gini", score="impurity"):
    """Best split over all superclass bipartitions (exponential in k).

    For each of the ``2^(k-1) - 1`` ways of grouping the classes into two
    superclasses, the rows are sorted by their proportion of the first superclass
    and the ``n - 1`` prefixes are candidates (Breiman et al. 1984, section 4.2).

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows), at most 20 classes with positive
        counts.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).
    score : {"impurity", "twoing"}, default="impurity"
        ``"impurity"``: the candidate of least ``impurity`` over all ``k`` classes
        wins (the thesis's Twoing, "k-class" scoring; a heuristic for that
        impurity, exact for two classes); ``"twoing"``: the candidate of largest
        twoing value ``p_L p_R / 4 (sum_j |p(j|L) - p(j|R)|)^2`` wins, which is
        the exact maximum over all splits (CART's twoing rule), and it is the
        returned criterion.

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease, or the twoing value with
        ``score="twoing"``; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).

    Notes
    -----
    The search is as above up to ``n`` rows with ``2^(k-1) n <=
    MAX_TWOING_WORK`` (``2^22``; always up to ``MIN_POOLING_ROWS = 1024``); a
    larger table is searched on its rows pooled by :func:`pooled_rows` (then
    ``pooled`` is True), and the twoing maximum is then the maximum over the
    splits that keep each pooled row on one side. Rows with identical class
    profiles are pooled first: they have the same share of every superclass,
    so they are neighbours in every order the search sorts.
    """
    if score not in ("impurity", "twoing"):
        raise ValueError(f"score must be 'impurity' or 'twoing', got {score!r}.")

    def search(prepared):
        n_classes = prepared.sub.shape[1]
        if n_classes > MAX_TWOING_CLASSES:
            raise ValueError(
                f"twoing enumerates 2^(k-1) superclass bipartitions and is limited "
                f"to {MAX_TWOING_CLASSES} classes; this table has {n_classes}. Use "
                "a max-cut method, pc_ext or largest_alone."
            )
        criterion = TWOING if score == "twoing" else prepared.code
        superclasses = _all_superclasses(n_classes)
        return _superclass_split(
            prepared, superclasses, criterion, True, twoing_max_rows(n_classes)
        )

    return _split(table, impurity, search)


def _principal_order(table):
    """Rows sorted by their class profile's score on the first principal component.

    Principal component of the class-probability vectors weighted by row totals
    (Coppersmith, Hong & Hosking 1999), sign fixed so that its largest-magnitude
    entry is positive; ties in score keep the row order.
    """
    totals = table.sum(axis=1)
    profiles = table / totals[:, None]
    mean = totals @ profiles / totals.sum()
    centred = profiles - mean
    covariance = (centred * totals[:, None]).T @ centred
    _, vectors = np.linalg.eigh(covariance)
    direction = vectors[:, -1]
    direction = direction * np.sign(direction[np.argmax(np.abs(direction))])
    return np.argsort(profiles @ direction, kind="stable")


def _identical_rows(profiles):
    """Group of each row of equal rows, numbered by their first row.

    Rows are hashed (each entry's bits mixed by the splitmix64 finaliser, then a
    wrapping dot product) and the hashes factorized, O(m k); a collision, checked
    for, falls back to a sort. Without the mixing, values that differ only in
    their exponent bits differ by a multiple of 2^52 and collide often.
    """
    bits = np.ascontiguousarray(profiles).view(np.uint64)
    mixed = bits ^ (bits >> np.uint64(30))
    mixed *= np.uint64(0xBF58476D1CE4E5B9)
    mixed ^= mixed >> np.uint64(27)
    mixed *= np.uint64(0x94D049BB133111EB)
    mixed ^= mixed >> np.uint64(31)
    multipliers = np.random.default_rng(0).integers(
        1, 2**63, size=bits.shape[1], dtype=np.uint64
    )
    labels, _ = pd.factorize(mixed @ (multipliers | np.uint64(1)))
    _, first = np.unique(labels, return_index=True)
    if np.array_equal(bits, bits[first[labels]]):
        return labels.astype(np.intp)
    _, labels = np.unique(profiles, axis=0, return_inverse=True)
    n_rows = len(profiles)
    return number_by_first_row(labels.ravel(), n_rows, np.arange(n_rows))[0]


def _fuse_identical_profiles(table):
    """Rows with the same class profile (to 12 decimals) summed into one row.

    Returns the fused table and the fused row of each original row; fused rows are
    numbered by their first original row.
    """
    profiles = np.round(table / table.sum(axis=1, keepdims=True), 12)
    fused_of = np.ascontiguousarray(_identical_rows(profiles), dtype=np.intp)
    return merge_rows(table, fused_of, int(fused_of.max()) + 1), fused_of


def pooled_rows(table, max_rows):
    """The rows of a table pooled into at most ``max_rows`` rows.

    The rule of the searches whose cost grows faster than the number of rows
    (SLIQ, SLIQ-ext, Twoing) on tables larger than they search exactly: rows with
    the same class profile (to 12 decimals) are summed first, which for
    categories of one or a few rows each leaves few rows; if more than
    ``max_rows`` remain, they are sorted by their score on the first principal
    component of the class profiles (Coppersmith, Hong & Hosking 1999) and
    consecutive rows are summed into ``max_rows`` blocks of about equal weight (a
    row heavier than a block stays alone).

    Parameters
    ----------
    table : ndarray of float64 of shape (m, n_classes)
        Non-empty rows.
    max_rows : int

    Returns
    -------
    pooled : ndarray of float64 of shape (m', n_classes)
        ``m' <= max_rows`` unless rows of identical profiles alone number more.
    group : ndarray of intp of shape (m,)
        Pooled row of each row of ``table``.
    """
    fused, group = _fuse_identical_profiles(table)
    if fused.shape[0] <= max_rows:
        return fused, group
    order = _principal_order(fused)
    weight = fused.sum(axis=1)[order]
    before = np.cumsum(weight) - weight
    block = np.empty(len(order), dtype=np.intp)
    block[order] = np.minimum(
        (before / weight.sum() * max_rows).astype(np.intp), max_rows - 1
    )
    _, block = np.unique(block, return_inverse=True)
    group = np.ascontiguousarray(block.ravel()[group], dtype=np.intp)
    return merge_rows(table, group, int(group.max()) + 1), group


def sliq_max_rows(n_classes):
    """Most rows SLIQ and SLIQ-ext search without pooling, for ``n_classes``."""
    return max(MIN_POOLING_ROWS, math.isqrt(MAX_SLIQ_WORK // max(n_classes, 1)))


def twoing_max_rows(n_classes):
    """Most rows Twoing searches without pooling, for ``n_classes``."""
    return max(MIN_POOLING_ROWS, MAX_TWOING_WORK >> max(n_classes - 1, 0))


def _principal_component_split(prepared, extended):
    fused, fused_of = _fuse_identical_profiles(prepared.sub)
    m = fused.shape[0]
    if m < 2:
        return _no_split(prepared)
    order = _principal_order(fused)
    prefix = np.cumsum(fused[order], axis=0)[:-1]
    candidates = [prefix]
    if extended:
        # prefix of length i with its last row exchanged for the next one
        i = np.arange(1, m)
        candidates.append(prefix - fused[order[i - 1]] + fused[order[i]])
    lefts = np.stack(candidates, axis=1).reshape(-1, fused.shape[1])
    n_kinds = len(candidates)

    def members(c):
        length, kind = divmod(c, n_kinds)
        fused_rows = order[: length + 1]
        if kind == 1:
            fused_rows = np.append(order[:length], order[length + 1])
        return np.isin(fused_of, fused_rows)

    return _best_candidate(prepared, lefts, members)


def pc(table, *, impurity="gini"):
    """Principal-component split of Coppersmith, Hong & Hosking (1999).

    Rows with the same class profile are fused; the fused rows are sorted by the
    projection of their class-probability vector on the first principal component
    of the profiles (weighted by row totals), and the best of the prefixes wins
    (ties: the shortest prefix). O(n k^2 + k^3 + n log n).

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).

    Notes
    -----
    The paper projects probability vectors, which partikit follows; the thesis
    code projects the count rows.
    """
    return _split(
        table, impurity, lambda p: _principal_component_split(p, extended=False)
    )


def pc_ext(table, *, impurity="gini"):
    """PC with one more candidate per prefix: its last row exchanged for the next.

    Candidates, in tie-break order: for each prefix length ``i = 1 .. n' - 1`` of
    the principal-component order, the prefix ``order[:i]``, then
    ``order[:i - 1] + [order[i]]``.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).
    """
    return _split(
        table, impurity, lambda p: _principal_component_split(p, extended=True)
    )


def _sliq_split(prepared, extended):
    max_rows = sliq_max_rows(prepared.sub.shape[1])
    if prepared.sub.shape[0] <= max_rows:
        side, _ = sliq_search(prepared.sub, prepared.code, extended)
        return _result(prepared, side)
    table, row_group = pooled_rows(prepared.sub, max_rows)
    if table.shape[0] < 2:
        return _no_split(prepared, pooled=True)
    side, _ = sliq_search(table, prepared.code, extended)
    return _result(prepared, side[row_group], pooled=True)


def sliq(table, *, impurity="gini"):
    """SLIQ's greedy search: move one row at a time while the impurity drops.

    All rows start on the left; each step moves to the right the row whose move
    gives the least impurity (ties: lowest row), the first move always, the next
    ones only while they lower the impurity. O(n k) per step, O(n^2 k) in all.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).

    Notes
    -----
    Exact up to ``n`` rows with ``n^2 k <= MAX_SLIQ_WORK`` (``2^26``; always up
    to ``MIN_POOLING_ROWS = 1024``); a larger table is searched on its rows
    pooled by :func:`pooled_rows` (then ``pooled`` is True): every category of a
    pooled row goes to the same side.
    """
    return _split(table, impurity, lambda p: _sliq_split(p, extended=False))


def sliq_ext(table, *, impurity="gini"):
    """SLIQ-ext: SLIQ's moves until one row is left, best split seen kept.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).

    Notes
    -----
    Exact up to ``n`` rows with ``n^2 k <= MAX_SLIQ_WORK`` (``2^26``; always up
    to ``MIN_POOLING_ROWS = 1024``); a larger table is searched on its rows
    pooled by :func:`pooled_rows` (then ``pooled`` is True): every category of a
    pooled row goes to the same side.
    """
    return _split(table, impurity, lambda p: _sliq_split(p, extended=True))


def largest_alone_superclass(class_totals):
    """Superclass of Largest Alone: the most frequent class (ties: the first)."""
    superclass = np.zeros(len(class_totals), dtype=np.uint8)
    superclass[int(np.argmax(class_totals))] = 1
    return superclass


def list_scheduling_superclass(class_totals):
    """Superclass of List Scheduling: the classes balanced into two loads.

    Classes in decreasing frequency (ties: lower index first); the first goes to
    side A, each next one to side B when A's load is at least B's, else to A. The
    superclass is the side with fewer classes (equal sizes: the side of class 0).
    """
    superclass = np.zeros(len(class_totals), dtype=np.uint8)
    loads = [0.0, 0.0]
    for rank, x in enumerate(np.argsort(-np.asarray(class_totals), kind="stable")):
        to = 0 if rank == 0 else (1 if loads[0] >= loads[1] else 0)
        superclass[x] = to
        loads[to] += class_totals[x]
    inside = superclass == 1
    if inside.sum() > (~inside).sum() or (
        inside.sum() == (~inside).sum() and not inside[0]
    ):
        inside = ~inside
    return inside.astype(np.uint8)


def _superclass_heuristic(table, impurity, k_class, make_superclass):
    def search(prepared):
        superclass = make_superclass(prepared.sub.sum(axis=0))[None, :]
        return _superclass_split(prepared, superclass, prepared.code, k_class)

    return _split(table, impurity, search)


def largest_alone(table, *, impurity="gini", k_class=True):
    """Largest Alone: the most frequent class against the others, solved exactly.

    The two superclasses define a two-class problem whose optimal split is found by
    Breiman's sort (O(n log n + n k)); Laber, Molinaro & Mello Pereira (2018)
    show that this superclass is the best single choice for the Gini impurity.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).
    k_class : bool, default=True
        Score the ``n - 1`` candidate prefixes by the impurity of all ``k``
        classes (True) or of the two superclasses (False).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).
    """
    return _superclass_heuristic(table, impurity, k_class, largest_alone_superclass)


def list_scheduling(table, *, impurity="gini", k_class=True):
    """List Scheduling: classes balanced into two superclasses, solved exactly.

    See :func:`list_scheduling_superclass` for the balancing; the two-class
    problem is solved by Breiman's sort. Laber, Molinaro & Mello Pereira (2018)
    show that balanced superclasses are the best choice for the entropy.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits).
    k_class : bool, default=True
        Score the candidate prefixes by the impurity of all ``k`` classes (True)
        or of the two superclasses (False).

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes), ``rare_group`` (-1) and ``pooled`` (True
        when the search ran on pooled rows).
    """
    return _superclass_heuristic(table, impurity, k_class, list_scheduling_superclass)


#: The initial splits of :func:`flip_flop`.
FLIP_FLOP_INITS = ("auto", "largest_alone", "list_scheduling", "random")
#: Least increase of the two-superclass gain that counts as an improvement.
_FLIP_FLOP_TOL = 1e-12


def _two_class_impurity(a, n, code):
    """Impurity of the two-class count vectors ``(a, n - a)``, elementwise (0
    where ``n`` is 0)."""
    a, n = np.broadcast_arrays(np.asarray(a, float), np.asarray(n, float))
    p = np.divide(a, n, out=np.zeros(a.shape), where=n > 0)
    p = np.clip(p, 0.0, 1.0)
    q = 1.0 - p
    if code == GINI:
        return 2.0 * p * q
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
        terms += np.where(q > 0, q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
    return -terms


def superclass_gain(table, side, superclass, code):
    """Impurity decrease of a split of the rows for a two-superclass target.

    The 2 x 2 table of the sides (``side`` True or False) against the classes
    inside (``superclass == 1``) and outside the superclass: the impurity of the
    superclass totals minus the impurity of the split, weighted by side sizes.
    """
    side = np.asarray(side, dtype=bool)
    inside = np.asarray(superclass, dtype=bool)
    total = table.sum(axis=0)
    first = table[side].sum(axis=0)
    n, n_first = total.sum(), first.sum()
    a, b = first[inside].sum(), total[inside].sum()
    parent = _two_class_impurity(b, n, code)
    children = n_first * _two_class_impurity(a, n_first, code) + (
        n - n_first
    ) * _two_class_impurity(b - a, n - n_first, code)
    return float(parent - children / n)


def _best_superclass(table, side, code):
    """The class bipartition of largest two-superclass gain for a split of rows.

    The sides are two "super-values"; ``side`` True (the super-value 1, the
    lighter side; equal weights: the side without row 0) is the first. Classes are
    sorted by their proportion in super-value 1 (decreasing; ties keep the class
    order) and the best of the ``k - 1`` prefixes is the superclass (ties: the
    shortest). With a fixed split the gain is, for the Gini index, ``2 p_1 p_2
    (sum_{c in C} (p(c|1) - p(c|2)))^2``, largest for ``C = {c : p(c|1) >
    p(c|2)}``, a prefix of that order; for the entropy it is the mutual
    information of the two questions, symmetric, so Breiman's theorem on the
    transposed table makes a prefix optimal. Exact, O(n k + k log k).
    """
    side = np.asarray(side, dtype=bool)
    total = table.sum(axis=0)
    first = table[side].sum(axis=0)
    n, n_first = total.sum(), first.sum()
    if n_first > n - n_first or (n_first == n - n_first and side[0]):
        side = ~side
        first = total - first
        n_first = n - n_first
    order = np.argsort(-(first / total), kind="stable")
    a = np.cumsum(first[order])[:-1]
    b = np.cumsum(total[order])[:-1]
    gains = (
        _two_class_impurity(b, n, code)
        - (
            n_first * _two_class_impurity(a, n_first, code)
            + (n - n_first) * _two_class_impurity(b - a, n - n_first, code)
        )
        / n
    )
    superclass = np.zeros(table.shape[1], dtype=np.uint8)
    superclass[order[: int(np.argmax(gains)) + 1]] = 1
    return superclass


def _best_rows_for(table, superclass, code):
    """The split of the rows of least two-superclass impurity (Breiman's sort,
    exact; the same normalisation and tie-breaks as the superclass methods)."""
    if superclass[-1] == 1:
        superclass = 1 - superclass
    side, _ = superclass_search(
        table, np.ascontiguousarray(superclass[None, :], dtype=np.uint8), code, False
    )
    return side.astype(bool)


def _flip_flop_search(table, code, side, max_iter):
    """Flip-Flop's alternation from the split ``side`` of the rows of ``table``.

    Returns ``(best_side, side, superclass, n_iterations)``: the split of least
    ``k``-class impurity met (the initial one included; ties: the first met), and
    the final pair of a split and a superclass, each optimal for the other up to
    ``_FLIP_FLOP_TOL`` when ``n_iterations < max_iter``.
    """
    total = table.sum(axis=0)
    side = np.asarray(side, dtype=bool)
    best_side = side
    best = split_impurity(table[~side].sum(axis=0), total, code)
    superclass = _best_superclass(table, side, code)
    gain = superclass_gain(table, side, superclass, code)
    for iteration in range(1, max_iter + 1):
        new_side = _best_rows_for(table, superclass, code)
        value = split_impurity(table[~new_side].sum(axis=0), total, code)
        if value < best:
            best_side, best = new_side, value
        new_superclass = _best_superclass(table, new_side, code)
        new_gain = superclass_gain(table, new_side, new_superclass, code)
        if not new_gain > gain + _FLIP_FLOP_TOL:
            return best_side, side, superclass, iteration
        side, superclass, gain = new_side, new_superclass, new_gain
    return best_side, side, superclass, max_iter


def flip_flop(table, *, impurity="gini", init="auto", max_iter=100, random_state=None):
    """Flip-Flop: alternate the best class bipartition and the best row split.

    From an initial split of the rows, the two sides become two "super-values"
    and (i) the classes are split into the two superclasses that the split of the
    rows separates best, then (ii) the rows are split by Breiman's sort for that
    two-superclass problem (exact); (i) and (ii) alternate while the
    two-superclass impurity decrease of the pair grows (by more than 1e-12), at
    most ``max_iter`` times. Both steps are exact, so that decrease never drops;
    when the alternation stops before ``max_iter``, the final split and
    superclass are each optimal for the other (a local optimum). The split
    returned is the one of least impurity over all ``k`` classes among the
    initial split and the splits visited (ties: the first met): never worse than
    the initial split, and with two classes the optimum. O(n k + n log n + k log
    k) per iteration, O(max_iter (n k + n log n + k log k)) in all.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {"gini", "entropy"}, default="gini"
        Impurity of the split, weighted by side sizes (entropy in bits), and of
        the two-superclass problems.
    init : {"auto", "largest_alone", "list_scheduling", "random"}, default="auto"
        The initial split: that of :func:`largest_alone` or
        :func:`list_scheduling` (default settings), or each row on a side drawn
        at random (with ``random_state``; one row is moved if a side is empty).
        ``"auto"``: ``"largest_alone"`` for the Gini index,
        ``"list_scheduling"`` for the entropy, the superclasses that Laber,
        Molinaro & Mello Pereira (2018) prove best for each.
    max_iter : int, default=100
        Most alternations of steps (i) and (ii), at least 1.
    random_state : int, RandomState instance or None, default=None
        Seed of ``init="random"``; ignored otherwise.

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the impurity decrease: the parent's impurity
        minus the split's; 0 without a split), ``statistics["impurity"]`` (the impurity
        of the split, weighted by side sizes) and ``statistics["n_iterations"]`` (the
        alternations made; absent without a split), ``rare_group`` (-1) and
        ``pooled`` (False).

    Notes
    -----
    Nadas et al. (1991) maximise the mutual information of the two binary
    questions, which for the entropy is the two-superclass decrease used here.
    For the Gini index, step (i) maximises the same two-superclass Gini decrease
    that step (ii) maximises (not the Gini decrease of the transposed table), so
    that the alternation improves one objective.

    References
    ----------
    .. [1] A. Nadas, D. Nahamoo, M. A. Picheny and J. Powell, "An iterative
       "flip-flop" approximation of the most informative split in the
       construction of decision trees", Proceedings of ICASSP-91, IEEE,
       1991.
    .. [2] E. Laber, M. Molinaro and F. de A. Mello Pereira, "Binary partitions
       with approximate minimum impurity", ICML 2018, PMLR 80:2854-2862.
    .. [3] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
       "Classification and Regression Trees", Wadsworth, 1984, theorem 4.5.
    """
    if init not in FLIP_FLOP_INITS:
        raise ValueError(f"init must be one of {list(FLIP_FLOP_INITS)}, got {init!r}.")
    if (
        isinstance(max_iter, bool)
        or not isinstance(max_iter, (int, np.integer))
        or max_iter < 1
    ):
        raise ValueError(f"max_iter must be an integer >= 1, got {max_iter!r}.")
    if init == "auto":
        init = "largest_alone" if impurity == "gini" else "list_scheduling"

    def search(prepared):
        table = prepared.sub
        if init == "random":
            rng = check_random_state(random_state)
            side = rng.random_sample(table.shape[0]) < 0.5
            if side.all() or not side.any():
                side[rng.randint(table.shape[0])] ^= True
        else:
            make = (
                largest_alone_superclass
                if init == "largest_alone"
                else list_scheduling_superclass
            )
            superclass = make(table.sum(axis=0))
            if superclass[-1] == 1:
                superclass = 1 - superclass
            side, _ = superclass_search(
                table,
                np.ascontiguousarray(superclass[None, :], dtype=np.uint8),
                prepared.code,
                True,
            )
            side = side.astype(bool)
        best_side, _, _, n_iterations = _flip_flop_search(
            table, prepared.code, side, int(max_iter)
        )
        result = _result(prepared, best_side)
        result.statistics["n_iterations"] = n_iterations
        return result

    return _split(table, impurity, search)


def _max_cut_method(weights):
    def method(table, *, impurity="gini", solver="local_search", **options):
        def search(prepared):
            result = _max_cut_bipartition(
                prepared.sub, weights, solver, **options, tests=False
            )
            if result.n_groups < 2:
                return _no_split(prepared)
            cut = result.statistics["cut_weight"]
            return _result(prepared, result.group_ids == 1, cut)

        return _split(table, impurity, search)

    method.__name__ = f"maxcut_{weights}"
    method.__qualname__ = method.__name__
    method.__doc__ = f"""Max-cut split on {weights} edge weights (thesis chapter 4).

    Calls :func:`~partikit.groupers.max_cut_bipartition` with
    ``weights={weights!r}``; the criterion is the cut weight.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Class counts of each category (rows); empty rows and classes are
        ignored.
    impurity : {{"gini", "entropy"}}, default="gini"
        Impurity reported for the split (the cut does not depend on it).
    solver : {{"local_search", "sdp", "exhaustive"}}, default="local_search"
        How the cut is found; see :func:`max_cut_bipartition`.
    **options
        ``n_hyperplanes`` and ``random_state`` of ``solver="sdp"``.

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the other side,
        -1 for an empty row), ``n_groups`` (2; 1 when there is no split, 0 without a
        non-empty row), ``criterion`` (the cut weight; 0 without a split),
        ``statistics["impurity"]`` (the impurity of the split, weighted by side sizes),
        ``rare_group`` (-1) and ``pooled`` (True when the search ran on pooled rows).
    """
    return method


maxcut_squared_gini = _max_cut_method("squared_gini")
maxcut_chi2 = _max_cut_method("chi2")

#: The binary-partition methods by name.
BIPARTITIONS = {
    "exact_two_class": exact_two_class,
    "exhaustive": exhaustive,
    "twoing": twoing,
    "pc": pc,
    "pc_ext": pc_ext,
    "sliq": sliq,
    "sliq_ext": sliq_ext,
    "largest_alone": largest_alone,
    "list_scheduling": list_scheduling,
    "maxcut_squared_gini": maxcut_squared_gini,
    "maxcut_chi2": maxcut_chi2,
    "flip_flop": flip_flop,
}


def maxcut_squared_error(table, *, solver="local_search", **options):
    """Max-cut split of a moment table on squared-error edge weights.

    Calls :func:`~partikit.groupers.max_cut_bipartition` with
    ``target_type="continuous"`` and ``weights="squared_error"``
    (``w_ij = n_i n_j (m_i - m_j)^2 / N^2``), visiting the rows in table
    order; the criterion is the cut weight, ``V(S) - p_L^2 V(L) - p_R^2 V(R)``
    with ``V`` the weighted variance of the category means, which favours
    balanced splits; :func:`sort_by_mean` maximises the decrease of the
    squared error instead.

    Parameters
    ----------
    table : array-like of shape (n_rows, 3)
        A moment table (weight, weighted sum and weighted sum of squares of
        the target) of each category; empty rows are ignored.
    solver : {"local_search", "sdp", "exhaustive"}, default="local_search"
        How the cut is found; see :func:`max_cut_bipartition`.
    **options
        ``n_hyperplanes`` and ``random_state`` of ``solver="sdp"``.

    Returns
    -------
    split : Grouping
        ``group_ids`` (0 for the side of the first non-empty row, 1 for the
        other side, -1 for an empty row), ``n_groups`` (2; 1 when the means
        do not differ, 0 without a non-empty row), ``criterion`` (the cut
        weight; 0 without a split) and ``statistics["squared_error"]`` (the
        two sides' sum of squared errors).

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large
       categorical attributes in decision trees", M.Sc. dissertation, PUC-Rio,
       2018, section 4.2.1.
    """
    if solver == "sort_by_mean":
        raise ValueError("solver='sort_by_mean' is the method 'sort_by_mean'.")
    result = _max_cut_bipartition(
        table, "squared_error", solver, **options, tests=False,
        target_type="continuous",
    )  # fmt: skip
    table = np.asarray(table, dtype=np.float64)
    sides = [table[result.group_ids == g].sum(axis=0) for g in range(2)]
    value = float(squared_errors(np.array(sides)).sum())
    statistics = {"squared_error": value}
    return Grouping(result.group_ids, result.n_groups, result.criterion, statistics)


#: The binary-partition methods of a moment table (continuous target) by name:
#: ``method(table, **options) -> Grouping``, ``table`` of shape (n_rows, 3).
#: ``"sort_by_mean"`` is the exact best split for the squared error (its
#: criterion is the decrease of the squared error); ``"maxcut_squared_error"``
#: a maximum cut of the squared-error weights (its criterion is the cut weight).
REGRESSION_BIPARTITIONS = {
    "sort_by_mean": sort_by_mean,
    "maxcut_squared_error": maxcut_squared_error,
}


def _side_statistics(left, total, test):
    """Statistic and classes present of each split ``(left[k], total - left[k])``."""
    k = left.shape[0]
    stacked = np.ascontiguousarray(np.vstack([left, total - left]), dtype=np.float64)
    # exact zeros for classes a side lacks (total - left may leave rounding dust)
    stacked[stacked < 1e-9 * max(float(total.max()), 1.0)] = 0.0
    return pair_statistics(stacked, np.arange(k), np.arange(k, 2 * k), TEST_CODES[test])


def best_chi2_bipartition(table, *, ordered=False, test="pearson"):
    """Most significant split of the rows of a table into two non-empty sides.

    Parameters
    ----------
    table : ndarray of shape (m, n_classes)
        Non-empty rows, ``m >= 2``.
    ordered : bool, default=False
        True: only the ``m - 1`` cuts of the rows in their order. False: every
        bipartition when ``m <= MAX_EXHAUSTIVE_RESPLIT_ROWS`` (``2^(m-1) - 1`` of
        them), above that the ``m - 1`` cuts of the rows sorted by their principal
        component score (exact for two classes, a heuristic otherwise).
    test : {"pearson", "likelihood_ratio"}, default="pearson"
        Statistic of the two-row table of the sides. Every split has the same
        classes present, hence the same degrees of freedom: the largest statistic
        is the smallest p-value.

    Returns
    -------
    side : ndarray of bool of shape (m,)
        Rows on one side (the side without row 0 for exhaustive searches; the
        rows after the cut otherwise).
    log10_pvalue : float
        log10 p-value of the chi-square test of the split's 2 x J table.

    Notes
    -----
    Ties go to the first split enumerated: smallest cut, or the subsets in
    increasing binary order of their membership mask.

    References
    ----------
    .. [1] D. Coppersmith, S. J. Hong and J. R. M. Hosking, "Partitioning nominal
       attributes in decision trees", Data Mining and Knowledge Discovery
       3(2):197-217, 1999, doi:10.1023/A:1009869804967.
    .. [2] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
       "Classification and Regression Trees", Wadsworth, 1984, theorem 4.5.
    """
    table = np.asarray(table, dtype=np.float64)
    m = table.shape[0]
    if m < 2:
        raise ValueError(f"a bipartition needs at least 2 rows, got {m}.")
    total = table.sum(axis=0)
    if ordered or m > MAX_EXHAUSTIVE_RESPLIT_ROWS:
        order = np.arange(m) if ordered else _principal_order(table)
        left = np.cumsum(table[order], axis=0)[:-1]
        statistics, n_present = _side_statistics(left, total, test)
        cut = int(np.argmax(statistics))
        side = np.zeros(m, dtype=bool)
        side[order[cut + 1 :]] = True
    else:
        # Subsets of rows 1..m-1 (row 0 stays on the other side), all but the
        # empty one: the 2^(m-1) - 1 distinct bipartitions.
        codes = np.arange(1, 1 << (m - 1))
        masks = ((codes[:, None] >> np.arange(m - 1)) & 1).astype(bool)
        right = masks.astype(np.float64) @ table[1:]
        statistics, n_present = _side_statistics(total - right, total, test)
        best = int(np.argmax(statistics))
        side = np.concatenate([[False], masks[best]])
        cut = best
    log10_p = log10_chi2_sf(statistics[cut], n_present[cut] - 1)
    return side, float(log10_p)


__all__ = [
    "BIPARTITIONS",
    "MAX_EXHAUSTIVE_RESPLIT_ROWS",
    "MAX_TWOING_CLASSES",
    "REGRESSION_BIPARTITIONS",
    "best_chi2_bipartition",
    "exact_two_class",
    "exhaustive",
    "flip_flop",
    "largest_alone",
    "list_scheduling",
    "maxcut_chi2",
    "maxcut_squared_error",
    "maxcut_squared_gini",
    "pc",
    "pc_ext",
    "sliq",
    "sliq_ext",
    "sort_by_mean",
    "twoing",
]
