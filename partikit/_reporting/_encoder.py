# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""PartitionEncoder: one transformer that partitions and encodes a whole table.

A grouper for each categorical column, a discretizer for each numeric one (the
report's dtype rule, or the user's choice per column), all the columns counted
by one :func:`~partikit.column_tables` call (stage 1) and each estimator fitted
by ``fit_tables`` on its column's table (stage 2); the columns are then ranked
as :func:`~partikit.report` ranks them, selected by optbinning's
``selection_criteria``, and encoded by their estimators.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn import config_context
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.utils.validation import check_is_fitted

from partikit._compat import (
    HasMethods,
    InvalidParameterError,
    StrOptions,
    _check_feature_names_in,
    _fit_context,
    validate_data,
)
from partikit._counting._column_tables import ColumnTables, column_tables
from partikit._counting._dask import dask_aware, dask_tables, is_dask_collection
from partikit._counting._partial import (
    FitLockMixin,
    check_classes,
    fit_lock,
    forget_chunks,
    lacks_classes,
    partial_tables,
    set_input_features,
    unchanged_on_failure,
)
from partikit._counting._validation import (
    TARGET_TYPES,
    TableSizeError,
    check_categorical_X,
)
from partikit._estimator._encoding import check_encoded_target, check_target_type
from partikit._estimator._inspection import rank_columns
from partikit._reporting._mapping import is_discretizer, is_grouper
from partikit._statistics._moments import CONTINUOUS
from partikit.discretizers import BlockOptDiscretizer, MODLDiscretizer
from partikit.groupers import CHAIDGrouper, MODLGrouper

__all__ = ["PartitionEncoder", "default_estimators", "infer_kind"]

CATEGORICAL, NUMERIC = "categorical", "numeric"

#: The criteria of ``selection_criteria`` for each kind of target, with the
#: direction that makes a column better (optbinning's ``strategy``).
SELECTION_CRITERIA = {
    "binary": {"iv": "highest", "p_value": "lowest", "cramers_v": "highest",
               "n_parts": "highest"},
    "multiclass": {"p_value": "lowest", "cramers_v": "highest",
                   "n_parts": "highest"},
    "continuous": {"p_value": "lowest", "r2": "highest", "n_parts": "highest"},
}  # fmt: skip

#: What ``encode="auto"`` chooses for each kind of target.
AUTO_ENCODE = {"binary": "woe", "multiclass": "onehot", "continuous": "target"}


def infer_kind(column):
    """The kind a report gives a column when not told: the documented rule.

    A column of a numeric dtype (integers, floats, pandas nullable numbers;
    booleans excluded) is ``"numeric"`` and cut into intervals; booleans,
    strings, objects and pandas ``category`` columns are ``"categorical"`` and
    grouped; any other dtype (dates, durations, complex numbers) is None: the
    report leaves it out and says so. ``categorical=`` and ``numeric=`` override
    the rule.

    Parameters
    ----------
    column : pandas.Series
        A column of the data.

    Returns
    -------
    kind : {"categorical", "numeric"} or None
        How the report partitions it; None: it is left out.

    Examples
    --------
    >>> import pandas as pd
    >>> from partikit._reporting._report import infer_kind
    >>> infer_kind(pd.Series([1.5, 2.0])), infer_kind(pd.Series(["a", "b"]))
    ('numeric', 'categorical')
    """
    dtype = column.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return CATEGORICAL
    if isinstance(dtype, pd.CategoricalDtype):
        return CATEGORICAL
    if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_complex_dtype(
        dtype
    ):
        return NUMERIC
    if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
        return CATEGORICAL
    return None


def default_estimators(target_type):
    """The grouper and the discretizer a report uses when not told.

    Class labels: ``MODLGrouper()`` and ``MODLDiscretizer()``, Boulle's Bayes
    optimal partitions (robust: a column that tells nothing of the target
    stays one part; ``bench_modl``), which are also exact under the bin
    constraints (``monotonic_trend``, ...). A continuous
    target: ``CHAIDGrouper()`` (merges by the F-test of the groups' means,
    Bonferroni-adjusted) and ``BlockOptDiscretizer()`` (the optimal cut points
    for squared error), the grouper and the discretizer that read a continuous
    target; MODL and Khiops need class counts and refuse it.

    Parameters
    ----------
    target_type : {"binary", "multiclass", "continuous"}

    Returns
    -------
    grouper, discretizer : unfitted estimators
    """
    if target_type == CONTINUOUS:
        return CHAIDGrouper(), BlockOptDiscretizer()
    return MODLGrouper(), MODLDiscretizer()


def _names(values, what):
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    values = list(values)
    if len(set(values)) != len(values):
        raise ValueError(f"{what} lists a column more than once: {values}.")
    return values


def check_column_labels(columns):
    """Refuse column labels that cannot name a column of a report or mapping.

    A column is named by its label's text in the tables, the JSON and the SQL,
    so two labels of the same text (``1`` and ``"1"``) would be one name, and
    the levels of a MultiIndex would have to be joined into one, which can
    make the same collision; both are refused, with the way out.

    Parameters
    ----------
    columns : pandas.Index or sequence
        The column labels of X.

    Raises
    ------
    ValueError
        For MultiIndex columns, or two labels of the same text.
    """
    if isinstance(columns, pd.MultiIndex):
        raise ValueError(
            f"X has MultiIndex columns ({columns.nlevels} levels): a column needs "
            "one name. Flatten them first, for instance X.columns = "
            "['_'.join(map(str, c)) for c in X.columns], checking that the "
            "names stay distinct."
        )
    by_text = {}
    for label in columns:
        by_text.setdefault(str(label), []).append(label)
    clashes = [
        labels for labels in by_text.values()
        if len({(type(v), v) for v in labels}) > 1
    ]  # fmt: skip
    if clashes:
        shown = "; ".join(" and ".join(repr(v) for v in labels) for labels in clashes)
        raise ValueError(
            f"X has columns whose names are the same text: {shown}. A column "
            "is named by its text (in the tables, the JSON and the SQL): rename "
            "one of them."
        )


def _check_known(names, columns, what):
    unknown = [n for n in names if n not in columns]
    if unknown:
        shown = list(columns)[:20]
        raise ValueError(
            f"{what} names columns that are not in X: {unknown}. X has the "
            f"columns {shown}{' ...' if len(columns) > 20 else ''}."
        )


def _check_partitioner(estimator, what):
    if not (is_grouper(estimator) or is_discretizer(estimator)):
        raise TypeError(
            f"{what} must be a partikit grouper or discretizer (for instance "
            f"MODLGrouper() or MODLDiscretizer()), got {estimator!r}."
        )


def _check_template(estimator, is_kind, what, example):
    if estimator is not None and not is_kind(estimator):
        raise TypeError(
            f"{what} must be a partikit {what} (for instance {example}), got "
            f"{estimator!r}."
        )


def _is_pandas_df(X):
    return isinstance(X, pd.DataFrame)


def _is_polars_df(X):
    polars = sys.modules.get("polars")
    return polars is not None and isinstance(X, polars.DataFrame)


def _polars_column(column):
    """A polars column as numpy: its categories as strings, its dates as dates."""
    polars = sys.modules["polars"]
    if isinstance(column.dtype, (polars.Categorical, polars.Enum)):
        column = column.cast(polars.String)
    return column.to_numpy()


def _as_input(X):
    """X as a DataFrame (pandas, polars) or a numpy array (any other array-like)."""
    if _is_pandas_df(X) or _is_polars_df(X) or sp.issparse(X):
        return X
    return X if isinstance(X, np.ndarray) else np.asarray(X)


def _as_series(column):
    return column if isinstance(column, pd.Series) else pd.Series(column)


def _check_selection_criteria(criteria, target_type):
    """Raise unless ``criteria`` is a valid ``selection_criteria`` for the target."""
    if criteria is None:
        return
    if not isinstance(criteria, dict):
        raise TypeError(
            "selection_criteria must be None or a dict such as {'iv': {'min': "
            f"0.02}}, got {type(criteria).__name__}."
        )
    valid = SELECTION_CRITERIA[target_type]
    for key, spec in criteria.items():
        if key == "top":
            _check_top(spec, "selection_criteria['top']")
            continue
        if key not in valid:
            raise ValueError(
                f"selection_criteria has the key {key!r}; with a {target_type} "
                f"target the criteria are {sorted(valid)} (and 'top')."
            )
        if not isinstance(spec, dict):
            raise TypeError(
                f"selection_criteria[{key!r}] must be a dict with the keys 'min', "
                f"'max', 'strategy' and 'top', got {spec!r}."
            )
        unknown = sorted(set(spec) - {"min", "max", "strategy", "top"})
        if unknown:
            raise ValueError(
                f"selection_criteria[{key!r}] has the keys {unknown}; its keys are "
                "'min', 'max', 'strategy' and 'top'."
            )
        for bound in ("min", "max"):
            if bound in spec and not (
                isinstance(spec[bound], Real) and not isinstance(spec[bound], bool)
            ):
                raise ValueError(
                    f"selection_criteria[{key!r}][{bound!r}] must be a number, got "
                    f"{spec[bound]!r}."
                )
        if spec.get("strategy", "highest") not in ("highest", "lowest"):
            raise ValueError(
                f"selection_criteria[{key!r}]['strategy'] must be 'highest' or "
                f"'lowest', got {spec['strategy']!r}."
            )
        if "top" in spec:
            _check_top(spec["top"], f"selection_criteria[{key!r}]['top']")


def _check_top(top, what):
    if isinstance(top, bool) or not isinstance(top, Real):
        raise ValueError(f"{what} must be an int >= 1 or a fraction in (0, 1).")
    if isinstance(top, Integral):
        if top < 1:
            raise ValueError(f"{what} must be at least 1 or in (0, 1); got {top}.")
    elif not 0.0 < top < 1.0:
        raise ValueError(f"{what} must be at least 1 or in (0, 1); got {top}.")


def _n_kept(top, n_valid):
    """optbinning's rule: an int is a count, a fraction of the valid rounded up."""
    if isinstance(top, Integral):
        return min(int(top), n_valid)
    return min(int(np.ceil(n_valid * top)), n_valid)


def _criterion_values(summary, key):
    if key == "p_value":
        return 10.0 ** summary["log10_adjusted_pvalue"].to_numpy(dtype=np.float64)
    return summary[key].to_numpy(dtype=np.float64)


def select_columns(summary, criteria, target_type):
    """Which columns of ``summary`` pass ``selection_criteria`` (see the encoder).

    Parameters
    ----------
    summary : pandas.DataFrame
        The columns' figures and ``rank``, in input order.
    criteria : dict or None
    target_type : {"binary", "multiclass", "continuous"}

    Returns
    -------
    selected : ndarray of bool of shape (len(summary),)
    """
    selected = np.ones(len(summary), dtype=bool)
    if not criteria:
        return selected
    # optbinning's order: the criteria in their fixed order, each one's top
    # taken among the columns that pass the criteria before it
    for key, direction in SELECTION_CRITERIA[target_type].items():
        if key not in criteria:
            continue
        spec = criteria[key]
        values = _criterion_values(summary, key)
        if "min" in spec:
            selected &= values >= spec["min"]
        if "max" in spec:
            selected &= values <= spec["max"]
        if "top" in spec:
            valid = np.flatnonzero(selected)
            order = np.argsort(values[valid], kind="stable")
            if spec.get("strategy", direction) == "highest":
                order = np.argsort(-values[valid], kind="stable")
            kept = np.zeros(len(summary), dtype=bool)
            kept[valid[order[: _n_kept(spec["top"], len(valid))]]] = True
            selected &= kept
    if "top" in criteria:
        valid = np.flatnonzero(selected)
        ranks = summary["rank"].to_numpy()[valid]
        kept = np.zeros(len(summary), dtype=bool)
        best = valid[np.argsort(ranks, kind="stable")]
        kept[best[: _n_kept(criteria["top"], len(valid))]] = True
        selected &= kept
    return selected


def _is_said(encoder, name):
    """Whether the encoder's parameters give column ``name`` its kind."""
    return (
        name in (encoder.estimators or {})
        or name in _names(encoder.categorical, "categorical")
        or name in _names(encoder.numeric, "numeric")
    )


def _check_y_given(y):
    if y is None:
        raise ValueError(
            "PartitionEncoder requires y to be passed, but the target y is None: "
            "it partitions every column against a target."
        )


def _fit_one(estimator, tables):
    """One column's estimator fitted on its tables, or the error it raised."""
    try:
        return estimator.fit_tables(tables), None
    except InvalidParameterError:
        # the user's parameters, not the column, are at fault
        raise
    except ValueError as error:
        return None, str(error)


def fit_each(estimators, tables, n_jobs, progress=None):
    """Fit every column's estimator on its table, in threads with ``n_jobs``.

    Returns
    -------
    results : dict of str to tuple
        Per column: the fitted estimator (None when its fit raised a
        ``ValueError``), the error's message (or None) and the warnings its
        fit raised.
    """
    names = list(estimators)
    notes = {name: [] for name in names}
    # A warning cannot be caught per thread (catch_warnings is process-wide):
    # every fit records which column its thread works on, and one recorder
    # files each warning under the column of the thread that raised it.
    working = {}
    others = []
    done = []
    lock = threading.Lock()

    def record(message, category, filename, lineno, file=None, line=None):
        column = working.get(threading.get_ident())
        (notes[column] if column is not None else others).append(str(message))

    def fit(name):
        working[threading.get_ident()] = name
        try:
            return _fit_one(estimators[name], tables.select([name]))
        finally:
            working.pop(threading.get_ident(), None)
            if progress is not None:
                with lock:
                    done.append(name)
                    progress(len(done), len(names), name)

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = record
        if n_jobs in (None, 1):
            fitted = [fit(name) for name in names]
        else:
            fitted = Parallel(n_jobs=n_jobs, prefer="threads")(
                delayed(fit)(name) for name in names
            )
    for message in others:
        warnings.warn(message, UserWarning, stacklevel=3)
    return {
        name: (estimator, error, notes[name])
        for name, (estimator, error) in zip(names, fitted, strict=True)
    }


def fit_with_progress(
    encoder, X, y, sample_weight=None, progress=None, skip_uncountable=False
):
    """``encoder.fit(X, y, sample_weight)`` as a report fits it.

    Parameters
    ----------
    encoder : PartitionEncoder
    X, y, sample_weight
        As :meth:`PartitionEncoder.fit` takes them.
    progress : callable or None, default=None
        Called as ``progress(done, total, column)`` after each column's fit
        (the command line's progress bar).
    skip_uncountable : bool, default=False
        Leave out, in ``skipped_``, the columns that cannot be counted as
        their kind says (strings named numeric, ...), instead of raising.

    Returns
    -------
    encoder : PartitionEncoder
        Fitted.
    """
    encoder._progress = progress
    encoder._skip_uncountable = skip_uncountable
    try:
        return encoder.fit(X, y, sample_weight)
    finally:
        del encoder._progress, encoder._skip_uncountable


def _count_partition(X, y, sample_weight, *, names, categorical, target_type):
    """One chunk's tables (a dask partition's), counted as fit counts X."""
    return column_tables(
        X[names], y, sample_weight, categorical_features=categorical,
        target_type=target_type,
    )  # fmt: skip


@dask_aware
class PartitionEncoder(FitLockMixin, TransformerMixin, BaseEstimator):
    """Partition every column of a table against a target, and encode it.

    Each categorical column is grouped by a clone of ``grouper`` and each
    numeric column cut into intervals by a clone of ``discretizer`` (the kind
    of a column follows the dtype rule of :func:`~partikit.report` unless
    ``categorical``, ``numeric`` or ``estimators`` say otherwise); every
    column is counted by one :func:`~partikit.column_tables` call and each
    estimator fitted by ``fit_tables`` on its column's table. The columns are
    ranked by the Bonferroni-adjusted p-value of their partition, selected by
    ``selection_criteria`` (optbinning's format), and :meth:`transform` puts
    side by side the selected columns, each encoded by its estimator: the
    weight of evidence of its part for a binary target (what a scorecard's
    logistic regression reads), the part's mean target for a continuous one,
    the one-hot parts for a multiclass one.

    Read more in the :ref:`User Guide <scorecard>`.

    .. versionadded:: 0.2

    Parameters
    ----------
    grouper : partikit grouper or None, default=None
        The grouper of the categorical columns, with its parameters (cloned for
        each column); None: ``MODLGrouper()``, or ``CHAIDGrouper()`` for a
        continuous target (:func:`~partikit._reporting._report.default_estimators`).
    discretizer : partikit discretizer or None, default=None
        The discretizer of the numeric columns; None: ``MODLDiscretizer()``,
        or ``BlockOptDiscretizer()`` for a continuous target.
    categorical, numeric : list of str or None, default=None
        Columns partitioned as categorical (grouped) or numeric (cut), whatever
        their dtype. Unless named here or in ``estimators``, a column of a
        numeric dtype (booleans excluded) is numeric; booleans, strings,
        objects and pandas ``category`` columns are categorical; any other
        dtype (dates, durations) is left out (``skipped_``), with a warning.
        Columns of an array without names are ``x0, x1, ...``.
    estimators : dict of str to estimator or None, default=None
        A grouper or a discretizer for some columns (cloned), which replaces
        the template for that column and decides its kind, e.g.
        ``{"age": BlockOptDiscretizer(monotonic_trend="ascending")}``;
        ``encode`` and ``woe_sign`` are set on it as on every column's.
    encode : {"auto", "woe", "target", "onehot", "onehot-dense", "ordinal"}, \
            default="auto"
        The output of every column, set on every estimator (each column's
        output is its estimator's ``transform``): ``"auto"`` is ``"woe"`` for
        a binary target, ``"target"`` for a continuous one and ``"onehot"``
        for a multiclass one. A choice the target does not allow (``"woe"``
        with a multiclass target, ...) raises the estimators' error before any
        column is fitted.
    woe_sign : {"event", "non_event"}, default="event"
        The sign of the weight of evidence, set on every estimator (see the
        groupers' ``woe_sign``).
    selection_criteria : dict or None, default=None
        Which columns :meth:`transform` keeps; None: all. optbinning's
        ``BinningProcess`` format, so that its users can move over: each key
        is a criterion, ``"iv"`` (binary targets), ``"p_value"`` (the
        Bonferroni-adjusted p-value, ``10 ** log10_adjusted_pvalue``),
        ``"cramers_v"`` (class targets), ``"r2"`` (continuous targets) or
        ``"n_parts"``, mapped to a dict of ``"min"`` and ``"max"`` (bounds,
        inclusive), ``"strategy"`` (``"highest"`` or ``"lowest"``: which
        values are best; default: the better direction of the criterion,
        ``"lowest"`` for ``"p_value"``, ``"highest"`` for the others) and
        ``"top"`` (keep that many best columns, an int, or that fraction,
        rounded up, of those passing so far). The criteria apply in the order
        above, each ``"top"`` among the columns passing the criteria before it
        (as in optbinning). The top-level key ``"top"`` then keeps the k best
        by ``rank`` among the columns passing every criterion. Unknown keys,
        or a criterion the target does not have, raise a ``ValueError``.
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The kind of ``y``, as scikit-learn's ``TargetEncoder`` takes it;
        ``"auto"``: floats that are not all integers are continuous, anything
        else class labels.
    n_jobs : int or None, default=None
        Columns fitted in parallel (threads); None means 1. Counting is one
        :func:`~partikit.column_tables` call.

    Attributes
    ----------
    estimators_ : dict of str to fitted estimator
        The grouper or discretizer of each fitted column (one column each),
        in the order of X.
    summary_ : pandas.DataFrame
        One row per fitted column, in the order of X: the figures of
        ``partition_summary`` (see the groupers), ``rank`` (1: the most
        informative column, across all columns) and ``selected`` (whether
        :meth:`transform` outputs it).
    skipped_ : dict of str to str
        The columns left out, and why: a dtype neither numeric nor categorical
        (dates, durations: a report's rule, where the other estimators raise),
        or a column whose estimator's fit raised a ``ValueError`` on its
        table. A column that cannot be counted as its kind says (infinity in
        a numeric column, strings named numeric) raises.
    fit_warnings_ : dict of str to list of str
        The warnings each column's fit raised (a single category, ...).
    classes_ : ndarray of shape (n_classes,)
        The class labels (class targets only).
    class_counts_ : ndarray of float64
        The weighted count of each class; for a continuous target its moments
        ``(sum w, sum w y, sum w y^2)``.
    target_type_ : {"binary", "multiclass", "continuous"}
        The kind of target fitted.
    n_samples_fit_ : int
        Rows fitted (of positive weight); for a dask DataFrame, the total
        weight.
    n_features_in_ : int
        Number of columns seen in fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of the columns seen in fit, when X has string column names.

    See Also
    --------
    partikit.report : The same partitions, ranked, as a report.

    Notes
    -----
    Fitting costs one counting pass over the data (a bincount per column, see
    :func:`~partikit.column_tables`) and each column's algorithm on its table,
    whose size is the number of its categories or distinct values, not of
    rows. ``partial_fit`` and a dask DataFrame only change the counting: the
    tables add up, so the encoder is the one ``fit`` gives on all the rows.

    optbinning's ``BinningProcess`` is the same idea; its
    ``selection_criteria`` are read here with its meaning.

    References
    ----------
    .. [1] N. Siddiqi, "Credit Risk Scorecards: Developing and Implementing
       Intelligent Credit Scoring", Wiley, 2006 (weight of evidence,
       information value, scorecards).
    .. [2] M. Boulle, "MODL: a Bayes optimal discretization method for
       continuous attributes", Machine Learning 65(1), 131-165, 2006.
    .. [3] M. Boulle, "A Bayes optimal approach for partitioning the values of
       categorical attributes", Journal of Machine Learning Research 6,
       1431-1452, 2005.

    Examples
    --------
    >>> import pandas as pd
    >>> from partikit import PartitionEncoder
    >>> from partikit.datasets import make_grouped_categorical
    >>> X, y, _ = make_grouped_categorical(n_samples=2000, n_classes=2,
    ...                                    n_noise_features=1, random_state=0)
    >>> encoder = PartitionEncoder(selection_criteria={"iv": {"min": 0.02}})
    >>> encoder.fit(X, y).summary_[["n_parts", "rank", "selected"]]
    ... # doctest: +NORMALIZE_WHITESPACE
              n_parts  rank  selected
    column
    category        2     1      True
    noise_0         1     2     False
    >>> encoder.transform(X).shape
    (2000, 1)
    >>> encoder.get_feature_names_out()
    array(['category'], dtype=object)
    """

    #: the kinds of target it partitions from (the defaults read them all)
    _target_types = ("binary", "multiclass", "continuous")

    _parameter_constraints: dict = {
        "grouper": [HasMethods(["group_table"]), None],
        "discretizer": [HasMethods(["cut_table"]), None],
        "categorical": [list, tuple, str, None],
        "numeric": [list, tuple, str, None],
        "estimators": [dict, None],
        "encode": [
            StrOptions({"auto", "woe", "target", "onehot", "onehot-dense", "ordinal"})
        ],
        "woe_sign": [StrOptions({"event", "non_event"})],
        "selection_criteria": [dict, None],
        "target_type": [StrOptions(set(TARGET_TYPES))],
        "n_jobs": [Integral, None],
    }

    def __init__(
        self,
        grouper=None,
        discretizer=None,
        *,
        categorical=None,
        numeric=None,
        estimators=None,
        encode="auto",
        woe_sign="event",
        selection_criteria=None,
        target_type="auto",
        n_jobs=None,
    ):
        self.grouper = grouper
        self.discretizer = discretizer
        self.categorical = categorical
        self.numeric = numeric
        self.estimators = estimators
        self.encode = encode
        self.woe_sign = woe_sign
        self.selection_criteria = selection_criteria
        self.target_type = target_type
        self.n_jobs = n_jobs

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.target_tags.required = True
        return tags

    # --- fitting ----------------------------------------------------------

    # the columns' estimators are the user's: their parameters are validated
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Partition every column of X against y, rank and select the columns.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns. A dask DataFrame is counted partition by partition
            where it lives, and the tables added (the same encoder as in
            memory).
        y : array-like of shape (n_samples,)
            Class labels, or a continuous target; a dask Series partitioned
            like X when X is a dask DataFrame.
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights; rows of zero weight are ignored.

        Returns
        -------
        self : PartitionEncoder
            The fitted encoder.
        """
        with fit_lock(self):
            forget_chunks(self)
            _check_y_given(y)
            self._fit_start = time.perf_counter()
            self._weighted = sample_weight is not None
            if is_dask_collection(X) or is_dask_collection(y):
                kinds, skipped = self._resolve_kinds(self._dask_columns(X))
                names = list(kinds)
                counter = functools.partial(
                    _count_partition, names=names,
                    categorical=[n for n in names if kinds[n] == CATEGORICAL],
                    target_type=self.target_type,
                )  # fmt: skip
                tables = dask_tables(X, y, sample_weight, counter)
                self._set_target_name(y)
                return self._fit_counted(tables, kinds, skipped, {}, None)
            tables, kinds, skipped, failed, n_rows = self._count(
                X, y, sample_weight, reset=True
            )
            self._set_target_name(y)
            return self._fit_counted(tables, kinds, skipped, failed, n_rows)

    # the columns' estimators are the user's: their parameters are validated
    @_fit_context(prefer_skip_nested_validation=False)
    def partial_fit(self, X, y, sample_weight=None, classes=None):
        """Add one chunk of rows, and fit every column anew on all the chunks.

        The chunk is counted as :meth:`fit` counts X and its tables added to
        those of the chunks before it (since the last ``fit``); every column's
        estimator is then fitted by ``fit_tables`` on the sum: after every call
        the encoder is the one ``fit`` gives on all the chunks so far,
        concatenated. The kinds of the columns are decided on the first chunk;
        a column that a later chunk cannot count raises its error.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The chunk; the same columns in every call.
        y : array-like of shape (n_samples,)
            Its target (say ``target_type="continuous"`` for a continuous one:
            each chunk's guess could differ).
        sample_weight : array-like of shape (n_samples,), default=None
            Frequency weights of its rows.
        classes : array-like of shape (n_classes,), default=None
            Every class label the chunks may hold, on the first call: a label
            outside it raises a ``ValueError``.

        Returns
        -------
        self : PartitionEncoder
            The encoder fitted on every chunk so far. Until the chunks hold two
            classes it is not fitted, and the call raises ``ValueError`` (the
            chunk is counted). A call that raises for any other reason leaves
            it as it was before the call (its fit and the chunks counted so
            far). Calls from several threads run one after the other: no
            chunk is lost.
        """
        _check_y_given(y)
        with fit_lock(self), unchanged_on_failure(self) as attempt:
            self._fit_start = time.perf_counter()
            first = not hasattr(self, "_partial_tables")
            self._weighted = sample_weight is not None or (
                not first and getattr(self, "_weighted", False)
            )
            if first:
                tables, kinds, skipped, failed, n_rows = self._count(
                    X, y, sample_weight, reset=True
                )
                self._partial_state = (kinds, skipped, failed, 0)
            else:
                kinds, skipped, failed, n_before = self._partial_state
                X = _as_input(X)
                if y is not None and not isinstance(y, pd.Series):
                    y = np.asarray(y)
                self._columns_of(X, reset=False)
                names = [n for n in kinds if n not in failed]
                tables = self._count_frame(X, y, sample_weight, names, kinds)
                n_rows = self._n_rows(X, sample_weight)
            kinds, skipped, failed, n_before = self._partial_state
            self._partial_tables = partial_tables(self, tables, classes, first)
            self._partial_state = (kinds, skipped, failed, n_before + n_rows)
            self._set_target_name(y)
            if lacks_classes(self._partial_tables):
                attempt.keep()
            return self._fit_counted(
                self._partial_tables, kinds, skipped, failed, n_before + n_rows
            )

    # the columns' estimators are the user's: their parameters are validated
    @_fit_context(prefer_skip_nested_validation=False)
    def fit_tables(self, tables):
        """Fit every column from tables counted elsewhere.

        ``fit`` is ``fit_tables`` of the tables of X's columns, each counted
        as its kind says (``column_tables(X, y, categorical_features=[...])``):
        tables counted by chunks, in other processes or on a cluster, and
        added, give the encoder ``fit`` gives on all their rows. Each column's
        kind is the kind it was counted as; ``categorical``, ``numeric`` and
        ``estimators`` must agree with it.

        Parameters
        ----------
        tables : ColumnTables
            From :func:`~partikit.column_tables`, counted with a target.

        Returns
        -------
        self : PartitionEncoder
            The fitted encoder.
        """
        with fit_lock(self):
            forget_chunks(self)
            if not isinstance(tables, ColumnTables):
                raise TypeError(
                    "PartitionEncoder.fit_tables takes the ColumnTables that "
                    f"partikit.column_tables returns, got {type(tables).__name__}."
                )
            if not tables.has_target:
                raise ValueError(
                    "These tables were counted without a target; PartitionEncoder "
                    "learns from one: pass y to column_tables."
                )
            self._fit_start = time.perf_counter()
            self._weighted, self._target_name = False, None
            set_input_features(self, tables)
            names = [str(n) for n in tables.feature_names]
            kinds, _ = self._resolve_kinds(
                dict.fromkeys(names, pd.Series([], dtype=object))
            )
            counted = dict(zip(names, tables.kinds, strict=True))
            wrong = [n for n in names if kinds[n] != counted[n] and _is_said(self, n)]
            if wrong:
                raise ValueError(
                    f"The columns {wrong} were counted with another kind than "
                    "categorical=, numeric= or estimators= give them; count them with "
                    "column_tables(..., categorical_features=[...]) as they say."
                )
            return self._fit_counted(tables, counted, {}, {}, None)

    def _set_target_name(self, y):
        name = getattr(y, "name", None)
        self._target_name = None if name is None else str(name)

    def _columns_of(self, X, reset):
        """X's columns by name (``x0, ...`` without names), its features checked.

        A DataFrame's columns are checked by ``column_tables`` once their kinds
        are known: a column of dates is left out here, where an estimator of
        one column refuses it.
        """
        if _is_pandas_df(X) or _is_polars_df(X):
            if X.shape[0] == 0 or X.shape[1] == 0:
                # the messages of an empty X
                check_categorical_X(self, X, reset=reset)
            if _is_pandas_df(X):
                check_column_labels(X.columns)
            labels = pd.Index(list(X.columns), dtype=object)
            if labels.has_duplicates:
                duplicated = labels[labels.duplicated()].unique().tolist()
                raise ValueError(
                    f"X has duplicated column names {duplicated}: every column "
                    "must have a name of its own."
                )
            validate_data(
                self, X=pd.DataFrame(columns=labels), reset=reset,
                skip_check_array=True,
            )  # fmt: skip
            if _is_pandas_df(X):
                columns = [X.iloc[:, j] for j in range(X.shape[1])]
            else:
                columns = [_polars_column(X[:, j]) for j in range(X.shape[1])]
        else:
            columns = check_categorical_X(self, X, reset=reset)
        return dict(zip(self._input_names(), columns, strict=True))

    def _dask_columns(self, X):
        # the dtypes are known from dask's empty stand-in frame, before any
        # partition is read
        meta = getattr(X, "_meta", None)
        if not isinstance(meta, pd.DataFrame):
            raise TypeError(
                "PartitionEncoder.fit takes a dask DataFrame among the dask "
                f"collections; got {type(X).__name__}."
            )
        check_column_labels(meta.columns)
        self.n_features_in_ = meta.shape[1]
        self.feature_names_in_ = np.asarray([str(c) for c in meta.columns], object)
        return {str(c): meta[c] for c in meta.columns}

    def _resolve_kinds(self, columns):
        """The kind of every column to fit, and the columns left out with why."""
        for what, template, is_kind, example in (
            ("grouper", self.grouper, is_grouper, "MODLGrouper()"),
            ("discretizer", self.discretizer, is_discretizer, "MODLDiscretizer()"),
        ):
            _check_template(template, is_kind, what, example)
        categorical = _names(self.categorical, "categorical")
        numeric = _names(self.numeric, "numeric")
        chosen = dict(self.estimators or {})
        _check_known(categorical, columns, "categorical")
        _check_known(numeric, columns, "numeric")
        _check_known(list(chosen), columns, "estimators")
        both = sorted(set(categorical) & set(numeric), key=str)
        if both:
            raise ValueError(
                f"Columns {both} are listed as both categorical and numeric."
            )
        for name, estimator in chosen.items():
            _check_partitioner(estimator, f"estimators[{name!r}]")
        kinds, skipped = {}, {}
        for name, column in columns.items():
            if name in chosen:
                kinds[name] = CATEGORICAL if is_grouper(chosen[name]) else NUMERIC
            elif name in categorical:
                kinds[name] = CATEGORICAL
            elif name in numeric:
                kinds[name] = NUMERIC
            else:
                kind = infer_kind(_as_series(column))
                if kind is None:
                    skipped[name] = (
                        f"its dtype {column.dtype} is neither numeric nor "
                        "categorical; name it in categorical= or numeric= to "
                        "partition it"
                    )
                else:
                    kinds[name] = kind
        return kinds, skipped

    @staticmethod
    def _n_rows(X, sample_weight):
        if sample_weight is None:
            return int(np.shape(X)[0])
        return int(np.count_nonzero(np.asarray(sample_weight) != 0))

    def _count_frame(self, X, y, sample_weight, names, kinds):
        """One column_tables call counting the columns ``names`` of X."""
        all_names = self._input_names()
        positions = [all_names.index(n) for n in names]
        if len(positions) != len(all_names):
            if _is_pandas_df(X):
                X = X.iloc[:, positions]
            elif _is_polars_df(X):
                X = X.select([X.columns[p] for p in positions])
            else:
                X = X[:, positions]
        named = hasattr(self, "feature_names_in_")
        categorical = [
            n if named else i for i, n in enumerate(names) if kinds[n] == CATEGORICAL
        ]
        tables = column_tables(
            X, y, sample_weight, categorical_features=categorical,
            target_type=self.target_type,
        )  # fmt: skip
        # a subset of an array's columns is numbered anew: its names are X's
        tables.feature_names = np.asarray(names, dtype=object)
        return tables

    def _count(self, X, y, sample_weight, *, reset):
        """Check X and count every column to fit in one column_tables call.

        A column that ``column_tables`` refuses (strings named numeric,
        infinity in a numeric column) fails that call, and the error is
        raised: bad input loses nothing silently. A report
        (:func:`fit_with_progress` with ``skip_uncountable=True``) counts each
        column alone instead, leaves the failing ones out with their reason
        and counts the others together again; but a table too large for the
        target's classes (``TableSizeError``) is raised, since the target, not
        the column, is at fault.
        """
        X = _as_input(X)
        if y is not None and not isinstance(y, pd.Series):
            y = np.asarray(y)
        columns = self._columns_of(X, reset)
        kinds, skipped = self._resolve_kinds(columns)
        names, failed = list(kinds), {}
        if not names:
            raise ValueError(
                "No column of X can be partitioned: "
                + "; ".join(f"{n!r}: {why}" for n, why in skipped.items())
            )
        try:
            tables = self._count_frame(X, y, sample_weight, names, kinds)
        except TableSizeError:
            raise
        except ValueError:
            if len(names) == 1 or not getattr(self, "_skip_uncountable", False):
                raise
            for name in names:
                try:
                    self._count_frame(X, y, sample_weight, [name], kinds)
                except TableSizeError:
                    raise
                except ValueError as error:
                    failed[name] = str(error)
            counted = [n for n in names if n not in failed]
            if not counted:
                raise
            tables = self._count_frame(X, y, sample_weight, counted, kinds)
        return tables, kinds, skipped, failed, self._n_rows(X, sample_weight)

    def _resolved_encode(self, target_type):
        return AUTO_ENCODE[target_type] if self.encode == "auto" else self.encode

    def _column_estimator(self, name, kind, target_type):
        chosen = (self.estimators or {}).get(name)
        if chosen is None:
            grouper, discretizer = default_estimators(target_type)
            template = (
                (self.grouper or grouper)
                if kind == CATEGORICAL
                else (self.discretizer or discretizer)
            )
        else:
            template = chosen
        estimator = clone(template)
        return estimator.set_params(
            encode=self._resolved_encode(target_type), woe_sign=self.woe_sign
        )

    def _fit_counted(self, tables, kinds, skipped, failed, n_rows):
        """Fit every counted column's estimator on its table (stage 2)."""
        check_classes(tables)
        target_type = tables.target_type
        _check_selection_criteria(self.selection_criteria, target_type)
        counted = [str(n) for n in tables.feature_names]
        estimators = {
            name: self._column_estimator(name, kinds[name], target_type)
            for name in counted
        }
        for estimator in estimators.values():
            # refusals before any column is fitted, with the estimators' words
            check_target_type(
                estimator, target_type, getattr(estimator, "target_type", "auto")
            )
            check_encoded_target(estimator.encode, target_type)
        results = fit_each(
            estimators, tables, self.n_jobs, getattr(self, "_progress", None)
        )
        skipped = dict(skipped)
        skipped.update(failed)
        fitted, notes = {}, {}
        for name, (estimator, error, messages) in results.items():
            if error is not None:
                skipped[name] = error
            else:
                fitted[name] = estimator
            if messages:
                notes[name] = messages
        if skipped:
            warnings.warn(
                f"{len(skipped)} column(s) left out: "
                + "; ".join(f"{name!r}: {why}" for name, why in skipped.items()),
                UserWarning,
                # this method, fit, its _fit_context wrapper, then the caller
                stacklevel=4,
            )
        # the input order, as X has them
        order = [n for n in kinds if n in fitted]
        self.estimators_ = {name: fitted[name] for name in order}
        self.skipped_ = skipped
        self.fit_warnings_ = notes
        self.target_type_ = target_type
        if tables.classes is None:
            self.__dict__.pop("classes_", None)
        else:
            self.classes_ = tables.classes
        table = tables.tables[0]
        self.class_counts_ = np.asarray(table.sum(axis=0), dtype=np.float64)
        self.n_samples_fit_ = (
            int(round(float(table.sum(axis=0)[0] if target_type == CONTINUOUS
                            else table.sum())))
            if n_rows is None
            else int(n_rows)
        )  # fmt: skip
        self.summary_ = self._summary(target_type)
        self._fit_time = time.perf_counter() - self.__dict__.pop(
            "_fit_start", time.perf_counter()
        )
        return self

    def _summary(self, target_type):
        # an array's columns are each x0 to their estimator: named by X's place
        parts = [
            e.partition_summary().set_axis([name])
            for name, e in self.estimators_.items()
        ]
        if not parts:
            summary = pd.DataFrame(columns=["kind", "n_values", "n_parts", "rank"])
        else:
            summary = pd.concat(parts)
        summary.index.name = "column"
        summary["rank"] = rank_columns(summary) if len(summary) else []
        summary["selected"] = select_columns(
            summary, self.selection_criteria, target_type
        )
        return summary

    # --- selection and output -------------------------------------------

    def get_support(self, indices=False):
        """Which columns of X :meth:`transform` outputs.

        Parameters
        ----------
        indices : bool, default=False
            Return the positions of the kept columns instead of a mask.

        Returns
        -------
        support : ndarray
            A boolean mask over ``feature_names_in_`` (the columns of X), or
            the integer positions of the kept columns.
        """
        check_is_fitted(self)
        names = self._input_names()
        kept = set(self.summary_.index[self.summary_["selected"]])
        mask = np.array([n in kept for n in names], dtype=bool)
        return np.flatnonzero(mask) if indices else mask

    def _input_names(self):
        names = getattr(self, "feature_names_in_", None)
        if names is None:
            return [f"x{j}" for j in range(self.n_features_in_)]
        return [str(n) for n in names]

    def _selected(self):
        return list(self.summary_.index[self.summary_["selected"]])

    def transform(self, X):
        """Encode the selected columns of X, each by its estimator.

        Parameters
        ----------
        X : array-like, pandas or polars DataFrame of shape (n_samples, n_features)
            The columns seen in fit.

        Returns
        -------
        X_out : ndarray or sparse matrix
            The selected columns, in the order of X, each its estimator's
            output, side by side (a sparse matrix when an output is sparse, as
            ``encode="onehot"`` gives).
        """
        # a dask X is mapped over its partitions by dask_aware, before
        # scikit-learn's set_output wrapper would compute it into memory
        check_is_fitted(self)
        X = _as_input(X)
        self._columns_of(X, reset=False)
        names = self._input_names()
        parts = []
        # the columns' own estimators give numpy output whatever the global
        # configuration: this encoder's set_output wraps the whole
        with config_context(transform_output="default"), warnings.catch_warnings():
            # a mismatch of feature names is the encoder's to warn about, once
            warnings.filterwarnings(
                "ignore", message="X (does not have valid|has) feature names",
                category=UserWarning,
            )  # fmt: skip
            for name in self._selected():
                j = names.index(name)
                column = X.iloc[:, [j]] if _is_pandas_df(X) else X[:, [j]]
                parts.append(self.estimators_[name].transform(column))
        if not parts:
            return np.zeros((np.shape(X)[0], 0))
        if any(sp.issparse(p) for p in parts):
            return sp.hstack([sp.csr_matrix(p) for p in parts], format="csr")
        return np.hstack([np.asarray(p, dtype=np.float64) for p in parts])

    def get_feature_names_out(self, input_features=None):
        """The names of :meth:`transform`'s columns.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            The names of X's columns; None: ``feature_names_in_`` (or ``x0,
            x1, ...``).

        Returns
        -------
        feature_names_out : ndarray of str objects
            Each selected column's names, as its estimator's
            ``get_feature_names_out`` gives them, in the order of X.
        """
        check_is_fitted(self)
        input_features = _check_feature_names_in(self, input_features)
        names = self._input_names()
        out = []
        for name in self._selected():
            given = input_features[names.index(name)]
            estimator = self.estimators_[name]
            if hasattr(estimator, "feature_names_in_"):
                produced = estimator.get_feature_names_out()
                # renamed inputs: the prefix follows the name given
                produced = [str(given) + str(p)[len(name) :] for p in produced]
            else:
                produced = estimator.get_feature_names_out([given])
            out.extend(str(p) for p in produced)
        return np.asarray(out, dtype=object)

    # --- views: the report's, one code path --------------------------------

    def _report(self, selected_only=False):
        """The :class:`~partikit.Report` of the fitted columns (or the selected)."""
        from partikit._reporting._report import report_of

        check_is_fitted(self)
        return report_of(
            self,
            target=getattr(self, "_target_name", None),
            settings={
                "estimator": repr(self),
                "weighted": getattr(self, "_weighted", False),
            },
            fit_time=getattr(self, "_fit_time", 0.0),
            selected_only=selected_only,
        )

    def partition_table(self, column, *, max_members=10):
        """One column's partition table (see ``partition_table`` of the groupers).

        Parameters
        ----------
        column : str
            A fitted column (``x0, x1, ...`` for an array without names).
        max_members : int or None, default=10
            Members a group's label lists before counting the rest.

        Returns
        -------
        table : pandas.DataFrame
            One row per group or interval: see the groupers' and discretizers'
            ``partition_table``.
        """
        return self._report().partition_table(column, max_members=max_members)

    def plot_partition(self, column, ax=None):
        """Draw one column's partition (needs matplotlib).

        Parameters
        ----------
        column : str
            A fitted column.
        ax : matplotlib.axes.Axes or None, default=None
            Where to draw; None draws on a new figure.

        Returns
        -------
        ax : matplotlib.axes.Axes
            The axes drawn on.
        """
        return self._report().plot_partition(column, ax=ax)

    def mapping(self, values=None):
        """The learned mapping of the selected columns as a JSON-able document.

        Parameters
        ----------
        values : {"woe", "rate", "mean"} or None, default=None
            Also give every part its weight of evidence (with ``woe_sign``) or
            its event rate (binary target), or its mean (continuous target).

        Returns
        -------
        document : dict
            Schema ``partikit.mapping`` (see :ref:`mapping_schema`), one entry
            per column that :meth:`transform` outputs, most informative first.
        """
        return self._report(selected_only=True).mapping(values=values)

    def to_json(self, path=None, values=None):
        """The learned mapping of the selected columns, as JSON.

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write it; None only returns it.
        values : {"woe", "rate", "mean"} or None, default=None
            As :meth:`mapping` takes it.

        Returns
        -------
        text : str
            The JSON document of :meth:`mapping`.
        """
        return self._report(selected_only=True).to_json(path, values=values)

    def to_sql(self, table, *, values=None):
        """One SQL ``SELECT`` giving every row's part of every selected column.

        Parameters
        ----------
        table : str
            The name of the table holding the data, quoted in the statement.
        values : {"woe", "rate", "mean"} or None, default=None
            Give every row its part's weight of evidence, event rate or mean
            instead of the part id, as :meth:`mapping` takes it.

        Returns
        -------
        statement : str
            ``SELECT CASE WHEN ... END AS "column", ... FROM "table"``.
        """
        return self._report(selected_only=True).to_sql(table, values=values)

    def to_html(self, path=None):
        """Every fitted column's partition, ranked, as ONE self-contained HTML file.

        The report's page (see :meth:`partikit.Report.to_html`): the overview
        of the columns, most informative first, and each column's table and
        plot.

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write it; None only returns it.

        Returns
        -------
        text : str
            The HTML document.
        """
        return self._report().to_html(path)
