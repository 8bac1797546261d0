# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""plot_partition_table and plot_partition, looked at as a person would: the
rendered PNG is not blank and the SVG holds the texts a reader needs."""

import html
import io
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from partikit._estimator._plotting import (
    MAX_LEGEND_CLASSES,
    import_matplotlib,
    plot_partition_table,
    shorten,
)
from partikit.discretizers import KhiopsDiscretizer, MDLPDiscretizer
from partikit.groupers import AttributeAggregator, CHAIDGrouper, KhiopsGrouper

plt = pytest.importorskip("matplotlib.pyplot")


pytestmark = pytest.mark.usefixtures("close_figures")


def partition_table(labels, table, classes, missing=None, unknown=None):
    """A partition table by hand, column by column as partition_table's."""
    table = np.asarray(table, dtype=np.float64)
    counts = table.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = table / counts[:, None]
        data = {"label": labels, "count": counts, "share": counts / counts.sum()}
        data.update((f"count_{c}", table[:, k]) for k, c in enumerate(classes))
        data.update((f"rate_{c}", rates[:, k]) for k, c in enumerate(classes))
        if len(classes) == 2:
            negatives, positives = table[:, 0], table[:, 1]
            woe = np.log((positives / positives.sum()) / (negatives / negatives.sum()))
            iv = (positives / positives.sum() - negatives / negatives.sum()) * woe
            data.update(event_rate=rates[:, 1], woe=woe, iv=iv)
    n_parts = len(labels)
    data["missing"] = np.zeros(n_parts, bool) if missing is None else missing
    data["unknown"] = np.zeros(n_parts, bool) if unknown is None else unknown
    return pd.DataFrame(data, index=pd.RangeIndex(n_parts, name="part"))


def png_pixels(figure):
    """The figure rendered by Agg, as an array of RGBA pixels."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=60)
    buffer.seek(0)
    return plt.imread(buffer)


def assert_not_blank(figure):
    pixels = png_pixels(figure)[..., :3]
    assert pixels.std() > 0.05, "the rendered figure is (nearly) blank"
    # some of it is coloured: bars, not only black text on white
    saturation = pixels.max(axis=-1) - pixels.min(axis=-1)
    assert np.mean(saturation > 0.3) > 0.01


def svg_text(figure):
    """The figure as SVG with its texts kept as text, entities decoded."""
    buffer = io.StringIO()
    with plt.rc_context({"svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg")
    return html.unescape(buffer.getvalue()).replace("\xa0", " ")


BINARY_STATISTICS = {
    "kind": "categorical",
    "n_values": 140,
    "n_parts": 4,
    "chi2": 812.3,
    "dof": 3,
    "log10_pvalue": -174.2,
    "cramers_v": 0.284,
    "iv": 0.91,
    "rank": 1,
}


def _binary_table():
    return partition_table(
        ["red, green", "blue", "a, b, c, d, e, f, ... (+120 more)", "black, missing"],
        [[400, 100], [120, 300], [900, 80], [50, 50]],
        ["no", "yes"],
        missing=np.array([False, False, False, True]),
        unknown=np.array([False, False, True, False]),
    )


def test_binary_target_shows_shares_counts_woe_and_statistics():
    """Check the plot of a binary target: class names, part labels, counts, the
    WoE axis, the missing / unknown marks and every statistic are written."""
    ax = plot_partition_table(
        _binary_table(), feature="colour_of_car", statistics=BINARY_STATISTICS,
        classes=["no", "yes"],
    )  # fmt: skip
    assert_not_blank(ax.figure)
    text = svg_text(ax.figure)
    for expected in (
        "colour_of_car",
        "140 values in 4 groups",
        "chi2 = 812.3 (dof 3)",
        "log10 p = -174.2",
        "Cramér's V = 0.284",
        "IV = 0.910",
        "red, green",
        "blue",
        "(+120 more)",
        "[+unknown]",
        "black, missing",
        "no",
        "yes",
        "weight of evidence (WoE)",
        "gets missing",
        "gets unknown",
        "500",  # the counts of the parts, over their bars
        "980",
    ):
        assert expected in text, expected
    # the twin axis holds the WoE line, one point per part
    (twin,) = [other for other in ax.figure.axes if other.get_ylabel().startswith("w")]
    assert len(twin.lines[0].get_xdata()) == 4


def test_multiclass_intervals_with_a_missing_bin():
    """Check a discretizer-like table: interval labels kept whole, the missing
    bin marked, no WoE for three classes, no IV in the title."""
    classes = ["setosa", "versicolor", "virginica"]
    labels = ["(-inf, 1.5]", "(1.5, 3.25]", "(3.25, 4.75]", "(4.75, inf)", "missing"]
    rng = np.random.default_rng(0)
    table = partition_table(
        labels, rng.integers(1, 300, size=(5, 3)), classes,
        missing=np.array([False] * 4 + [True]),
    )  # fmt: skip
    statistics = {"kind": "numeric", "n_values": 1234, "chi2": 212.3, "dof": 8,
                  "log10_pvalue": -38.2, "cramers_v": 0.18, "iv": np.nan}  # fmt: skip
    ax = plot_partition_table(
        table, feature="petal length", statistics=statistics, classes=classes
    )
    assert_not_blank(ax.figure)
    text = svg_text(ax.figure)
    for expected in [*labels, *classes, "petal length", "1,234 distinct values",
                     "5 intervals", "gets missing"]:  # fmt: skip
        assert expected in text, expected
    assert "WoE" not in text and "IV =" not in text


def test_many_parts_and_many_classes_stay_legible():
    """Check 60 parts of 30 classes: the legend is capped with a count of the
    classes left out, tick labels are turned and shortened, nothing crashes."""
    rng = np.random.default_rng(1)
    classes = [f"class_{k}" for k in range(30)]
    labels = [", ".join(f"cat{i}_{m}" for m in range(1 + i % 7)) for i in range(60)]
    table = partition_table(
        labels,
        rng.gamma(0.5, size=(60, 30)) * rng.integers(1, 500, size=(60, 1)),
        classes,
        missing=np.arange(60) == 59,
        unknown=np.arange(60) == 10,
    )
    ax = plot_partition_table(
        table, feature="city", statistics={"kind": "categorical"}, classes=classes
    )
    assert_not_blank(ax.figure)
    legend_texts = [t.get_text() for t in ax.get_legend().get_texts()]
    named = [t for t in legend_texts if t.startswith("class_")]
    assert len(named) == MAX_LEGEND_CLASSES - 1
    assert f"... +{30 - len(named)} more classes" in legend_texts
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert len(ticks) == 60
    assert max(map(len, ticks)) <= 16 + len(" [+unknown]") + 1
    assert all(t.get_rotation() == 90 for t in ax.get_xticklabels())
    text = svg_text(ax.figure)
    assert "city" in text and "cat0_0" in text


def test_draws_on_a_given_axes_and_its_twin_only():
    """Check that a given ax is drawn on and returned, with no new figure."""
    figure, axes = plt.subplots(1, 2, figsize=(14, 5), layout="constrained")
    figures_before = plt.get_fignums()
    ax = plot_partition_table(
        _binary_table(), feature="colour", statistics=BINARY_STATISTICS,
        classes=["no", "yes"], ax=axes[1],
    )  # fmt: skip
    assert ax is axes[1]
    assert plt.get_fignums() == figures_before
    # the first axes is untouched; the second has the counts inset and a twin
    assert not axes[0].patches
    assert len(axes[1].patches) > 0 and len(axes[1].child_axes) == 1
    assert_not_blank(figure)


def test_empty_part_and_missing_statistics():
    """Check that an empty part (NaN rates) and a summary without figures draw."""
    table = partition_table(["a", "b", "c"], [[3, 1], [0, 0], [1, 5]], ["0", "1"])
    ax = plot_partition_table(table, feature="x", statistics={}, classes=["0", "1"])
    assert_not_blank(ax.figure)
    assert "3 parts" in svg_text(ax.figure)


def test_a_figure_made_here_is_the_callers_to_close():
    """Check that ax=None opens exactly one figure that the caller can close,
    and that drawing leaves the backend as it was."""
    import matplotlib

    backend = matplotlib.get_backend()
    before = set(plt.get_fignums())
    ax = plot_partition_table(
        _binary_table(), feature="c", statistics={}, classes=["no", "yes"]
    )
    assert set(plt.get_fignums()) - before == {ax.figure.number}
    plt.close(ax.figure)
    assert set(plt.get_fignums()) == before
    assert matplotlib.get_backend() == backend


def test_shorten_keeps_the_count_of_members_left_out():
    """Check that a long group label is cut inside its members."""
    label = "alpha, beta, gamma, delta, epsilon, ... (+120 more)"
    assert shorten(label, 24) == "alpha, beta… (+120 more)"
    assert shorten("short", 24) == "short"
    assert shorten("a" * 40, 10) == "a" * 9 + "…"


def test_missing_matplotlib_gives_a_clear_import_error(monkeypatch):
    """Check the message when matplotlib cannot be imported."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ImportError, match=r"pip install 'partikit\[plot\]'"):
        import_matplotlib()
    with pytest.raises(ImportError, match=r"plotting needs matplotlib"):
        plot_partition_table(
            _binary_table(), feature="c", statistics={}, classes=["no", "yes"]
        )
    X = pd.DataFrame({"c": list("aabbccdd") * 5})
    grouper = KhiopsGrouper().fit(X, [0, 1, 0, 1, 1, 1, 0, 0] * 5)
    with pytest.raises(ImportError, match=r"pip install 'partikit\[plot\]'"):
        grouper.plot_partition("c")


def test_partikit_imports_without_matplotlib():
    """Check that partikit, its plotting module and the tree import when
    matplotlib is absent, and that only drawing fails."""
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "import partikit, partikit._estimator._plotting, partikit.tree._plot\n"
        "from partikit.tree import PartitionTreeClassifier\n"
        "X, y = [[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1]\n"
        "tree = PartitionTreeClassifier().fit(X, y)\n"
        "try:\n"
        "    tree.plot_tree()\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert "plotting needs matplotlib: pip install 'partikit[plot]'" in result.stdout


# ------------------------------------------------------ through the estimators
def _categorical_data(n_classes, random_state=0):
    rng = np.random.default_rng(random_state)
    categories = np.array([f"shop_{k:02d}" for k in range(25)])
    codes = rng.integers(0, 25, size=2000)
    X = pd.DataFrame(
        {"shop": categories[codes], "noise": rng.choice(list("xyz"), 2000)}
    )
    X.loc[::53, "shop"] = None
    y = (codes % n_classes + (rng.random(2000) < 0.3)) % n_classes
    return X, y


@pytest.mark.parametrize("n_classes", [2, 4])
@pytest.mark.parametrize("grouper", [KhiopsGrouper(), CHAIDGrouper()])
def test_plot_partition_of_a_grouper(grouper, n_classes):
    """Check a fitted grouper's plot: its groups and classes are written."""
    X, y = _categorical_data(n_classes)
    grouper.fit(X, y)
    ax = grouper.plot_partition("shop")
    assert_not_blank(ax.figure)
    text = svg_text(ax.figure)
    table = grouper.partition_table("shop", max_members=3)
    assert "shop" in text
    assert f"{len(table)} groups" in text
    for c in grouper.classes_:
        assert str(c) in text
    for label in table["label"]:
        # the first member of each group is on its tick label
        assert label.split(",")[0] in text
    assert ("weight of evidence (WoE)" in text) == (n_classes == 2)


@pytest.mark.parametrize("discretizer", [KhiopsDiscretizer(), MDLPDiscretizer()])
def test_plot_partition_of_a_discretizer(discretizer):
    """Check a fitted discretizer's plot: every interval and the missing bin."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.normal(40, 12, 3000)})
    X.loc[::41, "age"] = np.nan
    y = np.searchsorted([35, 45], X["age"].fillna(40) + rng.normal(0, 4, 3000))
    labels = np.array(["young", "middle", "old"])[y]
    discretizer.fit(X, labels)
    ax = discretizer.plot_partition(0)
    assert_not_blank(ax.figure)
    text = svg_text(ax.figure)
    table = discretizer.partition_table("age")
    assert table["label"].iloc[-1] == "missing"
    for expected in ["young", "middle", "old", "age", "gets missing"]:
        assert expected in text, expected
    for label in table["label"]:
        # a few intervals are written on two lines, cut after the comma
        for line in label.split(" "):
            assert line in text, label


def test_plot_partition_of_an_aggregate():
    """Check the aggregator's plot names its output column."""
    X, y = _categorical_data(2)
    aggregator = AttributeAggregator(grouper=KhiopsGrouper()).fit(X, y)
    name = aggregator.partition_summary().index[0]
    ax = aggregator.plot_partition(name)
    assert name in svg_text(ax.figure)
