# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""BaseDiscretizer: everything a supervised discretizer does besides its algorithm."""

from __future__ import annotations

import copy
import warnings
from abc import abstractmethod
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from partikit._compat import Interval, RealNotInt, StrOptions, _check_feature_names_in
from partikit._counting._column_tables import NUMERIC, count_tables
from partikit._counting._dask import dask_aware
from partikit._counting._validation import (
    check_lengths,
    check_numeric_X,
    check_sample_weight,
    check_target,
    feature_name,
)
from partikit._estimator._base import BasePartitioner
from partikit._estimator._column_fit import ColumnContext, ColumnFit
from partikit._estimator._encoding import (
    check_target_type,
    onehot,
    part_value_columns,
    target_encodings,
)
from partikit._estimator._inspection import ColumnParts, interval_labels
from partikit._kernels._multisplit import segment_sums
from partikit._statistics._contingency import check_table, midpoints
from partikit._statistics._measures import weight_of_evidence
from partikit._statistics._moments import check_moment_table, part_weights
from partikit._statistics._results import Intervals
from partikit.discretizers._specials import (
    applied_trend,
    attach_missing,
    check_special_codes,
    part_levels,
)

#: The values of ``monotonic_trend`` (optbinning's names), None excepted.
MONOTONIC_TRENDS = ("ascending", "descending", "peak", "valley", "auto")


class _SpecialLookup:
    """Which values are special codes, and of which special part.

    ``codes``: one array of values per special part. The values are sorted
    once, so that a column is looked up by one binary search.
    """

    def __init__(self, codes):
        flat = np.concatenate(codes)
        part_of_code = np.repeat(np.arange(len(codes)), [len(c) for c in codes])
        order = np.argsort(flat)
        self.codes, self.part_of_code = flat[order], part_of_code[order]

    def find(self, values):
        """A mask of the special values, and the part of each of them."""
        position = np.searchsorted(self.codes, values, side="left")
        clipped = np.minimum(position, len(self.codes) - 1)
        special = (position < len(self.codes)) & (self.codes[clipped] == values)
        return special, self.part_of_code[clipped[special]]


def _pooling_statistics(lower, upper, table, target_type=None):
    """What pooling did to a column's value table (``statistics_`` entries)."""
    several = upper > lower
    weights = part_weights(table, target_type)
    total = weights.sum()
    largest = weights[several].max() if several.any() else 0.0
    return {
        "pooled_rows": int(several.sum()),
        "max_pooled_share": float(largest / total) if total > 0 else 0.0,
    }


@dask_aware
class BaseDiscretizer(BasePartitioner):
    """Base class of partikit's supervised discretizers.

    A discretizer learns, for each numeric column, cut points from a
    classification target, and encodes the column by the interval each value
    falls in. Subclasses implement only :meth:`_cut_table`, a call to a pure
    function on the column's value table (distinct values x classes, in value
    order).

    Parameters
    ----------
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output: bin ids as float64; one-hot of the bins (sparse CSR or dense);
        or the weight of evidence of each bin, the missing bin included (binary
        targets only; the groupers' formula on the bins' class counts).
        ``"target"``: the bin's mean target, shrunk toward the overall mean
        as ``TargetEncoder(smooth="auto")`` shrinks a category's (continuous
        and binary targets; for a binary one, the mean of the second class).
    woe_sign : {"event", "non_event"}, default="event"
        Sign of the weight of evidence: ``"event"`` is positive where the second
        class of ``classes_`` is over-represented; ``"non_event"`` is its
        opposite, the sign of optbinning and credit scorecards.
    n_jobs : int or None, default=None
        Columns fitted in parallel (threads); None means 1, -1 all processors.
    max_values : int or None, default=None
        Cap on the rows of a column's value table: past it, adjacent values are
        pooled (:func:`~partikit.column_tables`). None: exact.
    """

    _table_kind = NUMERIC

    _parameter_constraints: dict = {
        **BasePartitioner._parameter_constraints,
        "max_values": [Interval(Integral, 2, None, closed="left"), None],
        "monotonic_trend": [StrOptions(set(MONOTONIC_TRENDS)), None],
        # one set of values for the four discretizers (docs/vocabulary.rst):
        # "auto" is the method's own minimum (KhiopsDiscretizer's frequency
        # phase; none for the others), 0 and None no minimum
        "min_bin_size": [
            StrOptions({"auto"}),
            Interval(Integral, 0, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="neither"),
            None,
        ],
        "max_bin_size": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
            None,
        ],
        "min_bin_n_event": [Interval(Real, 0, None, closed="neither"), None],
        "min_bin_n_nonevent": [Interval(Real, 0, None, closed="neither"), None],
        "special_codes": ["array-like", dict, None],
        "missing": [StrOptions({"separate", "attach"})],
    }

    @abstractmethod
    def __init__(
        self,
        *,
        encode="ordinal",
        woe_sign="event",
        n_jobs=None,
        max_values=None,
        monotonic_trend=None,
        min_bin_size=None,
        max_bin_size=None,
        min_bin_n_event=None,
        min_bin_n_nonevent=None,
        special_codes=None,
        missing="separate",
    ):
        self.encode = encode
        self.woe_sign = woe_sign
        self.n_jobs = n_jobs
        self.max_values = max_values
        self.monotonic_trend = monotonic_trend
        self.min_bin_size = min_bin_size
        self.max_bin_size = max_bin_size
        self.min_bin_n_event = min_bin_n_event
        self.min_bin_n_nonevent = min_bin_n_nonevent
        self.special_codes = special_codes
        self.missing = missing

    @abstractmethod
    def _cut_table(self, table, context):
        """Cut one column's value table; returns an :class:`Intervals`.

        ``table`` has one row per distinct value (at least 2), in value order;
        ``context`` is the column's :class:`ColumnContext` in ``fit``, None for
        a table given to :meth:`cut_table`.
        """

    def cut_table(self, table, *, target_type=None):
        """Cut one value table into intervals with this discretizer's parameters.

        The pure core call that ``fit`` makes on each column's value table, on a
        table built elsewhere: :class:`~partikit.tree.PartitionTreeClassifier`
        calls it on the value table of each node (``numeric_split=<a
        discretizer>``). The discretizer need not be fitted and is not changed.

        Parameters
        ----------
        table : array-like of shape (n_values, n_classes)
            Class counts (weighted) of each distinct value, in increasing value
            order, no empty row. For a continuous target, the moments of each
            distinct value: its weight, the sum and the sum of squares of its
            target values (shape ``(n_values, 3)``).
        target_type : {None, "continuous"}, default=None
            ``"continuous"``: ``table`` is a table of moments (a discretizer
            whose ``target_type`` parameter takes ``"continuous"``); None: class
            counts.

        Returns
        -------
        result : Intervals
            ``cuts``: the cut positions (number of table rows before each cut,
            increasing); ``n_bins``: the number of intervals (0 for an empty
            table); ``criterion``: the value the method optimises (larger is
            better; 0 for a table of fewer than two rows), defined by the
            discretizer's core; ``statistics``: the algorithm's figures.
        """
        self._validate_params()
        if target_type is None:
            table = check_table(table)
        else:
            check_target_type(self, target_type)
            table = check_moment_table(table)
        if table.shape[0] < 2:
            return Intervals.from_cuts([], table.shape[0], 0.0)
        # the kind of table is the one named here, also for a fitted
        # discretizer: a copy reads it (the discretizer itself is not changed)
        reader = copy.copy(self)
        reader.target_type_ = target_type
        result = reader._cut_table(table, None)
        message = result.statistics.pop("warning", None)
        if message is not None:
            warnings.warn(message, UserWarning, stacklevel=2)
        return result

    def _end_fit(self):
        """Set subclass-specific fitted attributes once every column is fitted."""

    def _count(self, X, y, sample_weight, *, reset, min_classes):
        """The :class:`ColumnTables` of a checked (X, y, sample_weight)."""
        X = check_numeric_X(self, X, reset=reset)
        check_lengths(self, [X], y, sample_weight)
        sample_weight = check_sample_weight(sample_weight, X.shape[0])
        y_codes, classes, target_type = check_target(
            y, sample_weight, target_type=self._target_type_in(),
            min_classes=min_classes,
        )  # fmt: skip
        check_target_type(self, target_type)
        names = [feature_name(self, j) for j in range(X.shape[1])]
        # a special value must never share a pooled row with its neighbours:
        # with special codes the tables are counted exact, and pooled to
        # max_values once the special rows are out (_prepare_tables)
        specials = check_special_codes(self.special_codes)[0]
        return count_tables(
            [X[:, j] for j in range(X.shape[1])], names,
            hasattr(self, "feature_names_in_"), y_codes, classes, sample_weight,
            np.zeros(X.shape[1], dtype=bool),
            max_values=None if specials else self.max_values,
            n_jobs=self.n_jobs, target_type=target_type,
        )  # fmt: skip

    def _prepare_tables(self, tables):
        names, codes = check_special_codes(self.special_codes)
        # the special parts of this fit (transform reads these, not the
        # parameter, which may change after fit)
        self._special_names, self._special_values = names, codes
        if names:
            tables = self._take_out_specials(tables, codes)
        # tables counted with a larger cap, or none, are pooled to this one
        return tables.pool(self.max_values)

    def _take_out_specials(self, tables, codes):
        """The tables without the rows of special values, whose class counts
        (one row per special part, per column) are kept for ``_fit_column``."""
        lookup = _SpecialLookup(codes)
        flat = lookup.codes
        values, counted, uppers, special_tables = [], [], [], []
        for j in range(tables.n_features):
            column_values, table = tables.values[j], tables.tables[j]
            upper = tables.upper_values[j]
            if upper is not None:
                position = np.searchsorted(flat, column_values, side="left")
                inside = (position < len(flat)) & (
                    flat[np.minimum(position, len(flat) - 1)] <= upper
                )
                pooled = inside & (upper > column_values)
                if pooled.any():
                    raise ValueError(
                        f"Feature {str(tables.feature_names[j])!r}: a special code "
                        "lies in a row of the value table that pools several "
                        "values (the tables were counted with max_values), so its "
                        "rows cannot be kept apart. Count the tables with "
                        "max_values=None and give the discretizer max_values: it "
                        "pools them once the special values are out."
                    )
            special, parts = lookup.find(column_values)
            counts = np.zeros((len(codes), table.shape[1]))
            np.add.at(counts, parts, table[:-1][special])
            kept = np.append(~special, True)  # the missing row stays last
            values.append(column_values[~special])
            counted.append(table[kept])
            special_tables.append(counts)
            uppers.append(None if upper is None else upper[~special])
        # a copy: the caller's tables (fit_tables) are left as they were
        tables = copy.copy(tables)
        tables.values, tables.tables, tables.upper_values = values, counted, uppers
        self._special_tables = special_tables
        return tables

    def _set_fitted(self, fitted):
        self.bin_edges_ = np.empty(len(fitted), dtype=object)
        for j, f in enumerate(fitted):
            self.bin_edges_[j] = f.bin_edges
        self.n_bins_ = np.array([len(f.bin_edges) - 1 for f in fitted], dtype=np.intp)
        self.missing_bin_ = np.array(
            [n if f.missing_bin < 0 else f.missing_bin
             for n, f in zip(self.n_bins_, fitted, strict=True)],
            dtype=np.intp,
        )  # fmt: skip
        self.table_ = [f.table for f in fitted]
        self.statistics_ = [f.statistics for f in fitted]
        self._n_values = np.array([f.n_values for f in fitted], dtype=np.intp)
        # the special parts follow the intervals and the missing bin, if apart
        n_special = len(self._specials()[0])
        first = np.array([len(t) - n_special for t in self.table_], dtype=np.intp)
        self.special_bins_ = first[:, None] + np.arange(n_special, dtype=np.intp)
        self.__dict__.pop("_special_tables", None)
        if self.encode == "woe":
            # the groupers' formula on the bins' table: the missing bin and
            # the special parts get their weight of evidence too, 0 when fit
            # saw none of their values (no evidence either way)
            self.woe_ = [weight_of_evidence(t, sign=self.woe_sign) for t in self.table_]
        if self.encode == "target":
            # the missing bin's and the special parts' too: the overall mean
            # when fit saw none of their values (an empty part)
            self.encodings_ = [
                target_encodings(t, self.target_type_) for t in self.table_
            ]
        self._end_fit()

    def _special_rows(self, tables, j):
        """The class counts (moments) of column ``j``'s special parts."""
        n_columns = tables.tables[j].shape[1]
        special_tables = getattr(self, "_special_tables", None)
        if special_tables is None:
            return np.zeros((0, n_columns))
        return special_tables[j]

    def _fit_column(self, tables, j):
        values, table = tables.values[j], tables.tables[j]
        upper = tables.upper_values[j]
        name = feature_name(self, j)
        missing_row = table[-1]
        specials = self._special_rows(tables, j)
        # (rows of zero weight add no value to a column's table: every row has
        # weight)
        table = table[:-1]
        messages = []
        if len(values) == 0:
            besides = "special values and missing" if len(specials) else "missing"
            messages.append(
                f"Feature {name!r} has only {besides} values; it is encoded as "
                "one bin (and the missing bin)."
            )
            edges = np.array([-np.inf, np.inf])
            return self._column_fit(
                np.zeros((1, table.shape[1])), missing_row, specials, {},
                messages, edges, 0, name, tables.target_type,
            )  # fmt: skip
        if len(values) == 1 and (upper is None or upper[0] == values[0]):
            messages.append(
                f"Feature {name!r} has a single value {float(values[0])!r}; it is "
                "encoded as one bin."
            )
            result = Intervals.from_cuts([], 1, 0.0)
        elif len(values) == 1:
            result = Intervals.from_cuts([], 1, 0.0)
        else:
            result = self._cut_table(table, ColumnContext(j, name, values=values))
        cuts = np.asarray(result.cuts, dtype=np.intp)
        if upper is None:
            edges = np.concatenate([[values[0]], midpoints(values, cuts), [values[-1]]])
        else:
            # a cut between pooled rows: halfway between the greatest value
            # before it and the least after it, as an exact table would cut
            # between those two (consecutive) values
            edges = np.concatenate(
                [[values[0]], upper[cuts - 1] / 2 + values[cuts] / 2, [upper[-1]]]
            )
            result.statistics.update(
                _pooling_statistics(values, upper, table, tables.target_type)
            )
        binned = segment_sums(table, np.concatenate([[0], cuts]).astype(np.intp))
        message = result.statistics.pop("warning", None)
        if message is not None:
            messages.append(f"Feature {name!r}: {message}")
        return self._column_fit(
            binned, missing_row, specials, result.statistics, messages, edges,
            len(values), name, tables.target_type,
        )  # fmt: skip

    def _column_fit(
        self, binned, missing_row, specials, statistics, messages, edges,
        n_values, name, target_type,
    ):  # fmt: skip
        """The :class:`ColumnFit` of a column cut into ``binned``: its table
        (the intervals, the missing bin unless attached, the special parts)
        and where its missing values go (``missing``)."""
        if self.missing == "separate":
            return ColumnFit(
                table=np.vstack([binned, missing_row, specials]),
                statistics=statistics,
                warnings=tuple(messages),
                bin_edges=edges,
                n_values=n_values,
            )
        trend = None
        if target_type != "multiclass":
            trend = applied_trend(
                part_levels(binned, target_type),
                self.monotonic_trend,
                statistics.get("monotonic_trend"),
            )
        attached, rule = attach_missing(
            binned, missing_row, specials, target_type=target_type, trend=trend
        )
        missing_weight = float(part_weights(missing_row[None], target_type)[0])
        statistics = {
            **statistics,
            "missing_bin": attached,
            "missing_rule": rule,
            "missing_weight": missing_weight,
        }
        if attached < 0:
            messages.append(
                f"Feature {name!r}: missing='attach' keeps the missing values "
                f"apart: joining any interval would break the {trend} trend of "
                "the intervals."
            )
            return ColumnFit(
                table=np.vstack([binned, missing_row, specials]),
                statistics={**statistics, "missing_bin": len(binned)},
                warnings=tuple(messages),
                bin_edges=edges,
                n_values=n_values,
            )
        binned = binned.copy()
        binned[attached] += missing_row
        return ColumnFit(
            table=np.vstack([binned, specials]),
            statistics=statistics,
            warnings=tuple(messages),
            bin_edges=edges,
            n_values=n_values,
            missing_bin=attached,
        )

    def _specials(self):
        """The names and the values of the special parts of the fit."""
        return (
            getattr(self, "_special_names", []),
            getattr(self, "_special_values", []),
        )

    def _missing_apart(self):
        """Per feature: whether its missing values have a bin of their own."""
        return self.missing_bin_ == self.n_bins_

    def _has_missing_column(self):
        """Per feature: whether one-hot gives its missing bin a column (a bin
        of its own that fit saw values in)."""
        return np.array(
            [apart and t[n].sum() > 0
             for apart, t, n in zip(
                 self._missing_apart(), self.table_, self.n_bins_, strict=True)],
            dtype=bool,
        )  # fmt: skip

    def _column_parts(self, j, max_members):
        """Column ``j``'s parts as inspection reads them: the intervals, the
        missing bin (unless attached to one), the special parts."""
        n_bins = int(self.n_bins_[j])
        n_parts = len(self.table_[j])
        labels = interval_labels(self.bin_edges_[j][1:-1])
        missing = np.zeros(n_parts, dtype=bool)
        missing[self.missing_bin_[j]] = True
        if self._missing_apart()[j]:
            labels.append("missing")
        else:
            labels[self.missing_bin_[j]] += " + missing"
        labels.extend(self._specials()[0])
        special = None
        if self.special_bins_.shape[1]:
            # the column ``special`` of partition_table, with special parts only
            special = np.zeros(n_parts, dtype=bool)
            special[self.special_bins_[j]] = True
        searched = np.zeros(n_parts, dtype=bool)
        searched[:n_bins] = True
        return ColumnParts(
            kind="numeric",
            n_values=int(self._n_values[j]),
            labels=labels,
            table=self.table_[j],
            missing=missing,
            unknown=np.zeros(n_parts, dtype=bool),
            special=special,
            searched=searched,
        )

    def _bin_codes(self, X):
        codes = np.empty(X.shape, dtype=np.intp)
        values = self._specials()[1]
        lookup = _SpecialLookup(values) if values else None
        for j in range(X.shape[1]):
            inner = self.bin_edges_[j][1:-1]
            # t_{m-1} < x <= t_m goes to bin m; NaN sorts last and is then replaced.
            codes[:, j] = np.searchsorted(inner, X[:, j], side="left")
            codes[np.isnan(X[:, j]), j] = self.missing_bin_[j]
            if lookup is not None:
                special, parts = lookup.find(X[:, j])
                codes[special, j] = self.special_bins_[j][parts]
        return codes

    def _onehot_columns(self):
        """Per feature, the output column of each part (-1: none) and the
        number of columns: every interval, the missing bin when apart and
        seen in fit, every special part."""
        columns, n_columns = [], []
        for j, missing_column in enumerate(self._has_missing_column()):
            keep = np.ones(len(self.table_[j]), dtype=bool)
            if self._missing_apart()[j] and not missing_column:
                keep[self.n_bins_[j]] = False
            column = np.full(len(keep), -1, dtype=np.intp)
            column[keep] = np.arange(keep.sum())
            columns.append(column)
            n_columns.append(int(keep.sum()))
        return columns, np.array(n_columns, dtype=np.intp)

    def transform(self, X):
        """Encode every column by its bins.

        Values below the first or above the last cut go to the end bins, also
        when they lie outside the training range. NaN goes to ``missing_bin_``
        (its own bin, or with ``missing="attach"`` an interval); a special
        value (``special_codes``) to its special part (``special_bins_``),
        also when fit saw none of its rows.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            Same columns as in fit.

        Returns
        -------
        X_out : ndarray or sparse matrix
            ``encode="ordinal"``: float64 bin ids of shape (n_samples,
            n_features), the missing bin being ``n_bins_[j]``; ``"woe"``: the
            bins' weight of evidence, same shape (a missing value gets the
            missing bin's, 0 when fit saw no missing value); ``"onehot"``
            (CSR) / ``"onehot-dense"``: one column per bin of each feature, plus a
            missing column for features that had missing values in fit and
            keep them apart (a missing value in another feature gives a row of
            zeros in its block), plus one column per special part.
            A dask DataFrame X gives a lazy dask Array of these, chunked by
            partition (a dask DataFrame with ``set_output(transform="pandas")``).
        """
        check_is_fitted(self)
        X = check_numeric_X(self, X, reset=False)
        codes = self._bin_codes(X)
        if self.encode == "ordinal":
            return codes.astype(np.float64)
        if self.encode == "woe":
            return part_value_columns(codes, self.woe_)
        if self.encode == "target":
            return part_value_columns(codes, self.encodings_)
        columns, n_columns = self._onehot_columns()
        for j, column in enumerate(columns):
            codes[:, j] = column[codes[:, j]]
        return onehot(codes, n_columns, dense=self.encode == "onehot-dense")

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Input feature names; ``feature_names_in_`` (or ``x0, x1, ...``) if None.

        Returns
        -------
        feature_names_out : ndarray of str objects
            The input names for ``"ordinal"`` and ``"woe"``; with the one-hot
            encodings ``"{name}_b{k}"`` for bin ``k`` of each feature and
            ``"{name}_missing"`` for its missing bin when it has one, then
            ``"{name}_special"`` (``special_codes`` a list) or
            ``"{name}_{part}"`` (a dict) for each special part.
        """
        check_is_fitted(self, "n_features_in_")
        input_features = _check_feature_names_in(self, input_features)
        if self.encode in ("ordinal", "woe", "target"):
            return np.asarray(input_features, dtype=object)
        check_is_fitted(self, "n_bins_")
        names = []
        for name, n, missing in zip(
            input_features, self.n_bins_, self._has_missing_column(), strict=True
        ):
            names.extend(f"{name}_b{k}" for k in range(n))
            if missing:
                names.append(f"{name}_missing")
            names.extend(f"{name}_{special}" for special in self._specials()[0])
        return np.asarray(names, dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.target_tags.required = True
        return tags
