# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of the partition tree: numeric thresholds at a node and traversal.

The tree is stored as flat arrays (see ``partikit.tree._structure``); a node's
children, category map, thresholds and projection are slices of shared arrays,
found through per-node start offsets.
"""

import numpy as np
from numba import njit

from partikit._kernels._bipartition import (
    best_mean_prefix,
    node_impurity,
    split_impurity,
)
from partikit._kernels._codes import SQUARED_ERROR
from partikit._kernels._config import NJIT
from partikit._kernels._max_cut import (
    CHI2,
    CUT,
    MAX_MOVES_BASE,
    MAX_MOVES_PER_VERTEX,
    MOVES,
    RELATIVE_TOLERANCE,
    START,
    _chi2_rows,
    _squared_gini_rows,
    dense_search,
)

#: Node kinds of the flat tree.
LEAF = 0
CATEGORICAL = 1
NUMERIC = 2
PROJECTION = 3


@njit(**NJIT, error_model="numpy")
def children_impurity(rows, criterion, first, n_children):
    """Weighted impurity of the children whose statistics are rows ``first``
    to ``first + n_children - 1`` of ``rows``.

    A row holds class counts (each row's sum in class order is its weight), or,
    for ``SQUARED_ERROR``, the moments (weight, sum, sum of squares) of a
    continuous target, whose impurity is the weighted variance
    ``sum_of_squares / weight - mean^2`` (never below 0), as in scikit-learn's
    ``squared_error``. The one computation of a split's impurity: the node
    kernels score their candidates with it and the builder every other split.
    """
    n_stats = rows.shape[1]
    total = 0.0
    for k in range(first, first + n_children):
        if criterion == SQUARED_ERROR:
            total += rows[k, 0]
        else:
            for c in range(n_stats):
                total += rows[k, c]
    value = 0.0
    for k in range(first, first + n_children):
        if criterion == SQUARED_ERROR:
            size = rows[k, 0]
            if size > 0.0:
                mean = rows[k, 1] / size
                variance = rows[k, 2] / size - mean * mean
                value += size / total * max(variance, 0.0)
            continue
        size = 0.0
        for c in range(n_stats):
            size += rows[k, c]
        if size > 0.0:
            value += size / total * node_impurity(rows[k], criterion)
    return value


#: Columns of the result of :func:`node_thresholds`, then the children's counts.
THRESHOLD, RAW, SCORE, NAN_CHILD, CHILDREN = 0, 1, 2, 3, 4


@njit(**NJIT, error_model="numpy")
def node_thresholds(
    columns, use, order, start, end, y_codes, weights, search_criterion,
    node_criterion, min_leaf, score_criterion, parent_impurity, whole_weights,
    score_field, out, scratch, touched,
):  # fmt: skip
    """Binary threshold of least impurity of every numeric column at a node.

    One call per node for all the numeric columns: the rows of the node are
    ``order[1 + j, start:end]`` for column ``j``, already sorted by that column
    with its missing values last (:func:`partition_rows` keeps them so), hence no
    sort at a node. Each column's known values are streamed over in sorted order,
    without a value table (memory O(n_classes), not O(n_values n_classes)), with
    the candidates, sums and tie-break of scoring the prefixes of the value table
    (``split_impurity_threshold``): every boundary between consecutive distinct
    values leaving at least ``min_leaf`` weight on each side, the smallest
    threshold among equals, counts summed value by value. The rows with a missing
    value then join the side that lowers the weighted ``node_criterion`` impurity
    most (ties: the left).

    Parameters
    ----------
    columns : ndarray of float64 of shape (n_numeric, n_samples)
        The numeric columns, one per row; NaN for a missing value.
    use : ndarray of bool of shape (n_numeric,)
        The columns searched (the others get no threshold).
    order : ndarray of intp of shape (1 + n_numeric, n_samples)
        Row 0: the rows of each node in increasing index; row ``1 + j``: the rows
        of each node sorted by column ``j``, stable, NaN last.
    start, end : int
        The node's segment of every row of ``order``.
    y_codes : ndarray of intp of shape (n_samples,)
    weights : ndarray of float64 of shape (n_samples,)
    search_criterion : int
        ``GINI`` or ``ENTROPY``: the impurity the threshold minimises.
    node_criterion : int
        The nodes' impurity, which places the missing values.
    min_leaf : float
        Least weight of known values on each side of a threshold.
    score_criterion : int
        ``GINI`` or ``ENTROPY``: the score is ``parent_impurity`` minus the
        weighted impurity of the children; -1 leaves it NaN.
    parent_impurity : float
    whole_weights : bool
        Every weight is a whole number: the class totals of a column without a
        missing value at the node are then the node's, summed in row order
        (exact), and its pass that sums them value by value is skipped.
    score_field : int
        ``SCORE`` or ``RAW``: the field that ranks the columns; -1: none (the
        caller ranks them).
    out : ndarray of float64 of shape (n_numeric, 4 + 2 n_classes)
        Receives, per column: the threshold (``THRESHOLD``: halfway between the
        last value on the left and the first on the right; NaN where the column
        has no valid one), the decrease of ``search_criterion`` impurity on the
        known values (``RAW``), the score (``SCORE``), the side of the missing
        values (``NAN_CHILD``, -1 where the node has none), then the class counts
        of each side, the missing values included (``CHILDREN``: left's, then
        right's).
    scratch : ndarray of float64 of shape (7, n_classes)
    touched : ndarray of intp of shape (n_classes,)
        Scratch space.

    Returns
    -------
    best_column : int
        The first column of largest ``score_field`` among those with a
        threshold; -1 when there is none (or ``score_field`` is -1).

    Notes
    -----
    The outputs and scratch are the caller's arrays, made once per fit: each
    array made in a kernel costs its cold start a fraction of a second.
    """
    n_classes = scratch.shape[1]
    # an integer passed to another kernel as a variable: a literal argument
    # would compile it once more (cold start)
    trial = start - start + 3
    two = trial - 1
    best_column = -1
    # scratch rows: the children (0-1), the missing values' counts (2), one
    # value's counts (3), the known values' totals (4), the left side's (5),
    # the node's totals (6)
    for c in range(n_classes):
        scratch[6, c] = 0.0
    for r in range(start, end):
        i = order[0, r]
        scratch[6, y_codes[i]] += weights[i]
    for j in range(columns.shape[0]):
        out[j, THRESHOLD] = np.nan
        out[j, SCORE] = np.nan
        out[j, NAN_CHILD] = -1.0
        if not use[j]:
            continue
        segment = order[1 + j]
        x = columns[j]
        n_known = end
        while n_known > start and x[segment[n_known - 1]] != x[segment[n_known - 1]]:
            n_known -= 1
        for row in range(6):
            for c in range(n_classes):
                scratch[row, c] = 0.0
        # the known values' totals: the node's when none is missing and they
        # are sums of whole numbers (exact in any order, as the value table's)
        for c in range(n_classes):
            scratch[4, c] = scratch[6, c]
        first_stage = 1 if n_known == end and whole_weights else 0
        if first_stage == 0:
            for c in range(n_classes):
                scratch[4, c] = 0.0
        best = np.inf
        threshold = np.nan
        right_start = end
        # pass 0: class totals; pass 1: the candidates, the best one's left side
        # kept in row 0
        for stage in range(first_stage, 2):
            grand = 0.0
            for c in range(n_classes):
                grand += scratch[4, c]
            n_touched = 0
            for r in range(start, n_known):
                i = segment[r]
                label = y_codes[i]
                if scratch[3, label] == 0.0:
                    touched[n_touched] = label
                    n_touched += 1
                scratch[3, label] += weights[i]
                last = r == n_known - 1
                if not last and x[segment[r + 1]] == x[i]:
                    continue
                into = 4 if stage == 0 else 5
                for t in range(n_touched):
                    scratch[into, touched[t]] += scratch[3, touched[t]]
                    scratch[3, touched[t]] = 0.0
                n_touched = 0
                if stage != 1 or last:
                    continue
                size = 0.0
                for c in range(n_classes):
                    size += scratch[5, c]
                if size < min_leaf or grand - size < min_leaf:
                    continue
                value = split_impurity(scratch[5], scratch[4], search_criterion)
                if value < best:
                    best = value
                    threshold = x[i] / 2 + x[segment[r + 1]] / 2
                    right_start = r + 1
                    for c in range(n_classes):
                        scratch[0, c] = scratch[5, c]
        # the right side summed value by value, as the value table's rows are
        # (total - left would leave rounding residue, even below zero)
        if threshold == threshold:
            n_touched = 0
            for r in range(right_start, n_known):
                i = segment[r]
                label = y_codes[i]
                if scratch[3, label] == 0.0:
                    touched[n_touched] = label
                    n_touched += 1
                scratch[3, label] += weights[i]
                if r < n_known - 1 and x[segment[r + 1]] == x[i]:
                    continue
                for t in range(n_touched):
                    scratch[1, touched[t]] += scratch[3, touched[t]]
                    scratch[3, touched[t]] = 0.0
                n_touched = 0
        if threshold != threshold:
            continue
        out[j, THRESHOLD] = threshold
        out[j, RAW] = node_impurity(scratch[4], search_criterion) - best
        for r in range(n_known, end):
            i = segment[r]
            scratch[2, y_codes[i]] += weights[i]
        # rows 3-4: the children with the missing values on one side
        nan_child = -1
        if n_known < end:
            best_value = np.inf
            for slot in range(2):
                for k in range(2):
                    for c in range(n_classes):
                        extra = scratch[2, c] if k == slot else 0.0
                        scratch[3 + k, c] = scratch[k, c] + extra
                value = children_impurity(scratch, node_criterion, trial, two)
                if value < best_value:
                    best_value = value
                    nan_child = slot
        out[j, NAN_CHILD] = nan_child
        for k in range(2):
            for c in range(n_classes):
                extra = scratch[2, c] if k == nan_child else 0.0
                scratch[3 + k, c] = scratch[k, c] + extra
                out[j, CHILDREN + k * n_classes + c] = scratch[3 + k, c]
        if score_criterion >= 0:
            out[j, SCORE] = parent_impurity - children_impurity(
                scratch, score_criterion, trial, two
            )
        if score_field >= 0 and (
            best_column < 0 or out[j, score_field] > out[best_column, score_field]
        ):
            best_column = j
    return best_column


@njit(**NJIT, error_model="numpy")
def node_squared_error_thresholds(
    columns, use, order, start, end, y, weights, min_leaf, parent_impurity, out,
    scratch,
):  # fmt: skip
    """Binary threshold of least squared error of every numeric column at a node.

    The regression counterpart of :func:`node_thresholds`, in one compiled pass
    per column over the node's rows already sorted by it (``order[1 + j,
    start:end]``, missing values last): the moments (weight, sum, sum of
    squares) of the left side grow value by value, and the boundary between
    consecutive distinct values that maximises ``S_l^2 / W_l + S_r^2 / W_r``
    (the sum of squared errors of the two sides is the node's sum of squares
    minus it: Breiman et al. 1984, section 8.3; scikit-learn's ``squared_error``
    proxy) among those leaving at least ``min_leaf`` weight of known values on
    each side is the column's threshold; ties go to the smallest threshold. The
    rows with a missing value then join the side of least weighted variance
    (ties: the left).

    Parameters
    ----------
    columns : ndarray of float64 of shape (n_numeric, n_samples)
        The numeric columns, one per row; NaN for a missing value.
    use : ndarray of bool of shape (n_numeric,)
        The columns searched (the others get no threshold).
    order : ndarray of intp of shape (1 + n_numeric, n_samples)
        Row ``1 + j``: the rows of each node sorted by column ``j``, stable, NaN
        last.
    start, end : int
        The node's segment of every row of ``order``.
    y : ndarray of float64 of shape (n_samples,)
        The target.
    weights : ndarray of float64 of shape (n_samples,)
    min_leaf : float
        Least weight of known values on each side of a threshold.
    parent_impurity : float
        The node's weighted variance: ``SCORE`` is it minus the children's.
    out : ndarray of float64 of shape (n_numeric, 4 + 2 * 3)
        Receives, per column, the fields of :func:`node_thresholds`: the
        threshold (``THRESHOLD``, halfway between the values on each side; NaN
        where the column has none), the decrease of the weighted variance of
        the known values (``RAW``), the decrease of the node's (``SCORE``), the
        side of the missing values (``NAN_CHILD``, -1 where the node has none),
        then the moments of each side, the missing values included
        (``CHILDREN``: left's, then right's).
    scratch : ndarray of float64 of shape (6, 3)
        Scratch space.

    Returns
    -------
    best_column : int
        The first column of largest ``SCORE`` among those with a threshold; -1
        when there is none.
    """
    # integers passed to another kernel as variables: a literal argument would
    # compile it once more (cold start)
    zero = start - start
    two = zero + 2
    three = zero + 3
    five = zero + 5
    one = zero + 1
    # (the criterion too: the global constant is a literal argument)
    squared_error = zero + SQUARED_ERROR
    best_column = -1
    # scratch rows: the best left side (0), the right side (1), the missing
    # values (2), the children with the missing values (3-4), the known totals (5)
    for j in range(columns.shape[0]):
        out[j, THRESHOLD] = np.nan
        out[j, SCORE] = np.nan
        out[j, NAN_CHILD] = -1.0
        if not use[j]:
            continue
        segment = order[1 + j]
        x = columns[j]
        n_known = end
        while n_known > start and x[segment[n_known - 1]] != x[segment[n_known - 1]]:
            n_known -= 1
        for row in range(6):
            for m in range(3):
                scratch[row, m] = 0.0
        for r in range(start, n_known):
            i = segment[r]
            w = weights[i]
            scratch[5, 0] += w
            scratch[5, 1] += w * y[i]
            scratch[5, 2] += w * y[i] * y[i]
        total_weight = scratch[5, 0]
        total_sum = scratch[5, 1]
        left_weight = 0.0
        left_sum = 0.0
        left_squares = 0.0
        best = -np.inf
        threshold = np.nan
        right_start = end
        for r in range(start, n_known - 1):
            i = segment[r]
            w = weights[i]
            left_weight += w
            left_sum += w * y[i]
            left_squares += w * y[i] * y[i]
            if x[segment[r + 1]] == x[i]:
                continue
            right_weight = total_weight - left_weight
            if left_weight < min_leaf or right_weight < min_leaf:
                continue
            if not (left_weight > 0.0 and right_weight > 0.0):
                continue
            right_sum = total_sum - left_sum
            proxy = (
                left_sum * left_sum / left_weight + right_sum * right_sum / right_weight
            )
            if proxy > best:
                best = proxy
                threshold = x[i] / 2 + x[segment[r + 1]] / 2
                right_start = r + 1
                scratch[0, 0] = left_weight
                scratch[0, 1] = left_sum
                scratch[0, 2] = left_squares
        if threshold != threshold:
            continue
        # the right side summed row by row (total - left leaves rounding residue)
        for r in range(right_start, n_known):
            i = segment[r]
            w = weights[i]
            scratch[1, 0] += w
            scratch[1, 1] += w * y[i]
            scratch[1, 2] += w * y[i] * y[i]
        for r in range(n_known, end):
            i = segment[r]
            w = weights[i]
            scratch[2, 0] += w
            scratch[2, 1] += w * y[i]
            scratch[2, 2] += w * y[i] * y[i]
        out[j, THRESHOLD] = threshold
        out[j, RAW] = children_impurity(
            scratch, squared_error, five, one
        ) - children_impurity(scratch, squared_error, zero, two)
        nan_child = -1
        if n_known < end:
            best_value = np.inf
            for slot in range(2):
                for k in range(2):
                    for m in range(3):
                        extra = scratch[2, m] if k == slot else 0.0
                        scratch[3 + k, m] = scratch[k, m] + extra
                value = children_impurity(scratch, squared_error, three, two)
                if value < best_value:
                    best_value = value
                    nan_child = slot
        out[j, NAN_CHILD] = nan_child
        for k in range(2):
            for m in range(3):
                extra = scratch[2, m] if k == nan_child else 0.0
                scratch[3 + k, m] = scratch[k, m] + extra
                out[j, CHILDREN + 3 * k + m] = scratch[3 + k, m]
        out[j, SCORE] = parent_impurity - children_impurity(
            scratch, squared_error, three, two
        )
        if best_column < 0 or out[j, SCORE] > out[best_column, SCORE]:
            best_column = j
    return best_column


#: The stages of ``dense_search`` that a max-cut runs, in order.
STAGES = np.array([START, MOVES, CUT])

#: Columns of the result of :func:`node_max_cuts`, then the children's counts.
STATUS, CRITERION, CAT_SCORE, STATISTIC, DOF, N_PRESENT, CAT_CHILDREN = range(7)
#: Values of ``STATUS``: no split, a candidate, the column is dropped for the
#: subtree (one category, or too rare a second one), too many categories for the
#: compiled search (the caller searches it).
NO_SPLIT, CANDIDATE, DROPPED, TOO_MANY = 0, 1, 2, 3


@njit(**NJIT, error_model="numpy")
def node_max_cuts(
    codes, order, start, end, y_codes, weights, active, kind, min_second,
    min_leaf, score_criterion, parent_impurity, score_field, position, present,
    table, work, side, out, children_of,
):  # fmt: skip
    """Max-cut split of every categorical column at a node, in one compiled call.

    For each ``active`` column: the class counts of the categories present
    at the node (increasing category, summed in row order), the thesis's
    pre-filter on the second most frequent category, Pearson's chi2 statistic
    of the table, then the max-cut of the value graph of its non-empty classes
    with ``kind`` edge weights (GreedyCut made with the weights, then local search
    by flips and swaps: the stages of ``dense_search`` that the grouper's
    ``max_cut_bipartition`` runs, with the same tolerance and move guard), the
    first category's side as child 0, and the children's class counts.

    Parameters
    ----------
    codes : ndarray of int32 of shape (n_categorical, n_samples)
    order : ndarray of intp of shape (n_orders, n_samples)
        Row 0 holds the node's rows in ``[start, end)``.
    start, end : int
    y_codes : ndarray of intp of shape (n_samples,)
    weights : ndarray of float64 of shape (n_samples,)
    active : ndarray of bool of shape (n_categorical,)
        The columns to split; a ``DROPPED`` column is set False.
    kind : int
        ``CHI2`` or ``SQUARED_GINI``.
    min_second : float
        A column whose second most frequent category weighs less is
        ``DROPPED``; negative: no such filter.
    min_leaf : float
        A split with a child lighter than this is ``NO_SPLIT``.
    score_criterion : int
        ``GINI`` or ``ENTROPY``: ``CAT_SCORE`` is ``parent_impurity`` minus the
        weighted impurity of the children; -1 leaves it NaN.
    parent_impurity : float
    score_field : int
        ``CAT_SCORE`` or ``CRITERION``: the candidates' field that ranks them;
        -1: none (the caller ranks them).
    position : ndarray of intp of shape (max n_categories,)
        All -1; left so.
    present : ndarray of intp of shape (max_present,)
    table : ndarray of float64 of shape (max_present, n_classes)
    work : ndarray of float64 of shape (max_present^2 + max_present (n_classes
        + 4) + 3 n_classes,)
    side : ndarray of uint8 of shape (max_present,)
        Scratch space; a column with more than ``max_present`` categories at the
        node is ``TOO_MANY``.
    out : ndarray of float64 of shape (n_categorical, 6 + 2 n_classes)
        Per column: ``STATUS``, the cut weight on the thesis scale
        (``CRITERION``), ``CAT_SCORE``, the chi2 ``STATISTIC`` and its ``DOF``
        of the node table, ``N_PRESENT`` categories, then the children's class
        counts (``CAT_CHILDREN``).
    children_of : ndarray of intp of shape (n_categorical, 2, max_present)
        Per column: the present categories (row 0) and their child (row 1).

    Returns
    -------
    best_column : int
        The first candidate of largest ``score_field``, -1 when there is none
        (or ``score_field`` is -1).
    n_too_many : int
        Columns left ``TOO_MANY``.
    """
    n_classes = table.shape[1]
    max_present = table.shape[0]
    # integers passed to other kernels as variables: a literal argument would
    # compile the callee once more for each literal value (cold start)
    zero = start - start
    # work: weights (n^2), then class-major counts (n_classes x n), totals,
    # gains, the weight to each side (2 n), the node's class counts and a
    # children table
    node = work[work.shape[0] - 3 * n_classes : work.shape[0] - 2 * n_classes]
    kids = work[work.shape[0] - 2 * n_classes :].reshape(2, n_classes)
    for c in range(n_classes):
        node[c] = 0.0
    for r in range(start, end):
        i = order[0, r]
        node[y_codes[i]] += weights[i]
    n_kept = 0
    for c in range(n_classes):
        if node[c] > 0.0:
            n_kept += 1
    best_column = -1
    n_too_many = 0
    for column in range(active.shape[0]):
        out[column, STATUS] = NO_SPLIT
        if not active[column]:
            continue
        out[column, CAT_SCORE] = np.nan
        out[column, CRITERION] = 0.0
        out[column, STATISTIC] = 0.0
        out[column, DOF] = 0.0
        column_codes = codes[column]
        n = 0
        for r in range(start, end):
            code = column_codes[order[0, r]]
            if position[code] < 0:
                if n == max_present:
                    n = max_present + 1
                    break
                position[code] = n
                present[n] = code
                n += 1
        if n > max_present:
            for k in range(max_present):
                position[present[k]] = -1
            out[column, STATUS] = TOO_MANY
            n_too_many += 1
            continue
        # increasing categories, as a table over all of them would list them
        for a in range(1, n):
            code = present[a]
            b = a - 1
            while b >= 0 and present[b] > code:
                present[b + 1] = present[b]
                b -= 1
            present[b + 1] = code
        for k in range(n):
            position[present[k]] = k
            for c in range(n_classes):
                table[k, c] = 0.0
        for r in range(start, end):
            i = order[0, r]
            table[position[column_codes[i]], y_codes[i]] += weights[i]
        for k in range(n):
            position[present[k]] = -1
            children_of[column, 0, k] = present[k]
        out[column, N_PRESENT] = n
        if n < 2:
            out[column, STATUS] = DROPPED
            active[column] = False
            continue
        first = -1.0
        second = -1.0
        statistic = 0.0
        for k in range(n):
            size = 0.0
            for c in range(n_classes):
                size += table[k, c]
            if size > first:
                second = first
                first = size
            elif size > second:
                second = size
        if second < min_second:
            out[column, STATUS] = DROPPED
            active[column] = False
            continue
        # Pearson's chi2 as sum_k n_k sum_c (p_kc - q_c)^2 / q_c
        grand = 0.0
        for c in range(n_classes):
            grand += node[c]
        for k in range(n):
            size = 0.0
            for c in range(n_classes):
                size += table[k, c]
            term = 0.0
            for c in range(n_classes):
                if node[c] > 0.0:
                    q = node[c] / grand
                    d = table[k, c] / size - q
                    term += d * d / q
            statistic += size * term
        out[column, STATISTIC] = statistic
        out[column, DOF] = (n - 1) * (n_kept - 1)
        if n_kept < 2:
            continue
        graph = work[: n * n].reshape(n, n)
        counts = work[n * n : n * n + n_kept * n].reshape(n_kept, n)
        at = n * n + n_kept * n
        totals = work[at : at + n]
        gains = work[at + n : at + 2 * n]
        to_side = work[at + 2 * n : at + 4 * n].reshape(2, n)
        x = 0
        for c in range(n_classes):
            if node[c] > 0.0:
                for k in range(n):
                    counts[x, k] = table[k, c]
                x += 1
        for k in range(n):
            totals[k] = 0.0
            to_side[0, k] = 0.0
            to_side[1, k] = 0.0
            side[k] = 0
            for m in range(n):
                graph[k, m] = 0.0
        # the totals summed class by class, as pair_weights sums them
        for x in range(n_kept):
            for k in range(n):
                totals[k] += counts[x, k]
        if kind == CHI2:
            _chi2_rows(counts, totals, graph, side, to_side, zero, n)
        else:
            _squared_gini_rows(counts, totals, graph, side, to_side, zero, n)
        total_weight = 0.0
        for k in range(n):
            for m in range(n):
                total_weight += graph[k, m]
        total_weight /= 2.0
        if not total_weight > 0.0:
            continue
        # GreedyCut's gains, the local search, the cut: one call site, so that
        # the search is compiled into this kernel once, not once per stage
        cut = 0.0
        for stage in STAGES:
            searching = stage == MOVES
            cut = dense_search(
                graph, side, gains,
                RELATIVE_TOLERANCE * total_weight if searching else 0.0,
                MAX_MOVES_BASE + MAX_MOVES_PER_VERTEX * n if searching else zero,
                stage,
            )[0]  # fmt: skip
        if kind == CHI2:
            scale = 1.0 / (n - 1) if n > 2 else 1.0
        else:
            size = 0.0
            for k in range(n):
                size += totals[k]
            scale = 2.0 / (size * size)
        for c in range(n_classes):
            kids[0, c] = 0.0
            kids[1, c] = 0.0
        for k in range(n):
            child = 0 if side[k] == side[0] else 1
            children_of[column, 1, k] = child
            for c in range(n_classes):
                kids[child, c] += table[k, c]
        small = False
        for child in range(2):
            size = 0.0
            for c in range(n_classes):
                size += kids[child, c]
                out[column, CAT_CHILDREN + child * n_classes + c] = kids[child, c]
            small = small or size < min_leaf
        if small:
            continue
        out[column, STATUS] = CANDIDATE
        out[column, CRITERION] = cut * scale
        if score_criterion >= 0:
            out[column, CAT_SCORE] = parent_impurity - children_impurity(
                kids, score_criterion, zero, zero + 2
            )
        if score_field >= 0 and (
            best_column < 0 or out[column, score_field] > out[best_column, score_field]
        ):
            best_column = column
    return best_column, n_too_many


@njit(**NJIT, error_model="numpy")
def node_mean_splits(
    codes, order, start, end, y, weights, active, min_second, min_leaf,
    parent_impurity, position, present, table, keys, sorted_rows, out, offsets,
    children_of,
):  # fmt: skip
    """Best binary split of every categorical column at a node for squared
    error, in one compiled call.

    For each ``active`` column: the moments (weight, sum, sum of squares of the
    target) of the categories present at the node, summed in row order, the
    pre-filter on the second most frequent category, then the exact best
    bipartition of those categories for squared error
    (:func:`~partikit._kernels._bipartition.best_mean_prefix`, the computation
    of the core ``sort_by_mean``), the side of the smallest category present
    as child 0, and the children's moments.

    Parameters
    ----------
    codes : ndarray of int32 of shape (n_categorical, n_samples)
    order : ndarray of intp of shape (n_orders, n_samples)
        Row 0 holds the node's rows in ``[start, end)``.
    start, end : int
    y : ndarray of float64 of shape (n_samples,)
    weights : ndarray of float64 of shape (n_samples,)
    active : ndarray of bool of shape (n_categorical,)
        The columns to split; a ``DROPPED`` column is set False.
    min_second : float
        A column whose second most frequent category weighs less is
        ``DROPPED``; negative: no such filter.
    min_leaf : float
        A split with a child lighter than this is ``NO_SPLIT``.
    parent_impurity : float
        The node's weighted variance: ``CAT_SCORE`` is it minus the children's.
    position : ndarray of intp of shape (max n_categories,)
        All -1; left so.
    present : ndarray of intp of shape (max n_categories,)
    table : ndarray of float64 of shape (max n_categories + 2, 3)
    keys : ndarray of float64 of shape (max n_categories,)
    sorted_rows : ndarray of intp of shape (2 max n_categories,)
        Scratch space.
    out : ndarray of float64 of shape (n_categorical, 6 + 2 * 3)
        Per column, the fields of :func:`node_max_cuts`: ``STATUS``, the
        decrease of the summed squared error (``CRITERION``), ``CAT_SCORE``,
        ``N_PRESENT`` categories (``STATISTIC`` and ``DOF`` are 0), then the
        children's moments (``CAT_CHILDREN``).
    offsets : ndarray of intp of shape (n_categorical,)
        Where each column's segment of ``children_of`` starts (the sum of the
        numbers of categories of the columns before it).
    children_of : ndarray of intp of shape (2, total n_categories)
        Per column, from its offset: the present categories (row 0) and their
        child (row 1). Memory linear in the categories, not in the columns
        times the largest number of categories.

    Returns
    -------
    best_column : int
        The first candidate of largest ``CAT_SCORE``, -1 when there is none.
    """
    zero = start - start
    two = zero + 2
    kids = table[table.shape[0] - 2 :]
    best_column = -1
    for column in range(active.shape[0]):
        out[column, STATUS] = NO_SPLIT
        if not active[column]:
            continue
        out[column, CRITERION] = 0.0
        out[column, CAT_SCORE] = np.nan
        out[column, STATISTIC] = 0.0
        out[column, DOF] = 0.0
        column_codes = codes[column]
        # (not 0: a literal would type the call of best_mean_prefix below as
        # Literal[int] and compile it once more at a cold start)
        n = zero
        smallest = -1
        for r in range(start, end):
            i = order[0, r]
            code = column_codes[i]
            k = position[code]
            if k < 0:
                k = n
                position[code] = n
                present[n] = code
                for m in range(3):
                    table[n, m] = 0.0
                n += 1
                if smallest < 0 or code < present[smallest]:
                    smallest = k
            w = weights[i]
            table[k, 0] += w
            table[k, 1] += w * y[i]
            table[k, 2] += w * y[i] * y[i]
        base = offsets[column]
        for k in range(n):
            position[present[k]] = -1
            children_of[0, base + k] = present[k]
        out[column, N_PRESENT] = n
        if n < 2:
            out[column, STATUS] = DROPPED
            active[column] = False
            continue
        first = -1.0
        second = -1.0
        for k in range(n):
            size = table[k, 0]
            if size > first:
                second = first
                first = size
            elif size > second:
                second = size
        if second < min_second:
            out[column, STATUS] = DROPPED
            active[column] = False
            continue
        n_left, error = best_mean_prefix(table, n, keys, sorted_rows)
        # the side of the smallest category present is child 0
        smallest_left = False
        for k in range(n_left):
            if sorted_rows[k] == smallest:
                smallest_left = True
        for m in range(3):
            kids[0, m] = 0.0
            kids[1, m] = 0.0
        for k in range(n):
            on_left = k < n_left
            children_of[1, base + sorted_rows[k]] = 0 if on_left == smallest_left else 1
        for k in range(n):
            child = children_of[1, base + k]
            for m in range(3):
                kids[child, m] += table[k, m]
        for child in range(2):
            for m in range(3):
                out[column, CAT_CHILDREN + 3 * child + m] = kids[child, m]
        if kids[0, 0] < min_leaf or kids[1, 0] < min_leaf:
            continue
        parent_error = 0.0
        total_weight = 0.0
        total_sum = 0.0
        for k in range(n):
            total_weight += table[k, 0]
            total_sum += table[k, 1]
            parent_error += table[k, 2]
        parent_error = max(parent_error - total_sum * total_sum / total_weight, 0.0)
        out[column, STATUS] = CANDIDATE
        out[column, CRITERION] = max(parent_error - error, 0.0)
        out[column, CAT_SCORE] = parent_impurity - children_impurity(
            kids, zero + SQUARED_ERROR, zero, two
        )
        if best_column < 0 or out[column, CAT_SCORE] > out[best_column, CAT_SCORE]:
            best_column = column
    return best_column


@njit(**NJIT, error_model="numpy")
def partition_rows(order, start, end, slot_of_row, offsets, buffer):
    """Split a node's segment of every row of ``order`` into its children's.

    Stable: within each child the rows keep their order, so row 0 stays in
    increasing index and row ``1 + j`` sorted by column ``j``. Child ``k`` gets
    ``[start + offsets[k], start + offsets[k + 1])``.

    Parameters
    ----------
    order : ndarray of intp of shape (n_orders, n_samples)
        Changed in place.
    start, end : int
    slot_of_row : ndarray of intp of shape (n_samples,)
        Child of each row of the node (read only at the node's rows).
    offsets : ndarray of intp of shape (n_children + 1,)
        Receives the children's offsets (the caller's array: an array made
        here would cost the cold start).
    buffer : ndarray of intp of shape (n_samples + n_children,)
        Scratch space.
    """
    n_children = offsets.shape[0] - 1
    for k in range(n_children + 1):
        offsets[k] = 0
    for r in range(start, end):
        offsets[slot_of_row[order[0, r]] + 1] += 1
    for k in range(n_children):
        offsets[k + 1] += offsets[k]
    # the next free place of each child, at the end of the buffer
    position = buffer.shape[0] - n_children
    for row in range(order.shape[0]):
        for k in range(n_children):
            buffer[position + k] = offsets[k]
        for r in range(start, end):
            i = order[row, r]
            slot = slot_of_row[i]
            buffer[buffer[position + slot]] = i
            buffer[position + slot] += 1
        for r in range(end - start):
            order[row, start + r] = buffer[r]


@njit(**NJIT)
def traverse(
    codes, numeric, kind, feature, children_start, children, n_children,
    map_start, category_child, threshold_start, thresholds, projection_start,
    projections, nan_child, default_child, stop_on_unknown, paths,
):  # fmt: skip
    """Walk every row from the root to where it stops.

    Parameters
    ----------
    codes : ndarray of int32 of shape (n_samples, n_categorical)
        Fitted category index of each row, -1 for a category unseen in fit.
    numeric : ndarray of float64 of shape (n_samples, n_numeric)
        NaN for a missing value.
    kind, feature, ... : ndarrays of the flat tree (see ``Tree``)
    stop_on_unknown : bool
        A row whose value the node's rule does not know stops at the node (True)
        or follows ``default_child`` (False).
    paths : ndarray of intp of shape (n_samples, max_depth + 1) or (n_samples, 1)
        Receives the nodes visited, root first (the caller fills it with -1); with
        one column, only the node where each row stops.
    """
    n = codes.shape[0]
    whole_path = paths.shape[1] > 1
    for i in range(n):
        node = 0
        depth = 0
        paths[i, 0] = 0
        while kind[node] != LEAF:
            k = kind[node]
            slot = -1
            if k == CATEGORICAL:
                code = codes[i, feature[node]]
                if code >= 0:
                    slot = category_child[map_start[node] + code]
            else:
                if k == NUMERIC:
                    x = numeric[i, feature[node]]
                else:
                    x = 0.0
                    start = projection_start[node]
                    for d in range(numeric.shape[1]):
                        x += numeric[i, d] * projections[start + d]
                if x != x:
                    slot = nan_child[node]
                else:
                    slot = 0
                    start = threshold_start[node]
                    while slot < n_children[node] - 1 and x > thresholds[start + slot]:
                        slot += 1
            if slot < 0:
                if stop_on_unknown:
                    break
                slot = default_child[node]
            node = children[children_start[node] + slot]
            depth += 1
            paths[i, depth if whole_path else 0] = node
