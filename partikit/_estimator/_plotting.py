# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Plots of fitted partitions, drawn with matplotlib.

matplotlib is an optional dependency (``pip install 'partikit[plot]'``): it is
imported inside the functions only, so that this module, and every estimator
whose methods call it, imports without it. Nothing here changes the backend or
shows a figure; a figure made here belongs to the caller, who may save or close
it (``plt.close(ax.figure)``).
"""

from __future__ import annotations

import math
import re
import textwrap

import numpy as np

#: Classes named in a legend; the others are counted in one last entry.
MAX_LEGEND_CLASSES = 12

#: Tick labels written at most; beyond, every k-th part is labelled.
MAX_TICK_LABELS = 60

#: Hatches of the part receiving missing values and of the one receiving
#: categories unseen in fit.
MISSING_HATCH = "///"
UNKNOWN_HATCH = "xx"
MARK_COLOR = (0.1, 0.1, 0.1, 0.55)

#: Share of the axes' height taken by the class shares; the counts are above.
SHARES_HEIGHT = 0.72

BAR_WIDTH = 0.82

_INTERVAL = re.compile(r"^[(\[][^,]*, [^,]*[)\]]$")
_MORE = re.compile(r"^(.*?)(,? ?\.\.\. ?\(?\+\d+ more\)?\}?)$")


def import_matplotlib():
    """matplotlib, or an ImportError that says how to install it.

    Returns
    -------
    matplotlib : module
        The imported ``matplotlib`` package.

    Raises
    ------
    ImportError
        When matplotlib is not installed.
    """
    try:
        import matplotlib
    except ImportError as exc:
        raise ImportError(
            "plotting needs matplotlib: pip install 'partikit[plot]' "
            "(or pip install matplotlib)"
        ) from exc
    return matplotlib


#: Properties of every text drawn from the data (a column's name, a category,
#: a class): it is shown as written, never read as mathtext (``$\alpha$``) or
#: sent to LaTeX, where a ``$`` or a backslash in the data would raise.
PLAIN_TEXT = {"parse_math": False, "usetex": False}


def as_plain_text(texts):
    """Make matplotlib's ``texts`` plain text: see :data:`PLAIN_TEXT`.

    Parameters
    ----------
    texts : iterable of matplotlib.text.Text
        Texts already drawn (a legend's, an axis' tick labels).

    Returns
    -------
    texts : list of matplotlib.text.Text
        The same texts.
    """
    texts = list(texts)
    for text in texts:
        text.set(**PLAIN_TEXT)
    return texts


def new_axes(figsize, rect=None):
    """Axes on a new pyplot figure (the caller closes it; the backend is kept).

    With ``rect`` (left, bottom, width, height in figure fractions) the axes
    are placed there, without a layout manager; else the figure's constrained
    layout places them.
    """
    import_matplotlib()
    import matplotlib.pyplot as plt

    if rect is not None:
        return plt.figure(figsize=figsize).add_axes(rect)
    figure = plt.figure(figsize=figsize, layout="constrained")
    return figure.add_subplot()


def class_colors(n_classes):
    """One colour per class: tab10, tab20, then evenly spaced on a colormap.

    Parameters
    ----------
    n_classes : int
        Number of classes.

    Returns
    -------
    colors : list of RGBA tuples
        The colour of each class, in class order.
    """
    matplotlib = import_matplotlib()
    if n_classes <= 10:
        cmap = matplotlib.colormaps["tab10"]
        return [cmap(i) for i in range(n_classes)]
    if n_classes <= 20:
        # tab20 pairs a dark and a light shade; all dark ones first keeps
        # neighbouring classes apart
        cmap = matplotlib.colormaps["tab20"]
        order = [*range(0, 20, 2), *range(1, 20, 2)]
        return [cmap(i) for i in order[:n_classes]]
    cmap = matplotlib.colormaps["turbo"]
    return [cmap(v) for v in np.linspace(0.05, 0.95, n_classes)]


def shorten(text, width):
    """``text`` cut to ``width`` characters with an ellipsis.

    A trailing count of members left out (``... (+120 more)``) is kept whole:
    the cut falls in the members listed before it.

    Parameters
    ----------
    text : str
        The label.
    width : int
        Most characters of the result (the kept count may add a few).

    Returns
    -------
    short : str
        ``text`` itself when it fits.

    Examples
    --------
    >>> shorten("red, green, blue, ... (+120 more)", 20)
    'red, gr… (+120 more)'
    >>> shorten("(-inf, 1.5]", 20)
    '(-inf, 1.5]'
    """
    text = str(text)
    if len(text) <= width:
        return text
    match = _MORE.match(text)
    if match:
        head, tail = match.group(1), match.group(2)
        tail = " " + tail.lstrip(", .").lstrip()
        tail = tail if tail.startswith(" (") else f" ({tail.strip()})"
        keep = max(width - len(tail) - 1, 3)
        return head[:keep].rstrip(", ") + "…" + tail
    return text[: max(width - 1, 1)].rstrip(", ") + "…"


def _count_text(count):
    if count >= 1e6:
        return f"{count / 1e6:.3g}M"
    if count >= 1e4:
        return f"{count / 1e3:.3g}k"
    if float(count).is_integer():
        return f"{int(count):,}"
    return f"{count:.3g}"


def _figure_text(value):
    """A statistic: whole thousands with separators, else 4 significant digits."""
    if abs(value) >= 1e7:
        return f"{value:.3g}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def _is_number(value):
    return value is not None and np.isfinite(float(value))


def _title(feature, statistics, n_parts):
    """The column's name and what it is, then its statistics."""
    kind = statistics.get("kind")
    if _is_number(statistics.get("n_parts")):
        # the parts that hold rows: a discretizer's empty missing bin is not one
        n_parts = int(statistics["n_parts"])
    noun = {"categorical": "groups", "numeric": "intervals"}.get(kind, "parts")
    described = [str(kind)] if kind is not None else []
    if _is_number(statistics.get("n_values")):
        values = "distinct values" if kind == "numeric" else "values"
        n_values = int(statistics["n_values"])
        described.append(f"{n_values:,} {values} in {n_parts} {noun}")
    else:
        described.append(f"{n_parts} {noun}")
    if _is_number(statistics.get("rank")):
        described.append(f"rank {int(statistics['rank'])}")
    figures = []
    if _is_number(statistics.get("chi2")):
        chi2 = f"chi2 = {_figure_text(statistics['chi2'])}"
        if _is_number(statistics.get("dof")):
            chi2 += f" (dof {int(statistics['dof'])})"
        figures.append(chi2)
    if _is_number(statistics.get("F")):
        f_text = f"F = {_figure_text(statistics['F'])}"
        if _is_number(statistics.get("dfn")) and _is_number(statistics.get("dfd")):
            f_text += (
                f" ({_figure_text(statistics['dfn'])}, "
                f"{_figure_text(statistics['dfd'])} df)"
            )
        figures.append(f_text)
    if _is_number(statistics.get("log10_pvalue")):
        figures.append(f"log10 p = {_figure_text(statistics['log10_pvalue'])}")
    if _is_number(statistics.get("cramers_v")):
        figures.append(f"Cramér's V = {statistics['cramers_v']:.3f}")
    if _is_number(statistics.get("iv")):
        figures.append(f"IV = {statistics['iv']:.3f}")
    if _is_number(statistics.get("r2")):
        figures.append(f"R² = {statistics['r2']:.3f}")
    return f"{feature}  ({', '.join(described)})", "    ".join(figures)


def _marks(table):
    """What each part's tick label adds: the missing / unknown values it gets,
    and that it holds special values (a discretizer's ``special_codes``)."""
    marks = []
    special = table["special"] if "special" in table else [False] * len(table)
    for label, missing, unknown, is_special in zip(
        table["label"], table["missing"], table["unknown"], special, strict=True
    ):
        mark = ["special"] if is_special else []
        # a group holding the missing category already says so in its label
        if missing and "missing" not in str(label):
            mark.append("+missing")
        if unknown:
            mark.append("+unknown")
        marks.append(f"[{', '.join(mark)}]" if mark else "")
    return marks


def _short_label(text, width):
    # an interval cut short would lose a bound: it is kept whole
    return text if _INTERVAL.match(text) else shorten(text, width)


def _tick_labels(labels, marks, slot_points, fontsize):
    """Tick labels that fit a part's width, and how to turn them.

    Labels that fit stay level; a few parts get labels wrapped on up to three
    lines; more parts get shortened labels turned by 35 or 90 degrees.
    Intervals are never shortened.
    """
    per_line = max(int(slot_points / (0.6 * fontsize)), 6)
    whole = [f"{t} {m}".strip() for t, m in zip(labels, marks, strict=True)]
    if max(map(len, whole), default=0) <= per_line:
        return whole, {"rotation": 0}
    if len(labels) <= 12 and per_line >= 10:
        wrapped = []
        for text, mark in zip(labels, marks, strict=True):
            # a no-break space keeps "(+5 more)" on one line
            text = _short_label(text, 3 * per_line - 4).replace(" more)", "\xa0more)")
            lines = textwrap.wrap(text, per_line)
            wrapped.append("\n".join(lines + ([mark] if mark else [])))
        return wrapped, {"rotation": 0}
    width = 32 if len(labels) <= 8 else 24 if len(labels) <= 24 else 16
    short = [
        f"{_short_label(t, width)} {m}".strip()
        for t, m in zip(labels, marks, strict=True)
    ]
    if len(labels) > 24:
        return short, {"rotation": 90}
    return short, {"rotation": 35, "ha": "right", "rotation_mode": "anchor"}


def _legend_handles(classes, colors, totals):
    """A patch per class, the most frequent ones when there are many."""
    from matplotlib import patches

    order = np.arange(len(classes))
    if len(classes) > MAX_LEGEND_CLASSES:
        # named in class order, the others counted in one entry
        order = np.sort(np.argsort(-totals, kind="stable")[: MAX_LEGEND_CLASSES - 1])
    handles = [
        patches.Patch(facecolor=colors[c], label=shorten(classes[c], 24)) for c in order
    ]
    if len(order) < len(classes):
        handles.append(
            patches.Patch(
                facecolor="none",
                edgecolor="none",
                label=f"... +{len(classes) - len(order)} more classes",
            )
        )
    return handles


def plot_partition_table(table, *, feature, statistics, classes, ax=None):
    """Draw one fitted column's partition from its partition table.

    Bars stack the class shares of each part (one colour per class); a panel
    above them, on the same x axis, shows each part's weighted count; for
    a binary target a line on a twin y axis shows each part's weight of
    evidence. The part receiving missing values is hatched ``///`` and the one
    receiving unseen categories ``xx``, and their tick labels say so. The
    title names the column and its statistics. Many parts thin the tick
    labels; many classes cap the legend.

    Parameters
    ----------
    table : pandas.DataFrame
        A partition table (``partition_table`` of a fitted grouper or
        discretizer): one row per part with the columns ``label``, ``count``,
        ``rate_<class>`` for every class, ``missing`` and ``unknown``, and
        ``woe`` for a binary target.
    feature : str
        The column's name.
    statistics : dict
        The column's row of ``partition_summary`` (``kind``, ``n_values``,
        ``chi2``, ``dof``, ``log10_pvalue``, ``cramers_v``, ``iv``, ``rank``);
        missing keys and NaN values are left out of the title.
    classes : list of str or None
        The class names, in the order of the table's ``rate_<class>`` columns;
        None for a continuous target, whose table has ``mean`` and ``std``
        instead: each part's mean is then drawn as a point with a bar of one
        standard deviation either side, over a dotted line at the target's
        overall mean (see :func:`plot_continuous_partition_table`).
    ax : matplotlib.axes.Axes or None, default=None
        Where to draw: the class shares fill its lower part, the counts an
        inset axes in its upper part, the WoE a twin axes. None draws on a new
        pyplot figure sized for the table, which the caller may save and close
        (``ax.figure``); the backend is left as it is.

    Returns
    -------
    ax : matplotlib.axes.Axes
        The axes of the class shares.

    Raises
    ------
    ImportError
        When matplotlib is not installed.

    References
    ----------
    .. [1] N. Siddiqi, "Credit Risk Scorecards: Developing and Implementing
       Intelligent Credit Scoring", Wiley, 2006 (weight of evidence and
       information value).
    """
    if classes is None:
        return plot_continuous_partition_table(
            table, feature=feature, statistics=statistics, ax=ax
        )
    import_matplotlib()

    classes = [str(c) for c in classes]
    statistics = dict(statistics)
    n_parts = len(table)
    if ax is None:
        ax = _new_partition_axes(n_parts)
    counts = table["count"].to_numpy(dtype=np.float64)
    # an empty part has no rates: an empty bar
    rates = np.nan_to_num(
        np.column_stack(
            [table[f"rate_{name}"].to_numpy(dtype=np.float64) for name in classes]
        ),
        nan=0.0,
    )
    missing = table["missing"].to_numpy(dtype=bool)
    unknown = table["unknown"].to_numpy(dtype=bool)
    hatches = [
        (MISSING_HATCH if m else "") + (UNKNOWN_HATCH if u else "")
        for m, u in zip(missing, unknown, strict=True)
    ]
    colors = class_colors(len(classes))
    _draw_shares(ax, rates, colors, hatches, statistics.get("kind"))
    _draw_counts(ax, counts, hatches)
    _draw_title(ax, feature, statistics, n_parts)
    handles = _legend_handles(classes, colors, counts @ rates)
    legend_offset = 6.0  # points right of the axes
    if len(classes) == 2 and "woe" in table:
        handles.append(_draw_woe(ax, table["woe"].to_numpy(dtype=np.float64)))
        # clear of the twin's tick labels and axis label
        legend_offset = 58.0
    _finish_partition_axes(ax, table, handles, missing, unknown, legend_offset)
    return ax


def _finish_partition_axes(ax, table, handles, missing, unknown, legend_offset):
    """The legend (the hatches of the parts that get missing and unknown
    values last), right of the axes by ``legend_offset`` points, and the
    parts' tick labels."""
    from matplotlib import patches
    from matplotlib.transforms import ScaledTranslation

    for marks, hatch, label in (
        (missing, MISSING_HATCH, "gets missing"),
        (unknown, UNKNOWN_HATCH, "gets unknown"),
    ):
        if marks.any():
            handles.append(
                patches.Patch(
                    facecolor="white", edgecolor="0.3", hatch=hatch, label=label
                )
            )
    legend = ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.0, 1.0),
        bbox_transform=ax.transAxes
        + ScaledTranslation(legend_offset / 72, 0.0, ax.figure.dpi_scale_trans),
        borderaxespad=0.0,
        fontsize=8,
        frameon=False,
    )
    as_plain_text(legend.get_texts())
    _draw_tick_labels(ax, table)


def _new_partition_axes(n_parts):
    width = min(max(5.0 + 0.2 * n_parts, 8.0), 18.0)
    return new_axes((width, 5.2 if n_parts <= 24 else 6.2))


def _draw_title(ax, feature, statistics, n_parts):
    head, figures = _title(feature, statistics, n_parts)
    ax.set_title(
        head, loc="left", fontsize=11, fontweight="bold", pad=18 if figures else 6,
        **PLAIN_TEXT,
    )  # fmt: skip
    if figures:
        ax.annotate(
            figures,
            (0.0, 1.0),
            xycoords="axes fraction",
            xytext=(0, 5),
            textcoords="offset points",
            fontsize=9,
            va="bottom",
            **PLAIN_TEXT,
        )


def plot_continuous_partition_table(table, *, feature, statistics, ax=None):
    """Draw one column's partition fitted on a continuous target.

    Each part's mean is a point with a bar of one standard deviation either
    side (the spread of the target in the part), and a pale bar from the
    target's overall mean (a dotted line) to the part's mean; a panel above,
    on the same x axis, shows each part's weighted count. Parts that get
    missing values or unseen categories are hatched as in
    :func:`plot_partition_table`; an empty part has no point.

    Parameters
    ----------
    table : pandas.DataFrame
        A partition table of a continuous target: the columns ``label``,
        ``count``, ``mean``, ``std``, ``missing`` and ``unknown``.
    feature : str
        The column's name.
    statistics : dict
        The column's row of ``partition_summary`` (``kind``, ``n_values``,
        ``F``, ``dfn``, ``dfd``, ``log10_pvalue``, ``r2``, ``rank``); missing
        keys and NaN values are left out of the title.
    ax : matplotlib.axes.Axes or None, default=None
        Where to draw; None draws on a new pyplot figure.

    Returns
    -------
    ax : matplotlib.axes.Axes
        The axes of the means.
    """
    import_matplotlib()
    from matplotlib.lines import Line2D

    statistics = dict(statistics)
    n_parts = len(table)
    if ax is None:
        ax = _new_partition_axes(n_parts)
    counts = table["count"].to_numpy(dtype=np.float64)
    means = table["mean"].to_numpy(dtype=np.float64)
    spread = np.nan_to_num(table["std"].to_numpy(dtype=np.float64), nan=0.0)
    missing = table["missing"].to_numpy(dtype=bool)
    unknown = table["unknown"].to_numpy(dtype=bool)
    hatches = [
        (MISSING_HATCH if m else "") + (UNKNOWN_HATCH if u else "")
        for m, u in zip(missing, unknown, strict=True)
    ]
    filled = np.isfinite(means) & (counts > 0)
    overall = (
        float(np.sum(counts[filled] * means[filled]) / counts[filled].sum())
        if filled.any()
        else 0.0
    )
    low = np.min(means[filled] - spread[filled], initial=overall)
    high = np.max(means[filled] + spread[filled], initial=overall)
    margin = 0.06 * (high - low) if high > low else max(abs(overall), 1.0) * 0.1
    low, high = low - margin, high + margin
    x = np.arange(n_parts)
    for part, hatch in enumerate(hatches):
        if hatch:
            ax.bar(part, high - low, BAR_WIDTH, bottom=low, fill=False,
                   hatch=hatch, edgecolor=MARK_COLOR, linewidth=0.0)  # fmt: skip
    color = class_colors(1)[0]
    # a bar from the overall mean to the part's: its mean_difference
    ax.bar(
        x[filled], means[filled] - overall, BAR_WIDTH, bottom=overall,
        color=color, alpha=0.6, linewidth=0.0,
    )  # fmt: skip
    ax.axhline(overall, color="black", linewidth=0.8, linestyle=":")
    ax.errorbar(
        x[filled], means[filled], yerr=spread[filled], fmt="o", color=color,
        ecolor=color, elinewidth=1.4, capsize=4, markersize=5,
    )  # fmt: skip
    # the means take the lower part of the axes, the counts the upper one
    ax.set_ylim(low, low + (high - low) / SHARES_HEIGHT)
    ax.set_xlim(-0.6, n_parts - 0.4)
    ax.spines["left"].set_bounds(low, high)
    ax.set_yticks([t for t in ax.get_yticks() if low <= t <= high])
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_ylabel("target mean ± std", y=SHARES_HEIGHT / 2)
    kind = statistics.get("kind")
    ax.set_xlabel({"categorical": "group", "numeric": "interval"}.get(kind, "part"))
    _draw_counts(ax, counts, hatches)
    _draw_title(ax, feature, statistics, n_parts)
    handles = [
        Line2D([], [], color=color, marker="o", linewidth=1.4,
               label="mean ± std"),
        Line2D([], [], color="black", linewidth=0.8, linestyle=":",
               label=f"overall mean ({_figure_text(overall)})"),
    ]  # fmt: skip
    _finish_partition_axes(ax, table, handles, missing, unknown, 6.0)
    return ax


def _draw_shares(ax, rates, colors, hatches, kind):
    """Stacked class shares in the lower part of ``ax``."""
    from matplotlib.ticker import FixedLocator, PercentFormatter

    n_parts, n_classes = rates.shape
    x = np.arange(n_parts)
    edge_width = 0.6 if n_parts <= 40 else 0.0
    bottoms = np.zeros(n_parts)
    for c in range(n_classes):
        ax.bar(
            x,
            rates[:, c],
            BAR_WIDTH,
            bottom=bottoms,
            color=colors[c],
            edgecolor="white",
            linewidth=edge_width,
        )
        bottoms += rates[:, c]
    for part, hatch in enumerate(hatches):
        if hatch:
            # an unfilled bar over the stack: the class colours stay readable
            ax.bar(
                part,
                1.0,
                BAR_WIDTH,
                fill=False,
                hatch=hatch,
                edgecolor=MARK_COLOR,
                linewidth=0.0,
            )
    # shares take the lower part of the axes, counts the upper one: one axes
    # (and its twin) that a layout manager places like any other
    ax.set_ylim(0.0, 1.0 / SHARES_HEIGHT)
    ax.set_xlim(-0.6, n_parts - 0.4)
    ax.yaxis.set_major_locator(FixedLocator(np.linspace(0.0, 1.0, 6)))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.spines["left"].set_bounds(0.0, 1.0)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_ylabel("class share", y=SHARES_HEIGHT / 2)
    ax.set_xlabel({"categorical": "group", "numeric": "interval"}.get(kind, "part"))


def _draw_counts(ax, counts, hatches):
    """Count bars in an inset over the upper part of ``ax``, sharing its x."""
    from matplotlib.ticker import MaxNLocator

    n_parts = len(counts)
    top = ax.inset_axes(
        [0.0, SHARES_HEIGHT + 0.05, 1.0, 0.95 - SHARES_HEIGHT], sharex=ax
    )
    top.patch.set_visible(False)
    bars = top.bar(
        np.arange(n_parts),
        counts,
        BAR_WIDTH,
        color="0.62",
        edgecolor="white",
        linewidth=0.6 if n_parts <= 40 else 0.0,
    )
    for part, hatch in enumerate(hatches):
        if hatch:
            bars[part].set_hatch(hatch)
            bars[part].set_edgecolor(MARK_COLOR)
    if n_parts <= 25:
        top.bar_label(
            bars, labels=[_count_text(c) for c in counts], fontsize=7, padding=1.5
        )
    peak = float(counts.max()) if n_parts and counts.max() > 0 else 1.0
    top.set_ylim(0.0, peak * 1.25)
    top.yaxis.set_major_locator(MaxNLocator(3, integer=True, prune="lower"))
    top.set_ylabel("count")
    top.tick_params(axis="x", labelbottom=False, length=0)
    for side in ("top", "right"):
        top.spines[side].set_visible(False)
    return top


def _draw_woe(ax, woe):
    """The WoE line on a twin of ``ax``, on the height of the shares."""
    from matplotlib.ticker import FixedLocator, MaxNLocator

    woe = np.where(np.isfinite(woe), woe, np.nan)
    finite = woe[np.isfinite(woe)]
    reach = 1.1 * max(float(np.max(np.abs(finite))) if finite.size else 1.0, 0.1)
    twin = ax.twinx()
    (line,) = twin.plot(
        np.arange(len(woe)),
        woe,
        color="black",
        marker="o",
        markersize=4,
        linewidth=1.3,
        label="WoE",
    )
    twin.axhline(0.0, xmax=1.0, color="black", linewidth=0.6, linestyle=":")
    # the axis spans [-reach, reach] over the shares' height
    twin.set_ylim(-reach, -reach + 2 * reach / SHARES_HEIGHT)
    ticks = MaxNLocator(5, symmetric=True).tick_values(-reach, reach)
    twin.yaxis.set_major_locator(FixedLocator(ticks[np.abs(ticks) <= reach]))
    twin.spines["right"].set_bounds(-reach, reach)
    twin.spines["top"].set_visible(False)
    twin.set_ylabel("weight of evidence (WoE)", y=SHARES_HEIGHT / 2)
    return line


def _draw_tick_labels(ax, table):
    """Part labels on the x axis, thinned, wrapped or turned to stay legible."""
    n_parts = len(table)
    x = np.arange(n_parts)
    # every k-th part labelled when too many for one label each
    step = max(1, math.ceil(n_parts / MAX_TICK_LABELS))
    shown = x[::step]
    fontsize = 9 if n_parts <= 12 else 8 if n_parts <= 30 else 7
    width_points = 72.0 * ax.get_position().width * ax.figure.get_figwidth()
    marks = _marks(table)
    labels, turn = _tick_labels(
        [str(table["label"].iloc[i]) for i in shown],
        [marks[i] for i in shown],
        step * width_points / max(n_parts, 1),
        fontsize,
    )
    ax.set_xticks(shown, labels, fontsize=fontsize, **turn, **PLAIN_TEXT)


# The rules the HTML report's SVG plots share with these matplotlib plots
# (partikit/_reporting/_svg.py), under public names: one title, one set of
# tick-label rules, one count format for both. Aliases rather than renames so
# that this module's own names stay as they are.
count_text = _count_text
figure_text = _figure_text
part_marks = _marks
tick_labels = _tick_labels
title_text = _title
