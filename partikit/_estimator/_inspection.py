# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""What a fitted partition looks like: partition tables, the column summary, plots.

Every fitted grouper and discretizer (and :class:`AttributeAggregator` with a
grouper) shows each column's partition as a table with one row per part, and
ranks its columns by how much their partition tells of the target. Everything
here is computed from the fitted attributes (``table_``, ``categories_``,
``bin_edges_``...): no data is kept and nothing is refitted.
"""

from __future__ import annotations

from numbers import Integral
from typing import NamedTuple

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from partikit._estimator._renames import Renamed, renamed_keywords
from partikit._statistics._measures import (
    bonferroni_adjust,
    chi2_test,
    log10_bonferroni_nominal,
    log10_bonferroni_ordinal,
    significance_order,
    weight_of_evidence,
)
from partikit._statistics._moments import (
    CONTINUOUS,
    f_test,
    part_means,
    part_variances,
    part_weights,
)

#: Members listed in a group's label before the rest is counted.
DEFAULT_MAX_MEMBERS = 10

#: The columns of :meth:`PartitionInspectionMixin.partition_summary`.
SUMMARY_COLUMNS = (
    "kind", "n_values", "n_parts", "chi2", "dof", "log10_pvalue",
    "log10_adjusted_pvalue", "cramers_v", "iv", "rank",
)  # fmt: skip

#: The columns of :meth:`PartitionInspectionMixin.partition_summary` for a
#: continuous target: the one-way analysis of variance of the parts.
CONTINUOUS_SUMMARY_COLUMNS = (
    "kind", "n_values", "n_parts", "F", "dfn", "dfd", "log10_pvalue",
    "log10_adjusted_pvalue", "r2", "rank",
)  # fmt: skip


class ColumnParts(NamedTuple):
    """One fitted column's partition, as the inspection methods read it.

    Attributes
    ----------
    kind : {"categorical", "numeric"}
    n_values : int
        Categories (the missing category included) or distinct values (missing
        excluded) seen in fit.
    labels : list of str
        A readable label of each part.
    table : ndarray of shape (n_parts, n_classes) or (n_parts, 3)
        Class counts (weighted) of each part; for a continuous target its
        moments (weight, sum, sum of squares: a moment table).
    missing, unknown : ndarray of bool of shape (n_parts,)
        The part that ``transform`` sends missing values to, and the one that
        receives categories not seen in fit.
    special : ndarray of bool of shape (n_parts,) or None, default=None
        Discretizers: the parts of special values (``special_codes``); None
        for a grouper.
    searched : ndarray of bool of shape (n_parts,) or None, default=None
        The parts the method chose among (Kass's Bonferroni multiplier counts
        them): a discretizer's intervals; None: every part but a numeric
        column's missing part.
    """

    kind: str
    n_values: int
    labels: list
    table: np.ndarray
    missing: np.ndarray
    unknown: np.ndarray
    special: np.ndarray | None = None
    searched: np.ndarray | None = None


def value_text(value):
    """A category as a label shows it; missing values read ``missing``."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "missing"
    return str(value)


def members_label(values, max_members):
    """The members of a group, the first ``max_members`` then a count.

    Examples
    --------
    >>> members_label(["a", "b", "c", "d"], 2)
    'a, b, ... (+2 more)'
    """
    texts = [value_text(v) for v in values]
    if max_members is None or len(texts) <= max_members:
        return ", ".join(texts)
    shown = ", ".join(texts[:max_members])
    return f"{shown}, ... (+{len(texts) - max_members} more)"


def _distinct_texts(values):
    """``g`` formatting, 6 significant digits or more to keep the values apart."""
    for digits in range(6, 18):
        texts = [f"{v:.{digits}g}" for v in values]
        if len(set(texts)) == len(texts):
            return texts
    return [repr(float(v)) for v in values]


def interval_labels(cuts):
    """Labels ``(lo, hi]`` of the bins that inner cut points ``cuts`` make.

    A value ``x`` with ``cuts[m-1] < x <= cuts[m]`` is in bin ``m``; the end
    bins are open to infinity.

    Examples
    --------
    >>> interval_labels([1.5, 3.25])
    ['(-inf, 1.5]', '(1.5, 3.25]', '(3.25, inf)']
    """
    texts = _distinct_texts(cuts)
    bounds = ["-inf", *texts, "inf"]
    labels = [f"({lo}, {hi}]" for lo, hi in zip(bounds[:-2], bounds[1:-1], strict=True)]
    labels.append(f"({bounds[-2]}, inf)")
    return labels


def fitted_target_type(estimator):
    """The kind of target a fitted estimator read (``target_type_``).

    An estimator fitted before ``target_type_`` existed read class labels.
    """
    target_type = getattr(estimator, "target_type_", None)
    if target_type is None:
        return "binary" if len(estimator.classes_) <= 2 else "multiclass"
    return target_type


def partition_frame(parts, classes, woe_sign="event", target_type=None):
    """The partition table of one column (see ``partition_table``).

    ``woe_sign`` is the sign of the ``woe`` column (the estimator's
    ``woe_sign``); the ``iv`` column is positive with either sign. With
    ``target_type="continuous"`` the table is a moment table and ``classes``
    is ignored (see :func:`continuous_partition_frame`).
    """
    if target_type == CONTINUOUS:
        return continuous_partition_frame(parts)
    table = np.asarray(parts.table, dtype=np.float64)
    counts = table.sum(axis=1)
    total = counts.sum()
    names = [str(c) for c in classes]
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = table / counts[:, None]
        share = counts / total if total > 0 else np.full(len(counts), np.nan)
    data = {"label": list(parts.labels), "count": counts, "share": share}
    data.update((f"count_{name}", table[:, c]) for c, name in enumerate(names))
    data.update((f"rate_{name}", rates[:, c]) for c, name in enumerate(names))
    if len(names) == 2:
        woe, iv = _woe_iv(table, woe_sign)
        data.update(event_rate=rates[:, 1], woe=woe, iv=iv)
    data["missing"] = np.asarray(parts.missing, dtype=bool)
    data["unknown"] = np.asarray(parts.unknown, dtype=bool)
    if parts.special is not None:
        data["special"] = np.asarray(parts.special, dtype=bool)
    return pd.DataFrame(data, index=pd.RangeIndex(len(counts), name="part"))


def continuous_partition_frame(parts):
    """The partition table of one column fitted on a continuous target.

    Columns ``label``, ``count`` (the weight of the part), ``share``, ``mean``
    and ``std`` (the weighted mean and population standard deviation of the
    target in the part, ``sqrt(sum w (y - mean)^2 / sum w)``, NaN for an
    empty part), ``mean_difference`` (the part's mean minus the mean of the
    whole target), ``missing`` and ``unknown``.
    """
    table = np.asarray(parts.table, dtype=np.float64)
    counts = part_weights(table, CONTINUOUS)
    total = counts.sum()
    empty = counts <= 0
    means = part_means(table, default=np.nan)
    std = np.sqrt(part_variances(table))
    std[empty] = np.nan
    overall_mean = table[:, 1].sum() / total if total > 0 else np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        share = counts / total if total > 0 else np.full(len(counts), np.nan)
    data = {
        "label": list(parts.labels),
        "count": counts,
        "share": share,
        "mean": means,
        "std": std,
        "mean_difference": means - overall_mean,
        "missing": np.asarray(parts.missing, dtype=bool),
        "unknown": np.asarray(parts.unknown, dtype=bool),
    }
    if parts.special is not None:
        data["special"] = np.asarray(parts.special, dtype=bool)
    return pd.DataFrame(data, index=pd.RangeIndex(len(counts), name="part"))


def _woe_iv(table, sign="event"):
    """Weight of evidence and information value of each part (binary target).

    The WoE is that of ``encode="woe"``
    (:func:`~partikit._statistics._measures.weight_of_evidence`) with the sign
    ``sign``, NaN for an empty part; a part's IV is ``(pos/P - neg/N) * woe``
    with the ``"event"`` sign (``(neg/N - pos/P) * woe`` with the other), so
    it does not depend on the sign; 0 when empty.
    """
    woe = weight_of_evidence(table, sign=sign)
    negatives, positives = table[:, 0], table[:, 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        difference = positives / positives.sum() - negatives / negatives.sum()
        iv = (-difference if sign == "non_event" else difference) * woe
    empty = table.sum(axis=1) == 0
    woe[empty] = np.nan
    iv[empty] = 0.0
    return woe, iv


def column_statistics(parts, n_classes, target_type=None):
    """The figures of one column in ``partition_summary`` (rank excluded).

    ``n_classes`` is ignored for ``target_type="continuous"``: the figures are
    then those of :func:`continuous_column_statistics`.
    """
    if target_type == CONTINUOUS:
        return continuous_column_statistics(parts)
    table = np.asarray(parts.table, dtype=np.float64)
    chi2, dof, log10_pvalue = chi2_test(table)
    rows = int((table.sum(axis=1) > 0).sum())
    columns = int((table.sum(axis=0) > 0).sum())
    total = table.sum()
    smaller = min(rows, columns) - 1
    cramers_v = float(np.sqrt(chi2 / (total * smaller))) if smaller > 0 else 0.0
    iv = float(_woe_iv(table)[1].sum()) if n_classes == 2 else np.nan
    return {
        "kind": parts.kind,
        "n_values": int(parts.n_values),
        "n_parts": rows,
        "chi2": float(chi2),
        "dof": int(dof),
        "log10_pvalue": float(log10_pvalue),
        "log10_adjusted_pvalue": _adjusted(parts, log10_pvalue),
        "cramers_v": min(cramers_v, 1.0),
        "iv": iv,
    }


def continuous_column_statistics(parts):
    """The figures of one column fitted on a continuous target (rank excluded).

    The one-way analysis of variance of the column's parts
    (:func:`~partikit._statistics._moments.f_test`): ``F``, its degrees of
    freedom ``dfn = k - 1`` and ``dfd = n - k`` (``n`` the total weight),
    ``log10_pvalue``, the same p-value times Kass's Bonferroni multiplier
    (``log10_adjusted_pvalue``, as for class targets) and ``r2``, the share of
    the target's squared error that the parts' means explain.
    """
    table = np.asarray(parts.table, dtype=np.float64)
    statistic, dfn, dfd, log10_pvalue, r2 = f_test(table)
    return {
        "kind": parts.kind,
        "n_values": int(parts.n_values),
        "n_parts": int((part_weights(table, CONTINUOUS) > 0).sum()),
        "F": float(statistic),
        "dfn": float(dfn),
        "dfd": float(dfd),
        "log10_pvalue": float(log10_pvalue),
        "log10_adjusted_pvalue": _adjusted(parts, log10_pvalue, CONTINUOUS),
        "r2": float(r2),
    }


def _adjusted(parts, log10_pvalue, target_type=None):
    """The p-value times the number of partitions the method chose among.

    Kass's Bonferroni multiplier: the ways to group ``n_values`` categories
    into the column's groups (nominal), or to cut ``n_values`` ordered values
    into its intervals (ordinal; a missing bin is not chosen, so not counted).
    """
    holds_rows = part_weights(parts.table, target_type) > 0
    n_parts = int(holds_rows.sum())
    if parts.searched is not None:
        # the parts kept apart (missing, special values) are not chosen
        n_parts = int(holds_rows[parts.searched].sum())
    elif parts.kind == "numeric":
        n_parts -= int(holds_rows[parts.missing].any())
    if parts.kind == "numeric":
        log10_multiplier = log10_bonferroni_ordinal(
            max(parts.n_values, 1), min(max(n_parts, 1), max(parts.n_values, 1))
        )
    else:
        log10_multiplier = log10_bonferroni_nominal(
            max(parts.n_values, 1), min(max(n_parts, 1), max(parts.n_values, 1))
        )
    return float(bonferroni_adjust(log10_pvalue, log10_multiplier))


def rank_columns(summary):
    """Rank 1 to the most informative column.

    Columns are ordered by the Bonferroni-adjusted log10 p-value of their
    partition's chi-square test (smallest first), ties by Cramer's V (largest
    first), then by their position in X. For a continuous target (a summary
    with ``r2``) the p-value is the F-test's and ties go to the larger R².
    """
    tie_break = "r2" if "r2" in summary else "cramers_v"
    order = significance_order(
        summary["log10_adjusted_pvalue"].to_numpy(dtype=np.float64),
        summary[tie_break].to_numpy(dtype=np.float64),
    )
    rank = np.empty(len(summary), dtype=np.intp)
    rank[order] = np.arange(1, len(summary) + 1)
    return rank


class PartitionInspectionMixin:
    """``partition_table``, ``partition_summary`` and ``plot_partition``.

    Mixed into the groupers and the discretizers: a subclass provides
    ``_column_parts(j, max_members)`` (a :class:`ColumnParts`), and may name
    in ``_inspected`` another fitted estimator whose columns are shown (the
    aggregator shows its grouper's).
    """

    def _inspected(self):
        check_is_fitted(self)
        return self

    def _inspected_names(self, estimator):
        names = getattr(estimator, "feature_names_in_", None)
        if names is None:
            return [f"x{j}" for j in range(estimator.n_features_in_)]
        return [str(n) for n in names]

    def _feature_index(self, estimator, feature):
        names = self._inspected_names(estimator)
        if isinstance(feature, Integral) and not isinstance(feature, bool):
            if not -len(names) <= feature < len(names):
                raise IndexError(
                    f"feature={feature} is out of range: the estimator has "
                    f"{len(names)} columns."
                )
            return int(feature) % len(names)
        if isinstance(feature, str) and feature in names:
            return names.index(feature)
        shown = names[:20] + (["..."] if len(names) > 20 else [])
        raise ValueError(
            f"Unknown feature {feature!r}: expected one of {shown} or a column index."
        )

    @renamed_keywords(Renamed("max_categories", "max_members"))
    def partition_table(self, feature, *, max_members=DEFAULT_MAX_MEMBERS):
        """The partition of one column: one row per group or interval.

        Parameters
        ----------
        feature : str or int
            The column's name (in ``feature_names_in_``; ``x0, x1, ...`` for an
            array without names) or its index.
        max_members : int or None, default=10
            Members a group's label lists before counting the rest
            (``"a, b, ... (+120 more)"``); None lists them all.

        Returns
        -------
        table : pandas.DataFrame
            Indexed by ``part``, the id ``transform`` outputs (``encode="ordinal"``),
            with the columns ``label`` (a group's members, or an interval
            ``(lo, hi]`` that holds ``lo < x <= hi``; ``missing`` for the
            missing bin), ``count`` (weighted; without ``sample_weight`` the
            counts add up to the rows of fit), ``share``, ``count_<class>`` and
            ``rate_<class>`` for each class of ``classes_``; for a binary
            target ``event_rate`` (the rate of ``classes_[1]``), ``woe`` (the
            weight of evidence that ``encode="woe"`` gives, with the sign
            ``woe_sign``, NaN for an empty part) and ``iv`` (the part's
            information value, ``(pos/P - neg/N) * woe`` with the ``"event"``
            sign, positive with either sign); then ``missing`` (True for the part
            that ``transform`` sends missing values to) and ``unknown`` (True
            for the part that receives categories not seen in fit). A
            discretizer's missing bin follows its intervals, also when fit saw
            no missing value (with ``missing="attach"`` the interval that
            receives them is flagged instead, its label ending in ``+
            missing``); then come its special parts (``special_codes``),
            labelled by their names (``special`` for a list), flagged by a
            column ``special`` that only a discretizer with special codes
            has.

            For a continuous target (``target_type_ == "continuous"``) the
            columns are ``label``, ``count``, ``share``, ``mean`` and ``std``
            (the weighted mean and population standard deviation of the target
            in the part, NaN for an empty part), ``mean_difference`` (the
            part's mean minus the whole target's mean), ``missing`` and
            ``unknown``.

        See Also
        --------
        partition_summary : One row per column, ranked by informativeness.
        plot_partition : The same table drawn.

        Examples
        --------
        >>> from partikit.datasets import make_grouped_categorical
        >>> from partikit.groupers import KhiopsGrouper
        >>> X, y, _ = make_grouped_categorical(n_samples=2000, random_state=0)
        >>> table = KhiopsGrouper().fit(X, y).partition_table(0)
        >>> list(table.columns[:3])
        ['label', 'count', 'share']
        >>> int(table["count"].sum())
        2000
        """
        estimator = self._inspected()
        j = self._feature_index(estimator, feature)
        parts = estimator._column_parts(j, max_members)
        target_type = fitted_target_type(estimator)
        return partition_frame(
            parts,
            getattr(estimator, "classes_", None),
            getattr(estimator, "woe_sign", "event"),
            target_type=target_type,
        )

    def partition_summary(self):
        """One row per column: its partition's figures and its rank.

        Returns
        -------
        summary : pandas.DataFrame
            Indexed by feature name, one row per column ranked (the most
            informative first, ``rank`` ascending), with the columns
            ``kind`` (``"categorical"`` or ``"numeric"``), ``n_values`` (the
            categories, the missing one included, or the distinct values seen
            in fit), ``n_parts`` (parts that hold rows of fit), ``chi2``,
            ``dof`` and ``log10_pvalue`` (Pearson's test of the partition's
            table against the target), ``log10_adjusted_pvalue`` (the same
            p-value times Kass's Bonferroni multiplier, the number of ways to
            group the column's categories, or cut its ordered values, into as
            many parts: it does not favour a column for having more values to
            choose from), ``cramers_v``, ``iv`` (the information value, NaN
            unless the target is binary) and ``rank``: 1 for the column with
            the smallest adjusted p-value (ties: the larger Cramer's V, then
            the first column).

            For a continuous target the columns are ``kind``, ``n_values``,
            ``n_parts``, ``F``, ``dfn``, ``dfd`` and ``log10_pvalue`` (the
            one-way analysis of variance of the parts: the F-test of their
            means), ``log10_adjusted_pvalue`` (times the same Bonferroni
            multiplier), ``r2`` (the share of the target's squared error that
            the parts' means explain) and ``rank`` (ties: the larger ``r2``).

        See Also
        --------
        partition_table : One column's partition, part by part.

        Examples
        --------
        >>> from partikit.datasets import make_grouped_categorical
        >>> from partikit.groupers import KhiopsGrouper
        >>> X, y, _ = make_grouped_categorical(n_samples=2000, random_state=0)
        >>> summary = KhiopsGrouper().fit(X, y).partition_summary()
        >>> list(summary.columns)  # doctest: +NORMALIZE_WHITESPACE
        ['kind', 'n_values', 'n_parts', 'chi2', 'dof', 'log10_pvalue',
         'log10_adjusted_pvalue', 'cramers_v', 'iv', 'rank']
        """
        estimator = self._inspected()
        target_type = fitted_target_type(estimator)
        continuous = target_type == CONTINUOUS
        n_classes = 0 if continuous else len(estimator.classes_)
        names = self._inspected_names(estimator)
        rows = [
            column_statistics(estimator._column_parts(j, 0), n_classes, target_type)
            for j in range(len(names))
        ]
        columns = CONTINUOUS_SUMMARY_COLUMNS if continuous else SUMMARY_COLUMNS
        summary = pd.DataFrame(
            rows, index=pd.Index(names, name="feature"), columns=columns[:-1]
        )
        summary["rank"] = rank_columns(summary)
        return summary.sort_values("rank", kind="stable")

    @renamed_keywords(Renamed("max_categories", "max_members"))
    def plot_partition(self, feature, ax=None, *, max_members=3):
        """Draw one column's partition: class shares, counts and WoE per part.

        For a continuous target: each part's mean with its spread (mean ± one
        standard deviation) and the target's overall mean, and the counts.

        Needs matplotlib (``pip install 'partikit[plot]'``); works headless.

        Parameters
        ----------
        feature : str or int
            The column's name or index, as in :meth:`partition_table`.
        ax : matplotlib.axes.Axes or None, default=None
            Where to draw; None draws on a new figure.
        max_members : int or None, default=3
            Members a group's tick label lists before counting the rest.

        Returns
        -------
        ax : matplotlib.axes.Axes
            The axes drawn on (``ax.figure`` is the figure).

        See Also
        --------
        partition_table : The table drawn.
        """
        from partikit._estimator._plotting import plot_partition_table

        estimator = self._inspected()
        j = self._feature_index(estimator, feature)
        table = self.partition_table(j, max_members=max_members)
        name = self._inspected_names(estimator)[j]
        statistics = self.partition_summary().loc[name].to_dict()
        if estimator.n_features_in_ == 1:
            del statistics["rank"]  # first of one says nothing
        return plot_partition_table(
            table,
            feature=name,
            statistics=statistics,
            classes=(
                None
                if fitted_target_type(estimator) == CONTINUOUS
                else [str(c) for c in estimator.classes_]
            ),
            ax=ax,
        )
