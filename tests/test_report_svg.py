"""Tests of the HTML report's plots, written as SVG from the partition tables."""

import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from partikit import report
from partikit._reporting._svg import nice_ticks, partition_svg

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = ["</svg><script>alert(1)</script>", "$\\foo$", "a & b < c", 'it\'s "q"']


def _frame(n_samples=3000, n_classes=2, random_state=0):
    rng = np.random.default_rng(random_state)
    group = rng.integers(0, 4, n_samples)
    X = pd.DataFrame(
        {
            # hostile labels (informative: each is shown in its group's
            # label): markup that would close the SVG, and mathtext
            "$\\alpha$ </svg><b>": np.array(HOSTILE, dtype=object)[group],
            "income": rng.normal(size=n_samples) + group,
        }
    )
    X.loc[::37, "income"] = np.nan
    noisy = rng.random(n_samples) < 0.2
    y = np.where(noisy, rng.integers(0, n_classes, n_samples), group % n_classes)
    return X, y


def _plots(result):
    """Each column's SVG, parsed as XML (raises if not well-formed)."""
    text = result.to_html()
    pieces = text.split("<div class='pk-plot'>")[1:]
    assert len(pieces) == len(result.summary)
    return [ET.fromstring(piece.split("</div>")[0]) for piece in pieces]


@pytest.mark.parametrize("n_classes", [2, 3, 25])
def test_svg_is_xml_with_one_bar_per_part_and_shares_summing_to_one(n_classes):
    """Check each plot parses as XML, has one count bar and one stack per part,
    and that every non-empty part's class shares sum to 1."""
    X, y = _frame(n_classes=n_classes)
    result = report(X, y)
    for name, svg in zip(result.summary.index, _plots(result), strict=True):
        table = result.partition_table(name)
        counts = svg.findall(f".//{SVG}rect[@class='pk-count']")
        assert [int(r.get("data-part")) for r in counts] == list(range(len(table)))
        parts = svg.findall(f".//{SVG}g[@class='pk-part']")
        assert len(parts) == len(table)
        for part, row in zip(parts, table.itertuples(), strict=True):
            shares = [
                float(r.get("data-share"))
                for r in part.findall(f"{SVG}rect[@class='pk-share']")
            ]
            if row.count > 0:
                assert sum(shares) == pytest.approx(1.0, abs=1e-5)
            else:
                assert shares == []
        # the WoE line (a point per part, a line through two or more) only
        # for a binary target
        texts = ["".join(t.itertext()) for t in svg.iter(f"{SVG}text")]
        assert ("weight of evidence (WoE)" in texts) == (n_classes == 2)
        lines = svg.findall(f".//{SVG}polyline[@class='pk-woe']")
        with_woe = int(np.isfinite(table["woe"]).sum()) if "woe" in table else 0
        assert len(lines) == (n_classes == 2 and with_woe > 1)


def test_svg_escapes_hostile_labels_and_never_reads_maths():
    """Check that markup and mathtext in names and labels come out as text."""
    X, y = _frame()
    result = report(X, y)
    html = result.to_html()
    assert "<script" not in html
    assert html.count("<svg") == html.count("</svg>") == len(result.summary)
    texts = []
    for svg in _plots(result):
        assert svg.find(f".//{SVG}script") is None
        texts.append(" ".join("".join(t.itertext()) for t in svg.iter(f"{SVG}text")))
        texts += ["".join(t.itertext()) for t in svg.iter(f"{SVG}title")]
    everything = "\n".join(texts)
    # the name, in the title, as written (mathtext would have eaten the $)
    assert "$\\alpha$ </svg><b>" in everything
    for label in HOSTILE:
        assert label in everything


def test_svg_of_a_continuous_target_shows_means_and_spread():
    """Check a continuous target's plot: one mean bar per non-empty part at the
    part's mean, an error bar, and the overall mean in the legend."""
    X, y = _frame()
    target = y + np.random.default_rng(1).normal(size=len(y))
    result = report(X, target)
    assert result.continuous
    for name, svg in zip(result.summary.index, _plots(result), strict=True):
        table = result.partition_table(name)
        means = svg.findall(f".//{SVG}rect[@class='pk-mean']")
        filled = table[table["count"] > 0]
        assert [float(r.get("data-mean")) for r in means] == pytest.approx(
            filled["mean"].tolist(), rel=1e-5
        )
        legend = " ".join("".join(t.itertext()) for t in svg.iter(f"{SVG}text"))
        assert "overall mean" in legend


def test_svg_hatches_the_part_that_gets_missing_values_with_unique_ids():
    """Check the missing part is hatched, with pattern ids unique per plot."""
    X, y = _frame()
    result = report(X, y)
    html = result.to_html()
    ids = [i.split("'")[0] for i in html.split("<pattern id='")[1:]]
    assert len(ids) == len(set(ids)) == 2 * len(result.summary)
    table = result.partition_table("income")
    svg = ET.fromstring(
        partition_svg(table, feature="income", statistics={}, classes=["0", "1"])
    )
    hatched = svg.findall(f".//{SVG}rect[@class='pk-hatch-missing']")
    assert len(hatched) == 2 * int(table["missing"].sum())  # count and share bars


def test_report_never_imports_matplotlib():
    """Check that the command line's HTML report leaves matplotlib unimported
    (its import alone costs a good part of a second)."""
    code = (
        "import sys\n"
        "from partikit import report\n"
        "from partikit.datasets import make_credit\n"
        "X, y = make_credit(2000, random_state=0)[:2]\n"
        "report(X, y).to_html()\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True
    )
    assert completed.returncode == 0, completed.stderr[-2000:]


@settings(max_examples=200, deadline=None)
@given(
    st.floats(-1e6, 1e6, allow_nan=False),
    st.floats(1e-6, 1e6, allow_nan=False),
    st.integers(1, 8),
)
def test_nice_ticks_are_round_evenly_spaced_and_inside(low, span, n_ticks):
    """Check ticks lie in [low, high], step evenly by 1, 2, 2.5 or 5 x 10^k,
    and are at least about n_ticks / 2.5 of them."""
    # steps far below the float spacing of the values cannot be checked
    # from their differences
    assume(span > 1e-6 * max(abs(low), 1.0))
    high = low + span
    ticks = nice_ticks(low, high, n_ticks)
    tolerance = 1e-9 * max(abs(low), abs(high), span)
    assert all(low - tolerance <= t <= high + tolerance for t in ticks)
    assert len(ticks) >= 1
    if len(ticks) > 1:
        steps = np.diff(ticks)
        step = steps[0]
        np.testing.assert_allclose(steps, step, rtol=1e-6, atol=4 * tolerance)
        mantissa = step / 10 ** np.floor(np.log10(step))
        assert any(np.isclose(mantissa, m) for m in (1, 2, 2.5, 5, 10))
        # the brute force: no rounder step of the list gives more ticks than asked
        assert len(ticks) <= 2 * n_ticks + 1
