# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Combinations of member levels: what AttributeAggregator computes without y.

An aggregate replaces a few low-cardinality columns by their cartesian product,
one value per combination seen in fit. It is learned from the joint table of its
members (:class:`~partikit.JointTable`, the class counts of each
combination of their values) by :func:`fit_joint_aggregate`: each member's
values are numbered by level (sorted, missing last), a combination is the
mixed-radix integer key of its members' levels, one digit per member
(:func:`combination_keys`), never a string, the keys seen are numbered in
increasing order, the rarest pooled past ``max_categories``
(:func:`pool_rare`), and labelled once per combination, not once per row
(:func:`join_labels`). Transform replays the keys on the rows
(:func:`codes_of_keys`) with the picklable :class:`Aggregate`. In fit the joint
table is counted in one pass of the members' digits (:func:`member_digits`,
:func:`joint_of_digits`) when it is small.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from partikit._counting._column_tables import JointTable
from partikit._counting._validation import (
    NUMERIC_KIND,
    append_missing,
    category_lookup,
    factorize,
    factorize_column,
    small_integer_range,
)
from partikit._kernels._aggregation import (
    accumulate_keys,
    append_digits,
    positive_rows,
)
from partikit._kernels._tables import (
    CHUNK,
    apply_lookup,
    canonical_chunk,
    canonical_lookup,
    count_rows,
    lookup_rows,
)
from partikit._statistics._contingency import heaviest, merge_rows
from partikit._statistics._moments import part_weights

#: Code of a combination not seen in fit, when there is no grouper.
UNKNOWN_CODE = -1
#: Label of the value that pools the rarest combinations (``max_categories``).
RARE_LABEL = "<rare>"
#: Largest number of possible keys: beyond it, keys are renumbered by rank among
#: those seen (they are int64).
MAX_KEYS = 1 << 62


class Member(NamedTuple):
    """One column as a member of aggregates: its levels learned in fit.

    Attributes
    ----------
    categories : ndarray
        The values seen with positive weight, sorted, then NaN when missing values
        were seen: level ``l`` is ``categories[l]``.
    kind : {"string", "numeric"}
    labels : ndarray of str objects
        Readable form of each level (``str(value)``, ``"nan"`` for missing).
    """

    categories: np.ndarray
    kind: str
    labels: np.ndarray


def level_label(value):
    """Readable form of one member value: ``str(value)``, ``"nan"`` if missing."""
    return "nan" if pd.isna(value) else str(value)


def member_lookup(member, column, name):
    """Raw codes of a member column at transform time, and their levels.

    Parameters
    ----------
    member : Member
        The member as fit learned it.
    column : pandas Series or 1-D ndarray
    name : str
        The column's name, for error messages.

    Returns
    -------
    raw_codes : ndarray of int
    lookup : ndarray of intp
        The level of each raw code + 1, -1 for a value not seen in fit.
    """
    factorized = factorize_column(column, name, sort=False, known=member.categories)
    levels = np.arange(len(member.categories), dtype=np.intp)
    lookup = category_lookup(factorized, member.categories, levels, member.kind, name)
    return factorized.raw_codes, lookup


class Compression(NamedTuple):
    """Keys renumbered by rank before a member, to keep them within int64.

    Attributes
    ----------
    member : int
        Position (in the aggregate) of the member whose digit comes next.
    n_keys : int
        Number of possible keys before the renumbering.
    seen : ndarray of int64
        The keys seen in fit at that point, sorted: key ``seen[r]`` becomes ``r``.
    """

    member: int
    n_keys: int
    seen: np.ndarray


def combination_keys(member_codes, sizes, sample_weight=None, compressions=None):
    """Mixed-radix key of every row: the first member is the most significant digit.

    Parameters
    ----------
    member_codes : sequence of (raw_codes, lookup)
        Each member's raw codes and the lookup from raw code + 1 to its level
        (negative: no level).
    sizes : sequence of int
        Number of levels of each member.
    sample_weight : ndarray or None, default=None
        Fit only: rows of zero weight do not make a key seen.
    compressions : list of Compression or None, default=None
        None in fit: the keys are renumbered by rank among the keys seen so far
        whenever the next digit would take them beyond ``MAX_KEYS`` (``2**62``),
        and the renumberings are returned. At transform, the renumberings of fit,
        replayed.

    Returns
    -------
    keys : ndarray of int64 of shape (n_samples,)
        -1 for a row with a member value without level (or, at transform, a
        prefix of members not seen in fit). Ordering keys orders the combinations
        lexicographically by member levels.
    n_keys : int
        Number of possible keys.
    compressions : list of Compression
    """
    fitting = compressions is None
    planned = {} if fitting else {c.member: c for c in compressions}
    compressions = [] if fitting else list(compressions)
    keys = np.zeros(len(member_codes[0][0]), dtype=np.int64)
    n_keys = 1
    for position, ((codes, lookup), size) in enumerate(
        zip(member_codes, sizes, strict=True)
    ):
        if fitting and n_keys * size > MAX_KEYS:
            seen = seen_keys(keys, n_keys, sample_weight)
            planned[position] = Compression(position, n_keys, seen)
            compressions.append(planned[position])
        if position in planned:
            step = planned[position]
            ranks = np.arange(len(step.seen), dtype=np.intp)
            keys = codes_of_keys(keys, step.n_keys, step.seen, ranks).astype(np.int64)
            n_keys = len(step.seen)
        accumulate_keys(codes, lookup, size, keys)
        n_keys *= size
    return keys, n_keys, compressions


def is_dense(n_keys, n_samples):
    # A key-indexed array costs at most a few row-sized arrays; beyond that the
    # keys are sorted or hashed instead.
    return n_keys <= max(1 << 16, 4 * n_samples)


def seen_keys(keys, n_keys, sample_weight):
    """Sorted distinct keys of the rows of positive weight (-1 excluded)."""
    if is_dense(n_keys, len(keys)):
        present = positive_rows(keys, None, sample_weight, n_keys + 1)[:-1]
        return np.flatnonzero(present).astype(np.int64)
    valid = keys >= 0
    if sample_weight is not None:
        valid &= sample_weight > 0
    return np.sort(pd.unique(keys[valid])).astype(np.int64)


def codes_of_keys(keys, n_keys, seen, code_of_seen):
    """Code of every row's combination: ``code_of_seen`` of its key, -1 if unseen.

    Parameters
    ----------
    keys : ndarray of int64
    n_keys : int
        Number of possible keys.
    seen : ndarray of int64
        The keys seen in fit, sorted.
    code_of_seen : ndarray of intp
        The code of each seen key.

    Returns
    -------
    codes : ndarray of intp
    """
    codes = np.empty((len(keys), 1), dtype=np.intp)
    if is_dense(n_keys, len(keys)):
        lookup = np.full(n_keys + 1, -1, dtype=np.intp)
        lookup[seen + 1] = code_of_seen
        apply_lookup(keys, lookup, codes, 0, -1)
        return codes[:, 0]
    position = np.searchsorted(seen, keys).clip(max=max(len(seen) - 1, 0))
    found = (seen[position] == keys) & (keys >= 0) if len(seen) else keys < -1
    return np.where(found, code_of_seen[position] if len(seen) else -1, -1)


def pool_rare(weights, max_categories):
    """Keep the heaviest combinations and pool the others into one code.

    Parameters
    ----------
    weights : ndarray of float64 of shape (n_combinations,)
        Weight of each combination seen in fit.
    max_categories : int or None
        Number of codes allowed; None keeps every combination.

    Returns
    -------
    code_of_seen : ndarray of intp of shape (n_combinations,)
        The kept combinations keep their order (codes ``0 .. max_categories - 2``);
        the pooled ones share the last code, ``max_categories - 1``. Ties in weight
        keep the lower combination.
    n_codes : int
    n_pooled : int

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.groupers._combinations import pool_rare
    >>> pool_rare(np.array([5.0, 1.0, 3.0, 1.0]), 3)
    (array([0, 2, 1, 2]), 3, 2)
    """
    n_seen = len(weights)
    if max_categories is None or n_seen <= max_categories:
        return np.arange(n_seen, dtype=np.intp), n_seen, 0
    kept = np.flatnonzero(heaviest(weights, max_categories - 1))
    code_of_seen = np.full(n_seen, max_categories - 1, dtype=np.intp)
    code_of_seen[kept] = np.arange(len(kept))
    return code_of_seen, max_categories, n_seen - len(kept)


class Aggregate(NamedTuple):
    """What fit learns of one aggregate (plain arrays: picklable).

    Transform replays ``compressions`` on the members' levels and looks the final
    keys up in ``seen`` to find each row's code.
    """

    members: tuple  # column indices, increasing
    sizes: tuple  # number of levels of each member
    compressions: tuple  # renumberings of the keys on the way (Compression)
    n_keys: int  # number of possible final keys
    seen: np.ndarray  # final keys seen in fit, sorted
    code_of_seen: np.ndarray  # code of each seen key
    labels: np.ndarray  # readable label of each code (None while searching)
    n_pooled: int  # combinations pooled into the rare code


def join_labels(parts, separator):
    """Join the members' labels element-wise.

    Parameters
    ----------
    parts : list of ndarray of str objects
        One array per member, all of the same length.
    separator : str

    Returns
    -------
    labels : ndarray of str objects
    """
    labels = parts[0].astype(object)
    for part in parts[1:]:
        labels = labels + separator + part
    return labels


def as_array(column):
    """A column as a numpy array of its values (missing values: NaN).

    A categorical or Arrow-backed column is converted through its codes and its
    few distinct values: converting every row of it to a Python object costs
    about ten times as much.
    """
    if not isinstance(column, pd.Series) or isinstance(column.dtype, np.dtype):
        return np.asarray(column)
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes, uniques = column.array.codes, column.cat.categories
    else:
        codes, uniques = factorize(column)
    values = np.append(np.asarray(uniques, dtype=object), np.nan)
    return values[codes]  # code -1 (missing) takes the appended NaN


# --------------------------------------------------------------------------------------
# One pass: the table of every combination, counted from the members' digits
# --------------------------------------------------------------------------------------


class Digits(NamedTuple):
    """A member column read as digits, before its levels are known.

    A row's digit is ``lookup[code - offset + 1]``, in ``[0, radix)``; digits
    are ordered as the member's levels (sorted values, missing last), so that
    the levels are the digits present, renumbered.

    Attributes
    ----------
    codes : ndarray of int
        The column's values (an integer column) or raw codes.
    offset : int
        Subtracted from each code (an integer column's smallest value).
    lookup : ndarray of intp of shape (n_raw_codes + 1,)
    radix : int
    values : ndarray
        The value of each digit, missing excluded.
    kind : {"string", "numeric"}
    """

    codes: np.ndarray
    offset: int
    lookup: np.ndarray
    radix: int
    values: np.ndarray
    kind: str


def member_digits(column, name):
    """Read a member column as digits (:class:`Digits`).

    An integer column is read through its values, its range the digits (no
    codes, no ``bincount``); any other is factorized
    (:func:`~partikit._counting._validation.factorize_column`), its sorted
    categories the
    digits and the missing value the last one.
    """
    span = small_integer_range(column, max(len(column), 1 << 16))
    if span is not None:
        values, low, radix = span
        digits = (np.arange(radix) + low).astype(values.dtype)
        lookup = np.arange(-1, radix, dtype=np.intp)
        return Digits(values, low, lookup, radix, digits, NUMERIC_KIND)
    factorized = factorize_column(column, name)
    n_values = len(factorized.categories)
    lookup = factorized.lookup.copy()
    lookup[0] = n_values
    return Digits(
        factorized.raw_codes, 0, lookup, n_values + 1, factorized.categories,
        factorized.kind,
    )  # fmt: skip


def count_combinations(digits, y_codes, sample_weight, n_classes):
    """Contingency table of every combination of digits, in one pass.

    The rows are read in chunks: each chunk's keys (the mixed-radix number of
    its digits, the first member the most significant) are built in a buffer
    and counted at once, so that no row-sized array is made.

    Parameters
    ----------
    digits : list of Digits
    y_codes : ndarray of intp of shape (n_samples,)
    sample_weight : ndarray of float64 of shape (n_samples,) or None
    n_classes : int

    Returns
    -------
    table : ndarray of float64 of shape (prod(radix), n_classes)
        Row ``key`` counts the rows of that combination of digits.
    """
    n_keys = int(np.prod([d.radix for d in digits]))
    table = np.zeros((n_keys + 1, n_classes), dtype=np.float64)
    identity = np.arange(-1, n_keys, dtype=np.intp)
    lookups = [canonical_lookup(d.lookup) for d in digits]
    n = len(y_codes)
    size = min(n, CHUNK)
    keys = np.empty(size, dtype=np.int64)
    code_buffer = np.empty(size, dtype=np.intp)
    y_buffer = np.empty(size, dtype=np.intp)
    weight_buffer = None if sample_weight is None else np.empty(size, np.float64)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        chunk_keys = keys[: stop - start]
        chunk_keys[:] = 0
        for member, lookup in zip(digits, lookups, strict=True):
            codes = canonical_chunk(
                member.codes, start, stop, np.intp, code_buffer, member.offset
            )
            append_digits(codes, lookup, member.radix, chunk_keys)
        count_rows(
            chunk_keys,
            identity,
            canonical_chunk(y_codes, start, stop, np.intp, y_buffer),
            None
            if sample_weight is None
            else canonical_chunk(sample_weight, start, stop, np.float64, weight_buffer),
            table,
        )
    return table[:-1]


def joint_of_digits(members, digits, y_codes, sample_weight, n_classes):
    """The joint table of some member columns, counted in one pass of their digits.

    The one-pass count (:func:`count_combinations`) of the table
    :func:`~partikit.column_tables` counts as ``joint``, for columns whose
    combinations of digits make a table no larger than a column: its rows of
    positive weight, each member's values those of its combinations.

    Parameters
    ----------
    members : tuple of int
        Column indices, increasing.
    digits : dict of int to Digits
    y_codes : ndarray of intp of shape (n_samples,)
    sample_weight : ndarray of float64 of shape (n_samples,) or None
    n_classes : int

    Returns
    -------
    joint : JointTable or None
        None when the table of digits would be larger than a column.
    """
    radices = tuple(digits[j].radix for j in members)
    n_cells = int(np.prod(radices, dtype=np.float64) * n_classes)
    if n_cells > max(len(y_codes), 1 << 16):
        return None
    table = count_combinations(
        [digits[j] for j in members], y_codes, sample_weight, n_classes
    )
    rows = np.flatnonzero(table.sum(axis=1) > 0)
    codes = np.column_stack(np.unravel_index(rows, radices)).astype(np.intp)
    codes = codes.reshape(len(rows), len(members))
    values = []
    for m, j in enumerate(members):
        # Digit d is value d of the member (the missing value last, when the
        # column has one); the values of no combination are dropped.
        d = digits[j]
        present = np.zeros(len(d.values) + 1, dtype=bool)
        present[codes[:, m]] = True
        values.append(d.values[present[:-1]])
        codes[:, m] = (np.cumsum(present) - 1)[codes[:, m]]
    kinds = [digits[j].kind for j in members]
    return JointTable(members, values, kinds, codes, table[rows])


def fit_joint_aggregate(joint, members, max_categories, separator, target_type=None):
    """Learn one aggregate and its members from a joint table.

    The members' levels are their values in the combinations of positive
    weight (sorted, missing last), the seen combinations those combinations,
    keyed as :func:`combination_keys` keys the rows at transform, and the
    rarest pooled past ``max_categories`` by their total weight
    (:func:`pool_rare`).

    Parameters
    ----------
    joint : JointTable
        Of the members or of more columns (summed over the others).
    members : tuple of int
        Column indices of the members, increasing.
    max_categories : int or None
    separator : str or None
        Joins the members' labels; None skips the labels (the search needs only
        the table).
    target_type : str or None, default=None
        ``"continuous"``: the joint table is a moment table (its weights are
        its first column).

    Returns
    -------
    members : dict of int to Member
    aggregate : Aggregate
        ``labels`` is None when ``separator`` is None.
    table : ndarray of float64 of shape (n_codes, n_classes)
        The class counts of each code.
    """
    joint = joint.marginal(members)
    positive = part_weights(joint.table, target_type) > 0
    codes, table = joint.codes[positive], joint.table[positive]
    fitted, levels = {}, []
    for m, j in enumerate(members):
        values = joint.values[m]
        present = np.zeros(len(values) + 1, dtype=bool)
        present[codes[:, m]] = True
        categories = values[present[:-1]]
        if present[-1]:
            categories = append_missing(categories)
        labels = np.array([level_label(v) for v in categories], dtype=object)
        fitted[j] = Member(categories, joint.value_kinds[m], labels)
        levels.append((np.cumsum(present) - 1)[codes[:, m]])
    sizes = tuple(len(fitted[j].categories) for j in members)
    # Each seen combination is one row of levels: its key, and the renumberings
    # on the way to it, are those of its rows at transform.
    seen, n_keys, compressions = combination_keys(
        [(level, np.arange(-1, size, dtype=np.intp))
         for level, size in zip(levels, sizes, strict=True)],
        sizes,
    )  # fmt: skip
    code_of_seen = np.arange(len(seen), dtype=np.intp)
    n_pooled = 0
    if max_categories is not None and len(seen) > max_categories:
        code_of_seen, n_codes, n_pooled = pool_rare(
            part_weights(table, target_type), max_categories
        )
        table = merge_rows(table, code_of_seen, n_codes)
    labels = None
    if separator is not None:
        parts = zip(members, levels, strict=True)
        labels = join_labels([fitted[j].labels[lv] for j, lv in parts], separator)
        if n_pooled:
            labels = np.append(labels[code_of_seen < max_categories - 1], RARE_LABEL)
    aggregate = Aggregate(
        members, sizes, tuple(compressions), n_keys, seen, code_of_seen, labels,
        n_pooled,
    )  # fmt: skip
    return fitted, aggregate, table


def fit_counted_aggregate(members, digits, y_codes, sample_weight, n_classes,
                          max_categories, separator):  # fmt: skip
    """Learn one aggregate from the table of its members' digits.

    :func:`fit_joint_aggregate` on :func:`joint_of_digits`: the one-pass route
    of a supervised fit, whose rows are at hand.

    Parameters
    ----------
    members : tuple of int
        Column indices of the members, increasing.
    digits : dict of int to Digits
    y_codes : ndarray of intp of shape (n_samples,)
    sample_weight : ndarray of float64 of shape (n_samples,) or None
    n_classes : int
    max_categories : int or None
    separator : str or None
        None skips the labels (the search needs only the table).

    Returns
    -------
    result : tuple of (dict of int to Member, Aggregate, ndarray) or None
        What :func:`fit_joint_aggregate` returns; None when the table of
        digits would be larger than a column, or when it would pool weighted
        combinations: the caller then fits from the joint table counted by
        its general route (the same table).
    """
    joint = joint_of_digits(members, digits, y_codes, sample_weight, n_classes)
    if joint is None:
        return None
    if (
        sample_weight is not None
        and max_categories is not None
        and len(joint.codes) > max_categories
    ):
        return None
    return fit_joint_aggregate(joint, members, max_categories, separator)


def lookup_combinations(member_codes, sizes, lookup, out, column, fill):
    """Write each row's value looked up by its combination's key into ``out``.

    The transform of a grouped aggregate in one chunked pass: each chunk's
    keys are built in a buffer (as :func:`combination_keys` builds them) and
    looked up at once, with no row-sized array of keys or codes.

    Parameters
    ----------
    member_codes : sequence of (raw_codes, lookup)
        Each member's raw codes and the level of each raw code + 1 (-1: a
        value not seen in fit).
    sizes : sequence of int
        Number of levels of each member.
    lookup : ndarray of intp of shape (n_keys + 1,)
        ``lookup[key + 1]`` is the value written for a key (slot 0: a row with
        a value not seen in fit); negative: ``fill``.
    out : ndarray of shape (n_samples, n_columns)
        C-contiguous ``float64`` or ``intp``.
    column : int
        Column of ``out`` written.
    fill : int
        Value of the rows whose key has a negative value.
    """
    lookups = [canonical_lookup(member_lookup) for _, member_lookup in member_codes]
    lookup = canonical_lookup(lookup)
    n = out.shape[0]
    size = min(n, CHUNK)
    keys = np.empty(size, dtype=np.int64)
    code_buffer = np.empty(size, dtype=np.intp)
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        chunk_keys = keys[: stop - start]
        chunk_keys[:] = 0
        for (codes, _), member_lookup, radix in zip(
            member_codes, lookups, sizes, strict=True
        ):
            chunk = canonical_chunk(codes, start, stop, np.intp, code_buffer)
            append_digits(chunk, member_lookup, int(radix), chunk_keys)
        lookup_rows(chunk_keys, lookup, out[start:stop], column, fill)
