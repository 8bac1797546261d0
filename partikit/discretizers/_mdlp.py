# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Fayyad & Irani's MDLP discretization: the core and MDLPDiscretizer."""

from __future__ import annotations

import numpy as np

from partikit._kernels._multisplit import mdlp_cuts
from partikit._statistics._constraints import (
    constrained_repair,
    entropy_merge_cost,
    quiet_in_a_tree,
    resolve_constraints,
)
from partikit._statistics._contingency import check_table
from partikit._statistics._results import Intervals
from partikit.discretizers._base import BaseDiscretizer
from partikit.discretizers._block_opt import _entropy_bits


def mdlp_discretization(table):
    """Fayyad & Irani's recursive minimum-description-length discretization.

    The cut of least class entropy splits the value table in two if its
    information gain passes the MDL test, and each half is split in turn until
    no cut passes. Run with an explicit stack, so that no recursion limit
    applies to large data.

    Parameters
    ----------
    table : array-like of shape (n_values, n_classes)
        Class counts of each distinct value, in value order.

    Returns
    -------
    result : Intervals
        ``cuts``: value-table positions (rows before each cut); ``n_bins``;
        ``criterion``: the information gain of the cuts, the class entropy of
        the table minus the weighted class entropy of the intervals, in bits
        per unit of weight (0 without a cut); ``statistics``: ``n_units``
        (blocks) and ``n_tests`` (intervals tested); ``thresholds``: None.

    Notes
    -----
    An interval ``S`` of ``N`` examples with ``k`` classes present is cut at
    ``T`` into ``S1`` and ``S2`` (``k1``, ``k2`` classes) when

    .. math::

        \\mathrm{Gain}(T) > \\frac{\\log_2(N - 1) + \\log_2(3^k - 2)
        - [k H(S) - k_1 H(S_1) - k_2 H(S_2)]}{N}

    (entropies in bits). Candidate cuts are the boundary points, which by
    Fayyad & Irani's theorem include the cut of least entropy; ties go to the
    leftmost cut. Weighted tables use the total weight as ``N``.

    References
    ----------
    .. [1] Fayyad, U. M. and Irani, K. B. (1993). Multi-interval discretization of
       continuous-valued attributes for classification learning. IJCAI-93,
       1022-1027.

    Examples
    --------
    Eight values of class a then twelve of class b are cut once:

    >>> import numpy as np
    >>> from partikit.discretizers import mdlp_discretization
    >>> table = np.array([[1, 0]] * 8 + [[0, 1]] * 12)
    >>> mdlp_discretization(table).cuts
    array([8])
    """
    return _mdlp_discretization(check_table(table))


def _mdlp_discretization(table):
    """:func:`mdlp_discretization` of a table already checked."""
    n_rows = table.shape[0]
    if n_rows < 2:
        return Intervals.from_cuts([], n_rows, 0.0, {"n_units": 1, "n_tests": 0})
    cuts, n_tests, n_blocks = mdlp_cuts(table)
    cuts = cuts.astype(np.intp)
    return Intervals.from_cuts(
        cuts,
        n_rows,
        _information_gain(table, cuts),
        {"n_units": int(n_blocks), "n_tests": int(n_tests)},
    )


def _information_gain(table, cuts):
    """Class entropy of a table minus that of its intervals, bits per unit weight."""
    if len(cuts) == 0:
        return 0.0
    total = float(table.sum())
    intervals = np.add.reduceat(table, np.concatenate([[0], cuts]), axis=0)
    whole = table.sum(axis=0, keepdims=True)
    return (_entropy_bits(whole) - _entropy_bits(intervals)) / total


class MDLPDiscretizer(BaseDiscretizer):
    """Fayyad & Irani's MDLP discretization (recursive entropy cuts, MDL stop).

    For each numeric column, cuts the values at the point of least class entropy,
    keeps the cut if it passes the minimum-description-length test, and repeats
    on both sides. The classic supervised baseline, here exact to the paper and
    fast on millions of rows.

    Read more in the :ref:`User Guide <discretization>`.

    Parameters
    ----------
    max_values : int or None, default=None
        Cap on the rows of a column's value table. None (the default): the
        search runs on every distinct value, exactly. An int (at least 2): a
        column with more distinct values has them pooled into at most
        ``max_values`` rows of adjacent values, with exact class counts (see
        :func:`~partikit.column_tables`), in ``fit``, ``partial_fit`` and
        ``fit_tables`` alike, so the tables stay small however many rows are
        seen. Every cut point is still one an exact fit could choose (halfway
        between two consecutive values of the column); what is lost is the
        cuts inside a pooled row, which weighs at most ``64 / max_values`` of
        the column (1.3 to 3.9 ``/ max_values`` measured on common
        distributions, and after ``partial_fit`` on chunks of one
        distribution): see :ref:`pooled_values`. ``statistics_[j]`` records
        it. ``partial_fit`` then equals ``fit`` on the concatenation while the
        tables are exact, and is within that bound after.
    encode : {"ordinal", "onehot", "onehot-dense", "woe", "target"}, default="ordinal"
        Output: bin ids as float64; one-hot of the bins (sparse CSR or dense);
        or the weight of evidence of each bin, the missing bin included (binary
        targets only; computed from the bins' class counts with the regularised
        formula of ``category_encoders.WOEEncoder``, as the groupers do).
        ``"target"``: the bin's mean target, shrunk toward the overall mean
        as ``TargetEncoder(smooth="auto")`` shrinks a category's (continuous
        and binary targets; for a binary one, the mean of the second class).

        .. versionchanged:: 0.2
           ``"woe"`` and ``"target"`` added.
    woe_sign : {"event", "non_event"}, default="event"
        Sign of the weight of evidence, in ``encode="woe"``, in the ``woe``
        column of :meth:`partition_table` and in the plots: ``"event"``,
        ``ln(share of events / share of non-events)``, is positive where the
        second class of ``classes_`` is over-represented (the sign of
        ``category_encoders``); ``"non_event"`` is its opposite, the sign of
        optbinning and of credit scorecards [2]_.

        .. versionadded:: 0.2
    n_jobs : int or None, default=None
        Number of columns fitted in parallel (threads). None means 1, -1 all
        processors.
    monotonic_trend : {"ascending", "descending", "peak", "valley", "auto"} or None, \
            default=None
        Shape of the bins' event rate (binary target), in value order, the
        missing bin excluded; equal rates are allowed (as in optbinning).
        ``"peak"``: rising then falling; ``"valley"``: falling then rising.
        ``"auto"``: ascending and descending are tried and the larger
        information gain wins (optbinning's ``"auto_asc_desc"``). The trend
        kept is ``statistics_[j]["monotonic_trend"]``. A multiclass target
        raises a ValueError. A heuristic, not an optimum: MDLP's own bins,
        then a bin over ``max_bin_size`` cut at its admissible cut of
        largest entropy increase, then adjacent bins merged, the merge of
        least entropy increase first, while a bin is below a minimum or the
        rates break the trend (O(B^2) merge evaluations for B bins).
        :class:`BlockOptDiscretizer` and :class:`MODLDiscretizer` give the
        exact constrained optimum.

        .. versionadded:: 0.2
    min_bin_size : int, float, "auto" or None, default=None
        Least weight of a bin: an int is a weight (a count of rows without
        ``sample_weight``), a float in (0, 1) a fraction of the column's
        weight (missing values excluded); 0, None and ``"auto"`` (the
        method's own minimum: this method has none, KhiopsDiscretizer's is
        its frequency phase) set no minimum. When no partition meets the
        constraints, the column is one bin, with a warning
        (``statistics_[j]["feasible"]`` False; a tree's node is then not cut,
        silently).

        .. versionadded:: 0.2
    max_bin_size : int, float or None, default=None
        Largest weight of a bin, an int a weight, a float in (0, 1] a
        fraction of the column's weight (missing values excluded).

        .. versionadded:: 0.2
    min_bin_n_event : float or None, default=None
        Least weight of the event class (``classes_[1]``, the class
        ``woe_sign="event"`` calls the event) in each bin; binary targets only.

        .. versionadded:: 0.2
    min_bin_n_nonevent : float or None, default=None
        Least weight of the other class in each bin; binary targets only.

        .. versionadded:: 0.2

    special_codes : array-like of numbers, dict of str to array-like, or None, \
            default=None
        Values that mean something else than a measurement (``-1``,
        ``99999``: "not applicable"), as optbinning's ``special_codes``. Their
        rows are kept out of the cut search (and of ``max_values`` pooling)
        and form parts of their own: a list gives one part named
        ``"special"`` holding all its values, a dict ``{name: values}`` one
        part per name. The special parts follow the intervals and the missing
        bin (their codes are ``special_bins_``), have their own rows in
        ``table_`` and :meth:`partition_table` (flagged ``special``) and their
        own one-hot columns (``"{feature}_special"`` or ``"{feature}_{name}"``,
        also when fit saw none of their values: such a part is empty, its WoE
        0 and its target encoding the overall mean). A value listed twice,
        NaN (missing values are ``missing``'s business) or a value that is not
        a finite number raises a ``ValueError``. Because a special value must
        never share a pooled row, the tables of ``fit``, ``partial_fit`` and
        dask are then counted exact and pooled to ``max_values`` once the
        special rows are out: ``max_values`` bounds the cut search, not the
        memory of the counted tables.

        .. versionadded:: 0.2
    missing : {"separate", "attach"}, default="separate"
        Where missing values go. ``"separate"``: a bin of their own,
        ``missing_bin_ == n_bins_``. ``"attach"``: after the cut, into the
        interval whose class distribution is most similar (the smallest
        DeltaChi2 of the merge, Khiops' measure [3]_; for a continuous target
        the interval whose merge raises the squared error least; ties: the
        first interval); ``missing_bin_`` is then that interval's code, its
        row of ``table_`` counts the missing values too and its label reads
        ``"(a, b] + missing"``. With ``monotonic_trend``, the most similar
        interval whose merge keeps the trend; if none does, the missing
        values keep their bin and a ``UserWarning`` says so. When fit saw no
        missing value, they go to the interval of largest weight (a neutral
        choice). ``statistics_[j]`` records ``missing_bin``, ``missing_rule``
        (``"most_similar"``, ``"largest"`` or ``"separate_by_trend"``) and
        ``missing_weight``.

        .. versionadded:: 0.2

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels seen in fit with positive weight.
    bin_edges_ : ndarray of ndarray of shape (n_features,)
        Per feature, ``[min, t_1, ..., t_{k-1}, max]``: the training range and the
        cut points, each halfway between the training values it separates. A
        value ``x`` goes to bin ``m`` when ``t_m < x <= t_{m+1}``.
    n_bins_ : ndarray of shape (n_features,)
        Number of bins per feature (the missing bin excluded).
    missing_bin_ : ndarray of shape (n_features,)
        Ordinal code of missing values per feature (``n_bins_``; with
        ``missing="attach"``, the code of the interval they join).
    table_ : list of ndarray of shape (n_parts, n_classes)
        Per feature, the (weighted) class counts of each part, by code: the
        bins, the missing bin (unless attached to a bin), the special parts.
    woe_ : list of ndarray of shape (n_parts,)
        Per feature, the weight of evidence of each part, in the order of
        ``table_`` (``encode="woe"`` only; 0 for a part without rows).
    special_bins_ : ndarray of shape (n_features, n_special_parts)
        Per feature, the ordinal codes of its special parts
        (``special_codes``), in the order of their names; they follow the
        intervals and the missing bin (when it is apart).

        .. versionadded:: 0.2
    statistics_ : list of dict
        Per feature: ``n_units`` (blocks) and ``n_tests`` (intervals tested).
        With ``max_values``, a pooled column also has ``pooled_rows`` (rows of
        its table that pool several values) and ``max_pooled_share`` (the
        largest weight of such a row over the column's).
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit. Defined only when ``X`` has feature
        names that are all strings.

    See Also
    --------
    BlockOptDiscretizer : The optimal multisplit of the same entropy criterion.
    KhiopsDiscretizer : Boulle's robust chi-square discretization.

    Notes
    -----
    The recursion is run with an explicit stack on the value table, the
    candidate cuts being its boundary points: each level of cuts costs one
    sweep over the ``V`` distinct values, O(1) for a value of a single class
    and O(J) for a value of several (``J`` classes), that updates the
    entropies of both sides from running sums; no copy of the table is made
    (with many classes it is the largest array of the fit). The search is
    exact at every size. Missing values are left out and
    encoded as ``missing_bin_``; infinity raises a ``ValueError``; a column with
    one distinct value gives one bin and a ``UserWarning``.

    References
    ----------
    .. [1] Fayyad, U. M. and Irani, K. B. (1993). Multi-interval discretization of
       continuous-valued attributes for classification learning. IJCAI-93,
       1022-1027.
    .. [2] Siddiqi, N. (2006). Credit Risk Scorecards: Developing and
       Implementing Intelligent Credit Scoring. Wiley. (Weight of evidence and
       its sign in scorecards.)
    .. [3] Boulle, M. (2004). Khiops: A Statistical Discretization Method of
       Continuous Attributes. Machine Learning 55:53-69. (DeltaChi2, the
       measure of ``missing="attach"``.)

    Examples
    --------
    >>> import numpy as np
    >>> from partikit.discretizers import MDLPDiscretizer
    >>> rng = np.random.RandomState(0)
    >>> x = rng.uniform(0, 10, size=3000)
    >>> y = (x > 3) & (x < 7)
    >>> disc = MDLPDiscretizer().fit(x.reshape(-1, 1), y)
    >>> np.round(disc.bin_edges_[0], 2)
    array([ 0.,  3.,  7., 10.])
    """

    def __init__(
        self,
        *,
        max_values=None,
        encode="ordinal",
        woe_sign="event",
        n_jobs=None,
        monotonic_trend=None,
        min_bin_size=None,
        max_bin_size=None,
        min_bin_n_event=None,
        min_bin_n_nonevent=None,
        special_codes=None,
        missing="separate",
    ):
        super().__init__(
            encode=encode,
            woe_sign=woe_sign,
            n_jobs=n_jobs,
            max_values=max_values,
            monotonic_trend=monotonic_trend,
            min_bin_size=min_bin_size,
            max_bin_size=max_bin_size,
            min_bin_n_event=min_bin_n_event,
            min_bin_n_nonevent=min_bin_n_nonevent,
            special_codes=special_codes,
            missing=missing,
        ).__init__(
            encode=encode, woe_sign=woe_sign, n_jobs=n_jobs, max_values=max_values
        )

    def _cut_table(self, table, context):
        result = _mdlp_discretization(table)
        constraints = resolve_constraints(self, table, False)
        if constraints is None:
            return result
        # the heuristic: MDLP's intervals cut and merged (entropy increase)
        cuts, statistics = constrained_repair(
            table, result.cuts, constraints, entropy_merge_cost,
            lambda cuts: _information_gain(table, cuts),
        )  # fmt: skip
        statistics = {**result.statistics, **statistics}
        return quiet_in_a_tree(
            Intervals.from_cuts(
                cuts, table.shape[0], _information_gain(table, cuts), statistics
            ),
            context,
        )
