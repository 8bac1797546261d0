# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The scorecard: partitions encoded by their weight of evidence, a linear
classifier, and its coefficients turned into points per part.

The points maths is the pure function :func:`scorecard_points`; the
:class:`Scorecard` estimator fits a :class:`~partikit.PartitionEncoder` and a
linear classifier and calls it. The export is a versioned JSON document, the
mapping document's columns with points (:func:`scorecard_document`), and one SQL
statement that sums one ``CASE`` expression per column, built by the mapping's
own ``CASE`` builder (:func:`scorecard_sql`).
"""

from __future__ import annotations

import inspect
import json
import math
from numbers import Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.linear_model import LogisticRegression
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from partikit._compat import HasMethods, Interval, _fit_context, _num_samples
from partikit._counting._validation import check_classification_y
from partikit._reporting._encoder import PartitionEncoder
from partikit._reporting._mapping import (
    FALSE_VALUES,
    NA_VALUES,
    SCHEMA_VERSION,
    TRUE_VALUES,
    _jsonable,
    _quote_identifier,
    column_case_sql,
    column_mapping,
)
from partikit._version import __version__

__all__ = [
    "Scorecard",
    "scaling_constants",
    "scorecard_document",
    "scorecard_points",
    "scorecard_sql",
]

#: The name and version of the scorecard document's schema (user guide, "The
#: scorecard document"); the version changes when a consumer of the previous
#: version could misread a document.
SCORECARD_SCHEMA = "partikit.scorecard"
SCORECARD_SCHEMA_VERSION = 1


def _check_scaling(pdo, base_odds, base_points):
    for name, value in (("pdo", pdo), ("base_odds", base_odds)):
        if not (isinstance(value, Real) and math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a finite positive number, got {value!r}.")
    if not (isinstance(base_points, Real) and math.isfinite(base_points)):
        raise ValueError(f"base_points must be a finite number, got {base_points!r}.")


def scaling_constants(pdo=20.0, base_odds=50.0, base_points=600.0):
    """The factor and offset that turn log-odds into a score.

    A score is ``offset + factor * ln(odds)`` with ``factor = pdo / ln 2`` and
    ``offset = base_points - factor * ln(base_odds)``: the score is
    ``base_points`` at odds ``base_odds``, and doubling the odds adds ``pdo``
    points [1]_. (optbinning calls this scaling ``"pdo_odds"``.)

    Parameters
    ----------
    pdo : float, default=20.0
        Points to double the odds.
    base_odds : float, default=50.0
        The odds that score ``base_points``.
    base_points : float, default=600.0
        The score at odds ``base_odds``.

    Returns
    -------
    factor : float
    offset : float

    Raises
    ------
    ValueError
        If ``pdo`` or ``base_odds`` is not a finite positive number, or
        ``base_points`` not a finite number.

    References
    ----------
    .. [1] N. Siddiqi, "Credit Risk Scorecards: Developing and Implementing
       Intelligent Credit Scoring", Wiley, 2006, chapter 6, "Scaling".

    Examples
    --------
    >>> from partikit._reporting._scorecard import scaling_constants
    >>> factor, offset = scaling_constants(pdo=20, base_odds=50, base_points=600)
    >>> round(factor, 4), round(offset, 4)
    (28.8539, 487.1229)
    """
    _check_scaling(pdo, base_odds, base_points)
    factor = float(pdo) / math.log(2.0)
    offset = float(base_points) - factor * math.log(float(base_odds))
    return factor, offset


def _points(woe, coefficient, intercept_share, factor, rounding):
    """Points of WoE values of one column, or of rows (``woe`` of shape (n, p)
    with ``coefficient`` of shape (p,)).

    The one expression of points: the points table and the score of a row
    both call it, so that a row's score is exactly the sum of its parts' points.
    """
    points = (-factor * np.asarray(coefficient, dtype=np.float64)) * np.asarray(
        woe, dtype=np.float64
    ) + intercept_share
    return np.round(points) if rounding else points


def _intercept_share(intercept, n_columns, factor, offset):
    # the constant of the score, spread evenly over the columns so that a
    # row's score is the sum of its parts' points and nothing else
    return (offset - factor * float(intercept)) / n_columns


def scorecard_points(
    woe, coefficients, intercept, *, pdo=20.0, base_odds=50.0, base_points=600.0,
    rounding=False,
):  # fmt: skip
    """The points of every part of every column of a scorecard.

    A linear classifier on WoE-encoded columns has the log-odds of the event
    ``b0 + sum_j b_j woe_j``. The score of a row is ``offset + factor * ln(odds
    of the non-event) = offset - factor * (b0 + sum_j b_j woe_j)``
    (:func:`scaling_constants`), so a higher score means a lower probability
    of the event (the "bad" of credit scoring) [1]_. Part ``i`` of column ``j``
    gets ``-factor * b_j * woe_ij + (offset - factor * b0) / p`` points, ``p``
    the number of columns: the score of a row is the sum of its parts' points.

    Parameters
    ----------
    woe : list of array-like of shape (n_parts_j,)
        For every column, the value that encodes each of its parts (the WoE
        the encoder outputs, with its ``woe_sign``; the sign is taken into
        account by the coefficients).
    coefficients : array-like of shape (n_columns,)
        The classifier's coefficient of each column.
    intercept : float
        The classifier's intercept.
    pdo, base_odds, base_points : float, default=20.0, 50.0, 600.0
        The scaling, as in :func:`scaling_constants`.
    rounding : bool, default=False
        Round each part's points to the nearest integer (halves to even).

    Returns
    -------
    points : list of ndarray of float64
        The points of each part, column by column.

    Raises
    ------
    ValueError
        If ``woe`` and ``coefficients`` do not have one entry per column, there
        is no column, or the scaling is invalid.

    References
    ----------
    .. [1] N. Siddiqi, "Credit Risk Scorecards: Developing and Implementing
       Intelligent Credit Scoring", Wiley, 2006, chapter 6, "Scaling".

    Examples
    --------
    >>> from partikit._reporting._scorecard import scorecard_points
    >>> points = scorecard_points([[-0.5, 0.5], [-1.0, 0.0, 1.0]], [1.0, 0.5], -2.0)
    >>> [p.round(2).tolist() for p in points]
    [[286.84, 257.99], [286.84, 272.42, 257.99]]
    >>> [p.tolist() for p in scorecard_points([[-0.5, 0.5]], [1.0], -2.0,
    ...                                       rounding=True)]
    [[559.0, 530.0]]
    """
    factor, offset = scaling_constants(pdo, base_odds, base_points)
    coefficients = np.asarray(coefficients, dtype=np.float64).reshape(-1)
    if len(woe) != len(coefficients):
        raise ValueError(
            f"woe has {len(woe)} columns but coefficients has "
            f"{len(coefficients)}: give one coefficient per column."
        )
    if len(coefficients) == 0:
        raise ValueError("A scorecard needs at least one column; got none.")
    share = _intercept_share(intercept, len(coefficients), factor, offset)
    return [
        _points(column_woe, coefficient, share, factor, rounding)
        for column_woe, coefficient in zip(woe, coefficients, strict=True)
    ]


def _parts_of(mapping):
    """The parts (dicts with ``id`` and ``value``) of a mapping's column."""
    return mapping["groups"] if mapping["kind"] == "categorical" else mapping["bins"]


def scorecard_document(
    columns, coefficients, intercept, *, pdo=20.0, base_odds=50.0,
    base_points=600.0, rounding=False, target=None, classes=None, settings=None,
):  # fmt: skip
    """The points of a scorecard as one versioned JSON document.

    The document follows the schema ``partikit.scorecard``, version 1 (user
    guide, "The scorecard document"): the columns of a mapping document with
    ``values="woe"`` (every part's members or interval, and its WoE as
    ``value``), each part with its ``points`` and each column with its
    ``coefficient``, and the scaling. A row's score is the sum, over the
    columns, of the points of the part its value falls in.

    Parameters
    ----------
    columns : list of (estimator, column) or (estimator, column, name)
        Each scorecard column: a fitted grouper or discretizer of a binary
        target and the column (index or name) in it, optionally with the name
        the column has in the document (default: its name in the estimator).
    coefficients : array-like of shape (n_columns,)
        The classifier's coefficient of each column.
    intercept : float
        The classifier's intercept.
    pdo, base_odds, base_points : float, default=20.0, 50.0, 600.0
        The scaling, as in :func:`scaling_constants`.
    rounding : bool, default=False
        Round each part's points to the nearest integer (halves to even).
    target : str or None, default=None
        The name of the target column.
    classes : array-like of shape (2,) or None, default=None
        The target's classes; the event is the second.
    settings : dict or None, default=None
        Anything worth recording about the fit, stored in JSON types.

    Returns
    -------
    document : dict
        ``schema`` (``"partikit.scorecard"``), ``version`` (1), ``generator``,
        ``target``, ``classes``, ``event`` (``classes[1]``), ``settings``,
        ``scaling`` (``pdo``, ``base_odds``, ``base_points``, ``factor``,
        ``offset``, ``rounding``), ``intercept``, ``mapping_version`` (the
        version of the mapping document whose rules apply the columns: 2 when
        a column has special parts, else 1), ``text_input`` (as in the
        mapping document) and ``columns``. Only JSON types.

    Raises
    ------
    ValueError
        If ``columns`` and ``coefficients`` differ in length, a column's target
        is not binary, two columns have one name, or the scaling is invalid.

    See Also
    --------
    scorecard_sql : The document as one SQL statement giving each row's score.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from partikit import MDLPDiscretizer
    >>> from partikit._reporting._scorecard import scorecard_document
    >>> ages = pd.DataFrame({"age": [18, 22, 25, 31, 38, 45, 52, 60] * 5})
    >>> y = np.array([1, 1, 1, 1, 0, 0, 0, 1] * 5)
    >>> discretizer = MDLPDiscretizer(encode="woe").fit(ages, y)
    >>> document = scorecard_document([(discretizer, "age")], [1.0], -0.5,
    ...                               classes=discretizer.classes_)
    >>> document["schema"], document["version"], document["event"]
    ('partikit.scorecard', 1, 1)
    >>> column = document["columns"][0]
    >>> column["cuts"], [round(b["value"], 2) for b in column["bins"]]
    ([34.5, 56.0], [2.58, -3.24, 1.33, 0.0])
    >>> [round(b["points"], 1) for b in column["bins"]]
    [427.1, 594.9, 463.2, 501.5]
    """
    factor, offset = scaling_constants(pdo, base_odds, base_points)
    coefficients = np.asarray(coefficients, dtype=np.float64).reshape(-1)
    if len(columns) != len(coefficients):
        raise ValueError(
            f"columns has {len(columns)} items but coefficients has "
            f"{len(coefficients)}: give one coefficient per column."
        )
    if len(columns) == 0:
        raise ValueError("A scorecard needs at least one column; got none.")
    share = _intercept_share(intercept, len(columns), factor, offset)
    mappings = []
    for item, coefficient in zip(columns, coefficients, strict=True):
        estimator, column = item[0], item[1]
        mapping = column_mapping(estimator, column, values="woe")
        if len(item) > 2:
            mapping["name"] = str(item[2])
        parts = _parts_of(mapping)
        woe = np.array([part["value"] for part in parts], dtype=np.float64)
        points = _points(woe, coefficient, share, factor, rounding)
        for part, part_points in zip(parts, points.tolist(), strict=True):
            part["points"] = part_points
        mapping["coefficient"] = float(coefficient)
        mappings.append(mapping)
    names = [mapping["name"] for mapping in mappings]
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise ValueError(
            f"Columns {duplicated} appear more than once; every column of a "
            "scorecard needs a name of its own (give it as a third item)."
        )
    classes = None if classes is None else _jsonable(np.asarray(classes))
    return {
        "schema": SCORECARD_SCHEMA,
        "version": SCORECARD_SCHEMA_VERSION,
        "generator": f"partikit {__version__}",
        "target": None if target is None else str(target),
        "classes": classes,
        "event": None if classes is None else classes[1],
        "settings": _jsonable(settings if settings is not None else {}),
        "scaling": {
            "pdo": float(pdo),
            "base_odds": float(base_odds),
            "base_points": float(base_points),
            "factor": factor,
            "offset": offset,
            "rounding": bool(rounding),
        },
        "intercept": float(intercept),
        # the version of the mapping document whose rules apply the columns:
        # 2 when a column has special parts, as the mapping document says
        "mapping_version": SCHEMA_VERSION
        if any("special_parts" in mapping for mapping in mappings)
        else 1,
        "text_input": {
            "na_values": list(NA_VALUES),
            "true_values": list(TRUE_VALUES),
            "false_values": list(FALSE_VALUES),
        },
        "columns": _jsonable(mappings),
    }


def _check_scorecard_document(document):
    if not isinstance(document, dict) or document.get("schema") != SCORECARD_SCHEMA:
        raise ValueError(
            f"Not a scorecard document: its 'schema' is not {SCORECARD_SCHEMA!r} "
            "(build one with Scorecard.to_json or scorecard_document)."
        )
    version = document.get("version")
    if version != SCORECARD_SCHEMA_VERSION:
        raise ValueError(
            f"Scorecard document version {version!r} is not supported; this "
            f"partikit reads version {SCORECARD_SCHEMA_VERSION}."
        )


def _as_names(key):
    if key is None:
        return []
    return [key] if isinstance(key, str) else [str(name) for name in key]


def scorecard_sql(document, table, *, key=None, name="score"):
    """One SQL ``SELECT`` statement that gives every row its scorecard score.

    The score is the sum of one ``CASE`` expression per column, each giving
    the points of the part the row's value falls in: the expressions of the
    mapping's SQL export (``mapping_sql``), with points instead of part ids,
    so that missing values (``NULL``), unseen categories and values beyond
    the training range go where ``transform`` sends them.

    Parameters
    ----------
    document : dict
        A scorecard document (:func:`scorecard_document`, or its JSON read
        back).
    table : str
        The name of the table (or view) that holds the columns.
    key : str or list of str or None, default=None
        Columns of the table to select before the score (a row id, say).
    name : str, default="score"
        The name of the score in the result.

    Returns
    -------
    sql : str
        ``SELECT [key, ...] CASE ... END + CASE ... END + ... AS "score" FROM
        "table"``, identifiers in double quotes. It runs in SQLite and in
        databases that follow the SQL standard, under the conditions of the
        mapping's SQL export (numbers in numeric columns, ``NULL`` for
        missing values). A row whose value ``transform`` would reject
        (``handle_unknown="error"``) scores ``NULL``.

    Raises
    ------
    ValueError
        If ``document`` is not a scorecard document of a version this partikit
        reads.

    Examples
    --------
    >>> import sqlite3
    >>> import numpy as np
    >>> import pandas as pd
    >>> from partikit import MDLPDiscretizer
    >>> from partikit._reporting._scorecard import (
    ...     scorecard_document, scorecard_sql)
    >>> ages = pd.DataFrame({"age": [18, 22, 25, 31, 38, 45, 52, 60] * 5})
    >>> y = np.array([1, 1, 1, 1, 0, 0, 0, 1] * 5)
    >>> discretizer = MDLPDiscretizer(encode="woe").fit(ages, y)
    >>> document = scorecard_document([(discretizer, "age")], [1.0], -0.5,
    ...                               rounding=True)
    >>> print(scorecard_sql(document, "people", key="id"))
    SELECT
      "id",
      CASE
        WHEN "age" IS NULL THEN 502.0
        WHEN "age" <= 34.5 THEN 427.0
        WHEN "age" <= 56.0 THEN 595.0
        ELSE 463.0
      END AS "score"
    FROM "people"
    >>> connection = sqlite3.connect(":memory:")
    >>> _ = connection.execute('CREATE TABLE people (id INTEGER, age REAL)')
    >>> _ = connection.executemany('INSERT INTO people VALUES (?, ?)',
    ...                            [(1, 20.0), (2, 40.0), (3, None)])
    >>> connection.execute(scorecard_sql(document, "people", key="id")).fetchall()
    [(1, 427.0), (2, 595.0), (3, 502.0)]
    """
    _check_scorecard_document(document)
    if not document["columns"]:
        raise ValueError("The scorecard document has no columns.")
    terms = []
    for column in document["columns"]:
        # the mapping's CASE builder reads each part's "value": give it points
        with_points = dict(column)
        if column["kind"] == "categorical":
            with_points["groups"] = [
                {**part, "value": part["points"]} for part in column["groups"]
            ]
        else:
            with_points["bins"] = [
                {**part, "value": part["points"]} for part in column["bins"]
            ]
        terms.append([f"  {line}" for line in column_case_sql(with_points, "points")])
    lines = ["SELECT", *(f"  {_quote_identifier(n)}," for n in _as_names(key))]
    for k, term in enumerate(terms):
        if k > 0:
            term[0] = "  + " + term[0].lstrip()
        lines += term
    lines[-1] += f" AS {_quote_identifier(str(name))}"
    lines.append(f"FROM {_quote_identifier(str(table))}")
    return "\n".join(lines)


def _written(text, path):
    """``text``, written to ``path`` (UTF-8) first unless ``path`` is None."""
    if path is not None:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    return text


def _estimator_has(attribute):
    """Whether the classifier (fitted, or given) has ``attribute``."""

    def check(self):
        estimator = getattr(self, "estimator_", None)
        if estimator is None:
            estimator = self.estimator or LogisticRegression()
        return hasattr(estimator, attribute)

    return check


class Scorecard(ClassifierMixin, BaseEstimator):
    """A credit-style scorecard: partitions, WoE, a linear classifier, points.

    Every column is partitioned and encoded by the weight of evidence (WoE)
    of its parts (a :class:`~partikit.PartitionEncoder`, which also selects
    the columns), a linear classifier is fitted on the encoded columns, and its
    coefficients are turned into points per part, scaled by the points to
    double the odds (``pdo``) and the score at given odds [1]_: a row's score
    is the sum of the points of its parts, and a **higher score means a lower
    probability of the event** ``classes_[1]`` (the "bad" of credit
    scoring). The points are exported as JSON and as one SQL statement that
    scores the rows of a database table.

    Binary targets only.

    .. versionadded:: 0.2

    Parameters
    ----------
    encoder : PartitionEncoder or None, default=None
        The encoder of the columns (cloned); its ``encode`` must be ``"woe"``,
        or ``"auto"`` (WoE for a binary target). None:
        ``PartitionEncoder(encode="woe")``.
    estimator : classifier or None, default=None
        A scikit-learn binary classifier that has ``coef_`` and ``intercept_``
        after fit and a linear ``decision_function`` (cloned):
        ``LogisticRegression``, ``SGDClassifier(loss="log_loss")``, ... None:
        ``LogisticRegression(max_iter=1000)``. The scaling reads its decision
        function as the log-odds of the event, which holds for a logistic
        model.
    pdo : float, default=20.0
        Points to double the odds of the non-event.
    base_odds : float, default=50.0
        The odds of the non-event (non-events per event) that score
        ``base_points``.
    base_points : float, default=600.0
        The score at odds ``base_odds``.
    rounding : bool, default=False
        Round each part's points to an integer (halves to even). The score is
        then the sum of the rounded points (:meth:`score_samples`,
        ``points_table_``, :meth:`to_json`, :meth:`to_sql`), no longer an
        exact function of the probability; :meth:`predict_proba`,
        :meth:`predict` and :meth:`decision_function` are the classifier's and
        do not change.

    Attributes
    ----------
    encoder_ : PartitionEncoder
        The fitted encoder.
    estimator_ : classifier
        The classifier fitted on the encoder's output (the WoE of the selected
        columns).
    classes_ : ndarray of shape (2,)
        The target's classes; the event is ``classes_[1]``.
    points_table_ : pandas.DataFrame
        One row per part of every selected column (missing and special parts
        included), columns ``column``, ``part`` (the label of the part in the
        column's partition table), ``woe`` (the value the encoder gives the
        part), ``coefficient`` (the classifier's coefficient of the column)
        and ``points``.
    factor_ : float
        ``pdo / ln 2``: points per unit of log-odds.
    offset_ : float
        ``base_points - factor_ * ln(base_odds)``: the score at even odds.
    n_features_in_ : int
        Number of columns seen in fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of the columns seen in fit, when they all are strings.

    See Also
    --------
    PartitionEncoder : The encoder of every column of a table.

    Notes
    -----
    With ``factor = pdo / ln 2`` and ``offset = base_points - factor *
    ln(base_odds)`` (optbinning's ``"pdo_odds"`` scaling), the score of a row
    is ``offset - factor * d``, where ``d = b0 + sum_j b_j woe_j`` is the
    classifier's decision function (the log-odds of the event). Part ``i`` of
    column ``j`` gets ``-factor * b_j * woe_ij + (offset - factor * b0) / p``
    points, ``p`` the number of selected columns. The WoE's sign
    (``woe_sign`` of the encoder) changes the sign of the coefficients, not
    the points. Fitting costs the encoder's fit and the classifier's fit on
    ``p`` columns; the points table is computed once, from the parts.

    References
    ----------
    .. [1] N. Siddiqi, "Credit Risk Scorecards: Developing and Implementing
       Intelligent Credit Scoring", Wiley, 2006.
    .. [2] M. Refaat, "Credit Risk Scorecards: Development and Implementation
       Using SAS", Lulu, 2011.

    Examples
    --------
    >>> from partikit import Scorecard
    >>> from partikit.datasets import make_credit
    >>> X, y, _ = make_credit(n_samples=2000, random_state=0)
    >>> scorecard = Scorecard(rounding=True).fit(X, y)
    >>> scorecard.points_table_.head(3)  # doctest: +NORMALIZE_WHITESPACE
      column          part       woe  coefficient  points
    0    age  (-inf, 42.5]  0.463290     1.019073    78.0
    1    age   (42.5, inf) -0.526753     1.019073   107.0
    2    age       missing  0.000000     1.019073    91.0
    >>> scorecard.score_samples(X.head(3))
    array([574., 602., 574.])
    >>> scorecard.predict_proba(X.head(3))[:, 1].round(3)
    array([0.047, 0.018, 0.047])
    >>> print(scorecard.to_sql("applicants")[:100])
    SELECT
      CASE
        WHEN "age" IS NULL THEN 91.0
        WHEN "age" <= 42.5 THEN 78.0
        ELSE 107.0
      END
    """

    _parameter_constraints: dict = {
        "encoder": [HasMethods(["fit", "transform", "get_support"]), None],
        "estimator": [HasMethods(["fit", "decision_function"]), None],
        "pdo": [Interval(Real, 0, None, closed="neither")],
        "base_odds": [Interval(Real, 0, None, closed="neither")],
        "base_points": [Interval(Real, None, None, closed="neither")],
        "rounding": ["boolean"],
    }

    def __init__(
        self, encoder=None, estimator=None, *, pdo=20.0, base_odds=50.0,
        base_points=600.0, rounding=False,
    ):  # fmt: skip
        self.encoder = encoder
        self.estimator = estimator
        self.pdo = pdo
        self.base_odds = base_odds
        self.base_points = base_points
        self.rounding = rounding

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.allow_nan = True
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags

    def _new_encoder(self):
        if self.encoder is None:
            return PartitionEncoder(encode="woe", target_type="binary")
        if not isinstance(self.encoder, PartitionEncoder):
            raise ValueError(
                f"encoder must be a PartitionEncoder, got "
                f"{type(self.encoder).__name__}: wrap the groupers and "
                "discretizers in PartitionEncoder(grouper=..., discretizer=...)."
            )
        if self.encoder.encode not in ("woe", "auto"):
            raise ValueError(
                f"The encoder's encode must be 'woe' (or 'auto' on a binary "
                f"target), got {self.encoder.encode!r}: a scorecard gives points "
                "to the weight of evidence of the parts."
            )
        encoder = clone(self.encoder)
        target_type = encoder.get_params().get("target_type", "auto")
        if target_type not in ("auto", "binary"):
            raise ValueError(
                f"The encoder's target_type must be 'auto' or 'binary', got "
                f"{target_type!r}: a scorecard scores a binary target."
            )
        return encoder.set_params(target_type="binary")

    def _new_estimator(self):
        if self.estimator is None:
            return LogisticRegression(max_iter=1000)
        return clone(self.estimator)

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Fit the encoder, the classifier on its output, and the points.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The columns, categorical and numeric, as the encoder takes them.
        y : array-like of shape (n_samples,)
            A binary target; the event is the second of its sorted classes.
        sample_weight : array-like of shape (n_samples,) or None, default=None
            Frequency weights, passed to the encoder and to the classifier.

        Returns
        -------
        self : Scorecard
            The fitted scorecard.

        Raises
        ------
        ValueError
            If the target is not binary, the encoder does not encode by WoE,
            the encoder selects no column, the classifier does not take
            ``sample_weight`` while weights are given, or the fitted classifier
            has no ``coef_`` and ``intercept_`` of one binary decision.
        """
        # the classes first, with partikit's errors for missing or infinite
        # labels; the number of classes is the scorecard's own refusal
        if y is None:
            raise ValueError(
                "Scorecard requires y to be passed, but the target y is None: "
                "its points measure the odds of a binary target."
            )
        if _num_samples(X) == 0:
            raise ValueError(
                f"Found array with 0 sample(s) (shape={getattr(X, 'shape', None)}) "
                "while a minimum of 1 is required by Scorecard."
            )
        _, classes = check_classification_y(y, min_classes=1)
        if len(classes) > 2:
            raise ValueError(
                f"Only binary classification is supported: y has {len(classes)} "
                "classes. Group its classes into an event and a non-event first."
            )
        encoder = self._new_encoder()
        estimator = self._new_estimator()
        encoder.fit(X, y, sample_weight=sample_weight)
        support = np.asarray(encoder.get_support(), dtype=bool)
        if not support.any():
            raise ValueError(
                "The encoder selected no column, so the scorecard has nothing to "
                "score: loosen the encoder's selection_criteria."
            )
        encoded = np.asarray(encoder.transform(X), dtype=np.float64)
        if sample_weight is None:
            estimator.fit(encoded, y)
        elif "sample_weight" in inspect.signature(estimator.fit).parameters:
            estimator.fit(encoded, y, sample_weight=sample_weight)
        else:
            raise ValueError(
                f"{type(estimator).__name__}.fit takes no sample_weight: choose "
                "a classifier that does, or fit without sample_weight."
            )
        coefficients = getattr(estimator, "coef_", None)
        intercept = getattr(estimator, "intercept_", None)
        if coefficients is None or intercept is None:
            raise ValueError(
                f"{type(estimator).__name__} has no coef_ and intercept_ after "
                "fit, so its decision cannot be turned into points: choose a "
                "linear classifier such as LogisticRegression."
            )
        coefficients = np.asarray(coefficients, dtype=np.float64)
        if coefficients.shape != (1, support.sum()):
            raise ValueError(
                f"{type(estimator).__name__}.coef_ has shape "
                f"{coefficients.shape}, not (1, {support.sum()}): a scorecard "
                "needs one binary linear decision."
            )
        self.encoder_ = encoder
        self.estimator_ = estimator
        self.classes_ = np.asarray(estimator.classes_)
        self.n_features_in_ = encoder.n_features_in_
        if hasattr(encoder, "feature_names_in_"):
            self.feature_names_in_ = encoder.feature_names_in_
        self.factor_, self.offset_ = scaling_constants(
            self.pdo, self.base_odds, self.base_points
        )
        self.points_table_ = self._points_table()
        return self

    def _selected_columns(self):
        """The selected columns' names, in the encoder's output order."""
        support = np.asarray(self.encoder_.get_support(), dtype=bool)
        names = getattr(self.encoder_, "feature_names_in_", None)
        if names is None:  # an array's columns: the encoder names them x0, x1, ...
            names = [f"x{j}" for j in range(self.encoder_.n_features_in_)]
        return [str(names[j]) for j in np.flatnonzero(support)]

    def _coefficients(self):
        coefficients = np.asarray(self.estimator_.coef_, dtype=np.float64)[0]
        intercept = float(np.asarray(self.estimator_.intercept_).reshape(-1)[0])
        return coefficients, intercept

    def _points_table(self):
        coefficients, intercept = self._coefficients()
        names = self._selected_columns()
        woe = [
            np.asarray(self.encoder_.estimators_[name].woe_[0], dtype=np.float64)
            for name in names
        ]
        points = scorecard_points(
            woe, coefficients, intercept, pdo=self.pdo, base_odds=self.base_odds,
            base_points=self.base_points, rounding=self.rounding,
        )  # fmt: skip
        frames = []
        for name, column_woe, coefficient, column_points in zip(
            names, woe, coefficients, points, strict=True
        ):
            labels = self.encoder_.estimators_[name].partition_table(0)["label"]
            if len(labels) != len(column_woe):
                raise RuntimeError(
                    f"Column {name!r} has {len(labels)} parts in its partition "
                    f"table but {len(column_woe)} WoE values; please report it."
                )
            frames.append(
                pd.DataFrame(
                    {
                        "column": name,
                        "part": list(labels),
                        "woe": column_woe,
                        "coefficient": coefficient,
                        "points": column_points,
                    }
                )
            )
        return pd.concat(frames, ignore_index=True)

    def _encoded(self, X):
        check_is_fitted(self)
        return np.asarray(self.encoder_.transform(X), dtype=np.float64)

    def decision_function(self, X):
        """The classifier's decision: the log-odds of the event for a logistic one.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The columns seen in fit.

        Returns
        -------
        decision : ndarray of shape (n_samples,)
            The classifier's ``decision_function`` on the encoded columns.
        """
        encoded = self._encoded(X)
        return self.estimator_.decision_function(encoded)

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X):
        """The classifier's probability of each class.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The columns seen in fit.

        Returns
        -------
        proba : ndarray of shape (n_samples, 2)
            Columns in the order of ``classes_``; not changed by ``rounding``.
        """
        encoded = self._encoded(X)
        return self.estimator_.predict_proba(encoded)

    def predict(self, X):
        """The classifier's class of each row.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The columns seen in fit.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            One of ``classes_`` per row.
        """
        encoded = self._encoded(X)
        return self.estimator_.predict(encoded)

    def score_samples(self, X):
        """The score of every row: the sum of the points of its parts.

        Without ``rounding`` it is ``offset_ - factor_ *
        decision_function(X)``: higher scores mean lower probabilities of the
        event ``classes_[1]``, and ``pdo`` more points double the odds of the
        non-event.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The columns seen in fit.

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            The score of each row, in points.
        """
        encoded = self._encoded(X)
        coefficients, intercept = self._coefficients()
        share = _intercept_share(
            intercept, len(coefficients), self.factor_, self.offset_
        )
        points = _points(encoded, coefficients, share, self.factor_, self.rounding)
        return points.sum(axis=1)

    def _document(self, target=None):
        check_is_fitted(self)
        coefficients, intercept = self._coefficients()
        columns = [
            (self.encoder_.estimators_[name], 0, name)
            for name in self._selected_columns()
        ]
        settings = {
            "encoder": repr(self.encoder_),
            "estimator": repr(self.estimator_),
        }
        return scorecard_document(
            columns, coefficients, intercept, pdo=self.pdo,
            base_odds=self.base_odds, base_points=self.base_points,
            rounding=self.rounding, target=target, classes=self.classes_,
            settings=settings,
        )  # fmt: skip

    def to_json(self, path=None, *, target=None):
        """The points of every part of every column, as a JSON document.

        The document, in the versioned schema ``partikit.scorecard``
        (:ref:`mapping_schema`, "The scorecard document"), lists every
        selected column's parts (members or intervals, missing and unknown
        rules, as the mapping document does) with their WoE and points, each
        column's coefficient, and the scaling; a system without Python scores
        a row by adding the points of its parts.

        Parameters
        ----------
        path : str or path-like or None, default=None
            Where to write it; None only returns it.
        target : str or None, default=None
            The name of the target column, recorded in the document.

        Returns
        -------
        text : str
            The JSON document.
        """
        text = json.dumps(self._document(target), indent=1, ensure_ascii=False,
                          allow_nan=False)  # fmt: skip
        return _written(text + "\n", path)

    def to_sql(self, table, *, key=None, name="score"):
        """One SQL ``SELECT`` that gives every row of a table its score.

        The score is the sum of one ``CASE`` expression per selected column,
        each giving the points of the row's part; it equals
        :meth:`score_samples` (to rounding errors of the sum).

        Parameters
        ----------
        table : str
            The name of the table (or view) that holds the columns.
        key : str or list of str or None, default=None
            Columns of the table to select before the score (a row id, say).
        name : str, default="score"
            The name of the score in the result.

        Returns
        -------
        statement : str
            ``SELECT [key, ...] CASE ... END + ... AS "score" FROM "table"``;
            missing values must be ``NULL``.
        """
        return scorecard_sql(self._document(), table, key=key, name=name)
