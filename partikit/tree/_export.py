# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Text rendering of a fitted PartitionTreeClassifier or PartitionTreeRegressor."""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from partikit._compat import Interval, validate_params
from partikit._estimator._renames import Renamed, renamed_keywords
from partikit.tree._structure import CATEGORICAL, LEAF, NUMERIC, node_means


def _format_number(value, decimals):
    return f"{value:.{decimals}f}"


def _category_text(category):
    return "missing" if pd.isna(category) else str(category)


class _Renderer:
    def __init__(self, estimator, feature_names, class_names, decimals,
                 max_members, show_weights):  # fmt: skip
        self.estimator = estimator
        self.tree = estimator.tree_
        n_features = estimator.n_features_in_
        if feature_names is None:
            names = getattr(estimator, "feature_names_in_", None)
            feature_names = (
                [str(n) for n in names]
                if names is not None
                else [f"x{j}" for j in range(n_features)]
            )
        elif len(feature_names) != n_features:
            raise ValueError(
                f"feature_names has {len(feature_names)} names but the tree was "
                f"fitted on {n_features} features."
            )
        self.feature_names = list(feature_names)
        # a regressor has no classes: its nodes read their mean
        self.means = None
        if not hasattr(estimator, "classes_"):
            if class_names is not None:
                raise ValueError("class_names names classes; a regressor has none.")
            self.means = node_means(self.tree)
            self.class_names = None
        elif class_names is not None and len(class_names) != len(estimator.classes_):
            raise ValueError(
                f"class_names has {len(class_names)} names but the tree has "
                f"{len(estimator.classes_)} classes."
            )
        if self.means is None:
            self.class_names = (
                [str(c) for c in estimator.classes_]
                if class_names is None
                else [str(c) for c in class_names]
            )
        self.categorical = np.flatnonzero(estimator.categorical_features_)
        self.numeric = np.flatnonzero(~estimator.categorical_features_)
        self.decimals = decimals
        self.max_members = max_members
        self.show_weights = show_weights

    def _projection_name(self, node):
        tree = self.tree
        start = tree.projection_start[node]
        direction = tree.projections[start : start + len(self.numeric)]
        terms = [
            f"{_format_number(v, self.decimals)}*{self.feature_names[j]}"
            for v, j in zip(direction, self.numeric, strict=True)
            if v != 0
        ]
        return "(" + " + ".join(terms).replace("+ -", "- ") + ")"

    def conditions(self, node):
        """One condition per child slot of ``node``."""
        name, parts = self.partitions(node)
        return [f"{name} {part}" for part in parts]

    def partitions(self, node):
        """The split's name and, per child slot, the part of its values.

        The name is a column or a projection; a part reads ``in {red, blue}``,
        ``<= 30.50``, ``>  30.50`` or ``in (30.50, 45.00]``, followed by
        ``or missing`` where missing values go (``plot_tree`` shares this text).
        """
        tree = self.tree
        n_children = tree.n_children[node]
        if tree.kind[node] == CATEGORICAL:
            j = self.categorical[tree.feature[node]]
            categories = self.estimator.categories_[j]
            start = tree.map_start[node]
            slots = tree.category_child[start : start + len(categories)]
            texts = []
            for slot in range(n_children):
                members = [_category_text(c) for c in categories[slots == slot]]
                if len(members) > self.max_members:
                    extra = len(members) - self.max_members
                    members = members[: self.max_members] + [f"... +{extra} more"]
                texts.append(f"in {{{', '.join(members)}}}")
            return self.feature_names[j], texts
        if tree.kind[node] == NUMERIC:
            name = self.feature_names[self.numeric[tree.feature[node]]]
        else:
            name = self._projection_name(node)
        start = tree.threshold_start[node]
        cuts = [
            _format_number(t, self.decimals)
            for t in tree.thresholds[start : start + n_children - 1]
        ]
        texts = []
        for slot in range(n_children):
            if slot == 0:
                text = f"<= {cuts[0]}"
            elif slot == n_children - 1:
                text = f">  {cuts[-1]}"
            else:
                text = f"in ({cuts[slot - 1]}, {cuts[slot]}]"
            if tree.nan_child[node] == slot:
                text += " or missing"
            texts.append(text)
        return name, texts

    def leaf(self, node):
        value = self.tree.value[node]
        if self.means is not None:
            text = f"value: {_format_number(self.means[node], self.decimals)}"
            if self.show_weights:
                weight = self.tree.weighted_n_node_samples[node]
                text = f"weight: {_format_number(weight, self.decimals)} {text}"
            return text
        text = f"class: {self.class_names[int(np.argmax(value))]}"
        if self.show_weights:
            weights = ", ".join(_format_number(v, self.decimals) for v in value)
            text = f"weights: [{weights}] {text}"
        return text

    def render(self, max_depth):
        lines = []
        # items: ("node", node, depth) or ("line", text), popped in print order
        stack = [("node", 0, 0)]
        while stack:
            item = stack.pop()
            if item[0] == "line":
                lines.append(item[1])
                continue
            _, node, depth = item
            indent = "|   " * depth + "|--- "
            if self.tree.kind[node] == LEAF:
                lines.append(indent + self.leaf(node))
            elif depth > max_depth:
                lines.append(indent + "truncated branch")
            else:
                children = self.tree.node_children(node)
                items = []
                for child, text in zip(children, self.conditions(node), strict=True):
                    items += [("line", indent + text), ("node", child, depth + 1)]
                stack.extend(reversed(items))
        return "\n".join(lines) + "\n"


@renamed_keywords(Renamed("max_categories", "max_members"))
@validate_params(
    {
        "decision_tree": [object],
        "feature_names": ["array-like", None],
        "class_names": ["array-like", None],
        "max_depth": [Interval(Integral, 0, None, closed="left")],
        "decimals": [Interval(Integral, 0, None, closed="left")],
        "max_members": [Interval(Integral, 1, None, closed="left")],
        "show_weights": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def export_text(
    decision_tree,
    *,
    feature_names=None,
    class_names=None,
    max_depth=10,
    decimals=2,
    max_members=10,
    show_weights=False,
):
    """A text report of the rules of a fitted tree.

    ``decision_tree`` is a fitted :class:`~partikit.tree.PartitionTreeClassifier`
    or :class:`~partikit.tree.PartitionTreeRegressor`.

    One line per child of every split: the categories of a group
    (``color in {red, blue}``), a threshold (``age <= 30.50``, ``age >  30.50``),
    an interval of a multiway split (``age in (30.50, 45.00]``) or a projection
    (``(0.71*a + 0.71*b) <= 1.20``), marked ``or missing`` where missing values
    go; one line per leaf with its class (a regressor's: its mean,
    ``value: 3.14``).

    Parameters
    ----------
    decision_tree : PartitionTreeClassifier or PartitionTreeRegressor
        A fitted tree.
    feature_names : array-like of str, default=None
        Names of the features; ``feature_names_in_`` or ``x0, x1, ...`` if None.
    class_names : array-like of str, default=None
        Names of the classes in ``classes_`` order; the classes themselves if None.
        None for a regressor.
    max_depth : int, default=10
        Splits deeper than this are shown as ``truncated branch``.
    decimals : int, default=2
        Decimals of thresholds, directions and weights.
    max_members : int, default=10
        Categories listed per group before ``... +N more``.
    show_weights : bool, default=False
        Show the weighted class counts of each leaf (a regressor's: its
        weight).

    Returns
    -------
    report : str
        The rules, one line per child of each split and per leaf.

    Examples
    --------
    >>> import pandas as pd
    >>> from partikit.tree import PartitionTreeClassifier, export_text
    >>> X = pd.DataFrame({"color": list("rgbrgbrgbr")})
    >>> y = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1]
    >>> print(export_text(PartitionTreeClassifier().fit(X, y)))
    |--- color in {b, g}
    |   |--- class: 0
    |--- color in {r}
    |   |--- class: 1
    <BLANKLINE>
    """
    check_is_fitted(decision_tree, "tree_")
    renderer = _Renderer(
        decision_tree, feature_names, class_names, decimals, max_members,
        show_weights,
    )  # fmt: skip
    return renderer.render(max_depth)
