# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""A report of every column's partition against a target, like Khiops' analysis.

:func:`report` fits a grouper on each categorical column and a discretizer on
each numeric column, ranks the columns by how much their partition tells of the
target, and returns a :class:`Report`: an overview table, one partition table
and plot per column, one self-contained HTML file, and the learned mapping as
JSON or SQL for systems without Python.
"""

from __future__ import annotations

import datetime
import html
import json
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.base import clone

from partikit._counting._validation import check_sample_weight
from partikit._estimator._inspection import members_label
from partikit._estimator._renames import Renamed, renamed_keywords
from partikit._reporting._encoder import (
    PartitionEncoder,
    check_column_labels,
    default_estimators,
    fit_with_progress,
    infer_kind,
)
from partikit._reporting._mapping import (
    column_mapping,
    is_discretizer,
    is_grouper,
    mapping_document,
    mapping_sql,
)
from partikit._reporting._svg import partition_svg
from partikit._statistics._moments import CONTINUOUS
from partikit._version import __version__
from partikit.groupers import AttributeAggregator

__all__ = ["Report", "default_estimators", "infer_kind", "report", "report_of"]

#: Members of a group listed in the HTML report's unfolded label.
_HTML_MAX_MEMBERS = 200


def _names(values, what):
    if values is None:
        return None
    if isinstance(values, str):
        values = [values]
    values = list(values)
    if len(set(values)) != len(values):
        raise ValueError(f"{what} lists a column more than once: {values}.")
    return values


def _reported_columns(X, columns, categorical, numeric):
    """The columns to report, in order: ``columns`` and the ones named a kind."""
    columns = list(X.columns) if columns is None else columns
    for names, what in ((columns, "columns"), (categorical or [], "categorical"),
                        (numeric or [], "numeric")):  # fmt: skip
        unknown = [n for n in names if n not in X.columns]
        if unknown:
            shown = list(X.columns)[:20]
            raise ValueError(
                f"{what} names columns that are not in X: {unknown}. X has the "
                f"columns {shown}{' ...' if X.shape[1] > 20 else ''}."
            )
    for name in [*(categorical or []), *(numeric or [])]:
        if name not in columns:
            columns.append(name)
    return columns


def _check_estimator(estimator, is_kind, what, example):
    if not is_kind(estimator):
        raise TypeError(
            f"{what} must be a partikit {what} (for instance {example}), got "
            f"{estimator!r}."
        )


def report(
    X,
    y,
    *,
    grouper=None,
    discretizer=None,
    columns=None,
    categorical=None,
    numeric=None,
    pairs=False,
    sample_weight=None,
    progress=None,
    target_type="auto",
):
    """Partition every column of X against the target y, and rank the columns.

    Each categorical column is grouped by a clone of ``grouper``, each numeric
    column cut into intervals by a clone of ``discretizer`` (the kind of a column
    follows :func:`infer_kind` unless ``categorical`` or ``numeric`` name it).
    The robust defaults leave a column that tells nothing of the target in one
    part, so noise stands out at the bottom of the ranking. The columns are
    partitioned by :class:`~partikit.PartitionEncoder` (``encode="ordinal"``),
    the one code path of both; a column that cannot be counted as its kind
    says is left out here (with its reason) where the encoder raises.

    **Continuous targets.** A continuous target (``target_type="continuous"``,
    or floats that are not all integers with ``"auto"``) is summarised per
    value by its weight, sum and sum of squares; the defaults are then
    ``CHAIDGrouper()`` and ``BlockOptDiscretizer()`` (see
    :func:`default_estimators`), the partition tables give each part's mean
    and standard deviation, and the columns are ranked by the F-test of their
    parts' means (Bonferroni-adjusted as for classes; ties by R²). A grouper or
    discretizer that needs class labels is refused with its own error.

    Read more in the :ref:`User Guide <inspection>`.

    **Kinds of columns.** Unless ``categorical`` or ``numeric`` name it, a
    column of a numeric dtype (integers, floats, pandas nullable numbers;
    booleans excluded) is numeric; booleans, strings, objects and pandas
    ``category`` columns are categorical; any other dtype (dates, durations) is
    left out, and listed in the report's ``skipped`` with the reason.

    Parameters
    ----------
    X : pandas DataFrame of shape (n_samples, n_features)
        The data. A numpy array or polars DataFrame is converted with pandas.
    y : array-like of shape (n_samples,) or str
        The target (class labels or a continuous quantity), or the name of X's
        column that holds it (that column is then not reported).
    grouper : partikit grouper or None, default=None
        The grouper of the categorical columns, with its parameters (cloned for
        each column); None: ``MODLGrouper()``, the grouper that learned the
        most at every number of categories measured (``bench_modl``), or
        ``CHAIDGrouper()`` for a continuous target.

        .. versionchanged:: 0.2
           The default was ``KhiopsGrouper()``.
    discretizer : partikit discretizer or None, default=None
        The discretizer of the numeric columns; None: ``MODLDiscretizer()``,
        or ``BlockOptDiscretizer()`` for a continuous target.

        .. versionchanged:: 0.2
           The default was ``KhiopsDiscretizer()``: on adult, a logistic
           regression on MODL's bins has the lower held-out log-loss
           (``bench_scorecard``), and MODL is exact under bin constraints.
    columns : list of str or None, default=None
        The columns to report, in this order; None: every column of X.
    categorical, numeric : list of str or None, default=None
        Columns reported as categorical (grouped) or numeric (cut), whatever
        their dtype; they are added to ``columns`` if missing from it.
    pairs : bool or int, default=False
        Also list the pairs of columns that are worth combining:
        :class:`~partikit.groupers.AttributeAggregator` with ``search="pairs"``
        (scored with ``grouper``) on the categorical columns and the intervals
        of the numeric ones; an int keeps that many pairs at most.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Frequency weights.
    progress : callable or None, default=None
        Called as ``progress(done, total, column)`` after each column's fit: the
        command line draws its progress bar with it.
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        The kind of ``y``, as scikit-learn's ``TargetEncoder`` takes it.
        ``"auto"``: floats that are not all integers are a continuous target,
        anything else class labels; say ``"continuous"`` for a numeric target
        of integers (prices, counts): taken as thousands of classes, it makes
        tables too large and is refused.

        .. versionadded:: 0.2

    Returns
    -------
    report : Report
        The fitted partitions, the ranked overview and the exports.

    Examples
    --------
    >>> from partikit.datasets import make_grouped_categorical
    >>> from partikit import report
    >>> X, y, _ = make_grouped_categorical(n_samples=2000, n_noise_features=1,
    ...                                    random_state=0)
    >>> result = report(X, y)
    >>> result.to_frame()[["kind", "n_parts", "rank"]]  # doctest: +NORMALIZE_WHITESPACE
                     kind  n_parts  rank
    column
    category  categorical        3     1
    noise_0   categorical        1     2
    """
    start = time.perf_counter()
    for estimator, is_kind, what, example in (
        (grouper, is_grouper, "grouper", "MODLGrouper()"),
        (discretizer, is_discretizer, "discretizer", "KhiopsDiscretizer()"),
    ):
        if estimator is not None:
            _check_estimator(estimator, is_kind, what, example)
    if not isinstance(X, pd.DataFrame):
        X = pd.DataFrame(X.to_pandas() if hasattr(X, "to_pandas") else X)
    # before the names become their text, where 1 and "1" would be one
    check_column_labels(X.columns)
    X = X.rename(columns=str)
    target = None
    if isinstance(y, str):
        if y not in X.columns:
            raise ValueError(
                f"y={y!r} names no column of X; give the target's values or the "
                "name of the column that holds them."
            )
        target, y = y, X[y].to_numpy()
        X = X.drop(columns=[target])
    elif isinstance(y, pd.Series) and y.name is not None:
        target = str(y.name)
    if X.shape[1] == 0:
        raise ValueError("X has no column to report.")
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)}.")
    sample_weight = check_sample_weight(sample_weight, len(X))
    y = np.asarray(y)
    if sample_weight is not None and (sample_weight == 0).any():
        # a row of weight 0 is a row removed, also from the target's classes
        keep = sample_weight > 0
        X, y, sample_weight = X[keep], y[keep], sample_weight[keep]
    categorical = _names(categorical, "categorical")
    numeric = _names(numeric, "numeric")
    if (
        columns is not None
        and not _names(columns, "columns")
        and not (categorical or numeric)
    ):
        raise ValueError(
            "columns is empty: name the columns to report, or give "
            "columns=None to report every column."
        )
    X = X[_reported_columns(X, _names(columns, "columns"), categorical, numeric)]
    # one code path: the encoder partitions, counts, fits and ranks the columns
    encoder = PartitionEncoder(
        grouper, discretizer, categorical=categorical, numeric=numeric,
        encode="ordinal", target_type=target_type,
    )  # fmt: skip
    with warnings.catch_warnings():
        # said below in the report's words
        warnings.filterwarnings("ignore", message=r"\d+ column\(s\) left out: ")
        fit_with_progress(encoder, X, y, sample_weight, progress, skip_uncountable=True)
    skipped = encoder.skipped_
    if skipped:
        warnings.warn(
            f"{len(skipped)} column(s) left out of the report: "
            + "; ".join(f"{name!r}: {why}" for name, why in skipped.items()),
            UserWarning,
            stacklevel=2,
        )
    target_type = encoder.target_type_
    default_grouper, default_discretizer = default_estimators(target_type)
    grouper = default_grouper if grouper is None else grouper
    discretizer = default_discretizer if discretizer is None else discretizer
    estimators = encoder.estimators_
    for name, kind in encoder.summary_["kind"].items():
        # the encoder gives all its columns one sign; a report keeps each
        # template's (the sign only reads the fitted table: nothing is refitted)
        template = grouper if kind == "categorical" else discretizer
        if name not in (encoder.estimators or {}):
            estimators[name].set_params(woe_sign=template.woe_sign)
    found_pairs = None
    if pairs and len(estimators) >= 2:
        kinds = encoder.summary_["kind"].to_dict()
        found_pairs = _find_pairs(
            X, estimators, kinds, y, target_type, sample_weight, grouper, pairs
        )
    return report_of(
        encoder,
        target=target,
        pairs=found_pairs,
        settings={
            "grouper": repr(grouper),
            "discretizer": repr(discretizer),
            "pairs": pairs,
            "weighted": sample_weight is not None,
        },
        fit_time=time.perf_counter() - start,
    )


def report_of(
    encoder, *, target=None, pairs=None, settings=None, fit_time=0.0,
    selected_only=False,
):  # fmt: skip
    """The :class:`Report` of a fitted :class:`~partikit.PartitionEncoder`.

    Parameters
    ----------
    encoder : PartitionEncoder
        Fitted.
    target : str or None, default=None
        The target's name.
    pairs : pandas.DataFrame or None, default=None
        The pairs worth combining.
    settings : dict or None, default=None
        Settings shown in the report (the version and the time are added).
    fit_time : float, default=0.0
        Seconds spent fitting.
    selected_only : bool, default=False
        Only the columns the encoder selected (those its ``transform``
        outputs).

    Returns
    -------
    report : Report
    """
    summary = encoder.summary_
    if selected_only:
        summary = summary[summary["selected"]]
    summary = summary.drop(columns="selected").sort_values("rank", kind="stable")
    kept = set(summary.index)
    estimators = {n: e for n, e in encoder.estimators_.items() if n in kept}
    settings = {
        **(settings or {}),
        "partikit": __version__,
        "created": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"
        ),
    }
    return Report(
        estimators=estimators,
        summary=summary,
        target=target,
        classes=getattr(encoder, "classes_", None),
        class_counts=encoder.class_counts_,
        target_type=encoder.target_type_,
        n_samples=encoder.n_samples_fit_,
        skipped=encoder.skipped_,
        notes={k: v for k, v in encoder.fit_warnings_.items() if v},
        pairs=pairs,
        settings=settings,
        fit_time=fit_time,
    )


def _find_pairs(X, estimators, kinds, y, target_type, sample_weight, grouper, pairs):
    """The pairs of columns AttributeAggregator's search keeps, best first."""
    frame = {}
    for name, estimator in estimators.items():
        if kinds[name] == "categorical":
            frame[name] = X[name]
        else:
            # a numeric column enters as its intervals
            frame[name] = estimator.transform(X[[name]])[:, 0].astype(np.intp)
    top_k = None if pairs is True else int(pairs)
    aggregator = AttributeAggregator(
        search="pairs", grouper=clone(grouper), top_k=top_k,
        target_type=target_type,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        aggregator.fit(pd.DataFrame(frame, index=X.index), y, sample_weight)
    results = aggregator.search_results_
    kept = results[results["selected"]].reset_index(drop=True)
    return kept.drop(columns=["selected"])


def describe_target(result):
    """A report's target in a few words: ``"continuous"`` or ``"3 classes"``."""
    if result.continuous:
        return "continuous"
    return f"{len(result.classes)} classes"


class Report:
    """The partitions of a data set's columns against a target, ranked.

    Made by :func:`report`; not meant to be built directly.

    Parameters
    ----------
    estimators : dict
        The fitted estimator of each column.
    summary : pandas.DataFrame
        The ranked overview.
    target : str or None
        The target's name.
    classes : ndarray or None
        The target's classes (None for a continuous target).
    class_counts : ndarray
        The count of each class, or a continuous target's moments.
    n_samples : int
        Rows of the data.
    skipped : dict
        The columns left out, and why.
    notes : dict
        The warnings of each column's fit.
    pairs : pandas.DataFrame or None
        The pairs worth combining.
    settings : dict
        The settings used.
    fit_time : float
        Seconds spent in :func:`report`.
    target_type : {"binary", "multiclass", "continuous"} or None, default=None
        The kind of target; None: class labels (binary or multiclass by the
        number of classes).

    Attributes
    ----------
    estimators : dict of str to fitted estimator
        The grouper or discretizer fitted on each reported column.
    summary : pandas.DataFrame
        One row per reported column, most informative first: the columns of
        ``partition_summary`` (``kind``, ``n_values``, ``n_parts``, ``chi2``,
        ``dof``, ``log10_pvalue``, ``log10_adjusted_pvalue``, ``cramers_v``,
        ``iv``, ``rank``; for a continuous target ``kind``, ``n_values``,
        ``n_parts``, ``F``, ``dfn``, ``dfd``, ``log10_pvalue``,
        ``log10_adjusted_pvalue``, ``r2``, ``rank``), ranked across all
        columns.
    target : str or None
        The target's name, when known.
    classes : ndarray or None
        The target's classes; None for a continuous target.
    class_counts : ndarray of float64
        The (weighted) count of each class; for a continuous target its
        moments ``(sum w, sum w y, sum w y^2)``.
    target_type : {"binary", "multiclass", "continuous"}
        The kind of target (``target_type`` of :func:`report`, or guessed).
    n_samples : int
        Rows of the data (of positive weight).
    skipped : dict of str to str
        The columns left out, and why.
    notes : dict of str to list of str
        Warnings raised while fitting a column (a single category, ...).
    pairs : pandas.DataFrame or None
        With ``pairs=``: the pairs worth combining, best first, with the
        columns of ``search_results_`` of
        :class:`~partikit.groupers.AttributeAggregator`.
    settings : dict
        The grouper, the discretizer and the other settings used.
    fit_time : float
        Seconds spent in :func:`report`.
    """

    def __init__(self, *, estimators, summary, target, classes, class_counts,
                 n_samples, skipped, notes, pairs, settings, fit_time,
                 target_type=None):  # fmt: skip
        self.estimators = estimators
        self.summary = summary
        self.target = target
        self.classes = classes
        self.class_counts = class_counts
        if target_type is None:
            target_type = "binary" if len(classes) <= 2 else "multiclass"
        self.target_type = target_type
        self.n_samples = n_samples
        self.skipped = skipped
        self.notes = notes
        self.pairs = pairs
        self.settings = settings
        self.fit_time = fit_time

    @property
    def continuous(self):
        """Whether the target is continuous (``target_type == "continuous"``)."""
        return self.target_type == CONTINUOUS

    def __repr__(self):
        return (
            f"<partikit Report: {len(self.estimators)} columns, {self.n_samples} "
            f"rows, target {self.target or 'y'} ({describe_target(self)})>"
        )

    def _estimator(self, column):
        if column not in self.estimators:
            raise ValueError(
                f"Column {column!r} is not in the report; it has "
                f"{list(self.estimators)[:20]}."
            )
        return self.estimators[column]

    def to_frame(self):
        """The ranked overview: one row per column, most informative first.

        Returns
        -------
        overview : pandas.DataFrame
            A copy of :attr:`summary`.
        """
        return self.summary.copy()

    @renamed_keywords(Renamed("max_categories", "max_members"))
    def partition_table(self, column, *, max_members=10):
        """One column's partition table (see ``partition_table`` of the groupers).

        Parameters
        ----------
        column : str
            A reported column.
        max_members : int or None, default=10
            Members a group's label lists before counting the rest.

        Returns
        -------
        table : pandas.DataFrame
            One row per group or interval: see the groupers' and discretizers'
            ``partition_table``.
        """
        return self._estimator(column).partition_table(0, max_members=max_members)

    def plot_partition(self, column, ax=None):
        """Draw one column's partition (needs matplotlib).

        Parameters
        ----------
        column : str
            A reported column.
        ax : matplotlib.axes.Axes or None, default=None
            Where to draw; None draws on a new figure.

        Returns
        -------
        ax : matplotlib.axes.Axes
            The axes drawn on (``ax.figure`` is the figure).
        """
        from partikit._estimator._plotting import plot_partition_table

        table = self._estimator(column).partition_table(0, max_members=3)
        return plot_partition_table(
            table,
            feature=column,
            # the figures and the rank among all the report's columns
            statistics=self.summary.loc[column].to_dict(),
            classes=None if self.continuous else [str(c) for c in self.classes],
            ax=ax,
        )

    def transform(self, X):
        """The part id of every row in every reported column.

        Parameters
        ----------
        X : pandas DataFrame
            Holding the reported columns (others are ignored).

        Returns
        -------
        parts : pandas.DataFrame of int
            One column per reported column, in the order of :attr:`summary`:
            the id ``transform(encode="ordinal")`` of its estimator gives.
        """
        if not isinstance(X, pd.DataFrame):
            X = pd.DataFrame(X.to_pandas() if hasattr(X, "to_pandas") else X)
        X = X.rename(columns=str)
        out = {}
        for name in self.summary.index:
            out[name] = (
                self.estimators[name].transform(X[[name]])[:, 0].astype(np.int64)
            )
        return pd.DataFrame(out, index=X.index)

    def mapping(self, *, values=None):
        """The learned mapping of every column as a JSON-able document.

        Parameters
        ----------
        values : {"woe", "rate", "mean"} or None, default=None
            Also give every part the value that encodes it: its weight of
            evidence (with each estimator's ``woe_sign``) or its event rate,
            binary targets only; the mean of the target in the part,
            continuous targets only (see :ref:`mapping_schema`).

            .. versionadded:: 0.2

        Returns
        -------
        document : dict
            Schema ``partikit.mapping`` (see :ref:`mapping_schema`).
        """
        columns = [
            column_mapping(self.estimators[n], 0, values=values)
            for n in self.summary.index
        ]
        return mapping_document(
            columns,
            target=self.target,
            classes=None
            if self.continuous
            else [_json_scalar(c) for c in self.classes],
            settings={k: _json_scalar(v) for k, v in self.settings.items()},
            values=values,
            target_type=self.target_type,
        )

    def to_json(self, path=None, *, values=None):
        """The learned mapping of every column, as JSON.

        Categories to groups, cut points to intervals, and the rules for
        missing values and unseen categories, in the documented, versioned
        schema of :ref:`mapping_schema`, which a system without Python can
        apply.

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write it; None only returns it.
        values : {"woe", "rate", "mean"} or None, default=None
            Also give every part its weight of evidence or its event rate
            (binary target), or its mean (continuous target), as
            :meth:`mapping` does.

            .. versionadded:: 0.2

        Returns
        -------
        text : str
            The JSON document.
        """
        text = json.dumps(self.mapping(values=values), indent=1, ensure_ascii=False,
                          allow_nan=False)  # fmt: skip
        return _written(text + "\n", path)

    def to_sql(self, table, *, values=None):
        """One SQL ``SELECT`` giving every row's part id in every column.

        Parameters
        ----------
        table : str
            The name of the table holding the data, quoted in the statement.
        values : {"woe", "rate", "mean"} or None, default=None
            Give every row its part's weight of evidence (with each
            estimator's ``woe_sign``) or event rate instead of the part id,
            binary targets only; or its part's mean of the target, continuous
            targets only.

            .. versionadded:: 0.2

        Returns
        -------
        statement : str
            ``SELECT CASE WHEN ... END AS "column", ... FROM "table"``: the ids
            that :meth:`transform` gives (missing values are NULL), or their
            parts' values.
        """
        return mapping_sql(self.mapping(values=values), table)

    def to_html(self, path=None):
        """The report as ONE self-contained HTML file.

        An overview of the columns, most informative first, then one section
        per column with its partition table and plot (inline SVG written from
        the table, with a tooltip per part; matplotlib is not needed), the
        data's shape, the target's distribution and the settings used. No
        script, no external style sheet or font: the file opens offline.

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write it; None only returns it.

        Returns
        -------
        text : str
            The HTML document.
        """
        return _written(_render_html(self), path)

    def _repr_html_(self):
        return _render_html(self, standalone=False)


def _written(text, path):
    """``text``, written to ``path`` (UTF-8) first unless ``path`` is None."""
    if path is not None:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    return text


def _json_scalar(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


# --- HTML -------------------------------------------------------------------

_CSS = """
.pk-report { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
  color: #1f2328; max-width: 1100px; margin: 0 auto; padding: 1em; line-height: 1.4; }
.pk-report h1 { font-size: 1.6em; margin-bottom: 0.2em; }
.pk-report h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #d0d7de;
  padding-bottom: 0.2em; }
.pk-report .pk-muted { color: #59636e; }
.pk-report table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.88em; }
.pk-report th, .pk-report td { border: 1px solid #d0d7de; padding: 0.25em 0.55em;
  text-align: right; vertical-align: top; }
.pk-report th { background: #f6f8fa; }
.pk-report td.pk-text, .pk-report th.pk-text { text-align: left; }
.pk-report tr:nth-child(even) td { background: #fbfcfd; }
.pk-report td.pk-label { text-align: left; max-width: 28em; overflow-wrap: anywhere; }
.pk-report .pk-bar { display: inline-block; height: 0.7em; background: #4c78a8;
  vertical-align: middle; margin-right: 0.3em; }
.pk-report .pk-flag { font-size: 0.8em; color: #9a6700; }
.pk-report details summary { cursor: pointer; }
.pk-report .pk-plot svg { max-width: 100%; height: auto; }
.pk-report .pk-note { background: #fff8c5; padding: 0.3em 0.6em; font-size: 0.9em; }
"""


def _e(value):
    return html.escape(str(value), quote=True)


def _number(value, digits=4):
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (int, np.integer)):
        return f"{int(value):,}"
    value = float(value)
    if abs(value) < 1e15 and (abs(value) >= 10**digits or value == int(value)):
        # no exponent for a large statistic: 11,930 rather than 1.193e+04
        return f"{value:,.0f}"
    return f"{value:.{digits}g}"


def _anchor(index):
    return f"col-{index}"


def _continuous_overview_html(report):
    head = (
        "<tr><th>rank</th><th class='pk-text'>column</th><th class='pk-text'>kind"
        "</th><th>values</th><th>parts</th><th>F</th><th>dfn</th><th>dfd</th>"
        "<th>log10 p</th><th>log10 adjusted p</th><th>R²</th></tr>"
    )
    rows = []
    for i, (name, row) in enumerate(report.summary.iterrows()):
        bar = f"<span class='pk-bar' style='width:{row['r2'] * 6:.2f}em'></span>"
        rows.append(
            f"<tr><td>{int(row['rank'])}</td><td class='pk-text'><a href="
            f"'#{_anchor(i)}'>{_e(name)}</a></td><td class='pk-text'>{row['kind']}</td>"
            f"<td>{_number(row['n_values'])}</td><td>{_number(row['n_parts'])}</td>"
            f"<td>{_number(row['F'])}</td><td>{_number(row['dfn'])}</td>"
            f"<td>{_number(row['dfd'])}</td>"
            f"<td>{_number(row['log10_pvalue'])}</td>"
            f"<td>{_number(row['log10_adjusted_pvalue'])}</td>"
            f"<td class='pk-text'>{bar}{_number(row['r2'], 3)}</td></tr>"
        )
    return f"<table class='pk-overview'>{head}{''.join(rows)}</table>"


def _overview_html(report):
    if report.continuous:
        return _continuous_overview_html(report)
    head = (
        "<tr><th>rank</th><th class='pk-text'>column</th><th class='pk-text'>kind"
        "</th><th>values</th><th>parts</th><th>chi2</th><th>dof</th>"
        "<th>log10 p</th><th>log10 adjusted p</th><th>Cramer's V</th><th>IV</th></tr>"
    )
    rows = []
    for i, (name, row) in enumerate(report.summary.iterrows()):
        bar = f"<span class='pk-bar' style='width:{row['cramers_v'] * 6:.2f}em'></span>"
        rows.append(
            f"<tr><td>{int(row['rank'])}</td><td class='pk-text'><a href="
            f"'#{_anchor(i)}'>{_e(name)}</a></td><td class='pk-text'>{row['kind']}</td>"
            f"<td>{_number(row['n_values'])}</td><td>{_number(row['n_parts'])}</td>"
            f"<td>{_number(row['chi2'])}</td><td>{_number(row['dof'])}</td>"
            f"<td>{_number(row['log10_pvalue'])}</td>"
            f"<td>{_number(row['log10_adjusted_pvalue'])}</td>"
            f"<td class='pk-text'>{bar}{_number(row['cramers_v'], 3)}</td>"
            f"<td>{_number(row['iv'], 3)}</td></tr>"
        )
    return f"<table class='pk-overview'>{head}{''.join(rows)}</table>"


def _members_html(estimator, part, label):
    """A group's label, unfolding into its members when it was shortened."""
    if not is_grouper(estimator):
        return _e(label)
    members = estimator.groups_[0][part]
    if len(members) <= 10:
        return _e(label)

    listed = members_label(members, _HTML_MAX_MEMBERS)
    return (
        f"<details><summary>{_e(label)}</summary>{len(members):,} members: "
        f"{_e(listed)}</details>"
    )


def _table_html(report, name):
    estimator = report.estimators[name]
    table = estimator.partition_table(0)
    classes = [] if report.continuous else [str(c) for c in report.classes]
    binary = "woe" in table
    head = ["part", "label", "count", "share"]
    head += [f"rate {c}" for c in classes] if len(classes) <= 12 else []
    head += ["event rate", "WoE", "IV"] if binary else []
    head += ["mean", "std", "mean − overall"] if report.continuous else []
    cells = [
        "".join(
            f"<th class='pk-text'>{_e(h)}</th>" if h == "label" else f"<th>{_e(h)}</th>"
            for h in head
        )
    ]
    for part, row in table.iterrows():
        marks = (("missing", row["missing"]), ("unknown", row["unknown"]),
                 ("special", row.get("special", False)))  # fmt: skip
        flags = [f for f, on in marks if on]
        flag = ", ".join(flags)
        flag = f" <span class='pk-flag'>[{flag} values]</span>" if flags else ""
        values = [
            f"<td>{part}</td>",
            f"<td class='pk-label'>{_members_html(estimator, part, row['label'])}"
            f"{flag}</td>",
            f"<td>{_number(row['count'])}</td>",
            f"<td>{_number(row['share'], 3)}</td>",
        ]
        if len(classes) <= 12:
            values += [f"<td>{_number(row[f'rate_{c}'], 3)}</td>" for c in classes]
        if binary:
            values += [
                f"<td>{_number(row['event_rate'], 3)}</td>",
                f"<td>{_number(row['woe'], 3)}</td>",
                f"<td>{_number(row['iv'], 3)}</td>",
            ]
        if report.continuous:
            values += [
                f"<td>{_number(row[column])}</td>"
                for column in ("mean", "std", "mean_difference")
            ]
        cells.append("".join(values))
    rows = "".join(f"<tr>{c}</tr>" for c in cells)
    return f"<table class='pk-partition'>{rows}</table>"


def _plot_svg(report, name, index):
    """The column's plot as inline SVG text, written from its partition table
    (no matplotlib: milliseconds per plot)."""
    table = report.partition_table(name, max_members=3)
    return partition_svg(
        table,
        feature=name,
        # the figures and the rank among all the report's columns
        statistics=report.summary.loc[name].to_dict(),
        classes=None if report.continuous else [str(c) for c in report.classes],
        id_prefix=_anchor(index),
    )


def _column_figures(report, row):
    """A column's kind, size and test statistics, in one line."""
    values = "categories" if row["kind"] == "categorical" else "distinct values"
    described = (
        f"{row['kind']}, {_number(row['n_values'])} {values}, "
        f"{_number(row['n_parts'])} parts"
    )
    if report.continuous:
        return (
            f"{described}; F = {_number(row['F'])} (dfn {_number(row['dfn'])}, "
            f"dfd {_number(row['dfd'])}), log10 p = "
            f"{_number(row['log10_pvalue'])}, R² = {_number(row['r2'], 3)}"
        )
    return (
        f"{described}; chi2 = {_number(row['chi2'])} "
        f"(dof {_number(row['dof'])}), log10 p = {_number(row['log10_pvalue'])}, "
        f"Cramer's V = {_number(row['cramers_v'], 3)}"
        + (f", IV = {_number(row['iv'], 3)}" if not np.isnan(row["iv"]) else "")
    )


def _section_html(report, index, name, plots):
    row = report.summary.loc[name]
    estimator = report.estimators[name]
    figures = _column_figures(report, row)
    notes = "".join(
        f"<p class='pk-note'>{_e(n)}</p>" for n in report.notes.get(name, [])
    )
    plot = (
        f"<div class='pk-plot'>{_plot_svg(report, name, index)}</div>" if plots else ""
    )
    return (
        f"<section id='{_anchor(index)}'><h2>{int(row['rank'])}. {_e(name)}</h2>"
        f"<p class='pk-muted'>{_e(figures)}. {_e(type(estimator).__name__)}.</p>"
        f"{notes}{_table_html(report, name)}{plot}</section>"
    )


def _continuous_target_html(report):
    weight, total, squares = (float(v) for v in report.class_counts)
    mean = total / weight if weight > 0 else np.nan
    variance = max(squares / weight - mean * mean, 0.0) if weight > 0 else np.nan
    return (
        "<table class='pk-target'><tr><th>count</th><th>mean</th><th>std</th></tr>"
        f"<tr><td>{_number(weight)}</td><td>{_number(mean)}</td>"
        f"<td>{_number(np.sqrt(variance))}</td></tr></table>"
    )


def _target_html(report):
    if report.continuous:
        return _continuous_target_html(report)
    total = report.class_counts.sum()
    rows = "".join(
        f"<tr><td class='pk-text'>{_e(c)}</td><td>{_number(n)}</td>"
        f"<td>{_number(n / total if total else np.nan, 3)}</td></tr>"
        for c, n in zip(report.classes, report.class_counts, strict=True)
    )
    return (
        "<table class='pk-target'><tr><th class='pk-text'>class</th><th>count</th>"
        f"<th>share</th></tr>{rows}</table>"
    )


def _pairs_html(report):
    if report.pairs is None:
        return ""
    if not len(report.pairs):
        return "<h2>Pairs worth combining</h2><p>None passed the search's test.</p>"
    rows = "".join(
        f"<tr><td class='pk-text'>{_e(' x '.join(map(str, row['members'])))}</td>"
        f"<td>{_number(row['n_combinations'])}</td><td>{_number(row['n_groups'])}</td>"
        f"<td>{_number(row['log10_adjusted_pvalue'])}</td>"
        f"<td>{_number(row['gain'])}</td></tr>"
        for _, row in report.pairs.iterrows()
    )
    return (
        "<h2>Pairs worth combining</h2><p class='pk-muted'>AttributeAggregator("
        "search='pairs'): each pair's combinations grouped are more significant "
        "than either column alone by <em>gain</em> decades.</p><table><tr>"
        "<th class='pk-text'>columns</th><th>combinations</th><th>groups</th>"
        f"<th>log10 adjusted p</th><th>gain</th></tr>{rows}</table>"
    )


def _render_html(report, standalone=True, plots=True):
    settings = "".join(
        f"<tr><td class='pk-text'>{_e(k)}</td><td class='pk-text'>{_e(v)}</td></tr>"
        for k, v in report.settings.items()
    )
    skipped = "".join(
        f"<li>{_e(name)}: {_e(why)}</li>" for name, why in report.skipped.items()
    )
    sections = "".join(
        _section_html(report, i, name, plots)
        for i, name in enumerate(report.summary.index)
    )
    n_columns = len(report.estimators) + len(report.skipped)
    body = (
        f"<div class='pk-report'><h1>partikit report</h1><p class='pk-muted'>"
        f"{report.n_samples:,} rows, {n_columns} columns reported against the target "
        f"<strong>{_e(report.target or 'y')}</strong> "
        f"({_e(describe_target(report))}), in {report.fit_time:.2f} s.</p>"
        f"<h2>Target</h2>{_target_html(report)}"
        f"<h2>Columns, most informative first</h2>"
        "<p class='pk-muted'>Ranked by the Bonferroni-adjusted log10 p-value of the "
        + (
            "F-test of the means of each column's parts (one-way analysis of "
            "variance; ties by R², the share of the target's squared error the "
            "parts explain).</p>"
            if report.continuous
            else "chi-square test of each column's partition against the target.</p>"
        )
        + _overview_html(report)
        + (f"<p>Left out:</p><ul>{skipped}</ul>" if skipped else "")
        + _pairs_html(report)
        + sections
        + f"<h2>Settings</h2><table>{settings}</table></div>"
    )
    style = f"<style>{_CSS}</style>"
    if not standalone:
        return style + body
    title = f"partikit report: {report.target or 'y'}"
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_e(title)}</title>{style}</head><body>{body}</body></html>\n"
    )
