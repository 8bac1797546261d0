# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
=========================================================
Grouping ordinal and nominal columns with CHAIDGrouper
=========================================================

:class:`~partikit.groupers.CHAIDGrouper` merges the categories of a column with
Kass's CHAID method: two groups merge while a chi-square test cannot tell their
class distributions apart, and the grouped column's p-value is then adjusted for
the number of groupings searched (Bonferroni). Ordinal columns only merge adjacent
categories, so that their groups are intervals.

This example uses synthetic data with a known answer: an ordinal column of age
bands, a nominal column of regions whose categories fall into hidden groups, and
a noise column. We fit the grouper, read its groups and adjusted p-values, rank
the columns with :func:`~partikit.groupers.chaid_feature_ranking`, plot the class
proportions of the groups and compare with
:class:`~partikit.groupers.KhiopsGrouper`.

See the :ref:`User Guide <chaid>` for the method.
"""

# %%
# Synthetic data with a known grouping
# ------------------------------------
#
# A binary target ``"churn"`` depends on two columns, on the logistic scale:
#
# * ``"age"``, six age bands stored as an **ordered** pandas ``Categorical``.
#   The bands 18-24 and 25-34 lower the churn rate, 35-44 to 55-64 leave it
#   unchanged and 65+ raises it: three intervals. 5% of the ages are missing, at
#   random;
# * ``"region"``, eight regions in three hidden groups:
#   {north, south, islands}, {east, west, centre} and {coast, hills}.
#
# ``"noise"`` has ten categories drawn independently of the target.
import numpy as np
import pandas as pd

rng = np.random.default_rng(8)
n_samples = 4000

bands = ["18-24", "25-34", "35-44", "45-54", "55-64", "65+"]
age_effect = np.array([-1.0, -1.0, 0.0, 0.0, 0.0, 1.0])
regions = np.array(
    ["north", "south", "east", "west", "centre", "coast", "hills", "islands"],
    dtype=object,
)
hidden_region_group = np.array([0, 0, 1, 1, 1, 2, 2, 0])
region_effect = np.array([-0.8, 0.0, 0.8])[hidden_region_group]

age_code = rng.integers(0, len(bands), n_samples)
region_code = rng.integers(0, len(regions), n_samples)
logit = -0.3 + age_effect[age_code] + region_effect[region_code]
y = np.where(rng.random(n_samples) < 1 / (1 + np.exp(-logit)), "yes", "no")

age = pd.Categorical.from_codes(age_code, categories=bands, ordered=True)
age[rng.random(n_samples) < 0.05] = np.nan
X = pd.DataFrame(
    {
        "age": age,
        "region": regions[region_code],
        "noise": np.array(list("abcdefghij"), dtype=object)[
            rng.integers(0, 10, n_samples)
        ],
    }
)
X.head()

# %%
# Fitting the grouper
# -------------------
#
# The defaults follow SPSS: ``alpha_merge=0.05`` for the pairwise merge tests and
# ``alpha_split=0.05`` for the ``significant`` flag. ``"age"`` is an ordered
# ``Categorical``, so it is ordinal without being told; the other columns are
# nominal. The first fit in a new environment compiles partikit's numba kernels
# (a few seconds, cached on disk).
from partikit.groupers import CHAIDGrouper

grouper = CHAIDGrouper().fit(X, y)

for name, groups in zip(grouper.feature_names_in_, grouper.groups_, strict=True):
    print(f"{name}:")
    for g, members in enumerate(groups):
        print(f"  group {g}: {', '.join(map(str, members))}")

# %%
# The three age intervals and the three hidden region groups are recovered. The
# missing age (``nan``) is a *floating* category: the age bands are merged
# first, then the missing category joins the group most similar to it, here the
# middle interval, since ages are missing at random and the middle interval's
# churn rate is the closest to the overall one.
#
# Note the noise column: CHAID's merge rule is a local pairwise test, and chance
# differences are enough to keep two groups. The adjusted p-values below say
# that this grouping means nothing.
#
# Statistics and adjusted p-values
# --------------------------------
#
# ``statistics_`` holds, for each column, the chi-square test of the grouped
# column and its Bonferroni adjustment: the multiplier counts the groupings of
# ``n_categories`` categories into the groups found (intervals for an ordinal
# column, with one more term for its floating missing category; any partition
# for a nominal one). p-values are also given as log10, which never underflow.
keys = [
    "predictor",
    "n_categories",
    "chi2",
    "dof",
    "log10_pvalue",
    "log10_bonferroni",
    "adjusted_pvalue",
    "significant",
]
pd.DataFrame(
    [[s[k] for k in keys] for s in grouper.statistics_],
    index=grouper.feature_names_in_,
    columns=keys,
)

# %%
# The noise column's unadjusted p-value is small, because its two groups were
# chosen to differ; multiplied by the number of ways to split ten categories in
# two (511), it is not significant.
#
# Ranking columns
# ---------------
#
# :func:`~partikit.groupers.chaid_feature_ranking` fits a
# :class:`~partikit.groupers.CHAIDGrouper` and orders the columns by adjusted
# p-value, the rule CHAID uses to choose the split variable of a tree node.
from partikit.groupers import chaid_feature_ranking

ranking = chaid_feature_ranking(X, y)
ranking[["n_groups", "chi2", "dof", "log10_adjusted_pvalue", "significant"]]

# %%
# Class proportions of the region groups
# --------------------------------------
#
# ``table_`` holds the class counts of each group. The three region groups have
# clearly different churn rates (the dashed line is the overall rate).
import matplotlib.pyplot as plt

region = list(grouper.feature_names_in_).index("region")
table = grouper.table_[region]
shares = table / table.sum(axis=1, keepdims=True)
classes = list(grouper.classes_)
churn = shares[:, classes.index("yes")]
overall = table[:, classes.index("yes")].sum() / table.sum()

fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
labels = [
    f"group {g}\n{', '.join(members)}\n{int(table[g].sum())} rows"
    for g, members in enumerate(grouper.groups_[region])
]
ax.bar(labels, churn, color="tab:blue", label='share of "yes"')
ax.bar(
    labels, 1 - churn, bottom=churn, color="tab:gray", alpha=0.4, label='share of "no"'
)
ax.axhline(overall, color="black", linestyle="--", linewidth=1, label="overall")
ax.set_ylim(0, 1)
ax.set_ylabel("share of the group's rows")
ax.set_title('Class proportions of the CHAID groups of "region"')
ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize="small")
plt.show()

# %%
# Comparison with KhiopsGrouper
# -----------------------------
#
# :class:`~partikit.groupers.KhiopsGrouper` groups with a global criterion and a
# threshold calibrated so that a column unrelated to the class ends in one group
# with probability ``p``. With eight regions and about 500 rows each, both
# methods find the same region groups (nominal columns list their categories in
# the same sorted order in both, so ``group_ids_`` can be compared directly); the
# noise column is where they differ.
from partikit.groupers import KhiopsGrouper

khiops = KhiopsGrouper().fit(X[["region", "noise"]], y)
pd.DataFrame(
    {
        "CHAID groups": grouper.n_groups_[1:],
        "Khiops groups": khiops.n_groups_,
        "same groups": [
            np.array_equal(grouper.group_ids_[j + 1], khiops.group_ids_[j])
            for j in range(2)
        ],
    },
    index=["region", "noise"],
)

# %%
# Conclusion
# ----------
#
# :class:`~partikit.groupers.CHAIDGrouper` recovers interval groups of an ordinal
# column (with a floating missing category) and groups of a nominal one, and
# reports a Bonferroni-adjusted p-value per column that separates informative
# columns from noise. Its local merge rule can leave a noise column in several
# groups: use the ``significant`` flag or
# :func:`~partikit.groupers.chaid_feature_ranking` to drop such columns, or
# :class:`~partikit.groupers.KhiopsGrouper`, which merges them into one group.
