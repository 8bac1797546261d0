# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Value tables -> boundary points -> blocks: the units a cut search runs on.

A *value table* has one row per distinct value of a numeric attribute, in
increasing order, holding that value's class counts (Elomaa & Rousu's *bins*). A
cut is written as the number of rows before it: cut ``r`` separates rows ``r - 1``
and ``r``. Fayyad & Irani showed that the best cut of a convex impurity is never
between two rows that are class-uniform with the same class; the other gaps are
*boundary points*, and the runs of rows between them are *blocks*. Elomaa & Rousu
proved that optimal multisplits of the well-behaved criteria lie on boundary
points, so the search may run on blocks instead of rows.

References
----------
.. [1] Fayyad, U. M. and Irani, K. B. (1992). On the handling of continuous-valued
   attributes in decision tree generation. Machine Learning 8, 87-102.
.. [2] Elomaa, T. and Rousu, J. (1999). Speeding up the search for optimal
   partitions. PKDD'99, LNAI 1704, 89-97.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from partikit._kernels._multisplit import (
    MAX_XLOGX_TABLE,
    scan_table,
    segment_sums,
    xlogx_table,
)
from partikit._statistics._contingency import check_table


class Units(NamedTuple):
    """The units of a cut search and where they start in the value table.

    Attributes
    ----------
    starts : ndarray of intp of shape (n_units,)
        First value-table row of each unit, increasing, ``starts[0] == 0``.
    table : ndarray of float64 of shape (n_units, n_classes)
        Class counts of each unit.
    """

    starts: np.ndarray
    table: np.ndarray

    def rows_of_cuts(self, unit_cuts):
        """Value-table cut positions of cuts given in units before each cut."""
        return self.starts[np.asarray(unit_cuts, dtype=np.intp)]


def block_starts(table):
    """First row of every block of a value table.

    The gap between rows ``r`` and ``r + 1`` is a boundary point unless both rows
    are class-uniform with the same class; blocks are the runs of rows between
    boundary points. A few vectorised passes: not worth a compiled kernel.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)
        Rows with a positive total.

    Returns
    -------
    starts : ndarray of intp of shape (n_blocks,)
        Increasing, ``starts[0] == 0``.
    """
    if table.shape[0] == 0:
        return np.zeros(1, dtype=np.intp)
    positive = table > 0
    pure = np.count_nonzero(positive, axis=1) == 1
    first_class = positive.argmax(axis=1)
    same = pure[1:] & pure[:-1] & (first_class[1:] == first_class[:-1])
    return np.concatenate([[0], np.flatnonzero(~same) + 1]).astype(np.intp)


def boundary_points(table):
    """Which gaps between consecutive rows of a value table are boundary points.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
        Value table (rows with a positive total, in value order).

    Returns
    -------
    is_boundary : ndarray of bool of shape (n_rows - 1,)
        ``is_boundary[r]`` for the gap between rows ``r`` and ``r + 1``.

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers import boundary_points
    >>> table = np.array([[2, 0], [1, 0], [1, 1], [0, 1], [0, 1], [2, 0], [1, 0]])
    >>> boundary_points(table)
    array([False,  True,  True, False,  True, False])
    """
    table = check_table(table)
    is_boundary = np.zeros(max(table.shape[0] - 1, 0), dtype=bool)
    is_boundary[block_starts(table)[1:] - 1] = True
    return is_boundary


def bin_units(table):
    """Every row of the value table is a unit (Bin-Opt)."""
    table = check_table(table)
    return Units(np.arange(table.shape[0], dtype=np.intp), table)


def block_units(table):
    """The blocks of a value table (Block-Opt, MDLP).

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)

    Returns
    -------
    Units

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers._blocks import block_units
    >>> table = np.array([[2, 0], [1, 0], [1, 1], [0, 1], [0, 1], [2, 0], [1, 0]])
    >>> units = block_units(table)
    >>> units.starts
    array([0, 2, 3, 5])
    >>> units.table
    array([[3., 0.],
           [1., 1.],
           [0., 2.],
           [3., 0.]])
    """
    return _block_units(check_table(table))


def _block_units(table):
    if table.shape[0] == 0:
        return Units(np.zeros(0, dtype=np.intp), table)
    starts = block_starts(table)
    if len(starts) == table.shape[0]:
        return Units(starts, table)  # every row a block: no copy
    return Units(starts, segment_sums(table, starts))


def quantile_units(table, exact_limit):
    """Pre-bins of at most ``exact_limit`` rows' worth of equal weight, as units.

    The gaps kept as candidate cuts are those nearest the weighted quantiles
    ``k / exact_limit`` of the value distribution; the pre-bins are then cut
    into blocks. Cuts elsewhere are no longer possible, so a search on these units
    is approximate.

    Parameters
    ----------
    table : array-like of shape (n_rows, n_classes)
    exact_limit : int
        At least 2.

    Returns
    -------
    Units
    """
    return _quantile_units(check_table(table), exact_limit)


def _quantile_units(table, exact_limit, cumulative=None):
    """:func:`quantile_units` of a checked table; ``cumulative`` is the running
    row total of :func:`table_sums` when the caller has it."""
    n_rows = table.shape[0]
    if n_rows <= exact_limit:
        return _block_units(table)
    if cumulative is None:
        cumulative = np.cumsum(table.sum(axis=1))
    targets = cumulative[-1] * np.arange(1, exact_limit) / exact_limit
    # the first row whose cumulative weight reaches each target ends a pre-bin
    ends = np.unique(np.searchsorted(cumulative, targets, side="left"))
    starts = np.concatenate([[0], ends[ends < n_rows - 1] + 1]).astype(np.intp)
    pre_binned = segment_sums(table, starts)
    blocks = _block_units(pre_binned)
    return Units(starts[blocks.starts], blocks.table)


def table_sums(table):
    """Column totals and running row totals of a value table, in one pass.

    Parameters
    ----------
    table : ndarray of float64 of shape (n_rows, n_classes)

    Returns
    -------
    column_totals : ndarray of float64 of shape (n_classes,)
    cumulative : ndarray of float64 of shape (n_rows,) or None
        ``np.cumsum(table.sum(axis=1))``, the same floats (exact sums); None
        when some count is not an integer (numpy's pairwise row sums may then
        round otherwise, and they decide the quantiles).
    integral : bool
        Whether every count is an integer.
    """
    column_totals = np.zeros(table.shape[1])
    cumulative = np.empty(table.shape[0])
    integral = scan_table(table, column_totals, cumulative)
    return column_totals, cumulative if integral else None, integral


def log_table_for(table):
    """``t log2 t`` lookup for a table of integer counts, else an empty array.

    The lookup replaces the logs of the O(m^2) interval costs of a cut search; it
    is exact for integer counts only and is capped in size.
    """
    total = float(table.sum())
    if total + 1 > MAX_XLOGX_TABLE or not _is_integral(table):
        return np.zeros(0)
    return xlogx_table(int(total) + 1)


def _is_integral(table, chunk=1 << 16):
    """Whether every count is an integer, without a temporary the size of the table."""
    flat = table.reshape(-1)
    for start in range(0, flat.shape[0], chunk):
        part = flat[start : start + chunk]
        if not np.array_equal(part, np.round(part)):
            return False
    return True
