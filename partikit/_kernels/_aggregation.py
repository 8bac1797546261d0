# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Kernels of attribute aggregation: mixed-radix keys of value combinations.

As in :mod:`partikit._kernels._tables`, the kernels see the rows in chunks of
canonical type (writable C-contiguous ``intp`` codes, ``float64`` weights), so that
each compiles once whatever the columns' code widths.
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT
from partikit._kernels._tables import CHUNK, canonical_chunk, canonical_lookup


@njit(**NJIT)
def append_digits(codes, lookup, size, keys):
    """Append one member's digit to the mixed-radix key of some rows, in place.

    Parameters
    ----------
    codes : ndarray of intp, shape (n_samples,)
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


def accumulate_keys(codes, lookup, size, keys):
    """Append one member's digit to the mixed-radix key of every row, in place.

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
        Raw codes of the member column, -1 for a missing value.
    lookup : ndarray of int, shape (n_raw_codes + 1,)
        ``lookup[code + 1]`` is the member's level (its digit, below ``size``); a
        negative entry marks a value that has no level (unseen in fit).
    size : int
        The member's number of levels (the radix of its digit).
    keys : ndarray of int64, shape (n_samples,)
        Keys so far, C-contiguous and writable; ``keys[i] = keys[i] * size +
        level``. A row whose level is negative gets key -1, and a key of -1 stays
        -1.
    """
    lookup = canonical_lookup(lookup)
    n = codes.shape[0]
    if keys.shape[0] != n:
        raise ValueError("codes and keys must have the same length")
    buffer = np.empty(min(n, CHUNK), dtype=np.intp)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        append_digits(
            canonical_chunk(codes, start, stop, np.intp, buffer),
            lookup,
            int(size),
            keys[start:stop],
        )


@njit(**NJIT)
def mark_rows(codes, lookup, weights, present):
    """Mark the table rows reached by rows of positive weight, in place.

    Parameters
    ----------
    codes : ndarray of intp, shape (n_samples,)
    lookup : ndarray of intp of shape (n_raw_codes + 1,) or (0,)
        ``lookup[code + 1]`` is the table row of a code, a negative entry meaning
        the last row; an empty lookup maps code ``c`` to row ``c`` (and -1 to the
        last row), one compiled kernel for both cases.
    weights : ndarray of float64 of shape (n_samples,) or None
        None: every row counts.
    present : ndarray of bool, shape (n_rows,)
        Set to True at every row reached.
    """
    n_rows = present.shape[0]
    identity = lookup.shape[0] == 0
    for i in range(codes.shape[0]):
        if weights is not None and not weights[i] > 0:
            continue
        if identity:
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


def positive_rows(codes, lookup, weights, n_rows):
    """Which table rows hold at least one row of positive weight.

    Same row mapping as :func:`~partikit._kernels._tables.contingency_table`:
    ``lookup[code + 1]``, a negative entry meaning the last row; ``lookup=None``
    maps code ``c`` to row ``c`` (and -1 to the last row).

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
    lookup : ndarray of int of shape (n_raw_codes + 1,) or None
    weights : ndarray of float of shape (n_samples,) or None
        None: every row counts.
    n_rows : int

    Returns
    -------
    present : ndarray of bool, shape (n_rows,)
    """
    lookup = canonical_lookup(np.empty(0, dtype=np.intp) if lookup is None else lookup)
    present = np.zeros(n_rows, dtype=np.bool_)
    n = codes.shape[0]
    if weights is not None and weights.shape[0] != n:
        raise ValueError("codes and weights must have the same length")
    size = min(n, CHUNK)
    code_buffer = np.empty(size, dtype=np.intp)
    weight_buffer = None if weights is None else np.empty(size, dtype=np.float64)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        mark_rows(
            canonical_chunk(codes, start, stop, np.intp, code_buffer),
            lookup,
            None
            if weights is None
            else canonical_chunk(weights, start, stop, np.float64, weight_buffer),
            present,
        )
    return present
