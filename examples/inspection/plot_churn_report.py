# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
===============================================
A report of every column of a customer table
===============================================

:func:`partikit.report` groups every categorical column and cuts every
numeric column of a table against a target, ranks the columns by how much their
partition tells of the target, and returns a :class:`~partikit.Report`
that shows each partition as a table and a plot, writes one self-contained HTML
file, and exports the learned mapping as JSON and SQL. The command line
``partikit report customers.csv --target churn --out report.html`` does the
same on a file.

The table here is a synthetic customer table built to look like the churn data
sets of telecom operators: its effects are known, so we can check that the
report finds them, and that it leaves the columns without any effect in one
part. See the :ref:`User Guide <inspection>`.
"""

# %%
# A customer table with known effects
# -----------------------------------
#
# Eight columns. ``contract`` (month-to-month customers leave more),
# ``tenure_months`` (new customers leave more, with a step at one year),
# ``monthly_charges`` (the expensive plans leave more), ``support_calls`` and
# ``city`` (120 cities in three hidden groups) carry the effects; ``payment``
# has a weak one; ``device`` and ``signup_weekday`` have none.
import numpy as np
import pandas as pd

rng = np.random.default_rng(0)
n = 30_000
contracts = ["month-to-month", "one year", "two years"]
contract = rng.choice(contracts, n, p=[0.55, 0.25, 0.2])
tenure = rng.gamma(2.0, 14.0, n).round().clip(0, 72)
charges = rng.normal(65, 25, n).clip(18, 120).round(2)
calls = rng.poisson(1.2, n)
city_group = rng.integers(0, 3, 120)
city = rng.integers(0, 120, n)
payment = rng.choice(["card", "bank transfer", "electronic check", "mail"], n)
device = rng.choice(["android", "ios", "web"], n)
weekday = rng.choice(["mon", "tue", "wed", "thu", "fri", "sat", "sun"], n)
logit = (
    -1.6
    + np.array([1.2, 0.0, -1.0])[np.searchsorted(contracts, contract)]
    + np.where(tenure < 12, 0.9, np.where(tenure < 36, 0.2, -0.5))
    + np.where(charges > 90, 0.7, 0.0)
    + 0.35 * np.minimum(calls, 4)
    + np.array([-0.7, 0.0, 0.7])[city_group[city]]
    + np.where(payment == "electronic check", 0.3, 0.0)
)
churn = rng.random(n) < 1 / (1 + np.exp(-logit))
customers = pd.DataFrame(
    {
        "contract": contract,
        "tenure_months": tenure,
        "monthly_charges": charges,
        "support_calls": calls,
        "city": np.char.add("city_", city.astype(str)),
        "payment": payment,
        "device": device,
        "signup_weekday": weekday,
        "churn": np.where(churn, "yes", "no"),
    }
)
customers.head()

# %%
# The report
# ----------
#
# One call: ``KhiopsGrouper()`` on the categorical columns, ``KhiopsDiscretizer()``
# on the numeric ones (their kind follows their dtype; ``categorical=`` and
# ``numeric=`` override it). Both are robust: ``device`` and ``signup_weekday``,
# which tell nothing of churn, stay in one part and rank last.
from partikit import report

result = report(customers, "churn")
overview = result.to_frame()
overview[["kind", "n_values", "n_parts", "log10_adjusted_pvalue", "cramers_v", "iv"]]

# %%
# Each column's partition
# -----------------------
#
# The table of the 120 cities: the report found the three hidden groups. Each
# group's label lists its first cities and counts the others; its churn rate,
# weight of evidence and information value follow.
result.partition_table("city", max_members=4)[
    ["label", "count", "event_rate", "woe", "iv", "missing", "unknown"]
]

# %%
# The plot shows the same partition: the class shares of each group, the count
# of each, and the weight of evidence (a hatched part receives the missing
# values or the categories not seen in fit).
import matplotlib.pyplot as plt

fig, axes = plt.subplots(2, 1, figsize=(9, 8.5), layout="constrained")
result.plot_partition("city", ax=axes[0])
result.plot_partition("tenure_months", ax=axes[1])
plt.show()

# %%
# The intervals of ``tenure_months`` hold the step at one year: their labels
# read ``(lo, hi]``, the values ``lo < x <= hi``.
result.partition_table("tenure_months")[["label", "count", "event_rate", "woe"]]

# %%
# One HTML file, JSON and SQL
# ---------------------------
#
# ``to_html`` writes the whole report (overview, one section per column with its
# table and plot, target distribution, settings) as ONE file with inline SVG and
# no script: it opens offline. ``to_json`` writes the learned mapping in the
# documented schema ``partikit.mapping``; ``to_sql`` writes one ``SELECT`` that
# gives every row its group or interval in a database.
import json
import os
import tempfile

folder = tempfile.mkdtemp()
html_path = os.path.join(folder, "churn_report.html")
result.to_html(html_path)
print(f"{os.path.getsize(html_path) / 1e3:.0f} kB, one file")
mapping = json.loads(result.to_json())
contract_mapping = next(c for c in mapping["columns"] if c["name"] == "contract")
print(json.dumps(contract_mapping, indent=1)[:600])

# %%
sql = result.to_sql("customers")
print(sql[:700])

# %%
# The SQL gives, row by row, the ids that the report's ``transform`` gives:
import sqlite3

connection = sqlite3.connect(":memory:")
customers.drop(columns="churn").to_sql("customers", connection, index=False)
from_sql = pd.DataFrame(
    connection.execute(sql).fetchall(), columns=list(overview.index)
)
print((from_sql.to_numpy() == result.transform(customers).to_numpy()).all())

# %%
# A tree on the same columns
# --------------------------
#
# :class:`~partikit.tree.PartitionTreeClassifier` splits on the same kind of
# partitions; ``plot_tree`` labels each edge with the cities or the interval it
# sends to the child.
from partikit.tree import PartitionTreeClassifier

features = ["contract", "tenure_months", "city"]
tree = PartitionTreeClassifier(max_depth=2, categorical_split="khiops").fit(
    customers[features], customers["churn"]
)
fig, ax = plt.subplots(figsize=(12, 5))
tree.plot_tree(ax=ax, max_members=3)
plt.show()
