# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""PartitionTreeClassifier.plot_tree, looked at as a person would: the PNG is not
blank, the SVG holds every node's split and every edge's part, and no two boxes
overlap."""

import io
import itertools

import numpy as np
import pandas as pd
import pytest

from partikit.tree import PartitionTreeClassifier
from partikit.tree._export import _Renderer
from partikit.tree._plot import SMALLEST_FONTSIZE
from partikit.tree._structure import LEAF
from tests.test_plotting import svg_text

plt = pytest.importorskip("matplotlib.pyplot")


pytestmark = pytest.mark.usefixtures("close_figures")


def assert_not_blank(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=40)
    buffer.seek(0)
    pixels = plt.imread(buffer)[..., :3]
    assert pixels.std() > 0.05, "the rendered tree is (nearly) blank"


def node_boxes(ax):
    """The node boxes' extents in pixels (the texts with a rounded box)."""
    renderer = ax.figure.canvas.get_renderer()
    ax.figure.draw(renderer)
    return [
        text.get_bbox_patch().get_window_extent(renderer)
        for text in ax.texts
        if text.get_bbox_patch() is not None
        and "round" in type(text.get_bbox_patch().get_boxstyle()).__name__.lower()
    ]


def assert_no_overlap(extents):
    for a, b in itertools.combinations(extents, 2):
        overlap_x = min(a.x1, b.x1) - max(a.x0, b.x0)
        overlap_y = min(a.y1, b.y1) - max(a.y0, b.y0)
        assert overlap_x <= 1 or overlap_y <= 1, (a, b)


def _tiny():
    X = pd.DataFrame(
        {
            "color": ["red", "red", "blue", "blue", "green", "green", None, None],
            "size": [1.0, 2.0, 1.0, 2.0, 1.0, 3.0, 1.0, np.nan],
        }
    )
    y = ["s", "s", "s", "t", "t", "t", "s", "t"]
    return PartitionTreeClassifier(collapse_same_prediction=False).fit(X, y)


def _shops(n_samples=3000, random_state=0):
    """Categorical and numeric columns, four classes, missing ages: a target
    that a depth-6 tree of multiway splits keeps cutting."""
    rng = np.random.default_rng(random_state)
    cities = np.array([f"city_{k:02d}" for k in range(40)])
    codes = rng.integers(0, 40, n_samples)
    shops = rng.integers(0, 10, n_samples)
    X = pd.DataFrame(
        {
            "city": cities[codes],
            "shop": np.array(list("abcdefghij"))[shops],
            "age": rng.normal(40, 12, n_samples),
            "income": rng.lognormal(10, 1, n_samples),
        }
    )
    X.loc[rng.random(n_samples) < 0.05, "age"] = np.nan
    score = (
        1.5 * np.sin(codes)
        + np.cos(X["age"].fillna(40).to_numpy() / 5)
        + 0.7 * (shops % 3)
        + np.log(X["income"].to_numpy()) % 1
        + rng.normal(0, 0.3, n_samples)
    )
    cuts = np.quantile(score, [0.25, 0.5, 0.75])
    return X, np.array(["low", "mid", "high", "top"])[np.digitize(score, cuts)]


def test_binary_tree_shows_every_split_and_part():
    """Check a binary tree with categorical and numeric splits: every split
    column, every edge's part, the missing and unknown rules, the classes."""
    tree = _tiny()
    ax = tree.plot_tree()
    assert_not_blank(ax.figure)
    text = svg_text(ax.figure)
    for expected in (
        "size",
        "color",
        "<= 2.50",
        "> 2.50",
        "or missing",
        "{blue, green}",
        "{red, missing}",
        "or unknown",
        "{green}",
        "samples = 8",
        "value = [4, 4]",
        "class = s",
        "class = t (100%)",
    ):
        assert expected in text, expected
    assert_no_overlap(node_boxes(ax))


def assert_edges_read_export_text(tree, ax, max_categories):
    """Check that each edge's label starts with export_text's part of its child."""
    renderer = _Renderer(tree, None, None, 2, max_categories, False)
    drawn = [
        text.get_text().replace("\n", " ").replace("\xa0", " ") for text in ax.texts
    ]
    for node in np.flatnonzero(tree.tree_.kind != LEAF):
        for part in renderer.partitions(node)[1]:
            part = part.removeprefix("in ").replace(">  ", "> ")
            part = part.removesuffix(" or missing")
            assert any(label.startswith(part) for label in drawn), part


def test_edge_labels_are_export_texts_parts():
    """Check that each edge reads the part export_text gives that child."""
    tree = _tiny()
    assert_edges_read_export_text(tree, tree.plot_tree(max_members=10), 10)


def test_multiway_tree_of_depth_six_is_drawn_without_overlap():
    """Check a deep tree of multiway CHAID groupings and Block-Opt intervals:
    intervals on the edges, boxes side by side without overlap, and the text
    not shrunk below the smallest size."""
    X, y = _shops()
    tree = PartitionTreeClassifier(
        categorical_split="chaid", numeric_split="block_opt", max_depth=6,
        min_samples_leaf=10, collapse_same_prediction=False,
    ).fit(X, y)  # fmt: skip
    assert tree.get_depth() == 6 and tree.tree_.n_children.max() > 2
    ax = tree.plot_tree()
    assert_not_blank(ax.figure)
    text = svg_text(ax.figure)
    for name in ("city", "samples = 3,000", "class = "):
        assert name in text
    assert_edges_read_export_text(tree, ax, 4)
    sizes = {t.get_fontsize() for t in ax.texts}
    assert min(sizes) >= 0.9 * SMALLEST_FONTSIZE
    boxes = node_boxes(ax)
    assert len(boxes) == tree.tree_.n_nodes
    assert_no_overlap(boxes)


def test_interval_edges_of_a_multiway_numeric_split():
    """Check that every interval of a Block-Opt split labels its edge."""
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 10, 3000)
    y = np.digitize(x, [2.5, 5.0, 7.5]) % 2
    tree = PartitionTreeClassifier(numeric_split="block_opt", max_depth=1).fit(
        pd.DataFrame({"dose": x}), y
    )
    assert tree.tree_.n_children[0] >= 3
    ax = tree.plot_tree()
    assert_edges_read_export_text(tree, ax, 4)
    text = svg_text(ax.figure)
    assert "dose" in text and "<= " in text and "> " in text and "]" in text


def test_max_depth_truncates_and_names_are_used():
    """Check max_depth (dashed boxes with "(...)"), feature and class names."""
    X, y = _shops(2000)
    tree = PartitionTreeClassifier(max_depth=5).fit(X, y)
    ax = tree.plot_tree(
        max_depth=1, feature_names=["Town", "Store", "Age", "Income"],
        class_names=["C-high", "C-low", "C-mid", "C-top"],
    )  # fmt: skip
    text = svg_text(ax.figure)
    assert "(...)" in text
    assert "C-" in text
    # the columns are named as given (city's categories still read city_..)
    assert ">city<" not in text and ">Town<" in text
    assert len(node_boxes(ax)) == 1 + tree.tree_.n_children[0]
    with pytest.raises(ValueError, match="feature_names has 1 names"):
        tree.plot_tree(feature_names=["only one"])


def test_given_axes_single_leaf_weights_and_fontsize():
    """Check a given ax, a one-leaf tree, non-integer weights and a fixed size."""
    figure, ax = plt.subplots(figsize=(4, 3))
    X = pd.DataFrame({"c": list("ab") * 10})
    y = [0, 1] * 10
    leaf = PartitionTreeClassifier(min_samples_split=100).fit(X, y)
    assert leaf.plot_tree(ax=ax) is ax
    assert "samples = 20" in svg_text(figure)
    weights = np.linspace(0.1, 1.0, 20)
    weighted = PartitionTreeClassifier().fit(X, y, sample_weight=weights)
    ax = weighted.plot_tree(fontsize=7, precision=1)
    assert {t.get_fontsize() for t in ax.texts} <= {7, 0.9 * 7}
    text = svg_text(ax.figure)
    assert f"weight = {weights.sum():.1f}" in text and "{a}" in text


def test_projection_split_is_named():
    """Check that a node PCA split shows its direction as its name."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(400, 2)), columns=["u", "v"])
    y = (X["u"] + X["v"] > 0).astype(int)
    tree = PartitionTreeClassifier(node_features="node_pca", max_depth=2).fit(X, y)
    text = svg_text(tree.plot_tree().figure)
    assert "*u" in text and "*v" in text


def test_draws_on_a_figure_made_without_pyplot():
    """Check a tree drawn on a plain matplotlib Figure (as an HTML report makes
    them): no pyplot figure is opened and the SVG holds the splits."""
    from matplotlib.figure import Figure

    figures_before = plt.get_fignums()
    figure = Figure(figsize=(6, 5))
    ax = _tiny().plot_tree(ax=figure.add_subplot())
    assert ax.figure is figure and plt.get_fignums() == figures_before
    text = svg_text(figure)
    assert "{blue, green}" in text and "size" in text
