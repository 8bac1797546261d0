# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Special values and the place of missing values in a discretization.

``special_codes`` (values such as -1 or 99999 that mean "not applicable")
are kept out of the cut search and form parts of their own;
``missing="attach"`` puts the missing values, after the cut, into the
interval whose class distribution (or mean) is most similar
(ALGORITHMS.md, "Missing values"). Both are pure functions of the parameters
and of a column's tables: the estimators call them in ``fit``.
"""

from __future__ import annotations

import math
import numbers
import re

import numpy as np

from partikit._statistics._measures import merge_delta_chi2
from partikit._statistics._moments import (
    CONTINUOUS,
    merge_squared_error_increase,
    part_means,
    part_weights,
)

#: The name of the one special part of ``special_codes`` given as a list.
SPECIAL = "special"

#: The trends a part-by-part level may follow (optbinning's names).
TRENDS = ("ascending", "descending", "peak", "valley")


def _check_code(value, name):
    """One special code as a float64, or a ValueError naming the problem."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(
            f"special_codes must hold numbers; {name} holds {value!r} "
            f"({type(value).__name__}). A discretizer's columns are numeric: give "
            "the special values as numbers."
        )
    value = float(value)
    if math.isnan(value):
        raise ValueError(
            f"special_codes cannot hold NaN ({name}): missing values are "
            "missing's business (missing='separate' or 'attach')."
        )
    if math.isinf(value):
        raise ValueError(
            f"special_codes cannot hold {value} ({name}): a numeric column holds "
            "finite values only."
        )
    # -0.0 and 0.0 are one value of a column
    return value + 0.0


def check_special_codes(special_codes):
    """The special parts that ``special_codes`` declares.

    Parameters
    ----------
    special_codes : array-like of numbers, dict of str to array-like, or None
        A list: one part named ``"special"`` holding all its values; a dict:
        one part per name, in the dict's order, holding its values (as
        optbinning's ``special_codes``).

    Returns
    -------
    names : list of str
        The name of each special part.
    values : list of ndarray of float64
        The values of each special part.

    Raises
    ------
    ValueError
        A value that is not a finite number (NaN included: missing values
        have their own parameter), a value listed twice or under two names, an
        empty part, or a name that is not a string or clashes with the output
        names of the bins (``"missing"``, ``"b0"``, ``"b1"``...).
    """
    if special_codes is None:
        return [], []
    if isinstance(special_codes, dict):
        items = list(special_codes.items())
    else:
        items = [(SPECIAL, special_codes)]
    names, values, seen = [], [], {}
    for name, codes in items:
        where = (
            "special_codes"
            if not isinstance(special_codes, dict)
            else f"special_codes[{name!r}]"
        )
        if not isinstance(name, str) or not name:
            raise ValueError(
                f"The names of special_codes must be non-empty strings; got {name!r}."
            )
        if name == "missing" or re.fullmatch(r"b\d+", name):
            raise ValueError(
                f"special_codes cannot name a part {name!r}: the one-hot output "
                "names the bins 'b0', 'b1', ... and the missing bin 'missing'. "
                "Choose another name."
            )
        if isinstance(codes, (str, bytes)) or np.ndim(codes) == 0:
            codes = [codes]
        codes = [_check_code(value, where) for value in np.asarray(codes, object)]
        if not codes:
            raise ValueError(f"{where} is empty: give it one value or more.")
        for value in codes:
            if value in seen:
                raise ValueError(
                    f"special_codes lists {value!r} twice ({seen[value]} and "
                    f"{where}): a value belongs to one special part."
                )
            seen[value] = where
        names.append(name)
        values.append(np.array(codes, dtype=np.float64))
    return names, values


def part_levels(table, target_type):
    """The level a trend is read on: the event rate (the rate of the second
    class) of a binary table, the mean of a moment table; NaN when empty."""
    table = np.asarray(table, dtype=np.float64)
    if target_type == CONTINUOUS:
        return part_means(table, default=np.nan)
    counts = table.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, table[:, 1] / counts, np.nan)


def follows_trend(levels, trend):
    """Whether the levels of the non-empty parts (NaN: empty) follow ``trend``.

    ``"ascending"``: never decreasing; ``"descending"``: never increasing;
    ``"peak"``: never decreasing, then never increasing; ``"valley"``: never
    increasing, then never decreasing. Equal neighbours follow any trend.
    """
    levels = np.asarray(levels, dtype=np.float64)
    steps = np.diff(levels[~np.isnan(levels)])
    if trend in ("descending", "valley"):
        steps = -steps
    if trend in ("ascending", "descending"):
        return bool((steps >= 0).all())
    # peak (valley, mirrored): no rise after the first fall
    falls = np.flatnonzero(steps < 0)
    return bool(len(falls) == 0 or (steps[falls[0] :] <= 0).all())


def applied_trend(levels, trend, recorded=None):
    """The trend the attach of the missing values must keep, or None.

    ``recorded``: the trend the cut applied (``statistics_[j]
    ["monotonic_trend"]``) when the method records one; else ``trend`` (the
    parameter), and for ``"auto"`` the first of ascending, descending, peak
    and valley that the intervals follow.
    """
    if recorded in TRENDS:
        return recorded
    if trend is None or trend in TRENDS:
        return trend
    return next((t for t in TRENDS if follows_trend(levels, t)), None)


def attach_missing(intervals, missing, others=None, *, target_type=None, trend=None):
    """The interval that the missing values join (``missing="attach"``).

    The missing values' row joins the interval whose class distribution is
    most similar: the smallest DeltaChi2 of the merge
    (:func:`~partikit._statistics._measures.merge_delta_chi2`, on the table
    of the intervals, the missing row and the special parts ``others``, whose
    class proportions it reads) for class targets; for a continuous target
    the interval whose merge raises the squared error least
    (:func:`~partikit._statistics._moments.merge_squared_error_increase`).
    Ties go to the first interval. With a ``trend`` (the trend of the event
    rate, or of the mean, that the intervals follow), the most similar
    interval whose merge keeps the trend; if none does, the missing values
    stay apart. Without missing values (an empty row), the interval of
    largest weight (ties: the first), a neutral choice for missing values
    seen at transform only.

    Parameters
    ----------
    intervals : ndarray of shape (n_bins, n_columns)
        The intervals' class counts (or moments), in value order.
    missing : ndarray of shape (n_columns,)
        The missing values' row.
    others : ndarray of shape (n_others, n_columns) or None, default=None
        The other parts of the column (its special parts).
    target_type : {None, "binary", "multiclass", "continuous"}, default=None
    trend : {None, "ascending", "descending", "peak", "valley"}, default=None

    Returns
    -------
    bin : int
        The interval the missing values join; -1 when they stay apart.
    rule : {"most_similar", "largest", "separate_by_trend"}
        Why.

    References
    ----------
    .. [1] M. Boulle, "Khiops: A Statistical Discretization Method of
       Continuous Attributes", Machine Learning 55:53-69, 2004,
       doi:10.1023/B:MACH.0000019804.29836.05.
    """
    intervals = np.asarray(intervals, dtype=np.float64)
    missing = np.asarray(missing, dtype=np.float64)
    n_bins = len(intervals)
    weights = part_weights(intervals, target_type)
    if part_weights(missing[None], target_type)[0] <= 0:
        return int(np.argmax(weights)), "largest"
    if target_type == CONTINUOUS:
        costs = merge_squared_error_increase(np.vstack([intervals, missing]), n_bins)
    else:
        rows = [intervals, missing[None]]
        if others is not None:
            rows.append(np.asarray(others, dtype=np.float64))
        costs = merge_delta_chi2(np.vstack(rows), n_bins)
    costs = costs[:n_bins]
    # a stable sort: ties to the first interval
    for candidate in np.argsort(costs, kind="stable"):
        if trend is None:
            return int(candidate), "most_similar"
        merged = intervals.copy()
        merged[candidate] += missing
        if follows_trend(part_levels(merged, target_type), trend):
            return int(candidate), "most_similar"
    return -1, "separate_by_trend"
