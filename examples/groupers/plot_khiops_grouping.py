# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
=========================================================
Recovering hidden groups of categories with KhiopsGrouper
=========================================================

:class:`~partikit.groupers.KhiopsGrouper` learns, from a classification target,
which categories of a column behave alike, and merges them into groups. This
example uses synthetic data whose right answer is known: the categories of one
column fall into hidden groups that share a class distribution, and a few other
columns are pure noise. We check that the grouper finds the hidden groups, that
it puts every noise column into a single group, and we plot the class profiles of
the groups it found.

See the :ref:`User Guide <grouping>` for the method.
"""

# %%
# Synthetic data with a known grouping
# ------------------------------------
#
# :func:`~partikit.datasets.make_grouped_categorical` draws a column
# ``"category"`` with 40 categories that fall into 4 hidden groups. Group ``g``
# puts 30% more probability on class ``g``; the class otherwise does not depend
# on the category. The three columns ``"noise_*"`` also have 40 categories each,
# drawn independently of the class.
import numpy as np
import pandas as pd

from partikit.datasets import make_grouped_categorical

X, y, hidden_groups = make_grouped_categorical(
    n_samples=10_000,
    n_categories=40,
    n_classes=4,
    n_groups=4,
    signal=0.3,
    n_noise_features=3,
    random_state=0,
)
X.head()

# %%
# ``hidden_groups`` maps each category to its hidden group.
hidden_groups.value_counts().sort_index()

# %%
# Fitting the grouper
# -------------------
#
# The default settings need no tuning: ``alpha=0.05`` is the probability that a
# column independent of the class is split into more than one group, and
# ``min_frequency="auto"`` pools categories too rare for the chi-square test into
# a special group (none is rare here: every category has about 250 rows).
#
# The first fit in a new environment compiles partikit's numba kernels, which
# takes a few seconds; the compiled code is cached on disk.
from partikit.groupers import KhiopsGrouper

grouper = KhiopsGrouper().fit(X, y)

summary = pd.DataFrame(
    {
        "categories": [s["n_categories"] for s in grouper.statistics_],
        "groups": grouper.n_groups_,
        "chi2": [s["chi2"] for s in grouper.statistics_],
        "log10 p-value": [s["log10_pvalue"] for s in grouper.statistics_],
        "MaxDeltaChi2": [s["max_delta_chi2"] for s in grouper.statistics_],
    },
    index=grouper.feature_names_in_,
)
summary.round(1)

# %%
# The informative column is reduced from 40 categories to a handful of groups,
# with a p-value of the chi-square test far below anything chance produces. The
# noise columns end in **one group** each: their chi-square is 0 and their
# encoding is constant, so a downstream model cannot over-fit them.
#
# Groups found against hidden groups
# ----------------------------------
#
# Group numbers are arbitrary labels (numbered by the first category of each
# group in sorted order), so we compare the two partitions with a cross-table and
# with the adjusted Rand index, which is 1 for identical partitions and about 0
# for unrelated ones.
from sklearn.metrics import adjusted_rand_score

found_groups = pd.Series(
    grouper.group_ids_[0], index=grouper.categories_[0], name="found_group"
)
found_groups = found_groups.reindex(hidden_groups.index)
print(pd.crosstab(hidden_groups, found_groups))
ari = adjusted_rand_score(hidden_groups, found_groups)
print(f"Adjusted Rand index: {ari:.3f}")

# %%
# The categories of each group found are in ``groups_``:
for g, members in enumerate(grouper.groups_[0]):
    print(f"group {g}: {', '.join(members)}")

# %%
# Columns without information end in one group
# --------------------------------------------
#
# The robust stopping rule is what puts the noise columns into one group. The
# initial Khiops algorithm (``robust=False``) stops as soon as a merge no longer
# lowers the confidence level of the chi-square test. Chance differences between
# categories are then enough to keep several groups in the noise columns, and to
# split the informative column into more groups than there are hidden ones:
initial = KhiopsGrouper(robust=False).fit(X, y)
pd.DataFrame(
    {"robust (default)": grouper.n_groups_, "robust=False": initial.n_groups_},
    index=grouper.feature_names_in_,
)

# %%
# The robust rule forces every merge whose DeltaChi2 is at most MaxDeltaChi2
# (reported in ``statistics_`` above): a bound that every DeltaChi2 met while a
# column independent of the class is merged down to one group stays under, with
# probability ``p``. A noise column therefore ends in one group with probability
# about ``p``. We check it on 200 fresh noise columns:
X_noise, y_noise, _ = make_grouped_categorical(
    n_samples=10_000,
    n_categories=40,
    n_classes=4,
    n_noise_features=200,
    random_state=1,
)
X_noise = X_noise.drop(columns="category")
noise_groups = KhiopsGrouper().fit(X_noise, y_noise).n_groups_
share_single = np.mean(noise_groups == 1)
print(f"Noise columns grouped into one group: {share_single:.0%} (alpha = 0.05)")
print("Number of columns by number of groups:", np.bincount(noise_groups)[1:])

# %%
# The share is close to ``p`` but need not equal it: 200 columns give a sampling
# error of about 1.5 points, and the law of MaxDeltaChi2 is modelled by a normal
# approximation (see the :ref:`User Guide <grouping>`). Without the robust rule,
# almost no noise column would end in one group.

# %%
# Class profiles of the groups
# ----------------------------
#
# ``table_`` holds the class counts of each group. Dividing each row by its total
# gives the class profile of the group: each group found favours one class, as
# the hidden groups do, while the overall class proportions (dashed lines) are
# close to uniform.
import matplotlib.pyplot as plt

table = grouper.table_[0]
profiles = table / table.sum(axis=1, keepdims=True)
overall = table.sum(axis=0) / table.sum()
n_groups, n_classes = profiles.shape

fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
width = 0.8 / n_classes
colors = plt.get_cmap("tab10").colors
for j, label in enumerate(grouper.classes_):
    positions = np.arange(n_groups) + (j - (n_classes - 1) / 2) * width
    ax.bar(positions, profiles[:, j], width, color=colors[j], label=f"class {label}")
    ax.axhline(overall[j], color=colors[j], linestyle="--", linewidth=1)
ax.set_xticks(
    np.arange(n_groups),
    [
        f"group {g}\n{len(members)} categories\n{int(table[g].sum())} rows"
        for g, members in enumerate(grouper.groups_[0])
    ],
)
ax.set_ylabel("share of the group's rows")
ax.set_title('Class profiles of the groups found in "category"')
ax.legend(ncols=n_classes, loc="upper center", bbox_to_anchor=(0.5, -0.3))
plt.show()

# %%
# Encoding
# --------
#
# ``transform`` replaces each category by its group number (``encode="ordinal"``,
# the default); ``encode="onehot"`` gives one indicator column per group instead.
# A category not seen during fit goes to ``default_group_``, here the largest
# group of each column since no category was rare.
grouper.transform(X.head())

# %%
# Conclusion
# ----------
#
# On a column whose categories share a few class distributions,
# :class:`~partikit.groupers.KhiopsGrouper` recovers those groups from the data
# alone, without being told how many there are. Columns that carry no
# information about the class end in a single group with the probability ``p``
# chosen by the user, which the initial, non-robust algorithm does not achieve.
# The fitted attributes (``groups_``, ``table_``, ``statistics_``) make the
# grouping easy to inspect.
