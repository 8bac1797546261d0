# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
==================================================================
Grouping high-cardinality categories before a logistic regression
==================================================================

One-hot encoding a categorical column with hundreds of categories gives a linear
model one weight per category, many of them learned from a handful of rows. When
the categories really behave like a few groups, encoding the column by those
groups gives the model far fewer columns, each estimated from many rows.

This example compares, by cross-validation, two pipelines in front of a
``LogisticRegression`` on a synthetic multiclass problem with high-cardinality
columns:

* ``OneHotEncoder(handle_unknown="ignore")``: one column per category;
* :class:`~partikit.groupers.KhiopsGrouper` with ``encode="onehot"``: one column
  per group learned from the target.

See the :ref:`User Guide <grouping>` for the method.
"""

# %%
# A high-cardinality problem
# --------------------------
#
# :func:`~partikit.datasets.make_grouped_categorical` draws 20,000 rows of a
# column ``"category"`` with 300 categories falling into 5 hidden groups, and a
# 3-class target that depends on the category only through its group. Category
# frequencies follow a Zipf law, as in real data: a few categories are frequent,
# most are rare. Four more columns of 300 categories each are pure noise.
import numpy as np
import pandas as pd

from partikit.datasets import make_grouped_categorical

X, y, hidden_groups = make_grouped_categorical(
    n_samples=20_000,
    n_categories=300,
    n_classes=3,
    n_groups=5,
    frequencies="zipf",
    n_noise_features=4,
    random_state=0,
)
category_counts = X["category"].value_counts()
print(f"{X.shape[0]} rows, {X.shape[1]} columns, classes {np.bincount(y)}")
print(
    f'"category": {category_counts.size} categories, the most frequent has '
    f"{category_counts.iloc[0]} rows, {np.sum(category_counts < 20)} have fewer "
    "than 20 rows"
)

# %%
# Two pipelines
# -------------
#
# Both pipelines feed one-hot columns to the same logistic regression; only the
# encoding differs. A ``ColumnTransformer`` applies the encoder to every
# categorical column, as one would with mixed data. Since all columns here are
# categorical, it selects them by dtype.
from sklearn.compose import make_column_selector, make_column_transformer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from partikit.groupers import KhiopsGrouper

categorical = make_column_selector(dtype_include="category")


def make_model(encoder):
    return make_pipeline(
        make_column_transformer((encoder, categorical)),
        LogisticRegression(max_iter=1000),
    )


models = {
    "OneHotEncoder": make_model(OneHotEncoder(handle_unknown="ignore")),
    "KhiopsGrouper": make_model(KhiopsGrouper(encode="onehot")),
}

# %%
# Cross-validation
# ----------------
#
# Each encoder is fitted on the training folds only, inside the pipeline, so the
# groups never see the rows they are evaluated on. We record the accuracy, the
# log-loss (lower is better) and the number of columns the logistic regression
# receives.
from sklearn.model_selection import StratifiedKFold, cross_validate

cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
results = {}
for name, model in models.items():
    scores = cross_validate(
        model,
        X,
        y,
        cv=cv,
        scoring=["accuracy", "neg_log_loss"],
        return_estimator=True,
    )
    n_columns = [len(m[0].get_feature_names_out()) for m in scores["estimator"]]
    results[name] = {
        "accuracy": scores["test_accuracy"].mean(),
        "accuracy std": scores["test_accuracy"].std(),
        "log-loss": -scores["test_neg_log_loss"].mean(),
        "log-loss std": scores["test_neg_log_loss"].std(),
        "columns": np.mean(n_columns),
        "fit time (s)": scores["fit_time"].mean(),
    }
results = pd.DataFrame(results).T
results.round(3)

# %%
# The grouped encoding gives the logistic regression two orders of magnitude fewer
# columns, and a better accuracy and log-loss: with one weight per category, the
# model fits the noise of the rare categories and of the noise columns, while the
# groups pool the evidence of all the categories that behave alike.
#
# What the grouper learned
# ------------------------
#
# Fitted on all rows, the grouper keeps a few groups for ``"category"`` and a
# single group for each noise column, whose one-hot column is then constant. The
# many rare categories are pooled into one special group before merging
# (``n_rare``), which is also where categories unseen during fit are sent.
#
# With 3 classes and 5 hidden groups, groups 3 and 4 favour classes 0 and 1 half
# as much as groups 0 and 1 do: five distinct profiles, two of them weak. How many
# the grouper can tell apart depends on how many rows back them.
grouper = KhiopsGrouper().fit(X, y)
pd.DataFrame(
    {
        "categories": [s["n_categories"] for s in grouper.statistics_],
        "pooled as rare": [s["n_rare"] for s in grouper.statistics_],
        "groups": grouper.n_groups_,
    },
    index=grouper.feature_names_in_,
)

# %%
# Plotting the comparison
# -----------------------
import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 3, figsize=(9, 3.2), layout="constrained")
colors = ["tab:gray", "tab:blue"]
for ax, metric, title in zip(
    axes,
    ["accuracy", "log-loss", "columns"],
    ["accuracy (higher is better)", "log-loss (lower is better)", "input columns"],
    strict=True,
):
    values = results[metric].to_numpy()
    errors = results[f"{metric} std"] if f"{metric} std" in results else None
    ax.bar(results.index, values, yerr=errors, color=colors, capsize=4)
    ax.set_title(title)
    ax.tick_params(axis="x", labelrotation=15)
    if metric == "columns":
        ax.set_yscale("log")
        ax.set_ylim(1, 5 * values.max())
        for k, v in enumerate(values):
            ax.annotate(f"{v:.0f}", (k, v), ha="center", va="bottom")
    else:
        low = (values - (0 if errors is None else errors)).min()
        high = (values + (0 if errors is None else errors)).max()
        margin = 0.5 * (high - low)
        # zoom on the values: the axis does not start at 0
        ax.set_ylim(low - margin, high + margin)
fig.suptitle("Logistic regression after two encodings (5-fold cross-validation)")
plt.show()

# %%
# Conclusion
# ----------
#
# On high-cardinality categorical columns,
# :class:`~partikit.groupers.KhiopsGrouper` with ``encode="onehot"`` replaces
# hundreds of one-hot columns with a handful of groups learned from the target.
# The logistic regression that follows is much smaller and, because each of its
# weights is estimated from many rows, generalises better than on the raw one-hot
# encoding. Columns that carry no information collapse into one constant column,
# and rare categories share one group instead of getting a weight each.
