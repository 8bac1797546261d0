# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""
=============================================
Streaming a CSV file through ``partial_fit``
=============================================

Every partikit transformer learns from contingency tables, and the table of a
union of row chunks is the sum of the chunks' tables. ``partial_fit`` adds each
chunk's tables to those of the chunks before it and learns the groups (or the
cut points) anew from the sum, so after every call the transformer is exactly
the one ``fit`` would give on all the rows read so far, without ever holding
them in memory. This example streams a CSV file with pandas' ``chunksize``, a
polars frame by batches, and counts tables apart to add them at the end, and
checks each against an in-memory ``fit``.

See the :ref:`User Guide <large_data>`.
"""

# %%
# A CSV file larger than the chunks we read
# -----------------------------------------
#
# :func:`~partikit.datasets.make_grouped_categorical` draws a column
# ``"category"`` whose 200 categories fall into 5 hidden groups, and two noise
# columns. We write 200,000 rows to a temporary CSV file, with a numeric column
# whose class depends on three hidden intervals.
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from partikit.datasets import make_grouped_categorical

X, y, hidden_groups = make_grouped_categorical(
    n_samples=200_000,
    n_categories=200,
    n_classes=3,
    n_groups=5,
    signal=0.3,
    n_noise_features=2,
    random_state=0,
)
rng = np.random.default_rng(0)
frame = X.assign(
    amount=np.round(rng.uniform(0, 100, len(y)), 1),
    target=y,
)
# the class of a third of the rows follows the amount's interval
frame.loc[::3, "target"] = np.digitize(frame["amount"][::3], [20, 70])
path = Path(tempfile.mkdtemp()) / "customers.csv"
frame.to_csv(path, index=False)
categorical = list(X.columns)
print(f"{path.stat().st_size / 1e6:.1f} MB, columns {list(frame.columns)}")

# %%
# ``partial_fit`` on chunks of 25,000 rows
# ----------------------------------------
#
# The grouper and the discretizer see one chunk at a time. After the last
# chunk they are the ones ``fit`` gives on the whole file.
from partikit.discretizers import MDLPDiscretizer
from partikit.groupers import KhiopsGrouper

grouper = KhiopsGrouper()
discretizer = MDLPDiscretizer()
for n_chunks, chunk in enumerate(pd.read_csv(path, chunksize=25_000), start=1):
    grouper.partial_fit(chunk[categorical], chunk["target"])
    discretizer.partial_fit(chunk[["amount"]], chunk["target"])
    print(
        f"after chunk {n_chunks}: {grouper.n_groups_.tolist()} groups, "
        f"cuts {np.round(discretizer.bin_edges_[0][1:-1], 1).tolist()}"
    )

whole = pd.read_csv(path)
in_memory = KhiopsGrouper().fit(whole[categorical], whole["target"])
assert all(
    np.array_equal(a, b)
    for a, b in zip(grouper.group_ids_, in_memory.group_ids_, strict=True)
)
cuts = MDLPDiscretizer().fit(whole[["amount"]], whole["target"]).bin_edges_[0]
assert np.array_equal(discretizer.bin_edges_[0], cuts)
print("the same groups and cut points as fit on the whole file")

# %%
# The groups found are the hidden ones: the adjusted Rand index compares the
# grouper's partition of the categories with the hidden grouping.
from sklearn.metrics import adjusted_rand_score

found = pd.Series(grouper.group_ids_[0][:-1], index=grouper.categories_[0][:-1])
hidden = pd.Series(hidden_groups).reindex(found.index)
print(f"adjusted Rand index: {adjusted_rand_score(hidden, found):.3f}")

# %%
# A polars frame by batches
# -------------------------
#
# ``partial_fit`` takes polars frames as ``fit`` does; ``iter_slices`` gives a
# frame's rows in batches (``pl.read_csv_batched`` or a lazy scan feed larger
# files the same way).
try:
    import polars as pl
except ImportError:
    pl = None
    print("polars is not installed: this part is skipped")

if pl is not None:
    polars_frame = pl.read_csv(path)
    streamed = KhiopsGrouper()
    for batch in polars_frame.iter_slices(n_rows=40_000):
        streamed.partial_fit(batch.select(categorical), batch["target"].to_numpy())
    assert all(
        np.array_equal(a, b)
        for a, b in zip(streamed.group_ids_, in_memory.group_ids_, strict=True)
    )
    print("polars batches: the same groups")

# %%
# Tables counted apart, added once
# --------------------------------
#
# ``partial_fit`` learns the groups again after every chunk, which a stream
# needs (the transformer is usable at any time). When only the end result
# matters, count each chunk's tables with :func:`~partikit.column_tables`
# (anywhere: another process, another machine; they pickle to the size of the
# tables), add them, and fit once with ``fit_tables``.
from partikit import column_tables

tables = sum(
    column_tables(chunk[categorical], chunk["target"], categorical_features="all")
    for chunk in pd.read_csv(path, chunksize=50_000)
)
print(tables)
once = KhiopsGrouper().fit_tables(tables)
assert all(
    np.array_equal(a, b)
    for a, b in zip(once.group_ids_, in_memory.group_ids_, strict=True)
)

# %%
# The class profile of each group of ``"category"``: the share of each class
# among its rows, from the counts the grouper keeps in ``table_``.
import matplotlib.pyplot as plt

counts = once.table_[0]
shares = counts / counts.sum(axis=1, keepdims=True)
fig, ax = plt.subplots(figsize=(7, 3))
bottom = np.zeros(len(shares))
for k in range(shares.shape[1]):
    ax.bar(range(len(shares)), shares[:, k], bottom=bottom, label=f"class {k}")
    bottom += shares[:, k]
ax.set_xlabel("group of 'category'")
ax.set_ylabel("share of the rows")
ax.set_xticks(range(len(shares)))
# beside the bars, not over them
ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
fig.tight_layout()
plt.show()
