# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""CHAID merging of table rows (Kass 1980): the pairwise tests and the merge loop.

Two groups ``g`` and ``h`` are compared by the chi-square test of the 2 x J table of
their own cases (Pearson's ``X2`` or the likelihood ratio ``G2``, ``J_gh - 1``
degrees of freedom for the ``J_gh`` classes present in ``g`` or ``h``). The loop
merges the least significant allowed pair (largest p-value) while its p-value is
above ``alpha_merge``. Allowed pairs are all pairs (nominal predictor) or the pairs
of adjacent groups (ordinal predictor, rows in their order).

The order of pairs, "more similar first", is the key
``(-log p, statistic, lower representative, higher representative)``: largest
p-value, then smaller statistic, then the lexicographically smallest pair. A group
is represented by its smallest table row.

Data structures (all numpy arrays, so that the state survives between calls and the
Python driver can re-split a group):

* each live group ``g`` carries the key of its best allowed pair in ``key_*[g]``:
  its most similar partner (nominal) or the pair with its right neighbour
  (ordinal). Within one number of degrees of freedom the p-value is a decreasing
  function of the statistic, so a scan compares statistics and evaluates the tail
  probability only for the best partner of each degrees-of-freedom value;
* a tournament tree over the groups gives the best pair in O(1) and is updated in
  O(log c) when one group's key changes;
* after a merge, only the pairs of the new group are re-tested (O(c J)); a group
  whose best partner took part in the merge is re-scanned.

Cost: O(c^2 J) for the initial tests of a nominal predictor and O(c J) per merge,
plus the re-scans; O(c J + c log c) in all for an ordinal predictor.

References
----------
.. [1] G. V. Kass, "An exploratory technique for investigating large quantities of
   categorical data", Applied Statistics 29(2):119-127, 1980, doi:10.2307/2986296.
"""

import math

import numpy as np
from numba import njit

from partikit._kernels._codes import PEARSON
from partikit._kernels._config import NJIT
from partikit._kernels._special import log_chi2_sf

#: merge_until return codes
DONE = 0
COMPOUND = 1


@njit(**NJIT)
def pair_statistic(counts, a, b, test):
    """Statistic and number of classes present of the 2 x J table of rows a and b.

    Parameters
    ----------
    counts : ndarray of float64 of shape (n_rows, n_classes)
    a, b : int
        Rows compared; both non-empty.
    test : int
        ``PEARSON`` or ``LIKELIHOOD_RATIO``.

    Returns
    -------
    statistic : float
        Pearson ``X2 = sum_j (u_j n_v - v_j n_u)^2 / (t_j n_u n_v)`` over the classes
        present (``t_j = u_j + v_j > 0``), or ``G2 = 2 sum n log(n / E)``.
    n_present : int
        Classes present in ``a`` or ``b``; the test has ``n_present - 1`` degrees
        of freedom.
    """
    n_a = 0.0
    n_b = 0.0
    for j in range(counts.shape[1]):
        n_a += counts[a, j]
        n_b += counts[b, j]
    return _pair_statistic(counts, a, b, n_a, n_b, test)


@njit(**NJIT)
def _pair_statistic(counts, a, b, n_a, n_b, test):
    """:func:`pair_statistic` given the row totals ``n_a`` and ``n_b``.

    The terms are added with a compensated sum (Knuth's TwoSum, as in
    Neumaier's algorithm), whose result is the rounded exact sum but in
    pathological cases: two pairs whose tables differ by
    an order of the classes (mirror images) get the same statistic, so that exact
    ties are broken by the documented rule, not by rounding.
    """
    n_classes = counts.shape[1]
    total = n_a + n_b
    statistic = 0.0
    compensation = 0.0
    n_present = 0
    for j in range(n_classes):
        u = counts[a, j]
        v = counts[b, j]
        t = u + v
        if t <= 0.0:
            continue
        n_present += 1
        if test == PEARSON:
            d = u * n_b - v * n_a
            term = d * d / t
        else:
            term = 0.0
            if u > 0.0:
                term += u * math.log(u * total / (n_a * t))
            if v > 0.0:
                term += v * math.log(v * total / (n_b * t))
        # Knuth's TwoSum: the exact rounding error of the addition, branch-free
        following = statistic + term
        term_part = following - statistic
        compensation += (statistic - (following - term_part)) + (term - term_part)
        statistic = following
    statistic += compensation
    if n_present < 2:
        return 0.0, n_present
    if test == PEARSON:
        statistic /= n_a * n_b
    else:
        statistic = max(2.0 * statistic, 0.0)
    return statistic, n_present


@njit(**NJIT)
def _neg_log_p(statistic, dof):
    if dof <= 0:
        return 0.0
    return -log_chi2_sf(statistic, float(dof))


@njit(**NJIT)
def _before(nlp1, stat1, lo1, hi1, nlp2, stat2, lo2, hi2):
    """Whether pair 1 comes before pair 2 (is more similar)."""
    if nlp1 != nlp2:
        return nlp1 < nlp2
    if stat1 != stat2:
        return stat1 < stat2
    if lo1 != lo2:
        return lo1 < lo2
    return hi1 < hi2


# --------------------------------------------------------------------------------------
# state: a tuple of arrays, read through these positions
# --------------------------------------------------------------------------------------
# The key of a pair: -log p, statistic, degrees of freedom, lower and higher
# representative (-1: no pair), as float64 rows of one array (integers are exact).
_NLP, _STAT, _DOF, _LO, _HI = 0, 1, 2, 3, 4

_TABLE = 0  # (c, J) the original rows
_COUNTS = 1  # (c, J) class counts of each group, at its representative
_TOTALS = 2  # (c,) total count of each group
_ALIVE = 3  # (c,) bool: row is the representative of a group
_N_CATS = 4  # (c,) rows of each group
_FIRST = 5  # (c,) first member row of each group
_FOLLOWING = 6  # (c,) next member row in the same group, -1 after the last
_LAST = 7  # (c,) last member row of each group
_PREV = 8  # (c,) ordinal: left neighbour group, -1 none
_NEXT = 9  # (c,) ordinal: right neighbour group, -1 none
_KEYS = 10  # (5, c) best pair of each group: rows _NLP, _STAT, _DOF, _LO, _HI
_TREE = 11  # (2 P,) tournament tree of groups by their best pair
_SCAN_STAT = 12  # (c,) workspace: statistic of (g, h) for every h
_SCAN_PRESENT = 13  # (c,) workspace: classes present in (g, h)
_BEST_STAT = 14  # (J + 1,) workspace: best statistic by classes present
_BEST_PARTNER = 15  # (J + 1,) workspace: its partner
_FLAGS = 16  # [ordinal, test, number of groups]
_CACHE_STAT = 17  # (c, c) or (0, 0): statistic of every pair of live groups
_CACHE_PRESENT = 18  # (c, c) or (0, 0): classes present in every pair

#: Nominal predictors with at most this many rows keep the statistic of every pair
#: (12 bytes a pair: 50 MB at the limit), so that re-scanning a group whose best
#: partner was merged reads its pairs instead of re-testing them.
CACHE_MAX_ROWS = 2048


@njit(**NJIT)
def init_state(table, ordinal, test):
    """Every row its own group, with the key of its best allowed pair.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
        No empty row. Ordinal predictors: rows in their order.
    ordinal : bool
        Allowed pairs: adjacent rows only (True) or all pairs.
    test : int
        ``PEARSON`` or ``LIKELIHOOD_RATIO``.

    Returns
    -------
    state : tuple of ndarrays
    """
    n_rows, n_classes = table.shape
    counts = table.copy()
    totals = np.empty(n_rows)
    for g in range(n_rows):
        totals[g] = counts[g].sum()
    prev_g = np.arange(n_rows) - 1
    next_g = np.arange(n_rows) + 1
    if n_rows > 0:
        next_g[n_rows - 1] = -1
    size = 1
    while size < max(n_rows, 1):
        size *= 2
    n_cache = n_rows if not ordinal and n_rows <= CACHE_MAX_ROWS else 0
    state = (
        table,
        counts,
        totals,
        np.ones(n_rows, dtype=np.bool_),
        np.ones(n_rows, dtype=np.intp),
        np.arange(n_rows),
        np.full(n_rows, -1, dtype=np.intp),
        np.arange(n_rows),
        prev_g,
        next_g,
        _no_keys(n_rows),
        np.full(2 * size, -1, dtype=np.intp),
        np.zeros((2, n_rows)),
        np.zeros((2, n_rows), dtype=np.intp),
        np.empty(n_classes + 1),
        np.empty(n_classes + 1, dtype=np.intp),
        np.array([1 if ordinal else 0, test, n_rows], dtype=np.intp),
        np.zeros((n_cache, n_cache)),
        np.zeros((n_cache, n_cache), dtype=np.int32),
    )
    if ordinal:
        for g in range(n_rows):
            _refresh_key(state, g)
    else:
        _init_nominal_keys(state)
    keys, tree = state[_KEYS], state[_TREE]
    for g in range(n_rows):
        tree[size + g] = g
    for node in range(size - 1, 0, -1):
        tree[node] = _better(keys, tree[2 * node], tree[2 * node + 1])
    return state


@njit(**NJIT)
def _no_keys(n_rows):
    keys = np.empty((5, n_rows))
    keys[_NLP] = np.inf
    keys[_STAT] = np.inf
    keys[_DOF] = 0.0
    keys[_LO] = -1.0
    keys[_HI] = -1.0
    return keys


@njit(**NJIT)
def _init_nominal_keys(state):
    """Best partner of every row: each pair is tested once, for both its rows."""
    counts, totals, flags = state[_COUNTS], state[_TOTALS], state[_FLAGS]
    n_rows, n_classes = counts.shape
    test = flags[1]
    best_stat = np.full((n_rows, n_classes + 1), np.inf)
    best_partner = np.full((n_rows, n_classes + 1), -1, dtype=np.intp)
    cache_stat, cache_present = state[_CACHE_STAT], state[_CACHE_PRESENT]
    cached = cache_stat.shape[0] > 0
    for g in range(n_rows):
        for h in range(g + 1, n_rows):
            statistic, n_present = _pair_statistic(
                counts, g, h, totals[g], totals[h], test
            )
            if cached:
                _cache_pair(cache_stat, cache_present, g, h, statistic, n_present)
            # partners come in increasing order: strict < keeps the lowest on ties
            if statistic < best_stat[g, n_present]:
                best_stat[g, n_present] = statistic
                best_partner[g, n_present] = h
            if statistic < best_stat[h, n_present] or best_partner[h, n_present] < 0:
                best_stat[h, n_present] = statistic
                best_partner[h, n_present] = g
    for g in range(n_rows):
        _choose_key(state[_KEYS], g, best_stat[g], best_partner[g])


@njit(**NJIT)
def _cache_pair(cache_stat, cache_present, g, h, statistic, n_present):
    cache_stat[g, h] = statistic
    cache_stat[h, g] = statistic
    cache_present[g, h] = n_present
    cache_present[h, g] = n_present


@njit(**NJIT)
def _better(keys, g, h):
    """The group (of g, h; -1 = none) whose best pair comes first."""
    if g < 0:
        return h
    if h < 0 or keys[_LO, h] < 0:
        return g
    if keys[_LO, g] < 0:
        return h
    if _before(
        keys[_NLP, h], keys[_STAT, h], keys[_LO, h], keys[_HI, h],
        keys[_NLP, g], keys[_STAT, g], keys[_LO, g], keys[_HI, g],
    ):  # fmt: skip
        return h
    return g


@njit(**NJIT)
def _update_tree(keys, tree, g):
    node = (tree.shape[0] // 2 + g) // 2
    while node >= 1:
        tree[node] = _better(keys, tree[2 * node], tree[2 * node + 1])
        node //= 2


@njit(**NJIT)
def _set_key(keys, g, h, statistic, n_present):
    """Record pair (g, h) as the best pair of g (h = -1: g has no pair)."""
    if h < 0:
        keys[_NLP, g] = np.inf
        keys[_STAT, g] = np.inf
        keys[_DOF, g] = 0.0
        keys[_LO, g] = -1.0
        keys[_HI, g] = -1.0
        return
    dof = n_present - 1
    keys[_NLP, g] = _neg_log_p(statistic, dof)
    keys[_STAT, g] = statistic
    keys[_DOF, g] = dof
    keys[_LO, g] = min(g, h)
    keys[_HI, g] = max(g, h)


@njit(**NJIT)
def _choose_key(keys, g, best_stat, best_partner):
    """Set g's key to the best of its best partners by number of classes present.

    Within one number of degrees of freedom the smaller statistic is the larger
    p-value, so only these candidates need a tail probability.
    """
    chosen = -1
    chosen_nlp = np.inf
    chosen_stat = np.inf
    chosen_present = 0
    for n_present in range(best_partner.shape[0]):
        h = best_partner[n_present]
        if h < 0:
            continue
        nlp = _neg_log_p(best_stat[n_present], n_present - 1)
        if chosen < 0 or _before(
            nlp, best_stat[n_present], min(g, h), max(g, h),
            chosen_nlp, chosen_stat, min(g, chosen), max(g, chosen),
        ):  # fmt: skip
            chosen = h
            chosen_nlp = nlp
            chosen_stat = best_stat[n_present]
            chosen_present = n_present
    _set_key(keys, g, chosen, chosen_stat, chosen_present)


@njit(**NJIT)
def _scan(state, g, slot, fresh):
    """Set g's key to its best pair over every other live group.

    ``fresh``: g's counts changed, so its pairs are re-tested (and cached);
    otherwise they are read from the cache when there is one. The statistics land
    in row ``slot`` of the scan workspace.
    """
    counts, totals, alive = state[_COUNTS], state[_TOTALS], state[_ALIVE]
    scan_stat, scan_present = state[_SCAN_STAT][slot], state[_SCAN_PRESENT][slot]
    best_stat, best_partner = state[_BEST_STAT], state[_BEST_PARTNER]
    cache_stat, cache_present = state[_CACHE_STAT], state[_CACHE_PRESENT]
    cached = cache_stat.shape[0] > 0
    test = state[_FLAGS][1]
    best_partner[:] = -1
    for h in range(counts.shape[0]):
        if h == g or not alive[h]:
            continue
        if cached and not fresh:
            statistic = cache_stat[g, h]
            n_present = cache_present[g, h]
        else:
            statistic, n_present = _pair_statistic(
                counts, g, h, totals[g], totals[h], test
            )
            if cached:
                _cache_pair(cache_stat, cache_present, g, h, statistic, n_present)
        scan_stat[h] = statistic
        scan_present[h] = n_present
        if best_partner[n_present] < 0 or statistic < best_stat[n_present]:
            best_stat[n_present] = statistic
            best_partner[n_present] = h
    _choose_key(state[_KEYS], g, best_stat, best_partner)


@njit(**NJIT)
def _refresh_key(state, g):
    """Recompute the best allowed pair of live group g (no tree update)."""
    if state[_FLAGS][0] == 1:
        h = state[_NEXT][g]
        if h < 0:
            _set_key(state[_KEYS], g, -1, 0.0, 0)
        else:
            statistic, n_present = _pair_statistic(
                state[_COUNTS], g, h, state[_TOTALS][g], state[_TOTALS][h],
                state[_FLAGS][1],
            )  # fmt: skip
            _set_key(state[_KEYS], g, h, statistic, n_present)
        return
    _scan(state, g, 0, True)


@njit(**NJIT)
def _offer(keys, tree, h, g, statistic, n_present):
    """Make (h, g) the best pair of h if it comes before h's current best."""
    lo = min(g, h)
    hi = max(g, h)
    dof = n_present - 1
    if keys[_LO, h] >= 0 and dof == keys[_DOF, h]:
        # Same degrees of freedom: the statistic orders the p-values.
        if keys[_STAT, h] != statistic:
            better = statistic < keys[_STAT, h]
        else:
            better = lo < keys[_LO, h] or (lo == keys[_LO, h] and hi < keys[_HI, h])
    else:
        better = keys[_LO, h] < 0 or _before(
            _neg_log_p(statistic, dof), statistic, lo, hi,
            keys[_NLP, h], keys[_STAT, h], keys[_LO, h], keys[_HI, h],
        )  # fmt: skip
    if better:
        _set_key(keys, h, g, statistic, n_present)
        _update_tree(keys, tree, h)


@njit(**NJIT)
def _partner(keys, g):
    if keys[_LO, g] < 0:
        return -1
    lo = int(keys[_LO, g])
    return int(keys[_HI, g]) if lo == g else lo


@njit(**NJIT)
def _after_change(state, changed, other, gone):
    """Refresh the pairs touched when groups ``changed`` and ``other`` (-1: none)
    got new members and group ``gone`` (-1: none) stopped existing as it was.

    Nominal predictors: the changed groups are re-tested against every group,
    each other group is offered its new pairs, and a group whose best partner
    changed or is gone is re-scanned.
    """
    alive, keys, tree = state[_ALIVE], state[_KEYS], state[_TREE]
    if state[_FLAGS][0] == 1:
        for g in (changed, other):
            if g < 0:
                continue
            _refresh_key(state, g)
            _update_tree(keys, tree, g)
            left = state[_PREV][g]
            if left >= 0:
                _refresh_key(state, left)
                _update_tree(keys, tree, left)
        return
    _scan(state, changed, 0, True)
    _update_tree(keys, tree, changed)
    if other >= 0:
        _scan(state, other, 1, True)
        _update_tree(keys, tree, other)
    scan_stat, scan_present = state[_SCAN_STAT], state[_SCAN_PRESENT]
    n_rows = alive.shape[0]
    stale = np.zeros(n_rows, dtype=np.bool_)
    for h in range(n_rows):
        if h == changed or h == other or not alive[h]:
            continue
        partner = _partner(keys, h)
        if partner == changed or partner == other or partner == gone:
            stale[h] = True
            continue
        _offer(keys, tree, h, changed, scan_stat[0, h], scan_present[0, h])
        if other >= 0:
            _offer(keys, tree, h, other, scan_stat[1, h], scan_present[1, h])
    for h in range(n_rows):
        if stale[h]:
            _scan(state, h, 0, False)
            _update_tree(keys, tree, h)


@njit(**NJIT)
def merge_groups(state, a, b):
    """Merge live groups a and b; the smaller representative keeps the group.

    Returns the representative of the merged group.
    """
    counts, totals, alive, n_cats = (
        state[_COUNTS], state[_TOTALS], state[_ALIVE], state[_N_CATS]
    )  # fmt: skip
    first, following, last = state[_FIRST], state[_FOLLOWING], state[_LAST]
    prev_g, next_g, flags = state[_PREV], state[_NEXT], state[_FLAGS]
    keep = min(a, b)
    gone = max(a, b)
    for j in range(counts.shape[1]):
        counts[keep, j] += counts[gone, j]
    totals[keep] += totals[gone]
    alive[gone] = False
    n_cats[keep] += n_cats[gone]
    following[last[keep]] = first[gone]
    last[keep] = last[gone]
    flags[2] -= 1
    if flags[0] == 1:
        # adjacent groups: gone is the right neighbour of keep
        right = next_g[gone]
        next_g[keep] = right
        if right >= 0:
            prev_g[right] = keep
    _set_key(state[_KEYS], gone, -1, 0.0, 0)
    _update_tree(state[_KEYS], state[_TREE], gone)
    _after_change(state, keep, -1, gone)
    return keep


@njit(**NJIT)
def merge_until(state, max_neg_log_alpha, min_groups, max_groups, stop_on_compound):
    """Merge the most similar allowed pair while the merge rule allows it.

    A merge is made while more than ``min_groups`` groups remain and the best pair's
    p-value is above ``alpha_merge`` (``-log p < max_neg_log_alpha``), or while
    more than ``max_groups`` groups remain (``max_groups < 0``: no limit).

    Returns
    -------
    status : int
        ``DONE``, or ``COMPOUND`` when ``stop_on_compound`` and a merge by the
        p-value rule formed a group of at least three rows (checked for a re-split
        by the caller, which then calls again).
    group : int
        The compound's representative (``COMPOUND``), -1 otherwise.
    """
    n_cats, keys = state[_N_CATS], state[_KEYS]
    tree, flags = state[_TREE], state[_FLAGS]
    while flags[2] > min_groups:
        best = tree[1]
        if best < 0 or keys[_LO, best] < 0:
            break
        similar = keys[_NLP, best] < max_neg_log_alpha
        if not similar and not (0 <= max_groups < flags[2]):
            break
        keep = merge_groups(state, int(keys[_LO, best]), int(keys[_HI, best]))
        if stop_on_compound and similar and n_cats[keep] >= 3:
            return COMPOUND, keep
    return DONE, -1


@njit(**NJIT)
def members(state, g):
    """Rows of group g in the order they joined it."""
    n_cats, first, following = state[_N_CATS], state[_FIRST], state[_FOLLOWING]
    out = np.empty(n_cats[g], dtype=np.intp)
    row = first[g]
    for k in range(n_cats[g]):
        out[k] = row
        row = following[row]
    return out


@njit(**NJIT)
def split_group(state, g, part):
    """Split live group g in two: the rows of ``part`` and the others.

    Parameters
    ----------
    state : tuple
    g : int
        Live group to split.
    part : ndarray of intp
        Rows of g forming one side; the other side is the rest of g. Ordinal
        predictors: both sides must be runs of adjacent rows.

    Returns
    -------
    reps : (int, int)
        Representatives (smallest rows) of the two new groups.
    """
    table, counts, totals = state[_TABLE], state[_COUNTS], state[_TOTALS]
    alive, n_cats = state[_ALIVE], state[_N_CATS]
    first, following, last = state[_FIRST], state[_FOLLOWING], state[_LAST]
    prev_g, next_g, flags = state[_PREV], state[_NEXT], state[_FLAGS]
    rows = members(state, g)
    in_part = np.zeros(table.shape[0], dtype=np.bool_)
    for r in part:
        in_part[r] = True
    side_a = np.sort(rows[~in_part[rows]])
    side_b = np.sort(rows[in_part[rows]])
    rep_a = side_a[0]
    rep_b = side_b[0]
    for side, rep in ((side_a, rep_a), (side_b, rep_b)):
        counts[rep, :] = 0.0
        for r in side:
            for j in range(table.shape[1]):
                counts[rep, j] += table[r, j]
        totals[rep] = counts[rep].sum()
        for k in range(side.shape[0] - 1):
            following[side[k]] = side[k + 1]
        following[side[-1]] = -1
        first[rep] = side[0]
        last[rep] = side[-1]
        n_cats[rep] = side.shape[0]
        alive[rep] = True
    flags[2] += 1
    if flags[0] == 1:
        left, right = (rep_a, rep_b) if rep_a < rep_b else (rep_b, rep_a)
        outer = next_g[g]
        prev_g[right] = left
        next_g[right] = outer
        next_g[left] = right
        if outer >= 0:
            prev_g[outer] = right
    _after_change(state, rep_a, rep_b, g)
    return rep_a, rep_b


@njit(**NJIT)
def group_labels(state):
    """Label of every row: groups numbered 0, 1, ... by their smallest row."""
    alive, first, following = state[_ALIVE], state[_FIRST], state[_FOLLOWING]
    n_rows = alive.shape[0]
    labels = np.full(n_rows, -1, dtype=np.intp)
    n_labels = 0
    for g in range(n_rows):
        if not alive[g]:
            continue
        row = first[g]
        while row >= 0:
            labels[row] = n_labels
            row = following[row]
        n_labels += 1
    return labels


@njit(**NJIT)
def pair_statistics(counts, rows_a, rows_b, test):
    """:func:`pair_statistic` of the pairs ``(rows_a[k], rows_b[k])``."""
    n = rows_a.shape[0]
    statistics = np.empty(n)
    n_present = np.empty(n, dtype=np.intp)
    for k in range(n):
        statistics[k], n_present[k] = pair_statistic(counts, rows_a[k], rows_b[k], test)
    return statistics, n_present
