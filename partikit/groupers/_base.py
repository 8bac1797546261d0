# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""BaseGrouper: everything a supervised grouper does besides its algorithm."""

from __future__ import annotations

import copy
from abc import abstractmethod

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from partikit._compat import StrOptions, _check_feature_names_in
from partikit._counting._column_tables import CATEGORICAL, count_tables
from partikit._counting._dask import dask_aware
from partikit._counting._validation import (
    append_missing,
    category_lookup,
    check_categorical_X,
    check_lengths,
    check_sample_weight,
    check_target,
    factorize_column,
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
from partikit._estimator._inspection import ColumnParts, members_label
from partikit._kernels._tables import apply_lookup
from partikit._statistics._contingency import check_table, merge_rows
from partikit._statistics._measures import weight_of_evidence
from partikit._statistics._moments import check_moment_table, part_weights

#: Unseen values listed in an ``handle_unknown="error"`` message.
_MAX_UNSEEN_SHOWN = 5


def group_feature_names(input_features, encode, n_groups):
    """Output names of a grouping: the input names, or one per group.

    ``"{name}_g{k}"`` for group ``k`` of each feature with the one-hot encodings;
    the input names for ``"ordinal"``, ``"woe"`` and ``"target"``.
    """
    if encode in ("ordinal", "woe", "target"):
        return np.asarray(input_features, dtype=object)
    return np.asarray(
        [
            f"{name}_g{k}"
            for name, n in zip(input_features, n_groups, strict=True)
            for k in range(n)
        ],
        dtype=object,
    )


@dask_aware
class BaseGrouper(BasePartitioner):
    """Base class of partikit's supervised groupers.

    A grouper learns, for each categorical column, a partition of its categories
    into groups from a classification target, and encodes the column by its groups.
    Subclasses implement only :meth:`_group_table`, a call to a pure function on the
    column's contingency table (categories x classes).

    Parameters
    ----------
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output: group ids as float64; one-hot of the groups (sparse CSR or dense);
        or the weight of evidence of each group (binary targets only, computed
        from the groups' class counts with the formula of
        ``category_encoders.WOEEncoder``).
        ``"target"``: the group's mean target, shrunk toward the overall mean
        as ``TargetEncoder(smooth="auto")`` shrinks a category's (continuous
        and binary targets; for a binary one, the mean of the second class).
    woe_sign : {"event", "non_event"}, default="event"
        Sign of the weight of evidence (``encode="woe"``, the ``woe`` column of
        :meth:`partition_table`, the plots): ``"event"`` is positive where the
        second class of ``classes_`` is over-represented; ``"non_event"`` is
        its opposite, the sign of optbinning and credit scorecards.
    handle_unknown : {"default_group", "error"}, default="default_group"
        What transform does with a category not seen in fit (with positive
        weight): send it to ``default_group_``, or raise a ``ValueError``.
    n_jobs : int or None, default=None
        Columns fitted in parallel (threads); None means 1, -1 all processors.
    """

    _table_kind = CATEGORICAL

    _parameter_constraints: dict = {
        **BasePartitioner._parameter_constraints,
        "handle_unknown": [StrOptions({"default_group", "error"})],
    }

    @abstractmethod
    def __init__(
        self,
        *,
        encode="ordinal",
        woe_sign="event",
        handle_unknown="default_group",
        n_jobs=None,
    ):
        self.encode = encode
        self.woe_sign = woe_sign
        self.handle_unknown = handle_unknown
        self.n_jobs = n_jobs

    @abstractmethod
    def _group_table(self, table, context):
        """Partition the rows of one column's table (categories x classes).

        ``context`` is the column's :class:`ColumnContext` in ``fit``, None for
        a table given to :meth:`group_table` (a nominal column). Returns the
        core's :class:`~partikit._statistics._results.Grouping`.
        """

    def group_table(self, table, *, target_type=None):
        """Group the rows of one contingency table with this grouper's parameters.

        The pure core call that ``fit`` makes on each column's table, for a
        nominal column, on a table built elsewhere:
        :class:`~partikit.tree.PartitionTreeClassifier` calls it on the table of
        each node (``categorical_split=<a grouper>``), and
        :class:`~partikit.groupers.AttributeAggregator`'s search on the table of
        each candidate. The grouper need not be fitted and is not changed.

        Parameters
        ----------
        table : array-like of shape (n_categories, n_classes)
            Class counts (weighted) of each category; an empty row is a category
            absent from the table. For a continuous target, the moments of each
            category: its weight, the sum and the sum of squares of its target
            values (shape ``(n_categories, 3)``).
        target_type : {None, "continuous"}, default=None
            ``"continuous"``: ``table`` is a table of moments (a grouper whose
            ``target_type`` parameter takes ``"continuous"``); None: class
            counts.

        Returns
        -------
        result : Grouping
            The result of the grouper's core function (for instance
            :func:`~partikit.groupers.khiops_grouping`): ``group_ids`` (the group
            of each row, numbered by first row, -1 for an empty row),
            ``n_groups``, ``criterion``, the value the method optimises (a
            finite float, larger is better), ``statistics`` (dict),
            ``rare_group`` (-1 if none) and ``pooled``.
        """
        self._validate_params()
        if target_type is None:
            table = check_table(table)
        else:
            check_target_type(self, target_type)
            table = check_moment_table(table)
        # the kind of table is the one named here, also for a fitted grouper:
        # a copy reads it (the grouper itself is not changed)
        reader = copy.copy(self)
        reader.target_type_ = target_type
        return reader._group_table(table, None)

    def _column_warning(self, result, table, context):
        """Message of a ``UserWarning`` about one column's grouping, or None.

        ``result`` is what :meth:`_group_table` returned for ``table``; the
        message is raised by ``fit`` once every column is fitted.
        """
        return None

    def _category_order(self, categories, context):
        """Order of a column's categories (missing excluded) in ``categories_``.

        Returns a permutation of ``range(len(categories))``, or None to keep the
        sorted order. The missing category always stays last.
        """
        return None

    def _count(self, X, y, sample_weight, *, reset, min_classes):
        """The :class:`ColumnTables` of a checked (X, y, sample_weight)."""
        columns = check_categorical_X(self, X, reset=reset)
        check_lengths(self, columns, y, sample_weight)
        sample_weight = check_sample_weight(sample_weight, len(columns[0]))
        y_codes, classes, target_type = check_target(
            y, sample_weight, target_type=self._target_type_in(),
            min_classes=min_classes,
        )  # fmt: skip
        check_target_type(self, target_type)
        names = [feature_name(self, j) for j in range(len(columns))]
        return count_tables(
            columns, names, hasattr(self, "feature_names_in_"), y_codes, classes,
            sample_weight, np.ones(len(columns), dtype=bool), n_jobs=self.n_jobs,
            target_type=target_type,
        )  # fmt: skip

    def _set_fitted(self, fitted):
        self.categories_ = [f.categories for f in fitted]
        self.group_ids_ = [f.group_ids for f in fitted]
        self.n_groups_ = np.array([f.n_groups for f in fitted], dtype=np.intp)
        self.default_group_ = np.array([f.default_group for f in fitted], dtype=np.intp)
        self.table_ = [f.table for f in fitted]
        self.statistics_ = [f.statistics for f in fitted]
        self._kinds = [f.kind for f in fitted]
        self.groups_ = [
            [cats[ids == g] for g in range(n)]
            for cats, ids, n in zip(
                self.categories_, self.group_ids_, self.n_groups_, strict=True
            )
        ]
        if self.encode == "woe":
            self.woe_ = self._fit_woe()
        if self.encode == "target":
            self.encodings_ = [
                target_encodings(t, self.target_type_) for t in self.table_
            ]

    def _working_cells(self, n_values, n_classes):
        # the algorithms' copy of the table (Khiops's profiles, CHAID's pair
        # statistics, MODL's part counts)
        return n_values * n_classes

    def _fit_column(self, tables, j):
        name = feature_name(self, j)
        categories, kind = tables.values[j], tables.value_kinds[j]
        table, ordered = tables.tables[j], tables.ordered_categories[j]
        # Categories seen only with zero weight (or not at all) are unseen: they are
        # dropped here, so that a weight of 0 is the same as removing the row.
        present = part_weights(table, tables.target_type) > 0
        if present[:-1].all():
            # the usual case: a view, not a copy of a table of every category
            table = table if present[-1] else table[:-1]
        else:
            table = table[present]
            categories = categories[present[:-1]]
        has_missing = bool(present[-1])
        if has_missing:
            categories = append_missing(categories)
        n_known = len(categories) - has_missing
        context = ColumnContext(j, name, ordered, has_missing)
        order = self._category_order(categories[:n_known], context)
        if order is not None:
            rows = np.concatenate([order, np.arange(n_known, len(categories))])
            table = table[rows]
            categories = categories[rows]
        messages = []
        if len(categories) == 1:
            messages.append(
                f"Feature {name!r} has a single category {categories[0]!r}; it is "
                "encoded as one group."
            )
        result = self._group_table(table, context)
        message = self._column_warning(result, table, context)
        if message is not None:
            messages.append(message)
        group_ids = np.asarray(result.group_ids, dtype=np.intp)
        grouped = merge_rows(table, group_ids, result.n_groups)
        if result.rare_group >= 0:
            default_group = result.rare_group
        else:
            # The largest group; ties go to the lower group id (argmax).
            default_group = int(np.argmax(part_weights(grouped, tables.target_type)))
        return ColumnFit(
            categories=categories,
            group_ids=group_ids,
            n_groups=int(result.n_groups),
            default_group=default_group,
            table=grouped,
            statistics=result.statistics,
            kind=kind,
            warnings=tuple(messages),
        )

    def _fit_woe(self):
        """Weight of evidence of every group, from the groups' class counts.

        :func:`~partikit._statistics._measures.weight_of_evidence` of each fitted
        table, with the sign ``woe_sign``: the
        formula of ``category_encoders.WOEEncoder``, computed from the tables so
        that float frequency weights need no rebuilt rows.
        """
        return [weight_of_evidence(t, sign=self.woe_sign) for t in self.table_]

    def _column_parts(self, j, max_members):
        """Column ``j``'s groups as the inspection methods read them."""
        categories = self.categories_[j]
        has_missing = len(categories) > 0 and pd.isna(categories[-1])
        groups = self.groups_[j]
        default = int(self.default_group_[j])
        unknown = np.zeros(len(groups), dtype=bool)
        missing = np.zeros(len(groups), dtype=bool)
        if has_missing:
            missing[self.group_ids_[j][-1]] = True
        if self.handle_unknown == "default_group":
            unknown[default] = True
            # a missing value unseen in fit is an unknown category
            missing[default] |= not has_missing
        return ColumnParts(
            kind="categorical",
            n_values=len(categories),
            labels=[members_label(g, max_members) for g in groups],
            table=self.table_[j],
            missing=missing,
            unknown=unknown,
        )

    def _encode_column(self, column, j, out):
        """Write the group id of every row of column ``j`` into ``out[:, j]``."""
        name = feature_name(self, j)
        factorized = factorize_column(
            column, name, sort=False, known=self.categories_[j]
        )
        lookup = category_lookup(
            factorized, self.categories_[j], self.group_ids_[j], self._kinds[j], name
        )
        seen_values = factorized.categories
        if self.handle_unknown == "default_group":
            apply_lookup(factorized.raw_codes, lookup, out, j, self.default_group_[j])
            return
        if apply_lookup(factorized.raw_codes, lookup, out, j, -1):
            unknown_rows = lookup[factorized.raw_codes + 1] < 0
            unseen_codes = np.unique(factorized.raw_codes[unknown_rows])
            shown = [
                "nan" if c < 0 else seen_values[factorized.lookup[c + 1]]
                for c in unseen_codes[:_MAX_UNSEEN_SHOWN]
            ]
            more = len(unseen_codes) - len(shown)
            raise ValueError(
                f"Found {len(unseen_codes)} unknown categories in column {name!r} "
                f"during transform: {shown}"
                + (f" and {more} more" if more > 0 else "")
                + ". Use handle_unknown='default_group' to send them to "
                "default_group_."
            )

    def transform(self, X):
        """Encode every column by its groups.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            Same columns as in fit.

        Returns
        -------
        X_out : ndarray or sparse matrix
            ``encode="ordinal"``: float64 group ids of shape (n_samples,
            n_features); ``"woe"``: the groups' weight of evidence, same shape;
            ``"onehot"`` (CSR) / ``"onehot-dense"``: one column per group of each
            feature.
            A dask DataFrame X gives a lazy dask Array of these, chunked by
            partition (a dask DataFrame with ``set_output(transform="pandas")``).
        """
        check_is_fitted(self)
        columns = check_categorical_X(self, X, reset=False)
        groups = self._output_groups(len(columns[0]))
        for j, column in enumerate(columns):
            self._encode_column(column, j, groups)
        return self._encode_groups(groups)

    def _output_groups(self, n_samples):
        """The array of group ids that :meth:`_encode_groups` encodes."""
        dtype = np.float64 if self.encode == "ordinal" else np.intp
        return np.empty((n_samples, self.n_features_in_), dtype=dtype)

    def _encode_groups(self, groups):
        """Encode the group id of every row and column (``encode``)."""
        if self.encode == "ordinal":
            return groups
        if self.encode == "woe":
            return part_value_columns(groups, self.woe_)
        if self.encode == "target":
            return part_value_columns(groups, self.encodings_)
        return onehot(groups, self.n_groups_, dense=self.encode == "onehot-dense")

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Input feature names; ``feature_names_in_`` (or ``x0, x1, ...``) if None.

        Returns
        -------
        feature_names_out : ndarray of str objects
            The input names for ``"ordinal"`` and ``"woe"``; ``"{name}_g{k}"`` for
            group ``k`` of each feature with the one-hot encodings.
        """
        check_is_fitted(self, "n_features_in_")
        input_features = _check_feature_names_in(self, input_features)
        if self.encode not in ("ordinal", "woe", "target"):
            check_is_fitted(self, "n_groups_")
        return group_feature_names(
            input_features, self.encode, getattr(self, "n_groups_", None)
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.target_tags.required = True
        return tags
