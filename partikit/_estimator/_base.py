# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""BasePartitioner: the fit that the groupers and the discretizers share (private).

A grouper and a discretizer fit alike: count the table of every column
(stage 1, :class:`~partikit.ColumnTables`), then partition each column's table
on its own (stage 2). This class holds that fit once; the two base classes
above it say how a column is counted and checked (``_count``), how one
column's table is partitioned (``_fit_column``) and which fitted attributes
the columns' results make (``_set_fitted``).
"""

from __future__ import annotations

from abc import abstractmethod
from numbers import Integral

from joblib import effective_n_jobs
from sklearn.base import BaseEstimator, TransformerMixin

from partikit._compat import StrOptions, _fit_context
from partikit._counting._dask import dask_tables, estimator_counter, is_dask_collection
from partikit._counting._partial import (
    TablesMixin,
    check_classes,
    fit_lock,
    forget_chunks,
    set_input_features,
)
from partikit._counting._validation import (
    TARGET_TYPES,
    TableBudget,
    check_tables_weight,
)
from partikit._estimator._column_fit import fit_columns
from partikit._estimator._encoding import check_encoded_target, check_target_type
from partikit._estimator._inspection import PartitionInspectionMixin


class BasePartitioner(
    TablesMixin, PartitionInspectionMixin, TransformerMixin, BaseEstimator
):
    """Base class of the groupers and the discretizers: their common fit.

    ``fit``, ``fit_tables`` and ``partial_fit`` all end in :meth:`_fit_tables`,
    which sets the input features and ``classes_``, calls the hooks and fits
    every column in joblib threads (``n_jobs``). A subclass sets
    ``_table_kind`` (``"categorical"`` or ``"numeric"``: how ``fit_tables``
    expects its columns counted) and implements

    * ``_count(X, y, sample_weight, *, reset, min_classes)``: check one chunk
      of rows and count its :class:`~partikit.ColumnTables`;
    * ``_fit_column(tables, j)``: the :class:`ColumnFit` of column ``j``;
    * ``_set_fitted(fitted)``: the fitted attributes from every column's
      :class:`ColumnFit`;

    and may override ``_prepare_tables``, ``_start_fit`` and ``_check_target``.
    """

    _table_kind = None

    #: The kinds of target the class partitions from: a class that reads a
    #: continuous target (moment tables) adds "continuous" and takes a
    #: ``target_type`` parameter.
    _target_types = ("binary", "multiclass")

    #: the constraint of the ``target_type`` parameter of such a class
    _target_type_constraint = [StrOptions(set(TARGET_TYPES))]

    #: what every grouper and discretizer takes: the output, the sign of its
    #: weight of evidence, the columns fitted in parallel
    _parameter_constraints: dict = {
        "encode": [StrOptions({"ordinal", "onehot", "onehot-dense", "woe", "target"})],
        "woe_sign": [StrOptions({"event", "non_event"})],
        "n_jobs": [Integral, None],
    }

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Learn the partition of every column from the target.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns: categorical for a grouper (strings, pandas
            ``category``, integers, floats or booleans; NaN, None and ``pd.NA``
            form one missing category), numeric for a discretizer (NaN and
            ``pd.NA`` are missing values: they are left out of the cut search
            and get a bin of their own). A dask DataFrame is counted partition
            by partition where it lives, and the tables added (the same
            transformer as in memory).
        y : array-like of shape (n_samples,)
            Class labels (any type, two classes or more), or a continuous
            target for the transformers that take one (``target_type``); a
            dask Series partitioned like X when X is a dask DataFrame.
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights. Rows of zero weight are ignored, also when
            categories and classes are learned.

        Returns
        -------
        self : object
            The fitted transformer.
        """
        with fit_lock(self):
            forget_chunks(self)
            if is_dask_collection(X) or is_dask_collection(y):
                counter = estimator_counter(self)
                return self._fit_tables(dask_tables(X, y, sample_weight, counter))
            tables = self._count(X, y, sample_weight, reset=True, min_classes=2)
            return self._fit_tables(tables)

    @abstractmethod
    def _count(self, X, y, sample_weight, *, reset, min_classes):
        """The :class:`ColumnTables` of a checked (X, y, sample_weight)."""

    @abstractmethod
    def _fit_column(self, tables, j):
        """The :class:`ColumnFit` of column ``j`` of ``tables``."""

    @abstractmethod
    def _set_fitted(self, fitted):
        """Set the fitted attributes from every column's :class:`ColumnFit`."""

    def _prepare_tables(self, tables):
        """The tables the columns are fitted on (checked, classes of two or more)."""
        return tables

    def _start_fit(self):
        """Prepare one fit, once the input features are known.

        Subclasses check here the parameters that name columns and resolve the
        state shared by all columns of this fit (e.g. random seeds).
        """

    def _check_target(self):
        """Raise unless the parameters suit the target of this fit
        (``target_type_``, ``classes_``): ``encode="woe"`` needs a binary
        target, ``encode="target"`` a binary or a continuous one."""
        check_encoded_target(self.encode, self.target_type_)

    def _target_type_in(self):
        """``target_type`` as the parameter says it ("auto" when the class has none)."""
        return getattr(self, "target_type", "auto")

    def _working_cells(self, n_values, n_classes):
        """Float64 cells of the dense arrays stage 2 makes for one column.

        None beyond the table by default: a discretizer reduces the table to
        its boundary points before its dense work (MDLPDiscretizer on tables
        of 1.9 GB grew by their size alone). A class making more says so
        here: a grouper's copy of the table (profiles, pair statistics), its
        pairwise matrix.
        """
        return 0

    def _check_budget(self, tables):
        """Raise a ``TableSizeError`` before stage 2 passes the fit's budget.

        The tables (counted, or added from chunks and partitions) and the
        working arrays of the columns fitted at once (``n_jobs`` of them, the
        largest) together, against ``MAX_FIT_CELLS``.
        """
        budget = TableBudget(tables.n_classes)
        working = []
        for j, table in enumerate(tables.tables):
            name = str(tables.feature_names[j])
            budget.reserve(len(table), name, numeric=tables.kinds[j] == "numeric")
            working.append((self._working_cells(len(table), tables.n_classes), name))
        for members, joint in tables.joint.items():
            names = " x ".join(str(tables.feature_names[m]) for m in members)
            budget.reserve(len(joint.table), names)
        at_once = min(effective_n_jobs(self.n_jobs), len(working))
        for cells, name in sorted(working, reverse=True)[:at_once]:
            budget.reserve(0, name, extra=cells, what="stage 2's working arrays")

    def _fit_tables(self, tables, stacklevel=4):
        """Fit from tables whose columns and names are already checked.

        ``stacklevel`` of a warning raised here: 4 when a public method calls
        this one (this method, the public one and its ``_fit_context`` wrapper
        before the caller); the columns' warnings, raised by ``fit_columns``,
        are one level deeper.
        """
        set_input_features(self, tables)
        check_target_type(self, tables.target_type, self._target_type_in())
        check_classes(tables)
        # (partial_fit's chunks, a dask frame's partitions and a sum of tables
        # were each checked, not their sum)
        check_tables_weight(tables)
        tables = self._prepare_tables(tables)
        self._check_budget(tables)
        self._start_fit()
        self.target_type_ = tables.target_type
        if tables.classes is None:
            self.__dict__.pop("classes_", None)
        else:
            self.classes_ = tables.classes
        self._check_target()
        fitted = fit_columns(
            self._fit_column,
            ((tables, j) for j in range(tables.n_features)),
            self.n_jobs,
            stacklevel=stacklevel + 1,
        )
        self._set_fitted(fitted)
        return self
