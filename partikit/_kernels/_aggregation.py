# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of attribute aggregation: mixed-radix keys of value combinations."""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT


@njit(**NJIT)
def accumulate_keys(codes, lookup, size, keys):
    """Append one member's digit to the mixed-radix key of every row, in place.

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
        Raw codes of the member column, -1 for a missing value.
    lookup : ndarray of intp, shape (n_raw_codes + 1,)
        ``lookup[code + 1]`` is the member's level (its digit, below ``size``); a
        negative entry marks a value that has no level (unseen in fit).
    size : int
        The member's number of levels (the radix of its digit).
    keys : ndarray of int64, shape (n_samples,)
        Keys so far; ``keys[i] = keys[i] * size + level``. A row whose level is
        negative gets key -1, and a key of -1 stays -1.
    """
    n_lookup = lookup.shape[0]
    for i in range(codes.shape[0]):
        if keys[i] < 0:
            continue
        slot = codes[i] + 1
        # numba does not bounds-check: a bad code must not read outside lookup.
        if slot < 0 or slot >= n_lookup:
            raise ValueError("category code out of range")
        level = lookup[slot]
        if level < 0:
            keys[i] = -1
        else:
            keys[i] = keys[i] * size + level


@njit(**NJIT)
def positive_rows(codes, lookup, weights, n_rows):
    """Which table rows hold at least one row of positive weight.

    Same row mapping as :func:`~partikit._kernels._tables.contingency_table`:
    ``lookup[code + 1]``, a negative entry meaning the last row; ``lookup=None``
    maps code ``c`` to row ``c`` (and -1 to the last row).

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
    lookup : ndarray of intp of shape (n_raw_codes + 1,) or None
    weights : ndarray of float64 of shape (n_samples,) or None
        None: every row counts.
    n_rows : int

    Returns
    -------
    present : ndarray of bool, shape (n_rows,)
    """
    present = np.zeros(n_rows, dtype=np.bool_)
    for i in range(codes.shape[0]):
        if weights is not None and not weights[i] > 0:
            continue
        if lookup is None:
            row = codes[i]
            if row >= n_rows:
                raise ValueError("category code out of range")
        else:
            slot = codes[i] + 1
            if slot < 0 or slot >= lookup.shape[0]:
                raise ValueError("category code out of range")
            row = lookup[slot]
        if row < 0:
            row = n_rows - 1
        present[row] = True
    return present
