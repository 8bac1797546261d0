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
        statistic = 2.0 * statistic
        if statistic < 0.0:
            statistic = 0.0
    return statistic, n_present


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
# state: a Python tuple of arrays, unpacked into the kernels' arguments
# --------------------------------------------------------------------------------------
# Compile time grows with the size of the argument types: a tuple of arrays passed
# through every jitted call cost seconds per kernel, so the kernels take a few plain
# arrays of one dtype each, and the Python wrappers below unpack the tuple.

# The key of a pair: -log p, statistic, degrees of freedom, lower and higher
# representative (-1: no pair), as float64 rows of one array (integers are exact).
_NLP, _STAT, _DOF, _LO, _HI = 0, 1, 2, 3, 4
# Rows of the links array (intp): the groups as linked lists of table rows.
_ALIVE = 0  # 1: row is the representative of a group
_N_CATS = 1  # rows of each group
_FIRST = 2  # first member row of each group
_FOLLOWING = 3  # next member row in the same group, -1 after the last
_LAST = 4  # last member row of each group
_PREV = 5  # ordinal: left neighbour group, -1 none
_NEXT = 6  # ordinal: right neighbour group, -1 none
_MARK = 7  # workspace: 1 for a group to re-scan
# flags (intp): predictor, test, number of groups
_ORDINAL, _TEST, _N_GROUPS = 0, 1, 2

# Positions in the state tuple.
_TABLE = 0  # (c, J) the original rows
_COUNTS = 1  # (c, J) class counts of each group, at its representative
_TOTALS = 2  # (c,) total count of each group
_LINKS = 3  # (8, c) intp, rows _ALIVE ... _MARK
_KEYS = 4  # (5, c) best pair of each group: rows _NLP, _STAT, _DOF, _LO, _HI
_TREE = 5  # (2 P,) tournament tree of groups by their best pair
_SCAN_STAT = 6  # (2, c) workspace: statistic of (g, h) for every h
_SCAN_PRESENT = 7  # (2, c) workspace: classes present in (g, h)
_BEST_STAT = 8  # (J + 1,) workspace: best statistic by classes present
_BEST_PARTNER = 9  # (J + 1,) workspace: its partner
_FLAGS = 10  # [ordinal, test, number of groups]
_CACHE_STAT = 11  # (c, c) or (0, 0): statistic of every pair of live groups
_CACHE_PRESENT = 12  # (c, c) or (0, 0): classes present in every pair

#: Nominal predictors with at most this many rows keep the statistic of every pair
#: (12 bytes a pair: 50 MB at the limit), so that re-scanning a group whose best
#: partner was merged reads its pairs instead of re-testing them.
CACHE_MAX_ROWS = 2048

#: merge_until return codes
DONE = 0
COMPOUND = 1
#: Pair tests (or cached pair reads) per kernel call: a call returns to Python after
#: about this much work (a few tens of milliseconds), so that Ctrl-C is honoured.
WORK_PER_CALL = 2_000_000


@njit(**NJIT)
def _clear_key(keys, g):
    """g has no pair."""
    keys[_NLP, g] = np.inf
    keys[_STAT, g] = np.inf
    keys[_DOF, g] = 0.0
    keys[_LO, g] = -1.0
    keys[_HI, g] = -1.0


@njit(**NJIT)
def _set_key(keys, g, h, statistic, n_present):
    """Record pair (g, h) as the best pair of g (h < 0: g has no pair)."""
    if h < 0:
        _clear_key(keys, g)
        return
    dof = n_present - 1
    keys[_NLP, g] = -log_chi2_sf(statistic, float(dof)) if dof > 0 else 0.0
    keys[_STAT, g] = statistic
    keys[_DOF, g] = dof
    keys[_LO, g] = g if g < h else h
    keys[_HI, g] = h if g < h else g


@njit(**NJIT)
def _choose_key(keys, g, best_stat, best_partner):
    """Set g's key to the best of its best partners by number of classes present.

    Within one number of degrees of freedom the smaller statistic is the larger
    p-value, so only these candidates need a tail probability.
    """
    # runtime values, not literals: numba would compile _set_key for the literal
    # types seen before the loop's types are known, then again
    chosen = g - g - 1
    chosen_present = chosen + 1
    chosen_nlp = np.inf
    chosen_stat = np.inf
    for n_present in range(best_partner.shape[0]):
        h = best_partner[n_present]
        if h < 0:
            continue
        stat = best_stat[n_present]
        nlp = -log_chi2_sf(stat, float(n_present - 1)) if n_present > 1 else 0.0
        if chosen < 0 or _before(
            nlp, stat, float(g if g < h else h), float(h if g < h else g),
            chosen_nlp, chosen_stat, float(g if g < chosen else chosen),
            float(chosen if g < chosen else g),
        ):  # fmt: skip
            chosen = h
            chosen_nlp = nlp
            chosen_stat = stat
            chosen_present = n_present
    _set_key(keys, g, chosen, chosen_stat, chosen_present)


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
def _build_tree(keys, tree):
    """Fill the tournament tree over the groups' keys (leaf g is group g)."""
    size = tree.shape[0] // 2
    tree[:] = -1
    for g in range(keys.shape[1]):
        tree[size + g] = g
    for node in range(size - 1, 0, -1):
        tree[node] = _better(keys, tree[2 * node], tree[2 * node + 1])


@njit(**NJIT)
def _init_nominal(
    counts, totals, keys, cache_stat, cache_present, best_stat, best_partner,
    test, start, stop,
):  # fmt: skip
    """Test the pairs (g, h > g) for g in [start, stop), for both their rows.

    ``best_stat[g, n]`` and ``best_partner[g, n]`` keep g's best partner among the
    pairs with ``n`` classes present; once ``stop`` reaches the last row every
    row's key is chosen from them.
    """
    n_rows = counts.shape[0]
    cached = cache_stat.shape[0] > 0
    for g in range(start, stop):
        for h in range(g + 1, n_rows):
            statistic, n_present = _pair_statistic(
                counts, g, h, totals[g], totals[h], test
            )
            if cached:
                cache_stat[g, h] = statistic
                cache_stat[h, g] = statistic
                cache_present[g, h] = n_present
                cache_present[h, g] = n_present
            # partners come in increasing order: strict < keeps the lowest on ties
            if statistic < best_stat[g, n_present]:
                best_stat[g, n_present] = statistic
                best_partner[g, n_present] = h
            if statistic < best_stat[h, n_present] or best_partner[h, n_present] < 0:
                best_stat[h, n_present] = statistic
                best_partner[h, n_present] = g
    if stop >= n_rows:
        for g in range(n_rows):
            _choose_key(keys, g, best_stat[g], best_partner[g])


@njit(**NJIT)
def _init_ordinal(counts, totals, keys, test):
    """Key of every row: the pair with its right neighbour."""
    for g in range(counts.shape[0] - 1):
        statistic, n_present = _pair_statistic(
            counts, g, g + 1, totals[g], totals[g + 1], test
        )
        _set_key(keys, g, g + 1, statistic, n_present)


@njit(**NJIT)
def _scan(
    counts, totals, links, keys, cache_stat, cache_present, scan_stat, scan_present,
    best_stat, best_partner, test, g, reuse,
):  # fmt: skip
    """Set g's key to its best pair over every other live group; return the work.

    ``reuse``: g's counts did not change, so its pairs are read from the cache
    when there is one; otherwise they are tested (and cached). The statistics
    land in ``scan_stat`` and ``scan_present``.
    """
    cached = cache_stat.shape[0] > 0
    from_cache = cached and reuse
    best_partner[:] = -1
    work = 0
    for h in range(counts.shape[0]):
        if h == g or links[_ALIVE, h] == 0:
            continue
        work += 1
        if from_cache:
            statistic = cache_stat[g, h]
            n_present = cache_present[g, h]
        else:
            statistic, n_present = _pair_statistic(
                counts, g, h, totals[g], totals[h], test
            )
            if cached:
                cache_stat[g, h] = statistic
                cache_stat[h, g] = statistic
                cache_present[g, h] = n_present
                cache_present[h, g] = n_present
        scan_stat[h] = statistic
        scan_present[h] = n_present
        if best_partner[n_present] < 0 or statistic < best_stat[n_present]:
            best_stat[n_present] = statistic
            best_partner[n_present] = h
    _choose_key(keys, g, best_stat, best_partner)
    return work


@njit(**NJIT)
def _refresh_ordinal(counts, totals, links, keys, tree, test, g):
    """Recompute live group g's pair with its right neighbour, and the tree."""
    h = links[_NEXT, g]
    if h < 0:
        _clear_key(keys, g)
    else:
        statistic, n_present = _pair_statistic(counts, g, h, totals[g], totals[h], test)
        _set_key(keys, g, h, statistic, n_present)
    _update_tree(keys, tree, g)


@njit(**NJIT)
def _offer(keys, tree, h, g, statistic, n_present):
    """Make (h, g) the best pair of h if it comes before h's current best."""
    lo = float(g if g < h else h)
    hi = float(h if g < h else g)
    dof = n_present - 1
    if keys[_LO, h] >= 0 and dof == keys[_DOF, h]:
        # Same degrees of freedom: the statistic orders the p-values.
        if keys[_STAT, h] != statistic:
            better = statistic < keys[_STAT, h]
        else:
            better = lo < keys[_LO, h] or (lo == keys[_LO, h] and hi < keys[_HI, h])
    else:
        nlp = -log_chi2_sf(statistic, float(dof)) if dof > 0 else 0.0
        better = keys[_LO, h] < 0 or _before(
            nlp, statistic, lo, hi,
            keys[_NLP, h], keys[_STAT, h], keys[_LO, h], keys[_HI, h],
        )  # fmt: skip
    if better:
        _set_key(keys, h, g, statistic, n_present)
        _update_tree(keys, tree, h)


@njit(**NJIT)
def _after_change(
    counts, totals, links, keys, tree, scan_stat, scan_present, best_stat,
    best_partner, flags, cache_stat, cache_present, changed, other, gone,
):  # fmt: skip
    """Refresh the pairs touched when groups ``changed`` and ``other`` got new
    members and group ``gone`` stopped existing as it was; return the work.

    ``other`` is ignored when it is not a live group other than ``changed``.
    Nominal predictors: the changed groups are re-tested against every group,
    each other group is offered its new pairs, and a group whose best partner
    changed or is gone is re-scanned.
    """
    test = flags[_TEST]
    has_other = other != changed and links[_ALIVE, other] == 1
    # g's counts changed: a runtime False, so that one specialisation serves both
    # the fresh scans and the re-scans
    fresh = changed < 0
    work = _scan(
        counts, totals, links, keys, cache_stat, cache_present, scan_stat[0],
        scan_present[0], best_stat, best_partner, test, changed, fresh,
    )  # fmt: skip
    _update_tree(keys, tree, changed)
    if has_other:
        work += _scan(
            counts, totals, links, keys, cache_stat, cache_present, scan_stat[1],
            scan_present[1], best_stat, best_partner, test, other, fresh,
        )  # fmt: skip
        _update_tree(keys, tree, other)
    n_rows = counts.shape[0]
    for h in range(n_rows):
        if h == changed or links[_ALIVE, h] == 0 or (has_other and h == other):
            continue
        partner = -1
        if keys[_LO, h] >= 0:
            lo = int(keys[_LO, h])
            partner = int(keys[_HI, h]) if lo == h else lo
        if partner == changed or partner == gone or (has_other and partner == other):
            links[_MARK, h] = 1
            continue
        _offer(keys, tree, h, changed, scan_stat[0, h], scan_present[0, h])
        if has_other:
            _offer(keys, tree, h, other, scan_stat[1, h], scan_present[1, h])
    reuse = not fresh
    for h in range(n_rows):
        if links[_MARK, h] == 1:
            links[_MARK, h] = 0
            work += _scan(
                counts, totals, links, keys, cache_stat, cache_present, scan_stat[0],
                scan_present[0], best_stat, best_partner, test, h, reuse,
            )  # fmt: skip
            _update_tree(keys, tree, h)
    return work


@njit(**NJIT)
def _after_change_ordinal(counts, totals, links, keys, tree, flags, changed, other):
    """:func:`_after_change` of an ordinal predictor: the pairs of the changed
    groups with their neighbours (``other`` ignored unless live and not
    ``changed``)."""
    test = flags[_TEST]
    has_other = other != changed and links[_ALIVE, other] == 1
    for k in range(2 if has_other else 1):
        g = changed if k == 0 else other
        _refresh_ordinal(counts, totals, links, keys, tree, test, g)
        left = links[_PREV, g]
        if left >= 0:
            _refresh_ordinal(counts, totals, links, keys, tree, test, left)


@njit(**NJIT)
def _join(counts, totals, links, keys, tree, flags, keep, gone):
    """Move group ``gone`` into group ``keep`` (no key but gone's refreshed)."""
    for j in range(counts.shape[1]):
        counts[keep, j] += counts[gone, j]
    totals[keep] += totals[gone]
    links[_ALIVE, gone] = 0
    links[_N_CATS, keep] += links[_N_CATS, gone]
    links[_FOLLOWING, links[_LAST, keep]] = links[_FIRST, gone]
    links[_LAST, keep] = links[_LAST, gone]
    flags[_N_GROUPS] -= 1
    if flags[_ORDINAL] == 1:
        # adjacent groups: gone is the right neighbour of keep
        right = links[_NEXT, gone]
        links[_NEXT, keep] = right
        if right >= 0:
            links[_PREV, right] = keep
    _clear_key(keys, gone)
    _update_tree(keys, tree, gone)


@njit(**NJIT)
def _next_merge(keys, tree, flags, max_neg_log_alpha, min_groups, max_groups):
    """The pair to merge next, -1 when merging stops, and whether it is similar."""
    if flags[_N_GROUPS] <= min_groups:
        return -1, False
    best = tree[1]
    if best < 0 or keys[_LO, best] < 0:
        return -1, False
    similar = keys[_NLP, best] < max_neg_log_alpha
    if not similar and not (0 <= max_groups < flags[_N_GROUPS]):
        return -1, False
    return best, similar


# The merge loops of nominal and ordinal predictors are two kernels, so that a fit
# compiles only the one it calls.


@njit(**NJIT)
def _merge_loop(
    counts, totals, links, keys, tree, scan_stat, scan_present, best_stat,
    best_partner, flags, cache_stat, cache_present, max_neg_log_alpha, min_groups,
    max_groups, stop_on_compound, max_work,
):  # fmt: skip
    """:func:`merge_until` of a nominal predictor for about ``max_work`` pair tests.

    Returns (status, group) with status ``DONE``, ``COMPOUND`` or -1 (work left).
    """
    work = 0
    while True:
        best, similar = _next_merge(
            keys, tree, flags, max_neg_log_alpha, min_groups, max_groups
        )
        if best < 0:
            return DONE, -1
        if work >= max_work:
            return -1, -1
        keep = int(keys[_LO, best])
        gone = int(keys[_HI, best])
        _join(counts, totals, links, keys, tree, flags, keep, gone)
        work += _after_change(
            counts, totals, links, keys, tree, scan_stat, scan_present, best_stat,
            best_partner, flags, cache_stat, cache_present, keep, gone, gone,
        )  # fmt: skip
        if stop_on_compound and similar and links[_N_CATS, keep] >= 3:
            return COMPOUND, keep


@njit(**NJIT)
def _merge_loop_ordinal(
    counts, totals, links, keys, tree, flags, max_neg_log_alpha, min_groups,
    max_groups, stop_on_compound, max_work,
):  # fmt: skip
    """:func:`_merge_loop` of an ordinal predictor (a few pair tests a merge)."""
    work = 0
    while True:
        best, similar = _next_merge(
            keys, tree, flags, max_neg_log_alpha, min_groups, max_groups
        )
        if best < 0:
            return DONE, -1
        if work >= max_work:
            return -1, -1
        keep = int(keys[_LO, best])
        gone = int(keys[_HI, best])
        _join(counts, totals, links, keys, tree, flags, keep, gone)
        _after_change_ordinal(counts, totals, links, keys, tree, flags, keep, gone)
        work += 4
        if stop_on_compound and similar and links[_N_CATS, keep] >= 3:
            return COMPOUND, keep


@njit(**NJIT)
def _split(table, counts, totals, links, flags, g, side_a, side_b):
    """The groups of :func:`split_group` (keys not refreshed); the sides sorted,
    not empty."""
    for k in range(2):
        side = side_a if k == 0 else side_b
        rep = side[0]
        counts[rep, :] = 0.0
        for r in side:
            for j in range(table.shape[1]):
                counts[rep, j] += table[r, j]
        total = 0.0
        for j in range(table.shape[1]):
            total += counts[rep, j]
        totals[rep] = total
        for m in range(side.shape[0] - 1):
            links[_FOLLOWING, side[m]] = side[m + 1]
        links[_FOLLOWING, side[-1]] = -1
        links[_FIRST, rep] = side[0]
        links[_LAST, rep] = side[-1]
        links[_N_CATS, rep] = side.shape[0]
        links[_ALIVE, rep] = 1
    flags[_N_GROUPS] += 1
    rep_a = side_a[0]
    rep_b = side_b[0]
    if flags[_ORDINAL] == 1:
        left, right = (rep_a, rep_b) if rep_a < rep_b else (rep_b, rep_a)
        outer = links[_NEXT, g]
        links[_PREV, right] = left
        links[_NEXT, right] = outer
        links[_NEXT, left] = right
        if outer >= 0:
            links[_PREV, outer] = right
    return rep_a, rep_b


@njit(**NJIT)
def _members(links, g, out):
    row = links[_FIRST, g]
    for k in range(out.shape[0]):
        out[k] = row
        row = links[_FOLLOWING, row]
    return out


@njit(**NJIT)
def _group_labels(links, labels):
    n_rows = links.shape[1]
    n_labels = 0
    for g in range(n_rows):
        if links[_ALIVE, g] == 0:
            continue
        row = links[_FIRST, g]
        while row >= 0:
            labels[row] = n_labels
            row = links[_FOLLOWING, row]
        n_labels += 1
    return labels


# --------------------------------------------------------------------------------------
# Python drivers: they hold the state between kernel calls
# --------------------------------------------------------------------------------------


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
    table = np.ascontiguousarray(table, dtype=np.float64)
    n_rows, n_classes = table.shape
    counts = table.copy()
    # in class order, as the kernels add a row, so that totals match theirs
    totals = np.zeros(n_rows)
    for j in range(n_classes):
        totals += counts[:, j]
    links = np.empty((8, n_rows), dtype=np.intp)
    links[_ALIVE] = 1
    links[_N_CATS] = 1
    links[_FIRST] = np.arange(n_rows)
    links[_FOLLOWING] = -1
    links[_LAST] = np.arange(n_rows)
    links[_PREV] = np.arange(n_rows) - 1
    links[_NEXT] = np.arange(n_rows) + 1
    links[_MARK] = 0
    if n_rows > 0:
        links[_NEXT, n_rows - 1] = -1
    keys = np.empty((5, n_rows))
    keys[_NLP] = np.inf
    keys[_STAT] = np.inf
    keys[_DOF] = 0.0
    keys[_LO] = -1.0
    keys[_HI] = -1.0
    size = 1
    while size < max(n_rows, 1):
        size *= 2
    n_cache = n_rows if not ordinal and n_rows <= CACHE_MAX_ROWS else 0
    test = int(test)
    state = (
        table,
        counts,
        totals,
        links,
        keys,
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
        _init_ordinal(counts, totals, keys, test)
    elif n_rows > 0:
        best_stat = np.full((n_rows, n_classes + 1), np.inf)
        best_partner = np.full((n_rows, n_classes + 1), -1, dtype=np.intp)
        # pairs tested by rows [0, g]: calls of about WORK_PER_CALL pairs, for Ctrl-C
        done = np.cumsum(np.arange(n_rows - 1, -1, -1))
        start = 0
        while True:
            stop = int(np.searchsorted(done, done[start] + WORK_PER_CALL)) + 1
            stop = min(max(stop, start + 1), n_rows)
            _init_nominal(
                counts, totals, keys, state[_CACHE_STAT], state[_CACHE_PRESENT],
                best_stat, best_partner, test, start, stop,
            )  # fmt: skip
            if stop >= n_rows:
                break
            start = stop
    _build_tree(keys, state[_TREE])
    return state


def merge_until(state, max_neg_log_alpha, min_groups, max_groups, stop_on_compound):
    """Merge the most similar allowed pair while the merge rule allows it.

    A merge is made while more than ``min_groups`` groups remain and the best pair's
    p-value is above ``alpha_merge`` (``-log p < max_neg_log_alpha``), or while
    more than ``max_groups`` groups remain (``max_groups < 0``: no limit). The
    kernel runs in calls of about ``WORK_PER_CALL`` pair tests, so that a
    KeyboardInterrupt stops a long loop within a fraction of a second.

    Returns
    -------
    status : int
        ``DONE``, or ``COMPOUND`` when ``stop_on_compound`` and a merge by the
        p-value rule formed a group of at least three rows (checked for a re-split
        by the caller, which then calls again).
    group : int
        The compound's representative (``COMPOUND``), -1 otherwise.
    """
    rule = (
        float(max_neg_log_alpha), int(min_groups), int(max_groups),
        bool(stop_on_compound), WORK_PER_CALL,
    )  # fmt: skip
    while True:
        if state[_FLAGS][_ORDINAL] == 1:
            status, group = _merge_loop_ordinal(
                *state[_COUNTS:_TREE + 1], state[_FLAGS], *rule
            )  # fmt: skip
        else:
            status, group = _merge_loop(
                *state[_COUNTS:_TREE + 1], *state[_SCAN_STAT:], *rule
            )  # fmt: skip
        if status >= 0:
            return int(status), int(group)


def members(state, g):
    """Rows of group g in the order they joined it."""
    links = state[_LINKS]
    return _members(links, int(g), np.empty(links[_N_CATS, g], dtype=np.intp))


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
    rows = np.sort(members(state, g))
    in_part = np.isin(rows, np.asarray(part, dtype=np.intp))
    rep_a, rep_b = _split(
        *state[:_LINKS + 1], state[_FLAGS], int(g), rows[~in_part], rows[in_part]
    )  # fmt: skip
    rep_a, rep_b = int(rep_a), int(rep_b)
    if state[_FLAGS][_ORDINAL] == 1:
        _after_change_ordinal(
            *state[_COUNTS:_TREE + 1], state[_FLAGS], rep_a, rep_b
        )  # fmt: skip
    else:
        _after_change(
            *state[_COUNTS:_TREE + 1], *state[_SCAN_STAT:], rep_a, rep_b, int(g)
        )  # fmt: skip
    return rep_a, rep_b


def group_labels(state):
    """Label of every row: groups numbered 0, 1, ... by their smallest row."""
    links = state[_LINKS]
    return _group_labels(links, np.full(links.shape[1], -1, dtype=np.intp))


@njit(**NJIT)
def _nonempty_rows(table, mask):
    """Rows with a positive count, and whether every count is finite and >= 0.

    One pass over the table: a tree node's table has a row for every category of
    the column, most of them empty, and numpy's row sums are slow on short rows.
    """
    n_rows, n_classes = table.shape
    valid = True
    for i in range(n_rows):
        for j in range(n_classes):
            v = table[i, j]
            if v > 0.0:
                mask[i] = True
                if v == np.inf:
                    valid = False
            elif not v == 0.0:
                valid = False  # negative or NaN
    return valid


def nonempty_rows(table):
    """Rows of a float64 table with a positive count, and whether every count is
    finite and non-negative (one compiled pass)."""
    mask = np.zeros(table.shape[0], dtype=np.bool_)
    return mask, bool(_nonempty_rows(table, mask))


@njit(**NJIT)
def pair_statistics(counts, rows_a, rows_b, test):
    """:func:`pair_statistic` of the pairs ``(rows_a[k], rows_b[k])``."""
    n = rows_a.shape[0]
    statistics = np.empty(n)
    n_present = np.empty(n, dtype=np.intp)
    for k in range(n):
        statistics[k], n_present[k] = pair_statistic(counts, rows_a[k], rows_b[k], test)
    return statistics, n_present
