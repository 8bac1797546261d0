# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Compiled loops of the MODL criteria (Boulle 2005, 2006).

Both MODL criteria add, over the parts of a partition (groups of values or
intervals), the cost of a part holding ``n`` rows of counts ``x_1 .. x_J``:

    part_cost(x) = log C(n + J - 1, J - 1) + log(n! / (x_1! ... x_J!))
                 = lnf(n + J - 1) - lnf(J - 1) - sum_j lnf(x_j)

(``lnf(x) = log x! = lgamma(x + 1)``), to a prior on the number of parts and on
the partition. The loops here read ``lnf`` from a table of ``log i!`` when a
count is a whole number within it (every unweighted fit) and call ``lgamma``
otherwise (sample weights): one float64 signature for every kernel.

References
----------
.. [1] Boulle, M. (2005). A Bayes optimal approach for partitioning the values
   of categorical attributes. Journal of Machine Learning Research 6,
   1431-1452.
.. [2] Boulle, M. (2006). MODL: a Bayes optimal discretization method for
   continuous attributes. Machine Learning 65, 131-165.
   doi:10.1007/s10994-006-8364-x
"""

import math

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT


@njit(**NJIT)
def lnf(x, log_factorials):
    """``log x!``: from the table when ``x`` is a whole number within it."""
    i = int(x)
    if i == x and i < log_factorials.shape[0]:
        return log_factorials[i]
    return math.lgamma(x + 1.0)


@njit(**NJIT)
def part_cost(counts, n_classes, log_factorials):
    """MODL cost of one part (group or interval) of class counts ``counts``."""
    total = 0.0
    multinomial = 0.0
    for j in range(counts.shape[0]):
        c = counts[j]
        if c > 0:
            total += c
            multinomial += lnf(c, log_factorials)
    return (
        lnf(total + n_classes - 1, log_factorials)
        - lnf(n_classes - 1.0, log_factorials)
        - multinomial
    )


@njit(**NJIT)
def log_bell_numbers(n, k_max):
    """``log B(n, k)`` for ``k = 0 .. k_max``: the number of partitions of ``n``
    values into at most ``k`` non-empty groups (``-inf`` at ``k = 0``).

    ``B(n, k) = sum_{i <= k} S(n, i) = sum_{i=1}^{k} (i^n / i!) e_{k-i}`` with
    ``e_m = sum_{j <= m} (-1)^j / j!`` (the partial sums of ``1/e``, all
    non-negative, so no term cancels another). The sum is taken in the log
    domain from its largest term ``i^n / i!`` outwards until the terms are
    negligible, as Khiops does.
    """
    out = np.full(k_max + 1, -np.inf)
    if k_max < 1:
        return out
    if n <= 1:
        out[1:] = 0.0
        return out
    n_series = 20
    partial = np.empty(n_series)
    term = 1.0
    acc = 1.0
    partial[0] = 1.0
    for m in range(1, n_series):
        term *= -1.0 / m
        acc += term
        partial[m] = acc
    inv_e = math.exp(-1.0)
    # the largest term i^n / i! for i <= k_max: the terms grow while
    # n log((i + 1) / i) > log(i + 1)
    i_peak = 1
    while i_peak < k_max and n * math.log1p(1.0 / i_peak) > math.log(i_peak + 1.0):
        i_peak += 1
    eps = 1e-18
    for k in range(1, k_max + 1):
        if k > n:
            out[k] = out[n]
            continue
        i0 = min(i_peak, k)
        log_t0 = n * math.log(i0) - math.lgamma(i0 + 1.0)
        series = 0.0
        for i in range(i0, k + 1):
            factor = inv_e if k - i >= n_series else partial[k - i]
            t = math.exp(n * math.log(i) - math.lgamma(i + 1.0) - log_t0)
            series += t * factor
            if t < eps:
                break
        for i in range(i0 - 1, 0, -1):
            factor = inv_e if k - i >= n_series else partial[k - i]
            t = math.exp(
                n * math.log(i / i0) + math.lgamma(i0 + 1.0) - math.lgamma(i + 1.0)
            )
            series += t * factor
            if t < eps:
                break
        out[k] = math.log(series) + log_t0
    return out


@njit(**NJIT)
def _merge_delta(groups, costs, a, b, n_classes, log_factorials, scratch):
    for j in range(groups.shape[1]):
        scratch[j] = groups[a, j] + groups[b, j]
    return part_cost(scratch, n_classes, log_factorials) - costs[a] - costs[b]


@njit(**NJIT)
def _refresh_partner(groups, costs, alive, a, n_classes, log_factorials, scratch,
                     best_delta, best_partner):  # fmt: skip
    best = np.inf
    partner = -1
    for c in range(groups.shape[0]):
        if c != a and alive[c]:
            d = _merge_delta(groups, costs, a, c, n_classes, log_factorials, scratch)
            if d < best:
                best = d
                partner = c
    best_delta[a] = best
    best_partner[a] = partner


@njit(**NJIT)
def modl_merge_sequence(groups, n_classes, log_factorials):
    """Greedy bottom-up merges of the rows of ``groups``, down to one group.

    At each step the two groups whose merge lowers the sum of part costs the
    most (increases it the least) are merged: the prior term of the MODL
    grouping criterion depends on the number of groups only, the same for every
    pair. Each group keeps its best partner and the cost of that merge. After a
    merge, a group whose partner was one of the merged two takes the merged
    group if that is cheaper than its old best (every other partner costs at
    least that much); otherwise its old best becomes a lower bound, and its
    partners are scanned again only when that bound is the least of all (lazy
    evaluation). The merges are those of the greedy loop that evaluates every
    pair at every step; O(I^2 J) time in general, O(I J) memory.

    Returns
    -------
    kept, absorbed : ndarray of intp of shape (n_rows - 1,)
        The merges in order; ``absorbed`` is merged into ``kept``.
    part_costs : ndarray of float64 of shape (n_rows,)
        ``part_costs[k - 1]``: the sum of part costs when ``k`` groups remain.
    """
    groups = groups.copy()
    n_rows = groups.shape[0]
    scratch = np.empty(groups.shape[1])
    costs = np.empty(n_rows)
    for a in range(n_rows):
        costs[a] = part_cost(groups[a], n_classes, log_factorials)
    alive = np.ones(n_rows, dtype=np.bool_)
    stale = np.zeros(n_rows, dtype=np.bool_)
    best_delta = np.full(n_rows, np.inf)
    best_partner = np.full(n_rows, -1, dtype=np.intp)
    # only pairs (a, c > a) at first: each pair is computed once
    for a in range(n_rows):
        for c in range(a + 1, n_rows):
            d = _merge_delta(groups, costs, a, c, n_classes, log_factorials, scratch)
            if d < best_delta[a]:
                best_delta[a] = d
                best_partner[a] = c
            if d < best_delta[c]:
                best_delta[c] = d
                best_partner[c] = a
    kept = np.empty(max(n_rows - 1, 0), dtype=np.intp)
    absorbed = np.empty(max(n_rows - 1, 0), dtype=np.intp)
    part_costs = np.empty(n_rows)
    part_costs[n_rows - 1] = costs.sum()
    fresh = np.empty(n_rows)
    for step in range(n_rows - 1):
        while True:
            a = -1
            best = np.inf
            for c in range(n_rows):
                if alive[c] and best_delta[c] < best:
                    best = best_delta[c]
                    a = c
            if a < 0 or not stale[a]:
                break
            _refresh_partner(groups, costs, alive, a, n_classes, log_factorials,
                             scratch, best_delta, best_partner)  # fmt: skip
            stale[a] = False
        if a < 0:  # only non-finite deltas left: merge the first two alive
            for c in range(n_rows):
                if alive[c]:
                    if a < 0:
                        a = c
                    else:
                        best_partner[a] = c
                        break
        b = best_partner[a]
        if b < a:
            a, b = b, a
        kept[step] = a
        absorbed[step] = b
        part_costs[n_rows - 2 - step] = part_costs[n_rows - 1 - step] + (
            _merge_delta(groups, costs, a, b, n_classes, log_factorials, scratch)
        )
        for j in range(groups.shape[1]):
            groups[a, j] += groups[b, j]
        costs[a] = part_cost(groups[a], n_classes, log_factorials)
        alive[b] = False
        best_delta[b] = np.inf
        stale[a] = False
        # the merged group against every other: its own best partner, and an
        # offer to the others
        best_delta[a] = np.inf
        best_partner[a] = -1
        for c in range(n_rows):
            if c != a and alive[c]:
                d = _merge_delta(
                    groups, costs, a, c, n_classes, log_factorials, scratch
                )
                fresh[c] = d
                if d < best_delta[a]:
                    best_delta[a] = d
                    best_partner[a] = c
        for c in range(n_rows):
            if c == a or not alive[c]:
                continue
            if fresh[c] < best_delta[c]:
                # cheaper than every other partner (their costs are at least
                # best_delta[c], exact or a lower bound)
                best_delta[c] = fresh[c]
                best_partner[c] = a
                stale[c] = False
            elif best_partner[c] == a or best_partner[c] == b:
                # the old best is now a lower bound of c's partners
                stale[c] = True
    return kept, absorbed, part_costs


@njit(**NJIT)
def modl_exhaustive_grouping(groups, n_classes, log_factorials, log_bell, max_groups):
    """The partition of the rows of ``groups`` of least MODL cost, among every
    partition into at most ``max_groups`` groups (restricted growth strings).

    For a handful of rows (Bell(8) = 4,140 partitions of 8 rows). Ties keep the
    first partition met, which has the fewest groups among equals only by
    chance; the costs are floats of distinct partitions, equal only on
    symmetric tables.

    Returns
    -------
    labels : ndarray of intp of shape (n_rows,)
    cost : float
        Part costs plus ``log_bell[k]`` (the prior terms that depend on the
        partition).
    """
    n_rows, width = groups.shape
    labels = np.zeros(n_rows, dtype=np.intp)
    maxima = np.zeros(n_rows, dtype=np.intp)
    best_labels = labels.copy()
    best_cost = np.inf
    sums = np.zeros((n_rows, width))
    while True:
        k = maxima[n_rows - 1] + 1 if n_rows > 0 else 0
        if k <= max_groups:
            sums[:k] = 0.0
            for r in range(n_rows):
                for j in range(width):
                    sums[labels[r], j] += groups[r, j]
            cost = log_bell[k]
            for g in range(k):
                cost += part_cost(sums[g], n_classes, log_factorials)
            if cost < best_cost:
                best_cost = cost
                best_labels[:] = labels
        # next restricted growth string: labels[0] = 0, labels[r] <= max(prefix) + 1
        r = n_rows - 1
        while r > 0 and labels[r] == maxima[r - 1] + 1:
            r -= 1
        if r <= 0:
            break
        labels[r] += 1
        maxima[r] = max(maxima[r - 1], labels[r])
        for s in range(r + 1, n_rows):
            labels[s] = 0
            maxima[s] = maxima[r]
    return best_labels, best_cost


@njit(**NJIT)
def _add_delta(group, group_total, value, nonzero, n_nonzero, value_total,
               n_classes, log_factorials):  # fmt: skip
    """part_cost(group + value) - part_cost(group), from the value's non-zeros."""
    d = lnf(group_total + value_total + n_classes - 1, log_factorials) - lnf(
        group_total + n_classes - 1, log_factorials
    )
    for t in range(n_nonzero):
        j = nonzero[t]
        d -= lnf(group[j] + value[j], log_factorials) - lnf(group[j], log_factorials)
    return d


@njit(**NJIT)
def _remove_delta(group, group_total, value, nonzero, n_nonzero, value_total,
                  n_classes, log_factorials):  # fmt: skip
    """part_cost(group - value) - part_cost(group)."""
    rest = group_total - value_total
    if rest <= 1e-9 * max(group_total, 1.0):
        rest = 0.0
    d = lnf(rest + n_classes - 1, log_factorials) - lnf(
        group_total + n_classes - 1, log_factorials
    )
    for t in range(n_nonzero):
        j = nonzero[t]
        left = group[j] - value[j]
        if left < 0.0:
            left = 0.0
        d -= lnf(left, log_factorials) - lnf(group[j], log_factorials)
    return d


@njit(**NJIT)
def modl_post_optimise(values, labels, n_groups, n_classes, log_factorials,
                       log_bell, max_passes):  # fmt: skip
    """Moves of single values between groups, then merges of groups, while they
    lower the MODL grouping cost (Boulle 2005, section 4: post-optimisation).

    Parameters
    ----------
    values : ndarray of float64 of shape (n_values, n_classes_kept)
        The values to move (each is moved whole).
    labels : ndarray of intp of shape (n_values,)
        Their groups, ``0 .. n_groups - 1``; changed in place.
    n_groups : int
    n_classes : int
        ``J`` of the criterion.
    log_factorials, log_bell : ndarray of float64
        ``log i!`` and ``log B(I, k)`` for ``k = 0 .. n_groups``.
    max_passes : int
        Passes over the values at most (each pass is O(V (J + K nnz))).

    Returns
    -------
    n_groups : int
        Number of groups left; ``labels`` is renumbered ``0 .. n_groups - 1``
        in order of first value.
    n_moves, n_merges : int
    """
    n_values, width = values.shape
    groups = np.zeros((n_groups, width))
    totals = np.zeros(n_groups)
    sizes = np.zeros(n_groups, dtype=np.intp)
    value_totals = np.zeros(n_values)
    for v in range(n_values):
        g = labels[v]
        sizes[g] += 1
        for j in range(width):
            groups[g, j] += values[v, j]
            value_totals[v] += values[v, j]
        totals[g] += value_totals[v]
    alive = sizes > 0
    k = 0
    for g in range(n_groups):
        if alive[g]:
            k += 1
    nonzero = np.empty(width, dtype=np.intp)
    scratch = np.empty(width)
    n_moves = 0
    n_merges = 0
    tolerance = 1e-9
    for _ in range(max_passes):
        moved = 0
        for v in range(n_values):
            n_nonzero = 0
            for j in range(width):
                if values[v, j] > 0:
                    nonzero[n_nonzero] = j
                    n_nonzero += 1
            if n_nonzero == 0:
                continue
            a = labels[v]
            out = _remove_delta(groups[a], totals[a], values[v], nonzero, n_nonzero,
                                value_totals[v], n_classes, log_factorials)  # fmt: skip
            if sizes[a] == 1:
                out += log_bell[k - 1] - log_bell[k]
            best = -tolerance
            target = -1
            for b in range(n_groups):
                if b == a or not alive[b]:
                    continue
                d = out + _add_delta(
                    groups[b], totals[b], values[v], nonzero, n_nonzero,
                    value_totals[v], n_classes, log_factorials,
                )  # fmt: skip
                if d < best:
                    best = d
                    target = b
            if target >= 0:
                for t in range(n_nonzero):
                    j = nonzero[t]
                    groups[a, j] = max(groups[a, j] - values[v, j], 0.0)
                    groups[target, j] += values[v, j]
                totals[a] -= value_totals[v]
                totals[target] += value_totals[v]
                sizes[a] -= 1
                sizes[target] += 1
                labels[v] = target
                if sizes[a] == 0:
                    alive[a] = False
                    totals[a] = 0.0
                    groups[a] = 0.0
                    k -= 1
                moved += 1
        n_moves += moved
        # the best merge of two groups, if it lowers the cost
        best = -tolerance
        pa = -1
        pb = -1
        for a in range(n_groups):
            if not alive[a]:
                continue
            cost_a = part_cost(groups[a], n_classes, log_factorials)
            for b in range(a + 1, n_groups):
                if not alive[b]:
                    continue
                for j in range(width):
                    scratch[j] = groups[a, j] + groups[b, j]
                d = (
                    part_cost(scratch, n_classes, log_factorials)
                    - cost_a
                    - part_cost(groups[b], n_classes, log_factorials)
                    + log_bell[k - 1]
                    - log_bell[k]
                )
                if d < best:
                    best = d
                    pa = a
                    pb = b
        if pa >= 0:
            for j in range(width):
                groups[pa, j] += groups[pb, j]
                groups[pb, j] = 0.0
            totals[pa] += totals[pb]
            totals[pb] = 0.0
            sizes[pa] += sizes[pb]
            sizes[pb] = 0
            alive[pb] = False
            k -= 1
            for v in range(n_values):
                if labels[v] == pb:
                    labels[v] = pa
            n_merges += 1
        if moved == 0 and pa < 0:
            break
    # renumber by first value
    rank = np.full(n_groups, -1, dtype=np.intp)
    next_id = 0
    for v in range(n_values):
        g = labels[v]
        if rank[g] < 0:
            rank[g] = next_id
            next_id += 1
        labels[v] = rank[g]
    return next_id, n_moves, n_merges
