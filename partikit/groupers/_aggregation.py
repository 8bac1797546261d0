# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""AttributeAggregator: combine columns into multi-valued attributes, then group.

Aggregating attributes replaces a few low-cardinality columns by their cartesian
product, one value per combination seen in fit. The combinations themselves are
computed in :mod:`partikit.groupers._combinations`; this module holds the
estimator and the search, which scores each candidate aggregate on its
contingency table with the scoring grouper's ``group_table``.
"""

from __future__ import annotations

import itertools
import warnings
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils.validation import check_consistent_length, check_is_fitted

from partikit._compat import (
    HasMethods,
    Interval,
    StrOptions,
    _check_feature_names_in,
    _fit_context,
)
from partikit._counting._column_tables import (
    CATEGORICAL,
    ColumnTables,
    count_joint,
    count_tables,
)
from partikit._counting._dask import (
    dask_aware,
    dask_tables,
    estimator_counter,
    is_dask_collection,
)
from partikit._counting._partial import (
    TablesMixin,
    check_classes,
    fit_lock,
    forget_chunks,
    set_input_features,
)
from partikit._counting._validation import (
    STRING_KIND,
    check_categorical_X,
    check_lengths,
    check_sample_weight,
    check_target,
    feature_name,
    sorting_order,
)
from partikit._estimator._encoding import check_target_type
from partikit._estimator._inspection import PartitionInspectionMixin
from partikit._estimator._renames import (
    DEPRECATED,
    Renamed,
    RenamedParametersMixin,
    deprecated_constraints,
)
from partikit._statistics._contingency import merge_rows
from partikit._statistics._measures import grouped_significance
from partikit._statistics._moments import CONTINUOUS, N_MOMENTS
from partikit.groupers._base import BaseGrouper, group_feature_names
from partikit.groupers._chaid import CHAIDGrouper
from partikit.groupers._combinations import (
    RARE_LABEL,
    as_array,
    codes_of_keys,
    combination_keys,
    fit_counted_aggregate,
    fit_joint_aggregate,
    is_dense,
    join_labels,
    joint_of_digits,
    level_label,
    lookup_combinations,
    member_digits,
    member_lookup,
)

#: Combinations listed in an error message.
_MAX_SHOWN = 5


# --------------------------------------------------------------------------------------
# The estimator
# --------------------------------------------------------------------------------------


@dask_aware
class AttributeAggregator(
    RenamedParametersMixin,
    TablesMixin,
    PartitionInspectionMixin,
    TransformerMixin,
    BaseEstimator,
):
    """Combine sets of columns into multi-valued attributes, optionally grouped.

    Each aggregate is the cartesian product of its member columns: one value per
    combination of member values seen in fit (a missing value in a member is a
    value of its own). Aggregates capture interactions that a decision tree or a
    linear model would otherwise need many splits or features for: five binary
    tests whose sum decides the class become one 32-valued attribute. A grouper
    then merges the combinations into a few groups, so that the output stays
    low-cardinality.

    Read more in the :ref:`User Guide <aggregation>`.

    Parameters
    ----------
    aggregates : list of lists of str or int, or None, default=None
        The columns to combine, by name (DataFrame input) or position: one
        aggregate per list, of at least two distinct columns. Aggregates may share
        columns, but not be the same set twice. None: one aggregate of all the
        columns, unless ``search`` finds the aggregates.
    grouper : partikit grouper or None, default=None
        A grouper (e.g. :class:`~partikit.groupers.KhiopsGrouper`) fitted on the
        output columns (the kept columns and the aggregates) and encoding them:
        the output is then the grouper's (its ``encode``), and combinations not
        seen in fit follow its ``handle_unknown``. None: aggregates are output as
        the codes of their combinations (``combinations_``) and the kept columns
        as they are.
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The kind of target, as scikit-learn's ``TargetEncoder`` takes it
        (``"auto"``: floats that are not all integers are continuous, anything
        else class labels). A continuous target is counted by the weight, sum
        and sum of squares of each combination; ``grouper`` must take one (for
        instance :class:`~partikit.groupers.CHAIDGrouper`), and ``search``
        tests each grouped candidate by the F-test instead of the chi-square.
    keep_original : bool, default=True
        Whether the members of the aggregates stay in the output (in front of the
        aggregates). Columns in no aggregate are always kept.
    search : {"pairs", "greedy"} or None, default=None
        Find which columns to combine instead of taking ``aggregates``, by comparing
        the significance of each grouped candidate aggregate with that of its
        parts (see Notes). ``"pairs"``: the best pairs of columns (they may share
        columns); ``"greedy"``: disjoint aggregates, each grown one column at a
        time from the best pair. Needs ``y``.
    max_order : int or None, default=None
        ``search="greedy"``: most columns in one aggregate; None: no limit other
        than the significance (and ``max_categories``).
    top_k : int or None, default=None
        ``search``: most aggregates kept, best first; None: all those that pass
        ``max_pvalue_ratio``.
    max_pvalue_ratio : float in (0, 1], default=0.05
        ``search``: a candidate aggregate is kept when its adjusted p-value is
        less than ``max_pvalue_ratio`` times that of the most significant of its
        parts, i.e. when its gain exceeds ``-log10(max_pvalue_ratio)`` decades
        (see Notes). With parts that carry no information (p-value 1), the
        candidate must be significant at level ``max_pvalue_ratio`` by itself.
    max_categories : int or None, default=10_000
        Most values of an aggregate. When more combinations are seen in fit, the
        ``max_categories - 1`` heaviest keep their own value and the others are
        pooled into one value labelled ``"<rare>"``, with a ``UserWarning``. None:
        no limit.
    separator : str, default="|"
        Joins the members' values in the readable labels of the combinations
        (``"vhigh|low"``).

    alpha : float
        The 0.1 name of ``max_pvalue_ratio``.

        .. deprecated:: 0.2
           Renamed ``max_pvalue_ratio``; ``alpha`` will be removed in 0.4.

    Attributes
    ----------
    aggregates_ : list of tuples of str
        The member names of each aggregate, in column order.
    combinations_ : list of ndarray of str objects
        For each aggregate, the readable label of each code (the members' values
        joined by ``separator``), in the lexicographic order of the members'
        sorted values (missing last); ``"<rare>"`` last when combinations were
        pooled.
    n_combinations_ : ndarray of int
        Number of values of each aggregate.
    grouper_ : grouper or None
        The fitted clone of ``grouper``; its ``groups_`` list the combinations
        (readable labels) of each group.
    search_results_ : pandas.DataFrame or None
        With ``search``: every candidate aggregate scored, one row each, with its
        ``members``, ``n_combinations``, ``n_groups``, ``log10_adjusted_pvalue``
        (its significance, grouped), ``parts_log10_adjusted_pvalue`` (the most
        significant of its parts), ``gain`` (the difference, in decades) and
        ``selected``.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit. Defined only when X has feature names
        that are all strings.

    See Also
    --------
    CHAIDGrouper : Grouping with Bonferroni-adjusted tests, the default scorer of
        ``search``.
    KhiopsGrouper : Robust grouping of the combinations.

    Notes
    -----
    **Combinations.** Every member's values are numbered in sorted order (missing
    last), and a row's combination is the mixed-radix integer of its members'
    numbers (the first member the most significant digit); the combinations seen
    with positive weight in fit are numbered in increasing key order, so the codes
    do not depend on row order. Without a grouper, a combination not seen in fit
    (or a member value not seen in fit) gets code -1.

    **Search.** A column or candidate aggregate is scored by grouping its
    contingency table (values x classes) with ``grouper.group_table`` (a default
    :class:`~partikit.groupers.CHAIDGrouper` when None), as a nominal column, and
    testing its grouped table (groups x classes) by Pearson's chi-square; the
    p-value is multiplied by CHAID's Bonferroni multiplier for a nominal predictor,
    the number of ways to partition its values into that many groups (Kass
    1980), which charges an aggregate for its many combinations. A candidate's
    ``gain`` is the log10 adjusted p-value of the most significant of its parts
    minus its own: how many decades more significant the aggregate is. A
    candidate passes when its gain exceeds ``-log10(max_pvalue_ratio)`` (1.3
    decades for ``max_pvalue_ratio=0.05``).

    ``"pairs"`` scores every pair of columns (the parts are the two columns) and
    keeps the pairs that pass, largest gain first. ``"greedy"`` takes the pair
    of largest gain, then adds the column of largest gain (the parts are the
    aggregate so far and the added column) while the candidate passes and
    ``max_order`` allows; its columns then leave the pool and the next aggregate
    is grown from the remaining ones. Ties go to the candidate whose column
    indices come first lexicographically.

    **Tables.** An aggregate, and every candidate of the search, is learned from
    the joint table of its columns (the class counts of each combination of
    their values, :class:`~partikit.JointTable`), the kept columns grouped from
    their own tables. ``fit_tables`` takes these tables counted elsewhere
    (:func:`~partikit.column_tables` with ``joint=aggregates``, or with
    ``search`` the joint table of all the columns), and ``partial_fit`` adds the
    tables of each chunk of rows to those of the chunks before it: both give
    the aggregator ``fit`` gives on all the rows.

    References
    ----------
    .. [1] F. de A. Mello Pereira, "Binary splitting criteria for large categorical
       attributes in decision trees", M.Sc. dissertation, PUC-Rio, 2018, chapter 1
       and section 6.1.
    .. [2] G. V. Kass, "An exploratory technique for investigating large quantities
       of categorical data", Applied Statistics 29(2):119-127, 1980,
       doi:10.2307/2986296.
    .. [3] M. Boulle, "A robust method for partitioning the values of categorical
       attributes", Revue des Nouvelles Technologies de l'Information, 2004.

    Examples
    --------
    >>> import pandas as pd
    >>> from partikit.groupers import AttributeAggregator
    >>> X = pd.DataFrame({"buying": ["high", "low", "low", "high"],
    ...                   "maint": ["low", "low", "high", "low"]})
    >>> aggregator = AttributeAggregator().fit(X)
    >>> aggregator.combinations_[0]
    array(['high|low', 'low|high', 'low|low'], dtype=object)
    >>> aggregator.get_feature_names_out()
    array(['buying', 'maint', 'buying*maint'], dtype=object)
    >>> aggregator.transform(X)[:, 2]
    array([0, 2, 1, 0], dtype=object)
    """

    _table_kind = CATEGORICAL

    _parameter_constraints: dict = {
        "aggregates": [list, None],
        # a grouper: what has the pure core call (as the tree and
        # PartitionEncoder check it)
        "grouper": [HasMethods(["group_table"]), None],
        "target_type": BaseGrouper._target_type_constraint,
        "keep_original": ["boolean"],
        "search": [StrOptions({"pairs", "greedy"}), None],
        "max_order": [Interval(Integral, 2, None, closed="left"), None],
        "top_k": [Interval(Integral, 1, None, closed="left"), None],
        "max_pvalue_ratio": [Interval(Real, 0, 1, closed="right")],
        "max_categories": [Interval(Integral, 2, None, closed="left"), None],
        "separator": [str],
        "alpha": deprecated_constraints([Interval(Real, 0, 1, closed="right")]),
    }
    _renamed_parameters = (Renamed("alpha", "max_pvalue_ratio"),)

    def __init__(
        self,
        aggregates=None,
        *,
        grouper=None,
        target_type="auto",
        keep_original=True,
        search=None,
        max_order=None,
        top_k=None,
        max_pvalue_ratio=0.05,
        max_categories=10_000,
        separator="|",
        alpha=DEPRECATED,
    ):
        self.aggregates = aggregates
        self.grouper = grouper
        self.target_type = target_type
        self.keep_original = keep_original
        self.search = search
        self.max_order = max_order
        self.top_k = top_k
        self.max_pvalue_ratio = max_pvalue_ratio
        self.max_categories = max_categories
        self.separator = separator
        self.alpha = alpha

    # ------------------------------------------------------------------ aggregates

    def _column_index(self, key):
        names = getattr(self, "feature_names_in_", None)
        if isinstance(key, (Integral, np.integer)) and not isinstance(key, bool):
            if 0 <= key < self.n_features_in_:
                return int(key)
        elif isinstance(key, str) and names is not None:
            position = np.flatnonzero(names == key)
            if len(position):
                return int(position[0])
        raise ValueError(
            f"aggregates names column {key!r}, which is not a column of X (X has "
            f"{self.n_features_in_} columns"
            + (f": {list(names)}" if names is not None else ", given by position")
            + ")."
        )

    def _resolve_aggregates(self):
        """The aggregates given by ``aggregates``, as sorted tuples of column
        indices."""
        if self.aggregates is None:
            if self.n_features_in_ < 2:
                raise ValueError(
                    "X has 1 feature(s); AttributeAggregator combines at least 2 "
                    "columns."
                )
            return [tuple(range(self.n_features_in_))]
        aggregates = []
        for given in self.aggregates:
            if isinstance(given, (str, Integral)) or not hasattr(given, "__iter__"):
                raise ValueError(
                    f"aggregates must be a list of lists of columns; got the item "
                    f"{given!r}."
                )
            members = [self._column_index(key) for key in given]
            if len(set(members)) != len(members):
                raise ValueError(f"The aggregate {list(given)!r} repeats a column.")
            if len(members) < 2:
                raise ValueError(
                    f"The aggregate {list(given)!r} has {len(members)} column; an "
                    "aggregate combines at least 2 columns (columns in no aggregate "
                    "are output as they are, or grouped by the grouper)."
                )
            members = tuple(sorted(members))
            if members in aggregates:
                raise ValueError(
                    f"The aggregate {list(given)!r} is given twice (as the same set "
                    "of columns)."
                )
            aggregates.append(members)
        if not aggregates:
            raise ValueError(
                "aggregates is empty: give at least one list of columns to combine."
            )
        return aggregates

    # ------------------------------------------------------------------ fit

    def _checked_aggregates(self):
        """The aggregates to fit (sorted tuples of column indices), or None for
        ``search`` to find."""
        if self.search is not None and self.aggregates is not None:
            raise ValueError(
                "aggregates and search are exclusive: give the columns to combine, "
                "or let search find them (aggregates=None)."
            )
        return None if self.search is not None else self._resolve_aggregates()

    def _supervised(self):
        return self.grouper is not None or self.search is not None

    def _check_rows(self, X, y, sample_weight, *, reset, min_classes):
        """Checked columns, target and weights of a fit or a chunk.

        Returns the columns, the aggregates (None with ``search``), the class
        codes (or a continuous target's values) and classes (all 0 and None
        without a grouper nor search: y is then ignored), the kind of target
        (None without one) and the weights.
        """
        columns = check_categorical_X(self, X, reset=reset)
        aggregates = self._checked_aggregates()
        if self._supervised():
            check_lengths(self, columns, y, sample_weight)
        elif sample_weight is not None and not np.isscalar(sample_weight):
            check_consistent_length(columns[0], sample_weight)
        sample_weight = check_sample_weight(sample_weight, len(columns[0]))
        if self._supervised():
            # fail early on a bad target, before any aggregate is built
            y_codes, classes, kind = check_target(
                y, sample_weight, target_type=self.target_type,
                min_classes=min_classes,
            )  # fmt: skip
        else:
            y_codes, classes = np.zeros(len(columns[0]), dtype=np.intp), None
            kind = None
        target = _Target(y_codes, classes, kind)
        return columns, aggregates, target, sample_weight

    # fit, fit_tables and partial_fit are declared here rather than inherited:
    # y is optional (without grouper nor search the aggregator learns no
    # target), the grouper parameter is an estimator (its validation is not
    # skipped) and the tables include joint ones. fit_tables and partial_fit
    # then do TablesMixin's work (_fit_counted, _fit_chunk). fit reads the rows
    # once (_RowSource): a supervised aggregate is counted and learned in one
    # pass of its members' digits, without the ColumnTables of every column.
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y=None, sample_weight=None):
        """Learn the combinations of every aggregate, and group them.

        The combinations of an aggregate are learned from the joint table of its
        members (their combinations' class counts), the kept columns grouped
        from their tables: the aggregator is ``fit_tables`` of the tables of
        (X, y, ``sample_weight``).

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            Categorical columns: strings, pandas ``category``, integers, floats or
            booleans. NaN, None and ``pd.NA`` are a value of their own. A dask
            DataFrame is counted partition by partition where it lives, and the
            tables added (the same aggregator as in memory).
        y : array-like of shape (n_samples,), default=None
            Class labels; needed by ``grouper`` and ``search``, ignored otherwise.
            A dask Series partitioned like X when X is a dask DataFrame.
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights. Rows of zero weight are ignored, also when the
            combinations are learned.

        Returns
        -------
        self : object
            The fitted aggregator.
        """
        with fit_lock(self):
            forget_chunks(self)
            if is_dask_collection(X) or is_dask_collection(y):
                counter = estimator_counter(self)
                return self._fit_tables(dask_tables(X, y, sample_weight, counter))
            columns, aggregates, target, sample_weight = self._check_rows(
                X, y, sample_weight, reset=True, min_classes=2
            )
            source = _RowSource(self, columns, target, sample_weight)
            return self._fit_source(source, aggregates, stacklevel=4)

    @_fit_context(prefer_skip_nested_validation=False)
    def fit_tables(self, tables):
        """Learn the combinations of every aggregate from counted tables.

        ``fit`` is ``fit_tables(column_tables(X, y, sample_weight,
        categorical_features="all", joint=...))`` with the joint tables below:
        tables counted elsewhere (by chunks, in other processes, on a cluster)
        and added give the aggregator that ``fit`` gives on all their rows
        (exactly with integer weights or none; to the rounding of the sums
        with fractional weights).

        Parameters
        ----------
        tables : ColumnTables
            From :func:`~partikit.column_tables`, every column counted as
            categorical (``categorical_features="all"``), with a ``joint`` table
            holding each aggregate's columns (``joint=aggregates``; a joint table
            of more columns is summed over the others), or with ``search`` one
            joint table of all the columns (``joint=[list of every column]``).
            The kept columns are grouped from their own tables. With a grouper
            or ``search`` the tables need a target of two classes or more;
            without, y is not needed (``column_tables(X)``) and ignored.

        Returns
        -------
        self : object
            The fitted aggregator.
        """
        return self._fit_counted(tables)

    @_fit_context(prefer_skip_nested_validation=False)
    def partial_fit(self, X, y=None, sample_weight=None, classes=None):
        """Learn the combinations from one more chunk of rows.

        The chunk's tables (those ``fit_tables`` reads) are added to those of
        the chunks before it (since the last ``fit``), and the aggregator fitted
        anew from the sum: after every call it is the one ``fit`` gives on all
        the chunks so far, concatenated (same combinations, groups and
        outputs).

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The chunk; the same columns in every call.
        y : array-like of shape (n_samples,), default=None
            Its class labels; needed by ``grouper`` and ``search``, ignored
            otherwise.
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights of its rows.
        classes : array-like of shape (n_classes,), default=None
            With a grouper or ``search``: every class label the chunks may
            hold, on the first call (a later call may repeat it); a label
            outside it raises a ``ValueError``. Ignored otherwise.

        Returns
        -------
        self : object
            The aggregator fitted on every chunk so far. With a grouper or
            ``search``, until the chunks hold two classes it is not fitted, and
            the call raises ``ValueError`` (the chunk is counted). A call that
            raises for any other reason leaves it as it was before the call
            (its fit and the chunks counted so far). Calls from several
            threads run one after the other: no chunk is lost.
        """
        return self._fit_chunk(X, y, sample_weight, classes)

    def _needs_target(self):
        return self._supervised()

    def _count(self, X, y, sample_weight, *, reset, min_classes):
        """The tables ``fit_tables`` reads, of one chunk of rows."""
        columns, aggregates, target, sample_weight = self._check_rows(
            X, y, sample_weight, reset=reset, min_classes=min_classes
        )
        names = self._input_names()
        tables = count_tables(
            columns, names, hasattr(self, "feature_names_in_"), target.y_codes,
            target.classes, sample_weight, np.ones(len(columns), dtype=bool),
            target_type=target.target_type,
        )  # fmt: skip
        source = _RowSource(self, columns, target, sample_weight)
        needed = [tuple(range(len(columns)))] if aggregates is None else aggregates
        tables.joint = {members: source.joint(members) for members in needed}
        return tables

    def _fit_tables(self, tables, stacklevel=4):
        """Fit from tables whose columns and names are already checked.

        ``stacklevel`` of a warning raised here (as in ``TablesMixin``).
        """
        set_input_features(self, tables)
        aggregates = self._checked_aggregates()
        if self._supervised():
            check_classes(tables)
            if self.target_type != "auto":
                check_target_type(self, tables.target_type, self.target_type)
        source = _TableSource(self, tables, aggregates)
        return self._fit_source(source, aggregates, stacklevel=stacklevel + 1)

    def _fit_source(self, source, aggregates, stacklevel):
        """Learn the aggregates (``search``'s when None) from their tables."""
        self.search_results_ = None
        if aggregates is None:
            aggregates, self.search_results_ = self._search(source)
        results = source.fit_aggregates(aggregates)
        for _, aggregate, _ in results:
            self._check_labels(aggregate)
        fitted = [aggregate for _, aggregate, _ in results]
        self._members = {j: members[j] for members, a, _ in results for j in a.members}
        self._aggregates = fitted
        self.aggregates_ = [
            tuple(feature_name(self, j) for j in a.members) for a in fitted
        ]
        self.combinations_ = [a.labels for a in fitted]
        self.n_combinations_ = np.array([len(a.labels) for a in fitted], dtype=np.intp)
        self._kept = self._kept_columns(aggregates)
        names = self._output_names(self._input_names())
        duplicated = pd.Index(names)[pd.Index(names).duplicated()].unique().tolist()
        if duplicated:
            raise ValueError(
                f"The output would hold the columns {duplicated} more than once (an "
                "aggregate named like an input column, or kept twice)."
            )
        for a, name in zip(
            fitted, self._aggregate_names(self._input_names()), strict=True
        ):
            if a.n_pooled:
                warnings.warn(
                    f"Aggregate {name!r} has {a.n_pooled + len(a.labels) - 1} "
                    f"combinations, more than max_categories={self.max_categories}"
                    f": the {a.n_pooled} rarest are pooled into one value "
                    f"{RARE_LABEL!r}.",
                    UserWarning,
                    stacklevel=stacklevel,
                )
        self.grouper_ = None
        if self.grouper is not None:
            # The aggregator wraps the output (set_output) itself, with X's index.
            self.grouper_ = clone(self.grouper).set_output(transform="default")
            self.grouper_._validate_params()
            tables = self._grouper_tables(
                source.kept_tables(self._kept), [table for _, _, table in results]
            )
            # its warnings point at the caller of the public method, one level
            # deeper than this method's
            self.grouper_._fit_tables(tables, stacklevel=stacklevel + 1)
        return self

    def _kept_frame(self, columns):
        """The kept columns as the grouper sees them (a DataFrame's columns)."""
        names = self._output_names(self._input_names())
        frame = {}
        for name, j in zip(names, self._kept, strict=False):
            column = columns[j]
            if isinstance(column, pd.Series):
                column = column.reset_index(drop=True)
            frame[name] = column
        return pd.DataFrame(frame)

    def _grouper_tables(self, kept, tables):
        """The :class:`~partikit.ColumnTables` the grouper is fitted from.

        The kept columns' tables (``kept``), then each aggregate's combinations
        (their labels) with its table (``tables``), sorted as a column of the
        labels is sorted, with an empty missing row.
        """
        values, value_kinds = list(kept.values), list(kept.value_kinds)
        counts, ordered = list(kept.tables), list(kept.ordered_categories)
        for a, table in zip(self._aggregates, tables, strict=True):
            order = sorting_order(a.labels, STRING_KIND)
            rows = np.zeros((len(table) + 1, table.shape[1]), dtype=np.float64)
            rows[:-1] = table[order]
            values.append(a.labels[order])
            value_kinds.append(STRING_KIND)
            counts.append(rows)
            ordered.append(None)
        return ColumnTables(
            feature_names=self._output_names(self._input_names()),
            has_feature_names=True,
            classes=kept.classes,
            target_type=kept.target_type,
            kinds=[CATEGORICAL] * len(values),
            values=values,
            tables=counts,
            value_kinds=value_kinds,
            ordered_categories=ordered,
        )

    def _check_labels(self, aggregate):
        labels = pd.Index(aggregate.labels)
        if labels.has_duplicates:
            same = labels[labels.duplicated()][:_MAX_SHOWN].tolist()
            raise ValueError(
                f"Different combinations have the same label {same}: member values "
                f"contain the separator {self.separator!r}. Choose another "
                "separator."
            )

    def _kept_columns(self, aggregates):
        consumed = set() if self.keep_original else {j for a in aggregates for j in a}
        return [j for j in range(self.n_features_in_) if j not in consumed]

    def _input_names(self):
        return [feature_name(self, j) for j in range(self.n_features_in_)]

    def _aggregate_names(self, input_features):
        return [
            "*".join(input_features[j] for j in a.members) for a in self._aggregates
        ]

    def _output_names(self, input_features):
        return [input_features[j] for j in self._kept] + self._aggregate_names(
            input_features
        )

    # ------------------------------------------------------------------ search

    def _score(self, candidates, source):
        """log10 adjusted p-value, number of values and of groups of each candidate.

        Each candidate is scored on its own contingency table (combinations x
        classes, :meth:`_RowSource.candidate_table`): grouped by the scoring
        grouper's :meth:`group_table`, the core call its ``fit`` makes on a
        nominal column, then tested by
        :func:`~partikit._statistics._measures.grouped_significance`. The grouper
        is neither
        cloned nor fitted: no DataFrame is built and its column parameters (an
        ``ordinal`` naming columns of X) do not apply to the candidates.
        """
        scorer = self.grouper if self.grouper is not None else CHAIDGrouper()
        scores = []
        for candidate in candidates:
            table = source.candidate_table(candidate)
            if source.target_type == CONTINUOUS:
                result = scorer.group_table(table, target_type=CONTINUOUS)
            else:
                result = scorer.group_table(table)
            grouped = merge_rows(table, result.group_ids, result.n_groups)
            n_values = len(table)
            value = grouped_significance(grouped, n_values, source.target_type)
            scores.append((value, n_values, int(result.n_groups)))
        return scores

    def _search(self, source):
        """The aggregates found by ``search`` and the table of every candidate."""
        n_features = self.n_features_in_
        if n_features < 2:
            raise ValueError(
                "X has 1 feature(s); search needs at least 2 columns to combine."
            )
        rows = []
        score = {}
        min_gain = -np.log10(self._parameter("max_pvalue_ratio"))

        def evaluate(candidates, parts):
            results = self._score(candidates, source)
            gains = []
            for candidate, part_list, (value, n_values, n_groups) in zip(
                candidates, parts, results, strict=True
            ):
                score[candidate] = value
                best_part = min(score[p] for p in part_list)
                gain = best_part - value
                gains.append(gain)
                rows.append(
                    {
                        "members": tuple(feature_name(self, j) for j in candidate),
                        "n_combinations": n_values,
                        "n_groups": n_groups,
                        "log10_adjusted_pvalue": value,
                        "parts_log10_adjusted_pvalue": best_part,
                        "gain": gain,
                        "selected": False,
                    }
                )
            return np.array(gains)

        singles = [(j,) for j in range(n_features)]
        for candidate, (value, _, _) in zip(
            singles,
            self._score(singles, source),
            strict=True,
        ):
            score[candidate] = value
        pairs = list(itertools.combinations(range(n_features), 2))
        pair_rows = len(rows)
        pair_gains = evaluate(pairs, [((a,), (b,)) for a, b in pairs])
        selected = []
        if self.search == "pairs":
            # largest gain first; the stable sort keeps the lexicographic order
            for k in np.argsort(-pair_gains, kind="stable"):
                if pair_gains[k] <= min_gain or len(selected) == self.top_k:
                    break
                selected.append(pairs[k])
                rows[pair_rows + k]["selected"] = True
        else:
            pool = set(range(n_features))
            gain_of_pair = dict(zip(pairs, pair_gains, strict=True))
            while self.top_k is None or len(selected) < self.top_k:
                in_pool = [p for p in pairs if p[0] in pool and p[1] in pool]
                if not in_pool:
                    break
                best = max(in_pool, key=lambda p: (gain_of_pair[p], [-i for i in p]))
                if gain_of_pair[best] <= min_gain:
                    break
                aggregate, row = best, pair_rows + pairs.index(best)
                while self.max_order is None or len(aggregate) < self.max_order:
                    others = sorted(pool - set(aggregate))
                    if not others:
                        break
                    grown = [tuple(sorted(aggregate + (c,))) for c in others]
                    first_row = len(rows)
                    gains = evaluate(grown, [(aggregate, (c,)) for c in others])
                    k = int(np.argmax(gains))
                    if gains[k] <= min_gain:
                        break
                    aggregate, row = grown[k], first_row + k
                rows[row]["selected"] = True
                selected.append(aggregate)
                pool -= set(aggregate)
        return selected, pd.DataFrame(rows, columns=list(_SEARCH_COLUMNS))

    # ------------------------------------------------------------------ transform

    def _aggregate_codes(self, columns):
        """Codes of every aggregate's combinations (-1: unseen) at transform."""
        lookups = {
            j: member_lookup(member, columns[j], feature_name(self, j))
            for j, member in self._members.items()
        }
        codes = []
        for a in self._aggregates:
            keys, _, _ = combination_keys(
                [lookups[j] for j in a.members], a.sizes, compressions=a.compressions
            )
            codes.append(codes_of_keys(keys, a.n_keys, a.seen, a.code_of_seen))
        return codes

    def _group_directly(self, columns):
        """The grouper's group ids of every output column, or None.

        What ``grouper_.transform`` computes on :meth:`_grouper_frame`, without
        the frame: each aggregate's rows are looked up by their combination's
        key straight into its group (an unseen combination, or member value,
        into the default group). None, for the frame's route, when
        ``handle_unknown="error"`` (its message lists the unseen
        combinations' labels) or when an aggregate's keys are too many for a
        key-indexed lookup.
        """
        grouper = self.grouper_
        n_samples = len(columns[0])
        if grouper.handle_unknown != "default_group" or any(
            a.compressions or not is_dense(a.n_keys, n_samples)
            for a in self._aggregates
        ):
            return None
        groups = grouper._output_groups(n_samples)
        if self._kept:
            kept = self._kept_frame(columns)
            for k in range(len(self._kept)):
                grouper._encode_column(kept.iloc[:, k], k, groups)
        lookups = {
            j: member_lookup(member, columns[j], feature_name(self, j))
            for j, member in self._members.items()
        }
        for k, a in enumerate(self._aggregates, start=len(self._kept)):
            position = pd.Index(grouper.categories_[k]).get_indexer(a.labels)
            group_of_code = np.where(
                position >= 0, grouper.group_ids_[k][np.maximum(position, 0)], -1
            )
            lookup = np.full(a.n_keys + 1, -1, dtype=np.intp)
            lookup[a.seen + 1] = group_of_code[a.code_of_seen]
            lookup_combinations(
                [lookups[j] for j in a.members], a.sizes, lookup, groups, k,
                int(grouper.default_group_[k]),
            )  # fmt: skip
        return groups

    def _unseen_labels(self, columns, a, rows):
        """The distinct labels of the combinations of ``rows`` (unseen in fit),
        and the position of each row's label among them.

        Labels are built per distinct member value, not per row, and never equal
        a known combination's label: they are the categories of unseen values for
        the grouper.
        """
        parts = []
        for j in a.members:
            codes, uniques = pd.factorize(np.asarray(columns[j])[rows])
            values = np.array([level_label(v) for v in uniques] + ["nan"], dtype=object)
            parts.append(values[codes])  # code -1 (missing) takes "nan"
        labels, position = np.unique(
            join_labels(parts, self.separator), return_inverse=True
        )
        # a label can equal a known one only when member values contain the
        # separator; the unseen combination must still not pass for the known one
        clash = np.isin(labels, a.labels)
        labels[clash] = labels[clash] + "?"
        return labels, position

    def _grouper_frame(self, columns, codes):
        """The columns the grouper sees: kept columns as they are, aggregates as
        categoricals of their labels."""
        names = self._output_names(self._input_names())
        frame = dict(self._kept_frame(columns).items())
        for name, a, row_codes in zip(
            names[len(self._kept) :], self._aggregates, codes, strict=True
        ):
            categories = a.labels
            unseen = row_codes < 0
            if unseen.any():
                rows = np.flatnonzero(unseen)
                extra, position = self._unseen_labels(columns, a, rows)
                categories = np.concatenate([a.labels, extra])
                row_codes = row_codes.copy()
                row_codes[rows] = len(a.labels) + position
            frame[name] = pd.Categorical.from_codes(
                row_codes, categories=pd.Index(categories, dtype=object)
            )
        return pd.DataFrame(frame)

    def transform(self, X):
        """Encode the kept columns and the aggregates.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            Same columns as in fit.

        Returns
        -------
        X_out : ndarray or sparse matrix
            With a grouper: its encoding of the kept columns and the aggregates.
            Without: the kept columns as they are (the missing values of
            ``category`` and Arrow-backed columns as NaN), then the code of each
            aggregate's combination (-1 when unseen in fit); float64 when every
            kept column is numeric, else an object array. A dask DataFrame X
            gives a lazy dask Array of these, chunked by partition (a dask
            DataFrame with ``set_output(transform="pandas")``).
        """
        check_is_fitted(self)
        columns = check_categorical_X(self, X, reset=False)
        if self.grouper_ is not None:
            groups = self._group_directly(columns)
            if groups is not None:
                return self.grouper_._encode_groups(groups)
        codes = self._aggregate_codes(columns)
        if self.grouper_ is not None:
            return self.grouper_.transform(self._grouper_frame(columns, codes))
        kept = [as_array(columns[j]) for j in self._kept]
        numeric = all(c.dtype.kind in "biuf" for c in kept)
        # Column by column: a Fortran-ordered output is written contiguously.
        out = np.empty(
            (len(columns[0]), len(kept) + len(codes)),
            dtype=np.float64 if numeric else object,
            order="F",
        )
        for k, column in enumerate(kept + codes):
            out[:, k] = column
        return out

    def _inspected(self):
        # the partitions are the grouper's, over the kept columns and aggregates
        check_is_fitted(self)
        if self.grouper_ is None:
            raise ValueError(
                "This AttributeAggregator has no grouper: its output columns are "
                "the combinations themselves, not a partition. Set grouper= (for "
                "instance KhiopsGrouper()) to inspect its groups."
            )
        return self.grouper_

    def get_feature_names_out(self, input_features=None):
        """Names of the output columns.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Input feature names; ``feature_names_in_`` (or ``x0, x1, ...``) if None.

        Returns
        -------
        feature_names_out : ndarray of str objects
            The kept columns' names, then each aggregate's members' names joined
            by ``"*"`` (``"buying*maint"``); with a one-hot grouper,
            ``"{name}_g{k}"`` for group ``k`` of each.
        """
        check_is_fitted(self)
        input_features = list(_check_feature_names_in(self, input_features))
        names = self._output_names([str(n) for n in input_features])
        if self.grouper_ is None:
            return np.asarray(names, dtype=object)
        return group_feature_names(names, self.grouper_.encode, self.grouper_.n_groups_)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.target_tags.required = self.grouper is not None or self.search is not None
        return tags


class _Target(NamedTuple):
    """The target of a fit as the counting reads it."""

    y_codes: np.ndarray  # class indices, or the values of a continuous target
    classes: np.ndarray | None  # None: no target, or a continuous one
    target_type: str | None  # None: no target


class _JointSource:
    """Where a fit's aggregates come from: the joint table of their columns."""

    def fit_aggregates(self, aggregates):
        """(members, :class:`Aggregate`, table) of every aggregate."""
        aggregator = self._aggregator
        return [
            fit_joint_aggregate(
                self.joint(members),
                members,
                aggregator.max_categories,
                aggregator.separator,
                self.target_type,
            )  # fmt: skip
            for members in aggregates
        ]


class _RowSource(_JointSource):
    """The tables of a fit read from its rows, each counted when asked for.

    A joint table is counted in one pass of its members' digits
    (:func:`joint_of_digits`, the digits of each column read once) when it is
    small, else from the factorized columns (what
    :func:`~partikit.column_tables` does); a supervised fit first tries the
    one-pass route of :func:`fit_counted_aggregate`. Either way the aggregates
    are learned by :func:`fit_joint_aggregate` from the same table.
    """

    def __init__(self, aggregator, columns, target, sample_weight):
        self._aggregator = aggregator
        self._columns = columns
        self._digits = {}
        self.y_codes = target.y_codes
        self.classes = target.classes
        self.target_type = target.target_type
        self.sample_weight = sample_weight
        if self.target_type == CONTINUOUS:
            self.n_classes = N_MOMENTS
        else:
            self.n_classes = 1 if self.classes is None else len(self.classes)

    def digits(self, members):
        """The :class:`Digits` of every column, those of ``members`` read."""
        for j in members:
            if j not in self._digits:
                name = feature_name(self._aggregator, j)
                self._digits[j] = member_digits(self._columns[j], name)
        return self._digits

    def joint(self, members):
        """The :class:`~partikit.JointTable` of some columns."""
        if self.target_type != CONTINUOUS:
            # (the digits' kernels count classes; a continuous target's moments
            # are counted by count_joint)
            joint = joint_of_digits(
                members, self.digits(members), self.y_codes, self.sample_weight,
                self.n_classes,
            )  # fmt: skip
            if joint is not None:
                return joint
        return count_joint(
            [self._columns[j] for j in members],
            [feature_name(self._aggregator, j) for j in members],
            members, self.y_codes, self.sample_weight, self.n_classes,
        )  # fmt: skip

    def _counted(self, members, separator):
        if self.classes is None:  # no target, or a continuous one
            return None
        return fit_counted_aggregate(
            members, self.digits(members), self.y_codes, self.sample_weight,
            self.n_classes, self._aggregator.max_categories, separator,
        )  # fmt: skip

    def candidate_table(self, candidate):
        """A candidate's table of codes x classes (``search``)."""
        counted = self._counted(candidate, None)
        if counted is None:
            counted = fit_joint_aggregate(
                self.joint(candidate), candidate, self._aggregator.max_categories,
                None, self.target_type,
            )  # fmt: skip
        return counted[2]

    def fit_aggregates(self, aggregates):
        """(members, :class:`Aggregate`, table) of every aggregate."""
        aggregator = self._aggregator
        fitted = []
        for members in aggregates:
            counted = self._counted(members, aggregator.separator)
            if counted is None:
                break
            fitted.append(counted)
        else:
            return fitted
        return super().fit_aggregates(aggregates)

    def kept_tables(self, kept):
        """The kept columns' tables, counted as the grouper's fit counts them."""
        frame = self._aggregator._kept_frame(self._columns)
        return count_tables(
            [frame.iloc[:, k] for k in range(len(kept))], list(frame.columns), True,
            self.y_codes, self.classes, self.sample_weight,
            np.ones(len(kept), dtype=bool), n_jobs=self._aggregator.grouper_.n_jobs,
            target_type=self.target_type,
        )  # fmt: skip


class _TableSource(_JointSource):
    """The tables of a fit given as a :class:`~partikit.ColumnTables`.

    Each aggregate or candidate's table is the joint table of its columns: the
    one counted for them, else the smallest one counted for more columns,
    summed over the others (the first in the order of their columns on a tie).
    """

    def __init__(self, aggregator, tables, aggregates):
        self._aggregator = aggregator
        self._tables = tables
        self.target_type = tables.target_type
        names = [str(n) for n in tables.feature_names]
        if aggregates is None:
            needed = [tuple(range(tables.n_features))]
            why = "search combines any of the columns"
        else:
            needed = aggregates
            why = "AttributeAggregator learns each aggregate from the joint table"
        missing = [m for m in needed if self._holding(m) is None]
        if missing:
            lists = [[names[j] for j in m] for m in missing]
            raise ValueError(
                f"These tables hold no joint table of the columns {lists}; {why} "
                f"of its columns: count it with column_tables(..., "
                f'categorical_features="all", joint={lists!r}).'
            )

    def _holding(self, members):
        """The smallest joint table whose columns include ``members``, or None."""
        holding = [key for key in self._tables.joint if set(members) <= set(key)]
        if not holding:
            return None
        return self._tables.joint[min(holding, key=lambda key: (len(key), key))]

    def joint(self, members):
        """The :class:`~partikit.JointTable` of some columns."""
        return self._holding(members)

    def candidate_table(self, candidate):
        """A candidate's table of codes x classes (``search``)."""
        return fit_joint_aggregate(
            self.joint(candidate),
            candidate,
            self._aggregator.max_categories,
            None,
            self.target_type,
        )[2]

    def kept_tables(self, kept):
        """The kept columns' tables, as the grouper's fit reads them."""
        return self._tables.select(kept)


_SEARCH_COLUMNS = (
    "members",
    "n_combinations",
    "n_groups",
    "log10_adjusted_pvalue",
    "parts_log10_adjusted_pvalue",
    "gain",
    "selected",
)
