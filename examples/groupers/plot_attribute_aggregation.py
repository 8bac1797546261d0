# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
==========================================================
Aggregating attributes: "at least 3 of 5 tests positive"
==========================================================

Five binary medical tests, and a patient who is ill when at least three of them
are positive. No single test decides the class: a decision tree needs up to five
levels to follow the rule, and a linear model on the tests separately can only
add their effects up. Combining the five tests into one attribute, their
cartesian product of :math:`2^5 = 32` values, captures the rule in a single
column. This is the example that opens Mello Pereira's thesis on large
categorical attributes.

:class:`~partikit.groupers.AttributeAggregator` builds such aggregates, can
search which columns are worth combining, and can hand the aggregate to a
supervised grouper so that the 32 combinations become a few groups. This
example

* lets the search find the five tests among noise columns;
* compares, by cross-validation, a logistic regression on the one-hot encoded
  tests with one on the grouped aggregate;
* shows which combinations the grouper puts together.

See the :ref:`User Guide <aggregation>` for the method.
"""

# %%
# The data
# --------
#
# :func:`~partikit.datasets.make_k_of_n` draws five tests ``test_0`` to
# ``test_4``, each ``"pos"`` with probability 1/2, and sets the class to 1 when
# at least three are positive; 10% of the labels are then flipped. Three binary
# columns ``noise_0`` to ``noise_2`` are drawn the same way, independently of
# the class.
import numpy as np
import pandas as pd

from partikit.datasets import make_k_of_n

X, y = make_k_of_n(n_samples=5000, n_noise_features=3, random_state=0)
tests = [f"test_{j}" for j in range(5)]
n_positive = (X[tests] == "pos").sum(axis=1)
print(f"{X.shape[0]} rows, {X.shape[1]} columns, classes {np.bincount(y)}")
pd.DataFrame(
    {
        "rows": n_positive.value_counts().sort_index(),
        "share of class 1": pd.Series(y).groupby(n_positive).mean().round(3),
    }
).rename_axis("positive tests")

# %%
# The share of class 1 jumps from about 10% to about 90% between two and three
# positive tests: the 10% of flipped labels on either side of the threshold.
#
# Searching the columns to combine
# --------------------------------
#
# ``search="greedy"`` scores every pair of columns, takes the pair whose grouped
# aggregate is the most significant compared with its two columns, and adds one
# column at a time while that keeps paying. A candidate is scored by grouping its
# contingency table (combinations x classes) with a
# :class:`~partikit.groupers.CHAIDGrouper` (the default), testing the grouped
# table by Pearson's chi-square and multiplying the p-value by CHAID's
# Bonferroni multiplier, the number of ways to partition its values into that
# many groups. Its ``gain`` is how many decades more significant it is than the
# best of its parts. The first fit in a new environment compiles partikit's
# numba kernels (a few seconds, cached on disk).
from partikit.groupers import AttributeAggregator

aggregator = AttributeAggregator(search="greedy").fit(X, y)
print(aggregator.aggregates_)

# %%
# The search finds the five tests, and only them. ``search_results_`` has one
# row per candidate it scored. In each round the candidates share the aggregate
# grown so far, so the best candidate of each size is the path of the search:
# the best pair, then the best column added to it, round after round, until no
# column makes the aggregate more significant (the negative gain of the last
# round).
columns = [
    "members",
    "n_combinations",
    "n_groups",
    "log10_adjusted_pvalue",
    "parts_log10_adjusted_pvalue",
    "gain",
    "selected",
]
results = aggregator.search_results_[columns]
size = results["members"].map(len)
results.loc[results.groupby(size)["gain"].idxmax()].round(1)

# %%
# Each step gains a hundred decades or more. Most pairs of a test and a
# noise column have a gain of -0.85: grouped, they keep the two groups of the
# test and are exactly as significant as the test alone, but their four values
# could have been partitioned into two groups in :math:`S(4, 2) = 7` ways, a
# charge of :math:`\log_{10} 7 = 0.85` decades. Pairs of two noise columns end
# in a single group (adjusted p-value 1, gain 0), and a noise column added to an
# aggregate of tests costs the more decades the larger the aggregate.
noise = results["members"].map(lambda m: any(c.startswith("noise") for c in m))
results[noise].groupby(size[noise])["gain"].agg(["count", "min", "max"]).rename_axis(
    "columns in candidate"
).round(2)

# %%
# Before a logistic regression
# ----------------------------
#
# Both pipelines end with the same ``LogisticRegression`` and differ by their
# encoder:
#
# * ``OneHotEncoder``: two columns per test and per noise column;
# * :class:`~partikit.groupers.AttributeAggregator` with ``search="greedy"``,
#   ``keep_original=False`` (the five tests leave the output once aggregated),
#   and a :class:`~partikit.groupers.KhiopsGrouper` with ``encode="onehot"``,
#   which both scores the candidates of the search and groups every output
#   column: the aggregate and the three noise columns.
#
# Each encoder is fitted on the training folds only, search included.
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from partikit.groupers import KhiopsGrouper


def make_model(encoder):
    return make_pipeline(encoder, LogisticRegression(max_iter=1000))


models = {
    "one-hot tests": make_model(OneHotEncoder(handle_unknown="ignore")),
    "grouped aggregate": make_model(
        AttributeAggregator(
            search="greedy",
            grouper=KhiopsGrouper(encode="onehot"),
            keep_original=False,
        )
    ),
}
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
scores, probabilities = {}, {}
for name, model in models.items():
    result = cross_validate(
        model,
        X,
        y,
        cv=cv,
        scoring=["accuracy", "neg_log_loss"],
        return_estimator=True,
        return_indices=True,
    )
    # each row's probability of class 1, from the model that did not see it
    proba = np.empty(len(y))
    for fitted, test in zip(
        result["estimator"], result["indices"]["test"], strict=True
    ):
        proba[test] = fitted.predict_proba(X.iloc[test])[:, 1]
    probabilities[name] = proba
    scores[name] = {
        "accuracy": result["test_accuracy"].mean(),
        "log-loss": -result["test_neg_log_loss"].mean(),
        "columns": np.mean(
            [len(m[0].get_feature_names_out()) for m in result["estimator"]]
        ),
    }
scores = pd.DataFrame(scores).T
scores.round(4)

# %%
# With 10% of the labels flipped at random, no model can do better than an
# accuracy of 0.9 and a log-loss of :math:`-(0.9 \ln 0.9 + 0.1 \ln 0.1)`:
flip = 0.1
best_log_loss = -(flip * np.log(flip) + (1 - flip) * np.log(1 - flip))
print(f"best accuracy {1 - flip:.4f}, best log-loss {best_log_loss:.4f}")

# %%
# **The accuracies tie.** "At least 3 of 5" is a linear threshold on the count
# of positive tests, and a logistic regression on the one-hot encoded tests
# adds one weight per positive test: it draws the right boundary, and so makes
# the same predictions as the aggregate. This problem does not need an
# aggregate to be *classified*.
#
# **The log-loss does not.** The logistic regression's probability is a smooth
# function of the count of positive tests, while the true probability is a
# step, from 0.1 to 0.9 between two and three positive tests. The mean
# probability each model gives, out of fold, per number of positive tests shows
# it: on the one-hot tests the model is too sure far from the threshold and not
# sure enough next to it.
pd.DataFrame(probabilities).assign(**{"share of class 1": y}).groupby(
    n_positive.to_numpy()
).mean().rename_axis("positive tests").round(3)

# %%
# The grouped aggregate gives the model one indicator per group of
# combinations, whose weights follow the step; its log-loss is close to the
# best possible, with fewer columns. An interaction that is not a threshold on
# a sum, an exclusive or for instance, would separate the accuracies too.
#
# Which combinations share a group
# --------------------------------
#
# Fitted on all rows, the grouper of the aggregate holds, in ``groups_``, the
# readable labels of the combinations of each group (the members' values joined
# by ``"|"``, in the order of ``aggregates_``). Counting the positive tests in
# each label shows what the grouper learned.
aggregator = AttributeAggregator(
    search="greedy", grouper=KhiopsGrouper(), keep_original=False
).fit(X, y)
grouper = aggregator.grouper_
print("output columns:", list(aggregator.get_feature_names_out()))
print("groups per column:", grouper.n_groups_)
for g, labels in enumerate(grouper.groups_[-1]):
    counts = sorted({label.count("pos") for label in labels})
    print(f"group {g}: {len(labels)} combinations, with {counts} positive tests")
print("for example:", list(grouper.groups_[-1][0][:3]))

# %%
# The 32 combinations fall into two groups, "fewer than three positive tests"
# and "three or more": exactly the rule that made the data. The noise columns
# end in one group each, a constant column the logistic regression can ignore.
#
# The plot shows the share of class 1 of each combination, in the order of the
# number of positive tests, coloured by its group.
import matplotlib.pyplot as plt
from matplotlib.patches import Patch

# Without a grouper, the output is the code of each row's combination, an index
# into ``combinations_``.
plain = AttributeAggregator(keep_original=False).fit(X[tests])
codes = plain.transform(X[tests])[:, 0].astype(np.intp)
labels = plain.combinations_[0]
share = np.bincount(codes, weights=y) / np.bincount(codes)
group_of = {
    label: g for g, members in enumerate(grouper.groups_[-1]) for label in members
}
n_pos = np.array([label.count("pos") for label in labels])
order = np.lexsort((np.arange(len(labels)), n_pos))

fig, ax = plt.subplots(figsize=(9, 3.5), layout="constrained")
colors = np.array(["tab:gray", "tab:blue", "tab:orange", "tab:green", "tab:red"])
colors = colors[: grouper.n_groups_[-1]]
ax.bar(
    np.arange(len(order)),
    share[order],
    color=colors[[group_of[labels[k]] for k in order]],
)
ax.set_xticks(
    np.arange(len(order)),
    ["".join("1" if v == "pos" else "0" for v in labels[k].split("|")) for k in order],
    rotation=90,
    fontsize="small",
)
ax.axhline(0.5, color="black", linestyle="--", linewidth=1)
ax.set_ylim(0, 1)
ax.set_xlabel("combination of the five tests (1 = positive), by number of positives")
ax.set_ylabel("share of class 1")
ax.set_title("The 32 combinations and the two groups KhiopsGrouper found")
ax.legend(
    handles=[Patch(color=color, label=f"group {g}") for g, color in enumerate(colors)],
    loc="upper left",
)
plt.show()

# %%
# Conclusion
# ----------
#
# :class:`~partikit.groupers.AttributeAggregator` found, among eight binary
# columns, the five that act together, combined them into one 32-valued
# attribute and, with :class:`~partikit.groupers.KhiopsGrouper`, reduced that
# attribute to the two groups that carry the rule. On this problem a logistic
# regression classifies as well from the raw tests, since the rule is a
# threshold on their count, but only the grouped aggregate lets its probabilities
# follow the step of the true ones.
