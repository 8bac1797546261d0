# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Slow, obviously correct twins of every partikit kernel.

Each function here recomputes what a compiled kernel (or a numerical helper built
on one) computes, by the most direct route available: explicit loops, exact
integers, or mpmath at high precision. Tests compare the fast code against these
twins; the twins favour clarity over speed and are never used by the package.
"""

import itertools
import math

import mpmath
import numpy as np

# Digits of the mpmath reference computations: far beyond float64, so that the
# reference is exact once rounded.
MP_DPS = 50


def naive_log_f_sf(statistic, dfn, dfd):
    """Return ``log P[F(dfn, dfd) >= statistic]`` by mpmath at 50 digits.

    The tail is the regularized incomplete beta ``I_x(dfd / 2, dfn / 2)`` with
    ``x = dfd / (dfd + dfn statistic)``: ``x^a (1 - x)^b / (a B(a, b))`` times
    the power series ``sum_n prod_{i<n} (a + b + i) / (a + 1 + i) x^n`` of
    positive terms, summed term by term until they stop counting.
    """
    with mpmath.workdps(MP_DPS):
        f = mpmath.mpf(statistic)
        a, b = mpmath.mpf(dfd) / 2, mpmath.mpf(dfn) / 2
        x = a * 2 / (a * 2 + b * 2 * f)
        one_minus_x = b * 2 * f / (a * 2 + b * 2 * f)
        term, total, n = mpmath.mpf(1), mpmath.mpf(1), 0
        while term > total * mpmath.mpf(10) ** (-MP_DPS):
            term *= (a + b + n) / (a + 1 + n) * x
            total += term
            n += 1
        log_tail = (
            a * mpmath.log(x)
            + b * mpmath.log(one_minus_x)
            - mpmath.log(a)
            - mpmath.log(mpmath.beta(a, b))
            + mpmath.log(total)
        )
        return float(log_tail)


def naive_log_chi2_sf(x, dof):
    """Return ``log P[chi2_dof >= x]`` by mpmath at 50 significant digits.

    Parameters
    ----------
    x : float
        Statistic, ``x > 0``.
    dof : float
        Degrees of freedom, ``dof > 0``.

    Returns
    -------
    value : float
        Natural log of the regularized upper incomplete gamma ``Q(dof/2, x/2)``.

    Notes
    -----
    When ``Q > 1/2`` the value is computed as ``log1p(-P)`` from the lower
    function: ``Q = 1 - 1e-60`` is just 1 at 50 digits, whose log would lose all
    significant digits. mpmath's upper function occasionally gives up (large
    shape, ``x`` about twice ``dof``); ``1 - P`` is then formed at a precision
    that grows until it carries 50 digits again.
    """
    with mpmath.workdps(MP_DPS):
        a = mpmath.mpf(dof) / 2
        z = mpmath.mpf(x) / 2
        try:
            q = mpmath.gammainc(a, z, mpmath.inf, regularized=True)
        except (ValueError, mpmath.libmp.NoConvergence):
            q = None
        if q is not None and q <= 0.5:
            return float(mpmath.log(q))
        if q is not None:
            p = mpmath.gammainc(a, 0, z, regularized=True)
            return float(mpmath.log1p(-p))
    digits = 2 * MP_DPS
    while True:
        with mpmath.workdps(digits):
            a = mpmath.mpf(dof) / 2
            z = mpmath.mpf(x) / 2
            q = 1 - mpmath.gammainc(a, 0, z, regularized=True)
            if q > 0 and -mpmath.log10(q) < digits - MP_DPS:
                return float(mpmath.log(q))
        digits *= 2


def naive_chi2_statistic(table):
    """Return Pearson's chi-square statistic and its degrees of freedom by loops.

    Parameters
    ----------
    table : array-like of shape (n_parts, n_classes)
        Non-negative counts.

    Returns
    -------
    statistic : float
        ``sum_ij (n_ij - E_ij)^2 / E_ij`` with ``E_ij = n_i. n_.j / N`` over the
        non-empty rows and columns; ``0.0`` if fewer than two of either remain.
    dof : int
        ``(I - 1) (J - 1)``, or ``0``.
    """
    table = np.asarray(table, dtype=np.float64)
    rows = [i for i in range(table.shape[0]) if table[i, :].sum() > 0]
    cols = [j for j in range(table.shape[1]) if table[:, j].sum() > 0]
    if len(rows) < 2 or len(cols) < 2:
        return 0.0, 0
    total = sum(table[i, j] for i in rows for j in cols)
    statistic = 0.0
    for i in rows:
        row_total = sum(table[i, j] for j in cols)
        for j in cols:
            col_total = sum(table[k, j] for k in rows)
            expected = row_total * col_total / total
            statistic += (table[i, j] - expected) ** 2 / expected
    return statistic, (len(rows) - 1) * (len(cols) - 1)


def naive_stirling2(n, k):
    """Return the Stirling number of the second kind ``S(n, k)`` exactly.

    Parameters
    ----------
    n : int
        Number of elements, ``n >= 0``.
    k : int
        Number of non-empty blocks, ``k >= 0``.

    Returns
    -------
    value : int
        ``S(n, k) = (1 / k!) sum_j (-1)^j C(k, j) (k - j)^n`` in exact integer
        arithmetic (``0 ** 0 == 1`` gives ``S(0, 0) = 1``); ``0`` for ``k > n``.
    """
    if k > n:
        return 0
    total = sum((-1) ** j * math.comb(k, j) * (k - j) ** n for j in range(k + 1))
    return total // math.factorial(k)


def naive_table(codes, y_codes, sample_weight, n_rows, n_classes):
    """Contingency table by a Python loop; negative codes count in the last row."""
    table = np.zeros((n_rows, n_classes))
    for i, (code, label) in enumerate(zip(codes, y_codes, strict=True)):
        row = n_rows - 1 if code < 0 else code
        table[row, label] += 1.0 if sample_weight is None else sample_weight[i]
    return table


def naive_apply_lookup(codes, lookup, fill):
    """Twin of ``apply_lookup``: each code's lookup value, ``fill`` if negative;
    also returns the number of rows filled."""
    values = [lookup[code + 1] for code in codes]
    out = np.array([fill if v < 0 else v for v in values])
    return out, sum(v < 0 for v in values)


def naive_delta_chi2(table, a, b):
    """DeltaChi2 of merging rows a and b: the difference of two full chi-squares."""
    merged = np.delete(table, b, axis=0)
    merged[a if a < b else a - 1] = table[a] + table[b]
    return naive_chi2_statistic(table)[0] - naive_chi2_statistic(merged)[0]


def naive_greedy_merges(table, block=None, n_merges=None):
    """The greedy bottom-up merge loop, recomputing every pair at every step.

    At each step the pair of current groups with the smallest DeltaChi2 is merged
    (ties: the lexicographically smallest pair of group positions). Returns one
    ``(delta, partition)`` per merge, the partition as a frozenset of frozensets of
    table rows. With ``block`` (a label per row), only groups of the same block
    may merge; ``n_merges`` stops the loop early.
    """
    groups = [[i] for i in range(table.shape[0])]
    current = np.asarray(table, dtype=float).copy()
    sequence = []
    while len(groups) > 1 and (n_merges is None or len(sequence) < n_merges):
        best = None
        for a in range(len(groups)):
            for b in range(a + 1, len(groups)):
                if block is not None and block[groups[a][0]] != block[groups[b][0]]:
                    continue
                d = naive_delta_chi2(current, a, b)
                if best is None or d < best[0] - 1e-12:
                    best = (d, a, b)
        d, a, b = best
        groups[a] = groups[a] + groups[b]
        del groups[b]
        current[a] = current[a] + current[b]
        current = np.delete(current, b, axis=0)
        sequence.append((d, frozenset(frozenset(g) for g in groups)))
    return sequence


def naive_labels_after_merges(n_rows, kept, absorbed, order, n_merges):
    """Group labels after applying merges, by relabelling a list of sets."""
    groups = [{i} for i in range(n_rows)]
    for k in order[:n_merges]:
        a = next(g for g in groups if kept[k] in g)
        b = next(g for g in groups if absorbed[k] in g)
        if a is not b:
            groups.remove(b)
            a |= b
    labels = np.empty(n_rows, dtype=np.intp)
    for label, g in enumerate(sorted(groups, key=min)):
        labels[sorted(g)] = label
    return labels


def naive_pair_test(u, v, test="pearson"):
    """Statistic, dof and log p-value of the 2 x J table of rows u and v (CHAID).

    Expected counts from the two rows only; classes absent from both dropped;
    p-value from scipy (``logsf``), which is exact enough for small tables.
    """
    from scipy.stats import chi2

    sub = np.array([u, v], dtype=float)
    sub = sub[:, sub.sum(axis=0) > 0]
    dof = sub.shape[1] - 1
    if dof == 0:
        return 0.0, 0, 0.0
    expected = np.outer(sub.sum(axis=1), sub.sum(axis=0)) / sub.sum()
    # math.fsum: the correctly rounded sum, whatever the order of the classes
    if test == "pearson":
        statistic = math.fsum(((sub - expected) ** 2 / expected).ravel())
    else:
        cells = sub > 0
        statistic = 2 * math.fsum(sub[cells] * np.log(sub[cells] / expected[cells]))
    return statistic, dof, float(chi2.logsf(statistic, dof))


def naive_f_pair_test(u, v):
    """F statistic, denominator dof and log p-value of two moment rows (CHAID).

    ``u`` and ``v`` are ``(sum w, sum w y, sum w y^2)``: the one-way analysis of
    variance of the two parts, F(1, n_u + n_v - 2), p-value from scipy
    (``logsf``). No test (p-value 1) when the means are equal or ``n_u + n_v <=
    2``; p-value 0 when the means differ and neither part varies.
    """
    from scipy.stats import f

    (n_u, s_u, q_u), (n_v, s_v, q_v) = u, v
    dfd = max(n_u + n_v - 2.0, 0.0)
    between = (s_u / n_u - s_v / n_v) ** 2 * n_u * n_v / (n_u + n_v)
    within = max(q_u - s_u * s_u / n_u, 0.0) + max(q_v - s_v * s_v / n_v, 0.0)
    if dfd <= 0 or between <= 0:
        return 0.0, dfd, 0.0
    if within <= 0:
        return math.inf, dfd, -math.inf
    statistic = between / (within / dfd)
    return statistic, dfd, float(f.logsf(statistic, 1.0, dfd))


def naive_chaid_merges(
    table, alpha_merge, *, ordinal=False, min_groups=1, max_groups=None, test="pearson"
):
    """CHAID's merge loop, every allowed pair re-tested at every step.

    ``test="f"``: ``table`` is a moment table and pairs are compared by
    :func:`naive_f_pair_test`.

    Returns the groups (lists of rows, each sorted, in order of first row) and the
    merged pairs in order. Pairs are ordered by larger p-value, then smaller
    statistic, then lexicographically by the groups' first rows.
    """
    groups = [[i] for i in range(table.shape[0])]
    merges = []
    while len(groups) > min_groups:
        candidates = []
        for a in range(len(groups)):
            partners = [a + 1] if ordinal else range(a + 1, len(groups))
            for b in partners:
                if b >= len(groups):
                    continue
                u = table[groups[a]].sum(axis=0)
                v = table[groups[b]].sum(axis=0)
                if test == "f":
                    statistic, _, log_p = naive_f_pair_test(u, v)
                else:
                    statistic, _, log_p = naive_pair_test(u, v, test)
                candidates.append((-log_p, statistic, groups[a][0], groups[b][0], a, b))
        if not candidates:
            break
        neg_log_p, _, _, _, a, b = min(candidates)
        similar = -neg_log_p > math.log(alpha_merge)
        if not similar and not (max_groups is not None and len(groups) > max_groups):
            break
        merges.append((groups[a][0], groups[b][0]))
        groups[a] = sorted(groups[a] + groups[b])
        del groups[b]
        groups.sort(key=lambda g: g[0])
    return groups, merges


# --- binary partitions and max-cut (partikit._kernels._bipartition, _max_cut) ---


def naive_chaid_pool(table, max_categories):
    """CHAID's pooling of rare rows, by sorting the counts and scanning the rows.

    Rows with more cases than the ``max_categories - n_classes + 1``-th largest
    count keep their own row; each other row joins the pool of its first
    most frequent class. Output rows stand in the order of their first member.
    Returns (pooled table, output row of each row, rows pooled, pools).
    """
    n_rows, n_classes = len(table), len(table[0])
    totals = [sum(row) for row in table]
    budget = max_categories - n_classes
    if budget > 0:
        limit = sorted(totals, reverse=True)[budget]
        kept = [total > limit for total in totals]
    else:
        kept = [False] * n_rows
    keys, index = [], {}
    for i, row in enumerate(table):
        key = ("row", i) if kept[i] else ("class", list(row).index(max(row)))
        if key not in index:
            index[key] = len(index)
        keys.append(key)
    row_of = [index[key] for key in keys]
    pooled = np.zeros((len(index), n_classes))
    for i, row in enumerate(table):
        for j in range(n_classes):
            pooled[row_of[i], j] += row[j]
    return pooled, row_of, n_rows - sum(kept), len(index) - sum(kept)


def naive_nonempty_rows(table):
    """Rows with a positive count, and whether all counts are finite and >= 0."""
    table = np.asarray(table, dtype=float)
    valid = bool(np.all(np.isfinite(table)) and np.all(table >= 0))
    return np.array([any(v > 0 for v in row) for row in table], dtype=bool), valid


def naive_squared_gini_weight(a, b):
    """``sum_{x != y} a_x b_y``: pairs of cases of the two rows in different classes."""
    return float(
        sum(a[x] * b[y] for x in range(len(a)) for y in range(len(b)) if x != y)
    )


def naive_chi2_weight(a, b):
    """Pearson's statistic of the 2 x J table of rows ``a`` and ``b``."""
    return naive_chi2_statistic(np.vstack([a, b]))[0]


def naive_squared_error_weight(a, b):
    """``n_a n_b (m_a - m_b)^2`` of two moment rows ``(weight, sum, sum of
    squares)``: every pair of cases, one per row, weighs the squared difference
    of the rows' target means; 0 when a row is empty."""
    if a[0] <= 0 or b[0] <= 0:
        return 0.0
    return float(a[0] * b[0] * (a[1] / a[0] - b[1] / b[0]) ** 2)


def naive_mean_variance(table, members):
    """Weighted variance of the category means of the rows ``members`` of a
    moment table (0 for an empty set), by its definition."""
    rows = [table[i] for i in members if table[i][0] > 0]
    weight = math.fsum(row[0] for row in rows)
    if weight <= 0:
        return 0.0
    means = [row[1] / row[0] for row in rows]
    mean = math.fsum(row[0] * m for row, m in zip(rows, means, strict=True)) / weight
    return (
        math.fsum(row[0] * (m - mean) ** 2 for row, m in zip(rows, means, strict=True))
        / weight
    )


def naive_best_squared_error_split(table):
    """Every bipartition of the non-empty rows of a moment table, scored by the
    two sides' sum of squared errors (``sum w y^2 - (sum w y)^2 / sum w``);
    returns the smallest and the set of its left rows (row 0's side)."""
    rows = [i for i in range(len(table)) if table[i][0] > 0]

    def error(members):
        w = math.fsum(table[i][0] for i in members)
        s = math.fsum(table[i][1] for i in members)
        q = math.fsum(table[i][2] for i in members)
        return q - s * s / w

    best, best_left = math.inf, None
    for size in range(1, len(rows)):
        for left in itertools.combinations(rows[1:], size - 1):
            left = {rows[0], *left}
            right = [i for i in rows if i not in left]
            value = error(left) + error(right)
            if value < best:
                best, best_left = value, left
    return best, best_left


def naive_cut_weight(weights, left):
    """Sum of the weights of the edges with one end in ``left`` (a set of vertices)."""
    n = len(weights)
    return math.fsum(
        weights[i][j] for i in range(n) for j in range(n) if i in left and j not in left
    )


def naive_greedy_cut(weights):
    """GreedyCut as the thesis code writes it: sets, sums recomputed from scratch.

    Returns the set of left vertices (vertex 0 is left; ties go right).
    """
    left, right = {0}, set()
    for v in range(1, len(weights)):
        gain_right = math.fsum(weights[v][u] for u in left)
        gain_left = math.fsum(weights[v][u] for u in right)
        if gain_right >= gain_left:
            right.add(v)
        else:
            left.add(v)
    return left


def naive_local_search(weights, left, tolerance):
    """First-improvement flips, then swaps, each move re-evaluating the whole cut.

    Returns the final left set and the number of flips and swaps.
    """
    n = len(weights)
    left = set(left)
    flips = swaps = 0
    while True:
        current = naive_cut_weight(weights, left)
        moved = False
        for v in range(n):
            candidate = left ^ {v}
            if naive_cut_weight(weights, candidate) - current > tolerance:
                left, moved = candidate, True
                flips += 1
                break
        if moved:
            continue
        for i, j in itertools.combinations(range(n), 2):
            if (i in left) != (j in left):
                candidate = left ^ {i, j}
                if naive_cut_weight(weights, candidate) - current > tolerance:
                    left, moved = candidate, True
                    swaps += 1
                    break
        if not moved:
            return left, flips, swaps


def naive_max_cut(weights):
    """Largest cut weight over every subset of vertices."""
    n = len(weights)
    return max(
        naive_cut_weight(weights, set(subset))
        for size in range(1, n)
        for subset in itertools.combinations(range(n), size)
    )


def naive_flip_pass(weights, left, tolerance):
    """One pass in index order, flipping each vertex whose move gains, the cut
    re-evaluated from scratch at every step (twin of ``gini_flip_pass``).

    Returns the final left set and the number of flips.
    """
    left = set(left)
    flips = 0
    for v in range(len(weights)):
        candidate = left ^ {v}
        gain = naive_cut_weight(weights, candidate) - naive_cut_weight(weights, left)
        if gain > tolerance:
            left, flips = candidate, flips + 1
    return left, flips


def naive_improving_swaps(weights, left, tolerance):
    """Every pair ``(i, j)``, ``i < j`` on opposite sides, whose swap gains."""
    current = naive_cut_weight(weights, left)
    return {
        (i, j)
        for i, j in itertools.combinations(range(len(weights)), 2)
        if (i in left) != (j in left)
        and naive_cut_weight(weights, set(left) ^ {i, j}) - current > tolerance
    }


def naive_profile_cells(table, weights, max_cells):
    """k-d split of rows by class profile, level by level (twin of the kernel
    ``split_profile_cells`` driven to the end); lists of rows, one per cell.

    A cell is split on the class of largest weighted variance of the proportions
    (first on ties), rows sorted by that proportion (stable), at the boundary
    between distinct proportions nearest to half the cell's weight.
    """
    table = np.asarray(table, dtype=float)
    profile = table / table.sum(axis=1, keepdims=True)
    cells = [list(range(len(table)))]
    while len(cells) < max_cells:
        new = []
        for c, cell in enumerate(cells):
            room = len(new) + 1 + (len(cells) - c) <= max_cells
            # plain sums in row order: the kernel's rounding, so equal spreads
            # tie the same way
            total = 0.0
            mean = [0.0] * table.shape[1]
            for i in cell:
                total += weights[i]
                for x in range(table.shape[1]):
                    mean[x] += weights[i] * profile[i, x]
            spread = []
            for x in range(table.shape[1]):
                mean[x] /= total
                spread.append(0.0)
                for i in cell:
                    d = profile[i, x] - mean[x]
                    spread[x] += weights[i] * d * d
            if not room or len(cell) < 2 or not max(spread) > 0:
                new.append(cell)
                continue
            axis = spread.index(max(spread))
            cell = sorted(cell, key=lambda i: profile[i, axis])
            cuts = [
                (abs(sum(weights[i] for i in cell[:k]) - total / 2), k)
                for k in range(1, len(cell))
                if profile[cell[k], axis] != profile[cell[k - 1], axis]
            ]
            if not cuts:
                new.append(cell)
                continue
            k = min(cuts)[1]
            new += [cell[:k], cell[k:]]
        if len(new) == len(cells):
            break
        cells = new
    return cells


def naive_impurity(counts, impurity):
    """Gini index or entropy in bits of a count vector (0 for an empty one)."""
    total = math.fsum(counts)
    if total == 0:
        return 0.0
    p = [c / total for c in counts]
    if impurity == "gini":
        return 1.0 - math.fsum(q * q for q in p)
    return -math.fsum(q * math.log2(q) for q in p if q > 0)


def naive_split_impurity(table, left, impurity):
    """Impurity of the split with the rows of ``left`` on one side."""
    table = np.asarray(table, dtype=float)
    rows = range(table.shape[0])
    left_counts = [math.fsum(table[i, x] for i in rows if i in left)
                   for x in range(table.shape[1])]  # fmt: skip
    right_counts = [math.fsum(table[i, x] for i in rows if i not in left)
                    for x in range(table.shape[1])]  # fmt: skip
    n_left, n_right = math.fsum(left_counts), math.fsum(right_counts)
    return (
        n_left * naive_impurity(left_counts, impurity)
        + n_right * naive_impurity(right_counts, impurity)
    ) / (n_left + n_right)


def naive_all_splits(n_rows):
    """Every split of ``range(n_rows)`` into two non-empty sides, as left sets."""
    for size in range(1, n_rows):
        for subset in itertools.combinations(range(n_rows), size):
            yield set(subset)


def naive_best_impurity(table, impurity):
    """Least split impurity over every split (rows with no count included)."""
    n = len(table)
    return min(
        naive_split_impurity(table, left, impurity) for left in naive_all_splits(n)
    )


def naive_twoing_value(table, left):
    """CART's twoing value ``p_L p_R / 4 (sum_j |p(j|L) - p(j|R)|)^2``."""
    table = np.asarray(table, dtype=float)
    lc = table[sorted(left)].sum(axis=0)
    rc = table[[i for i in range(len(table)) if i not in left]].sum(axis=0)
    n_left, n_right = lc.sum(), rc.sum()
    if n_left == 0 or n_right == 0:
        return 0.0
    n = n_left + n_right
    spread = math.fsum(
        abs(a / n_left - b / n_right) for a, b in zip(lc, rc, strict=True)
    )
    return n_left * n_right / n**2 / 4 * spread**2


def naive_superclass_gain(table, left, inside, impurity):
    """Impurity decrease of the split with the rows of ``left`` on one side for
    the two-class target "class in ``inside``" (twin of ``superclass_gain``)."""
    table = np.asarray(table, dtype=float)
    columns = [sorted(inside), [x for x in range(table.shape[1]) if x not in inside]]
    collapsed = np.array(
        [[math.fsum(row[x] for x in cols) for cols in columns] for row in table]
    )
    return naive_impurity(collapsed.sum(axis=0), impurity) - naive_split_impurity(
        collapsed, left, impurity
    )


def naive_sliq(table, impurity, extended):
    """SLIQ (or SLIQ-ext) moves, each candidate's impurity computed from scratch.

    Returns the left set of the split SLIQ returns.
    """
    n = len(table)
    left = set(range(n))
    best_left, best, current = None, math.inf, math.inf
    while len(left) > 1:
        moves = [(naive_split_impurity(table, left - {v}, impurity), v)
                 for v in sorted(left)]  # fmt: skip
        value, v = min(moves)  # ties: lowest row
        if not extended and not value < current:
            break
        left = left - {v}
        current = value
        if value < best:
            best, best_left = value, set(left)
    return best_left


def naive_sum_rows(table, group_ids, n_groups):
    """Rows summed by group, one row at a time; group -1 rows dropped."""
    out = np.zeros((n_groups, np.shape(table)[1]))
    for row, group in zip(table, group_ids, strict=True):
        if group >= 0:
            out[group] += row
    return out


# --- discretizers ----------------------------------------------------------------


def naive_value_table(x, y_codes, sample_weight, n_classes):
    """Distinct values of ``x`` and the (weighted) class counts of each."""
    values = sorted({float(v) for v in x})
    table = np.zeros((len(values), n_classes))
    position = {v: i for i, v in enumerate(values)}
    for i, (v, c) in enumerate(zip(x, y_codes, strict=True)):
        table[position[float(v)], c] += (
            1.0 if sample_weight is None else sample_weight[i]
        )
    return np.array(values), table


def naive_segment_sums(table, starts):
    """Sum of the rows of each segment ``starts[s] .. starts[s + 1] - 1``."""
    ends = [*starts[1:], len(table)]
    return np.array(
        [np.sum(table[a:b], axis=0) for a, b in zip(starts, ends, strict=True)]
    )


def naive_scan_table(table):
    """Column totals, running row totals and whether every count is an integer."""
    column_totals = [sum(float(v) for v in column) for column in np.transpose(table)]
    running, cumulative = 0.0, []
    for row in table:
        running += sum(float(v) for v in row)
        cumulative.append(running)
    integral = all(float(v).is_integer() for v in np.ravel(table))
    return np.array(column_totals), np.array(cumulative), integral


def naive_block_starts(table):
    """First row of each block: a new block starts unless both rows are pure in
    the same class."""

    def pure_class(row):
        present = [c for c, v in enumerate(row) if v > 0]
        return present[0] if len(present) == 1 else None

    starts = [0]
    for r in range(1, len(table)):
        a, b = pure_class(table[r - 1]), pure_class(table[r])
        if a is None or a != b:
            starts.append(r)
    return np.array(starts)


def naive_moment_segment_starts(table):
    """First row of each run of rows with equal target means (a row of zero
    weight joins the run before it)."""
    starts = [0]
    mean = None
    for r, (weight, total, _) in enumerate(table):
        if weight <= 0:
            continue
        if r > 0 and (mean is None or total / weight != mean):
            starts.append(r)
        mean = total / weight
    return np.array(starts)


def naive_interval_cost(counts, criterion):
    """``n H`` in bits (entropy) or ``n Gini`` of one interval's class counts, or
    the squared error of its moments ``(sum w, sum w y, sum w y^2)``."""
    if criterion == "squared_error":
        weight, total, total_of_squares = (float(c) for c in counts)
        return total_of_squares - total**2 / weight if weight > 0 else 0.0
    counts = [float(c) for c in counts if c > 0]
    n = sum(counts)
    if n == 0:
        return 0.0
    if criterion == "entropy":
        return -sum(c * math.log2(c / n) for c in counts)
    return n * (1.0 - sum((c / n) ** 2 for c in counts))


def naive_partition_cost(table, cuts, criterion):
    """Cumulative impurity of the intervals that ``cuts`` (rows before each cut)
    make."""
    bounds = [0, *cuts, len(table)]
    return sum(
        naive_interval_cost(np.sum(table[a:b], axis=0), criterion)
        for a, b in itertools.pairwise(bounds)
    )


def naive_optimal_multisplit(table, criterion, max_parts):
    """Least cumulative impurity with at most k intervals, k = 1..max_parts, by
    enumerating every subset of cut positions between rows."""
    n_rows = len(table)
    best = [math.inf] * max_parts
    for n_cuts in range(min(max_parts, n_rows)):
        for cuts in itertools.combinations(range(1, n_rows), n_cuts):
            value = naive_partition_cost(table, cuts, criterion)
            for k in range(n_cuts + 1, max_parts + 1):
                best[k - 1] = min(best[k - 1], value)
    return np.array(best)


def naive_mdlp(table):
    """Fayyad & Irani's MDLP by plain recursion over row ranges (every gap is a
    candidate); returns the accepted cut positions, sorted."""

    def entropy(counts):
        return naive_interval_cost(counts, "entropy") / max(sum(counts), 1e-300)

    def split(a, b, out):
        whole = np.sum(table[a:b], axis=0)
        n = whole.sum()
        best, cut = math.inf, None
        for t in range(a + 1, b):
            e = naive_partition_cost(table[a:b], [t - a], "entropy")
            if e < best - 1e-9:
                best, cut = e, t
        if cut is None:
            return
        gain = naive_interval_cost(whole, "entropy") - best
        if gain <= 1e-9:
            return
        left, right = np.sum(table[a:cut], axis=0), np.sum(table[cut:b], axis=0)
        k, k1, k2 = ((c > 0).sum() for c in (whole, left, right))
        delta = math.log2(3**k - 2) - (
            k * entropy(whole) - k1 * entropy(left) - k2 * entropy(right)
        )
        if gain > math.log2(n - 1) + delta:
            out.append(cut)
            split(a, cut, out)
            split(cut, b, out)

    cuts = []
    split(0, len(table), cuts)
    return np.array(sorted(cuts), dtype=int)


def naive_adjacent_merges(table, min_count):
    """Khiops' adjacent merges by a plain greedy loop: frequency phase, then the
    whole sequence. Returns (starts after the frequency phase, merges as
    (left start, right start, DeltaChi2))."""
    intervals = [(r, np.array(row, dtype=float)) for r, row in enumerate(table)]

    def best_pair(eligible):
        found = None
        for t in range(len(intervals) - 1):
            a, b = intervals[t][1], intervals[t + 1][1]
            if not eligible(a, b):
                continue
            # DeltaChi2 with the proportions of the whole table, not of the pair
            d = _delta_with_q(a, b, table.sum(axis=0) / table.sum())
            if found is None or d < found[0]:
                found = (d, t)
        return found

    while len(intervals) > 1:
        found = best_pair(lambda a, b: a.sum() < min_count or b.sum() < min_count)
        if found is None:
            break
        t = found[1]
        intervals[t] = (intervals[t][0], intervals[t][1] + intervals[t + 1][1])
        del intervals[t + 1]
    starts = [s for s, _ in intervals]
    merges = []
    while len(intervals) > 1:
        d, t = best_pair(lambda a, b: True)
        merges.append((intervals[t][0], intervals[t + 1][0], d))
        intervals[t] = (intervals[t][0], intervals[t][1] + intervals[t + 1][1])
        del intervals[t + 1]
    return np.array(starts), merges


def naive_adjacent_merges_exact(table, min_count):
    """Twin of ``adjacent_merges`` with its float operations: the greedy loop
    that scans every adjacent pair at each merge, sums made row by row then
    class by class, smallest (DeltaChi2, left start) first. Returns
    (initial_starts, kept, absorbed, delta) as arrays."""
    n_rows, n_classes = table.shape
    counts = [[float(c) for c in row] for row in table]
    masses = []
    class_totals = [0.0] * n_classes
    for row in counts:
        mass = 0.0
        for j, c in enumerate(row):
            mass += c
            class_totals[j] += c
        masses.append(mass)
    grand_total = 0.0
    for total in class_totals:
        grand_total += total
    inv_q = [grand_total / total for total in class_totals]
    starts = list(range(n_rows))

    def delta(t):
        a, b = starts[t], starts[t + 1]
        total = 0.0
        for j in range(n_classes):
            diff = counts[a][j] / masses[a] - counts[b][j] / masses[b]
            total += diff * diff * inv_q[j]
        return masses[a] * masses[b] / (masses[a] + masses[b]) * total

    def merge(t):
        a, b = starts[t], starts[t + 1]
        counts[a] = [x + y for x, y in zip(counts[a], counts[b], strict=True)]
        masses[a] += masses[b]
        del starts[t + 1]
        return a, b

    while len(starts) > 1:
        candidates = [
            (delta(t), t)
            for t in range(len(starts) - 1)
            if masses[starts[t]] < min_count or masses[starts[t + 1]] < min_count
        ]
        if not candidates:
            break
        merge(min(candidates)[1])
    initial = np.array(starts, dtype=np.intp)
    kept, absorbed, deltas = [], [], []
    while len(starts) > 1:
        d, t = min((delta(t), t) for t in range(len(starts) - 1))
        a, b = merge(t)
        kept.append(a)
        absorbed.append(b)
        deltas.append(d)
    return (
        initial,
        np.array(kept, dtype=np.intp),
        np.array(absorbed, dtype=np.intp),
        np.array(deltas, dtype=np.float64),
    )


def naive_granules(table, n_granules):
    """Equal-frequency granules on boundary points, target by target: for the
    ``k``-th of ``n_granules - 1`` weight targets, the cut is the first boundary
    point after the first row whose running weight (rows summed class by
    class, then row by row) reaches it. Returns (starts, counts)."""
    n_rows = len(table)
    masses = []
    for row in table:
        mass = 0.0
        for count in row:
            mass += float(count)
        masses.append(mass)
    running, total = [], 0.0
    for mass in masses:
        total += mass
        running.append(total)

    def single_class(row):
        present = [j for j, count in enumerate(row) if count > 0]
        return present[0] if len(present) == 1 else -1

    def is_boundary(r):  # the gap before row r
        a, b = single_class(table[r - 1]), single_class(table[r])
        return a < 0 or a != b

    cuts = set()
    for k in range(1, n_granules):
        target = total * k / n_granules
        reached = next(r for r in range(n_rows) if running[r] >= target)
        after = [r for r in range(reached + 1, n_rows) if is_boundary(r)]
        if after:
            cuts.add(after[0])
    starts = np.array([0, *sorted(cuts)], dtype=np.intp)
    ends = [*starts[1:], n_rows]
    counts = np.array(
        [np.sum(table[a:b], axis=0) for a, b in zip(starts, ends, strict=True)]
    )
    return starts, counts.reshape(len(starts), table.shape[1])


def _delta_with_q(a, b, q):
    na, nb = a.sum(), b.sum()
    present = q > 0
    diff = a[present] / na - b[present] / nb
    return na * nb / (na + nb) * float(np.sum(diff**2 / q[present]))


def naive_max_cut_values(x, y, sample_weight=None):
    """The max-cut metric of each threshold between distinct sorted values, by the
    double sum over the pairs it separates."""
    x = np.asarray(x, dtype=float)
    w = np.ones(len(x)) if sample_weight is None else np.asarray(sample_weight)
    values = []
    for t in range(len(x) - 1):
        if x[t] == x[t + 1]:
            continue
        total = 0.0
        for i in range(t + 1):
            for k in range(t + 1, len(x)):
                if y[i] != y[k]:
                    total += w[i] * w[k] * (x[k] - x[i])
        values.append(total)
    return np.array(values)


def naive_refine_cuts(table, coarse_starts, cuts, criterion):
    """Each cut in turn (left to right) moved to the best row of the two coarse
    units around it, strictly between its neighbours; first best row on ties."""
    cuts = list(cuts)
    n_rows = len(table)
    starts = list(coarse_starts)
    for t in range(len(cuts)):
        a = cuts[t - 1] if t > 0 else 0
        b = cuts[t + 1] if t + 1 < len(cuts) else n_rows
        u = max(i for i, s in enumerate(starts) if s <= cuts[t])
        low = starts[u - 1] + 1 if u >= 1 else 1
        high = starts[u + 1] - 1 if u + 1 < len(starts) else n_rows - 1
        candidates = range(max(low, a + 1), min(high, b - 1) + 1)
        costs = [
            naive_partition_cost(table[a:b], [pos - a], criterion) for pos in candidates
        ]
        best = min(costs)
        cuts[t] = candidates[next(i for i, c in enumerate(costs) if c <= best + 1e-9)]
    return np.array(cuts), naive_partition_cost(table, cuts, criterion)


def naive_accumulate_keys(codes, lookup, size, keys):
    """Twin of ``accumulate_keys``: append one digit to each key, -1 absorbing."""
    out = keys.copy()
    for i, code in enumerate(codes):
        if out[i] < 0:
            continue
        level = lookup[code + 1]
        out[i] = -1 if level < 0 else out[i] * size + level
    return out


def naive_positive_rows(codes, lookup, weights, n_rows):
    """Twin of ``positive_rows``: rows reached by a row of positive weight."""
    present = [False] * n_rows
    for i, code in enumerate(codes):
        if weights is not None and not weights[i] > 0:
            continue
        row = code if lookup is None else lookup[code + 1]
        present[n_rows - 1 if row < 0 else row] = True
    return np.array(present)


def naive_combinations(rows, weights=None):
    """Codes of the value combinations of rows, by sorting the tuples themselves.

    Parameters
    ----------
    rows : list of tuples
        One tuple of member values per row; ``None`` (or NaN) is the missing value.
    weights : sequence of float or None
        Rows of zero weight do not make a combination seen.

    Returns
    -------
    codes : list of int
        Rank of each row's combination among the combinations seen with positive
        weight, tuples ordered member by member with missing values last; -1 for a
        combination seen only with zero weight.
    combinations : list of tuples
        The seen combinations in code order.
    """

    def sort_key(row):
        return tuple((1, 0) if _is_missing(v) else (0, v) for v in row)

    seen = {
        sort_key(row): row
        for i, row in enumerate(rows)
        if weights is None or weights[i] > 0
    }
    order = sorted(seen)
    rank = {key: k for k, key in enumerate(order)}
    codes = [rank.get(sort_key(row), -1) for row in rows]
    return codes, [seen[key] for key in order]


def _is_missing(value):
    return value is None or (isinstance(value, float) and math.isnan(value))


def naive_node_tables(codes, rows, y_codes, weights, features, n_categories, n_classes):
    """Tables of ``features`` over ``rows``, stacked, by one naive_table each."""
    return np.vstack(
        [
            naive_table(
                [codes[i, f] for i in rows],
                [y_codes[i] for i in rows],
                [weights[i] for i in rows],
                n_categories[f],
                n_classes,
            )
            for f in features
        ]
    )


def naive_best_threshold(x, y_codes, weights, n_classes, impurity, min_leaf):
    """Least impurity over the thresholds between distinct values of ``x`` whose
    sides weigh at least ``min_leaf``: (number of values on the left, impurity),
    (-1, inf) when there is none."""
    values, table = naive_value_table(x, y_codes, weights, n_classes)
    best, cut = math.inf, -1
    for k in range(1, len(values)):
        left = table[:k].sum(axis=0)
        right = table[k:].sum(axis=0)
        if left.sum() < min_leaf or right.sum() < min_leaf:
            continue
        value = naive_split_impurity(np.vstack([left, right]), {0}, impurity)
        if value < best:
            best, cut = value, k
    return cut, best


def naive_threshold_children(x, y_codes, weights, n_classes, threshold):
    """Class counts of the rows at most ``threshold`` (row 0) and above (row 1)."""
    children = np.zeros((2, n_classes))
    for value, label, weight in zip(x, y_codes, weights, strict=True):
        children[0 if value <= threshold else 1, label] += weight
    return children


def naive_node_thresholds(
    columns, rows, y_codes, weights, n_classes, impurity, min_leaf
):
    """Per numeric column of ``rows``: the least-impurity threshold of its known
    values (naive_best_threshold), then the missing rows on the side whose
    children have the least weighted impurity (ties: left). Returns, per column,
    None or (threshold, children table, side of the missing rows or -1)."""
    results = []
    for x_all in columns:
        x = np.array([x_all[i] for i in rows if not math.isnan(x_all[i])])
        y = [y_codes[i] for i in rows if not math.isnan(x_all[i])]
        w = [weights[i] for i in rows if not math.isnan(x_all[i])]
        cut, _ = naive_best_threshold(x, y, w, n_classes, impurity, min_leaf)
        if len(x) == 0 or cut < 0:
            results.append(None)
            continue
        values = np.unique(x)
        threshold = values[cut - 1] / 2 + values[cut] / 2
        children = naive_threshold_children(x, y, w, n_classes, threshold)
        missing = np.zeros(n_classes)
        for i in rows:
            if math.isnan(x_all[i]):
                missing[y_codes[i]] += weights[i]
        side = -1
        if missing.sum() > 0:
            trials = []
            for slot in range(2):
                trial = children.copy()
                trial[slot] += missing
                sizes = trial.sum(axis=1)
                trials.append(
                    sum(
                        size / sizes.sum() * naive_impurity(row, impurity)
                        for size, row in zip(sizes, trial, strict=True)
                        if size > 0
                    )
                )
            side = 0 if trials[0] <= trials[1] else 1
            children[side] += missing
        results.append((threshold, children, side))
    return results


def naive_partition_rows(segment, slot_of_row, n_children):
    """The rows of ``segment`` by child slot, each child's in their order."""
    return [[i for i in segment if slot_of_row[i] == k] for k in range(n_children)]


def naive_paths(tree, codes, numeric, stop_on_unknown):
    """Walk a flat tree row by row in Python: the nodes each row visits.

    Follows the layout documented in ``partikit.tree._structure``: a categorical
    node maps the row's category to a child slot; a numeric or projection node
    counts the thresholds its value exceeds; an unknown value (category -1 or
    absent at the node, NaN without a learned slot) stops the row or follows the
    default child.
    """
    paths = []
    for i in range(codes.shape[0]):
        node, path = 0, [0]
        while tree.kind[node] != 0:
            if tree.kind[node] == 1:
                code = codes[i, tree.feature[node]]
                slot = tree.category_child[tree.map_start[node] + code]
                slot = -1 if code < 0 else slot
            else:
                if tree.kind[node] == 2:
                    x = numeric[i, tree.feature[node]]
                else:
                    start = tree.projection_start[node]
                    direction = tree.projections[start : start + numeric.shape[1]]
                    x = float(np.dot(numeric[i], direction))
                start = tree.threshold_start[node]
                cuts = tree.thresholds[start : start + tree.n_children[node] - 1]
                slot = sum(x > t for t in cuts)
                slot = tree.nan_child[node] if math.isnan(x) else slot
            if slot < 0:
                if stop_on_unknown:
                    break
                slot = tree.default_child[node]
            node = tree.children[tree.children_start[node] + slot]
            path.append(node)
        paths.append(path)
    return paths


def naive_modl_part_cost(counts, n_classes):
    """MODL cost of one part of whole counts, from exact integers:
    ``log C(n + J - 1, J - 1) + log(n! / prod_j n_j!)``."""
    counts = [int(round(c)) for c in counts]
    n = sum(counts)
    ways = math.comb(n + n_classes - 1, n_classes - 1)
    multinomial = math.factorial(n)
    for c in counts:
        multinomial //= math.factorial(c)
    return math.log(ways) + math.log(multinomial)


def naive_log_bell(n, k):
    """``log B(n, k)``: log of the number of partitions of ``n`` values into at
    most ``k`` groups, summing exact Stirling numbers."""
    return math.log(sum(naive_stirling2(n, i) for i in range(1, min(k, n) + 1)))


def naive_modl_grouping_cost(table, group_ids):
    """MODL criterion of a grouping (Boulle 2005, theorem 1), from its terms:
    ``log I + log B(I, K) + sum_k part_cost(group k)`` over the non-empty rows
    and the non-empty classes."""
    table = np.asarray(table, dtype=np.float64)
    rows = [i for i in range(len(table)) if table[i].sum() > 0]
    columns = [j for j in range(table.shape[1]) if table[:, j].sum() > 0]
    groups = {}
    for i in rows:
        groups.setdefault(group_ids[i], np.zeros(len(columns)))
        groups[group_ids[i]] += table[i, columns]
    cost = math.log(len(rows)) + naive_log_bell(len(rows), len(groups))
    return cost + sum(naive_modl_part_cost(g, len(columns)) for g in groups.values())


def naive_set_partitions(items):
    """Every partition of ``items`` into non-empty blocks (lists of lists)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in naive_set_partitions(rest):
        yield [[first], *partition]
        for b in range(len(partition)):
            yield [*partition[:b], [first, *partition[b]], *partition[b + 1 :]]


def naive_best_modl_grouping(table, max_groups=None):
    """The least MODL criterion over every partition of the non-empty rows into
    at most ``max_groups`` groups."""
    table = np.asarray(table, dtype=np.float64)
    rows = [i for i in range(len(table)) if table[i].sum() > 0]
    best = math.inf
    for partition in naive_set_partitions(rows):
        if max_groups is not None and len(partition) > max_groups:
            continue
        group_ids = np.full(len(table), -1)
        for g, block in enumerate(partition):
            group_ids[block] = g
        best = min(best, naive_modl_grouping_cost(table, group_ids))
    return best


def naive_modl_greedy_merges(groups, n_classes):
    """Greedy merging of the rows of ``groups`` down to one, recomputing every
    pair at every step: the merge of least increase of the summed part costs
    first (first pair in row order on ties). Returns the summed part costs
    when ``k`` groups remain, ``k = 1 .. n_rows``."""
    parts = [np.asarray(row, dtype=np.float64) for row in groups]
    costs = {len(parts): sum(naive_modl_part_cost(p, n_classes) for p in parts)}
    while len(parts) > 1:
        best, pair = math.inf, None
        for a, b in itertools.combinations(range(len(parts)), 2):
            delta = (
                naive_modl_part_cost(parts[a] + parts[b], n_classes)
                - naive_modl_part_cost(parts[a], n_classes)
                - naive_modl_part_cost(parts[b], n_classes)
            )
            if delta < best - 1e-12:
                best, pair = delta, (a, b)
        a, b = pair
        parts[a] = parts[a] + parts[b]
        del parts[b]
        costs[len(parts)] = costs[len(parts) + 1] + best
    return np.array([costs[k] for k in range(1, len(groups) + 1)])


def naive_modl_post_optimise(values, labels, n_classes, n_values_prior, max_passes):
    """The MODL post-optimisation by whole criteria: rounds of passes in which
    each value in turn goes to the non-empty group where the criterion is
    least (if that lowers it by more than 1e-9; the first such group on ties),
    until a pass moves nothing (at most ``max_passes``), then the best merge of
    two groups if it lowers the criterion by more than 1e-9; at most
    ``max_passes`` rounds, ending at the first without a merge.
    ``n_values_prior`` is the ``I`` of the prior. Returns the labels numbered
    by first value."""
    labels = np.array(labels)

    def cost(lab):
        groups = {}
        for v, g in enumerate(lab):
            groups.setdefault(g, np.zeros(values.shape[1]))
            groups[g] += values[v]
        return naive_log_bell(n_values_prior, len(groups)) + sum(
            naive_modl_part_cost(x, n_classes) for x in groups.values()
        )

    for _ in range(max_passes):
        for _ in range(max_passes):
            moved = 0
            for v in range(len(values)):
                if values[v].sum() == 0:
                    continue
                current = cost(labels)
                best, target = -1e-9, None
                for g in sorted(set(labels) - {labels[v]}):
                    trial = labels.copy()
                    trial[v] = g
                    delta = cost(trial) - current
                    if delta < best:
                        best, target = delta, g
                if target is not None:
                    labels[v] = target
                    moved += 1
            if moved == 0:
                break
        current = cost(labels)
        best, pair = -1e-9, None
        for a, b in itertools.combinations(sorted(set(labels)), 2):
            delta = cost(np.where(labels == b, a, labels)) - current
            if delta < best:
                best, pair = delta, (a, b)
        if pair is None:
            break
        labels = np.where(labels == pair[1], pair[0], labels)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.argsort(np.argsort(first))
    return rank[inverse]


def _naive_log_factorial(x):
    return math.lgamma(x + 1.0)


def naive_modl_interval_cost(counts):
    """``log C(n + J - 1, J - 1) + log(n! / prod n_j!)`` of one interval, ``J``
    the length of ``counts``, by ``math.lgamma`` term by term."""
    counts = [float(c) for c in counts]
    n_classes = len(counts)
    n = sum(counts)
    value = (
        _naive_log_factorial(n + n_classes - 1)
        - _naive_log_factorial(n_classes - 1)
        - _naive_log_factorial(n)
    )
    value += _naive_log_factorial(n)
    for c in counts:
        value -= _naive_log_factorial(c)
    return value


def naive_modl_discretization_cost(table, cuts):
    """Boulle's MODL criterion of a value table cut at ``cuts``, by its formula:
    ``log n + log C(n + I - 1, I - 1) + sum_i log C(n_i + J - 1, J - 1)
    + sum_i log(n_i! / prod_j n_ij!)``, ``J`` the classes present."""
    table = np.asarray(table, dtype=float)
    present = [j for j in range(table.shape[1]) if table[:, j].sum() > 0]
    n = float(table.sum())
    bounds = [0, *[int(c) for c in cuts], table.shape[0]]
    n_intervals = len(bounds) - 1
    value = math.log(n) + (
        _naive_log_factorial(n + n_intervals - 1)
        - _naive_log_factorial(n_intervals - 1)
        - _naive_log_factorial(n)
    )
    for s, e in itertools.pairwise(bounds):
        counts = [sum(table[r, j] for r in range(s, e)) for j in present]
        value += naive_modl_interval_cost(counts)
    return value


def naive_best_modl_discretization(table, max_bins=None):
    """The least MODL cost over every subset of cuts (at most ``max_bins - 1``)
    and one subset reaching it: ``(cost, cuts)``; ties to the fewest cuts."""
    n_rows = len(table)
    best = None
    most = n_rows - 1 if max_bins is None else min(n_rows - 1, max_bins - 1)
    for k in range(most + 1):
        for cuts in itertools.combinations(range(1, n_rows), k):
            cost = naive_modl_discretization_cost(table, cuts)
            if best is None or cost < best[0] - 1e-9:
                best = (cost, list(cuts))
    return best


def naive_block_cumulative(table, starts, columns):
    """Class counts of ``columns`` of the rows before each block start, and of
    every row (last row)."""
    table = np.asarray(table, dtype=float)
    out = [[sum(table[r, j] for r in range(s)) for j in columns] for s in starts]
    out.append([table[:, j].sum() for j in columns])
    return np.array(out, dtype=float).reshape(len(starts) + 1, len(columns))


def _naive_interval_cost(cum, s, e):
    return naive_modl_interval_cost(np.asarray(cum[e]) - np.asarray(cum[s]))


def naive_optimal_intervals(cum, max_intervals):
    """Least total part cost of the blocks of ``cum`` cut into ``k`` intervals,
    ``k = 0 .. min(m, max_intervals)`` (``inf`` at 0), by enumeration."""
    m = len(cum) - 1
    most = min(m, max_intervals)
    best = [math.inf] * (most + 1)
    for k in range(1, most + 1):
        for inner in itertools.combinations(range(1, m), k - 1):
            bounds = [0, *inner, m]
            value = sum(
                _naive_interval_cost(cum, s, e) for s, e in itertools.pairwise(bounds)
            )
            best[k] = min(best[k], value)
    return np.array(best)


def naive_modl_adjacent_merges(cum):
    """The greedy merges of adjacent intervals from the blocks to one interval,
    every pair re-evaluated at each step: ``(absorbed, part_sums)`` (ties: the
    leftmost pair)."""
    m = len(cum) - 1
    bounds = list(range(m + 1))
    costs = [_naive_interval_cost(cum, s, s + 1) for s in range(m)]
    absorbed, part_sums = [], [sum(costs)]
    while len(bounds) > 2:
        deltas = [
            _naive_interval_cost(cum, bounds[i], bounds[i + 2])
            - costs[i]
            - costs[i + 1]
            for i in range(len(bounds) - 2)
        ]
        i = int(np.argmin(deltas))
        absorbed.append(bounds[i + 1])
        costs[i : i + 2] = [_naive_interval_cost(cum, bounds[i], bounds[i + 2])]
        del bounds[i + 1]
        part_sums.append(sum(costs))
    return np.array(absorbed, dtype=np.int64), np.array(part_sums)


def naive_modl_post_optimize(cum, bounds, max_intervals):
    """Boulle's post-optimisation by recomputing every move's total cost from
    scratch: Split, Merge, MergeSplit, MergeMergeSplit, the best improving move
    first (ties: the leftmost place, then that order of kinds), until none
    improves. Returns ``(bounds, n_moves)``."""
    m = len(cum) - 1
    n = float(np.sum(cum[m]))

    def total(b):
        k = len(b) - 1
        prior = (
            _naive_log_factorial(n + k - 1)
            - _naive_log_factorial(k - 1)
            - _naive_log_factorial(n)
        )
        return prior + sum(
            _naive_interval_cost(cum, s, e) for s, e in itertools.pairwise(b)
        )

    def best_cut(s, e):
        options = [
            (_naive_interval_cost(cum, s, c) + _naive_interval_cost(cum, c, e), c)
            for c in range(s + 1, e)
        ]
        return min(options, key=lambda o: o[0])[1]

    bounds = [int(b) for b in bounds]
    n_moves = 0
    while True:
        current = total(bounds)
        tolerance = 1e-9 * (1 + abs(current))
        best, choice = -tolerance, None
        size = len(bounds) - 1
        for i in range(size):
            candidates = []
            if size < max_intervals and bounds[i + 1] - bounds[i] > 1:
                c = best_cut(bounds[i], bounds[i + 1])
                candidates.append([*bounds[: i + 1], c, *bounds[i + 1 :]])
            if i + 1 < size:
                candidates.append([*bounds[: i + 1], *bounds[i + 2 :]])
                c = best_cut(bounds[i], bounds[i + 2])
                candidates.append([*bounds[: i + 1], c, *bounds[i + 2 :]])
            if i + 2 < size:
                c = best_cut(bounds[i], bounds[i + 3])
                candidates.append([*bounds[: i + 1], c, *bounds[i + 3 :]])
            for candidate in candidates:
                delta = total(candidate) - current
                if delta < best:
                    best, choice = delta, candidate
        if choice is None:
            return np.array(bounds, dtype=np.int64), n_moves
        bounds = choice
        n_moves += 1


def naive_optimal_intervals_vectorised(cum, n_classes, factorials, max_intervals):
    """The exact MODL dynamic programme in numpy, with the kernel's outputs:
    ``best[k]`` and ``start[k, e]`` (the first block of the last of the best
    ``k`` intervals of blocks ``0 .. e - 1``, the leftmost on ties). Every
    interval cost at once, then one minimum per ``k``."""
    from partikit._statistics._modl import part_costs

    m = cum.shape[0] - 1
    n_max = min(m, max_intervals)
    costs = part_costs(cum[None, :, :] - cum[:, None, :], n_classes, factorials)
    costs[np.tril_indices(m + 1)] = np.inf  # s >= e: no interval
    value = np.full((n_max + 1, m + 1), np.inf)
    start = np.zeros((n_max + 1, m + 1), dtype=np.int64)
    value[0, 0] = 0.0
    for k in range(1, n_max + 1):
        candidates = value[k - 1, k - 1 : m, None] + costs[k - 1 : m, k:]
        at = candidates.argmin(axis=0)
        start[k, k:] = at + (k - 1)
        value[k, k:] = candidates[at, np.arange(m + 1 - k)]
    return value[:, m].copy(), start


def naive_squared_error(y, weights):
    """Sum of the weighted squared deviations of ``y`` from its weighted mean."""
    y = np.asarray(y, dtype=float)
    weights = np.asarray(weights, dtype=float)
    if weights.sum() <= 0:
        return 0.0
    mean = np.sum(weights * y) / weights.sum()
    return float(np.sum(weights * (y - mean) ** 2))


def naive_moments(y, weights):
    """(weight, sum, sum of squares) of ``y`` under ``weights``."""
    y = np.asarray(y, dtype=float)
    weights = np.asarray(weights, dtype=float)
    return np.array([weights.sum(), np.sum(weights * y), np.sum(weights * y * y)])


def naive_squared_error_thresholds(columns, rows, y, weights, min_leaf):
    """Per numeric column of ``rows``: the threshold between consecutive distinct
    known values of least summed squared error of the two sides (each side's
    weight at least ``min_leaf``; ties: the smallest threshold), then the rows
    with a missing value on the side of least weighted variance (ties: left).
    Returns, per column, None or (threshold, moments of the two sides, side of
    the missing rows or -1)."""
    results = []
    for x_all in columns:
        known = [i for i in rows if not math.isnan(x_all[i])]
        missing = [i for i in rows if math.isnan(x_all[i])]
        values = np.unique([x_all[i] for i in known])
        best, threshold = math.inf, None
        for k in range(1, len(values)):
            cut = values[k - 1] / 2 + values[k] / 2
            left = [i for i in known if x_all[i] <= cut]
            right = [i for i in known if x_all[i] > cut]
            if weights[left].sum() < min_leaf or weights[right].sum() < min_leaf:
                continue
            error = naive_squared_error(y[left], weights[left]) + naive_squared_error(
                y[right], weights[right]
            )
            if error < best:
                best, threshold = error, cut
        if threshold is None:
            results.append(None)
            continue
        sides = [
            [i for i in known if x_all[i] <= threshold],
            [i for i in known if x_all[i] > threshold],
        ]
        side = -1
        if missing:
            trials = []
            for slot in range(2):
                trial = [s + missing if k == slot else s for k, s in enumerate(sides)]
                trials.append(sum(naive_squared_error(y[s], weights[s]) for s in trial))
            side = 0 if trials[0] <= trials[1] else 1
            sides[side] = sides[side] + missing
        children = np.array([naive_moments(y[s], weights[s]) for s in sides])
        results.append((threshold, children, side))
    return results


def naive_node_mean_splits(codes, rows, y, weights, min_second, min_leaf):
    """Per categorical column (a row of ``codes``) at the node of ``rows``: the
    categories present sorted by their weighted mean target (ties: first seen
    first), the prefix of that order of least summed squared error of the two
    sides (ties: the shortest), the side of the smallest category as child 0.
    Returns, per column, "dropped" (one category, or a second most frequent
    one lighter than ``min_second``), None (a child lighter than
    ``min_leaf``), or ({category: child}, moments of the two children)."""
    results = []
    for column_codes in codes:
        seen = []
        for i in rows:
            if column_codes[i] not in seen:
                seen.append(int(column_codes[i]))
        members = {c: [i for i in rows if column_codes[i] == c] for c in seen}
        sizes = sorted((weights[members[c]].sum() for c in seen), reverse=True)
        if len(seen) < 2 or sizes[1] < min_second:
            results.append("dropped")
            continue
        ranked = sorted(
            seen,
            key=lambda c: (
                np.sum(weights[members[c]] * y[members[c]]) / weights[members[c]].sum()
            ),
        )
        best, best_k = math.inf, None
        for k in range(1, len(ranked)):
            left = [i for c in ranked[:k] for i in members[c]]
            right = [i for c in ranked[k:] for i in members[c]]
            error = naive_squared_error(y[left], weights[left]) + naive_squared_error(
                y[right], weights[right]
            )
            if error < best:
                best, best_k = error, k
        smallest_left = min(seen) in ranked[:best_k]
        child = {c: (0 if (c in ranked[:best_k]) == smallest_left else 1) for c in seen}
        sides = [[i for c in seen if child[c] == k for i in members[c]] for k in (0, 1)]
        children = np.array([naive_moments(y[s], weights[s]) for s in sides])
        if children[:, 0].min() < min_leaf:
            results.append(None)
            continue
        results.append((child, children))
    return results


def naive_squared_error_of_moments(moments):
    """``sum w y^2 - (sum w y)^2 / sum w`` of one moment row, clipped at 0."""
    weight, total, squares = moments
    return max(squares - total * total / weight, 0.0)


def naive_constrained_multisplit(table, costs, max_bins, constraints):
    """Twin of ``constrained_multisplit``: every partition of the table's rows
    into k <= max_bins intervals enumerated, the admissible ones (sizes, event
    counts, trend) kept; ``{k: (least cost, cuts)}``. ``costs[j, i]``: the cost
    of rows j .. i-1."""
    import itertools

    from partikit._statistics._constraints import admissible, follows_trend, rates_of

    n_rows = table.shape[0]
    best = {}
    for k in range(1, min(max_bins, n_rows) + 1):
        for cuts in itertools.combinations(range(1, n_rows), k - 1):
            edges = [0, *cuts, n_rows]
            parts = np.array(
                [
                    table[a:b].sum(axis=0)
                    for a, b in zip(edges[:-1], edges[1:], strict=True)
                ]
            )
            if not admissible(parts, constraints).all():
                continue
            rates = rates_of(parts, constraints.target_type)
            if not follows_trend(rates, constraints.monotonic_trend):
                continue
            value = sum(costs[a, b] for a, b in zip(edges[:-1], edges[1:], strict=True))
            if value < best.get(k, (np.inf,))[0]:
                best[k] = (value, cuts)
    return best


def naive_interval_cost_matrix(table, criterion):
    """Twin of the interval cost matrix kernel: each interval's impurity
    (entropy in bits, gini) or squared error (moment table) from its sums."""
    n_rows = table.shape[0]
    out = np.full((n_rows + 1, n_rows + 1), np.inf)
    for j in range(n_rows):
        for i in range(j + 1, n_rows + 1):
            c = table[j:i].sum(axis=0)
            if criterion == "squared_error":
                out[j, i] = max(c[2] - c[1] ** 2 / c[0], 0.0) if c[0] > 0 else 0.0
                continue
            n = c.sum()
            if criterion == "entropy":
                nz = c[c > 0]
                out[j, i] = n * np.log2(n) - float((nz * np.log2(nz)).sum())
            else:
                out[j, i] = n - float((c * c).sum()) / n
    return out
