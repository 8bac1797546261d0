# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Max-cut bipartition of categories (Pereira & Laber): the core and the estimator."""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state

from partikit._compat import Interval, StrOptions
from partikit._kernels._max_cut import (
    CHI2,
    CUT,
    MAX_EXHAUSTIVE_VERTICES,
    MAX_MOVES_BASE,
    MAX_MOVES_PER_VERTEX,
    RELATIVE_TOLERANCE,
    SQUARED_ERROR,
    SQUARED_GINI,
    START,
    best_hyperplane_cut,
    chi2_weights,
    dense_search,
    exhaustive_max_cut,
    gini_flip_pass,
    gini_greedy_cut,
    gini_swap_scan,
    greedy_cut,
    local_search,
    pair_weights,
    split_profile_cells,
    split_weights,
    squared_error_flip_pass,
    squared_error_greedy_cut,
    squared_error_swap_scan,
    squared_error_weights,
    squared_gini_weights,
)
from partikit._statistics._contingency import (
    check_table,
    content_keys,
    merge_rows,
    number_by_first_row,
)
from partikit._statistics._measures import chi2_test
from partikit._statistics._moments import (
    CONTINUOUS,
    SUM,
    WEIGHT,
    check_moment_table,
    f_test,
    squared_errors,
)
from partikit._statistics._results import Grouping
from partikit.groupers._base import BaseGrouper

_WEIGHTS = {
    "squared_gini": squared_gini_weights,
    "chi2": chi2_weights,
    "squared_error": squared_error_weights,
}
_KINDS = {"squared_gini": SQUARED_GINI, "chi2": CHI2, "squared_error": SQUARED_ERROR}
#: Weights of a class target and of a continuous target ("auto": the first).
_CLASS_WEIGHTS = ("chi2", "squared_gini")
_CONTINUOUS_WEIGHTS = ("squared_error",)
_SOLVERS = ("local_search", "sdp", "exhaustive", "sort_by_mean")
_ORDERS = ("data", "table")


#: Largest number of categories whose graph is searched with its dense weight
#: matrix (128 MiB); past it, see :func:`max_cut_bipartition`.
MAX_DENSE_VERTICES = 4096

#: Largest number of vertices of the pooled chi-square graph past
#: ``MAX_DENSE_VERTICES`` categories.
MAX_POOLED_VERTICES = 1024

#: Pair evaluations allowed to the swap scans of the matrix-free search, per
#: category (plus a constant).
SWAP_EVALUATIONS_PER_VERTEX = 16

# Inner-loop iterations of one compiled pass: it returns to Python well within a
# second.
_WORK_PER_CALL = 1 << 24


def _max_moves(n_vertices):
    """Moves allowed to one local search: a guard far above what occurs."""
    return MAX_MOVES_BASE + MAX_MOVES_PER_VERTEX * n_vertices


def edge_weights(table, weights="auto", *, target_type=None):
    """Edge weights of the value graph of a table, on the thesis scale.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes) or (n_rows, 3)
        Class counts of each category (rows), or, with
        ``target_type="continuous"``, its moment table (weight, weighted sum
        and weighted sum of squares of the target).
    weights : {"auto", "chi2", "squared_gini", "squared_error"}, default="auto"
        ``"squared_gini"``: ``w_ij = 2 sum_{x != y} A_ix A_jy / N^2`` (Lemma 1 of
        the thesis: a cut weighs ``Gini(S) - p_L^2 Gini(S_L) - p_R^2 Gini(S_R)``).
        ``"chi2"``: Pearson's statistic of the 2 x J table of rows ``i`` and ``j``
        (the pair's own expected counts), divided by ``n - 1`` when ``n > 2``.
        ``"squared_error"`` (continuous target): ``w_ij = n_i n_j (m_i - m_j)^2
        / N^2``, ``n`` a row's weight, ``m`` its target mean and ``N`` the total
        weight; a cut weighs ``V(S) - p_L^2 V(S_L) - p_R^2 V(S_R)``, ``V`` the
        weighted variance of the category means within a set of categories
        (Lemma 1 with the Gini index, the variance of the class indicators,
        replaced by the variance of the target's category means). ``"auto"``:
        ``"chi2"`` for class counts, ``"squared_error"`` for a moment table.
    target_type : {None, "continuous"}, default=None
        ``"continuous"``: ``table`` is a moment table.

        .. versionadded:: 0.2

    Returns
    -------
    weights : ndarray of float64 of shape (n_rows, n_rows)
        Symmetric, zero diagonal.

    Notes
    -----
    For a 0/1 target and categories that each hold one class, the
    squared-error weight is half the squared-Gini weight: the Gini index of two
    classes is twice the variance of the 0/1 indicator.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
       attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018,
       section 4.2.1 (Lemma 1).

    Examples
    --------
    >>> from partikit.groupers import edge_weights
    >>> edge_weights([[4, 0, 1], [0, 3, 1], [2, 2, 0]], weights="squared_gini")
    array([[0.        , 0.22485207, 0.14201183],
           [0.22485207, 0.        , 0.1183432 ],
           [0.14201183, 0.1183432 , 0.        ]])

    A continuous target: two categories of mean 1 and one of mean 3.

    >>> edge_weights([[1, 1, 1], [2, 2, 2], [1, 3, 9]], target_type="continuous")
    array([[0.  , 0.  , 0.25],
           [0.  , 0.  , 0.5 ],
           [0.25, 0.5 , 0.  ]])
    """
    weights = _resolve_weights(weights, target_type)
    table = _check(table, target_type)
    raw = _WEIGHTS[weights](table)
    return raw * _weight_scale(table, weights)


def _resolve_weights(weights, target_type):
    """The weights ``"auto"`` stands for, checked against the target type."""
    if target_type not in (None, CONTINUOUS):
        raise ValueError(
            f"target_type must be None or {CONTINUOUS!r}, got {target_type!r}."
        )
    continuous = target_type == CONTINUOUS
    allowed = _CONTINUOUS_WEIGHTS if continuous else _CLASS_WEIGHTS
    if weights == "auto":
        return allowed[0]
    if weights not in _WEIGHTS:
        raise ValueError(
            f"weights must be one of {['auto', *sorted(_WEIGHTS)]}, got {weights!r}."
        )
    if weights not in allowed:
        kind = "a continuous target" if continuous else "a class target"
        raise ValueError(
            f"weights={weights!r} does not apply to {kind}; use one of "
            f"{['auto', *allowed]}."
        )
    return weights


def _check(table, target_type):
    return (
        check_moment_table(table) if target_type == CONTINUOUS else check_table(table)
    )


def _weight_scale(table, weights):
    """The constant that turns raw kernel weights into the thesis weights."""
    if weights == "squared_error":
        return _scale(float(table[:, WEIGHT].sum()), table.shape[0], weights)
    return _scale(float(table.sum()), table.shape[0], weights)


def _scale(total_weight, n_rows, weights):
    """:func:`_weight_scale` of a table of ``n_rows`` rows weighing ``total_weight``."""
    if weights == "squared_gini":
        return 2.0 / total_weight**2
    if weights == "squared_error":
        return 1.0 / total_weight**2
    return 1.0 / (n_rows - 1) if n_rows > 2 else 1.0


def split_cut_weights(lefts, total, weights="chi2"):
    """Cut weight of each split of a table in two sides, on the thesis scale.

    The cut of the 2-row table ``[lefts[k], total - lefts[k]]`` (its only cut:
    the edge between its two rows), as :func:`max_cut_bipartition` weighs it
    (no division by ``n - 1`` for chi-square weights: the table has 2 rows), for
    every ``k`` at once. With ``lefts`` the cumulative class counts of a numeric
    attribute's sorted values, these are its ``t - 1`` binary attributes
    ``x <= v_j`` scored as the max-cut criterion scores a nominal attribute
    (thesis section 4.2.3).

    Parameters
    ----------
    lefts : ndarray of float64 of shape (n_splits, n_classes)
        Class counts (moments for ``weights="squared_error"``) of one side of
        each split.
    total : ndarray of float64 of shape (n_classes,)
        Class counts (moments) of the table.
    weights : {"chi2", "squared_gini", "squared_error"}, default="chi2"
        Edge weights; see :func:`edge_weights`. The ``"squared_error"`` cut of
        a split is ``n_L n_R (m_L - m_R)^2 / N^2``, its decrease of the squared
        error divided by ``N``.

    Returns
    -------
    cut_weights : ndarray of float64 of shape (n_splits,)
        0 for a split with an empty side.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
       attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018, sections
       4.2.2 and 4.2.3.

    Examples
    --------
    The two thresholds of a numeric attribute with three distinct values:

    >>> import numpy as np
    >>> from partikit.groupers import split_cut_weights
    >>> table = np.array([[4.0, 0.0, 1.0], [0.0, 3.0, 1.0], [2.0, 2.0, 0.0]])
    >>> split_cut_weights(np.cumsum(table, axis=0)[:-1], table.sum(axis=0))
    array([5.25416667, 1.10740741])
    """
    total = np.ascontiguousarray(total, dtype=np.float64)
    lefts = np.ascontiguousarray(lefts, dtype=np.float64)
    raw = split_weights(lefts, total, _KINDS[weights])
    total_weight = total[WEIGHT] if weights == "squared_error" else total.sum()
    return raw * _scale(float(total_weight), 2, weights)


def _sdp_vectors(weights):
    """Unit vectors of the Goemans-Williamson relaxation, one row per vertex.

    Solves ``min tr(W X)`` over correlation matrices ``X`` (positive semidefinite,
    unit diagonal) with cvxpy, and factors ``X = U U^T`` by its eigenvalues
    (negative rounding noise clipped), which also handles a singular ``X``.
    """
    try:
        import cvxpy as cp
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "solver='sdp' needs the optional dependency cvxpy: pip install cvxpy "
            "(or pip install 'partikit[sdp]'). The default solver='local_search' "
            "needs nothing more."
        ) from exc
    n = weights.shape[0]
    scaled = weights / weights.max()
    x = cp.Variable((n, n), symmetric=True)
    problem = cp.Problem(cp.Minimize(cp.trace(scaled @ x)), [x >> 0, cp.diag(x) == 1])
    problem.solve()
    if x.value is None:
        raise RuntimeError(
            f"The SDP relaxation could not be solved (cvxpy status {problem.status})."
        )
    eigenvalues, eigenvectors = np.linalg.eigh((x.value + x.value.T) / 2)
    return np.ascontiguousarray(eigenvectors * np.sqrt(np.clip(eigenvalues, 0, None)))


def _split_impurities(left, total):
    """Gini and entropy (bits) of a split, weighted by side sizes.

    The arithmetic of ``partikit._kernels._bipartition.split_impurity``, in
    plain Python on the two sides' count vectors: the same values, without
    compiling a kernel for a few dozen operations.
    """
    left = [float(c) for c in left]
    right = [float(t) - c for t, c in zip(total, left, strict=True)]
    n_left = 0.0
    for c in left:
        n_left += c
    n_total = 0.0
    for t in total:
        n_total += float(t)
    sizes = (n_left, n_total - n_left)
    gini = entropy = 0.0
    for counts, size in zip((left, right), sizes, strict=True):
        if size <= 0.0:
            continue
        squares = information = 0.0
        for c in counts:
            p = c / size
            squares += p * p
            if c > 0.0:
                information -= p * math.log2(p)
        gini += size * (1.0 - squares)
        entropy += size * information
    return gini / n_total, entropy / n_total


def _single_group(table, present, statistics):
    group_ids = np.where(present, 0, -1).astype(np.intp)
    statistics.update(
        cut_weight=0.0,
        total_weight=0.0,
        certified_ratio=1.0,
        greedy_cut_weight=0.0,
        n_flips=0,
        n_swaps=0,
        gini=0.0,
        entropy=0.0,
        chi2=0.0,
        dof=0,
        log10_pvalue=0.0,
    )
    # impurity of the unsplit node
    if present.any():
        totals = table[present].sum(axis=0)
        statistics["gini"], statistics["entropy"] = _split_impurities(totals, totals)
    return _grouping(group_ids, int(present.any()), statistics)


def _grouping(group_ids, n_groups, statistics):
    """The :class:`Grouping` of a max-cut; its criterion is the cut weight."""
    return Grouping(group_ids, n_groups, float(statistics["cut_weight"]), statistics)


def max_cut_bipartition(
    table,
    *,
    weights="auto",
    solver="local_search",
    n_hyperplanes=50,
    random_state=None,
    order="data",
    target_type=None,
):
    """Split the rows of a table in two by a maximum cut of their value graph.

    Each non-empty row (category) is a vertex of a complete graph whose edge
    ``(i, j)`` weighs how much separating ``i`` from ``j`` is worth
    (:func:`edge_weights`); the two groups are the sides of a cut of large weight.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes) or (n_rows, 3)
        Contingency table (categories x classes), or with
        ``target_type="continuous"`` a moment table (weight, weighted sum and
        weighted sum of squares of the target per category). Empty rows and
        classes are ignored.
    weights : {"auto", "chi2", "squared_gini", "squared_error"}, default="auto"
        Edge weights; see :func:`edge_weights`. ``"auto"``: ``"chi2"`` for class
        counts, ``"squared_error"`` (the only weights of a continuous target)
        for a moment table.

        .. versionchanged:: 0.2
           The default ``"auto"`` is ``"chi2"`` on class counts, the former
           default.
    solver : {"local_search", "sdp", "exhaustive", "sort_by_mean"}, \
            default="local_search"
        ``"local_search"`` (GL in the thesis): GreedyCut, then local search by
        single flips and pair swaps; O(n^2 J) for the weights, O(n^2) for the
        greedy pass and O(n) per flip, up to 4096 rows (see Notes past it).
        ``"sdp"``: Goemans-Williamson, the SDP relaxation solved by cvxpy
        (optional dependency), rounded by ``n_hyperplanes`` random hyperplanes
        (best cut kept), then polished by the same local search; roughly
        O(n^3.5), for up to a few hundred categories.
        ``"exhaustive"``: the maximum cut by enumeration, for at most 20
        categories.
        ``"sort_by_mean"`` (continuous target only): not a cut search but the
        exact best split for the squared error (Fisher 1958): the categories
        sorted by mean, the best of the ``n - 1`` prefixes, O(n log n) for any
        ``n``; see :func:`~partikit.groupers._bipartition.sort_by_mean` and
        the Notes for how its objective relates to the cut.

        .. versionadded:: 0.2
           ``"sort_by_mean"``.
    n_hyperplanes : int, default=50
        Random hyperplanes of the ``"sdp"`` rounding.
    random_state : int, RandomState instance or None, default=None
        Draws the hyperplanes of ``"sdp"``; the other solvers are deterministic.
    order : {"data", "table"}, default="data"
        The order in which the searches visit the rows (see Notes).
        ``"data"``: by decreasing weighted degree (the total weight of a row's
        edges), ties by increasing class counts compared class by class; a
        function of the counts only, so that permuting the rows (renaming the
        categories) permutes the cut (a moment table's rows are first sorted
        by mean, weight and sum of squares). ``"table"``: the rows' order in
        the table, the thesis's.

        .. versionadded:: 0.2
    target_type : {None, "continuous"}, default=None
        ``"continuous"``: ``table`` is a moment table; None: class counts.

        .. versionadded:: 0.2

    Returns
    -------
    result : Grouping
        ``group_ids`` (the side of each row, 0 or 1, numbered by first row: the
        first non-empty row is in group 0; -1 for an empty row); ``n_groups``
        (2, or 1 when there is no informative split: fewer than two non-empty
        rows or classes, or every edge weight zero; 0 for an empty table);
        ``criterion`` (the cut weight, thesis scale; 0 without a split);
        ``rare_group`` (-1); ``pooled`` (False: a pooled graph is reported by
        ``statistics["graph"]``) and ``statistics``: ``weights`` and
        ``solver`` (as asked); ``cut_weight`` (the criterion); ``total_weight``
        (the weight of all edges, an upper bound on the maximum cut);
        ``certified_ratio`` = ``cut_weight / total_weight``, a lower bound on
        the ratio of the cut to the maximum cut, never below 1/2 (every
        returned cut is a 1-flip local optimum or the optimum);
        ``greedy_cut_weight`` (the cut before local search, 0 when the solver
        does not start from it); ``n_flips`` and ``n_swaps`` (local-search
        moves); ``gini`` and ``entropy`` (impurity of the split, entropy in
        bits, weighted by side sizes); ``chi2``, ``dof`` and ``log10_pvalue``
        (Pearson's test of the two groups against the class); ``n_categories``
        (non-empty rows); ``graph`` (``"dense"``, ``"running_sums"`` or
        ``"pooled"``, see the Notes), ``n_vertices`` (vertices of that graph;
        the cut statistics are those of the pooled graph when it is pooled) and
        ``swap_search_complete`` (``False`` when the running-sums swap scan ran
        out of budget). For a continuous target, the class statistics
        (``gini``, ``entropy``, ``chi2``, ``dof``) are replaced by the one-way
        analysis of variance of the two groups: ``f_statistic``, ``dfn``,
        ``dfd``, ``log10_pvalue`` and ``r2``
        (:func:`~partikit._statistics._moments.f_test`), with
        ``squared_error`` (the two groups' sum of squared errors) and
        ``squared_error_decrease`` (the whole's minus the groups'); and
        ``total_weight`` is the weighted variance of the category means.

    Notes
    -----
    GreedyCut places the categories in the visiting order of ``order``: the
    first on the left, each next one on the side that cuts more weight (ties:
    right). Local search then flips the first category, in that order, whose
    move gains more than ``1e-9`` times the total weight, restarting after each
    move; when no flip gains, it swaps the first improving pair ``(i, j)``,
    ``i`` before ``j`` on opposite sides, in lexicographic order. Any cut where
    no single flip gains weighs at least half of the total weight, hence at
    least half of the maximum cut. The exhaustive search keeps, among cuts of
    equal weight, the first it meets in that order.

    *Visiting order.* With ``order="table"`` the rows are visited as the table
    lists them: the estimator's tables list the categories sorted by label,
    so renaming the categories can change the cut. With ``order="data"`` the
    rows are first sorted by their class counts (class by class, increasing),
    the weights computed on that table, and the rows visited by decreasing
    weighted degree, stably; the cut is mapped back to the table's rows. Every
    step then depends on the multiset of rows only: permuting the rows permutes
    the cut (``solver="local_search"`` and ``"exhaustive"``; ``"sdp"`` depends
    on cvxpy's numerics). Rows with identical counts cannot be told apart by
    the data; they keep their table order among themselves. The same order is
    used by the matrix-free and pooled searches below (degrees of the running
    sums' weights, of the pooled graph's vertices).

    *Many categories.* Up to ``MAX_DENSE_VERTICES`` (4096) non-empty rows, the
    weights are a dense matrix and the search is as above
    (``statistics["graph"] == "dense"``). Past it:

    * squared-Gini weights with ``solver="local_search"`` need no matrix
      (``"running_sums"``): a weight is ``n_i n_j - <A_i, A_j>``, so the weight
      of a row to a side, hence GreedyCut (same decisions) and any flip gain,
      come from the side's total and class counts in O(J). Flips are made in
      passes in the visiting order until a pass flips none; the swap scan tries
      only partners with ``2 n_i n_j`` above the bound a gain needs (exact pruning),
      within ``SWAP_EVALUATIONS_PER_VERTEX`` (16) pair evaluations per row plus
      four million, after which the search stops at a 1-flip local optimum
      (``swap_search_complete`` is False). O(n J) memory.
    * otherwise (chi-square weights, or ``solver="sdp"``) the rows are pooled
      into at most ``MAX_POOLED_VERTICES`` (1024) vertices (``"pooled"``): rows
      with identical counts first (exact: some maximum cut keeps such twins
      together), then, if more distinct rows remain, cells of a k-d split of
      the class profiles (each cell cut on the class whose proportion varies
      most, at the weighted median). Cells ``a``, ``b`` are joined by an edge
      of weight ``m_a m_b w(mean_a, mean_b)`` (every row replaced by its cell's
      mean row) and the dense search runs on that graph; its statistics are
      the pooled graph's.

    *Continuous target.* With ``weights="squared_error"``, ``w_ij = n_i n_j
    (m_i - m_j)^2 / N^2``, the cut of ``(L, R)`` is ``V(S) - p_L^2 V(L) - p_R^2
    V(R)`` with ``V`` the weighted variance of the category means and ``p`` the
    sides' shares of the weight; multiplied by ``N`` it is ``D + (n_R B_L +
    n_L B_R) / N``, where ``D = n_L n_R (m_L - m_R)^2 / N`` is the decrease of
    the squared error that ``solver="sort_by_mean"`` maximises exactly and
    ``B_L``, ``B_R`` are the between-category squared errors within each side.
    The cut therefore also rewards sides whose categories are spread out: it
    favours balanced splits, as the squared Gini does, and its maximum need not
    be a prefix of the categories sorted by mean (three categories of means
    -1, 0, 1 and weights 1, 5, 1: the maximum cut puts the middle one alone,
    a split that leaves the squared error unchanged). Both objectives depend
    on the categories' weights and means only, not on the spread of the
    target within a category. The weights have rank 3 (``n_i q_j + n_j q_i -
    2 s_i s_j`` with ``s = n m``, ``q = n m^2``), so past 4096 categories
    ``solver="local_search"`` runs on running sums in O(1) per category
    (``"running_sums"``), and ``"sdp"`` on at most 1024 cells of consecutive
    means whose weights are exact sums over the cells (``"pooled"``). For two
    categories, or for a split of a numeric attribute into two intervals, the
    two objectives rank the splits alike (:func:`split_cut_weights`).

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
       attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018, chapter 4.
    .. [2] E. S. Laber and F. de A. Mello Pereira, "Splitting criteria for
       classification problems with multi-valued attributes and large number of
       classes", Pattern Recognition Letters 111:58-63, 2018,
       doi:10.1016/j.patrec.2018.04.013.
    .. [3] M. X. Goemans and D. P. Williamson, "Improved approximation algorithms
       for maximum cut and satisfiability problems using semidefinite
       programming", Journal of the ACM 42(6):1115-1145, 1995,
       doi:10.1145/227683.227684.
    .. [4] W. D. Fisher, "On grouping for maximum homogeneity", Journal of the
       American Statistical Association 53(284):789-798, 1958,
       doi:10.1080/01621459.1958.10501479.
    .. [5] L. Breiman, J. H. Friedman, R. A. Olshen and C. J. Stone,
       "Classification and Regression Trees", Wadsworth, 1984, section 9.4.

    Examples
    --------
    >>> from partikit.groupers import max_cut_bipartition
    >>> table = [[4, 0, 1], [0, 3, 1], [2, 2, 0], [1, 0, 3]]
    >>> result = max_cut_bipartition(table, weights="squared_gini")
    >>> result.group_ids
    array([0, 1, 1, 0])
    >>> round(result.statistics["cut_weight"], 4)
    0.4014

    A continuous target: the moment table of three categories of means -1, 0
    and 1 and weights 1, 5 and 1 (unit variance within each). The maximum cut
    isolates the heavy middle category; the best split for squared error cuts
    off an end:

    >>> table = [[1, -1, 2], [5, 0, 5], [1, 1, 2]]
    >>> max_cut_bipartition(table, target_type="continuous").group_ids
    array([0, 1, 0])
    >>> split = max_cut_bipartition(
    ...     table, target_type="continuous", solver="sort_by_mean"
    ... )
    >>> split.group_ids
    array([0, 1, 1])
    """
    return _max_cut_bipartition(
        table,
        weights,
        solver,
        n_hyperplanes,
        random_state,
        order=order,
        target_type=target_type,
    )


def _max_cut_bipartition(
    table, weights, solver, n_hyperplanes=50, random_state=None, tests=True,
    order="table", target_type=None,
):  # fmt: skip
    """:func:`max_cut_bipartition`; ``tests=False`` leaves out the statistics of
    the split table (impurities, chi-square test), which a caller that needs
    only the cut (a tree's splitter, at every node) would not read: their
    p-value is one more kernel for a cold first fit to compile.

    ``order`` defaults to ``"table"`` here: the registry's ``maxcut_*`` methods
    call this function, and the tree's compiled splitter
    (:func:`~partikit._kernels._tree.node_max_cuts`) visits the categories in
    table order too, so that the tree's two paths make the same cuts and the
    thesis reproductions are unchanged."""
    weights = _resolve_weights(weights, target_type)
    if solver not in _SOLVERS:
        raise ValueError(f"solver must be one of {list(_SOLVERS)}, got {solver!r}.")
    if order not in _ORDERS:
        raise ValueError(f"order must be one of {list(_ORDERS)}, got {order!r}.")
    if target_type == CONTINUOUS:
        return _continuous_max_cut(
            check_moment_table(table),
            solver,
            n_hyperplanes,
            random_state,
            tests,
            order,
        )
    if solver == "sort_by_mean":
        raise ValueError(
            "solver='sort_by_mean' splits a continuous target (a moment table, "
            "target_type='continuous'); for class counts use 'local_search', "
            "'sdp' or 'exhaustive'."
        )
    table = check_table(table)
    row_totals = table.sum(axis=1)
    present = row_totals > 0
    rows = np.flatnonzero(present)
    classes = table.sum(axis=0) > 0
    sub = table[rows] if classes.all() else table[rows][:, classes]
    sub = np.ascontiguousarray(sub)
    # empty classes add zeros: the same totals
    totals = row_totals[rows]
    n = len(rows)
    statistics = {"weights": weights, "solver": solver, "n_categories": n}
    if n < 2 or sub.shape[1] < 2:
        return _single_group(table, present, statistics)
    if solver == "exhaustive" and n > MAX_EXHAUSTIVE_VERTICES:
        raise ValueError(
            f"solver='exhaustive' enumerates 2^(n-1) cuts and is limited to "
            f"{MAX_EXHAUSTIVE_VERTICES} categories; this table has {n}. Use "
            "solver='local_search' or 'sdp'."
        )
    # order="data": the search sees the rows sorted by their counts (row k of
    # `searched` is row placement[k] of `sub`), then by decreasing degree
    by_data = order == "data"
    placement = np.lexsort(sub.T[::-1]) if by_data else np.arange(n)
    searched = np.ascontiguousarray(sub[placement]) if by_data else sub
    searched_totals = totals[placement]
    if (
        n > MAX_DENSE_VERTICES
        and solver == "local_search"
        and weights == "squared_gini"
    ):
        if by_data:
            visit = _visiting_order(_gini_degrees(searched, searched_totals))
            placement = placement[visit]
            searched = np.ascontiguousarray(searched[visit])
            searched_totals = searched_totals[visit]
        found = _running_sums_search(searched, searched_totals)
        graph, n_vertices = "running_sums", n
    else:
        cells = None
        if n > MAX_DENSE_VERTICES:
            cells, multiplicity = _profile_cells(searched, searched_totals)
            raw = _pooled_weights(searched, cells, multiplicity, weights)
            graph, n_vertices = "pooled", len(multiplicity)
            if by_data:
                # the vertices are the cells: visit them by degree, and give
                # each row its cell's position in the visit
                visit = _visiting_order(raw.sum(axis=1))
                raw = np.ascontiguousarray(raw[np.ix_(visit, visit)])
                position = np.empty_like(visit)
                position[visit] = np.arange(len(visit))
                cells = position[cells]
            found = _dense_search(raw, solver, n_hyperplanes, random_state)
        else:
            graph, n_vertices = "dense", n
            if by_data:
                raw = pair_weights(searched, _KINDS[weights])
                visit = _visiting_order(raw.sum(axis=1))
                placement = placement[visit]
                # the weights of the visited table: a pair's weight does not
                # depend on which row comes first, so this is exactly
                # pair_weights(searched[visit])
                raw = np.ascontiguousarray(raw[np.ix_(visit, visit)])
                found = _dense_search(raw, solver, n_hyperplanes, random_state)
            else:
                # local search starts from GreedyCut, made as the weights are
                greedy = (
                    np.zeros(n, dtype=np.uint8) if solver == "local_search" else None
                )
                raw = pair_weights(sub, _KINDS[weights], greedy)
                found = _dense_search(raw, solver, n_hyperplanes, random_state, greedy)
    if found is None:
        return _single_group(table, present, statistics)
    found_side, values = found
    if graph == "pooled":
        found_side = found_side[cells]
    side = np.empty_like(found_side)
    side[placement] = found_side
    value, total_raw, greedy_value, n_flips, n_swaps, complete = values
    scale = _weight_scale(sub, weights)
    group_ids, _ = number_by_first_row(side, table.shape[0], rows)
    statistics.update(
        cut_weight=float(value * scale),
        total_weight=float(total_raw * scale),
        certified_ratio=float(value / total_raw),
        greedy_cut_weight=float(greedy_value * scale),
        n_flips=int(n_flips),
        n_swaps=int(n_swaps),
        graph=graph,
        n_vertices=int(n_vertices),
        swap_search_complete=bool(complete),
    )
    if not tests:
        return _grouping(group_ids, 2, statistics)
    if n > MAX_DENSE_VERTICES:
        # np.add.at of merge_rows is slow on a million rows; two masked sums
        # give the same counts.
        first = group_ids[rows] == 0
        grouped = np.stack([sub[first].sum(axis=0), sub[~first].sum(axis=0)])
    else:
        grouped = merge_rows(table[rows], group_ids[rows], 2)
    chi2, dof, log10_p = chi2_test(grouped)
    gini, entropy = _split_impurities(grouped[0], grouped.sum(axis=0))
    statistics.update(
        gini=gini,
        entropy=entropy,
        chi2=float(chi2),
        dof=int(dof),
        log10_pvalue=float(log10_p),
    )
    return _grouping(group_ids, 2, statistics)


def _continuous_max_cut(table, solver, n_hyperplanes, random_state, tests, order):
    """:func:`_max_cut_bipartition` of a checked moment table.

    The search runs on the standardised means ``z = (m - mean) / sd`` (``sd``
    the weighted standard deviation of the category means): the weights are
    ``sd^2`` times those of the means, the same cuts, and the running sums do
    not cancel. Values are reported on the thesis scale of the means.
    """
    present = table[:, WEIGHT] > 0
    rows = np.flatnonzero(present)
    sub = np.ascontiguousarray(table[rows])
    n = len(rows)
    statistics = {"weights": "squared_error", "solver": solver, "n_categories": n}
    if solver == "exhaustive" and n > MAX_EXHAUSTIVE_VERTICES:
        raise ValueError(
            f"solver='exhaustive' enumerates 2^(n-1) cuts and is limited to "
            f"{MAX_EXHAUSTIVE_VERTICES} categories; this table has {n}. Use "
            "solver='local_search', 'sdp' or 'sort_by_mean'."
        )
    # order="data": the rows in an order of their moments only (by mean,
    # weight, sum of squares), so that every sum below, hence every decision,
    # is the same for any permutation of the rows; then visited by decreasing
    # degree n_i sum_j n_j (z_i - z_j)^2 = n_i (N z_i^2 + sum_j n_j z_j^2)
    # (sum_j n_j z_j = 0), the same closed form for every graph
    placement = _moment_order(sub) if order == "data" else np.arange(n)
    sizes = sub[placement, WEIGHT]
    grand = float(sizes.sum())
    means = sub[placement, SUM] / sizes if n else sizes
    centre = float(sizes @ means) / grand if n else 0.0
    spread = float(sizes @ (means - centre) ** 2) / grand if n else 0.0
    if n < 2 or not spread > 0:
        return _single_continuous_group(table, present, rows, statistics)
    z = (means - centre) / math.sqrt(spread)
    if order == "data" and solver != "sort_by_mean":
        visit = _visiting_order(sizes * (grand * z**2 + float(sizes @ z**2)))
        placement, sizes, z = placement[visit], sizes[visit], z[visit]
    searched_sizes = np.ascontiguousarray(sizes)
    searched_z = np.ascontiguousarray(z)
    cells = None
    greedy_value = 0.0
    n_flips = n_swaps = 0
    complete = True
    if solver == "sort_by_mean":
        # the exact squared-error split; one implementation, in _bipartition
        from partikit.groupers._bipartition import sort_by_mean

        side = (sort_by_mean(sub[placement]).group_ids == 1).astype(np.uint8)
        graph, n_vertices = "sorted_means", n
    elif n > MAX_DENSE_VERTICES and solver == "local_search":
        side, greedy_value, n_flips, n_swaps, complete = (
            _squared_error_running_sums_search(searched_sizes, searched_z)
        )
        graph, n_vertices = "running_sums", n
    else:
        vertex_sizes, vertex_z = searched_sizes, searched_z
        graph, n_vertices = "dense", n
        if n > MAX_DENSE_VERTICES:
            cells, vertex_moments = _mean_cells(searched_sizes, searched_z)
            graph, n_vertices = "pooled", len(vertex_moments)
            raw = _pooled_squared_error_weights(vertex_moments)
        else:
            standard = np.column_stack(
                [vertex_sizes, vertex_sizes * vertex_z, vertex_sizes * vertex_z**2]
            )
            greedy = np.zeros(n, dtype=np.uint8) if solver == "local_search" else None
            raw = pair_weights(standard, SQUARED_ERROR, greedy)
        if graph == "pooled":
            greedy = None
            if order == "data":
                visit = _visiting_order(raw.sum(axis=1))
                raw = np.ascontiguousarray(raw[np.ix_(visit, visit)])
                position = np.empty_like(visit)
                position[visit] = np.arange(len(visit))
                cells = position[cells]
        found = _dense_search(raw, solver, n_hyperplanes, random_state, greedy)
        side, values = found
        _, _, greedy_value, n_flips, n_swaps, complete = values
        if cells is not None:
            side = side[cells]
    side = np.ascontiguousarray(side, dtype=np.uint8)
    value = _squared_error_cut(searched_sizes, searched_z, side)
    total_raw = grand * grand  # sum_{i<j} n_i n_j (z_i - z_j)^2 = N sum n z^2
    found_side = np.empty_like(side)
    found_side[placement] = side
    scale = spread / grand**2
    group_ids, _ = number_by_first_row(found_side, table.shape[0], rows)
    statistics.update(
        cut_weight=float(value * scale),
        total_weight=float(total_raw * scale),
        certified_ratio=float(value / total_raw),
        greedy_cut_weight=float(greedy_value * scale),
        n_flips=int(n_flips),
        n_swaps=int(n_swaps),
        graph=graph,
        n_vertices=int(n_vertices),
        swap_search_complete=bool(complete),
    )
    if tests:
        first = group_ids[rows] == 0
        grouped = np.stack([sub[first].sum(axis=0), sub[~first].sum(axis=0)])
        statistics.update(_continuous_tests(grouped))
    return _grouping(group_ids, 2, statistics)


def _moment_order(sub):
    """Rows of a moment table by mean, then weight, then sum of squares (stable).

    One sort by mean; only the rows whose mean ties another's are sorted by
    the other keys (a full three-key lexsort of a million rows costs a second).
    """
    means = sub[:, SUM] / sub[:, WEIGHT]
    order = np.argsort(means, kind="stable")
    sorted_means = means[order]
    tied = np.flatnonzero(sorted_means[1:] == sorted_means[:-1])
    if len(tied):
        in_tie = np.zeros(len(order), dtype=bool)
        in_tie[tied] = True
        in_tie[tied + 1] = True
        positions = np.flatnonzero(in_tie)
        members = order[positions]
        keys = (sub[members, 2], sub[members, WEIGHT], means[members])
        order[positions] = members[np.lexsort(keys)]
    return order


def _continuous_tests(grouped):
    """F-test, R^2 and squared errors of the groups of a moment table."""
    f_statistic, dfn, dfd, log10_p, r2 = f_test(grouped)
    within = float(squared_errors(grouped).sum())
    whole = float(squared_errors(grouped.sum(axis=0)))
    return {
        "f_statistic": float(f_statistic),
        "dfn": float(dfn),
        "dfd": float(dfd),
        "log10_pvalue": float(log10_p),
        "r2": float(r2),
        "squared_error": within,
        "squared_error_decrease": max(whole - within, 0.0),
    }


def _single_continuous_group(table, present, rows, statistics):
    group_ids = np.where(present, 0, -1).astype(np.intp)
    statistics.update(
        cut_weight=0.0,
        total_weight=0.0,
        certified_ratio=1.0,
        greedy_cut_weight=0.0,
        n_flips=0,
        n_swaps=0,
    )
    statistics.update(_continuous_tests(table[rows].sum(axis=0, keepdims=True)))
    return _grouping(group_ids, int(present.any()), statistics)


def _squared_error_cut(sizes, z, side):
    """``sum_{i in L, j in R} n_i n_j (z_i - z_j)^2`` of a cut, in O(n).

    ``n_L n_R (M_L - M_R)^2 + n_R B_L + n_L B_R`` with ``M`` a side's mean of
    ``z`` and ``B`` its squared error about it (non-negative terms: no
    cancellation).
    """
    right = side.astype(bool)
    value = 0.0
    sums = []
    for members in (~right, right):
        weight = float(sizes[members].sum())
        mean = float(sizes[members] @ z[members]) / weight if weight > 0 else 0.0
        spread = float(sizes[members] @ (z[members] - mean) ** 2)
        sums.append((weight, mean, spread))
    (n_l, m_l, b_l), (n_r, m_r, b_r) = sums
    value = n_l * n_r * (m_l - m_r) ** 2 + n_r * b_l + n_l * b_r
    return value


def _mean_cells(sizes, z, max_cells=None):
    """Pool the categories into at most ``max_cells`` cells of consecutive means.

    Categories of one mean always share a cell: exact, since their weights to
    every other category are proportional to their sizes and zero between
    them, some maximum cut keeps them together. When more than ``max_cells``
    distinct means remain, the runs of equal means (sorted) are cut into cells
    of about equal weight: a cell ends after the run where the cumulative
    weight crosses a multiple of ``N / (max_cells - 1)`` (the first run always
    ends one, so there are at least two cells). Returns the cell of each
    category and the cells' moments ``(sum n, sum n z, sum n z^2)``.
    """
    if max_cells is None:
        max_cells = MAX_POOLED_VERTICES
    by_mean = np.argsort(z, kind="stable")
    sorted_z = z[by_mean]
    new_run = np.empty(len(z), dtype=bool)
    new_run[0] = False
    new_run[1:] = sorted_z[1:] != sorted_z[:-1]
    run_of_sorted = np.cumsum(new_run)
    n_runs = int(run_of_sorted[-1]) + 1
    if n_runs > max_cells:
        run_weight = np.bincount(run_of_sorted, weights=sizes[by_mean])
        quantile = np.floor(
            np.cumsum(run_weight)[:-1] * ((max_cells - 1) / sizes.sum())
        )
        ends = np.empty(n_runs - 1, dtype=bool)
        ends[0] = True
        ends[1:] = quantile[1:] > quantile[:-1]
        cell_of_run = np.concatenate([[0], np.cumsum(ends)])
        run_of_sorted = cell_of_run[run_of_sorted]
    cells = np.empty(len(z), dtype=np.intp)
    cells[by_mean] = run_of_sorted
    n_cells = int(run_of_sorted[-1]) + 1
    moments = np.column_stack(
        [
            np.bincount(cells, weights=sizes, minlength=n_cells),
            np.bincount(cells, weights=sizes * z, minlength=n_cells),
            np.bincount(cells, weights=sizes * z * z, minlength=n_cells),
        ]
    )
    return cells, moments


def _pooled_squared_error_weights(moments):
    """Raw squared-error weights between cells: the sum of the weights between
    their categories, ``N_a N_b (M_a - M_b)^2 + N_a B_b + N_b B_a`` (``M`` a
    cell's mean, ``B`` the squared error of its categories' means about it)."""
    sizes = moments[:, WEIGHT]
    spreads = squared_errors(moments)
    raw = pair_weights(moments, SQUARED_ERROR)
    cross = np.multiply.outer(sizes, spreads)
    raw += cross + cross.T
    np.fill_diagonal(raw, 0.0)
    return raw


def _squared_error_running_sums_search(sizes, z):
    """GreedyCut and local search on squared-error weights without the matrix.

    :func:`_running_sums_search` with the rank-3 sums of
    :func:`~partikit._kernels._max_cut.squared_error_flip_pass`: flips in
    passes until a pass flips none, then the exact swap scan within the same
    budget. Returns the side of each category, the greedy cut (raw), the moves
    and whether the swap scan completed.
    """
    n = len(sizes)
    grand = float(sizes.sum())
    total_raw = grand * grand
    tolerance = RELATIVE_TOLERANCE * total_raw
    side = np.zeros(n, dtype=np.uint8)
    side_sums = np.zeros((2, 3))
    squared_error_greedy_cut(sizes, z, side, side_sums)
    greedy_value = _squared_error_cut(sizes, z, side)
    gains = np.zeros(n)
    by_size = np.argsort(-sizes, kind="stable")
    reach = sizes * (np.abs(z) + float(np.abs(z).max())) ** 2

    def flip_pass(start, end):
        return squared_error_flip_pass(
            sizes, z, side, side_sums, gains, tolerance, start, end
        )

    def swap_scan(best_gain, start, end, budget):
        return squared_error_swap_scan(
            sizes, z, side, gains, by_size, best_gain, reach, tolerance, start, end,
            budget,
        )  # fmt: skip

    def move(v):
        s = side[v]
        moment = np.array([sizes[v], sizes[v] * z[v], sizes[v] * z[v] ** 2])
        side_sums[s] -= moment
        side_sums[1 - s] += moment
        side[v] = 1 - s

    n_flips, n_swaps, complete = _flips_then_swaps(
        side, gains, _WORK_PER_CALL, flip_pass, swap_scan, move
    )
    return side, greedy_value, n_flips, n_swaps, complete


def _flips_then_swaps(side, gains, chunk, flip_pass, swap_scan, move):
    """The local search of the running-sums searches, whatever the weights.

    Flips in passes of ``chunk`` vertices (``flip_pass(start, end)`` flips
    every improving vertex it meets and returns how many) until a pass flips
    none; then ``swap_scan(best_gain, start, end, budget)`` looks for an
    improving pair (exact pruning, within a budget of
    ``SWAP_EVALUATIONS_PER_VERTEX`` pair evaluations per vertex plus a
    constant), ``move(v)`` moves each of its two vertices, and flips resume.

    Returns
    -------
    n_flips, n_swaps : int
    complete : bool
        Whether the last swap scan read every pair it had to (no budget ran
        out).
    """
    n = len(side)
    budget = SWAP_EVALUATIONS_PER_VERTEX * n + 4_000_000
    n_flips = n_swaps = 0
    max_moves = _max_moves(n)
    complete = True
    while n_flips + n_swaps < max_moves:
        flipped = 0
        for start in range(0, n, chunk):
            flipped += flip_pass(start, min(n, start + chunk))
        n_flips += flipped
        if flipped:
            continue
        if budget <= 0:
            complete = False
            break
        best_gain = np.array(
            [
                gains[side == 0].max(initial=-np.inf),
                gains[side == 1].max(initial=-np.inf),
            ]
        )
        start = 0
        i = -1
        while start < n and budget > 0:
            i, j, evaluations, start = swap_scan(
                best_gain, start, min(n, start + chunk), budget
            )
            budget -= evaluations
            if i >= 0:
                break
        if i < 0:
            complete = start >= n
            break
        for v in (i, j):
            move(v)
        n_swaps += 1
    return n_flips, n_swaps, complete


def _visiting_order(degrees):
    """Vertices by decreasing degree; ties keep their order (stable)."""
    return np.argsort(-degrees, kind="stable")


def _gini_degrees(sub, totals):
    """Raw squared-Gini degree of each row, ``sum_j n_i n_j - <A_i, A_j>``.

    From the class totals in O(n J), summed class by class (the same operations
    for every row, whatever its position).
    """
    grand = 0.0
    inner = np.zeros(sub.shape[0])
    own = np.zeros(sub.shape[0])
    for x in range(sub.shape[1]):
        column = sub[:, x]
        class_total = float(column.sum())
        grand += class_total
        inner += column * class_total
        own += column * column
    return totals * (grand - totals) - (inner - own)


def _dense_search(raw, solver, n_hyperplanes, random_state, greedy=None):
    """Solve the max-cut of a weight matrix; None when every weight is zero.

    ``greedy`` is GreedyCut on ``raw`` when the caller has it (``pair_weights``
    makes it with the weights). Returns the side of each vertex and ``(cut,
    total, greedy cut, flips, swaps, complete)`` in raw units.
    """
    n = raw.shape[0]
    total_raw = raw.sum() / 2
    if not total_raw > 0:
        return None
    tolerance = RELATIVE_TOLERANCE * total_raw
    greedy_value = 0.0
    n_flips = n_swaps = 0
    gains = np.empty(n)
    if solver == "exhaustive":
        side, _ = exhaustive_max_cut(raw)
    else:
        if solver == "sdp":
            rng = check_random_state(random_state)
            normals = rng.standard_normal((n_hyperplanes, n))
            side, _ = best_hyperplane_cut(raw, _sdp_vectors(raw), normals)
        if greedy is not None:
            side = greedy
            greedy_value = dense_search(raw, side, gains, 0.0, 0, START)[0]
        elif solver == "local_search" or side.min() == side.max():
            # GW can round to one side when the relaxation is degenerate.
            side = greedy_cut(raw)
            greedy_value = dense_search(raw, side, gains, 0.0, 0, START)[0]
        else:
            dense_search(raw, side, gains, 0.0, 0, START)
        n_flips, n_swaps = local_search(raw, side, tolerance, _max_moves(n), gains)
    value = dense_search(raw, side, gains, 0.0, 0, CUT)[0]
    values = (value, total_raw, greedy_value, n_flips, n_swaps, True)
    return side, values


def _running_sums_search(sub, totals):
    """GreedyCut and local search on squared-Gini weights without the matrix.

    Flips are made in passes over the rows of ``sub`` in order (the caller's
    visiting order; every improving category flipped as it is met) until a pass
    flips none; then the swap scan of
    :func:`~partikit._kernels._max_cut.gini_swap_scan` (exact pruning, within a
    budget of ``SWAP_EVALUATIONS_PER_VERTEX`` pair evaluations per category plus a
    constant) looks for an improving pair, and flips resume after each swap.
    """
    n, n_classes = sub.shape
    class_totals = sub.sum(axis=0)
    grand = float(totals.sum())
    own = float(np.einsum("ij,ij->", sub, sub))
    # sum_{i<j} n_i n_j - <A_i, A_j>
    total_raw = (
        (grand**2 - float(totals @ totals)) - (class_totals @ class_totals - own)
    ) / 2
    if not total_raw > 0:
        return None
    tolerance = RELATIVE_TOLERANCE * total_raw
    side_totals = np.zeros(2)
    side_counts = np.zeros((2, n_classes))
    side = np.zeros(n, dtype=np.uint8)
    gini_greedy_cut(sub, totals, side, side_totals, side_counts)

    def cut_value():
        return float(side_totals[0] * side_totals[1] - side_counts[0] @ side_counts[1])

    greedy_value = cut_value()
    gains = np.zeros(n)
    by_size = np.argsort(-totals, kind="stable")

    def flip_pass(start, end):
        return gini_flip_pass(
            sub, totals, side, side_totals, side_counts, gains, tolerance, start, end
        )

    def swap_scan(best_gain, start, end, budget):
        return gini_swap_scan(
            sub, totals, side, gains, by_size, best_gain, tolerance, start, end,
            budget,
        )  # fmt: skip

    def move(v):
        s = side[v]
        side_totals[s] -= totals[v]
        side_totals[1 - s] += totals[v]
        side_counts[s] -= sub[v]
        side_counts[1 - s] += sub[v]
        side[v] = 1 - s

    n_flips, n_swaps, complete = _flips_then_swaps(
        side, gains, max(1, _WORK_PER_CALL // n_classes), flip_pass, swap_scan, move
    )
    values = (cut_value(), total_raw, greedy_value, n_flips, n_swaps, complete)
    return side, values


def _profile_cells(sub, totals, max_cells=None):
    """Pool the rows into at most ``max_cells`` cells (None:
    ``MAX_POOLED_VERTICES``).

    Identical rows (twins) always share a cell. When there are more distinct
    rows than cells, the distinct rows are cut into cells of similar class
    profile by a k-d split (:func:`~partikit._kernels._max_cut.split_profile_cells`,
    level by level, each distinct row weighing its total times its multiplicity).
    Returns the cell of each row and the number of rows of each cell.
    """
    if max_cells is None:
        max_cells = MAX_POOLED_VERTICES
    # One float key per row finds the twins in one sort; a key collision
    # between different rows (never seen, but possible) falls back to
    # comparing whole rows.
    key = content_keys(sub)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    if not np.array_equal(sub[first][inverse], sub):
        _, first, inverse = np.unique(
            sub, axis=0, return_index=True, return_inverse=True
        )
    inverse = inverse.reshape(-1)
    multiplicity = np.bincount(inverse)
    if len(first) <= max_cells:
        return inverse, multiplicity
    distinct = np.ascontiguousarray(sub[first])
    distinct_totals = totals[first]
    weight = distinct_totals * multiplicity
    order = np.arange(len(first))
    bounds = np.array([0, len(first)], dtype=np.intp)
    while len(bounds) - 1 < max_cells:
        new_bounds = split_profile_cells(
            distinct, distinct_totals, weight, order, bounds, max_cells
        )
        if len(new_bounds) == len(bounds):
            break
        bounds = new_bounds
    cell_of = np.empty(len(first), dtype=np.intp)
    cell_of[order] = np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))
    cells = cell_of[inverse]
    return cells, np.bincount(cells)


def _pooled_weights(sub, cells, multiplicity, weights):
    """Raw weights between cells: each category replaced by its cell's mean.

    ``W_ab = m_a m_b w(mean_a, mean_b)``: the sum of the weights between the
    categories of cells ``a`` and ``b`` if each were its cell's mean category.
    Exact for squared-Gini weights (bilinear) and for cells of identical rows.
    """
    pooled = np.zeros((len(multiplicity), sub.shape[1]))
    for x in range(sub.shape[1]):
        pooled[:, x] = np.bincount(
            cells, weights=sub[:, x], minlength=len(multiplicity)
        )
    mean = np.ascontiguousarray(pooled / multiplicity[:, None])
    raw = _WEIGHTS[weights](mean)
    m = multiplicity.astype(np.float64)
    # m_a m_b first: the same product both ways, so the matrix stays exactly
    # symmetric (the dense search reads either triangle)
    raw *= np.multiply.outer(m, m)
    return raw


class MaxCutGrouper(BaseGrouper):
    """Two groups of categories by a maximum cut of their graph (Pereira & Laber).

    Splits the categories of each column into **two groups** by a maximum cut of
    the graph whose vertices are the categories and whose edge ``(i, j)`` weighs
    how much the class distributions of ``i`` and ``j`` differ: the chi-square
    statistic of the two categories against the class (``weights="chi2"``, GLχ² in
    the thesis) or the squared-Gini weight (``weights="squared_gini"``, whose cut
    is the Gini gain with squared side proportions). For a continuous target the
    edge weighs how much the target means differ (``weights="squared_error"``,
    ``n_i n_j (m_i - m_j)^2 / N^2``), and ``solver="sort_by_mean"`` gives the
    exact best split for the squared error instead of a cut. It scales to thousands of
    categories and hundreds of classes, where the exact searches (exhaustive in
    the categories, Twoing exponential in the classes) cannot run, and to
    millions of categories (see Notes).

    Read more in the :ref:`User Guide <max_cut>`.

    Parameters
    ----------
    weights : {"auto", "chi2", "squared_gini", "squared_error"}, default="auto"
        Edge weights of the category graph; see :func:`edge_weights`.
        ``"auto"``: ``"chi2"`` for a class target, ``"squared_error"`` (the only
        weights of a continuous target) for a continuous target.

        .. versionchanged:: 0.2
           The default ``"auto"`` is ``"chi2"`` for a class target, the former
           default.
    solver : {"local_search", "sdp", "exhaustive", "sort_by_mean"}, \
            default="local_search"
        How the cut is found: greedy cut then local search (fast, at least half of
        the best cut); Goemans-Williamson SDP relaxation (needs ``cvxpy``; random
        hyperplanes, then local search), or enumeration of every cut (at most 20
        categories per column); these three maximise the cut weight.
        ``"sort_by_mean"`` (continuous target only) maximises the decrease of
        the squared error instead, exactly, in O(n log n) (categories sorted by
        mean, Fisher 1958): the two groups a regression tree would make.

        .. versionadded:: 0.2
           ``"sort_by_mean"``.
    n_hyperplanes : int, default=50
        Random hyperplanes tried by ``solver="sdp"``.
    random_state : int, RandomState instance or None, default=None
        Seeds the hyperplanes of ``solver="sdp"``; resolved once per fit into one
        seed per column. Other solvers are deterministic.
    order : {"data", "table"}, default="data"
        The order in which the cut's searches visit the categories: ``"data"``,
        by decreasing total weight of their edges, ties by their class counts,
        so that renaming the categories never changes the groups;
        ``"table"``, the order of ``categories_`` (sorted labels), the thesis's,
        for its reproductions.

        .. versionadded:: 0.2
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The kind of target, as scikit-learn's ``TargetEncoder`` takes it.
        ``"auto"``: floats that are not all integers are a continuous target,
        anything else class labels; say ``"continuous"`` for a target of
        integer amounts (prices, counts). A continuous target is read through
        the weight, sum and sum of squares of its values in each category
        (``target_type_`` says which kind the fit read; ``classes_`` is set
        for class labels only).
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output encoding of the groups.
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
        ``"default_group"`` sends unseen categories to the group with more
        training weight (``default_group_``); ``"error"`` raises.
    n_jobs : int or None, default=None
        Columns fitted in parallel (threads).

    Attributes
    ----------
    categories_ : list of ndarray
        Categories of each column, sorted, the missing category last.
    group_ids_ : list of ndarray of intp
        Group (0 or 1) of each category.
    n_groups_ : ndarray of intp
        2 for each column that has an informative split, else 1.
    groups_ : list of list of ndarray
        Categories of each group.
    default_group_ : ndarray of intp
        The group with more training weight (ties: group 0).
    table_ : list of ndarray
        Class counts of each group (for a continuous target, its moments:
        weight, weighted sum and weighted sum of squares).
    woe_ : list of ndarray
        Per feature, the weight of evidence of each group (``encode="woe"`` only).
    statistics_ : list of dict
        Per column: ``cut_weight``, ``total_weight``, ``certified_ratio`` (the cut
        is at least this fraction of the best cut, and never below 1/2),
        ``gini`` and ``entropy`` of the split, ``chi2``, ``dof``,
        ``log10_pvalue``, the local-search moves, ``graph`` and ``n_vertices``
        (the graph searched, pooled past 4096 categories with chi-square
        weights); see :func:`max_cut_bipartition`. For a continuous target,
        the F-test of the two groups (``f_statistic``, ``dfn``, ``dfd``,
        ``log10_pvalue``), their ``r2``, ``squared_error`` and
        ``squared_error_decrease`` in place of ``gini``, ``entropy``, ``chi2``
        and ``dof``.
    classes_ : ndarray
        Class labels.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Defined when X has string column names.

    See Also
    --------
    KhiopsGrouper : As many groups as the data support, robust to noise.
    CHAIDGrouper : CHAID merging with Bonferroni-adjusted tests.

    Notes
    -----
    *Algorithm.* Weights cost O(n^2 J) for ``n`` categories and ``J`` classes,
    the greedy cut O(n^2), each local-search flip O(n) and each swap scan
    O(n^2). With ``order="data"`` the categories are visited in an order
    defined by their class counts (decreasing weighted degree), so the result
    depends neither on row order nor on the categories' names (categories with
    identical counts, which the data cannot tell apart, excepted); with
    ``order="table"`` in the order of ``categories_`` (sorted labels), as in
    the thesis, and renaming the categories may change the groups.

    *Many categories.* Up to 4096 categories per column the weight matrix is
    dense and the results are those above. Past it, squared-Gini weights are
    searched without the matrix (the same weights, from running sums of the
    sides' class counts; flips in passes and a pruned swap scan with a budget),
    and chi-square weights on a pooled graph of at most 1024 vertices:
    categories with identical counts (exact), then cells of similar class
    profile. ``statistics_[j]["graph"]`` says which (``"dense"``,
    ``"running_sums"`` or ``"pooled"``); see :func:`max_cut_bipartition` and
    the User Guide. A million rows with a million categories fit in seconds.

    *Continuous target.* The cut of the squared-error weights is ``V(S) -
    p_L^2 V(L) - p_R^2 V(R)``, ``V`` the weighted variance of the category
    means (Lemma 1 of the thesis with the variance in place of the Gini index);
    it favours balanced groups and is not the decrease of the squared error,
    which ``solver="sort_by_mean"`` maximises: see :func:`max_cut_bipartition`.
    Both read only the categories' weights and means.

    *Missing values and unseen categories.* NaN, None and ``pd.NA`` form one
    category, split like any other. Unseen categories go to the group with more
    training weight.

    *Bad input.* A target with a single class raises a ``ValueError``, as do NaN
    in ``y``, an empty ``X``, mismatched lengths and negative weights. A column
    with a single category, or whose categories all have the same class
    distribution (chi-square weights), gives one group and a ``UserWarning``.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
       attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018.
    .. [2] E. S. Laber and F. de A. Mello Pereira, "Splitting criteria for
       classification problems with multi-valued attributes and large number of
       classes", Pattern Recognition Letters 111:58-63, 2018,
       doi:10.1016/j.patrec.2018.04.013.
    .. [3] M. X. Goemans and D. P. Williamson, "Improved approximation algorithms
       for maximum cut and satisfiability problems using semidefinite
       programming", Journal of the ACM 42(6):1115-1145, 1995,
       doi:10.1145/227683.227684.
    .. [4] Siddiqi, N. (2006). Credit Risk Scorecards: Developing and
       Implementing Intelligent Credit Scoring. Wiley. (Weight of evidence and
       its sign in scorecards.)
    .. [5] W. D. Fisher, "On grouping for maximum homogeneity", Journal of the
       American Statistical Association 53(284):789-798, 1958,
       doi:10.1080/01621459.1958.10501479.

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.groupers import MaxCutGrouper
    >>> rng = np.random.RandomState(0)
    >>> city = rng.choice(["ams", "ber", "lis", "oslo", "rome", "wien"], size=3000)
    >>> p = {"ams": .9, "ber": .8, "lis": .2, "oslo": .85, "rome": .1, "wien": .15}
    >>> y = rng.rand(3000) < np.vectorize(p.get)(city)
    >>> grouper = MaxCutGrouper().fit(city.reshape(-1, 1), y)
    >>> [group.tolist() for group in grouper.groups_[0]]
    [['ams', 'ber', 'oslo'], ['lis', 'rome', 'wien']]
    >>> grouper.statistics_[0]["certified_ratio"] >= 0.5
    True
    """

    _target_types = ("binary", "multiclass", "continuous")

    _parameter_constraints: dict = {
        **BaseGrouper._parameter_constraints,
        "target_type": BaseGrouper._target_type_constraint,
        "weights": [StrOptions({"auto", *_WEIGHTS})],
        "solver": [StrOptions(set(_SOLVERS))],
        "n_hyperplanes": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
        "order": [StrOptions(set(_ORDERS))],
    }

    def __init__(
        self,
        *,
        weights="auto",
        solver="local_search",
        n_hyperplanes=50,
        random_state=None,
        order="data",
        target_type="auto",
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
        self.target_type = target_type
        self.weights = weights
        self.solver = solver
        self.n_hyperplanes = n_hyperplanes
        self.random_state = random_state
        self.order = order

    def _working_cells(self, n_values, n_classes):
        # a copy of the table, and the dense weight matrix of its graph with
        # the product of the multiplicities it is scaled by (past
        # MAX_DENSE_VERTICES categories the graph is pooled or kept implicit)
        vertices = min(n_values, MAX_DENSE_VERTICES)
        return n_values * n_classes + 2 * vertices * vertices

    def _start_fit(self):
        # One seed per column, drawn once per fit: parallel columns stay
        # reproducible whatever their scheduling.
        rng = check_random_state(self.random_state)
        self._column_seeds = rng.randint(
            np.iinfo(np.int32).max, size=self.n_features_in_
        )

    def _group_table(self, table, context):
        return max_cut_bipartition(
            table,
            weights=self.weights,
            solver=self.solver,
            n_hyperplanes=self.n_hyperplanes,
            random_state=(
                self.random_state
                if context is None
                else int(self._column_seeds[context.index])
            ),
            order=self.order,
            target_type=self._table_target_type(),
        )

    def _table_target_type(self):
        """``"continuous"`` when the tables are moment tables, else None."""
        continuous = getattr(self, "target_type_", None) == CONTINUOUS
        return CONTINUOUS if continuous else None

    def _column_warning(self, result, table, context):
        if result.n_groups == 1 and table.shape[0] > 1:
            if self._table_target_type() == CONTINUOUS:
                return (
                    f"Feature {context.name!r}: its categories have no informative "
                    "split (their target means do not differ); it is encoded as "
                    "one group."
                )
            return (
                f"Feature {context.name!r}: its categories have no informative "
                "split (their class distributions do not differ); it is encoded as "
                "one group."
            )
        return None
