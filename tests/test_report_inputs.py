# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Hostile labels in a report: mathtext in the data, column names it refuses."""

import io

import numpy as np
import pandas as pd
import pytest

from partikit import PartitionEncoder, report
from partikit.tree import PartitionTreeClassifier

#: Texts that matplotlib's mathtext would parse (and fail on, for ``\foo``).
MATH_CATEGORY = r"$\foo$"
MATH_COLUMN = r"price $\bar$ in $"
ESCAPED_DOLLAR = r"a\$b $x$"
DATA_TEXTS = (MATH_CATEGORY, MATH_COLUMN, ESCAPED_DOLLAR, "$y$")


def _math_frame(n_samples=600, random_state=0):
    rng = np.random.default_rng(random_state)
    category = rng.choice([MATH_CATEGORY, ESCAPED_DOLLAR, "plain"], n_samples)
    amount = rng.normal(size=n_samples)
    y = np.where((category == "plain") ^ (rng.random(n_samples) < 0.1), "$y$", "n")
    X = pd.DataFrame({MATH_COLUMN: category, r"$\sqrt{x}$": amount})
    return X, y


def _drawn_texts(figure):
    """Every text of ``figure`` as its SVG shows it (texts kept as text)."""
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        figure.savefig(buffer, format="svg")
    return buffer.getvalue()


def _svg_text(text):
    import html

    return html.escape(text, quote=False)


def test_plot_partition_draws_mathtext_of_the_data_literally():
    """Check a category, a column and a class holding ``$`` are drawn as written."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    X, y = _math_frame()
    result = report(X, y)
    for column in X.columns:
        ax = result.plot_partition(column)
        try:
            svg = _drawn_texts(ax.figure)
        finally:
            plt.close(ax.figure)
        assert _svg_text(column) in svg
    for text in (MATH_CATEGORY, ESCAPED_DOLLAR, "$y$"):
        assert _svg_text(text) in _drawn_texts_of(result, MATH_COLUMN)


def _drawn_texts_of(result, column):
    import matplotlib.pyplot as plt

    ax = result.plot_partition(column)
    try:
        return _drawn_texts(ax.figure)
    finally:
        plt.close(ax.figure)


def test_plot_partition_stays_literal_under_usetex_and_without_parse_math():
    """Check the user's rcParams cannot turn the data's labels into maths."""
    matplotlib = pytest.importorskip("matplotlib")
    X, y = _math_frame()
    result = report(X, y)
    # usetex would need a LaTeX install and fail on "$\foo$"; parse_math off
    # would show escapes: the labels are plain text under both
    for settings in ({"text.usetex": True}, {"text.parse_math": False}):
        with matplotlib.rc_context(settings):
            ax = result.plot_partition(MATH_COLUMN)
            texts = [
                text for text in ax.figure.findobj(matplotlib.text.Text)
                if any(label in text.get_text() for label in DATA_TEXTS)
            ]  # fmt: skip
            assert len(texts) == 4  # title, two tick labels, a class
            assert all(not t.get_usetex() and not t.get_parse_math() for t in texts)
            matplotlib.pyplot.close(ax.figure)


def test_tree_plot_draws_mathtext_of_the_data_literally():
    """Check the tree's boxes and edge labels show ``$`` categories as written."""
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    X, y = _math_frame()
    tree = PartitionTreeClassifier(max_depth=2).fit(X[[MATH_COLUMN]], y)
    ax = tree.plot_tree()
    try:
        svg = _drawn_texts(ax.figure)
    finally:
        plt.close(ax.figure)
    assert _svg_text(MATH_CATEGORY) in svg


def test_to_html_shows_mathtext_of_the_data_literally():
    """Check the HTML report is written, with the labels as written."""
    pytest.importorskip("matplotlib")
    X, y = _math_frame()
    text = report(X, y).to_html()
    for label in (MATH_COLUMN, MATH_CATEGORY, "$y$"):
        assert _svg_text(label) in text


@pytest.mark.parametrize("fit", ["report", "encoder"])
def test_multiindex_columns_are_refused_with_the_way_out(fit):
    """Check MultiIndex columns raise at the start, saying how to flatten them."""
    X, y = _math_frame()
    X.columns = pd.MultiIndex.from_tuples([("a", "x"), ("a", "y")])
    with pytest.raises(ValueError, match="MultiIndex columns.*Flatten them"):
        report(X, y) if fit == "report" else PartitionEncoder().fit(X, y)
    X.columns = ["_".join(map(str, c)) for c in X.columns]
    assert set(report(X, y).estimators) == {"a_x", "a_y"}


@pytest.mark.parametrize("fit", ["report", "encoder"])
def test_columns_named_1_and_text_1_are_refused(fit):
    """Check 1 and "1", one name once written as text, raise naming both."""
    X, y = _math_frame()
    X.columns = [1, "1"]
    with pytest.raises(ValueError, match=r"same text: 1 and '1'.*rename one"):
        report(X, y) if fit == "report" else PartitionEncoder().fit(X, y)
    # integer names alone are no clash: the report names them by their text
    X.columns = [1, 2]
    assert set(report(X, y).estimators) == {"1", "2"}


def test_an_empty_list_of_columns_is_refused():
    """Check columns=[] says there is nothing to report, and the way out."""
    X, y = _math_frame()
    with pytest.raises(ValueError, match="columns is empty.*columns=None"):
        report(X, y, columns=[])
    # a kind named alone still reports that column
    assert list(report(X, y, columns=[], numeric=[r"$\sqrt{x}$"]).estimators) == [
        r"$\sqrt{x}$"
    ]
