# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
import io
import subprocess
import sys

from partikit.__main__ import demo, main


def test_demo_prints_groups_and_recovers_hidden_grouping():
    """Check that the demo prints the groups, a perfect recovery of the hidden
    grouping and one group for the noise column."""
    out = io.StringIO()
    demo(n_samples=20_000, random_state=0, out=out)
    text = out.getvalue()
    assert "Column 'category': 24 categories -> 4 group(s)" in text
    assert "adjusted Rand index with the hidden grouping: 1.000" in text
    assert "Column 'noise_0': 24 categories -> 1 group(s)" in text
    assert "MaxCutGrouper().fit on 'category'" in text and "  group 1: " in text


def test_demo_discretization_recovers_hidden_cut_points():
    """Check that the demo's discretization part prints the hidden cut points, and
    that both discretizers find 8 intervals close to them and one interval for the
    noise column."""
    out = io.StringIO()
    demo(n_samples=20_000, random_state=0, out=out)
    text = out.getvalue()
    assert "Discretization: 100000 rows" in text
    assert "hidden cut points: 0.1113 0.2509 0.3700" in text
    for label in ["MDLPDiscretizer()", "BlockOptDiscretizer(exact_limit=256)"]:
        part = text.split(f"{label}.fit took")[1].split("\n\n")[0]
        assert "Column 'x': 8 interval(s), cut points 0.1113 0.2509" in part
        assert "Column 'noise': 1 interval(s)" in part
        error = float(part.rsplit("to a cut found: ", 1)[1])
        assert error < 1e-3


def test_demo_aggregation_finds_the_five_tests():
    """Check that the demo's aggregation part finds the five tests and groups
    their combinations by their number of positive tests."""
    out = io.StringIO()
    demo(n_samples=20_000, random_state=0, out=out)
    text = out.getvalue().split("Aggregation:")[1].split("Tree:")[0]
    assert "aggregate test_0*test_1*test_2*test_3*test_4: 32 combinations" in text
    assert "noise" not in text.split("took")[1]
    groups = [line for line in text.splitlines() if "    group " in line]
    assert len(groups) >= 2


def test_demo_tree_beats_one_hot_with_few_leaves():
    """Check that the demo's tree part groups the 300 categories into the 3 hidden
    groups with khiops (3 leaves) and beats a one-hot scikit-learn tree."""
    out = io.StringIO()
    demo(n_samples=20_000, random_state=0, out=out)
    text = out.getvalue().split("Tree:")[1]
    accuracies = [float(a.split()[0]) for a in text.split("test accuracy ")[1:]]
    assert len(accuracies) == 3
    assert min(accuracies[:2]) > accuracies[2] + 0.02
    assert "3 leaves" in text.split("'khiops'")[1]
    assert text.count("|--- category in {") == 3


def test_module_entry_point_runs():
    """Check `python -m partikit demo` end to end in a subprocess."""
    completed = subprocess.run(
        [sys.executable, "-m", "partikit", "demo", "--n-samples", "5000"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr
    assert "group(s)" in completed.stdout
    assert "Column 'noise': 1 interval(s)" in completed.stdout


def test_main_requires_a_command(capsys):
    """Check that a missing command is a usage error."""
    try:
        main([])
    except SystemExit as exc:
        assert exc.code == 2
    assert "usage" in capsys.readouterr().err
