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
    pair at every step; O(I^2 J) time in general, O(I J) memory. (One kernel,
    the pair cost written out where it is needed: each helper kernel would
    cost its own compilation at the first fit.)

    Returns
    -------
    kept, absorbed : ndarray of intp of shape (n_rows - 1,)
        The merges in order; ``absorbed`` is merged into ``kept``.
    part_costs : ndarray of float64 of shape (n_rows,)
        ``part_costs[k - 1]``: the sum of part costs when ``k`` groups remain.
    """
    n_rows, width = groups.shape
    sums = np.empty((n_rows, width))
    scratch = np.empty(width)
    costs = np.empty(n_rows)
    alive = np.empty(n_rows, dtype=np.bool_)
    stale = np.empty(n_rows, dtype=np.bool_)
    best_delta = np.empty(n_rows)
    best_partner = np.empty(n_rows, dtype=np.intp)
    fresh = np.empty(n_rows)
    total = 0.0
    for a in range(n_rows):
        for j in range(width):
            sums[a, j] = groups[a, j]
        costs[a] = part_cost(sums[a], n_classes, log_factorials)
        total += costs[a]
        alive[a] = True
        stale[a] = False
        best_delta[a] = np.inf
        best_partner[a] = -1
    # each pair once at first
    for a in range(n_rows):
        for c in range(a + 1, n_rows):
            for j in range(width):
                scratch[j] = sums[a, j] + sums[c, j]
            d = part_cost(scratch, n_classes, log_factorials) - costs[a] - costs[c]
            if d < best_delta[a]:
                best_delta[a] = d
                best_partner[a] = c
            if d < best_delta[c]:
                best_delta[c] = d
                best_partner[c] = a
    n_merges = n_rows - 1 if n_rows > 0 else 0
    kept = np.empty(n_merges, dtype=np.intp)
    absorbed = np.empty(n_merges, dtype=np.intp)
    part_costs = np.empty(n_rows)
    if n_rows > 0:
        part_costs[n_rows - 1] = total
    for step in range(n_merges):
        # the least delta; a stale bound is made exact first
        while True:
            a = -1
            least = np.inf
            for c in range(n_rows):
                if alive[c] and best_delta[c] < least:
                    least = best_delta[c]
                    a = c
            if a < 0 or not stale[a]:
                break
            stale[a] = False
            best_delta[a] = np.inf
            best_partner[a] = -1
            for c in range(n_rows):
                if c != a and alive[c]:
                    for j in range(width):
                        scratch[j] = sums[a, j] + sums[c, j]
                    d = part_cost(scratch, n_classes, log_factorials)
                    d -= costs[a] + costs[c]
                    if d < best_delta[a]:
                        best_delta[a] = d
                        best_partner[a] = c
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
        for j in range(width):
            sums[a, j] += sums[b, j]
        merged = part_cost(sums[a], n_classes, log_factorials)
        part_costs[n_rows - 2 - step] = (
            part_costs[n_rows - 1 - step] + merged - costs[a] - costs[b]
        )
        costs[a] = merged
        alive[b] = False
        best_delta[b] = np.inf
        stale[a] = False
        # the merged group against every other: its own best partner, and an
        # offer to the others
        best_delta[a] = np.inf
        best_partner[a] = -1
        for c in range(n_rows):
            if c != a and alive[c]:
                for j in range(width):
                    scratch[j] = sums[a, j] + sums[c, j]
                d = part_cost(scratch, n_classes, log_factorials) - costs[a] - costs[c]
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
def modl_moves(values, labels, groups, n_classes, log_factorials, log_bell,
               max_passes):  # fmt: skip
    """Moves of single values between groups while they lower the MODL
    grouping cost (Boulle 2005, section 4: post-optimisation).

    Passes over the values: each value goes to the group where the criterion
    is least, if that lowers it by more than 1e-9 (the first such group on
    ties); the passes stop when one moves nothing, or after ``max_passes``.
    A value moving out of a group of its own empties it (the prior term
    ``log_bell[k]`` of the number of groups changes then).

    Parameters
    ----------
    values : ndarray of float64 of shape (n_values, n_classes_kept)
        The values to move (each is moved whole).
    labels : ndarray of intp of shape (n_values,)
        Their groups, ``0 .. n_groups - 1``; changed in place.
    groups : ndarray of float64 of shape (n_groups, n_classes_kept)
        The groups' class counts (the sums of their values); changed in place.
    n_classes : float
        ``J`` of the criterion.
    log_factorials, log_bell : ndarray of float64
        ``log i!`` and ``log B(I, k)`` for ``k = 0 .. n_groups``.
    max_passes : int

    Returns
    -------
    n_moves : int
        Moves made; a group left without values has all its counts 0.

    Notes
    -----
    O(V (J + K z)) a pass for ``V`` values of ``z`` non-zero classes each and
    ``K`` groups: the cost change of adding a value to a group reads the
    value's non-zero classes only.
    """
    n_values, width = values.shape
    n_groups = groups.shape[0]
    # np.empty and loops: np.zeros costs a compilation of its own
    totals = np.empty(n_groups)
    sizes = np.empty(n_groups, dtype=np.intp)
    value_totals = np.empty(n_values)
    for g in range(n_groups):
        totals[g] = 0.0
        sizes[g] = 0
    for v in range(n_values):
        value_totals[v] = 0.0
        for j in range(width):
            value_totals[v] += values[v, j]
        totals[labels[v]] += value_totals[v]
        sizes[labels[v]] += 1
    k = 0
    for g in range(n_groups):
        if sizes[g] > 0:
            k += 1
    nonzero = np.empty(width, dtype=np.intp)
    n_moves = 0
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
            size = value_totals[v]
            # the cost change of taking the value out of its group
            rest = totals[a] - size
            if rest <= 1e-9 * max(totals[a], 1.0):
                rest = 0.0
            out = lnf(rest + n_classes - 1, log_factorials) - lnf(
                totals[a] + n_classes - 1, log_factorials
            )
            for t in range(n_nonzero):
                j = nonzero[t]
                left = max(groups[a, j] - values[v, j], 0.0)
                out -= lnf(left, log_factorials) - lnf(groups[a, j], log_factorials)
            if sizes[a] == 1:
                out += log_bell[k - 1] - log_bell[k]
            best = -1e-9
            target = -1
            for b in range(n_groups):
                if b == a or sizes[b] == 0:
                    continue
                d = out + lnf(totals[b] + size + n_classes - 1, log_factorials)
                d -= lnf(totals[b] + n_classes - 1, log_factorials)
                for t in range(n_nonzero):
                    j = nonzero[t]
                    d -= lnf(groups[b, j] + values[v, j], log_factorials)
                    d += lnf(groups[b, j], log_factorials)
                if d < best:
                    best = d
                    target = b
            if target >= 0:
                for t in range(n_nonzero):
                    j = nonzero[t]
                    groups[a, j] = max(groups[a, j] - values[v, j], 0.0)
                    groups[target, j] += values[v, j]
                totals[a] -= size
                totals[target] += size
                sizes[a] -= 1
                sizes[target] += 1
                labels[v] = target
                if sizes[a] == 0:
                    totals[a] = 0.0
                    for j in range(width):
                        groups[a, j] = 0.0
                    k -= 1
                moved += 1
        n_moves += moved
        if moved == 0:
            break
    return n_moves
