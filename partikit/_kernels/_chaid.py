# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""CHAID merging of table rows (Kass 1980): the pairwise tests and the merge loop.

Two groups ``g`` and ``h`` are compared by the chi-square test of the 2 x J table of
their own cases (Pearson's ``X2`` or the likelihood ratio ``G2``, ``J_gh - 1``
degrees of freedom for the ``J_gh`` classes present in ``g`` or ``h``). The loop
merges the least significant allowed pair (largest p-value) while its p-value is
above ``alpha_merge``. Allowed pairs are all pairs (nominal predictor) or the pairs
of adjacent groups (ordinal predictor, rows in their order).

A continuous target's groups are rows of a moment table (weight, sum and sum
of squares of the target) and are compared by the F test of the one-way
analysis of variance of their own cases, F(1, n_g + n_h - 2) (SPSS's CHAID for
a continuous dependent variable): the same loops, with the statistic code
``F_TEST`` (one compiled loop for both kinds of target). Its p-value is not a
function of F alone, so a scan computes every pair's F and the tail probability
only of the pairs that may come first (see :func:`_nominal_loop`).

The order of pairs, "more similar first", is the key
``(-log p, statistic, lower representative, higher representative)``: largest
p-value, then smaller statistic, then the lexicographically smallest pair. A group
is represented by its smallest table row.

Data structures (all numpy arrays, so that the state survives between calls and the
Python driver can re-split a group):

* each live group ``g`` carries the key of its best allowed pair in ``keys[:, g]``:
  its most similar partner (nominal) or the pair with its right neighbour
  (ordinal). Within one number of degrees of freedom the p-value is a decreasing
  function of the statistic, so a scan compares statistics and evaluates the tail
  probability only for the best partner of each degrees-of-freedom value;
* nominal: the counts of the live groups are the columns of a classes x groups
  array, packed (a merged group's column is filled by the last one), with their
  class shares and inverse shares in float32, so that one group is tested
  against all the others by a lower bound of each statistic, class by class in
  SIMD lanes with no division, and the exact statistic is computed only where
  the bound does not settle the pair (docs/design.rst, "The CHAID kernel"); a
  group whose best partner took part in a merge keeps its key as a stale lower
  bound and is re-scanned only when that key comes first;
* a tournament tree over the groups gives the first key in O(1) and is updated
  in O(log c) when one group's key changes.

Cost: O(c^2 J) for the initial tests of a nominal predictor and O(c J) per merge
and per re-scan (most of it the bound's few operations per class); O(c J + c log
c) in all for an ordinal predictor. Memory O(c J).

Compile time is user time (a fresh process compiles every kernel it calls): a fit
calls one loop kernel for its predictor type, plus the tail probability (and, for
a nominal predictor, the order of two pairs).

References
----------
.. [1] G. V. Kass, "An exploratory technique for investigating large quantities of
   categorical data", Applied Statistics 29(2):119-127, 1980, doi:10.2307/2986296.
.. [2] IBM SPSS Statistics, "CHAID and Exhaustive CHAID Algorithms", IBM SPSS
   Statistics Algorithms (the F test of a continuous dependent variable).
"""

import math

import numpy as np
from numba import njit

from partikit._kernels._codes import F_TEST, PEARSON
from partikit._kernels._config import NJIT, NO_REFCOUNTS
from partikit._kernels._special import log_chi2_sf, log_f_sf


@njit(**NJIT)
def f_pair_statistic(w_a, s_a, q_a, w_b, s_b, q_b):
    """F statistic of the one-way analysis of variance of two parts.

    The parts are the rows ``(sum w, sum w y, sum w y^2)`` of a moment table
    (:mod:`partikit._statistics._moments`), both of positive weight.

    Returns
    -------
    statistic : float
        ``between / (within / (n_a + n_b - 2))`` with ``between = (s_a n_b -
        s_b n_a)^2 / (n_a n_b (n_a + n_b))`` (one degree of freedom) and
        ``within`` the two parts' squared errors about their own means; 0.0
        when the means are equal or ``n_a + n_b <= 2`` (no test: p-value 1, as
        :func:`partikit._statistics._moments.f_test`), ``inf`` when the means
        differ and neither part varies (p-value 0).
    dfd : float
        ``n_a + n_b - 2`` (at least 0), the denominator degrees of freedom.
    """
    total = w_a + w_b
    dfd = total - 2.0
    d = s_a * w_b - s_b * w_a
    between = d * d / (w_a * w_b * total)
    within_a = q_a - s_a * s_a / w_a
    within_b = q_b - s_b * s_b / w_b
    # (the differences of large sums may round below zero)
    within = (within_a if within_a > 0.0 else 0.0) + (
        within_b if within_b > 0.0 else 0.0
    )
    if dfd <= 0.0 or not between > 0.0:
        return 0.0, (dfd if dfd > 0.0 else 0.0)
    if within <= 0.0:
        return np.inf, dfd
    return between / (within / dfd), dfd


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
# Compile time is user time (a cold process compiles every kernel it calls, about
# 0.1 s for the smallest): a fit calls one merge kernel, written as one loop, with a
# few plain arrays of one dtype each, and the Python wrappers below unpack the tuple.

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
_MARK = 7  # nominal: 1 for a group whose key is stale (a lower bound of its best pair)
_DIRTY = 8  # 1 for a group whose key changed since the tree was updated
_SLOT = 9  # column of each live group in the counts (nominal: live groups packed)
_GROUP = 10  # live group of each column
# flags (intp)
_ORDINAL = 0
_TEST = 1
_N_GROUPS = 2  # live groups, which are the columns 0 .. n_groups - 1 (nominal)
_INIT = 3  # progress of the initial tests: rows tested (nominal) or 2 n_rows (ordinal)
_CHANGED = 4  # group whose counts changed, its pairs not yet re-tested (-1: none)
_OTHER = 5  # second changed group (a split), -1 none
_GONE = 6  # group that stopped existing as it was, -1 none
_QUEUED = 7  # nominal: groups in the queue of keys that changed
_N_FOUND = 8  # nominal: pairs of the two changed groups to offer (8 and 9)
_INIT_STOP = 10  # nominal: a call returns once the initial tests reach this row

# Positions in the state tuple.
_TABLE = 0  # (c, J) the original rows
_COUNTS = 1  # (J, c) class counts of the live groups, by column (see _SLOT)
_TOTALS = 2  # (c,) total count of each column
_LINKS = 3  # (11, c) intp, rows _ALIVE ... _GROUP
_KEYS = 4  # (5, c) best pair of each group: rows _NLP, _STAT, _DOF, _LO, _HI
_FLAGS = 5  # see above
# nominal predictors
_STATS = 6  # (2, c) workspace: statistics of two groups by column
_PRESENT = 7  # (2, c) workspace: classes present in those pairs
_BEST = 8  # (J + 1,) workspace: a scan's best statistic by classes present
_PARTNER = 9  # (J + 1,) its partner
_PROFILES = 10  # (2, J, c) float32: class shares n_j / n of each column, and their
# inverses, capped at the largest float32 (an absent class: so that it adds 0)
_NO_SHARE = float(np.finfo(np.float32).max)
_NOMINAL_TREE = 11  # (2 P,) tournament tree of groups by their key
_NOMINAL_QUEUE = 12  # (2 c + 4,) the groups whose key changed (repeats allowed)
_FOUND = 13  # (2, c) workspace: columns whose pair with a changed group was tested
_BARS = 14  # (c,) by column: the statistic of the group's key if it has every class
# present (J - 1 degrees of freedom), else +inf: what a pair with every class present
# must not exceed to be offered
_SUMS = 15  # (2, c) float64 workspace of a scan
_BOUND = 16  # (c,) float32 workspace of a scan
_CNT = 17  # (c,) intp workspace of a scan
# ordinal predictors
_TREE = 6  # (2 P,) tournament tree of groups by their best pair
_QUEUE = 7  # (c,) workspace: the groups whose key changed

#: merge_until return codes
DONE = 0
COMPOUND = 1
#: Pair tests per kernel call: a call returns to Python after about this much work
#: (about ten milliseconds), so that Ctrl-C is honoured.
WORK_PER_CALL = 2_000_000

# stages of the nominal loop
_SCAN_CHANGED, _SCAN_OTHER, _MERGE = 0, 1, 2


@njit(**NJIT, **NO_REFCOUNTS, no_rewrites=True)
def _nominal_loop(
    counts, totals, links, keys, flags, stats, present, best, partner, profiles,
    tree, queue, found, bars, sums, bound, cnt, max_neg_log_alpha, min_groups,
    max_groups, stop_on_compound, max_work,
):  # fmt: skip
    """The initial pair tests and the merge loop of a nominal predictor.

    One loop does every step, so that a fit compiles one kernel: the initial
    tests (row by row, each row against every other row) and the keys, then the
    merges; after each merge (or a split left pending by :func:`split_group`),
    the changed groups are re-tested against every live group and each other
    group is offered its new pairs. The pair to merge is the first key, at the
    root of a tournament tree over the groups, which is updated in O(log c) for
    each key that changed.

    A group whose best partner changed or is gone keeps its old key, marked
    stale: its pairs with unchanged groups were all after that key, so the key
    is a lower bound of its best pair, and it stays one as new pairs are
    offered (a new pair before it is the group's best pair, no longer stale).
    The group is re-scanned only when its stale key comes first, so the first
    exact key is the first pair (most re-scans of a merge loop are never needed:
    a group far from every merge is not re-scanned at all).

    A test of one group against every live group first computes a lower bound
    of each pair's statistic, class by class along the columns of ``profiles``
    (classes x groups) in SIMD lanes and with no division; the exact statistic,
    with the arithmetic of :func:`_pair_statistic` term for term (the same
    bits), is computed only for the pairs whose bound is not above every
    statistic the pair must beat to matter: the group's best so far, and the
    other group's key (an offer). A group that lacks classes gets all its
    Pearson statistics class by class in SIMD lanes instead (the bound settles
    few of its pairs). The live groups are packed in the columns
    ``0 .. n_groups - 1``, so a scan reads no dead group.

    Returns (status, group) with status ``DONE``, ``COMPOUND`` or -1 (work left,
    after about ``max_work`` pair tests).
    """
    n_classes, n_rows = counts.shape
    key_nlp = keys[_NLP]
    key_stat = keys[_STAT]
    key_dof = keys[_DOF]
    key_lo = keys[_LO]
    key_hi = keys[_HI]
    alive = links[_ALIVE]
    n_cats = links[_N_CATS]
    mark = links[_MARK]
    slot = links[_SLOT]
    group = links[_GROUP]
    shares = profiles[0]
    inverses = profiles[1]
    test = flags[_TEST]
    size = tree.shape[0] // 2
    work = 0
    compound = -1
    stage = _SCAN_CHANGED if flags[_CHANGED] >= 0 else _MERGE
    # the scan's workspaces are the caller's: a kernel that makes arrays
    # compiles numba's allocation and reference counting at a cold start
    # (0.3 s of this one's)
    acc = sums[0]
    err = sums[1]
    # the bound is summed in float32 (half the memory read, twice the SIMD lanes);
    # its relative rounding error is below (J + 5) 2^-24, and the error of a share
    # difference adds less than 2^-22 (n_g + n_h) in all
    relative = 1.0 - (n_classes + 8) * 2.0**-20
    while True:
        # ---- the next group to test against every live group, and to give its
        # key: each row at the start, a changed group (whose pairs are then
        # offered to the others), or a group whose stale key came first
        g = -1
        k = 0
        offering = False
        n_live = flags[_N_GROUPS]
        if flags[_INIT] < n_rows:
            # (a row against every other row, rather than against the rows
            # after it only: the bound then settles more pairs, and there is
            # less code to compile; rows are tested independently, so that
            # threads can share them out, each up to its _INIT_STOP)
            if (work >= max_work and work > 0) or flags[_INIT] >= flags[_INIT_STOP]:
                return -1, -1
            g = flags[_INIT]
            flags[_INIT] += 1
        elif stage == _SCAN_CHANGED:
            g = flags[_CHANGED]
            offering = True
            stage = _SCAN_OTHER
        elif stage == _SCAN_OTHER:
            stage = _MERGE
            other = flags[_OTHER]
            if other < 0 or other == flags[_CHANGED] or alive[other] == 0:
                flags[_OTHER] = -1
                flags[_N_FOUND + 1] = 0
                continue
            g = other
            k = 1
            offering = True
        else:
            changed = flags[_CHANGED]
            if changed >= 0:
                other = flags[_OTHER]
                gone = flags[_GONE]
                # ---- a group whose best partner took part becomes stale (one
                # pass over the keys, in SIMD lanes; a dead group has no pair)
                # (a merge changes keep and ends gone; a split changes g, which
                # is one of its two sides, and makes the other)
                changed_f = float(changed)
                second_f = float(other if other >= 0 else gone)
                for h in range(n_rows):
                    low = key_lo[h]
                    high = key_hi[h]
                    mark[h] |= (
                        (low == changed_f)
                        | (high == changed_f)
                        | (low == second_f)
                        | (high == second_f)
                    )
                # (a pass reads every row, dead or alive: it counts as work, so
                # that a loop over few live groups of many rows still returns
                # to Python often)
                work += n_rows // 8
                # their keys were just set by their scans
                mark[changed] = 0
                if other >= 0:
                    mark[other] = 0
                # ---- each group is offered its pairs with the changed groups:
                # only the pairs whose statistic the scans computed can come
                # before its key
                for kk in range(1 if other < 0 else 2):
                    partner_g = changed if kk == 0 else other
                    for m in range(flags[_N_FOUND + kk]):
                        s = found[kk, m]
                        h = group[s]
                        if h == changed or h == other:
                            continue
                        low = key_lo[h]
                        high = key_hi[h]
                        statistic = stats[kk, s]
                        if test == F_TEST:
                            dof = counts[0, slot[partner_g]] + counts[0, s] - 2.0
                            dof = dof if dof > 0.0 else 0.0
                            # no smaller F and no fewer degrees of freedom: not
                            # before h's key (see the scan)
                            if (
                                low >= 0
                                and statistic > key_stat[h]
                                and dof > key_dof[h]
                            ):
                                continue
                        else:
                            dof = float(present[kk, s] - 1)
                        # same degrees of freedom: the statistic orders the
                        # p-values, so the tail probability waits until the pair
                        # wins (most offers lose on the statistic alone)
                        same = low >= 0 and dof == key_dof[h]
                        if same and statistic > key_stat[h]:
                            continue
                        lo_f = float(partner_g if partner_g < h else h)
                        hi_f = float(h if partner_g < h else partner_g)
                        if test == F_TEST:
                            nlp = -log_f_sf(statistic, 1.0, dof)
                        else:
                            nlp = -log_chi2_sf(statistic, dof) if dof > 0 else 0.0
                        # at the same degrees of freedom the statistics compare
                        # (the tail probabilities may round alike)
                        compared = key_nlp[h] if same else nlp
                        if low < 0 or _before(
                            compared, statistic, lo_f, hi_f,
                            key_nlp[h], key_stat[h], low, high,
                        ):  # fmt: skip
                            key_nlp[h] = nlp
                            key_stat[h] = statistic
                            key_dof[h] = dof
                            key_lo[h] = lo_f
                            key_hi[h] = hi_f
                            bars[s] = (
                                statistic
                                if test != F_TEST and dof == n_classes - 1
                                else np.inf
                            )
                            mark[h] = 0
                            queue[flags[_QUEUED]] = h
                            flags[_QUEUED] += 1
                flags[_CHANGED] = -1
                flags[_OTHER] = -1
                flags[_GONE] = -1
                if compound >= 0:
                    return COMPOUND, compound
            # ---- the first key: the root of the tree, once the keys that
            # changed are in it
            for i in range(flags[_QUEUED]):
                node = (size + queue[i]) // 2
                while node >= 1:
                    a = tree[2 * node]
                    b = tree[2 * node + 1]
                    winner = a
                    if a < 0 or (
                        b >= 0
                        and key_lo[b] >= 0
                        and (
                            key_lo[a] < 0
                            or _before(
                                key_nlp[b], key_stat[b], key_lo[b], key_hi[b],
                                key_nlp[a], key_stat[a], key_lo[a], key_hi[a],
                            )
                        )
                    ):  # fmt: skip
                        winner = b
                    tree[node] = winner
                    node //= 2
            flags[_QUEUED] = 0
            top = tree[1]
            # ---- the next merge: the first pair, while the rule allows it
            done = n_live <= min_groups or top < 0 or key_lo[top] < 0
            similar = False
            if not done and mark[top] == 0:
                similar = key_nlp[top] < max_neg_log_alpha
                done = not similar and (max_groups < 0 or n_live <= max_groups)
            if done:
                return DONE, -1
            if mark[top] == 1:
                # a stale key first: the group's best pair, then look again
                g = top
                mark[g] = 0
            else:
                if work >= max_work:
                    return -1, -1
                keep = np.intp(key_lo[top])
                gone = np.intp(key_hi[top])
                s_keep = slot[keep]
                s_gone = slot[gone]
                for j in range(n_classes):
                    counts[j, s_keep] += counts[j, s_gone]
                totals[s_keep] += totals[s_gone]
                n_keep = totals[s_keep]
                for j in range(n_classes):
                    u = counts[j, s_keep]
                    shares[j, s_keep] = u / n_keep
                    ratio = n_keep / (u if u > 1e-300 else 1e-300)
                    inverses[j, s_keep] = ratio if ratio < _NO_SHARE else _NO_SHARE
                alive[gone] = 0
                n_cats[keep] += n_cats[gone]
                links[_FOLLOWING, links[_LAST, keep]] = links[_FIRST, gone]
                links[_LAST, keep] = links[_LAST, gone]
                # the last column fills the gap
                last = n_live - 1
                if s_gone != last:
                    for j in range(n_classes):
                        counts[j, s_gone] = counts[j, last]
                        shares[j, s_gone] = shares[j, last]
                        inverses[j, s_gone] = inverses[j, last]
                    totals[s_gone] = totals[last]
                    bars[s_gone] = bars[last]
                    moved = group[last]
                    group[s_gone] = moved
                    slot[moved] = s_gone
                slot[gone] = -1
                flags[_N_GROUPS] = last
                # no pair (the rest of a dead group's key is never read)
                key_lo[gone] = -1.0
                queue[flags[_QUEUED]] = gone
                flags[_QUEUED] += 1
                flags[_CHANGED] = keep
                flags[_OTHER] = -1
                flags[_GONE] = gone
                if stop_on_compound and similar and n_cats[keep] >= 3:
                    compound = keep
                stage = _SCAN_CHANGED
                continue

        # ---- g against every live group. A lower bound of each pair's statistic
        # comes first, class by class in SIMD lanes with no division; the exact
        # statistic is computed only for the pairs whose bound does not settle
        # them (most pairs are far from the best ones, and the division of each
        # exact term is what a test costs)
        s_g = slot[g]
        n_g = totals[s_g]
        if test == F_TEST:
            # ---- a continuous target: every pair's F statistic (a few
            # operations), then the tail probability only for the pairs that
            # may come first. The p-value of F(1, d) decreases as F grows and as
            # d grows (the t distribution's tails thin as its degrees of freedom
            # grow), so (1) a pair of larger F and no fewer degrees of freedom
            # than g's best so far is not before it, and (2) with d_low the
            # fewest degrees of freedom of g's pairs, every pair of F above
            # f_bar, where F(1, d_low) already has a p-value below that of the
            # pair of least F, is not before that pair
            out = stats[k]
            n_found = 0
            w_g = counts[0, s_g]
            sum_g = counts[1, s_g]
            squares_g = counts[2, s_g]
            least = -1
            least_weight = np.inf
            for s in range(n_live):
                h = group[s]
                if h == g:
                    continue
                statistic, dfd = f_pair_statistic(
                    w_g, sum_g, squares_g, counts[0, s], counts[1, s], counts[2, s]
                )
                acc[s] = statistic
                err[s] = dfd
                if counts[0, s] < least_weight:
                    least_weight = counts[0, s]
                if least < 0 or statistic < acc[least]:
                    least = s
                if offering:
                    # offered in the pass that follows
                    out[s] = statistic
                    found[k, n_found] = s
                    n_found += 1
            f_bar = np.inf
            if least >= 0 and acc[least] < np.inf:
                bar = -log_f_sf(acc[least], 1.0, err[least])
                d_low = w_g + least_weight - 2.0
                if d_low > 0.0:
                    # the least F whose tail at d_low is below the bar, by
                    # doubling and bisection (a few tail probabilities a scan)
                    low = acc[least]
                    high = low + 1.0
                    for _ in range(64):
                        if -log_f_sf(high, 1.0, d_low) >= bar:
                            f_bar = high
                            break
                        low = high
                        high *= 2.0
                    if f_bar < np.inf:
                        for _ in range(30):
                            middle = 0.5 * (low + f_bar)
                            if -log_f_sf(middle, 1.0, d_low) >= bar:
                                f_bar = middle
                            else:
                                low = middle
            chosen = -1
            chosen_nlp = np.inf
            chosen_stat = np.inf
            chosen_dof = 0.0
            for s in range(n_live):
                h = group[s]
                if h == g:
                    continue
                statistic = acc[s]
                dfd = err[s]
                if chosen >= 0 and statistic > chosen_stat:
                    # (the chosen pair has the smaller F: it wins an equal p-value)
                    if statistic > f_bar or dfd >= chosen_dof:
                        continue
                nlp = -log_f_sf(statistic, 1.0, dfd)
                if (
                    chosen < 0
                    or nlp < chosen_nlp
                    or (
                        nlp == chosen_nlp
                        and (
                            statistic < chosen_stat
                            or (statistic == chosen_stat and h < chosen)
                        )
                    )
                ):
                    chosen = h
                    chosen_nlp = nlp
                    chosen_stat = statistic
                    chosen_dof = dfd
            if offering:
                flags[_N_FOUND + k] = n_found
            work += n_live
        else:
            # unsigned bounds: numba then knows the index is not negative and drops
            # the wrap-around that keeps LLVM from vectorising
            stop = np.uintp(n_live)
            # classes present: g's, and those absent from g where column s has cases
            # (counted apart, so that the usual loop, every class present in g, adds
            # no count)
            present_g = 0
            for j in range(n_classes):
                present_g += 1 if counts[j, s_g] > 0.0 else 0
            for s in range(stop):
                cnt[s] = present_g
            # every pair has every class present when g has them all
            dense = present_g == n_classes
            # the bound settles few pairs of a group that lacks classes (pairs of
            # many numbers of classes present, each compared within its number only):
            # then every Pearson statistic, class by class in SIMD lanes, with the
            # arithmetic of _pair_statistic term for term (the same bits); a pair's
            # likelihood ratio costs logarithms: it stays settled by the bound
            every = not dense and test == PEARSON
            if every:
                for s in range(stop):
                    acc[s] = 0.0
                    err[s] = 0.0
            else:
                for s in range(stop):
                    bound[s] = 0.0
            for j in range(n_classes):
                u = counts[j, s_g]
                column = counts[j]
                if u <= 0.0:
                    for s in range(stop):
                        cnt[s] += column[s] > 0.0
                if every:
                    for s in range(stop):
                        v = column[s]
                        t = u + v
                        d = u * totals[s] - v * n_g
                        term = d * d / t if t > 0.0 else 0.0
                        # Knuth's TwoSum (a zero term changes nothing)
                        following = acc[s] + term
                        term_part = following - acc[s]
                        err[s] += (acc[s] - (following - term_part)) + (
                            term - term_part
                        )
                        acc[s] = following
                else:
                    # the bound: with p and q the class shares of g and h, X2 and G2
                    # are both at least n_g n_h / (n_g + n_h) sum_j (p_j - q_j)^2 /
                    # max(p_j, q_j) (docs/design.rst, "The CHAID kernel")
                    share_g = shares[j, s_g]
                    inverse_g = inverses[j, s_g]
                    share = shares[j]
                    inverse = inverses[j]
                    for s in range(stop):
                        d = share_g - share[s]
                        larger = inverse[s]
                        bound[s] += (
                            d * d * (inverse_g if inverse_g < larger else larger)
                        )
            # each pair's statistic (or its bound) is compared as acc[s] against a
            # statistic times err[s]: the bound's denominator n_g + n_h moves to the
            # other side of the comparison, so that no pair costs a division
            if every:
                for s in range(stop):
                    statistic = acc[s] + err[s]
                    acc[s] = statistic / (n_g * totals[s]) if cnt[s] >= 2 else 0.0
                    err[s] = 1.0
            else:
                for s in range(stop):
                    n_h = totals[s]
                    total = n_g + n_h
                    # the bound times n_g + n_h (> 0), lowered by more than the
                    # rounding errors of the bound and of the exact statistic
                    # (relative, and relative to the counts)
                    acc[s] = (
                        np.float64(bound[s]) * (n_g * n_h) * relative
                        - 1e-6 * total * total
                    )
                    err[s] = total
            out = stats[k]
            n_present = present[k]
            n_found = 0
            for n in range(n_classes + 1):
                partner[n] = -1
                best[n] = np.inf
            # (the statistics to beat of a group with every class present are read
            # without the count)
            for s in range(n_live):
                lower = acc[s]
                weight = err[s]
                if (
                    dense
                    and lower > best[n_classes] * weight
                    and (not offering or lower > bars[s] * weight)
                ):
                    continue
                n = cnt[s]
                # the exact statistic is needed where it may be at most g's best
                # statistic for n classes present, or (an offer of a changed group)
                # h's key at the same degrees of freedom (any pair at other degrees)
                h = group[s]
                if h == g:
                    continue
                bar = best[n]
                if offering:
                    if key_lo[h] < 0 or n - 1 != key_dof[h]:
                        bar = np.inf
                    elif key_stat[h] > bar:
                        bar = key_stat[h]
                if lower > bar * weight:
                    continue
                # the exact statistic (computed above for a group that lacks classes)
                statistic = lower
                if not every:
                    # the arithmetic of _pair_statistic (the same bits)
                    n_h = totals[s]
                    total = n_g + n_h
                    statistic = 0.0
                    error = 0.0
                    for j in range(n_classes):
                        u = counts[j, s_g]
                        v = counts[j, s]
                        t = u + v
                        if t <= 0.0:
                            continue
                        if test == PEARSON:
                            d = u * n_h - v * n_g
                            term = d * d / t
                        else:
                            term = 0.0
                            if u > 0.0:
                                term += u * math.log(u * total / (n_g * t))
                            if v > 0.0:
                                term += v * math.log(v * total / (n_h * t))
                        following = statistic + term
                        term_part = following - statistic
                        error += (statistic - (following - term_part)) + (
                            term - term_part
                        )
                        statistic = following
                    statistic += error
                    if n < 2:
                        statistic = 0.0
                    elif test == PEARSON:
                        statistic /= n_g * n_h
                    else:
                        statistic = 2.0 * statistic
                        if statistic < 0.0:
                            statistic = 0.0
                if offering:
                    # offered in the pass that follows
                    out[s] = statistic
                    n_present[s] = n
                    found[k, n_found] = s
                    n_found += 1
                # g's best partner for each number of classes present (the smaller
                # statistic, then the lower group)
                if (
                    partner[n] < 0
                    or statistic < best[n]
                    or (statistic == best[n] and h < partner[n])
                ):
                    best[n] = statistic
                    partner[n] = h
            if offering:
                flags[_N_FOUND + k] = n_found
            # in pair tests of about ten classes (a pair of 500 classes is 50)
            work += n_live * (n_classes // 10 + 1)

            # ---- g's key: the first of its best partners by number of classes present;
            # within one number the smaller statistic is the larger p-value, so only
            # these candidates need a tail probability
            chosen = -1
            chosen_present = 0
            chosen_nlp = np.inf
            chosen_stat = np.inf
            for n in range(n_classes + 1):
                h = partner[n]
                if h < 0:
                    continue
                statistic = best[n]
                nlp = -log_chi2_sf(statistic, float(n - 1)) if n > 1 else 0.0
                if chosen < 0:
                    first_pair = True
                elif nlp != chosen_nlp:
                    first_pair = nlp < chosen_nlp
                elif statistic != chosen_stat:
                    first_pair = statistic < chosen_stat
                else:
                    # the pairs (g, h) and (g, chosen): the lower other group first
                    first_pair = h < chosen
                if first_pair:
                    chosen = h
                    chosen_nlp = nlp
                    chosen_stat = statistic
                    chosen_present = n
            chosen_dof = float(chosen_present - 1) if chosen_present > 0 else 0.0
        key_nlp[g] = chosen_nlp
        key_stat[g] = chosen_stat
        key_dof[g] = chosen_dof
        key_lo[g] = g if g < chosen else chosen
        key_hi[g] = -1 if chosen < 0 else (chosen if g < chosen else g)
        # (a continuous target's scan reads no bar)
        bars[slot[g]] = (
            chosen_stat
            if test != F_TEST and chosen_dof == n_classes - 1 and chosen >= 0
            else np.inf
        )
        queue[flags[_QUEUED]] = g
        flags[_QUEUED] += 1


@njit(**NJIT)
def _ordinal_loop(
    counts, totals, links, keys, tree, flags, queue, max_neg_log_alpha, min_groups,
    max_groups, stop_on_compound, max_work,
):  # fmt: skip
    """:func:`_nominal_loop` of an ordinal predictor: each group's key is the pair
    with its right neighbour, so a merge (or a split) re-tests at most four pairs.
    Groups keep their row as column of ``counts``."""
    n_classes, n_rows = counts.shape
    test = flags[_TEST]
    size = tree.shape[0] // 2
    work = 0
    n_queued = 0
    if flags[_INIT] < 2 * n_rows:
        # the initial pairs: every row with its right neighbour
        for g in range(n_rows):
            queue[g] = g
        n_queued = n_rows
        flags[_INIT] = 2 * n_rows
    compound = -1
    while True:
        changed = flags[_CHANGED]
        if changed >= 0:
            # the changed groups and their left neighbours get new keys
            other = flags[_OTHER]
            for kk in range(4):
                g = changed if kk < 2 else other
                if g < 0 or links[_ALIVE, g] == 0 or (kk >= 2 and other == changed):
                    continue
                if kk % 2 == 1:
                    g = links[_PREV, g]
                    if g < 0:
                        continue
                if links[_DIRTY, g] == 0:
                    links[_DIRTY, g] = 1
                    queue[n_queued] = g
                    n_queued += 1
            flags[_CHANGED] = -1
            flags[_OTHER] = -1
            flags[_GONE] = -1
        for i in range(n_queued):
            g = queue[i]
            links[_DIRTY, g] = 0
            h = links[_NEXT, g] if links[_ALIVE, g] == 1 else -1
            if h < 0:
                keys[_NLP, g] = np.inf
                keys[_STAT, g] = np.inf
                keys[_DOF, g] = 0.0
                keys[_LO, g] = -1.0
                keys[_HI, g] = -1.0
            elif test == F_TEST:
                statistic, dof = f_pair_statistic(
                    counts[0, g], counts[1, g], counts[2, g],
                    counts[0, h], counts[1, h], counts[2, h],
                )  # fmt: skip
                keys[_NLP, g] = -log_f_sf(statistic, 1.0, dof)
                keys[_STAT, g] = statistic
                keys[_DOF, g] = dof
                keys[_LO, g] = g
                keys[_HI, g] = h
            else:
                # the arithmetic of _pair_statistic, on columns g and h
                n_a = totals[g]
                n_b = totals[h]
                total = n_a + n_b
                statistic = 0.0
                error = 0.0
                n_present = 0
                for j in range(n_classes):
                    u = counts[j, g]
                    v = counts[j, h]
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
                    following = statistic + term
                    term_part = following - statistic
                    error += (statistic - (following - term_part)) + (term - term_part)
                    statistic = following
                statistic += error
                if n_present < 2:
                    statistic = 0.0
                elif test == PEARSON:
                    statistic /= n_a * n_b
                else:
                    statistic = 2.0 * statistic
                    if statistic < 0.0:
                        statistic = 0.0
                dof = float(n_present - 1)
                keys[_NLP, g] = -log_chi2_sf(statistic, dof) if dof > 0 else 0.0
                keys[_STAT, g] = statistic
                keys[_DOF, g] = dof
                keys[_LO, g] = g
                keys[_HI, g] = h
            work += 1
            node = (size + g) // 2
            while node >= 1:
                a = tree[2 * node]
                b = tree[2 * node + 1]
                if a < 0:
                    winner = b
                elif b < 0 or keys[_LO, b] < 0:
                    winner = a
                elif keys[_LO, a] < 0:
                    winner = b
                elif keys[_NLP, b] != keys[_NLP, a]:
                    winner = b if keys[_NLP, b] < keys[_NLP, a] else a
                elif keys[_STAT, b] != keys[_STAT, a]:
                    winner = b if keys[_STAT, b] < keys[_STAT, a] else a
                elif keys[_LO, b] != keys[_LO, a]:
                    winner = b if keys[_LO, b] < keys[_LO, a] else a
                else:
                    winner = b if keys[_HI, b] < keys[_HI, a] else a
                tree[node] = winner
                node //= 2
        n_queued = 0
        if compound >= 0:
            return COMPOUND, compound
        n_live = flags[_N_GROUPS]
        if n_live <= min_groups:
            return DONE, -1
        top = tree[1]
        if top < 0 or keys[_LO, top] < 0:
            return DONE, -1
        similar = keys[_NLP, top] < max_neg_log_alpha
        if not similar and not (0 <= max_groups < n_live):
            return DONE, -1
        if work >= max_work:
            return -1, -1
        keep = int(keys[_LO, top])
        gone = int(keys[_HI, top])
        for j in range(n_classes):
            counts[j, keep] += counts[j, gone]
        totals[keep] += totals[gone]
        links[_ALIVE, gone] = 0
        links[_N_CATS, keep] += links[_N_CATS, gone]
        links[_FOLLOWING, links[_LAST, keep]] = links[_FIRST, gone]
        links[_LAST, keep] = links[_LAST, gone]
        flags[_N_GROUPS] = n_live - 1
        # adjacent groups: gone is the right neighbour of keep
        right = links[_NEXT, gone]
        links[_NEXT, keep] = right
        if right >= 0:
            links[_PREV, right] = keep
        # gone's key is cleared by its refresh (a dead group has no pair)
        queue[0] = gone
        links[_DIRTY, gone] = 1
        n_queued = 1
        flags[_CHANGED] = keep
        flags[_OTHER] = -1
        flags[_GONE] = gone
        work += 3
        if stop_on_compound and similar and links[_N_CATS, keep] >= 3:
            compound = keep


# --------------------------------------------------------------------------------------
# Python drivers: they hold the state between kernel calls
# --------------------------------------------------------------------------------------


def _run(state, max_neg_log_alpha, min_groups, max_groups, stop_on_compound, max_work):
    """One call of the predictor's loop kernel."""
    rule = (
        float(max_neg_log_alpha), int(min_groups), int(max_groups),
        bool(stop_on_compound), int(max_work),
    )  # fmt: skip
    if state[_FLAGS][_ORDINAL] == 1:
        return _ordinal_loop(
            *state[_COUNTS:_KEYS + 1], state[_TREE], state[_FLAGS], state[_QUEUE],
            *rule,
        )  # fmt: skip
    return _nominal_loop(*state[_COUNTS:], *rule)


def _profiles(counts, totals):
    """Class shares of the columns of ``counts`` and their inverses, (2, J, c)."""
    inverses = np.full(counts.shape, _NO_SHARE)
    np.divide(totals, counts, out=inverses, where=counts > 0.0)
    # capped: a smaller inverse keeps the bound a lower bound
    np.minimum(inverses, _NO_SHARE, out=inverses)
    return np.stack([counts / totals, inverses]).astype(np.float32)


def init_state(table, ordinal, test, pool=None, n_threads=1):
    """Every row its own group, with the key of its best allowed pair.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
        No empty row. Ordinal predictors: rows in their order.
    ordinal : bool
        Allowed pairs: adjacent rows only (True) or all pairs.
    test : int
        ``PEARSON`` or ``LIKELIHOOD_RATIO``, or ``F_TEST`` for a moment table
        (columns weight, sum and sum of squares of a continuous target).
    pool : concurrent.futures.Executor or None, default=None
        Threads that share out the initial tests of a large nominal table
        (:func:`_initial_tests_in_threads`); the state is the same.
    n_threads : int, default=1
        Threads of ``pool`` to use.

    Returns
    -------
    state : tuple of ndarrays
    """
    table = np.ascontiguousarray(table, dtype=np.float64)
    n_rows, n_classes = table.shape
    counts = np.ascontiguousarray(table.T)
    continuous = test == F_TEST
    if continuous:
        # a moment table: a group's size is its weight
        totals = counts[0].copy()
    else:
        # in class order, as the kernels add a row, so that totals match theirs
        totals = np.zeros(n_rows)
        for j in range(n_classes):
            totals += counts[j]
    # a few numpy calls (a tree calls this for every node and column)
    rows = np.arange(n_rows)
    links = np.zeros((11, n_rows), dtype=np.intp)
    links[_ALIVE : _N_CATS + 1] = 1
    links[(_FIRST, _LAST, _SLOT, _GROUP),] = rows
    links[_FOLLOWING] = -1
    links[_PREV] = rows - 1
    links[_NEXT] = rows + 1
    if n_rows > 0:
        links[_NEXT, n_rows - 1] = -1
    keys = np.full((5, n_rows), np.inf)
    keys[_DOF] = 0.0
    keys[_LO : _HI + 1] = -1.0
    flags = np.array(
        [1 if ordinal else 0, int(test), n_rows, 0, -1, -1, -1, 0, 0, 0, n_rows],
        np.intp,
    )
    state = (table, counts, totals, links, keys, flags)
    size = 1
    while size < max(n_rows, 1):
        size *= 2
    tree = np.full(2 * size, -1, dtype=np.intp)
    tree[size : size + n_rows] = rows
    if ordinal:
        state += (tree, np.zeros(max(n_rows, 1), dtype=np.intp))
    else:
        state += (
            np.zeros((2, n_rows)),
            np.zeros((2, n_rows), dtype=np.intp),
            np.full(n_classes + 1, np.inf),
            np.full(n_classes + 1, -1, dtype=np.intp),
            # (the F test reads no class shares)
            np.zeros((2, n_classes, n_rows), np.float32)
            if continuous
            else _profiles(counts, totals),
            tree,
            # between two updates of the tree: a key per group at the start, or
            # the offers of two changed groups and a few keys
            np.zeros(2 * n_rows + 4, dtype=np.intp),
            np.zeros((2, n_rows), dtype=np.intp),
            np.full(n_rows, np.inf),
            np.empty((2, n_rows)),
            np.empty(n_rows, dtype=np.float32),
            np.empty(n_rows, dtype=np.intp),
        )
    if not ordinal and pool is not None and n_threads > 1:
        _initial_tests_in_threads(state, pool, n_threads)
    # the initial tests and keys, in calls of about WORK_PER_CALL pairs (Ctrl-C); a
    # rule that merges nothing
    while True:
        status, _ = _run(state, 0.0, n_rows, -1, False, WORK_PER_CALL)
        if status >= 0:
            return state


#: Class-pair terms of the initial tests (rows^2 x classes) from which they are
#: shared out to threads (about a millisecond of work; a thread costs ~0.05 ms).
MIN_WORK_IN_THREADS = 2_000_000


def _initial_tests_in_threads(state, pool, n_threads):
    """The initial tests of a large nominal table, its rows shared out to threads.

    Each row's test against every row sets that row's key only, so the rows are
    cut into one run per thread, and each thread runs the loop kernel over
    its run with its own workspaces (flags, the scan's best partners, the queue
    of keys). The keys are those of one thread, bit for bit. Each call stops
    after about ``WORK_PER_CALL`` pairs, so that the main thread (which waits)
    sees a KeyboardInterrupt within a fraction of a second and the threads stop
    at their next call.
    """
    counts, flags = state[_COUNTS], state[_FLAGS]
    n_classes, n_rows = counts.shape
    if n_rows * n_rows * n_classes < MIN_WORK_IN_THREADS:
        return
    bounds = np.linspace(0, n_rows, n_threads + 1).astype(np.intp)
    interrupted = []

    def run(start, stop):
        own = list(state)
        own[_FLAGS] = flags.copy()
        own[_FLAGS][_INIT] = start
        own[_FLAGS][_INIT_STOP] = stop
        for position in (_BEST, _PARTNER, _NOMINAL_QUEUE, _SUMS, _BOUND, _CNT):
            own[position] = own[position].copy()
        while own[_FLAGS][_INIT] < stop and not interrupted:
            _run(tuple(own), 0.0, n_rows, -1, False, WORK_PER_CALL)

    futures = [
        pool.submit(run, start, stop)
        for start, stop in zip(bounds[:-1], bounds[1:], strict=True)
    ]
    try:
        for future in futures:
            future.result()
    except BaseException:
        interrupted.append(True)
        raise
    # every row tested; their keys go into the tree at the next call
    queue = state[_NOMINAL_QUEUE]
    queue[:n_rows] = np.arange(n_rows)
    flags[_QUEUED] = n_rows
    flags[_INIT] = n_rows


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
    while True:
        status, group = _run(
            state, max_neg_log_alpha, min_groups, max_groups, stop_on_compound,
            WORK_PER_CALL,
        )  # fmt: skip
        if status >= 0:
            return int(status), int(group)


def members(state, g):
    """Rows of group g in the order they joined it."""
    # a short walk (a group to re-split), not worth a compiled kernel
    links = state[_LINKS]
    out = np.empty(links[_N_CATS, g], dtype=np.intp)
    row = links[_FIRST, g]
    for k in range(len(out)):
        out[k] = row
        row = links[_FOLLOWING, row]
    return out


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
    table, counts, totals, links, _, flags = state[: _FLAGS + 1]
    g = int(g)
    rows = np.sort(members(state, g))
    in_part = np.isin(rows, np.asarray(part, dtype=np.intp))
    ordinal = flags[_ORDINAL] == 1
    reps = []
    for side in (rows[~in_part], rows[in_part]):
        rep = int(side[0])
        # the side containing g keeps its column; the other takes a new one
        if rep == g or ordinal:
            column = links[_SLOT, g] if not ordinal else rep
        else:
            column = flags[_N_GROUPS]
            links[_GROUP, column] = rep
        links[_SLOT, rep] = column
        # row by row and class by class from zero, as the kernels add (same bits)
        counts[:, column] = np.cumsum(table[side], axis=0)[-1]
        if flags[_TEST] == F_TEST:
            totals[column] = counts[0, column]
        else:
            totals[column] = np.cumsum(counts[:, column])[-1]
        if not ordinal and flags[_TEST] != F_TEST:
            profiles = _profiles(counts[:, column : column + 1], totals[column])
            state[_PROFILES][:, :, column] = profiles[:, :, 0]
            # the group's key is set by the kernel's scan that follows
            state[_BARS][column] = np.inf
        links[_FOLLOWING, side[:-1]] = side[1:]
        links[_FOLLOWING, side[-1]] = -1
        links[_FIRST, rep] = side[0]
        links[_LAST, rep] = side[-1]
        links[_N_CATS, rep] = len(side)
        links[_ALIVE, rep] = 1
        reps.append(rep)
    flags[_N_GROUPS] += 1
    rep_a, rep_b = reps
    if ordinal:
        left, right = (rep_a, rep_b) if rep_a < rep_b else (rep_b, rep_a)
        outer = links[_NEXT, g]
        links[_PREV, right] = left
        links[_NEXT, right] = outer
        links[_NEXT, left] = right
        if outer >= 0:
            links[_PREV, outer] = right
    # the kernel re-tests the pairs of both groups; a rule that merges nothing
    flags[_CHANGED], flags[_OTHER], flags[_GONE] = rep_a, rep_b, g
    while True:
        status, _ = _run(state, 0.0, len(table) + 1, -1, False, WORK_PER_CALL)
        if status >= 0:
            return rep_a, rep_b


def group_labels(state):
    """Label of every row: groups numbered 0, 1, ... by their smallest row."""
    links = state[_LINKS]
    n_rows = links.shape[1]
    if n_rows <= 64:
        # a short walk along the lists
        labels = np.empty(n_rows, dtype=np.intp)
        following = links[_FOLLOWING].tolist()
        for label, g in enumerate(np.flatnonzero(links[_ALIVE]).tolist()):
            row = g
            while row >= 0:
                labels[row] = label
                row = following[row]
        return labels
    # each row's group is the head of its list (the group's smallest row, where
    # its list starts): pointer jumping along the links backwards, O(c log c)
    # in numpy, rather than one more kernel to compile
    head = np.arange(n_rows)
    following = links[_FOLLOWING]
    linked = np.flatnonzero(following >= 0)
    head[following[linked]] = linked
    # after k jumps a row points 2^k rows back (or to its head); no list is longer
    # than the largest group ever formed
    for _ in range(int(links[_N_CATS].max(initial=1)).bit_length()):
        head = head[head]
    label_of = np.cumsum(links[_ALIVE]) - 1
    return label_of[head]


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


#: Tables of at most this many cells are checked by numpy: its three passes take
#: microseconds there, and a fit on them then does not compile the kernel.
NUMPY_CHECK_CELLS = 1 << 16


def nonempty_rows(table):
    """Rows of a float64 table with a positive count, and whether every count is
    finite and non-negative (one compiled pass on a large table)."""
    if table.size <= NUMPY_CHECK_CELLS:
        # NaN fails both comparisons; +inf is caught by isfinite
        valid = bool((table >= 0.0).all() and np.isfinite(table).all())
        return (table > 0.0).any(axis=1), valid
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


@njit(**NJIT)
def f_pair_statistics(table, rows_a, rows_b):
    """:func:`f_pair_statistic` of the pairs ``(rows_a[k], rows_b[k])`` of a
    moment table of shape (n_rows, 3): statistics and denominator degrees of
    freedom."""
    n = rows_a.shape[0]
    statistics = np.empty(n)
    dfd = np.empty(n)
    for k in range(n):
        a = rows_a[k]
        b = rows_b[k]
        statistics[k], dfd[k] = f_pair_statistic(
            table[a, 0], table[a, 1], table[a, 2], table[b, 0], table[b, 1], table[b, 2]
        )
    return statistics, dfd
