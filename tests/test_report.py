# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""partikit.report and Report: kinds, ranks, exports, the HTML as a browser sees it."""

import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile

import numpy as np
import pandas as pd
import pytest

from partikit import Report, report
from partikit._reporting._report import infer_kind
from partikit.datasets import make_grouped_categorical, make_k_of_n
from partikit.discretizers import KhiopsDiscretizer, MDLPDiscretizer, MODLDiscretizer
from partikit.groupers import CHAIDGrouper, MODLGrouper


def _frame(n_samples=4000, random_state=0):
    X, y, _ = make_grouped_categorical(
        n_samples=n_samples,
        n_categories=40,
        n_classes=2,
        n_noise_features=1,
        dtype="object",
        random_state=random_state,
    )
    rng = np.random.default_rng(random_state)
    X = X.copy()
    X["income"] = rng.normal(size=n_samples) + 1.5 * y
    X.loc[::53, "income"] = np.nan
    X["flag"] = rng.random(n_samples) < 0.3
    X['odd name, "quoted" é'] = rng.choice(["x'1", "y,2", "z"], n_samples)
    X["when"] = pd.Timestamp("2024-01-01")
    X["label"] = np.where(y == 1, "yes", "no")
    return X


def test_kinds_follow_the_documented_rule_and_overrides():
    """Check the inferred kinds, the skipped datetime column and the overrides."""
    assert infer_kind(pd.Series([1, 2])) == "numeric"
    assert infer_kind(pd.Series([1.5, np.nan])) == "numeric"
    assert infer_kind(pd.Series([1, None], dtype="Int64")) == "numeric"
    assert infer_kind(pd.Series([True, False])) == "categorical"
    assert infer_kind(pd.Series(["a", "b"], dtype="category")) == "categorical"
    assert infer_kind(pd.Series(["a", "b"], dtype="string")) == "categorical"
    assert infer_kind(pd.Series(pd.to_datetime(["2024-01-01"]))) is None
    X = _frame()
    with pytest.warns(UserWarning, match="'when': its dtype datetime64"):
        result = report(X, "label")
    assert result.target == "label"
    assert "label" not in result.summary.index
    assert set(result.skipped) == {"when"}
    kinds = result.summary["kind"]
    assert kinds["income"] == "numeric" and kinds["category"] == "categorical"
    assert kinds["flag"] == "categorical"
    assert isinstance(result.estimators["income"], MODLDiscretizer)
    assert isinstance(result.estimators["category"], MODLGrouper)

    overridden = report(
        X, "label", columns=["category", "income"], categorical=["income"]
    )
    assert list(overridden.summary.sort_index().index) == ["category", "income"]
    assert overridden.summary.loc["income", "kind"] == "categorical"
    with pytest.raises(ValueError, match="both categorical and numeric"):
        report(X, "label", categorical=["income"], numeric=["income"])
    with pytest.raises(ValueError, match=r"not in X: \['nope'\]"):
        report(X, "label", columns=["nope"])
    with pytest.raises(ValueError, match="y='churn' names no column of X"):
        report(X, "churn")
    with pytest.raises(TypeError, match="must be a partikit grouper"):
        report(X, "label", grouper=KhiopsDiscretizer())


def test_columns_are_ranked_and_fitted_as_their_estimator_alone():
    """Check the ranking across kinds and that each fit is the estimator's own."""
    X = _frame().drop(columns="when")
    y = X.pop("label")
    result = report(X, y, grouper=CHAIDGrouper(), discretizer=MDLPDiscretizer())
    overview = result.to_frame()
    assert overview["rank"].tolist() == list(range(1, len(overview) + 1))
    assert set(overview.index[:2]) == {"category", "income"}
    # CHAID is not robust: noise may keep a few groups, but ranks below
    assert overview.loc["noise_0", "rank"] > 2
    alone = CHAIDGrouper().fit(X[["category"]], y)
    pd.testing.assert_frame_equal(
        result.partition_table("category"), alone.partition_table(0)
    )
    alone = MDLPDiscretizer().fit(X[["income"]], y)
    np.testing.assert_array_equal(
        result.estimators["income"].bin_edges_[0], alone.bin_edges_[0]
    )
    assert list(result.classes) == ["no", "yes"]
    np.testing.assert_array_equal(
        result.class_counts, [(y == "no").sum(), (y == "yes").sum()]
    )
    parts = result.transform(X)
    assert list(parts.columns) == list(overview.index)
    np.testing.assert_array_equal(parts["income"], alone.transform(X[["income"]])[:, 0])


def test_zero_weight_rows_are_removed_rows():
    """Check that weight 0 is the same as removing the row, classes included."""
    X = _frame().drop(columns="when")
    y = X.pop("label").to_numpy().copy()
    weights = np.ones(len(y))
    weights[:10] = 0.0
    y[:10] = "ghost"
    result = report(X, y, sample_weight=weights)
    expected = report(X.iloc[10:], y[10:])
    assert list(result.classes) == ["no", "yes"]
    pd.testing.assert_frame_equal(
        result.summary.drop(columns=[]), expected.summary.drop(columns=[])
    )


def test_json_and_sql_exports_give_what_transform_gives():
    """Check the JSON document's columns and the SQL run in SQLite."""
    X = _frame().drop(columns="when")
    y = X.pop("label")
    result = report(X, y)
    document = json.loads(result.to_json())
    assert document["schema"] == "partikit.mapping"
    assert [c["name"] for c in document["columns"]] == list(result.summary.index)
    assert document["target"] == "label"
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "mapping.json")
        result.to_json(path)
        with open(path, encoding="utf-8") as file:
            assert json.load(file) == document
    connection = sqlite3.connect(":memory:")
    X.to_sql("my data", connection, index=False)
    rows = connection.execute(result.to_sql("my data")).fetchall()
    from_sql = pd.DataFrame(rows, columns=list(result.summary.index))
    pd.testing.assert_frame_equal(from_sql, result.transform(X), check_dtype=False)


def test_pairs_lists_the_columns_worth_combining():
    """Check that the pair search finds pairs of the k-of-n tests."""
    X, y = make_k_of_n(n_samples=4000, n_tests=3, k=2, random_state=0)[:2]
    result = report(X, y, pairs=True)
    assert result.pairs is not None and len(result.pairs) >= 1
    assert (result.pairs["gain"] > 0).all()
    assert all(len(members) == 2 for members in result.pairs["members"])
    assert "Pairs worth combining" in result.to_html()
    assert report(X, y).pairs is None


def test_html_is_one_self_contained_file():
    """Check the HTML holds every column, its parts and plot, and loads nothing."""
    X = _frame()
    with pytest.warns(UserWarning, match="left out"):
        result = report(X, "label")
    text = result.to_html()
    assert text.startswith("<!DOCTYPE html>")
    for name in result.summary.index:
        assert _html_text(name) in text
        for label in result.partition_table(name)["label"]:
            assert _html_text(label) in text
    assert text.count("<svg") == len(result.summary)
    assert "when" in text and "neither numeric nor categorical" in text
    for forbidden in ("<script", "<link", "src=", "@import", "url(http"):
        assert forbidden not in text
    assert re.search(r"MODLGrouper\(\)", text)
    fragment = result._repr_html_()
    assert "<html" not in fragment and "<style>" in fragment
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "report.html")
        assert result.to_html(path) == open(path, encoding="utf-8").read()


def _html_text(value, quote=True):
    import html

    return html.escape(str(value), quote=quote)


def test_html_needs_no_matplotlib(monkeypatch):
    """Check that the report's plots are drawn without matplotlib (inline SVG
    written from the partition tables)."""
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    X = _frame().drop(columns="when")
    result = report(X, "label")
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    text = result.to_html()
    assert text.count("<svg") == len(result.summary)
    assert "category" in text


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _run_chromium(*args):
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
        "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync",
    ]  # fmt: skip
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [_chromium(), *flags, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )


@pytest.mark.skipif(
    _chromium() is None,
    reason="no headless browser: install Debian's chromium (.ci/run does when "
    "apt-get is available) to render the HTML report as a person sees it",
)
def test_html_renders_in_a_real_browser():
    """Render the report in headless Chromium: a non-blank page, every column."""
    image = pytest.importorskip("PIL.Image")
    X = _frame().drop(columns="when")
    result = report(X, "label")
    with tempfile.TemporaryDirectory() as folder:
        page = os.path.join(folder, "report.html")
        shot = os.path.join(folder, "shot.png")
        result.to_html(page)
        completed = _run_chromium("--dump-dom", f"file://{page}")
        assert completed.returncode == 0, completed.stderr[-2000:]
        dom = completed.stdout
        _run_chromium(
            f"--screenshot={shot}", "--window-size=1200,3000", f"file://{page}"
        )
        pixels = np.asarray(image.open(shot).convert("L"), dtype=float)
    assert pixels.std() > 10, "the screenshot is blank"
    # dark text and coloured bars, not only the white page
    assert (pixels < 128).mean() > 0.005
    # a browser writes text back with quotes as they are
    for name in result.summary.index:
        assert _html_text(name, quote=False) in dom
        table = result.partition_table(name)
        for label in table["label"]:
            assert _html_text(label, quote=False) in dom
    # the browser parsed the partition tables: as many rows as parts
    sections = dom.split("<section")[1:]
    assert len(sections) == len(result.summary)
    for section, name in zip(sections, result.summary.index, strict=True):
        n_parts = len(result.partition_table(name))
        partition = section.split('class="pk-partition"')[1].split("</table>")[0]
        assert partition.count("<tr>") == n_parts + 1
        assert section.count("<svg") == 1


def test_report_repr_and_unknown_column():
    """Check the Report's repr and the error for a column it does not hold."""
    X = _frame().drop(columns="when")
    result = report(X, "label")
    assert isinstance(result, Report)
    assert "columns" in repr(result) and "label" in repr(result)
    with pytest.raises(ValueError, match="not in the report"):
        result.partition_table("nope")


def test_report_fits_through_the_public_route(monkeypatch):
    """Check that the report counts every column once with column_tables, fits
    each column's estimator by fit_tables (through PartitionEncoder, its one
    code path), and calls no private method of an estimator."""
    import ast
    import inspect

    from partikit._reporting import _encoder, _report

    tree = ast.parse(inspect.getsource(_report))
    private = sorted(
        {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id == "self")
        }
    )
    assert private == []
    counted, fitted = [], []
    count = _encoder.column_tables
    monkeypatch.setattr(
        _encoder,
        "column_tables",
        lambda *args, **kwargs: counted.append(kwargs) or count(*args, **kwargs),
    )
    for cls in (MODLGrouper, MODLDiscretizer):
        fit_tables = cls.fit_tables
        monkeypatch.setattr(
            cls,
            "fit_tables",
            lambda self, tables, f=fit_tables: fitted.append(tables) or f(self, tables),
        )
    X = _frame().drop(columns="when")
    result = report(X, "label")
    assert len(counted) == 1
    assert counted[0]["categorical_features"] == [
        name for name in X.columns if name not in ("income", "label")
    ]
    assert [list(t.feature_names) for t in fitted] == [
        [name] for name in X.columns if name != "label"
    ]
    assert len(result.estimators) == len(fitted)


def test_a_column_that_cannot_be_counted_is_left_out_with_its_reason():
    """Check that a column refused by column_tables (strings named numeric) is
    skipped, and the other columns reported as without it."""
    X = _frame().drop(columns="when")
    with pytest.warns(UserWarning, match="left out of the report"):
        result = report(X, "label", numeric=["category"])
    assert "non-numeric" in result.skipped["category"]
    expected = report(X.drop(columns="category"), "label")
    pd.testing.assert_frame_equal(result.summary, expected.summary)
