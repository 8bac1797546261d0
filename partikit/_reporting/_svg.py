# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The HTML report's plots as inline SVG, drawn directly from partition tables.

A stacked bar chart is rectangles and text: writing them out takes
milliseconds, where matplotlib takes half a second to a second per plot (its
layout engine and SVG backend) plus its import. The plots here look like
:func:`~partikit._estimator._plotting.plot_partition_table`'s (same colours,
hatches, title, tick-label rules; those helpers are shared) and need no
matplotlib: the report imports it only for ``plot_partition``.

Every text written comes from the data (column names, category labels, class
names): it is escaped for XML, and never read as maths or markup.
"""

from __future__ import annotations

import html
import math

import numpy as np

from partikit._estimator._plotting import (
    BAR_WIDTH,
    MAX_LEGEND_CLASSES,
    MAX_TICK_LABELS,
    shorten,
)
from partikit._estimator._plotting import count_text as _count_text
from partikit._estimator._plotting import figure_text as _figure_text
from partikit._estimator._plotting import part_marks as _marks
from partikit._estimator._plotting import tick_labels as _tick_labels
from partikit._estimator._plotting import title_text as _title

__all__ = ["partition_svg"]

#: matplotlib's tab10 and the light half of tab20, in the order
#: :func:`~partikit._estimator._plotting.class_colors` uses them.
_TAB10 = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")  # fmt: skip
_TAB20_LIGHT = ("#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5",
                "#c49c94", "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5")  # fmt: skip
_MARK_COLOR = "rgba(26,26,26,0.55)"
_COUNT_COLOR = "#9e9e9e"
_TEXT_COLOR = "#1f2328"
_FONT = "-apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"

# geometry, in CSS pixels of the viewBox
_WIDTH = 800.0
_LEFT = 76.0  # y tick labels and the y axis label
_LEGEND = 150.0
_TWIN_AXIS = 52.0  # the WoE axis, binary targets only
_TOP = 56.0  # title and figures
_COUNTS_HEIGHT = 56.0
_GAP = 12.0
_MAIN_HEIGHT = 200.0


def _x(value):
    """Text of ``value`` escaped for XML (and HTML): never markup, never maths."""
    return html.escape(str(value), quote=True)


def _f(value):
    """A coordinate, short."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def class_colors_hex(n_classes):
    """One CSS colour per class, as ``class_colors`` gives them (tab10, tab20),
    then evenly spaced hues beyond 20 classes.

    Parameters
    ----------
    n_classes : int
        Number of classes.

    Returns
    -------
    colors : list of str
        The colour of each class, in class order.
    """
    if n_classes <= 10:
        return list(_TAB10[:n_classes])
    if n_classes <= 20:
        return [*_TAB10, *_TAB20_LIGHT][:n_classes]
    return [f"hsl({360.0 * i / n_classes:.1f},70%,48%)" for i in range(n_classes)]


def nice_ticks(low, high, n_ticks=5):
    """Round tick values covering ``[low, high]``: steps of 1, 2, 2.5 or 5 x 10^k.

    Parameters
    ----------
    low, high : float
        The range; ``high > low``.
    n_ticks : int, default=5
        About how many ticks.

    Returns
    -------
    ticks : list of float
        The ticks inside ``[low, high]``, increasing.
    """
    span = high - low
    if not np.isfinite(span) or span <= 0:
        return [low]
    raw = span / max(n_ticks, 1)
    magnitude = 10.0 ** math.floor(math.log10(raw))
    # the smallest round step >= raw; a smaller one when it leaves under two
    # ticks inside the range (a narrow range off the round numbers)
    steps = [m * magnitude * 10.0**k for k in (0, -1) for m in (10, 5, 2.5, 2, 1)]
    fitting = [step for step in steps if step >= raw]
    candidates = [min(fitting), *[step for step in steps if step < raw]]
    for step in candidates:
        first = math.ceil(low / step - 1e-9) * step
        count = math.floor((high - first) / step + 1e-9) + 1
        if count >= 2:
            break
    return [
        0.0 if abs(first + i * step) < 1e-12 * step else first + i * step
        for i in range(max(count, 0))
    ]


def _tick_text(value, step):
    digits = max(0, -math.floor(math.log10(step))) if step > 0 else 0
    if abs(value) >= 1e6:
        return f"{value:.3g}"
    return f"{value:,.{min(digits + 1, 6) if step % 1 else 0}f}"


def _hatch_defs(prefix):
    return (
        f"<defs><pattern id='{prefix}-missing' patternUnits='userSpaceOnUse' "
        f"width='6' height='6'><path d='M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2' "
        f"stroke='{_MARK_COLOR}' stroke-width='1'/></pattern>"
        f"<pattern id='{prefix}-unknown' patternUnits='userSpaceOnUse' width='6' "
        f"height='6'><path d='M0,0 l6,6 M6,0 l-6,6' stroke='{_MARK_COLOR}' "
        "stroke-width='0.8'/></pattern></defs>"
    )


def _hatch_rects(prefix, missing, unknown, x, y, width, height):
    out = []
    for on, name in ((missing, "missing"), (unknown, "unknown")):
        if on:
            out.append(
                f"<rect class='pk-hatch-{name}' x='{_f(x)}' y='{_f(y)}' "
                f"width='{_f(width)}' height='{_f(height)}' "
                f"fill='url(#{prefix}-{name})'/>"
            )
    return "".join(out)


class _Frame:
    """Where things go: the parts' x positions, the panels' heights."""

    def __init__(self, n_parts, twin):
        self.n_parts = n_parts
        self.left = _LEFT
        self.width = _WIDTH - _LEFT - _LEGEND - (_TWIN_AXIS if twin else 12.0)
        self.counts_top = _TOP
        self.main_top = _TOP + _COUNTS_HEIGHT + _GAP
        self.main_bottom = self.main_top + _MAIN_HEIGHT
        self.legend_x = self.left + self.width + (_TWIN_AXIS if twin else 12.0)
        # matplotlib's xlim (-0.6, n - 0.4): a part is one unit wide
        self.unit = self.width / (n_parts + 0.2)

    def center(self, part):
        return self.left + (part + 0.6) * self.unit

    def bar(self, part):
        """Left edge and width of a part's bar."""
        return self.center(part) - BAR_WIDTH * self.unit / 2, BAR_WIDTH * self.unit


def _title_svg(feature, statistics, n_parts):
    head, figures = _title(feature, statistics, n_parts)
    out = (
        f"<text x='{_f(_LEFT)}' y='17' font-size='15' font-weight='bold'>"
        f"{_x(shorten(head, 110))}</text>"
    )
    if figures:
        out += f"<text x='{_f(_LEFT)}' y='35' font-size='12.5'>{_x(figures)}</text>"
    return out


def _counts_svg(frame, counts, missing, unknown, prefix):
    """The count bars above the main panel, labelled when there are few parts."""
    top, height = frame.counts_top, _COUNTS_HEIGHT
    peak = float(counts.max()) if counts.size and counts.max() > 0 else 1.0
    scale = height / (peak * 1.25)
    out = []
    edge = "stroke='white' stroke-width='0.6'" if frame.n_parts <= 40 else ""
    for part, count in enumerate(counts):
        x, width = frame.bar(part)
        bar_height = max(float(count), 0.0) * scale
        y = top + height - bar_height
        out.append(
            f"<rect class='pk-count' data-part='{part}' x='{_f(x)}' y='{_f(y)}' "
            f"width='{_f(width)}' height='{_f(bar_height)}' fill='{_COUNT_COLOR}' "
            f"{edge}/>"
        )
        out.append(
            _hatch_rects(prefix, missing[part], unknown[part], x, y, width, bar_height)
        )
        if frame.n_parts <= 25:
            out.append(
                f"<text x='{_f(frame.center(part))}' y='{_f(y - 2.5)}' font-size='10' "
                f"text-anchor='middle'>{_x(_count_text(float(count)))}</text>"
            )
    ticks = [t for t in nice_ticks(0.0, peak * 1.25, 3) if 0 < t <= peak * 1.25]
    step = ticks[1] - ticks[0] if len(ticks) > 1 else (ticks[0] if ticks else 1.0)
    for tick in ticks:
        y = top + height - tick * scale
        out.append(_y_tick(frame.left, y, _count_tick_text(tick, step)))
    out.append(_axis_line(frame.left, top, frame.left, top + height))
    out.append(_axis_line(frame.left, top + height, frame.left + frame.width,
                          top + height))  # fmt: skip
    out.append(_y_label(frame.left - 62, top + height / 2, "count"))
    return "".join(out)


def _count_tick_text(value, step):
    if value >= 1e4:
        return _count_text(value)
    return _tick_text(value, step)


def _axis_line(x1, y1, x2, y2):
    return (
        f"<line x1='{_f(x1)}' y1='{_f(y1)}' x2='{_f(x2)}' y2='{_f(y2)}' "
        "stroke='#333' stroke-width='0.8'/>"
    )


def _y_tick(x, y, text, right=False):
    sign = 1 if right else -1
    anchor = "start" if right else "end"
    return (
        f"<line x1='{_f(x)}' y1='{_f(y)}' x2='{_f(x + 4 * sign)}' y2='{_f(y)}' "
        f"stroke='#333' stroke-width='0.8'/><text x='{_f(x + 7 * sign)}' "
        f"y='{_f(y + 3.5)}' font-size='12' text-anchor='{anchor}'>{_x(text)}</text>"
    )


def _y_label(x, y, text):
    return (
        f"<text transform='translate({_f(x)},{_f(y)}) rotate(-90)' font-size='13' "
        f"text-anchor='middle'>{_x(text)}</text>"
    )


def _x_labels_svg(frame, table, kind):
    """The parts' tick labels (thinned, wrapped or turned as matplotlib's) and
    the x axis label; returns the SVG and the height it takes."""
    n_parts = frame.n_parts
    step = max(1, math.ceil(n_parts / MAX_TICK_LABELS))
    shown = list(range(0, n_parts, step))
    fontsize = 12 if n_parts <= 12 else 11 if n_parts <= 30 else 10
    marks = _marks(table)
    labels, turn = _tick_labels(
        [str(table["label"].iloc[i]) for i in shown],
        [marks[i] for i in shown],
        # _tick_labels counts in points of matplotlib's 8-inch figure
        step * frame.unit * 576.0 / _WIDTH,
        fontsize * 0.8,
    )
    rotation = turn["rotation"]
    y0 = frame.main_bottom + 4
    out = []
    longest = max((len(line) for t in labels for line in t.split("\n")), default=0)
    if rotation == 0:
        n_lines = max((t.count("\n") + 1 for t in labels), default=1)
        height = n_lines * fontsize * 1.2 + 6
    else:
        reach = longest * 0.55 * fontsize
        height = (reach * (math.sin(math.radians(35)) if rotation == 35 else 1.0)
                  + fontsize + 6)  # fmt: skip
    for part, text in zip(shown, labels, strict=True):
        x = frame.center(part)
        out.append(
            f"<line x1='{_f(x)}' y1='{_f(frame.main_bottom)}' x2='{_f(x)}' "
            f"y2='{_f(frame.main_bottom + 3)}' stroke='#333' stroke-width='0.8'/>"
        )
        if rotation == 0:
            lines = text.split("\n")
            spans = "".join(
                f"<tspan x='{_f(x)}' dy='{'0' if i == 0 else '1.2em'}'>{_x(line)}"
                "</tspan>"
                for i, line in enumerate(lines)
            )
            out.append(
                f"<text class='pk-tick' data-part='{part}' x='{_f(x)}' "
                f"y='{_f(y0 + fontsize)}' font-size='{fontsize}' "
                f"text-anchor='middle'>{spans}</text>"
            )
        else:
            out.append(
                f"<text class='pk-tick' data-part='{part}' font-size='{fontsize}' "
                f"text-anchor='end' transform='translate({_f(x + fontsize * 0.3)},"
                f"{_f(y0 + 2)}) rotate(-{rotation})'>{_x(text)}</text>"
            )
    name = {"categorical": "group", "numeric": "interval"}.get(kind, "part")
    out.append(
        f"<text x='{_f(frame.left + frame.width / 2)}' y='{_f(y0 + height + 10)}' "
        f"font-size='13' text-anchor='middle'>{name}</text>"
    )
    return "".join(out), height + 18


def _legend_svg(x, y, entries):
    """``entries``: (swatch SVG drawn at the origin, text)."""
    out = []
    for i, (swatch, text) in enumerate(entries):
        top = y + 18 * i
        out.append(
            f"<g transform='translate({_f(x)},{_f(top)})'>{swatch}<text x='18' "
            f"y='9.5' font-size='11.5'>{_x(text)}</text></g>"
        )
    return "".join(out)


def _class_entries(classes, colors, totals):
    order = list(range(len(classes)))
    if len(classes) > MAX_LEGEND_CLASSES:
        order = sorted(
            np.argsort(-totals, kind="stable")[: MAX_LEGEND_CLASSES - 1].tolist()
        )
    entries = [
        (f"<rect width='12' height='10' fill='{colors[c]}'/>", shorten(classes[c], 24))
        for c in order
    ]
    if len(order) < len(classes):
        entries.append(("", f"... +{len(classes) - len(order)} more classes"))
    return entries


def _hatch_entries(prefix, missing, unknown):
    entries = []
    for marks, name, text in ((missing, "missing", "gets missing"),
                              (unknown, "unknown", "gets unknown")):  # fmt: skip
        if marks.any():
            entries.append((
                f"<rect width='12' height='10' fill='white' stroke='#4d4d4d' "
                f"stroke-width='0.6'/><rect width='12' height='10' "
                f"fill='url(#{prefix}-{name})'/>", text,
            ))  # fmt: skip
    return entries


def _woe_svg(frame, woe):
    """The WoE line on its own axis, right of the shares; returns the SVG and
    its legend entry."""
    woe = np.where(np.isfinite(woe), woe, np.nan)
    finite = woe[np.isfinite(woe)]
    reach = 1.1 * max(float(np.max(np.abs(finite))) if finite.size else 1.0, 0.1)
    top, height = frame.main_top, _MAIN_HEIGHT

    def y_of(value):
        return top + height * (reach - value) / (2 * reach)

    right = frame.left + frame.width
    out = [
        f"<line x1='{_f(frame.left)}' y1='{_f(y_of(0.0))}' x2='{_f(right)}' "
        f"y2='{_f(y_of(0.0))}' stroke='black' stroke-width='0.7' "
        "stroke-dasharray='1.5,2'/>",
        _axis_line(right, top, right, top + height),
    ]
    ticks = [t for t in nice_ticks(-reach, reach, 6) if abs(t) <= reach]
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    out += [_y_tick(right, y_of(t), _tick_text(t, step), right=True) for t in ticks]
    out.append(
        _y_label(right + _TWIN_AXIS - 8, top + height / 2, "weight of evidence (WoE)")
    )
    segment = []
    for part, value in enumerate([*woe, np.nan]):
        if np.isfinite(value):
            segment.append(f"{_f(frame.center(part))},{_f(y_of(value))}")
            continue
        if len(segment) > 1:
            out.append(
                f"<polyline class='pk-woe' points='{' '.join(segment)}' "
                "fill='none' stroke='black' stroke-width='1.4'/>"
            )
        segment = []
    out += [
        f"<circle cx='{_f(frame.center(part))}' cy='{_f(y_of(value))}' r='2.8' "
        "fill='black'/>"
        for part, value in enumerate(woe)
        if np.isfinite(value)
    ]
    swatch = (
        "<line x1='0' y1='5' x2='12' y2='5' stroke='black' stroke-width='1.4'/>"
        "<circle cx='6' cy='5' r='2.8' fill='black'/>"
    )
    return "".join(out), (swatch, "WoE")


def _part_title(table, part, classes):
    """A part's tooltip: its label, count and class shares (or mean and std)."""
    row = table.iloc[part]
    lines = [
        shorten(str(row["label"]), 200),
        f"count {_count_text(float(row['count']))}",
    ]
    if classes is None:
        lines.append(f"mean {_figure_text(float(row['mean']))} ± "
                     f"{_figure_text(float(np.nan_to_num(row['std'])))}")  # fmt: skip
    else:
        shown = classes[:MAX_LEGEND_CLASSES]
        lines += [f"{c}: {float(np.nan_to_num(row[f'rate_{c}'])):.1%}" for c in shown]
        if "woe" in table and np.isfinite(row["woe"]):
            lines.append(f"WoE {float(row['woe']):.3f}")
    return f"<title>{_x(chr(10).join(lines))}</title>"


def _shares_svg(frame, table, classes, colors, rates, missing, unknown, prefix):
    top, height = frame.main_top, _MAIN_HEIGHT
    edge = "stroke='white' stroke-width='0.6'" if frame.n_parts <= 40 else ""
    out = []
    for part in range(frame.n_parts):
        x, width = frame.bar(part)
        bottom = top + height
        rects = []
        for c in range(len(classes)):
            share = float(rates[part, c])
            if share <= 0:
                continue
            rect_height = share * height
            bottom -= rect_height
            rects.append(
                f"<rect class='pk-share' data-class='{c}' data-share='{share:.6g}' "
                f"x='{_f(x)}' y='{_f(bottom)}' width='{_f(width)}' "
                f"height='{_f(rect_height)}' fill='{colors[c]}' {edge}/>"
            )
        rects.append(
            _hatch_rects(prefix, missing[part], unknown[part], x, top, width, height)
        )
        out.append(
            f"<g class='pk-part' data-part='{part}'>"
            f"{_part_title(table, part, classes)}{''.join(rects)}</g>"
        )
    for share in np.linspace(0.0, 1.0, 6):
        y = top + height * (1.0 - share)
        out.append(_y_tick(frame.left, y, f"{share:.0%}"))
    out.append(_axis_line(frame.left, top, frame.left, top + height))
    out.append(_axis_line(frame.left, top + height, frame.left + frame.width,
                          top + height))  # fmt: skip
    out.append(_y_label(frame.left - 62, top + height / 2, "class share"))
    return "".join(out)


def _means_svg(frame, table, counts, missing, unknown, prefix):
    """Each part's mean ± one std over the overall mean (a dotted line)."""
    means = table["mean"].to_numpy(dtype=np.float64)
    spread = np.nan_to_num(table["std"].to_numpy(dtype=np.float64), nan=0.0)
    filled = np.isfinite(means) & (counts > 0)
    overall = (
        float(np.sum(counts[filled] * means[filled]) / counts[filled].sum())
        if filled.any()
        else 0.0
    )
    low = float(np.min(means[filled] - spread[filled], initial=overall))
    high = float(np.max(means[filled] + spread[filled], initial=overall))
    margin = 0.06 * (high - low) if high > low else max(abs(overall), 1.0) * 0.1
    low, high = low - margin, high + margin
    top, height = frame.main_top, _MAIN_HEIGHT

    def y_of(value):
        return top + height * (high - value) / (high - low)

    color = _TAB10[0]
    out = []
    for part in range(frame.n_parts):
        x, width = frame.bar(part)
        inner = [_hatch_rects(prefix, missing[part], unknown[part], x, top, width,
                              height)]  # fmt: skip
        if filled[part]:
            mean, std, center = means[part], spread[part], frame.center(part)
            y_mean, y_overall = y_of(mean), y_of(overall)
            inner.append(
                f"<rect class='pk-mean' data-mean='{mean:.6g}' x='{_f(x)}' "
                f"y='{_f(min(y_mean, y_overall))}' width='{_f(width)}' "
                f"height='{_f(abs(y_mean - y_overall))}' fill='{color}' "
                "fill-opacity='0.6'/>"
            )
            y_low, y_high = y_of(mean - std), y_of(mean + std)
            inner.append(
                f"<path d='M{_f(center)},{_f(y_low)}V{_f(y_high)}"
                f"M{_f(center - 4)},{_f(y_low)}h8M{_f(center - 4)},{_f(y_high)}h8' "
                f"stroke='{color}' stroke-width='1.4' fill='none'/>"
                f"<circle cx='{_f(center)}' cy='{_f(y_mean)}' r='3.5' fill='{color}'/>"
            )
        out.append(
            f"<g class='pk-part' data-part='{part}'>"
            f"{_part_title(table, part, None)}{''.join(inner)}</g>"
        )
    out.append(
        f"<line x1='{_f(frame.left)}' y1='{_f(y_of(overall))}' "
        f"x2='{_f(frame.left + frame.width)}' y2='{_f(y_of(overall))}' "
        "stroke='black' stroke-width='0.8' stroke-dasharray='1.5,2'/>"
    )
    ticks = [t for t in nice_ticks(low, high, 5) if low <= t <= high]
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    out += [_y_tick(frame.left, y_of(t), _tick_text(t, step)) for t in ticks]
    out.append(_axis_line(frame.left, top, frame.left, top + height))
    out.append(_axis_line(frame.left, top + height, frame.left + frame.width,
                          top + height))  # fmt: skip
    out.append(_y_label(frame.left - 62, top + height / 2, "target mean ± std"))
    entries = [
        (f"<line x1='0' y1='5' x2='12' y2='5' stroke='{color}' stroke-width='1.4'/>"
         f"<circle cx='6' cy='5' r='3' fill='{color}'/>", "mean ± std"),
        ("<line x1='0' y1='5' x2='12' y2='5' stroke='black' stroke-width='0.8' "
         "stroke-dasharray='1.5,2'/>", f"overall mean ({_figure_text(overall)})"),
    ]  # fmt: skip
    return "".join(out), entries


def partition_svg(table, *, feature, statistics, classes, id_prefix="pk"):
    """One column's partition as an SVG document fragment, from its table.

    The same plot as
    :func:`~partikit._estimator._plotting.plot_partition_table`, written
    directly: bars stacking each part's class shares (one colour per class),
    a panel above with each part's weighted count, and for a binary target
    each part's weight of evidence as a line on its own axis; for a
    continuous target each part's mean with one standard deviation either
    side, over the overall mean. Parts that get missing values are hatched
    ``///``, those that get unseen categories ``xx``. Each part carries a
    tooltip (its label, count and shares). Every text is escaped.

    Parameters
    ----------
    table : pandas.DataFrame
        A partition table (``partition_table`` of a fitted grouper or
        discretizer).
    feature : str
        The column's name.
    statistics : dict
        The column's row of the report's summary (missing keys and NaN values
        are left out of the title).
    classes : list of str or None
        The class names in the order of the table's ``rate_<class>`` columns;
        None for a continuous target.
    id_prefix : str, default="pk"
        Prefix of the ids of the hatch patterns: unique per plot of a page.

    Returns
    -------
    svg : str
        ``<svg ...>...</svg>``, well-formed XML, sized by its ``viewBox``.

    References
    ----------
    .. [1] N. Siddiqi, "Credit Risk Scorecards: Developing and Implementing
       Intelligent Credit Scoring", Wiley, 2006 (weight of evidence).
    """
    statistics = dict(statistics)
    n_parts = len(table)
    prefix = _x(id_prefix)
    counts = table["count"].to_numpy(dtype=np.float64)
    missing = table["missing"].to_numpy(dtype=bool)
    unknown = table["unknown"].to_numpy(dtype=bool)
    binary = classes is not None and len(classes) == 2 and "woe" in table
    frame = _Frame(n_parts, twin=binary)
    parts = [_title_svg(feature, statistics, n_parts),
             _counts_svg(frame, counts, missing, unknown, prefix)]  # fmt: skip
    if classes is None:
        main, entries = _means_svg(frame, table, counts, missing, unknown, prefix)
        parts.append(main)
    else:
        classes = [str(c) for c in classes]
        rates = np.nan_to_num(
            np.column_stack(
                [table[f"rate_{c}"].to_numpy(dtype=np.float64) for c in classes]
            ),
            nan=0.0,
        )
        colors = class_colors_hex(len(classes))
        parts.append(
            _shares_svg(frame, table, classes, colors, rates, missing, unknown, prefix)
        )
        entries = _class_entries(classes, colors, counts @ rates)
        if binary:
            woe, entry = _woe_svg(frame, table["woe"].to_numpy(dtype=np.float64))
            parts.append(woe)
            entries.append(entry)
    entries += _hatch_entries(prefix, missing, unknown)
    labels, labels_height = _x_labels_svg(frame, table, statistics.get("kind"))
    parts.append(labels)
    parts.append(_legend_svg(frame.legend_x, frame.counts_top, entries))
    height = max(frame.main_bottom + labels_height + 6, _TOP + 18 * len(entries) + 8)
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' class='pk-svg' "
        f"viewBox='0 0 {_f(_WIDTH)} {_f(height)}' width='{_f(_WIDTH)}' "
        f"height='{_f(height)}' font-family=\"{_FONT}\" fill='{_TEXT_COLOR}' "
        f"role='img' aria-label='{_x(f'partition of {feature}')}'>"
        f"{_hatch_defs(prefix)}{''.join(parts)}</svg>"
    )
