# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Column-by-column fitting shared by the groupers and the discretizers (private).

Both base estimators fit each column on its own (in joblib threads when
``n_jobs`` asks for it): they hand each column's algorithm a
:class:`ColumnContext` and collect a :class:`ColumnFit`, from which the fitted
attributes are assembled.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from joblib import Parallel, delayed


class ColumnContext(NamedTuple):
    """What an algorithm may know of the column whose table it partitions.

    Attributes
    ----------
    index : int
        Position of the column in X.
    name : str
        Its name (``feature_names_in_`` or ``x{index}``).
    ordered_categories : ndarray or None, default=None
        Groupers: the categories of a pandas ordered ``Categorical`` column, in
        their order; None for any other column.
    has_missing : bool, default=False
        Groupers: whether the last row of the column's table is the missing
        category.
    values : ndarray of float64 or None, default=None
        Discretizers: the distinct values, increasing (one per value-table row).
    """

    index: int
    name: str
    ordered_categories: np.ndarray | None = None
    has_missing: bool = False
    values: np.ndarray | None = None


class ColumnFit(NamedTuple):
    """What fitting one column learns (one entry of each fitted attribute).

    Attributes
    ----------
    table : ndarray of shape (n_parts, n_classes)
        Class counts of each group (groupers) or bin, the missing bin last
        (discretizers).
    statistics : dict
        The algorithm's figures, stored in ``statistics_``.
    warnings : tuple of str
        Messages that ``fit`` raises as ``UserWarning`` in the caller's thread.
    categories, group_ids, n_groups, default_group, kind
        Groupers: ``categories_``, ``group_ids_``, ``n_groups_``,
        ``default_group_`` entries and the kind of the categories.
    bin_edges : ndarray or None
        Discretizers: the ``bin_edges_`` entry.
    n_values : int
        Discretizers: the number of distinct values (missing excluded).
    missing_bin : int
        Discretizers: the ``missing_bin_`` entry (the row of ``table`` that
        missing values go to); -1: ``n_bins``, the missing bin after the
        intervals.
    """

    table: np.ndarray
    statistics: dict
    warnings: tuple
    categories: np.ndarray | None = None
    group_ids: np.ndarray | None = None
    n_groups: int = 0
    default_group: int = -1
    kind: str | None = None
    bin_edges: np.ndarray | None = None
    n_values: int = 0
    missing_bin: int = -1


def fit_columns(fit_column, arguments, n_jobs, *, stacklevel=4):
    """Fit every column, in threads, and raise their warnings in column order.

    Parameters
    ----------
    fit_column : callable
        Returns the :class:`ColumnFit` of one column.
    arguments : iterable of tuple
        The positional arguments of each column's call, in column order.
    n_jobs : int or None
        Threads (joblib's convention).
    stacklevel : int, default=4
        Of the warnings: 4 for a ``fit`` that calls this function itself.

    Returns
    -------
    fitted : list of ColumnFit
    """
    fitted = Parallel(n_jobs=n_jobs, prefer="threads")(
        delayed(fit_column)(*args) for args in arguments
    )
    # A worker thread's warning cannot reach the caller's stack: raised here, at
    # the level of the code that called ``fit`` (this function, fit, the
    # _fit_context wrapper, then the caller).
    for message in (m for f in fitted for m in f.warnings):
        warnings.warn(message, UserWarning, stacklevel=stacklevel)
    return fitted
