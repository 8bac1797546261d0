# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
======================================================
A regression tree that groups categories by their mean
======================================================

:class:`~partikit.tree.PartitionTreeRegressor` splits a categorical column in
two groups of categories: the categories sorted by their mean target, the best
prefix of that order, which is the best of all binary partitions for squared
error (Fisher 1958). scikit-learn's
:class:`~sklearn.tree.DecisionTreeRegressor` needs the categories encoded
first; with ordinal codes it can only cut the codes' order, so a group of
categories scattered through the alphabet takes it many splits.

This example

* draws a table with a column of 200 categories whose effects fall into 4
  hidden levels, and two numeric columns;
* compares the held-out R^2 of both trees at the same depths;
* prints and draws the first levels of the partition tree.

See the :ref:`User Guide <tree_regressor>` for the method.
"""

# %%
# A target driven by hidden groups of categories
# ----------------------------------------------
import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
n = 20_000
categories = np.array([f"shop_{k:03d}" for k in range(200)])
level = rng.integers(0, 4, len(categories))  # each shop's hidden level
shop = rng.integers(0, len(categories), n)
age = rng.uniform(18, 80, n)
income = rng.lognormal(10, 0.5, n)
y = (
    3.0 * level[shop]
    + 0.05 * (age - 50)
    + 1.5 * np.log(income / 20_000)
    + rng.normal(0, 1, n)
)
X = pd.DataFrame({"shop": categories[shop], "age": age, "income": income})
train = np.arange(n) < 15_000

# %%
# Both trees at the same depths
# -----------------------------
# scikit-learn's tree gets the categories as ordinal codes.
from sklearn.compose import make_column_transformer
from sklearn.metrics import r2_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder
from sklearn.tree import DecisionTreeRegressor

from partikit.tree import PartitionTreeRegressor, export_text

for depth in (2, 4, 6):
    ours = PartitionTreeRegressor(max_depth=depth).fit(X[train], y[train])
    encoded = make_pipeline(
        make_column_transformer((OrdinalEncoder(), ["shop"]), remainder="passthrough"),
        DecisionTreeRegressor(max_depth=depth, random_state=0),
    ).fit(X[train], y[train])
    print(
        f"depth {depth}: held-out R^2 partition tree "
        f"{r2_score(y[~train], ours.predict(X[~train])):.3f}, scikit-learn on "
        f"ordinal codes {r2_score(y[~train], encoded.predict(X[~train])):.3f}"
    )

# %%
# The first splits group the shops by level
# -----------------------------------------
tree = PartitionTreeRegressor(max_depth=2).fit(X[train], y[train])
print(export_text(tree, max_members=4))

# %%
# The same tree drawn: each box shows its samples, its squared error (the
# weighted variance) and its mean, darker for a larger mean.
import matplotlib.pyplot as plt

ax = tree.plot_tree(max_members=3)
plt.show()
