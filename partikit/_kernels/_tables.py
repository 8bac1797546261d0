# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Contingency-table kernels: one pass over the rows, at memory speed."""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT


@njit(**NJIT)
def contingency_table(codes, lookup, y_codes, weights, n_rows, n_classes):
    """Contingency table of codes against classes, in one pass over the rows.

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
        Raw category code of each row; -1 marks a missing value.
    lookup : ndarray of intp, shape (n_raw_codes + 1,)
        ``lookup[code + 1]`` is the table row of a code; a negative entry sends the
        row to the last table row (the missing category).
    y_codes : ndarray of intp, shape (n_samples,)
        Class index of each row, in ``[0, n_classes)``.
    weights : ndarray of float64 of shape (n_samples,) or None
        Frequency weight of each row; None counts each row once (numba compiles
        that case separately, without the branch).
    n_rows, n_classes : int
        Shape of the table.

    Returns
    -------
    table : ndarray of float64, shape (n_rows, n_classes)
    """
    table = np.zeros((n_rows, n_classes), dtype=np.float64)
    missing_row = n_rows - 1
    n_lookup = lookup.shape[0]
    for i in range(codes.shape[0]):
        slot = codes[i] + 1
        label = y_codes[i]
        # numba does not bounds-check: a bad code must not write outside the table.
        if slot < 0 or slot >= n_lookup or label < 0 or label >= n_classes:
            raise ValueError("category or class code out of range")
        row = lookup[slot]
        if row < 0:
            row = missing_row
        if weights is None:
            table[row, label] += 1.0
        else:
            table[row, label] += weights[i]
    return table


@njit(**NJIT)
def apply_lookup(codes, lookup, out, column, fill):
    """Write ``lookup[codes + 1]`` into one column of ``out``, in one pass.

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
        Raw codes, -1 for a missing value.
    lookup : ndarray of intp, shape (n_raw_codes + 1,)
        Output value of each raw code (slot 0: missing); negative means unknown.
    out : ndarray of shape (n_samples, n_columns), float64 or intp
        Receives the values.
    column : int
        Column of ``out`` to fill.
    fill : int
        Value written for unknown codes.

    Returns
    -------
    n_unknown : int
        Number of rows whose code was unknown.
    """
    n_unknown = 0
    n_lookup = lookup.shape[0]
    for i in range(codes.shape[0]):
        slot = codes[i] + 1
        if slot < 0 or slot >= n_lookup:
            raise ValueError("category code out of range")
        value = lookup[slot]
        if value < 0:
            n_unknown += 1
            value = fill
        out[i, column] = value
    return n_unknown
