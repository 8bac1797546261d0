# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Contingency-table kernels: one pass over the rows, at memory speed.

numba compiles a kernel once per tuple of argument types, and an ``int8`` array, an
``int64`` array and a read-only ``int64`` array (pandas' category codes) are three
types. The row kernels therefore see one type per argument: the Python functions
here hand them the rows in chunks, each chunk a writable C-contiguous ``intp`` (or
``float64``) array, copied into a small buffer only when the caller's array is not
already one. The buffer stays in cache, so the copy costs about nothing and no
row-sized array is ever made.
"""

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT

#: Rows per chunk: large enough that the calls cost nothing, small enough that a
#: chunk's buffers stay in the CPU cache.
CHUNK = 1 << 16


def canonical_chunk(values, start, stop, dtype, buffer, offset=0):
    """Rows ``start:stop`` of ``values`` as a writable C-contiguous ``dtype`` array.

    Parameters
    ----------
    values : ndarray of shape (n_samples,)
        Integers (or, for ``dtype=float64``, numbers), any width, layout or
        writability.
    start, stop : int
        The rows.
    dtype : numpy dtype
        ``np.intp`` or ``np.float64``.
    buffer : ndarray of dtype ``dtype`` of shape (at least ``stop - start``,)
        Receives the rows when ``values[start:stop]`` is not already such an
        array.
    offset : int, default=0
        Subtracted from every value (integers only): an integer column's values
        become codes from 0 in the copy the chunk needs anyway, with no
        row-sized array of codes. The caller ensures no value overflows.

    Returns
    -------
    chunk : ndarray of dtype ``dtype`` of shape (stop - start,)
        A view of ``values`` when possible, else the start of ``buffer``.
    """
    part = values[start:stop]
    if offset:
        out = buffer[: stop - start]
        # in the chunk's dtype: the difference of two int8 may not fit an int8
        np.subtract(part, offset, out=out, dtype=out.dtype, casting="unsafe")
        return out
    if part.dtype == dtype and part.flags.c_contiguous and part.flags.writeable:
        return part
    out = buffer[: stop - start]
    np.copyto(out, part, casting="unsafe")
    return out


def canonical_lookup(lookup):
    """A lookup as a writable C-contiguous ``intp`` array (copied only if needed)."""
    lookup = np.ascontiguousarray(lookup, dtype=np.intp)
    return lookup if lookup.flags.writeable else lookup.copy()


@njit(**NJIT)
def count_rows(codes, lookup, y_codes, weights, table):
    """Add the (weighted) class counts of some rows to a contingency table, in place.

    Parameters
    ----------
    codes : ndarray of intp, shape (n_samples,)
        Raw category code of each row; -1 marks a missing value.
    lookup : ndarray of intp, shape (n_raw_codes + 1,)
        ``lookup[code + 1]`` is the table row of a code; a negative entry sends the
        row to the last table row (the missing category).
    y_codes : ndarray of intp, shape (n_samples,)
        Class index of each row, in ``[0, n_classes)``.
    weights : ndarray of float64 of shape (n_samples,) or None
        Frequency weight of each row; None counts each row once (numba compiles
        that case separately, without the branch).
    table : ndarray of float64, shape (n_rows, n_classes)
        Receives the counts.
    """
    n_rows, n_classes = table.shape
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


def contingency_table(codes, lookup, y_codes, weights, n_rows, n_classes, offset=0):
    """Contingency table of codes against classes, in one pass over the rows.

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
        Raw category code of each row; -1 marks a missing value.
    lookup : ndarray of int, shape (n_raw_codes + 1,)
        ``lookup[code + 1]`` is the table row of a code; a negative entry sends the
        row to the last table row (the missing category).
    y_codes : ndarray of int, shape (n_samples,)
        Class index of each row, in ``[0, n_classes)``.
    weights : ndarray of float of shape (n_samples,) or None
        Frequency weight of each row; None counts each row once.
    n_rows, n_classes : int
        Shape of the table.
    offset : int, default=0
        Subtracted from every code first (see :func:`canonical_chunk`).

    Returns
    -------
    table : ndarray of float64, shape (n_rows, n_classes)
    """
    table = np.zeros((n_rows, n_classes), dtype=np.float64)
    lookup = canonical_lookup(lookup)
    n = codes.shape[0]
    if y_codes.shape[0] != n or (weights is not None and weights.shape[0] != n):
        raise ValueError("codes, classes and weights must have the same length")
    size = min(n, CHUNK)
    code_buffer = np.empty(size, dtype=np.intp)
    y_buffer = np.empty(size, dtype=np.intp)
    weight_buffer = None if weights is None else np.empty(size, dtype=np.float64)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        count_rows(
            canonical_chunk(codes, start, stop, np.intp, code_buffer, offset),
            lookup,
            canonical_chunk(y_codes, start, stop, np.intp, y_buffer),
            None
            if weights is None
            else canonical_chunk(weights, start, stop, np.float64, weight_buffer),
            table,
        )
    return table


@njit(**NJIT)
def lookup_rows(codes, lookup, out, column, fill):
    """Write ``lookup[codes + 1]`` into one column of ``out``, ``fill`` for unknowns.

    Parameters
    ----------
    codes : ndarray of intp, shape (n_samples,)
        Raw codes, -1 for a missing value.
    lookup : ndarray of intp, shape (n_raw_codes + 1,)
        Output value of each raw code (slot 0: missing); negative means unknown.
    out : C-contiguous ndarray of float64 or intp, shape (n_samples, n_columns)
        Receives the values (one compiled kernel per dtype).
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


def apply_lookup(codes, lookup, out, column, fill):
    """Write ``lookup[codes + 1]`` into one column of ``out``, in one pass.

    Parameters
    ----------
    codes : ndarray of int (any width), shape (n_samples,)
        Raw codes, -1 for a missing value.
    lookup : ndarray of int, shape (n_raw_codes + 1,)
        Output value of each raw code (slot 0: missing); negative means unknown.
    out : ndarray of shape (n_samples, n_columns), float64 or int
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
    lookup = canonical_lookup(lookup)
    n = codes.shape[0]
    # The usual output (C-contiguous float64 or intp, writable) is written in
    # place; any other goes through a one-column buffer.
    direct = (
        out.dtype in (np.float64, np.intp)
        and out.flags.c_contiguous
        and out.flags.writeable
    )
    size = min(n, CHUNK)
    code_buffer = np.empty(size, dtype=np.intp)
    out_buffer = None if direct else np.empty((size, 1), dtype=np.intp)
    n_unknown = 0
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        chunk = canonical_chunk(codes, start, stop, np.intp, code_buffer)
        if direct:
            n_unknown += lookup_rows(chunk, lookup, out[start:stop], column, fill)
        else:
            rows = out_buffer[: stop - start]
            n_unknown += lookup_rows(chunk, lookup, rows, 0, fill)
            out[start:stop, column] = rows[:, 0]
    return n_unknown
