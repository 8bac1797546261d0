# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""What the Khiops grouping and the Khiops discretization share (private).

Both methods (Boulle 2004) merge parts of a contingency table bottom-up and stop by
the same robust rule; they differ in which parts may merge (any two groups, or
adjacent intervals) and so in the simulated law of MaxDeltaChi2 they read. This
module holds the shared pieces: the minimum frequency, the stopping rule, the
trace of the merges and the reading of a simulated MaxDeltaChi2 table.

References
----------
.. [1] Boulle, M. (2004). A robust method for partitioning the values of
   categorical attributes. Extraction et Gestion des Connaissances (EGC 2004),
   RNTI-E-2, vol. II, 173-182.
.. [2] Boulle, M. (2004). Khiops: A statistical discretization method of
   continuous attributes. Machine Learning 55, 53-69.
   doi:10.1023/B:MACH.0000019804.29836.05
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2 as chi2_distribution
from scipy.stats import norm

from partikit._kernels._special import log_chi2_sf_array
from partikit._statistics._contingency import resolve_count
from partikit._statistics._measures import chi2_statistic, chi2_test

# --------------------------------------------------------------------------------------
# MaxDeltaChi2: reading a simulated table
# --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _max_delta_chi2_grid(path):
    """Load a simulated (n_groups, n_classes) -> (mean, std) table once."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    names = lines[0].strip().split(",")
    data = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    column = {name: data[:, k] for k, name in enumerate(names)}
    groups_grid = np.unique(column["n_groups"])
    classes_grid = np.unique(column["n_classes"])
    mean = np.full((len(groups_grid), len(classes_grid)), np.nan)
    std = np.full_like(mean, np.nan)
    rows = np.searchsorted(groups_grid, column["n_groups"])
    cols = np.searchsorted(classes_grid, column["n_classes"])
    # The normal law fitted to the upper quantiles (see tools/calibrate_khiops.py).
    mean[rows, cols] = column["tail_mean"]
    std[rows, cols] = column["tail_std"]
    if np.isnan(mean).any():
        raise RuntimeError(f"{path} does not cover a full grid.")
    return groups_grid, classes_grid, mean, std


def _interpolation_weights(x, grid):
    """Bracketing indices and weight for piecewise-linear interpolation.

    Beyond the last grid point the last segment is extended (linear
    extrapolation), following Boulle's observation that the statistics of
    MaxDeltaChi2 behave linearly in the number of groups and of classes.
    """
    k = int(np.searchsorted(grid, x, side="right")) - 1
    k = min(max(k, 0), len(grid) - 2)
    t = (x - grid[k]) / (grid[k + 1] - grid[k])
    return k, t


def max_delta_chi2_moments(n_groups, n_classes, table, *, log_groups=False):
    """Mean and standard deviation of MaxDeltaChi2 for an independent attribute.

    Parameters
    ----------
    n_groups : int
        Number of groups when merging starts (after rare categories are pooled),
        at least 2.
    n_classes : int
        Number of classes present, at least 2.
    table : str
        Path of the simulated table: the grouping one (merges of any two groups,
        ``groupers/_data``) or the discretization one (merges of adjacent
        intervals, ``discretizers/_data``).
    log_groups : bool, default=False
        Interpolate and extrapolate linearly in ``log(n_groups)`` instead of
        ``n_groups`` (for maxima that grow like ``log I``).

    Returns
    -------
    mean, std : float
        Bilinear interpolation of the table simulated by
        ``tools/calibrate_khiops.py``, extrapolated linearly beyond it.
    """
    groups_grid, classes_grid, mean, std = _max_delta_chi2_grid(table)
    if log_groups:
        i, ti = _interpolation_weights(math.log(n_groups), np.log(groups_grid))
    else:
        i, ti = _interpolation_weights(n_groups, groups_grid)
    j, tj = _interpolation_weights(n_classes, classes_grid)

    def bilinear(values):
        low = (1 - ti) * values[i, j] + ti * values[i + 1, j]
        high = (1 - ti) * values[i, j + 1] + ti * values[i + 1, j + 1]
        return float((1 - tj) * low + tj * high)

    return bilinear(mean), max(bilinear(std), 0.0)


def max_delta_chi2_quantile(n_groups, n_classes, p, table, *, log_groups=False):
    """MaxDeltaChi2 at probability ``p`` from a simulated table.

    Parameters
    ----------
    n_groups : int
        Number of groups (or intervals) when merging starts.
    n_classes : int
        Number of classes present.
    p : float
        Probability of the guarantee, in (0, 1).
    table : str
        Path of the simulated table (see :func:`max_delta_chi2_moments`).
    log_groups : bool, default=False
        See :func:`max_delta_chi2_moments`.

    Returns
    -------
    threshold : float
        ``+inf`` with fewer than 2 groups or classes. With two groups, the
        chi-square quantile with ``J - 1`` degrees of freedom (the one merge's
        exact law, Boulle's proposition 1). Otherwise the quantile at ``p`` of the
        normal law of :func:`max_delta_chi2_moments`, and never less than that
        chi-square quantile: the largest DeltaChi2 of a full merge is at least
        that of its last merge, of two groups, whose law is at least chi-square
        with ``J - 1`` degrees of freedom. Past the simulated grid the linear
        extrapolation can fall below it (it went negative at 20,000 groups and
        500 classes when the grid stopped at 50 classes).
    """
    if n_groups < 2 or n_classes < 2:
        return math.inf
    two_groups = float(chi2_distribution.ppf(p, n_classes - 1))
    if n_groups == 2:
        return two_groups
    mean, std = max_delta_chi2_moments(
        n_groups, n_classes, table, log_groups=log_groups
    )
    return max(mean + float(norm.ppf(p)) * std, two_groups)


# --------------------------------------------------------------------------------------
# Minimum frequency, stopping rule, trace
# --------------------------------------------------------------------------------------


#: The smallest classes holding together at most this share of the weight take
#: no part in the chi-square (at least two classes always do).
NEGLIGIBLE_CLASS_SHARE = 0.01


def chi2_classes(class_totals):
    """The classes the chi-square of a Khiops partition is computed on.

    The smallest classes are left out while together they hold at most 1% of the
    weight (``NEGLIGIBLE_CLASS_SHARE``) and at least two classes remain; classes
    of equal weight are kept or left out together, so that the choice does not
    depend on the order of the classes. A class that light has expected counts
    far below Cochran's validity bounds in any part of a partition, so the
    chi-square cannot test it: left in, one stray row of a third class (its cell
    alone weighs about ``n / n_part`` in the statistic) decides the partition, and
    its proportion ``1 / N`` sets the minimum frequency. Left out, it changes the
    result only by its weight. A binary target keeps both classes, however
    unbalanced: the minority class is the target there.

    Parameters
    ----------
    class_totals : array-like of shape (n_classes,)
        Class totals of the table.

    Returns
    -------
    tested : ndarray of bool of shape (n_classes,)
        The classes kept (never a class of total zero).

    Examples
    --------
    >>> from partikit._statistics._robust_chi2 import chi2_classes
    >>> chi2_classes([70_000, 30_000, 1])
    array([ True,  True, False])
    >>> chi2_classes([99_900, 100])  # two classes: both kept
    array([ True,  True])
    """
    totals = np.asarray(class_totals, dtype=np.float64)
    present = totals > 0
    share = totals / totals.sum()
    ascending = np.sort(share[present])
    n_left_out = int(
        np.searchsorted(np.cumsum(ascending), NEGLIGIBLE_CLASS_SHARE, side="right")
    )
    n_left_out = min(n_left_out, max(len(ascending) - 2, 0))
    while 0 < n_left_out < len(ascending) and (
        ascending[n_left_out - 1] == ascending[n_left_out]
    ):
        n_left_out -= 1
    if n_left_out == 0:
        return present
    return present & (share > ascending[n_left_out - 1])


def cochran_min_frequency(class_totals):
    """Smallest category total for which the chi-square approximation holds.

    Cochran's rule for a table's expected counts (all at least 1, at least 80% of
    them at least 5) applied to one category: with global class proportions ``q``,
    a category of total ``n`` has expected counts ``n q_j``. The rule is applied
    to the classes the chi-square is computed on (:func:`chi2_classes`): a
    class of negligible weight (one stray row, or many tiny classes) would
    otherwise set the threshold by itself, at ``1 / q_min``, and pool every
    category of a large sample as rare.

    Parameters
    ----------
    class_totals : ndarray of shape (n_classes,)
        Class totals of the table, all positive.

    Returns
    -------
    min_frequency : float
        ``max(1 / q_min, 5 / q_(m))`` over the ``J'`` classes kept, where
        ``q_min`` is their smallest proportion (of the whole weight) and
        ``q_(m)`` their ``m``-th largest, ``m = ceil(0.8 J')``.

    References
    ----------
    .. [1] Cochran, W. G. (1954). Some methods for strengthening the common
       chi-square tests. Biometrics 10(4), 417-451. doi:10.2307/3001616

    Examples
    --------
    >>> from partikit._statistics._robust_chi2 import cochran_min_frequency
    >>> cochran_min_frequency([70_000, 30_000])  # 5 / 0.3
    16.66...
    >>> cochran_min_frequency([70_000, 30_000, 1])  # one stray row: no change
    16.66...
    """
    totals = np.asarray(class_totals, dtype=np.float64)
    # proportions of the whole weight: the expected counts of those classes
    q = np.sort(totals[chi2_classes(totals)])[::-1] / totals.sum()
    m = math.ceil(0.8 * len(q))
    return float(max(1.0 / q[-1], 5.0 / q[m - 1]))


def resolve_min_frequency(min_frequency, class_totals):
    """Turn the ``min_frequency`` parameter into a count.

    Parameters
    ----------
    min_frequency : "auto", int or float
        ``"auto"``: :func:`cochran_min_frequency`; an int: that count (0 disables
        the constraint); a float in (0, 1): that fraction of the total weight.
    class_totals : ndarray of shape (n_classes,)

    Returns
    -------
    count : float
    """
    if isinstance(min_frequency, str):
        return cochran_min_frequency(class_totals)
    return resolve_count(min_frequency, np.sum(class_totals))


@dataclass
class KhiopsTrace:
    """The greedy merge sequence of one Khiops grouping or discretization.

    The merges are listed in the order they were run (for the discretization,
    those after the frequency phase).

    Attributes
    ----------
    kept, absorbed : ndarray of intp
        Representative table rows of the two parts merged at each step: for the
        grouping, the first (canonical) row of each group; for the
        discretization, the first value-table row of the left (kept) and of the
        right (absorbed) interval.
    delta_chi2 : ndarray of float64
        DeltaChi2 of each merge.
    log10_pvalue : ndarray of float64
        log10 confidence level of the partition after each merge.
    forced : ndarray of bool
        Merges made because DeltaChi2 <= MaxDeltaChi2 (the robustness rule).
    accepted : ndarray of bool
        Merges kept in the result (a prefix of the sequence).
    """

    kept: np.ndarray
    absorbed: np.ndarray
    delta_chi2: np.ndarray
    log10_pvalue: np.ndarray
    forced: np.ndarray
    accepted: np.ndarray


def khiops_stopping_rule(initial, delta, threshold):
    """Where the robust Khiops merging stops, given its greedy merge sequence.

    A merge is made while its DeltaChi2 is at most ``threshold`` (forced), or it
    lowers the confidence level of the whole table, or it merges identical
    profiles (DeltaChi2 = 0, nothing lost); the first merge doing none of these
    stops the merging. Shared by the grouping (merges of any two groups) and the
    discretization (merges of adjacent intervals).

    Parameters
    ----------
    initial : ndarray of shape (n_initial, n_classes)
        Table when merging starts (no empty row or column).
    delta : ndarray of shape (n_initial - 1,)
        DeltaChi2 of the greedy merges, in order, down to one part.
    threshold : float
        MaxDeltaChi2 (``-inf``: no forced merge).

    Returns
    -------
    n_merges : int
        Number of merges made.
    log_p : ndarray of shape (n_initial,)
        Natural log of the confidence level before any merge and after each.
    forced : ndarray of bool of shape (n_initial - 1,)
    """
    n_initial, n_classes = initial.shape
    chi2_start, _ = chi2_statistic(initial)
    chi2_after = np.maximum(chi2_start - np.cumsum(delta), 0.0)
    n_groups_after = n_initial - 1 - np.arange(n_initial - 1)
    dof = np.concatenate([[n_initial - 1], n_groups_after - 1]) * (n_classes - 1)
    log_p = log_chi2_sf_array(
        np.concatenate([[chi2_start], chi2_after]), dof.astype(np.float64)
    )
    forced = delta <= threshold
    accepted = forced | (log_p[1:] < log_p[:-1]) | (delta <= 0.0)
    n_merges = int(np.argmin(accepted)) if not accepted.all() else n_initial - 1
    return n_merges, log_p, forced


def frequency_collapse_message(
    table, statistics, n_initial_key, alpha, what, parameter="min_frequency"
):
    """Warning text when the minimum frequency alone left a column one part.

    Parameters
    ----------
    table : ndarray of shape (n_parts, n_classes)
        The column's table before any merge.
    statistics : dict
        The statistics of the core's result (the minimum frequency used, under
        ``parameter``, and the number of parts when merging started, under
        ``n_initial_key``).
    n_initial_key : str
        ``"n_initial_groups"`` or ``"n_initial_intervals"``.
    alpha : float
        The estimator's ``alpha``: the column is informative when a chi-square
        test has a p-value below ``alpha``: the test of independence of the table
        (categories), or the test of the best cut of the ordered values into
        two intervals, Bonferroni-adjusted for the ``n - 1`` cuts tried (values:
        a test over every distinct value has no power).
    what : {"categories", "values"}
        Which parts the table's rows are.
    parameter : {"min_frequency", "min_bin_size"}, default="min_frequency"
        The estimator's parameter that sets the minimum frequency.

    Returns
    -------
    message : str or None
        None unless the frequency constraint left fewer than 2 parts of a column
        of at least 2 non-empty rows whose table is significant.
    """
    n_initial = statistics.get(n_initial_key)
    if n_initial is not None and n_initial >= 2:
        return None  # the usual case, known without a pass over the table
    n_parts = int((table.sum(axis=1) > 0).sum())
    if n_parts < 2 or (n_initial if n_initial is not None else n_parts) >= 2:
        return None
    tested_classes = chi2_classes(table.sum(axis=0))
    tested = table if tested_classes.all() else table[:, tested_classes]
    if what == "values":
        # Pearson's statistic of every cut into two intervals, at once
        left = np.cumsum(tested, axis=0)[:-1]
        total = tested.sum(axis=0)
        share = total / total.sum()
        sizes = left.sum(axis=1, keepdims=True)
        expected_left = sizes * share
        expected_right = (total.sum() - sizes) * share
        statistic = ((left - expected_left) ** 2 / expected_left).sum(axis=1) + (
            (total - left - expected_right) ** 2 / expected_right
        ).sum(axis=1)
        cut = int(np.argmax(statistic))
        _, _, log10_p = chi2_test(np.vstack([left[cut], total - left[cut]]))
        log10_p += math.log10(len(left))
    else:
        _, _, log10_p = chi2_test(tested)
    if not log10_p < math.log10(alpha):
        return None
    return (
        f"its {n_parts} {what} were merged into one part by the minimum frequency "
        f"({statistics[parameter]:.4g}) alone, although the column is related "
        f"to the class (chi-square p-value 10^{log10_p:.1f}). Set a smaller "
        f"{parameter} to keep its partition."
    )
