# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The ``partikit report`` command: files written, one-line errors, plain help."""

import io
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from partikit.__main__ import build_parser, main
from partikit._reporting._command import ProgressBar
from partikit._version import __version__
from partikit.datasets import make_grouped_categorical


@pytest.fixture
def csv_path(tmp_path):
    X, y, _ = make_grouped_categorical(
        n_samples=3000, n_categories=30, n_classes=2, n_noise_features=1,
        dtype="object", random_state=0,
    )  # fmt: skip
    rng = np.random.default_rng(0)
    X["amount"] = (rng.normal(size=len(X)) + y).round(3)
    X["zip"] = rng.integers(1000, 1010, len(X))
    X["churn"] = np.where(y == 1, "yes", "no")
    path = tmp_path / "data.csv"
    X.to_csv(path, index=False)
    return path


def test_report_prints_the_ranking_and_writes_the_files(csv_path, tmp_path, capsys):
    """Check the console overview and the HTML, JSON and SQL files."""
    html, mapping, sql = (tmp_path / n for n in ("r.html", "m.json", "m.sql"))
    status = main([
        "report", str(csv_path), "--target", "churn", "--out", str(html),
        "--json", str(mapping), "--sql", str(sql), "--sql-table", "events",
    ])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0, captured.err
    lines = captured.out.splitlines()
    assert lines[0].startswith("3,000 rows, 4 columns against 'churn'")
    ranked = [line.split()[0] for line in lines[3:7]]
    assert ranked[0] in ("category", "amount")
    assert set(ranked) == {"category", "amount", "noise_0", "zip"}
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    document = json.loads(mapping.read_text(encoding="utf-8"))
    assert {c["name"] for c in document["columns"]} == set(ranked)
    assert document["target"] == "churn"
    assert 'FROM "events"' in sql.read_text(encoding="utf-8")
    assert captured.err == ""  # no terminal: no progress bar


def test_flags_choose_columns_kinds_and_methods(csv_path, capsys):
    """Check --columns, --categorical, --grouper and --discretizer."""
    status = main([
        "report", str(csv_path), "--target", "churn", "--columns", "category,zip",
        "--categorical", "zip", "--grouper", "chaid", "--discretizer", "mdlp",
    ])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 0
    rows = {line.split()[0]: line.split() for line in out.splitlines()[3:]}
    assert set(rows) == {"category", "zip"}
    assert rows["zip"][2] == "categorical"


@pytest.mark.parametrize(
    "content, arguments, message",
    [
        (None, ["--target", "churn"], "no such file"),
        ("", ["--target", "churn"], "is empty"),
        ("a,churn\n", ["--target", "churn"], "has a header but no rows"),
        (b"\xff\xfe\x00\x81binary", ["--target", "churn"], "cannot read"),
        ("a,churn\n1,x\n2,x\n", ["--target", "churn"], "has 1 class(es)"),
        ("a,churn\n1,x\n2,y\n", ["--target", "nope"], "target column 'nope' is not"),
        ("a,churn\n1,x\n2,y\n", ["--target", "churn", "--columns", "b"],
         "not in X: ['b']"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_a_non_zero_exit(
    tmp_path, capsys, content, arguments, message
):
    """Check each user error: exit status 1 and one line on stderr."""
    path = tmp_path / "input.csv"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    status = main(["report", str(path), *arguments])
    err = capsys.readouterr().err
    assert status == 1
    assert err.count("\n") == 1 and err.startswith("partikit report: error: ")
    assert message in err


def test_parquet_is_read_when_pyarrow_is_installed(csv_path, tmp_path, capsys):
    """Check a Parquet file gives the same report as its CSV."""
    pytest.importorskip("pyarrow")
    path = tmp_path / "data.parquet"
    pd.read_csv(csv_path).to_parquet(path)
    assert main(["report", str(path), "--target", "churn"]) == 0
    from_parquet = capsys.readouterr().out
    assert main(["report", str(csv_path), "--target", "churn"]) == 0
    from_csv = capsys.readouterr().out
    assert from_parquet.splitlines()[1:] == from_csv.splitlines()[1:]


def test_version_and_plain_help_describing_every_option(capsys):
    """Check --version, and that every option of every command has a help text."""
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"partikit {__version__}"
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    assert set(commands) == {"demo", "report"}
    assert "synthetic data" in commands["demo"].description
    for name, command in [("partikit", parser), *commands.items()]:
        for action in command._actions:
            assert action.help, f"{name}: option {action.dest} has no help"
        text = command.format_help()
        assert "\x1b" not in text  # plain text, no terminal colours
    for option in ("--out", "--json", "--sql", "--values", "--columns", "--categorical",
                   "--numeric", "--grouper", "--discretizer", "--sep"):  # fmt: skip
        assert option in commands["report"].format_help()


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_only_on_a_terminal():
    """Check the bar is drawn on a terminal and nothing is written elsewhere."""
    pipe = io.StringIO()
    ProgressBar(pipe)(1, 2, "a")
    assert pipe.getvalue() == ""
    terminal = _Terminal()
    bar = ProgressBar(terminal, width=10)
    bar(1, 2, "first")
    assert "[#####.....] 1/2 first" in terminal.getvalue()
    bar(2, 2, "second")
    assert terminal.getvalue().endswith("\r")


def test_module_runs_the_report_command(csv_path, tmp_path):
    """Check ``python -m partikit report`` end to end in a subprocess."""
    out = tmp_path / "report.html"
    completed = subprocess.run(
        [sys.executable, "-m", "partikit", "report", str(csv_path),
         "--target", "churn", "--out", str(out), "--sep", ","],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "wrote" in completed.stdout and out.exists()
