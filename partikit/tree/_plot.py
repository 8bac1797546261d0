# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Drawing of a fitted PartitionTreeClassifier with matplotlib.

Each edge is labelled with the part of the values sent to that child, in the
words of :func:`~partikit.tree.export_text` (the same ``_Renderer``), plus where
values the node's rule does not know go.
"""

from __future__ import annotations

import re
import textwrap
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from partikit._compat import Interval, validate_params
from partikit._estimator._plotting import (
    PLAIN_TEXT,
    class_colors,
    import_matplotlib,
    new_axes,
)
from partikit._estimator._renames import Renamed, renamed_keywords
from partikit.tree._export import _Renderer
from partikit.tree._structure import CATEGORICAL, LEAF

#: Font size a tree is drawn with before it is shrunk to fit its boxes.
LARGEST_FONTSIZE = 10.0

#: Below this the text is unreadable anyway: a crowded tree overlaps instead.
SMALLEST_FONTSIZE = 3.0

#: Characters per line of an edge label: about what fits under half the space
#: between two leaves at the largest font size.
EDGE_LINE_WIDTH = 16

_MORE = re.compile(r"\.\.\. \+(\d+) more")

#: Where an edge label sits on the visible part of its edge (0: at the parent's
#: box, 1: at the child's).
LABEL_DEPTH = 0.6

#: Padding of a node's box and of an edge label's box, in font sizes.
BOX_PAD = 0.35
LABEL_PAD = 0.1


def _layout(tree, max_depth):
    """Horizontal slot of every drawn node: leaves one slot apart, parents
    centred over their first and last child."""
    x = {}
    n_slots = 0
    stack = [(0, False)]
    while stack:
        node, expanded = stack.pop()
        children = (
            tree.node_children(node)
            if tree.kind[node] != LEAF and tree.depth[node] < max_depth
            else ()
        )
        if len(children) == 0:
            x[node] = float(n_slots)
            n_slots += 1
        elif expanded:
            x[node] = (x[children[0]] + x[children[-1]]) / 2
        else:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(children))
    return x, n_slots


class _TreeDrawing:
    """The texts of a tree's boxes and edges, and where they go."""

    def __init__(self, estimator, renderer, max_depth, precision, filled):
        self.estimator = estimator
        self.tree = estimator.tree_
        self.renderer = renderer
        self.max_depth = max_depth
        self.precision = precision
        self.filled = filled
        self.means = renderer.means
        if self.means is None:
            self.colors = class_colors(len(estimator.classes_))
        else:
            # a regressor's boxes go from white (least mean) to one colour
            # (largest), as scikit-learn's plot_tree colours them
            self.colors = class_colors(1)
            low, high = self.means.min(), self.means.max()
            self.shade = (self.means - low) / (high - low) if high > low else None
        # the numbers shown: the class counts, or a regressor's weights
        shown = (
            self.tree.value if self.means is None else self.tree.weighted_n_node_samples
        )
        self.integral = bool(np.all(np.mod(shown, 1.0) == 0.0))

    def truncated(self, node):
        return self.tree.kind[node] != LEAF and self.tree.depth[node] >= self.max_depth

    def weight_text(self, value):
        if self.integral:
            return f"{int(value):,}"
        return f"{value:,.{self.precision}f}"

    def box_text(self, node):
        tree = self.tree
        value = tree.value[node]
        total = value.sum()
        lines = []
        if tree.kind[node] != LEAF:
            name = self.renderer.partitions(node)[0]
            lines += textwrap.wrap(name, 3 * EDGE_LINE_WIDTH) or [name]
        word = "samples" if self.integral else "weight"
        if self.means is not None:
            total = tree.weighted_n_node_samples[node]
            lines.append(f"{word} = {self.weight_text(total)}")
            lines.append(f"squared_error = {tree.impurity[node]:.{self.precision}g}")
            lines.append(f"value = {self.means[node]:.{self.precision}f}")
            if self.truncated(node):
                lines.append("(...)")
            return "\n".join(lines)
        lines.append(f"{word} = {self.weight_text(total)}")
        if len(value) <= 4:
            counts = ", ".join(self.weight_text(v) for v in value)
            lines.append(f"value = [{counts}]")
        best = int(np.argmax(value))
        share = value[best] / total if total > 0 else 0.0
        lines.append(f"class = {self.renderer.class_names[best]} ({share:.0%})")
        if self.truncated(node):
            lines.append("(...)")
        return "\n".join(lines)

    def box_color(self, node):
        if not self.filled:
            return "white"
        if self.means is not None:
            if self.shade is None:
                return "white"
            rgb = np.asarray(self.colors[0][:3])
            return tuple(1.0 - 0.6 * self.shade[node] * (1.0 - rgb))
        value = self.tree.value[node]
        total = value.sum()
        if total <= 0:
            return "white"
        shares = np.sort(value / total)[::-1]
        second = shares[1] if len(shares) > 1 else 0.0
        # a pure node gets the class colour, a tie white (scikit-learn's rule),
        # lightened so that black text stays readable
        purity = (shares[0] - second) / (1.0 - second) if second < 1.0 else 0.0
        rgb = np.asarray(self.colors[int(np.argmax(value))][:3])
        return tuple(1.0 - 0.6 * purity * (1.0 - rgb))

    def edge_texts(self, node):
        """One label per child slot: its part, then where missing or unknown
        values go, on a line of its own."""
        tree = self.tree
        parts, rules = [], []
        for text in self.renderer.partitions(node)[1]:
            text = text.removeprefix("in ").replace(">  ", "> ")
            part, missing, _ = text.partition(" or missing")
            parts.append(part)
            rules.append(["missing"] if missing else [])
        default = tree.default_child[node]
        if self.estimator.unknown_routing == "largest_child" and default >= 0:
            if tree.kind[node] == CATEGORICAL:
                rules[default].append("unknown")
            elif tree.nan_child[node] < 0:
                rules[default].append("missing")
        # no-break spaces keep "... +N more" on one line
        parts = [_MORE.sub("...\xa0+\\1\xa0more", part) for part in parts]
        return [
            "\n".join(
                textwrap.wrap(part, EDGE_LINE_WIDTH, break_on_hyphens=False)
                + ([f"or {' or '.join(rule)}"] if rule else [])
            )
            for part, rule in zip(parts, rules, strict=True)
        ]


def _renderer_of(figure):
    canvas = figure.canvas
    if hasattr(canvas, "get_renderer"):
        return canvas.get_renderer()
    # a Figure made without pyplot has a plain canvas
    return figure._get_renderer()


def _size(text, renderer, pad):
    """Width and height in pixels of a text with its box of padding ``pad``."""
    extent = text.get_window_extent(renderer)
    margin = 2 * pad * text.get_fontsize() * text.figure.dpi / 72
    return extent.width + margin, extent.height + margin


def _overlap_scale(ax, boxes, edges, x, depth):
    """The factor on the font size at which neighbouring texts stop overlapping.

    Boxes of a level must fit side by side at their slots, so must the edge
    labels under a level where they were placed, and a box, an edge label and
    a box must fit between two levels.
    """
    renderer = _renderer_of(ax.figure)
    to_pixels = ax.transData.transform
    unit_x = abs(to_pixels((1.0, 0.0))[0] - to_pixels((0.0, 0.0))[0])
    unit_y = abs(to_pixels((0.0, 1.0))[1] - to_pixels((0.0, 0.0))[1])
    rows = {}
    for node, text in boxes.items():
        rows.setdefault(("box", depth[node]), []).append(
            (x[node], _size(text, renderer, BOX_PAD))
        )
    for (parent, _), text in edges.items():
        rows.setdefault(("edge", depth[parent]), []).append(
            (text.get_position()[0], _size(text, renderer, LABEL_PAD))
        )
    scale = 1.0
    for items in rows.values():
        items.sort(key=lambda item: item[0])
        for (xa, (wa, _)), (xb, (wb, _)) in zip(items[:-1], items[1:], strict=True):
            room = (xb - xa) * unit_x
            scale = min(scale, room / ((wa + wb) / 2 * 1.04))
    tallest = {
        kind: max(
            (h for key, items in rows.items() if key[0] == kind for _, (_, h) in items),
            default=0.0,
        )
        for kind in ("box", "edge")
    }
    if tallest["edge"] > 0:
        # the label's half nearer the child needs its room below LABEL_DEPTH
        need = tallest["box"] + tallest["edge"] / 2 / (1.0 - LABEL_DEPTH)
        scale = min(scale, unit_y / (need * 1.08))
    return scale


@renamed_keywords(Renamed("max_categories", "max_members"))
@validate_params(
    {
        "decision_tree": [object],
        "ax": [object, None],
        "max_depth": [Interval(Integral, 0, None, closed="left"), None],
        "feature_names": ["array-like", None],
        "class_names": ["array-like", None],
        "max_members": [Interval(Integral, 1, None, closed="left")],
        "precision": [Interval(Integral, 0, None, closed="left")],
        "filled": ["boolean"],
        "fontsize": [Interval(Real, 0, None, closed="neither"), None],
    },
    prefer_skip_nested_validation=True,
)
def plot_tree(
    decision_tree,
    *,
    ax=None,
    max_depth=None,
    feature_names=None,
    class_names=None,
    max_members=4,
    precision=2,
    filled=True,
    fontsize=None,
):
    """Draw a fitted tree: a box per node, each edge labelled with its part.

    See :meth:`PartitionTreeClassifier.plot_tree
    <partikit.tree.PartitionTreeClassifier.plot_tree>`, which calls this.

    Parameters
    ----------
    decision_tree : PartitionTreeClassifier or PartitionTreeRegressor
        A fitted tree (see :meth:`PartitionTreeRegressor.plot_tree
        <partikit.tree.PartitionTreeRegressor.plot_tree>` for a regressor's
        boxes).
    ax : matplotlib.axes.Axes or None, default=None
        Where to draw; None draws on a new pyplot figure sized for the tree.
    max_depth : int or None, default=None
        Deepest level drawn; a split below it shows ``(...)``. None draws all.
    feature_names : array-like of str, default=None
        Names of the features; ``feature_names_in_`` or ``x0, x1, ...`` if None.
    class_names : array-like of str, default=None
        Names of the classes in ``classes_`` order; the classes if None. None
        for a regressor.
    max_members : int, default=4
        Categories an edge label lists before ``... +N more``.
    precision : int, default=2
        Decimals of thresholds and of non-integer weights.
    filled : bool, default=True
        Colour each box by its majority class, paler the less pure it is.
    fontsize : int or None, default=None
        Size of the text; None takes the largest (at most 10) at which the
        boxes and labels do not overlap.

    Returns
    -------
    ax : matplotlib.axes.Axes
        The axes drawn on (``ax.figure`` is the figure).
    """
    check_is_fitted(decision_tree, "tree_")
    import_matplotlib()
    renderer = _Renderer(
        decision_tree,
        feature_names,
        class_names,
        precision,
        max_members,
        False,
    )
    tree = decision_tree.tree_
    max_depth = tree.max_depth if max_depth is None else max_depth
    x, n_slots = _layout(tree, max_depth)
    depth = {node: int(tree.depth[node]) for node in x}
    n_levels = max(depth.values()) + 1
    if ax is None:
        width = min(max(1.9 * n_slots + 0.5, 6.0), 80.0)
        height = min(max(2.1 * n_levels, 3.0), 22.0)
        ax = new_axes((width, height), rect=(0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(-0.5, n_slots - 0.5)
    ax.set_ylim(-(n_levels - 1) - 0.5, 0.5)

    drawing = _TreeDrawing(decision_tree, renderer, max_depth, precision, filled)
    size = LARGEST_FONTSIZE if fontsize is None else fontsize
    boxes, edges = {}, {}
    for node in x:
        boxes[node] = ax.text(
            x[node],
            -depth[node],
            drawing.box_text(node),
            ha="center",
            va="center",
            fontsize=size,
            zorder=3,
            **PLAIN_TEXT,
            bbox={
                "boxstyle": f"round,pad={BOX_PAD}",
                "facecolor": drawing.box_color(node),
                "edgecolor": "0.35",
                "linestyle": "--" if drawing.truncated(node) else "-",
            },
        )
        if tree.kind[node] == LEAF or drawing.truncated(node):
            continue
        children = tree.node_children(node)
        for child, text in zip(children, drawing.edge_texts(node), strict=True):
            ax.plot(
                [x[node], x[child]],
                [-depth[node], -depth[child]],
                color="0.55",
                linewidth=0.9,
                zorder=1,
            )
            edges[node, child] = ax.text(
                x[child],
                -depth[node] - 0.5,
                text,
                ha="center",
                va="center",
                fontsize=0.9 * size,
                color="0.15",
                zorder=2,
                **PLAIN_TEXT,
                bbox={
                    "boxstyle": f"square,pad={LABEL_PAD}",
                    "facecolor": "white",
                    "edgecolor": "none",
                    "alpha": 0.85,
                },
            )
    _place_edge_labels(ax, boxes, edges, x, depth)
    # placing the labels depends on the boxes' height, hence on the font size:
    # a few rounds, the last ones only shrinking so that the end has no overlap
    for attempt in range(5 if fontsize is None else 0):
        scale = _overlap_scale(ax, boxes, edges, x, depth)
        target = min(max(size * scale, SMALLEST_FONTSIZE), LARGEST_FONTSIZE)
        if attempt >= 3:
            target = min(target, size)
        if abs(target - size) <= 0.01 * size:
            break
        size = target
        for text in boxes.values():
            text.set_fontsize(size)
        for text in edges.values():
            text.set_fontsize(0.9 * size)
        _place_edge_labels(ax, boxes, edges, x, depth)
    return ax


def _place_edge_labels(ax, boxes, edges, x, depth):
    """Each edge label on its edge, a little below the middle of its visible part.

    The label's point on the line from the parent's centre to the child's
    centre is taken at ``LABEL_DEPTH`` of the way from the parent box's bottom
    to the child box's top: sibling labels spread as their children do, the
    more the nearer to the children.
    """
    if not edges:
        return
    renderer = _renderer_of(ax.figure)
    to_pixels = ax.transData.transform
    unit_y = abs(to_pixels((0.0, 1.0))[1] - to_pixels((0.0, 0.0))[1])
    half = {
        node: _size(text, renderer, BOX_PAD)[1] / 2 / unit_y
        for node, text in boxes.items()
    }
    for (parent, child), text in edges.items():
        top = -depth[parent] - half[parent]
        bottom = -depth[child] + half[child]
        y = top + LABEL_DEPTH * (bottom - top)
        # where the parent-to-child line crosses that height
        t = (-depth[parent] - y) / (depth[child] - depth[parent])
        text.set_position((x[parent] + t * (x[child] - x[parent]), y))
