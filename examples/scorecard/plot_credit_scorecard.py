# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
==========================================
A credit scorecard, from bins to SQL
==========================================

A scorecard bins every column of an applicant table, encodes each bin by its
weight of evidence (WoE), fits a logistic regression on the encoded columns,
and turns its coefficients into **points per bin**: an applicant's score is the
sum of the points of their bins, and a higher score means a lower risk of
default. :class:`~partikit.Scorecard` does all of it on top of a
:class:`~partikit.PartitionEncoder`, with the usual scaling (points to double
the odds, and the score at given odds), and exports the points as JSON and as
one SQL statement that scores the rows of a database table.

The data are synthetic (:func:`~partikit.datasets.make_credit`, nothing is
downloaded), built to look like a credit application table whose effects are
known: risk falls with age and income, rises with the debt ratio and the
number of late payments, and depends on housing and on the loan's purpose.
See the :ref:`User Guide <scorecard>`.
"""

# %%
# An applicant table
# ------------------
#
# 20,000 applicants, about 11% of whom defaulted (``y == 1``, the *event*).
# ``income`` is missing for 8% of them: the missing values get a bin of their
# own, with its own points.
from sklearn.model_selection import train_test_split

from partikit.datasets import make_credit

X, y, probability = make_credit(n_samples=20_000, random_state=0)
X_train, X_test, y_train, y_test, _, probability_test = train_test_split(
    X, y, probability, test_size=0.3, stratify=y, random_state=0
)
X_train.head()

# %%
# Monotonic bins, WoE, logistic regression, points
# ------------------------------------------------
#
# Validation guidelines for credit scorecards ask for bins whose default rate
# moves in one direction (or has one peak or valley) along a numeric column, so
# that the points make sense to a credit officer: ``monotonic_trend="auto"``
# lets the discretizer choose the best of these shapes from the data, and the
# MODL discretizer finds the optimal bins under it. The categorical columns
# are grouped by the encoder's default grouper.
#
# The points are scaled so that 600 points mean odds of 50 good applicants per
# bad one, and 20 more points double these odds (``pdo``); ``rounding=True``
# gives whole points, as printed scorecards have.
from partikit import MODLDiscretizer, PartitionEncoder, Scorecard

encoder = PartitionEncoder(
    discretizer=MODLDiscretizer(monotonic_trend="auto"), encode="woe"
)
scorecard = Scorecard(
    encoder, pdo=20.0, base_odds=50.0, base_points=600.0, rounding=True
)
scorecard.fit(X_train, y_train)

# %%
# The points table: one row per bin or group of every column, with its WoE,
# the column's coefficient and the bin's points. A row's score is the sum of
# the points of its bins.
scorecard.points_table_.round(3)

# %%
# The monotonic bins
# ------------------
#
# Each numeric column's bins, with the default rate moving in one direction:
# the bars give the class shares of each bin, the line its WoE.
import matplotlib.pyplot as plt

numeric = ["age", "income", "debt_ratio", "late_payments"]
fig, axes = plt.subplots(2, 2, figsize=(14, 9), layout="constrained")
for name, ax in zip(numeric, axes.ravel(), strict=True):
    scorecard.encoder_.estimators_[name].plot_partition(0, ax=ax)
plt.show()

# %%
# The event rate of every numeric column's bins (the missing bin set apart):
for name in numeric:
    table = scorecard.encoder_.estimators_[name].partition_table(0)
    rates = table.loc[~table["missing"] & (table["count"] > 0), "event_rate"]
    print(f"{name:>14}: {rates.round(3).tolist()}")

# %%
# How well does it rank applicants?
# ---------------------------------
#
# The AUC of the scorecard on the held-out applicants, from the logistic
# regression's probability and from the score (with the sign flipped, since a
# higher score means a lower risk). Rounding the points costs next to nothing.
from sklearn.metrics import roc_auc_score

scores = scorecard.score_samples(X_test)
print(
    f"AUC from predict_proba: "
    f"{roc_auc_score(y_test, scorecard.predict_proba(X_test)[:, 1]):.4f}"
)
print(f"AUC from the score:     {roc_auc_score(y_test, -scores):.4f}")

# %%
# For reference, the AUC of the probability each applicant's default was drawn
# with (known here, never in real data): the best any model can reach on these
# applicants.
print(f"AUC of the true probability: {roc_auc_score(y_test, probability_test):.4f}")

# %%
# The scores of defaulters and of good applicants:
fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
bins = range(int(scores.min()), int(scores.max()) + 10, 10)
ax.hist(scores[y_test == 0], bins=bins, alpha=0.6, density=True, label="good")
ax.hist(scores[y_test == 1], bins=bins, alpha=0.6, density=True, label="default")
ax.set_xlabel("score")
ax.set_ylabel("density")
ax.legend()
plt.show()

# %%
# Scoring inside a database
# -------------------------
#
# :meth:`~partikit.Scorecard.to_sql` writes one ``SELECT`` that adds up, for
# every column, a ``CASE`` giving the points of the row's bin; missing values
# (``NULL``) and categories never seen in fit go where the scorecard sends
# them. :meth:`~partikit.Scorecard.to_json` writes the same points as a
# versioned JSON document. Run here in SQLite, on the held-out applicants:
import sqlite3

import numpy as np

connection = sqlite3.connect(":memory:")
applicants = X_test.assign(id=np.arange(len(X_test)))
applicants.to_sql("applicants", connection, index=False)
sql = scorecard.to_sql("applicants", key="id")
print(sql[:600], "...")

# %%
database_scores = np.array([score for _, score in connection.execute(sql).fetchall()])
print("largest difference from score_samples:", np.abs(database_scores - scores).max())
