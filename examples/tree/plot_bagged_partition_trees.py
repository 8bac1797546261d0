# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
===================================================
Bagged partition trees, and cost-complexity pruning
===================================================

A single decision tree has a high variance: a few rows more or less and its
splits change. Averaging many trees grown on bootstrap samples (bagging) smooths
that out, and a random subset of the columns per tree (random subspaces) makes
the trees more different still, as in a random forest. scikit-learn's
:class:`~sklearn.ensemble.BaggingClassifier` does both around any classifier,
including :class:`~partikit.tree.PartitionTreeClassifier`, whose categorical
columns are split by grouping their categories. Pruning is the other cure for a
single tree's variance: ``ccp_alpha`` prunes the grown tree by minimal
cost-complexity, as scikit-learn's trees do.

This example

* builds a table of categorical and numeric columns with a known signal;
* compares one tree with bagged trees, with and without random subspaces;
* follows the held-out accuracy of a tree along its pruning path.

See the :ref:`User Guide <tree>` for the method.
"""

# %%
# Categories and numbers
# ----------------------
#
# :func:`~partikit.datasets.make_grouped_categorical` draws a column
# ``"category"`` of 60 categories that fall into 4 hidden groups, and a noise
# column ``"noise_0"``. We add numeric columns and draw a two-class target whose
# log-odds add the hidden group's effect, the logarithm of ``"income"``, a slope
# in ``"age"`` and a bump in ``"hours"``; ``"noise"`` plays no part. A tree
# approximates these smooth effects by steps, which is where averaging many
# trees helps.
import numpy as np

from partikit.datasets import make_grouped_categorical

X, _, hidden_groups = make_grouped_categorical(
    n_samples=6000,
    n_categories=60,
    n_classes=2,
    n_groups=4,
    signal=0.5,
    n_noise_features=1,
    dtype="object",
    random_state=0,
)
rng = np.random.default_rng(0)
n_samples = len(X)
X["income"] = rng.lognormal(3, 0.5, n_samples).round(1)
X["age"] = rng.integers(18, 80, n_samples)
X["hours"] = rng.normal(40, 10, n_samples).round()
X["noise"] = rng.normal(size=n_samples)
group_effect = np.array([-1.5, -0.5, 0.5, 1.5])
log_odds = (
    group_effect[hidden_groups.loc[X["category"]].to_numpy()]
    + 2 * (np.log(X["income"]) - 3)
    + (X["age"] - 50) / 15
    - 0.7 * ((X["hours"] - 40) / 10) ** 2
)
y = np.where(rng.random(n_samples) < 1 / (1 + np.exp(-log_odds)), "high", "low")
print(X.head())

# %%
# We keep a quarter of the rows aside to measure accuracy.
from sklearn.model_selection import train_test_split

X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.25, stratify=y, random_state=0
)

# %%
# One tree against bagged trees
# -----------------------------
#
# :class:`~sklearn.ensemble.BaggingClassifier` turns the DataFrame into a numpy
# array of objects before it reaches the trees, and gives each tree a subset of
# its columns with ``max_features``. With ``categorical_features="from_dtype"``
# (the default) each tree still finds which columns are categorical: an object
# column is numeric when its values are all numbers, so the array gets the
# DataFrame's column kinds. ``warm_start=True`` adds trees to the ensemble
# already grown, so we follow the test accuracy as trees are added.
import pandas as pd
from sklearn.ensemble import BaggingClassifier

from partikit.tree import PartitionTreeClassifier

single = PartitionTreeClassifier().fit(X_train, y_train)
single_accuracy = single.score(X_test, y_test)
print(f"one tree: {single.get_n_leaves()} leaves, accuracy {single_accuracy:.3f}")

sizes = [1, 2, 5, 10, 20, 40]
ensembles = {
    "bagging": BaggingClassifier(
        PartitionTreeClassifier(), warm_start=True, random_state=0
    ),
    "bagging + random subspaces (max_features=0.8)": BaggingClassifier(
        PartitionTreeClassifier(), max_features=0.8, warm_start=True, random_state=0
    ),
}
curves = {}
for name, ensemble in ensembles.items():
    curves[name] = []
    for n_estimators in sizes:
        ensemble.set_params(n_estimators=n_estimators).fit(X_train, y_train)
        curves[name].append(ensemble.score(X_test, y_test))
pd.DataFrame(curves, index=pd.Index(sizes, name="trees")).round(3)

# %%
# One bagged tree (a tree on one bootstrap sample) is no better than the single
# tree; from a handful of trees on, the average beats it clearly, and the gain
# levels off after a few tens of trees. With random subspaces each tree sees 4
# of the 6 columns: the first trees are weaker (some miss the category or the
# income), the ensemble catches up as trees are added.
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 3.4), layout="constrained")
for name, accuracies in curves.items():
    ax.plot(sizes, accuracies, marker="o", label=name)
ax.axhline(single_accuracy, color="tab:gray", linestyle="--", label="one tree")
ax.set_xscale("log")
ax.set_xlabel("number of bagged trees")
ax.set_ylabel("test accuracy")
ax.legend(fontsize="small")
ax.set_title("Bagged partition trees")
plt.show()

# %%
# The pruning path
# ----------------
#
# :meth:`~partikit.tree.PartitionTreeClassifier.cost_complexity_pruning_path`
# grows the tree and prunes its weakest link over and over: the node whose
# subtree lowers the weighted impurity least per leaf it adds. Each step's
# effective alpha is the ``ccp_alpha`` from which that subtree is pruned, so the
# path lists every distinct pruned tree. We fit the tree pruned at some of these
# alphas (the tree of ``ccp_alpha=0`` is the whole grown tree).
path = PartitionTreeClassifier().cost_complexity_pruning_path(X_train, y_train)
alphas = path.ccp_alphas[:-1]  # the last one leaves the root alone
chosen = alphas[np.linspace(0, len(alphas) - 1, 15).astype(int)]
pruning = []
for alpha in chosen:
    pruned = PartitionTreeClassifier(ccp_alpha=alpha).fit(X_train, y_train)
    pruning.append(
        {
            "ccp_alpha": alpha,
            "leaves": pruned.get_n_leaves(),
            "train accuracy": pruned.score(X_train, y_train),
            "test accuracy": pruned.score(X_test, y_test),
        }
    )
pruning = pd.DataFrame(pruning)
pruning.round(4)

# %%
# Pruning trades training accuracy for a smaller tree. Here the test accuracy
# holds while the tree shrinks about tenfold, the pruning removing leaves that
# fit noise, then falls once it removes real structure. In practice
# ``ccp_alpha`` is chosen by cross-validation on the training rows (for instance
# with :class:`~sklearn.model_selection.GridSearchCV` over the path's alphas). A
# pruned tree is smaller and easier to read, but it does not reach the bagged
# trees' accuracy.
fig, ax = plt.subplots(figsize=(6, 3.4), layout="constrained")
ax.plot(pruning["ccp_alpha"], pruning["train accuracy"], marker="o", label="train")
ax.plot(pruning["ccp_alpha"], pruning["test accuracy"], marker="o", label="test")
ax.axhline(
    curves["bagging"][-1], color="tab:green", linestyle="--", label="40 bagged trees"
)
ax.set_xscale("symlog", linthresh=chosen[chosen > 0].min())
ax.set_xlabel("ccp_alpha")
ax.set_ylabel("accuracy")
ax.legend(fontsize="small")
ax.set_title("One tree along its pruning path")
plt.show()

# %%
# Conclusion
# ----------
#
# :class:`~partikit.tree.PartitionTreeClassifier` works inside scikit-learn's
# meta-estimators: bagged on bootstrap samples and random subsets of columns, it
# keeps splitting the categorical columns by groups, and the ensemble is more
# accurate than one tree. ``ccp_alpha`` and ``cost_complexity_pruning_path``
# prune a single tree as scikit-learn's trees do.
