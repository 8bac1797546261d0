# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Column tables: the additive statistics every transformer learns from.

Stage 1 of every fit (ARCHITECTURE section 1) as a public object. A
:class:`ColumnTables` holds, for each column of X, its contingency table:
categories x classes for a categorical column, distinct values x classes (in
increasing value order) for a numeric one, the missing values in a last row.
The table of a union of row chunks is the sum of the chunks' tables, so
``column_tables(A) + column_tables(B)`` equals ``column_tables(A and B)`` (new
categories, values and classes extend it): ``partial_fit`` and Dask only
change how the tables are built, never the algorithms that read them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator

from partikit._counting._validation import (
    NUMERIC_KIND,
    STRING_KIND,
    TableBudget,
    arrow_contingency_table,
    categorical_mask,
    check_categorical_X,
    check_same_label_types,
    check_sample_weight,
    check_table_size,
    check_target,
    factorize_column,
    numeric_values,
    small_integer_range,
    sorting_order,
    table_size_error,
)
from partikit._kernels._multisplit import value_table
from partikit._statistics._contingency import build_table, moment_weights
from partikit._statistics._moments import CONTINUOUS, N_MOMENTS, part_weights

#: Kinds of the columns of a :class:`ColumnTables`.
CATEGORICAL = "categorical"
NUMERIC = "numeric"

#: Cells of a table indexed by an integer column's values counted directly
#: when the column is short (longer columns may have as many cells as rows).
_MIN_DIRECT_CELLS = 1 << 16


def count_categorical(column, name, y_codes, sample_weight, n_classes, budget=None):
    """Categories of a column and their contingency table, the missing row last.

    An integer column whose range of values makes a table no larger than the
    column (``range x n_classes`` cells at most the number of rows) is counted
    through its values in one pass: a row of the table per value of the range,
    the values absent from the column left empty, with no codes, no
    ``bincount`` of the values and no lookup. Any other column is factorized
    first (:func:`~partikit._counting._validation.factorize_column`), or, a long Arrow
    string column without weights, counted by slices in threads
    (:func:`~partikit._counting._validation.arrow_contingency_table`). All give the same
    table rows, summed in row order. Categories of zero weight keep an empty row
    (a fit drops them, as it drops any category absent from its rows).

    Parameters
    ----------
    column : pandas Series or 1-D ndarray
    name : str
        The column's name, for error messages.
    y_codes : ndarray of intp of shape (n_samples,)
    sample_weight : ndarray of float64 of shape (n_samples,) or None
    n_classes : int
    budget : TableBudget or None, default=None
        The fit's budget, the table reserved from it before it is allocated.

    Returns
    -------
    categories : ndarray
        Sorted values, one per table row but the last.
    kind : {"string", "numeric"}
    table : ndarray of float64 of shape (len(categories) + 1, n_classes)
        The last row counts the missing values.
    """
    span = small_integer_range(
        column, max(len(y_codes), _MIN_DIRECT_CELLS) // max(n_classes, 1)
    )
    if span is not None:
        values, low, n_values = span
        # at most as many cells as rows (or 65,536), yet part of the budget
        check_table_size(n_values + 1, n_classes, name, budget)
        table = build_table(
            values, y_codes, sample_weight, n_values + 1, n_classes, offset=low
        )
        categories = (np.arange(n_values) + low).astype(values.dtype)
        return categories, NUMERIC_KIND, table
    if sample_weight is None and y_codes.dtype.kind != "f":
        counted = arrow_contingency_table(column, name, y_codes, n_classes, budget)
        if counted is not None:
            return counted
    factorized = factorize_column(column, name)
    check_table_size(len(factorized.categories) + 1, n_classes, name, budget)
    table = build_table(
        factorized.raw_codes,
        y_codes,
        sample_weight,
        len(factorized.categories) + 1,
        n_classes,
        lookup=factorized.lookup,
    )
    return factorized.categories, factorized.kind, table


def count_numeric(
    x, y_codes, sample_weight, n_classes, name="x", *, max_values=None, budget=None
):
    """Distinct values of a numeric column and their table, the missing row last.

    Rows of zero weight are left out (their values are not values of the
    column), and -0.0 is 0.0.

    Parameters
    ----------
    x : ndarray of float64 of shape (n_samples,)
        NaN: missing.
    y_codes : ndarray of intp of shape (n_samples,)
    sample_weight : ndarray of float64 of shape (n_samples,) or None
    n_classes : int
    name : str, default="x"
        The column's name, for error messages.
    max_values : int or None, default=None
        With more distinct values, a class table is pooled into at most
        ``max_values`` rows before it is counted: the rows of
        :func:`pool_values` (chosen from the values and their weights alone,
        :func:`pooled_starts`), each row's classes then counted once, so that
        no table of every distinct value is made. The counts equal those of
        pooling the full table (exactly for integer weights; up to the
        rounding of their order of addition for fractional ones).
    budget : TableBudget or None, default=None
        The fit's budget, the table reserved from it before it is allocated.

    Returns
    -------
    values : ndarray of float64
        The distinct values, increasing (the least of each pooled row).
    table : ndarray of float64 of shape (len(values) + 1, n_classes)
        Class counts of each value, in value order, then of the missing values.
    upper : ndarray of float64 or None
        The greatest value of each pooled row; None when not pooled.
    """
    # + 0.0 turns -0.0 into 0.0: they are one value.
    x = np.ascontiguousarray(x, dtype=np.float64) + 0.0
    missing = np.isnan(x)
    keep = ~missing
    weights = None
    if sample_weight is not None:
        positive = sample_weight > 0
        keep &= positive
        missing &= positive
        weights = sample_weight[keep]
    every_row = bool(keep.all())
    kept = x if every_row else x[keep]
    if y_codes.dtype.kind == "f":
        # a moment table: 3 columns, at most a row per kept row
        values, table = _moment_value_table(kept, y_codes, sample_weight, keep, missing)
        check_table_size(len(table), n_classes, name, budget, numeric=True)
        return values, table, None
    kept_codes = np.ascontiguousarray(y_codes if every_row else y_codes[keep], np.intp)
    if weights is None:
        # Rows of equal value add up to the same integer counts in any order,
        # so the unstable sort (4 times faster on a million floats) gives the
        # same table; float weights keep the stable order, the order of their
        # sums.
        order = np.argsort(kept)
    else:
        order = np.argsort(kept, kind="stable")
    reserved = False
    if max_values is not None or (len(kept) + 1) * n_classes > budget_left(budget):
        # as many rows as distinct values: counted before the table is made
        ordered = kept[order]
        first = np.append(True, ordered[1:] != ordered[:-1])[: len(kept)]
        n_values = int(first.sum())
        if max_values is not None and n_values > max_values:
            return _pooled_value_table(
                order, first, ordered, kept_codes, weights, missing, y_codes,
                sample_weight, n_classes, name, max_values, budget,
            )  # fmt: skip
        check_table_size(n_values + 1, n_classes, name, budget, numeric=True)
        reserved = True
    # else the table has at most one row per kept row: it fits what is left,
    # and is reserved (its rows known) once counted
    values, table = value_table(
        kept,
        order,
        kept_codes,
        None if weights is None else np.ascontiguousarray(weights, np.float64),
        n_classes,
        extra_rows=1,
    )
    table[-1] = _missing_row(y_codes, sample_weight, missing, n_classes)
    if not reserved:
        check_table_size(len(table), n_classes, name, budget, numeric=True)
    return values, table, None


def budget_left(budget):
    """Cells a table may still take (the whole budget when there is none)."""
    if budget is None:
        return TableBudget(1).cells
    return budget.cells - budget.used


def _missing_row(y_codes, sample_weight, missing, n_classes):
    return np.bincount(
        y_codes[missing],
        weights=None if sample_weight is None else sample_weight[missing],
        minlength=n_classes,
    )


def _pooled_value_table(
    order, first, ordered, kept_codes, weights, missing, y_codes, sample_weight,
    n_classes, name, max_values, budget,
):  # fmt: skip
    """:func:`count_numeric` of a column of more than ``max_values`` values.

    ``order`` sorts the kept rows, ``ordered`` are their sorted values and
    ``first`` marks the first row of each distinct value among them.
    """
    # the distinct value of each kept row, through the sorted order
    position = np.empty(len(order), dtype=np.intp)
    position[order] = np.cumsum(first) - 1
    values = ordered[first]
    if weights is None:
        value_weights = np.bincount(position, minlength=len(values)).astype(np.float64)
    else:
        value_weights = np.bincount(position, weights=weights, minlength=len(values))
    starts = pooled_starts(values, value_weights, max_values)
    check_table_size(len(starts) + 1, n_classes, name, budget, numeric=True)
    # the pooled row of each distinct value, then of each row
    new_row = np.zeros(len(values), dtype=np.intp)
    new_row[starts[1:]] = 1
    rows = np.cumsum(new_row)[position]
    table = build_table(rows, kept_codes, weights, len(starts) + 1, n_classes)
    table[-1] = _missing_row(y_codes, sample_weight, missing, n_classes)
    upper = values[np.append(starts[1:], len(values)) - 1]
    return values[starts], table, upper


def _moment_value_table(kept, y, sample_weight, keep, missing):
    """The distinct values of a numeric column and their moments (a continuous
    target's table), the missing values' moments last.

    The kept values are sorted once (stably: rows of one value add up in row
    order) and each moment summed over each run of equal values.
    """
    order = np.argsort(kept, kind="stable")
    ordered = kept[order]
    starts = np.flatnonzero(np.append(True, ordered[1:] != ordered[:-1]))
    if len(kept) == 0:
        starts = starts[:0]
    every_row = len(kept) == len(keep)
    table = np.zeros((len(starts) + 1, N_MOMENTS))
    for m, moment in enumerate(moment_weights(y, sample_weight)):
        if moment is None:  # unweighted: every row weighs 1
            table[:-1, m] = np.diff(np.append(starts, len(kept)))
            table[-1, m] = missing.sum()
            continue
        if len(starts):
            kept_moment = moment if every_row else moment[keep]
            table[:-1, m] = np.add.reduceat(kept_moment[order], starts)
        table[-1, m] = moment[missing].sum()
    return ordered[starts], table


def _float_keys(values):
    """Order-preserving uint64 keys of float64 values (no NaN, no -0.0)."""
    bits = np.ascontiguousarray(values, dtype=np.float64).view(np.uint64)
    negative = (bits >> np.uint64(63)).astype(bool)
    return np.where(negative, ~bits, bits | np.uint64(1 << 63))


def _bit_length(keys):
    """Number of significant bits of each uint64 (0 for 0), exactly."""
    # float64 holds 32-bit halves exactly, so frexp's exponents are exact
    high = (keys >> np.uint64(32)).astype(np.float64)
    low = (keys & np.uint64(0xFFFFFFFF)).astype(np.float64)
    return np.where(high > 0, 32 + np.frexp(high)[1], np.frexp(low)[1]).astype(np.int64)


def _dyadic_nodes(keys, levels):
    """First and last key of the node of each key at each level (0 to 64)."""
    shift = np.minimum(levels, 63).astype(np.uint64)
    first = (keys >> shift) << shift
    last = first + ((np.uint64(1) << shift) - np.uint64(1))
    whole = levels >= 64
    first[whole] = 0
    last[whole] = np.iinfo(np.uint64).max
    return first, last


def pool_values(lower, upper, counts, max_values, weights=None):
    """Pool the rows of a value table into at most ``max_values`` rows.

    The rows stand for disjoint ranges of the float64 order, each within one
    dyadic interval of it (an interval of the order-preserving 64-bit keys
    that a binary trie of the keys has as a node: the values sharing their
    leading key bits). The pooled rows are the largest nodes of that trie
    whose weight is at most ``C``, a row of the input heavier than ``C``
    staying alone, with ``C`` the least node weight that leaves at most
    ``max_values`` rows. Pooling depends on the rows only (not on their
    order of arrival) and a pooled row is again within one node, so pooled
    tables of other rows merge without overlapping bins (see
    :func:`merge_pooled`).

    Every pooled row weighs at most ``C``, and ``C <= 64 W / max_values``
    (``W`` the total weight): with ``C`` any smaller, ``max_values`` trie
    nodes or more would weigh ``C`` or more, and the nodes of one level of
    the trie are disjoint, so a level holds at most ``W / C`` of them, over
    64 levels.

    Parameters
    ----------
    lower, upper : ndarray of float64 of shape (n_rows,)
        The least and greatest value of each row, increasing, disjoint.
    counts : ndarray of float64 of shape (n_rows, n_classes)
        The class counts of each row (no missing row).
    max_values : int
        At least 2.
    weights : ndarray of float64 of shape (n_rows,), default=None
        The weight of each row; None: the sum of its class counts (a moment
        table gives its weight column).

    Returns
    -------
    lower, upper : ndarray of float64 of shape (n_pooled,)
    counts : ndarray of float64 of shape (n_pooled, n_classes)
        ``n_pooled <= max_values``; the input itself when it has no more rows.
    """
    n_rows = len(lower)
    if n_rows <= max_values:
        return lower, upper, counts
    if weights is None:
        weights = counts.sum(axis=1)
    starts = pooled_starts(lower, weights, max_values)
    ends = np.append(starts[1:], n_rows) - 1
    return lower[starts], upper[ends], np.add.reduceat(counts, starts, axis=0)


def pooled_starts(lower, weights, max_values):
    """The first row of each pooled row of :func:`pool_values`.

    Needs only the rows' least values and weights, not their class counts:
    a numeric column is pooled from its distinct values before its table is
    counted (:func:`count_numeric`), with the rows :func:`pool_values` gives.

    Parameters
    ----------
    lower : ndarray of float64 of shape (n_rows,)
        Increasing.
    weights : ndarray of float64 of shape (n_rows,)
    max_values : int
        At least 2, less than ``n_rows``.

    Returns
    -------
    starts : ndarray of intp of shape (n_pooled,)
        Increasing, ``starts[0] == 0``.
    """
    n_rows = len(lower)
    keys = _float_keys(lower)
    # the node of split i (between rows i and i + 1) is the smallest node
    # holding both: its level is the highest bit where their keys differ
    levels = _bit_length(keys[:-1] ^ keys[1:])
    first, last = _dyadic_nodes(keys[:-1], levels)
    start = np.searchsorted(keys, first, side="left")
    end = np.searchsorted(keys, last, side="right")
    cumulative = np.concatenate([[0.0], np.cumsum(weights)])
    # monotone: a node never weighs less than a node inside it, in float too
    # (rounded subtraction is monotone in each argument)
    weights = cumulative[end] - cumulative[start]
    # n_rows - 1 splits; pooling the nodes of weight <= C removes one row per
    # split they hold
    capacity = np.partition(weights, n_rows - max_values - 1)[n_rows - max_values - 1]
    return np.concatenate([[0], np.flatnonzero(weights > capacity) + 1])


def merge_pooled(lower, upper, counts):
    """Merge rows of several value tables whose ranges may nest.

    Each row's range lies within the smallest dyadic node holding it (see
    :func:`pool_values`); nodes either nest or are disjoint, so a row is
    added to the row whose node holds its own, with no chain of
    overlapping bins. Equal exact values add up as in an exact merge.

    Parameters
    ----------
    lower, upper : ndarray of float64 of shape (n_rows,)
        The rows of all tables, in any order.
    counts : ndarray of float64 of shape (n_rows, n_classes)

    Returns
    -------
    lower, upper : ndarray of float64 of shape (n_merged,)
        Increasing, disjoint.
    counts : ndarray of float64 of shape (n_merged, n_classes)
    """
    keys = _float_keys(lower)
    levels = _bit_length(keys ^ _float_keys(upper))
    first, last = _dyadic_nodes(keys, levels)
    # a node before the nodes inside it
    order = np.lexsort((-levels, first))
    first, last = first[order], last[order]
    covered = np.maximum.accumulate(last)
    outer = np.ones(len(order), dtype=bool)
    outer[1:] = first[1:] > covered[:-1]
    starts = np.flatnonzero(outer)
    return (
        np.minimum.reduceat(lower[order], starts),
        np.maximum.reduceat(upper[order], starts),
        np.add.reduceat(counts[order], starts, axis=0),
    )


def _merged_cap(a, b):
    """The ``max_values`` of a sum: the smaller cap (None: no cap)."""
    caps = [cap for cap in (a, b) if cap is not None]
    return min(caps) if caps else None


def _check_max_values(max_values):
    if max_values is None:
        return None
    if isinstance(max_values, bool) or not isinstance(max_values, (int, np.integer)):
        raise TypeError(
            f"max_values must be an int or None, got {type(max_values).__name__}."
        )
    if max_values < 2:
        raise ValueError(
            f"max_values must be at least 2 (rows left to cut between), got "
            f"{max_values}."
        )
    return int(max_values)


class ColumnTables:
    """The contingency table of every column of (X, y): what partikit fits from.

    Built by :func:`column_tables`; read by the ``fit_tables`` method of every
    grouper, discretizer and :class:`~partikit.groupers.AttributeAggregator`,
    whose ``fit`` is ``fit_tables(column_tables(X, y, sample_weight))``.
    Tables are additive: ``a + b`` is the tables of the rows of ``a`` and of
    ``b`` together (new categories, values and classes extend them), exactly
    so with integer weights (or none), to the rounding of the sums with
    fractional weights. ``sum(parts)`` works too. The object holds numpy arrays
    only: it pickles to about the size of its tables.

    Parameters
    ----------
    feature_names : array-like of str
        The columns' names (``x0, x1, ...`` for an array without names).
    has_feature_names : bool
        Whether the names came from X (a DataFrame): a transformer fitted from
        the tables then has ``feature_names_in_``.
    classes : ndarray or None
        The sorted class labels seen with positive weight; None for tables
        counted without a target (one count column) or with a continuous one.
    kinds : list of {"categorical", "numeric"}
        How each column was counted.
    values : list of ndarray
        Per column: the sorted categories (missing excluded) of a categorical
        column; the distinct values (float64, increasing) of a numeric one.
    tables : list of ndarray of float64 of shape (len(values[j]) + 1, n_classes)
        Per column: the class counts (weighted) of each value, in the order of
        ``values[j]``, the missing values' last (an empty row when there is
        none). Only the values seen with positive weight are values.
    value_kinds : list of {"string", "numeric"} or None
        Per categorical column: whether its categories are strings or numbers
        (a column whose kind changes at transform is reported); None for a
        numeric column.
    ordered_categories : list of ndarray or None
        Per column: the categories of a pandas ordered ``Categorical`` column,
        in their order (CHAID's ordinal predictors); None otherwise.
    joint : dict or None, default=None
        Joint tables of sets of columns (:func:`column_tables`'s ``joint``),
        keyed by the tuple of their column indices: each a
        :class:`JointTable`.
    upper_values : list of ndarray or None, default=None
        Per column: None for an exact table (every row one value); for a
        numeric column whose values were pooled (``max_values``), the greatest
        value of each row, ``values[j]`` holding the least. None: every
        column exact.
    max_values : int or None, default=None
        The cap on the rows of a numeric column (:func:`column_tables`'s
        ``max_values``); a sum keeps the smaller cap of its terms and pools
        again the columns past it.
    target_type : {"binary", "multiclass", "continuous"} or None, default=None
        The kind of target counted. ``"continuous"``: each table has three
        columns, the weight, the weighted sum and the weighted sum of squares
        of the target of each value (a moment table, additive as class counts
        are). None: ``"binary"`` or ``"multiclass"`` by the number of
        ``classes``, or no target when ``classes`` is None.

    Attributes
    ----------
    pooled : ndarray of bool of shape (n_features,)
        Which columns have pooled rows (``upper_values[j]`` is not None).

    See Also
    --------
    column_tables : Count the tables of (X, y).

    Notes
    -----
    Each parameter is kept as the attribute of the same name.

    *Pooled numeric columns.* A row of a pooled column counts the rows of X
    whose values lie in ``[values[j][i], upper_values[j][i]]``, exactly: only
    the resolution is lost, never a count. The rows' ranges are disjoint and
    each lies within one dyadic interval of the float64 order, so the pooled
    tables of two sets of rows add up without overlapping rows: a row of one
    that the other resolves finer absorbs the other's rows inside its
    interval. Pooling (:func:`column_tables`) leaves a row of several values
    of at most ``64 W / max_values`` of the column's weight ``W`` (1.3 to 3.9
    ``W / max_values`` measured on common distributions); after a sum the
    same holds of the rows pooled again, while a row one term had pooled
    cannot be split and keeps what the other terms counted inside its
    interval: about the same share when the terms' values come from one
    distribution, more when a term's values crowd into it. ``a + b`` equals
    ``b + a``; a longer sum may depend on the order of the additions (each
    pools again). See the :ref:`User Guide <pooled_values>`.
    """

    def __init__(
        self, *, feature_names, has_feature_names, classes, kinds, values, tables,
        value_kinds, ordered_categories, joint=None, upper_values=None,
        max_values=None, target_type=None,
    ):  # fmt: skip
        self.feature_names = np.asarray(feature_names, dtype=object)
        self.has_feature_names = bool(has_feature_names)
        self.classes = classes
        self.kinds = list(kinds)
        self.values = list(values)
        self.tables = list(tables)
        self.value_kinds = list(value_kinds)
        self.ordered_categories = list(ordered_categories)
        self.joint = dict(joint or {})
        self.upper_values = (
            [None] * len(self.kinds) if upper_values is None else list(upper_values)
        )
        self.max_values = max_values
        if target_type is None and classes is not None:
            target_type = "binary" if len(classes) <= 2 else "multiclass"
        if target_type == CONTINUOUS and classes is not None:
            raise ValueError("Tables of a continuous target have no classes.")
        self.target_type = target_type

    @property
    def pooled(self):
        """Which columns have pooled rows (see the Notes)."""
        return np.array([u is not None for u in self.upper_values], dtype=bool)

    def pool(self, max_values):
        """These tables with every numeric column pooled to ``max_values`` rows.

        Parameters
        ----------
        max_values : int or None
            At least 2; None returns the tables unchanged. Columns already
            pooled to fewer rows stay as they are: the cap of the result is
            the smaller of ``max_values`` and ``self.max_values``.

        Returns
        -------
        tables : ColumnTables
            ``self`` when no column has more rows than the cap.
        """
        max_values = _check_max_values(max_values)
        cap = _merged_cap(self.max_values, max_values)
        if (
            cap is None
            or cap == self.max_values
            and not any(
                kind == NUMERIC and len(values) > cap
                for kind, values in zip(self.kinds, self.values, strict=True)
            )
        ):
            return self
        values, tables, upper_values = [], [], []
        for j in range(self.n_features):
            lower, upper, table = _pool_column(
                self.kinds[j], self.values[j], self.upper_values[j], self.tables[j],
                cap, self.target_type,
            )  # fmt: skip
            values.append(lower)
            upper_values.append(upper)
            tables.append(table)
        return ColumnTables(
            feature_names=self.feature_names,
            has_feature_names=self.has_feature_names,
            classes=self.classes,
            kinds=self.kinds,
            values=values,
            tables=tables,
            value_kinds=self.value_kinds,
            ordered_categories=self.ordered_categories,
            joint=self.joint,
            upper_values=upper_values,
            max_values=cap,
            target_type=self.target_type,
        )

    def select(self, columns):
        """The tables of some of the columns, in the order given.

        What :func:`column_tables` counts on ``X[columns]``: count every
        column once, then fit a transformer per column (or per set of columns)
        from its own tables, as :func:`~partikit.report` does.

        Parameters
        ----------
        columns : list of str or int
            The columns, by name (in ``feature_names``) or position, each once.

        Returns
        -------
        tables : ColumnTables
            Those columns' tables, names and kinds; the classes and the cap
            ``max_values`` of these tables; the joint tables of sets of
            selected columns only (keyed by their positions in the selection).

        Examples
        --------
        >>> import pandas as pd
        >>> from partikit import column_tables
        >>> X = pd.DataFrame({"a": ["u", "v"] * 5, "b": ["x", "y", "z", "x", "y"] * 2})
        >>> tables = column_tables(X, [0, 1] * 5, categorical_features="all")
        >>> tables.select(["b"])
        ColumnTables(2 classes: 'b' (categorical, 3 values))
        """
        names = [str(name) for name in self.feature_names]
        positions = []
        for key in columns:
            if isinstance(key, str) and key in names:
                position = names.index(key)
            elif (
                isinstance(key, (int, np.integer))
                and not isinstance(key, bool)
                and 0 <= key < self.n_features
            ):
                position = int(key)
            else:
                raise ValueError(
                    f"Column {key!r} is not a column of these tables: "
                    f"{names[:20]}{' ...' if len(names) > 20 else ''}."
                )
            if position in positions:
                raise ValueError(f"Column {key!r} is selected more than once.")
            positions.append(position)
        new_position = {old: new for new, old in enumerate(positions)}
        joint = {}
        for members, table in self.joint.items():
            if all(j in new_position for j in members):
                moved = table.moved([new_position[j] for j in members])
                joint[moved.members] = moved
        return ColumnTables(
            feature_names=self.feature_names[positions],
            has_feature_names=self.has_feature_names,
            classes=self.classes,
            kinds=[self.kinds[j] for j in positions],
            values=[self.values[j] for j in positions],
            tables=[self.tables[j] for j in positions],
            value_kinds=[self.value_kinds[j] for j in positions],
            ordered_categories=[self.ordered_categories[j] for j in positions],
            joint=joint,
            upper_values=[self.upper_values[j] for j in positions],
            max_values=self.max_values,
            target_type=self.target_type,
        )

    @property
    def n_features(self):
        """Number of columns."""
        return len(self.kinds)

    @property
    def n_classes(self):
        """Number of table columns (1 without a target, 3 for a continuous one)."""
        if self.target_type == CONTINUOUS:
            return N_MOMENTS
        return 1 if self.classes is None else len(self.classes)

    @property
    def has_target(self):
        """Whether the tables were counted with a target (classes or continuous)."""
        return self.target_type is not None

    def __repr__(self):
        if self.target_type == CONTINUOUS:
            target = "continuous target"
        elif self.classes is None:
            target = "no target"
        else:
            target = f"{len(self.classes)} classes"
        columns = ", ".join(
            f"{name!r} ({kind}, {len(values)} "
            f"{'pooled rows' if upper is not None else 'values'})"
            for name, kind, values, upper in zip(
                self.feature_names,
                self.kinds,
                self.values,
                self.upper_values,
                strict=True,
            )
        )
        joint = f"; joint tables of {list(self.joint)}" if self.joint else ""
        return f"ColumnTables({target}: {columns}{joint})"

    def __radd__(self, other):
        # sum(parts) starts from 0
        if isinstance(other, int) and other == 0:
            return self
        return NotImplemented

    def __add__(self, other):
        """The tables of both sets of rows (see the class docstring)."""
        if not isinstance(other, ColumnTables):
            return NotImplemented
        if list(self.feature_names) != list(other.feature_names) or (
            self.kinds != other.kinds
        ):
            raise ValueError(
                "These tables count other columns and cannot be added: "
                f"{_describe(self)} against {_describe(other)}."
            )
        if (self.target_type == CONTINUOUS) != (other.target_type == CONTINUOUS) or (
            self.has_target != other.has_target
        ):
            raise ValueError(
                "Tables counted with other kinds of target cannot be added: "
                f"{self.target_type or 'no target'} and "
                f"{other.target_type or 'no target'}."
            )
        continuous = self.target_type == CONTINUOUS
        classes, columns_a, columns_b = _merge_classes(self.classes, other.classes)
        if continuous:
            columns_a = columns_b = np.arange(N_MOMENTS)
        n_classes = self.n_classes if classes is None else len(classes)
        cap = _merged_cap(self.max_values, other.max_values)
        values, tables, value_kinds, ordered, upper_values = [], [], [], [], []
        for j in range(self.n_features):
            name = self.feature_names[j]
            if self.ordered_categories[j] is None:
                same = other.ordered_categories[j] is None
            else:
                same = other.ordered_categories[j] is not None and np.array_equal(
                    self.ordered_categories[j], other.ordered_categories[j]
                )
            if not same:
                raise ValueError(
                    f"Column {name!r} is an ordered categorical column with other "
                    "categories in one set of rows than in the other; give it the "
                    "same categories in every chunk."
                )
            kind = _merged_value_kind(self, other, j)
            if self.kinds[j] == NUMERIC and (
                self.upper_values[j] is not None or other.upper_values[j] is not None
            ):
                lower, upper, table = _add_pooled(
                    self, other, j, columns_a, columns_b, n_classes, cap
                )
                values.append(lower)
                upper_values.append(upper)
                tables.append(table)
                value_kinds.append(kind)
                ordered.append(self.ordered_categories[j])
                continue
            merged, rows_a, rows_b = _merge_values(
                self.values[j], other.values[j], kind
            )
            table = np.zeros((len(merged) + 1, n_classes))
            table[np.ix_(np.append(rows_a, len(merged)), columns_a)] += self.tables[j]
            table[np.ix_(np.append(rows_b, len(merged)), columns_b)] += other.tables[j]
            upper = None
            if self.kinds[j] == NUMERIC:
                merged, upper, table = _pool_column(
                    NUMERIC, merged, None, table, cap, self.target_type
                )
            values.append(merged)
            upper_values.append(upper)
            tables.append(table)
            value_kinds.append(kind)
            ordered.append(self.ordered_categories[j])
        if set(self.joint) != set(other.joint):
            raise ValueError(
                "These tables hold joint tables of other sets of columns "
                f"({sorted(self.joint)} against {sorted(other.joint)}) and cannot "
                "be added."
            )
        joint = {
            members: self.joint[members].merge(
                other.joint[members], columns_a, columns_b, n_classes
            )
            for members in self.joint
        }
        return ColumnTables(
            feature_names=self.feature_names,
            has_feature_names=self.has_feature_names,
            classes=classes,
            kinds=self.kinds,
            values=values,
            tables=tables,
            value_kinds=value_kinds,
            ordered_categories=ordered,
            joint=joint,
            upper_values=upper_values,
            max_values=cap,
            target_type=CONTINUOUS if continuous else None,
        )


def _pool_column(kind, lower, upper, table, cap, target_type=None):
    """(lower, upper or None, table) of a column pooled to ``cap`` rows."""
    if kind != NUMERIC or cap is None or len(lower) <= cap:
        return lower, upper, table
    lower, upper, counts = pool_values(
        lower, lower if upper is None else upper, table[:-1], cap,
        weights=part_weights(table[:-1], target_type),
    )  # fmt: skip
    return lower, upper, np.vstack([counts, table[-1:]])


def _add_pooled(a, b, j, columns_a, columns_b, n_classes, cap):
    """(lower, upper, table) of numeric column ``j`` of ``a + b``, one pooled."""
    parts = []
    for tables, columns in ((a, columns_a), (b, columns_b)):
        table = np.zeros((len(tables.values[j]) + 1, n_classes))
        table[:, columns] = tables.tables[j]
        upper = tables.upper_values[j]
        parts.append(
            (tables.values[j], tables.values[j] if upper is None else upper, table)
        )
    lower, upper, counts = merge_pooled(
        np.concatenate([p[0] for p in parts]),
        np.concatenate([p[1] for p in parts]),
        np.vstack([p[2][:-1] for p in parts]),
    )
    missing = parts[0][2][-1] + parts[1][2][-1]
    if cap is not None:
        lower, upper, counts = pool_values(
            lower, upper, counts, cap, weights=part_weights(counts, a.target_type)
        )
    return lower, upper, np.vstack([counts, missing[None, :]])


class JointTable:
    """The contingency table of the value combinations of a set of columns.

    Each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    members : tuple of int
        The columns, in increasing order.
    values : list of ndarray
        Each member's sorted categories (missing excluded).
    value_kinds : list of {"string", "numeric"}
    codes : ndarray of intp of shape (n_combinations, n_members)
        Each combination seen as the position of each member's value in
        ``values`` (``len(values[m])``: missing), rows in increasing
        lexicographic order. A combination (or value) seen only with zero
        weight may have an empty row (or no combination): a fit drops it.
    table : ndarray of float64 of shape (n_combinations, n_classes)
        The class counts (weighted) of each combination.
    """

    def __init__(self, members, values, value_kinds, codes, table):
        self.members = tuple(members)
        self.values = list(values)
        self.value_kinds = list(value_kinds)
        self.codes = codes
        self.table = table

    def marginal(self, members):
        """The joint table of some of the members: this one summed over the others.

        Parameters
        ----------
        members : tuple of int
            Some of ``self.members``, in increasing order.

        Returns
        -------
        marginal : JointTable
            Their combinations, each once, in lexicographic order (``self``
            itself when ``members`` are all the members).
        """
        members = tuple(members)
        if members == self.members:
            return self
        positions = [self.members.index(j) for j in members]
        values = [self.values[m] for m in positions]
        unique, inverse = _unique_rows(
            self.codes[:, positions], [len(v) + 1 for v in values]
        )
        # bincount adds the combinations of each subset in the table's order
        table = np.column_stack(
            [
                np.bincount(inverse, weights=column, minlength=len(unique))
                for column in self.table.T
            ]
        ).reshape(len(unique), self.table.shape[1])
        kinds = [self.value_kinds[m] for m in positions]
        return JointTable(members, values, kinds, unique, table)

    def moved(self, members):
        """This table with its columns renumbered (:meth:`ColumnTables.select`).

        Parameters
        ----------
        members : list of int
            The new position of each of ``self.members``.

        Returns
        -------
        moved : JointTable
            Its members in increasing order, the combinations in lexicographic
            order of them.
        """
        if all(a < b for a, b in zip(members, members[1:], strict=False)):
            # the same order: the same combinations in the same order
            return JointTable(
                tuple(int(m) for m in members), self.values, self.value_kinds,
                self.codes, self.table,
            )  # fmt: skip
        order = np.argsort(members, kind="stable")
        values = [self.values[m] for m in order]
        codes = self.codes[:, order]
        sizes = [len(v) + 1 for v in values]
        unique, inverse = _unique_rows(codes, sizes)
        table = np.zeros((len(unique), self.table.shape[1]))
        table[inverse] = self.table
        return JointTable(
            tuple(int(members[m]) for m in order),
            values,
            [self.value_kinds[m] for m in order],
            unique,
            table,
        )

    def merge(self, other, columns_a, columns_b, n_classes):
        """The joint table of both sets of rows.

        Parameters
        ----------
        other : JointTable
            Of the same columns.
        columns_a, columns_b : ndarray of intp
            The column of the merged classes of each of this table's classes,
            and of ``other``'s.
        n_classes : int
            Number of merged classes.

        Returns
        -------
        merged : JointTable
            The combinations of both, each once, in lexicographic order.
        """
        values, kinds, codes_a, codes_b = [], [], [], []
        for m in range(len(self.members)):
            kind = _pick_kind(
                self.value_kinds[m], other.value_kinds[m], self.values[m],
                other.values[m], f"x{self.members[m]}",
            )  # fmt: skip
            merged, rows_a, rows_b = _merge_values(
                self.values[m], other.values[m], kind
            )
            # the missing value stays last
            codes_a.append(np.append(rows_a, len(merged))[self.codes[:, m]])
            codes_b.append(np.append(rows_b, len(merged))[other.codes[:, m]])
            values.append(merged)
            kinds.append(kind)
        codes = np.vstack([np.column_stack(codes_a), np.column_stack(codes_b)]).astype(
            np.intp
        )
        stacked = np.zeros((len(codes), n_classes))
        stacked[np.ix_(np.arange(len(self.codes)), columns_a)] = self.table
        stacked[np.ix_(len(self.codes) + np.arange(len(other.codes)), columns_b)] = (
            other.table
        )
        unique, inverse = _unique_rows(codes, [len(v) + 1 for v in values])
        table = np.zeros((len(unique), n_classes))
        np.add.at(table, inverse, stacked)
        return JointTable(self.members, values, kinds, unique, table)


def _describe(tables):
    return str(
        [f"{n} ({k})" for n, k in zip(tables.feature_names, tables.kinds, strict=True)]
    )


def _merge_classes(a, b):
    """The union of two class arrays and where each one's columns go."""
    if a is None:
        return None, np.zeros(1, dtype=np.intp), np.zeros(1, dtype=np.intp)
    # "0" and 0 are two labels: fit refuses a target holding both, and so
    # does the sum of tables counted on such targets
    check_same_label_types(a, b)
    if a.dtype == b.dtype and len(a) == len(b) and np.array_equal(a, b):
        columns = np.arange(len(a))
        return a, columns, columns
    try:
        classes = np.union1d(a, b)
    except TypeError as exc:
        raise ValueError(
            f"The class labels of the two tables cannot be sorted together ({exc}): "
            f"{a.tolist()!r} and {b.tolist()!r}."
        ) from exc
    return (
        classes,
        np.searchsorted(classes, a).astype(np.intp),
        np.searchsorted(classes, b).astype(np.intp),
    )


def _pick_kind(kind_a, kind_b, values_a, values_b, name):
    """The value kind of a merged categorical column (an empty side has none)."""
    if len(values_a) == 0:
        return kind_b
    if len(values_b) == 0 or kind_a == kind_b:
        return kind_a
    raise TypeError(
        f"Column {name!r} holds strings in one set of rows and numbers in the "
        "other; the categories of a column must be all strings or all numbers."
    )


def _merged_value_kind(a, b, j):
    if a.kinds[j] == NUMERIC:
        return None
    return _pick_kind(
        a.value_kinds[j], b.value_kinds[j], a.values[j], b.values[j],
        a.feature_names[j],
    )  # fmt: skip


def _merge_values(a, b, kind):
    """The sorted union of two sorted value arrays, and where each one's go."""
    if len(a) == len(b) and (a is b or np.array_equal(a, b)):
        rows = np.arange(len(a))
        return a, rows, rows
    if kind == STRING_KIND:
        union = pd.unique(np.concatenate([a.astype(object), b.astype(object)]))
        merged = union[sorting_order(union, STRING_KIND)]
        index = pd.Index(merged)
        return merged, index.get_indexer(a), index.get_indexer(b)
    merged = np.union1d(a, b)
    return (
        merged,
        np.searchsorted(merged, a).astype(np.intp),
        np.searchsorted(merged, b).astype(np.intp),
    )


def _unique_rows(codes, sizes):
    """Distinct rows of a code matrix, in lexicographic order, and the inverse."""
    if np.prod(np.asarray(sizes, dtype=float)) < 2.0**62:
        keys = np.ravel_multi_index(codes.T, sizes) if len(codes) else codes[:, 0]
        unique_keys, inverse = np.unique(keys, return_inverse=True)
        unique = np.column_stack(np.unravel_index(unique_keys, sizes)).astype(np.intp)
        return unique.reshape(len(unique_keys), len(sizes)), inverse.ravel()
    unique, inverse = np.unique(codes, axis=0, return_inverse=True)
    return unique.astype(np.intp), inverse.ravel()


class _Counter(BaseEstimator):
    """What :func:`column_tables` validates X against (names and width)."""


def column_tables(
    X, y=None, sample_weight=None, *, categorical_features="from_dtype", joint=None,
    max_values=None, target_type="auto", n_jobs=None,
):  # fmt: skip
    """Count the contingency table of every column of X against y.

    Stage 1 of every partikit fit, as an object that adds up: the tables of
    row chunks summed are the tables of all their rows. Fit a transformer
    from them with its ``fit_tables`` method (``fit`` is
    ``fit_tables(column_tables(X, y, sample_weight))``); build them by chunks,
    in other processes or on a cluster, and add them with ``+``.

    Read more in the :ref:`User Guide <large_data>`.

    Parameters
    ----------
    X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
        The columns; NaN, None and ``pd.NA`` are missing values (the last row
        of each table).
    y : array-like of shape (n_samples,), default=None
        Class labels, or the values of a continuous target (each table then
        holds the weight, the sum and the sum of squares of the target of
        each value); None counts the rows only (one count column), which an
        unsupervised :class:`~partikit.groupers.AttributeAggregator` needs.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights; rows of zero weight add nothing (their categories,
        values and classes are not counted), as in a fit.
    categorical_features : "from_dtype", "all", array-like of int, str or bool, \
            or None, default="from_dtype"
        Which columns are counted as categorical (categories x classes), the
        others as numeric (distinct values x classes). ``"from_dtype"``: as
        :class:`~partikit.tree.PartitionTreeClassifier` decides (for a
        DataFrame, the object, ``category``, string and bool columns);
        ``"all"``: every column (a grouper groups integer columns too); None:
        none (for a discretizer).
    joint : list of lists of str or int, default=None
        Sets of categorical columns whose joint table (the table of their value
        combinations, :class:`JointTable`) is counted too: what an
        :class:`~partikit.groupers.AttributeAggregator` learns its aggregates
        from.
    max_values : int or None, default=None
        Cap on the rows of a numeric column's table. None (the default): every
        distinct value has its row, exactly, whatever their number. An int (at
        least 2): a column with more distinct values has them pooled into at
        most ``max_values`` rows of adjacent values, each keeping its least and
        greatest value and its exact class counts, so a cut can still fall
        between any two rows, at the threshold an exact table gives there
        (see :class:`ColumnTables`, Notes, for the error and the sums). The
        tables then stay small however many rows are counted and added.
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The kind of ``y``, as scikit-learn's ``TargetEncoder`` takes it.
        ``"auto"``: floats that are not all integers are a continuous target,
        anything else class labels (``type_of_target``); say ``"continuous"``
        for a numeric target of integers (prices, counts).
    n_jobs : int or None, default=None
        Columns counted in parallel (threads); None means 1.

    Returns
    -------
    tables : ColumnTables
        The tables of every column (and of the ``joint`` sets).

    Examples
    --------
    >>> import pandas as pd
    >>> from partikit import column_tables
    >>> from partikit.groupers import KhiopsGrouper
    >>> X = pd.DataFrame({"city": ["a", "b", "a", "c"] * 25})
    >>> y = [0, 1, 0, 1] * 25
    >>> tables = column_tables(X[:50], y[:50]) + column_tables(X[50:], y[50:])
    >>> tables.tables[0]
    array([[50.,  0.],
           [ 0., 25.],
           [ 0., 25.],
           [ 0.,  0.]])
    >>> KhiopsGrouper().fit_tables(tables).groups_[0]
    [array(['a'], dtype=object), array(['b', 'c'], dtype=object)]
    """
    max_values = _check_max_values(max_values)
    counter = _Counter()
    columns = check_categorical_X(counter, X, reset=True)
    names = [str(name) for name in getattr(counter, "feature_names_in_", [])] or [
        f"x{j}" for j in range(len(columns))
    ]
    n_samples = len(columns[0])
    if y is not None:
        y_size = np.asarray(y).shape[0] if np.ndim(y) else -1
        if y_size != n_samples:
            raise ValueError(
                f"X has {n_samples} rows but y has {np.size(y)}: they must have the "
                "same number of samples."
            )
    sample_weight = check_sample_weight(sample_weight, n_samples)
    if y is None:
        y_codes, classes, kind = np.zeros(n_samples, dtype=np.intp), None, None
    else:
        y_codes, classes, kind = check_target(
            y, sample_weight, target_type=target_type, min_classes=1
        )
    mask = categorical_mask(categorical_features, columns, names)
    return count_tables(
        columns, names, hasattr(counter, "feature_names_in_"), y_codes, classes,
        sample_weight, mask, joint=joint, max_values=max_values, n_jobs=n_jobs,
        target_type=kind,
    )  # fmt: skip


def count_tables(
    columns, names, has_feature_names, y_codes, classes, sample_weight, mask, *,
    joint=None, max_values=None, n_jobs=None, target_type=None,
):  # fmt: skip
    """The :class:`ColumnTables` of checked columns and target.

    What :func:`column_tables` and every transformer's ``fit`` do once they
    have checked X, y and ``sample_weight``.

    Parameters
    ----------
    columns : list
        As :func:`~partikit._counting._validation.check_categorical_X` returns them (or
        the float64 columns of :func:`~partikit._counting._validation.check_numeric_X`).
    names : list of str
    has_feature_names : bool
    y_codes : ndarray of intp or float64 of shape (n_samples,)
        Class indices; the target's values (float64) for a continuous target.
    classes : ndarray or None
        None: no target (``y_codes`` all 0, one count column) or a continuous
        one.
    sample_weight : ndarray of float64 of shape (n_samples,) or None
    mask : ndarray of bool of shape (n_features,)
        The categorical columns.
    joint : list of lists of str or int, default=None
    max_values : int or None, default=None
        Checked (at least 2); numeric columns with more distinct values are
        pooled (:func:`pool_values`).
    n_jobs : int or None, default=None
    target_type : {"binary", "multiclass", "continuous"} or None, default=None
        None: guessed from ``classes`` (no target when it is None).

    Returns
    -------
    tables : ColumnTables
    """
    if target_type == CONTINUOUS:
        n_classes = N_MOMENTS
    else:
        n_classes = 1 if classes is None else len(classes)
    # one budget for every table of the fit, reserved before each is made
    budget = TableBudget(n_classes)
    _check_planned_sizes(columns, names, mask, n_classes, len(y_codes), max_values)
    # numeric class tables are pooled while counted, before a table of every
    # distinct value is made; moment tables (3 columns) after
    pool_early = None if target_type == CONTINUOUS else max_values
    arguments = [
        (
            columns[j],
            names[j],
            bool(mask[j]),
            y_codes,
            sample_weight,
            n_classes,
            pool_early,
            budget,
        )  # fmt: skip
        for j in range(len(columns))
    ]
    if n_jobs is None or n_jobs == 1 or len(columns) == 1:
        counted = [_count_column(*args) for args in arguments]
    else:
        counted = Parallel(n_jobs=n_jobs, prefer="threads")(
            delayed(_count_column)(*args) for args in arguments
        )
    joint_tables = {}
    for given in joint or []:
        members = tuple(sorted({_column_position(key, names) for key in given}))
        not_categorical = [names[j] for j in members if not mask[j]]
        if not_categorical:
            raise ValueError(
                f"joint names the numeric columns {not_categorical}; a joint table "
                "combines categorical columns (list them in categorical_features)."
            )
        joint_tables[members] = count_joint(
            [columns[j] for j in members], [names[j] for j in members], members,
            y_codes, sample_weight, n_classes, budget,
        )  # fmt: skip
    tables = ColumnTables(
        feature_names=names,
        has_feature_names=has_feature_names,
        classes=classes,
        kinds=[CATEGORICAL if m else NUMERIC for m in mask],
        values=[c[0] for c in counted],
        tables=[c[1] for c in counted],
        value_kinds=[c[2] for c in counted],
        ordered_categories=[_ordered_categories(c) for c in columns],
        joint=joint_tables,
        upper_values=[c[3] for c in counted],
        target_type=target_type,
    )
    return tables.pool(max_values)


def _check_planned_sizes(columns, names, mask, n_classes, n_samples, max_values):
    """Raise a ``TableSizeError`` before any table is made when they all would
    pass the fit's budget.

    The tables are reserved as they are counted, so that at most the budget
    is allocated before a refusal; when their largest possible sizes (a row
    per sample, or per pooled row) could pass it, each column's distinct
    values are counted first (a hash count, no table), and a fit whose
    tables pass the budget is refused before it allocates any.
    """
    limit = TableBudget(n_classes).cells
    # every column's size first, so that the message names them all
    budget = TableBudget(n_classes, cells=np.iinfo(np.int64).max)

    def bound(j):
        rows = n_samples
        if not mask[j] and max_values is not None:
            rows = min(rows, max_values)
        return rows + 1

    if sum(bound(j) for j in range(len(columns))) * n_classes <= limit:
        return
    for j, column in enumerate(columns):
        try:
            distinct = pd.Series(column, copy=False).nunique(dropna=True)
        except Exception:  # noqa: BLE001
            # values pandas cannot hash or count: the checks of the counting
            # raise what is wrong, or the table is reserved when counted
            continue
        if not mask[j] and max_values is not None:
            distinct = min(distinct, max_values)
        budget.reserve(distinct + 1, names[j], numeric=not mask[j])
    if budget.used > limit:
        raise table_size_error(budget.sizes, n_classes, budget.used, limit)


def _count_column(
    column, name, categorical, y_codes, sample_weight, n_classes, max_values, budget
):
    """(values, table, value kind, upper values or None) of one column."""
    if categorical:
        categories, kind, table = count_categorical(
            column, name, y_codes, sample_weight, n_classes, budget
        )
        # only the categories of positive weight: those of zero weight, and the
        # integers of a counted range absent from the column, are no categories
        seen = table[:-1].any(axis=1)
        if not seen.all():
            categories = categories[seen]
            table = table[np.append(seen, True)]
        return categories, table, kind, None
    values, table, upper = count_numeric(
        numeric_values(column, name), y_codes, sample_weight, n_classes, name,
        max_values=max_values, budget=budget,
    )  # fmt: skip
    return values, table, None, upper


def count_joint(
    columns, names, members, y_codes, sample_weight, n_classes, budget=None
):
    """The :class:`JointTable` of some columns."""
    values, kinds, codes = [], [], []
    for column, name in zip(columns, names, strict=True):
        factorized = factorize_column(column, name)
        row_codes = factorized.lookup[np.asarray(factorized.raw_codes) + 1]
        n_values = len(factorized.categories)
        # missing (-1) last
        codes.append(np.where(row_codes < 0, n_values, row_codes))
        values.append(factorized.categories)
        kinds.append(factorized.kind)
    sizes = [len(v) + 1 for v in values]
    unique, inverse = _unique_rows(np.column_stack(codes), sizes)
    check_table_size(len(unique), n_classes, " x ".join(names), budget)
    table = build_table(inverse, y_codes, sample_weight, len(unique), n_classes)
    return JointTable(members, values, kinds, unique, table)


def _column_position(key, names):
    if isinstance(key, str):
        if key in names:
            return names.index(key)
    elif isinstance(key, (int, np.integer)) and 0 <= key < len(names):
        return int(key)
    raise ValueError(f"joint names column {key!r}, which is not a column of X.")


def _ordered_categories(column):
    dtype = getattr(column, "dtype", None)
    if isinstance(dtype, pd.CategoricalDtype) and dtype.ordered:
        return np.asarray(dtype.categories)
    return None
