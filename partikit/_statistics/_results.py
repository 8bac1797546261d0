# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The result records of the table-level cores: one small family.

Every core returns a partition of its table's rows with the same field names:

* :class:`Grouping`: the rows of a contingency table (categories x classes)
  grouped, by the grouping cores, every binary-partition method of
  ``BIPARTITIONS`` and the tree's categorical splitters;
* :class:`Intervals`: the rows of a value table (class counts of each distinct
  value, in value order) cut into intervals, by the discretization cores,
  ``cut_table`` of every discretizer and the tree's numeric splitters;
* :class:`Multisplit`: the optima of every number of intervals of one dynamic
  programme, whose :meth:`Multisplit.intervals` is the :class:`Intervals` of one.

In each, ``criterion`` is a finite float, the method's own objective (larger is
better), and ``statistics`` a dict of the method's figures.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np


def _deprecated(old, new):
    warnings.warn(
        f"The result attribute {old!r} is deprecated and will be removed in a "
        f"future version; use {new} instead.",
        FutureWarning,
        stacklevel=3,
    )


@dataclass
class Grouping:
    """A partition of the rows of a contingency table into groups.

    Attributes
    ----------
    group_ids : ndarray of intp of shape (n_rows,)
        Group of each table row, numbered 0, 1, ... by first row; -1 for an empty
        row. A bipartition puts its first non-empty row in group 0.
    n_groups : int
        Number of groups: 0 for a table without a non-empty row; a bipartition
        has 2, or 1 when it makes no split.
    criterion : float
        The method's own objective for this partition, finite, larger is better;
        each core defines it in its Returns section (for instance -log10 of a
        p-value, a cut weight, an impurity decrease).
    statistics : dict
        The method's figures, described by each core.
    rare_group : int, default=-1
        Group holding the categories pooled as rare, -1 if none.
    pooled : bool, default=False
        True when the search ran on rows pooled by
        :func:`~partikit.groupers._bipartition.pooled_rows` because the table had
        more non-empty rows than the method searches exactly (Twoing, SLIQ and
        SLIQ-ext); ``criterion`` and ``statistics`` are still those of the
        partition of the table's own rows. The grouping cores report their own
        reductions in ``statistics`` (CHAID's ``n_pooled``, the max-cut's
        ``graph``) and leave it False.

    Notes
    -----
    Deprecated attributes of the binary-partition results of 0.1, each raising a
    ``FutureWarning``: ``left`` (``group_ids == 0``) and ``impurity``
    (``statistics["impurity"]``).
    """

    group_ids: np.ndarray
    n_groups: int
    criterion: float
    statistics: dict = field(default_factory=dict)
    rare_group: int = -1
    pooled: bool = False

    @property
    def left(self):
        """Deprecated: the rows of group 0, ``group_ids == 0``."""
        _deprecated("left", "group_ids == 0")
        return self.group_ids == 0

    @property
    def impurity(self):
        """Deprecated: a bipartition's ``statistics["impurity"]``."""
        if "impurity" not in self.statistics:
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute 'impurity'"
            )
        _deprecated("impurity", 'statistics["impurity"]')
        return self.statistics["impurity"]


@dataclass
class Intervals:
    """A partition of the rows of a value table into intervals.

    Attributes
    ----------
    cuts : ndarray of intp
        Cut positions: the number of table rows before each cut, increasing.
    n_bins : int
        Number of intervals, ``len(cuts) + 1``, or 0 for an empty table.
    criterion : float
        The method's own objective for these cuts, finite, larger is better;
        each core defines it in its Returns section (for instance an impurity
        decrease, -log10 of a p-value, the max-cut metric). 0 for no cut when the
        method scores a cut against none.
    statistics : dict
        The method's figures, described by each core.
    thresholds : ndarray of float64 or None, default=None
        The cut values, when the method knows them (one per cut; value ``x`` goes
        to the number of thresholds it exceeds); None when it returns positions
        only.

    Notes
    -----
    Deprecated attributes of the result of ``max_cut_threshold`` in 0.1, each
    raising a ``FutureWarning``: ``threshold`` (``thresholds[0]``, NaN without
    a cut), ``value`` (``criterion``), ``n_left`` (``cuts[0]``, 0 without a cut)
    and ``values`` (``statistics["candidate_metrics"]``).
    """

    cuts: np.ndarray
    n_bins: int
    criterion: float
    statistics: dict = field(default_factory=dict)
    thresholds: np.ndarray | None = None

    @classmethod
    def from_cuts(cls, cuts, n_rows, criterion, statistics=None, thresholds=None):
        """The intervals of a table of ``n_rows`` rows cut at ``cuts``.

        Parameters
        ----------
        cuts : array-like of int
            Table rows before each cut, increasing.
        n_rows : int
            Rows of the table (0: no interval).
        criterion : float
            The method's objective.
        statistics : dict or None, default=None
            The method's figures (None: an empty dict).
        thresholds : array-like of float or None, default=None
            The cut values, if known.

        Returns
        -------
        intervals : Intervals
        """
        cuts = np.asarray(cuts, dtype=np.intp)
        if thresholds is not None:
            thresholds = np.asarray(thresholds, dtype=np.float64)
        return cls(
            cuts,
            len(cuts) + 1 if n_rows > 0 else 0,
            float(criterion),
            {} if statistics is None else statistics,
            thresholds,
        )

    @property
    def threshold(self):
        """Deprecated: the single threshold, ``thresholds[0]`` (NaN without)."""
        _deprecated("threshold", "thresholds[0]")
        if self.thresholds is None or len(self.thresholds) == 0:
            return math.nan
        return float(self.thresholds[0])

    @property
    def value(self):
        """Deprecated: ``criterion``."""
        _deprecated("value", "criterion")
        return self.criterion

    @property
    def n_left(self):
        """Deprecated: the rows before the single cut, ``cuts[0]`` (0 without)."""
        _deprecated("n_left", "cuts[0]")
        return int(self.cuts[0]) if len(self.cuts) else 0

    @property
    def values(self):
        """Deprecated: ``statistics["candidate_metrics"]`` of a max-cut threshold."""
        if "candidate_metrics" not in self.statistics:
            raise AttributeError(
                f"{type(self).__name__!r} object has no attribute 'values'"
            )
        _deprecated("values", 'statistics["candidate_metrics"]')
        return self.statistics["candidate_metrics"]


@dataclass
class Multisplit:
    """The optimal cuts of a value table for every number of intervals up to K.

    Attributes
    ----------
    values : ndarray of float64 of shape (min(K, n_units),)
        ``values[k - 1]``: least cumulative impurity with at most ``k`` intervals
        (entropy: ``sum_I n_I H(I)`` in bits, i.e. ``N`` times the average class
        entropy; gini: ``sum_I n_I Gini(I)``). Non-increasing.
    cuts : list of ndarray of intp
        ``cuts[k - 1]``: cut positions (value-table rows before each cut) of that
        optimum; fewer than ``k - 1`` cuts when more intervals do not lower the
        impurity.
    n_evaluations : int
        Candidate partitions evaluated (line 9 of Elomaa & Rousu's Table 2).
    n_units : int
        Units the search ran on (rows, blocks or pre-binned blocks).
    impurity : str
        The impurity minimised, ``"entropy"`` or ``"gini"`` (the core's
        ``criterion`` parameter).
    algorithm : str
        The search algorithm.
    exact : bool, default=True
        Whether the search ran over every candidate cut (False: on pre-bins).
    total_weight : float, default=0.0
        Weight of the table, ``N``.
    n_rows : int, default=0
        Rows of the table.
    """

    values: np.ndarray
    cuts: list
    n_evaluations: int
    n_units: int
    impurity: str
    algorithm: str
    exact: bool = True
    total_weight: float = 0.0
    n_rows: int = 0

    def intervals(self, k):
        """The optimum with at most ``k`` intervals, as :class:`Intervals`.

        Parameters
        ----------
        k : int
            Number of intervals, ``1 <= k <= len(cuts)``.

        Returns
        -------
        intervals : Intervals
            ``cuts[k - 1]``; ``criterion``: the impurity decrease per unit of
            weight, ``(values[0] - values[k - 1]) / total_weight`` (0 for an
            empty table), in bits for the entropy; ``statistics``: ``n_units``,
            ``exact``, ``values`` and ``n_evaluations``.
        """
        if not 1 <= k <= len(self.cuts):
            raise ValueError(f"k must be in [1, {len(self.cuts)}], got {k}.")
        decrease = 0.0
        if self.total_weight > 0:
            decrease = (self.values[0] - self.values[k - 1]) / self.total_weight
        statistics = {
            "n_units": self.n_units,
            "exact": self.exact,
            "values": self.values,
            "n_evaluations": self.n_evaluations,
        }
        return Intervals.from_cuts(self.cuts[k - 1], self.n_rows, decrease, statistics)
