# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The ``partikit report`` command: files written, one-line errors, plain help."""

import io
import json
import os
import stat
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from partikit.__main__ import build_parser, main
from partikit._reporting._command import ProgressBar, read_table, terminal_text
from partikit._reporting._report import Report
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
        ("a,churn\n1,x\n2,y\n", ["--target", "churn", "--columns", ""],
         "--columns names no column"),
        ("a,churn\ninf,x\ninf,y\n", ["--target", "churn"], "infinity"),
        ("a,churn\n1,x\n2,y\n", ["--target", "churn", "--sep", ""],
         "--sep is empty"),
        ("a,churn\n1,x\n2,y\n", ["--target", "churn\x1b[2J\nx"],
         "target column 'churn\\x1b[2J\\nx' is not"),
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
                   "--numeric", "--grouper", "--discretizer", "--sep",
                   "--na-values"):  # fmt: skip
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


def _outputs(tmp_path):
    return {"--out": tmp_path / "r.html", "--json": tmp_path / "m.json",
            "--sql": tmp_path / "m.sql"}  # fmt: skip


@pytest.mark.parametrize("option", ["--out", "--json", "--sql"])
@pytest.mark.parametrize("spelling", ["same", "relative", "link"])
def test_an_output_naming_the_input_is_refused(
    csv_path, tmp_path, capsys, monkeypatch, option, spelling
):
    """Check an output that is the data, however spelled, is refused: data kept."""
    before = csv_path.read_bytes()
    path = str(csv_path)
    if spelling == "relative":
        monkeypatch.chdir(tmp_path)
        path = os.path.join(".", csv_path.name)
    elif spelling == "link":
        path = str(tmp_path / "link.csv")
        os.symlink(csv_path, path)
    status = main(["report", str(csv_path), "--target", "churn", option, path])
    err = capsys.readouterr().err
    assert status == 1
    assert f"{option} {path} is the input" in err and err.count("\n") == 1
    assert csv_path.read_bytes() == before


def test_two_outputs_naming_one_file_are_refused(csv_path, tmp_path, capsys):
    """Check --out and --json naming one file is refused before any work."""
    path = str(tmp_path / "same.txt")
    status = main(
        ["report", str(csv_path), "--target", "churn", "--out", path, "--json", path]
    )
    assert status == 1
    assert "--json" in capsys.readouterr().err
    assert not os.path.exists(path)


def test_existing_outputs_survive_a_mapping_that_cannot_be_written(
    csv_path, tmp_path, capsys, monkeypatch
):
    """Check a failed SQL leaves every existing output as it was, and says so."""
    outputs = _outputs(tmp_path)
    for path in outputs.values():
        path.write_text("old")

    def failing_sql(self, table, *, values=None):
        raise ValueError("this mapping has no SQL")

    monkeypatch.setattr(Report, "to_sql", failing_sql)
    arguments = [str(a) for pair in outputs.items() for a in pair]
    status = main(["report", str(csv_path), "--target", "churn", *arguments])
    err = capsys.readouterr().err
    assert status == 1
    assert "nothing written: this mapping has no SQL" in err
    assert all(path.read_text() == "old" for path in outputs.values())
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["data.csv", "r.html", "m.json", "m.sql"]
    )


def test_an_existing_output_survives_a_failed_write(
    csv_path, tmp_path, capsys, monkeypatch
):
    """Check a write that fails names the file, keeps the old one, leaves no
    temporary file."""
    html = tmp_path / "r.html"
    html.write_text("old")
    os.chmod(html, 0o640)

    def failing_replace(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    status = main(["report", str(csv_path), "--target", "churn", "--out", str(html)])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip().endswith(f"cannot write {html}: No space left on device")
    assert html.read_text() == "old"
    assert sorted(os.listdir(tmp_path)) == ["data.csv", "r.html"]
    monkeypatch.undo()
    # written whole, the file keeps its permissions
    assert main(["report", str(csv_path), "--target", "churn", "--out", str(html)]) == 0
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert stat.S_IMODE(os.stat(html).st_mode) == 0o640


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0,
    reason="permissions do not stop root (or this system) from writing",
)
def test_a_read_only_folder_names_the_file(csv_path, tmp_path, capsys):
    """Check a folder that cannot be written gives one line naming the file."""
    folder = tmp_path / "read_only"
    folder.mkdir()
    os.chmod(folder, 0o555)
    try:
        path = folder / "m.json"
        status = main(
            ["report", str(csv_path), "--target", "churn", "--json", str(path)]
        )
    finally:
        os.chmod(folder, 0o755)
    err = capsys.readouterr().err
    assert status == 1
    assert f"cannot write {path}: Permission denied" in err


def test_names_with_terminal_escape_codes_are_printed_escaped(tmp_path, capsys):
    """Check control characters of the file's names never reach the terminal raw."""
    path = tmp_path / "escapes.csv"
    rng = np.random.default_rng(0)
    name, target = "a\x1b[31mRED\x08b", "y\x1b]0;title\x07"
    pd.DataFrame({
        name: rng.choice(["u", "v"], 200), "\u202eevil": rng.normal(size=200),
        target: rng.integers(0, 2, 200),
    }).to_csv(path, index=False)  # fmt: skip
    status = main(["report", str(path), "--target", target, "--json",
                   str(tmp_path / "m\x1b[0m.json")])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0, captured.err
    shown = captured.out + captured.err
    assert all(c.isprintable() for c in shown.replace("\n", ""))
    for text in (name, target, "\u202eevil", "m\x1b[0m.json"):
        assert terminal_text(text) in shown
    assert terminal_text(name) == "a\\x1b[31mRED\\x08b"


@pytest.mark.parametrize("sep", [";", "::", "||", "\t", "\\t", ". "])
def test_any_separator_reads_as_the_comma(csv_path, tmp_path, capsys, sep):
    """Check one- and several-character separators give the comma's report."""
    frame = pd.read_csv(csv_path)
    path = tmp_path / "other.csv"
    written = "\t" if sep == "\\t" else sep
    path.write_text(
        "\n".join(written.join(map(str, row)) for row in
                  [frame.columns, *frame.itertuples(index=False)]) + "\n"
    )  # fmt: skip
    pd.testing.assert_frame_equal(read_table(str(path), sep=sep), frame)
    assert main(["report", str(path), "--target", "churn", "--sep", sep]) == 0
    with_sep = capsys.readouterr().out
    assert main(["report", str(csv_path), "--target", "churn"]) == 0
    assert with_sep.splitlines()[1:] == capsys.readouterr().out.splitlines()[1:]


def test_na_values_are_read_as_missing(tmp_path, capsys):
    """Check --na-values: adult's "?" is a missing value, also in the target."""
    path = tmp_path / "adult.csv"
    rng = np.random.default_rng(0)
    work = rng.choice(["Private", "?", "State-gov"], 300)
    income = rng.choice(["<=50K", ">50K"], 300).astype(object)
    income[:3] = "?"
    pd.DataFrame({"workclass": work, "income": income}).to_csv(path, index=False)
    frame = read_table(str(path), na_values=["?", "State-gov"])
    assert frame["workclass"].isna().sum() == np.isin(work, ["?", "State-gov"]).sum()
    assert read_table(str(path))["workclass"].isna().sum() == 0
    mapping = tmp_path / "m.json"
    status = main(["report", str(path), "--target", "income", "--na-values", "?",
                   "--json", str(mapping)])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0
    assert "3 rows with a missing target are left out" in captured.err
    assert captured.out.startswith("297 rows")
    assert "?" not in mapping.read_text(encoding="utf-8")


def test_na_values_in_parquet(tmp_path):
    """Check --na-values also applies to the text columns of a Parquet file."""
    pytest.importorskip("pyarrow")
    path = tmp_path / "data.parquet"
    pd.DataFrame({"a": ["x", "?", "y"], "b": [1.0, 2.0, 3.0]}).to_parquet(path)
    frame = read_table(str(path), na_values=["?"])
    assert frame["a"].isna().tolist() == [False, True, False]
    assert frame["b"].tolist() == [1.0, 2.0, 3.0]


def test_a_folder_that_is_a_file_names_the_output(csv_path, tmp_path, capsys):
    """Check an output whose folder cannot hold it gives one line naming it."""
    path = csv_path / "m.json"  # the data file is no folder, even for root
    status = main(["report", str(csv_path), "--target", "churn", "--json", str(path)])
    err = capsys.readouterr().err
    assert status == 1 and err.count("\n") == 1
    assert f"cannot write {path}: Not a directory" in err


def test_mathtext_in_the_data_is_reported_literally(tmp_path, capsys):
    """Check ``$`` in a column name and categories: HTML written, names as read."""
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(0)
    category = rng.choice([r"$\foo$", "plain"], 300)
    y = np.where((category == "plain") ^ (rng.random(300) < 0.1), "yes", "no")
    path = tmp_path / "math.csv"
    pd.DataFrame({r"$\bar$": category, "y": y}).to_csv(path, index=False)
    html = tmp_path / "r.html"
    status = main(["report", str(path), "--target", "y", "--out", str(html)])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert r"$\bar$" in captured.out
    assert r"$\foo$" in html.read_text(encoding="utf-8")
