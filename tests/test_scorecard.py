# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The scorecard: its points maths, its JSON and SQL export, and the estimator."""

import copy
import json
import math
import pickle
import sqlite3

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.svm import SVC

from partikit import (
    KhiopsGrouper,
    MDLPDiscretizer,
    PartitionEncoder,
    Scorecard,
)
from partikit._reporting._scorecard import (
    scaling_constants,
    scorecard_document,
    scorecard_points,
    scorecard_sql,
)
from partikit.datasets import make_credit


def _credit_like(n_samples=600, seed=0):
    """A categorical and a numeric column with missing values, binary target."""
    rng = np.random.default_rng(seed)
    color = rng.choice(["red", "green", "blue", "it's grey"], n_samples).astype(object)
    color[rng.uniform(size=n_samples) < 0.05] = None
    age = rng.uniform(18, 80, n_samples).round(1)
    age[rng.uniform(size=n_samples) < 0.05] = np.nan
    logit = -1.0 + 1.5 * (color == "red") - 0.04 * (np.nan_to_num(age, nan=30) - 40)
    y = (rng.uniform(size=n_samples) < 1 / (1 + np.exp(-logit))).astype(int)
    return pd.DataFrame({"color": color}), pd.DataFrame({"age": age}), y


# --- points maths ---------------------------------------------------------------


@pytest.mark.parametrize("pdo, base_odds, base_points", [(20, 50, 600), (40, 1, 0)])
def test_scaling_base_points_at_base_odds_and_pdo_doubles_the_odds(
    pdo, base_odds, base_points
):
    """Check that odds base_odds score base_points and twice the odds score pdo
    more."""
    factor, offset = scaling_constants(pdo, base_odds, base_points)
    assert offset + factor * math.log(base_odds) == pytest.approx(base_points)
    assert offset + factor * math.log(2 * base_odds) == pytest.approx(base_points + pdo)


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"pdo": 0.0}, "pdo"),
        ({"pdo": math.inf}, "pdo"),
        ({"base_odds": -1.0}, "base_odds"),
        ({"base_points": math.nan}, "base_points"),
    ],
)
def test_scaling_refuses_bad_parameters(kwargs, word):
    """Check that a bad scaling parameter raises a ValueError naming it."""
    with pytest.raises(ValueError, match=word):
        scaling_constants(**kwargs)


def test_points_of_a_row_sum_to_the_scaled_log_odds_of_the_non_event():
    """Check sum_j points_j = offset - factor * (b0 + sum_j b_j woe_j) on random
    parts, coefficients and intercepts."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        n_columns = rng.integers(1, 6)
        woe = [rng.normal(size=rng.integers(1, 5)) for _ in range(n_columns)]
        coefficients = rng.normal(size=n_columns)
        intercept = rng.normal()
        points = scorecard_points(woe, coefficients, intercept, pdo=30.0)
        factor, offset = scaling_constants(30.0, 50.0, 600.0)
        parts = [rng.integers(len(w)) for w in woe]
        total = sum(p[i] for p, i in zip(points, parts, strict=True))
        log_odds = intercept + sum(
            b * w[i] for b, w, i in zip(coefficients, woe, parts, strict=True)
        )
        assert total == pytest.approx(offset - factor * log_odds, abs=1e-9)


def test_rounded_points_are_the_nearest_integers():
    """Check that rounding=True gives each exact point count rounded."""
    woe = [np.array([-0.73, 0.2, 1.9]), np.array([0.4, -0.1])]
    exact = scorecard_points(woe, [0.8, 1.3], -1.7)
    rounded = scorecard_points(woe, [0.8, 1.3], -1.7, rounding=True)
    for e, r in zip(exact, rounded, strict=True):
        np.testing.assert_array_equal(r, np.round(e))
        assert np.all(np.abs(r - e) <= 0.5)


def test_points_refuse_mismatched_or_empty_columns():
    """Check the errors for one coefficient too many and for no column."""
    with pytest.raises(ValueError, match="one coefficient per column"):
        scorecard_points([[0.1, 0.2]], [1.0, 2.0], 0.0)
    with pytest.raises(ValueError, match="at least one column"):
        scorecard_points([], [], 0.0)


# --- export ---------------------------------------------------------------------


def _fitted_columns(woe_sign="event"):
    colors, ages, y = _credit_like()
    grouper = KhiopsGrouper(encode="woe", woe_sign=woe_sign).fit(colors, y)
    discretizer = MDLPDiscretizer(encode="woe", woe_sign=woe_sign).fit(ages, y)
    return grouper, discretizer, y


def _expected_scores(grouper, discretizer, colors, ages, coefficients, intercept,
                     **scaling):  # fmt: skip
    """Scores of rows from the estimators' own WoE transform and the formula."""
    factor, offset = scaling_constants(
        scaling.get("pdo", 20.0),
        scaling.get("base_odds", 50.0),
        scaling.get("base_points", 600.0),
    )
    woe = np.column_stack([grouper.transform(colors), discretizer.transform(ages)])
    return offset - factor * (intercept + woe @ np.asarray(coefficients))


def test_document_points_are_those_of_the_parts_woe():
    """Check that each part's points in the document come from its WoE (the
    estimator's woe_) and the column's coefficient."""
    grouper, discretizer, y = _fitted_columns()
    document = scorecard_document(
        [(grouper, 0), (discretizer, "age")], [0.9, 0.7], -1.2,
        classes=grouper.classes_, target="default",
    )  # fmt: skip
    assert json.loads(json.dumps(document)) == document
    assert document["event"] == 1 and document["target"] == "default"
    factor, offset = scaling_constants()
    groups = document["columns"][0]["groups"]
    bins = document["columns"][1]["bins"]
    for parts, woe, coefficient in ((groups, grouper.woe_[0], 0.9),
                                    (bins, discretizer.woe_[0], 0.7)):  # fmt: skip
        assert [p["value"] for p in parts] == woe.tolist()
        expected = -factor * coefficient * woe + (offset + factor * 1.2) / 2
        np.testing.assert_allclose([p["points"] for p in parts], expected, rtol=1e-12)
    assert document["columns"][1]["coefficient"] == 0.7
    assert document["scaling"]["factor"] == factor


@pytest.mark.parametrize("rounding", [False, True])
@pytest.mark.parametrize("woe_sign", ["event", "non_event"])
def test_sql_scores_equal_the_formula_in_sqlite(rounding, woe_sign):
    """Check that the SQL statement run in sqlite gives every row the score of
    the formula (the sum of its parts' points), with missing values, unseen
    categories and values beyond the training range, to 1e-9."""
    grouper, discretizer, _ = _fitted_columns(woe_sign)
    coefficients, intercept = [0.9, 0.7], -1.2
    document = scorecard_document(
        [(grouper, 0, "colour"), (discretizer, 0, "age in years")],
        coefficients, intercept, rounding=rounding, pdo=25.0,
    )  # fmt: skip
    colors, ages, _ = _credit_like(n_samples=400, seed=7)
    colors.loc[:20, "color"] = "mauve"  # unseen in fit
    ages.loc[20:30, "age"] = 120.0  # beyond the training range
    codes = [
        grouper.set_params(encode="ordinal").transform(colors),
        discretizer.set_params(encode="ordinal").transform(ages),
    ]
    expected = sum(
        np.array([p["points"] for p in _parts(column)])[
            np.asarray(column_codes, dtype=np.intp).ravel()
        ]
        for column, column_codes in zip(document["columns"], codes, strict=True)
    )
    if not rounding:
        grouper.set_params(encode="woe")
        discretizer.set_params(encode="woe")
        formula = _expected_scores(grouper, discretizer, colors, ages, coefficients,
                                   intercept, pdo=25.0)  # fmt: skip
        np.testing.assert_allclose(expected, formula, rtol=0, atol=1e-9)
    connection = sqlite3.connect(":memory:")
    connection.execute('CREATE TABLE "my rows" (id INTEGER, colour TEXT, '
                       '"age in years" REAL)')  # fmt: skip
    connection.executemany(
        'INSERT INTO "my rows" VALUES (?, ?, ?)',
        [
            (k, c, None if a != a else float(a))
            for k, (c, a) in enumerate(zip(colors["color"], ages["age"], strict=True))
        ],
    )
    rows = connection.execute(
        scorecard_sql(document, "my rows", key="id", name="points")
    ).fetchall()
    assert [row[0] for row in rows] == list(range(400))
    np.testing.assert_allclose([row[1] for row in rows], expected, rtol=0, atol=1e-9)


def _parts(column):
    return column["groups"] if column["kind"] == "categorical" else column["bins"]


def test_sql_sums_one_case_per_column():
    """Check the statement's shape: the key first, one CASE per column joined
    by '+', the score named last."""
    grouper, discretizer, _ = _fitted_columns()
    document = scorecard_document([(grouper, 0), (discretizer, 0)], [1.0, 1.0], 0.0)
    sql = scorecard_sql(document, "t", key=["a", "b"])
    lines = sql.splitlines()
    assert lines[:3] == ["SELECT", '  "a",', '  "b",']
    assert sql.count("CASE") == 2 and "\n  + CASE" in sql
    assert lines[-2].endswith('END AS "score"') and lines[-1] == 'FROM "t"'


def test_document_errors():
    """Check the errors: a coefficient missing, a repeated name, a multiclass
    column, and a document that is not a scorecard's."""
    grouper, discretizer, _ = _fitted_columns()
    with pytest.raises(ValueError, match="one coefficient per column"):
        scorecard_document([(grouper, 0)], [1.0, 2.0], 0.0)
    with pytest.raises(ValueError, match="appear more than once"):
        scorecard_document([(grouper, 0), (grouper, 0)], [1.0, 2.0], 0.0)
    rng = np.random.default_rng(0)
    three = KhiopsGrouper().fit(
        pd.DataFrame({"c": rng.choice(list("ab"), 90)}), rng.integers(0, 3, 90)
    )
    with pytest.raises(ValueError, match="binary target"):
        scorecard_document([(three, 0)], [1.0], 0.0)
    with pytest.raises(ValueError, match="Not a scorecard document"):
        scorecard_sql({"schema": "partikit.mapping"}, "t")
    document = scorecard_document([(grouper, 0)], [1.0], 0.0)
    with pytest.raises(ValueError, match="version 2 is not supported"):
        scorecard_sql({**document, "version": 2}, "t")


# --- the estimator --------------------------------------------------------------


def _credit(n_samples=3000, seed=0):
    X, y, _ = make_credit(n_samples=n_samples, random_state=seed)
    return X, y


def _row_parts_points(scorecard, X):
    """Each row's points, looked up column by column in points_table_ by the
    part id the column's estimator gives the row (encode="ordinal")."""
    table = scorecard.points_table_
    total = np.zeros(len(X))
    for name in table["column"].unique():
        estimator = copy.deepcopy(scorecard.encoder_.estimators_[name])
        codes = estimator.set_params(encode="ordinal").transform(X[[name]])
        points = table.loc[table["column"] == name, "points"].to_numpy()
        total += points[np.asarray(codes, dtype=np.intp).ravel()]
    return total


@pytest.mark.parametrize("rounding", [False, True])
def test_points_of_a_row_sum_to_its_score(rounding):
    """Check that score_samples is the sum of the points_table_ points of the
    row's parts, exactly with rounding (integers), to 1e-9 without."""
    X, y = _credit()
    scorecard = Scorecard(rounding=rounding).fit(X, y)
    X_new, _ = _credit(n_samples=500, seed=1)
    scores = scorecard.score_samples(X_new)
    np.testing.assert_allclose(
        _row_parts_points(scorecard, X_new), scores, rtol=0, atol=1e-9
    )
    table = scorecard.points_table_
    assert list(table.columns) == ["column", "part", "woe", "coefficient", "points"]
    if rounding:
        np.testing.assert_array_equal(table["points"], np.round(table["points"]))
        np.testing.assert_array_equal(scores, np.round(scores))


@pytest.mark.parametrize("woe_sign", ["event", "non_event"])
def test_score_is_the_scaled_log_odds_of_the_non_event(woe_sign):
    """Check the identities of the scaling on every row, with either WoE sign:
    score = offset - factor * decision_function (exact), and
    score - base_points = pdo * log2(odds of the non-event / base_odds), so that
    base_odds scores base_points and pdo more points double the odds."""
    X, y = _credit()
    pdo, base_odds, base_points = 25.0, 30.0, 500.0
    scorecard = Scorecard(
        PartitionEncoder(encode="woe", woe_sign=woe_sign),
        pdo=pdo, base_odds=base_odds, base_points=base_points,
    ).fit(X, y)  # fmt: skip
    scores = scorecard.score_samples(X)
    decision = scorecard.decision_function(X)
    np.testing.assert_allclose(
        scores, scorecard.offset_ - scorecard.factor_ * decision, rtol=1e-13
    )
    proba = scorecard.predict_proba(X)
    odds = proba[:, 0] / proba[:, 1]  # non-events per event
    np.testing.assert_allclose(
        scores - base_points, pdo * np.log2(odds / base_odds), atol=1e-8
    )
    # a higher score, a lower probability of the event
    order = np.argsort(scores)
    assert np.all(np.diff(proba[order, 1]) <= 1e-12)


def test_woe_sign_does_not_change_the_scores():
    """Check that the encoder's WoE sign flips the coefficients, not the points
    (to the logistic regression's tolerance)."""
    X, y = _credit()
    event = Scorecard(PartitionEncoder(encode="woe")).fit(X, y)
    non_event = Scorecard(PartitionEncoder(encode="woe", woe_sign="non_event"))
    non_event.fit(X, y)
    np.testing.assert_allclose(
        event.estimator_.coef_, -non_event.estimator_.coef_, rtol=1e-4
    )
    np.testing.assert_allclose(
        event.points_table_["points"], non_event.points_table_["points"], atol=1e-3
    )
    np.testing.assert_allclose(
        event.points_table_["woe"], -non_event.points_table_["woe"]
    )


def test_rounding_leaves_the_classifier_unchanged():
    """Check that rounding changes the points, not predict_proba or predict."""
    X, y = _credit()
    exact = Scorecard().fit(X, y)
    rounded = Scorecard(rounding=True).fit(X, y)
    np.testing.assert_array_equal(exact.predict_proba(X), rounded.predict_proba(X))
    np.testing.assert_array_equal(exact.predict(X), rounded.predict(X))
    assert np.all(np.abs(exact.score_samples(X) - rounded.score_samples(X))
                  <= 0.5 * len(rounded.points_table_["column"].unique()))  # fmt: skip


def test_any_linear_classifier_with_coef():
    """Check an SGDClassifier with the log loss: the identity of the score holds
    and the scorecard ranks rows as its probability does."""
    X, y = _credit()
    scorecard = Scorecard(
        estimator=SGDClassifier(loss="log_loss", alpha=1e-3, random_state=0)
    ).fit(X, y)
    scores = scorecard.score_samples(X)
    np.testing.assert_allclose(
        scores,
        scorecard.offset_ - scorecard.factor_ * scorecard.decision_function(X),
        rtol=1e-13,
    )
    assert scorecard.score(X, y) == np.mean(scorecard.predict(X) == y)


def test_refusals():
    """Check the clear errors: a classifier without coef_, a multiclass target,
    an encoder that does not encode by WoE, or no encoder at all, and no column
    selected."""
    X, y = _credit(n_samples=800)
    with pytest.raises(ValueError, match="no coef_ and intercept_"):
        Scorecard(estimator=SVC(kernel="rbf")).fit(X, y)
    with pytest.raises(ValueError, match="Only binary classification"):
        Scorecard().fit(X, np.arange(len(y)) % 3)
    with pytest.raises(ValueError, match="encode must be 'woe'"):
        Scorecard(PartitionEncoder(encode="onehot")).fit(X, y)
    with pytest.raises(ValueError, match="must be a PartitionEncoder"):
        Scorecard(SelectKBest(k=2)).fit(X, y)
    with pytest.raises(ValueError, match="selected no column"):
        Scorecard(
            PartitionEncoder(encode="woe", selection_criteria={"iv": {"min": 1e9}})
        ).fit(X, y)


class _NoWeights(ClassifierMixin, BaseEstimator):
    """A logistic regression whose fit takes no sample_weight."""

    def fit(self, X, y):
        model = LogisticRegression().fit(X, y)
        self.coef_, self.intercept_ = model.coef_, model.intercept_
        self.classes_ = model.classes_
        return self

    def decision_function(self, X):
        return X @ self.coef_[0] + self.intercept_[0]


def test_sample_weight_goes_to_the_encoder_and_the_classifier():
    """Check that integer weights fit as repeated rows, and that a classifier
    without sample_weight is refused when weights are given."""
    X, y = _credit(n_samples=800)
    weights = np.random.default_rng(0).integers(1, 4, len(y))
    weighted = Scorecard().fit(X, y, sample_weight=weights)
    repeated = Scorecard().fit(X.loc[X.index.repeat(weights)], np.repeat(y, weights))
    np.testing.assert_allclose(
        weighted.points_table_["points"], repeated.points_table_["points"],
        atol=1e-4,
    )  # fmt: skip
    Scorecard(estimator=_NoWeights()).fit(X, y)
    with pytest.raises(ValueError, match="takes no sample_weight"):
        Scorecard(estimator=_NoWeights()).fit(X, y, sample_weight=weights)


def test_pickle_round_trip():
    """Check that a pickled scorecard scores and exports as the original."""
    X, y = _credit(n_samples=800)
    scorecard = Scorecard(rounding=True).fit(X, y)
    again = pickle.loads(pickle.dumps(scorecard))
    np.testing.assert_array_equal(again.score_samples(X), scorecard.score_samples(X))
    assert again.to_json() == scorecard.to_json()
    pd.testing.assert_frame_equal(again.points_table_, scorecard.points_table_)


@pytest.mark.parametrize("rounding", [False, True])
def test_scorecard_sql_in_sqlite_equals_score_samples(rounding, tmp_path):
    """Check that Scorecard.to_sql run in sqlite scores a few hundred rows with
    missing values and unseen categories as score_samples does, to 1e-9, and
    that to_json writes the document it returns."""
    X, y = _credit()
    scorecard = Scorecard(rounding=rounding).fit(X, y)
    X_new, _ = _credit(n_samples=400, seed=2)
    X_new.loc[:30, "home"] = "houseboat"  # unseen in fit
    X_new.loc[20:50, "purpose"] = None
    X_new.loc[40:60, "age"] = np.nan
    X_new.loc[60:70, "income"] = 1e9  # beyond the training range
    connection = sqlite3.connect(":memory:")
    X_new.assign(row=np.arange(len(X_new))).to_sql(
        "applicants", connection, index=False
    )
    rows = connection.execute(scorecard.to_sql("applicants", key="row")).fetchall()
    assert [r[0] for r in rows] == list(range(len(X_new)))
    np.testing.assert_allclose(
        [r[1] for r in rows], scorecard.score_samples(X_new), rtol=0, atol=1e-9
    )
    path = tmp_path / "scorecard.json"
    text = scorecard.to_json(path, target="default")
    document = json.loads(path.read_text(encoding="utf-8"))
    assert json.loads(text) == document and document["target"] == "default"
    assert document["scaling"]["rounding"] is rounding
    assert [c["name"] for c in document["columns"]] == list(
        scorecard.points_table_["column"].unique()
    )
    assert [p["points"] for c in document["columns"] for p in _parts(c)] == (
        scorecard.points_table_["points"].tolist()
    )


def test_special_codes_and_attached_missing_values_are_scored_in_sqlite():
    """Check that special parts get points of their own, in points_table_, the
    document and the SQL, which scores rows as score_samples does (1e-9), with
    missing values attached to an interval in another column."""
    X, y = _credit()
    rng = np.random.default_rng(3)
    X.loc[rng.uniform(size=len(X)) < 0.05, "debt_ratio"] = -1.0
    X.loc[rng.uniform(size=len(X)) < 0.03, "age"] = -99.0
    encoder = PartitionEncoder(
        discretizer=MDLPDiscretizer(special_codes={"n/a": [-1.0, -99.0]}),
        estimators={"income": MDLPDiscretizer(missing="attach")},
        encode="woe",
    )
    scorecard = Scorecard(encoder).fit(X, y)
    table = scorecard.points_table_
    assert (table["part"] == "n/a").sum() >= 2
    document = json.loads(scorecard.to_json())
    assert document["mapping_version"] == 2
    age = next(c for c in document["columns"] if c["name"] == "age")
    assert age["special_parts"][0]["values"] == [-1.0, -99.0]
    connection = sqlite3.connect(":memory:")
    X.to_sql("applicants", connection, index=False)
    rows = connection.execute(scorecard.to_sql("applicants")).fetchall()
    np.testing.assert_allclose(
        [r[0] for r in rows], scorecard.score_samples(X), rtol=0, atol=1e-9
    )
    np.testing.assert_allclose(
        _row_parts_points(scorecard, X), scorecard.score_samples(X), atol=1e-9
    )
