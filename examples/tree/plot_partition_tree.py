# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
=========================================================
A decision tree on categories, numbers and missing values
=========================================================

:class:`~partikit.tree.PartitionTreeClassifier` is a decision tree whose splits
are computed by partikit's groupers and discretizers on the rows of each node: a
categorical column is split by grouping its categories (here the max-cut
bipartition of Mello Pereira and Laber, or CHAID's merging), never one-hot
encoded; a numeric column is split at a threshold. Missing values need no
imputation.

This example

* grows the tree on a DataFrame with a 300-category column, a numeric column and
  missing values in both, and compares it with scikit-learn's
  ``DecisionTreeClassifier`` on one-hot and ordinal encodings of the same data;
* prints its rules with :func:`~partikit.tree.export_text` and inspects it;
* grows oblique trees on the digits data (``node_features="node_means_pca"``),
  with Bodine and Hochbaum's max-cut threshold or the Gini threshold.

See the :ref:`User Guide <tree>` for the method.
"""

# %%
# A DataFrame with a high-cardinality column
# ------------------------------------------
#
# :func:`~partikit.datasets.make_grouped_categorical` draws 6,000 rows of a
# column ``"category"`` with 300 categories and a 3-class target. The categories
# fall into 4 hidden groups, each with its own class profile, so that the column
# carries its information only through the groups; ``"noise_0"`` has 300
# categories too, independent of the class. We add a numeric column ``"score"``,
# shifted upwards for class 2, and remove 10% of its values and 5% of the
# categories.
import numpy as np
import pandas as pd

from partikit.datasets import make_grouped_categorical

X, y, hidden_groups = make_grouped_categorical(
    n_samples=6000,
    n_categories=300,
    n_classes=3,
    n_groups=4,
    signal=0.6,
    n_noise_features=1,
    dtype="object",
    random_state=0,
)
rng = np.random.default_rng(0)
X["score"] = rng.normal(size=len(X)) + 0.8 * (y == 2)
X.loc[rng.random(len(X)) < 0.10, "score"] = np.nan
X.loc[rng.random(len(X)) < 0.05, "category"] = np.nan
print(X.head())
print("missing values per column:", X.isna().sum().to_dict())

# %%
# The tree takes the DataFrame as it is
# -------------------------------------
#
# With ``categorical_features="from_dtype"`` (the default), the object columns
# are categorical and the float column numeric. A missing category is a category
# of its own; a missing ``score`` goes, at each split on it, to the child that
# lowers the impurity most. The first fit in a new environment compiles
# partikit's numba kernels (a few seconds, cached on disk).
from partikit.tree import PartitionTreeClassifier

tree = PartitionTreeClassifier(min_samples_leaf=20).fit(X, y)
print("categorical columns:", tree.feature_names_in_[tree.categorical_features_])
print(f"depth {tree.get_depth()}, {tree.get_n_leaves()} leaves")

# %%
# Against scikit-learn's tree on encoded columns
# ----------------------------------------------
#
# scikit-learn's ``DecisionTreeClassifier`` needs numbers. Two usual encodings of
# the categorical columns:
#
# * one-hot: 600 binary columns, and each split isolates one category from all
#   the others (a missing category is one more column);
# * ordinal: one column of arbitrary codes (the sorted order of the category
#   names), and each split is a threshold on those codes.
#
# Both handle the missing ``score`` natively. All trees stop at 20 rows per leaf.
# We compare them by 5-fold cross-validation, with
# :class:`~partikit.tree.PartitionTreeClassifier` splitting the categories in two
# (the max-cut default) or into as many groups as CHAID's merging keeps
# (``categorical_split="chaid"``, CHAID with its default settings; a configured
# grouper such as ``CHAIDGrouper(alpha_merge=0.01)`` sets them).
from sklearn.compose import make_column_transformer
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder
from sklearn.tree import DecisionTreeClassifier

categorical = ["category", "noise_0"]


def sklearn_tree(encoder):
    encode = make_column_transformer((encoder, categorical), remainder="passthrough")
    return make_pipeline(
        encode, DecisionTreeClassifier(min_samples_leaf=20, random_state=0)
    )


models = {
    "PartitionTree (max-cut)": PartitionTreeClassifier(min_samples_leaf=20),
    "PartitionTree (CHAID)": PartitionTreeClassifier(
        categorical_split="chaid", min_samples_leaf=20
    ),
    "sklearn, one-hot": sklearn_tree(
        OneHotEncoder(handle_unknown="ignore", sparse_output=False)
    ),
    "sklearn, ordinal": sklearn_tree(
        OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
    ),
}
cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
results = {}
for name, model in models.items():
    scores = cross_validate(model, X, y, cv=cv, return_estimator=True)
    fitted = [m[-1] if hasattr(m, "steps") else m for m in scores["estimator"]]
    results[name] = {
        "accuracy": scores["test_score"].mean(),
        "accuracy std": scores["test_score"].std(),
        "leaves": np.mean([m.get_n_leaves() for m in fitted]),
        "depth": np.mean([m.get_depth() for m in fitted]),
        "fit time (s)": scores["fit_time"].mean(),
    }
comparison = pd.DataFrame(results).T
comparison.round(3)

# %%
# The partition trees are more accurate with fewer leaves. A one-hot split
# separates one category, 20 rows on average, from the rest of the node, so the
# tree needs many splits to isolate each hidden group and its leaves hold few
# rows; an ordinal split cuts the arbitrary order of the codes, which has nothing
# to do with the groups. A grouping split sends each category of the node to a
# child in one go. With CHAID's multiway splits the tree has fewer levels still.
# All these trees are grown until 20 rows per leaf and overfit; see the
# ``max_depth``, ``min_samples_leaf`` and ``min_impurity_decrease`` parameters.
import matplotlib.pyplot as plt

fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained", sharey=True)
colors = ["tab:orange", "tab:red", "tab:gray", "tab:gray"]
axes[0].barh(
    comparison.index,
    comparison["accuracy"],
    xerr=comparison["accuracy std"],
    color=colors,
)
axes[0].set_xlabel("accuracy (5-fold CV)")
axes[0].set_xlim(0.3, 0.7)
axes[1].barh(comparison.index, comparison["leaves"], color=colors)
axes[1].set_xlabel("number of leaves")
axes[0].invert_yaxis()
fig.suptitle("300 categories in 4 hidden groups, with missing values")
plt.show()

# %%
# The rules as text
# -----------------
#
# :func:`~partikit.tree.export_text` prints one line per child of each split:
# the categories of a group (the first ``max_categories`` of them), a threshold,
# or an interval, marked ``or missing`` where the missing values go. Here are the
# first two levels of a shallow tree.
from partikit.tree import export_text

small = PartitionTreeClassifier(max_depth=3, min_samples_leaf=20).fit(X, y)
print(export_text(small, max_depth=1, max_members=5))

# %%
# The root separates the categories in two groups. Are they unions of the hidden
# groups? We cross-tabulate the hidden group of each category with the child it
# goes to at the root (``tree_.category_child`` holds the child of each category
# of the split column, in ``categories_`` order, where the missing category is
# last).
root = small.tree_
column = int(np.flatnonzero(small.categorical_features_)[root.feature[0]])
categories = small.categories_[column]
start = root.map_start[0]
children = root.category_child[start : start + len(categories)]
known = pd.notna(categories)
print("the missing category goes to child", children[~known])
pd.crosstab(
    hidden_groups.loc[categories[known]].to_numpy(),
    children[known],
    rownames=["hidden group"],
    colnames=["child at the root"],
)

# %%
# Inspecting the tree
# -------------------
#
# ``feature_importances_`` adds up the Gini decrease of the splits of each
# column; ``predict_proba`` gives the class distribution of the leaf a row
# reaches, ``apply`` the leaf and ``decision_path`` the nodes visited. A category
# never seen in fit, or absent from a node in fit, goes to the child with the
# most training rows (``unknown_routing="largest_child"``), or stops the row at
# that node (``unknown_routing="stop"``, the thesis's rule), which then predicts
# the node's class distribution.
importances = pd.Series(small.feature_importances_, index=small.feature_names_in_)
print(importances.round(3).to_dict())
new = pd.DataFrame(
    {
        "category": ["c000", "unseen"],
        "noise_0": ["c000", "c000"],
        "score": [np.nan, 2.0],
    }
)
stopping = PartitionTreeClassifier(
    max_depth=3, min_samples_leaf=20, unknown_routing="stop"
).fit(X, y)
for name, model in [("largest_child", small), ("stop", stopping)]:
    print(f"{name:>13}: nodes {model.apply(new)}, probabilities")
    print(model.predict_proba(new).round(3))
print("nodes visited with the largest-child rule:")
print(small.decision_path(new).toarray())

# %%
# Oblique splits: digits
# ----------------------
#
# On numeric data, ``node_features="node_means_pca"`` makes the candidates of a
# node the principal directions of its one-vs-rest class means (Bodine and
# Hochbaum): for each class present, the mean of the node's rows of the other
# classes; a split is a threshold on a projection ``x @ v``. With 10 classes a
# node has at most 9 such directions, instead of the 64 pixels of scikit-learn's
# 8 x 8 digits. ``numeric_split="maxcut"`` chooses the threshold of each
# direction by the max-cut metric of Bodine and Hochbaum, ``"gini"`` by the Gini
# impurity. The pixels are standardised first, inside the pipeline.
from sklearn.datasets import load_digits
from sklearn.preprocessing import StandardScaler

digits_X, digits_y = load_digits(return_X_y=True)
digit_models = {
    "sklearn, pixels": DecisionTreeClassifier(random_state=0),
    "PartitionTree gini, pixels": PartitionTreeClassifier(),
    "PartitionTree gini, node_means_pca": PartitionTreeClassifier(
        node_features="node_means_pca"
    ),
    "PartitionTree maxcut, node_means_pca": PartitionTreeClassifier(
        numeric_split="maxcut", node_features="node_means_pca"
    ),
}
digit_results = {}
for name, model in digit_models.items():
    scores = cross_validate(
        make_pipeline(StandardScaler(), model),
        digits_X,
        digits_y,
        cv=cv,
        return_estimator=True,
    )
    digit_results[name] = {
        "accuracy": scores["test_score"].mean(),
        "leaves": np.mean([m[-1].get_n_leaves() for m in scores["estimator"]]),
        "fit time (s)": scores["fit_time"].mean(),
    }
    print(
        f"{name:>37}: accuracy {digit_results[name]['accuracy']:.3f}, "
        f"{digit_results[name]['leaves']:.0f} leaves, "
        f"fit {digit_results[name]['fit time (s)']:.2f} s"
    )
digit_comparison = pd.DataFrame(digit_results).T

# %%
# On the pixels themselves the partition tree and scikit-learn's tree grow the
# same kind of tree, with similar accuracy; scikit-learn's compiled tree is much
# faster there, since the partition tree sorts every column of every node in
# Python. On the node's class-mean directions both thresholds give a clearly
# more accurate tree with fewer leaves, and it is faster than the tree on the
# pixels: each node has at most 9 candidate directions instead of 64.
fig, ax = plt.subplots(figsize=(6, 3.4), layout="constrained")
ax.scatter(digit_comparison["fit time (s)"], digit_comparison["accuracy"])
for name, row in digit_comparison.iterrows():
    ax.annotate(
        name,
        (row["fit time (s)"], row["accuracy"]),
        textcoords="offset points",
        xytext=(6, -3),
        fontsize="small",
    )
ax.set_xscale("log")
ax.set_xlim(right=ax.get_xlim()[1] * 20)
ax.set_xlabel("fit time per fold (s, log scale)")
ax.set_ylabel("accuracy (5-fold CV)")
ax.set_title("Digits: oblique splits on node PCA directions")
plt.show()

# %%
# Conclusion
# ----------
#
# :class:`~partikit.tree.PartitionTreeClassifier` splits a categorical column by
# grouping its categories at each node, with the same functions as partikit's
# groupers, so it needs no encoding, keeps missing values as they are and stays
# small on high-cardinality columns. On numeric data it is a plain CART-like tree
# that can also split on directions computed at each node. It is written in
# Python around compiled kernels: on many numeric columns, scikit-learn's tree is
# faster.
