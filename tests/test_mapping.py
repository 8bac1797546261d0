# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The mapping document and its SQL give exactly what transform gives.

The proof that a system without partikit can apply a document is
:func:`apply_document`, written with the standard library's ``csv`` only: it
reads the CSV text and the document's JSON and never sees numpy, pandas or
partikit.
"""

import csv
import io
import json
import math
import sqlite3

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.preprocessing import StandardScaler

from partikit import (
    BlockOptDiscretizer,
    CHAIDGrouper,
    KhiopsDiscretizer,
    KhiopsGrouper,
    MaxCutGrouper,
    MDLPDiscretizer,
)
from partikit._reporting._mapping import (
    FALSE_VALUES,
    NA_VALUES,
    TRUE_VALUES,
    column_mapping,
    mapping_document,
    mapping_sql,
)

# ---------------------------------------------------------------------------
# A consumer of the document, as a Java or Go engineer would write it from the
# user guide: the standard library's csv module and plain Python values only.


class UnknownValueError(ValueError):
    """A value the document rejects (where transform raises)."""


def _text_value(field, value_type, text_input):
    """The value a field of CSV text stands for, or ``_UNKNOWN``."""
    if value_type == "string":
        return field
    if value_type == "boolean":
        if field in text_input["true_values"]:
            return True
        if field in text_input["false_values"]:
            return False
        return _UNKNOWN
    if value_type in ("integer", "float"):
        # numeric categories compare as numbers: 1, 1.0 and 1e0 are one value
        for parse in (int, float) if value_type == "integer" else (float,):
            try:
                return parse(field)
            except ValueError:
                continue
    return _UNKNOWN


_UNKNOWN = object()


def _categorical_applier(column, text_input):
    group_of = {}
    for group in column["groups"]:
        for value in group["values"]:
            group_of[value] = group["id"]

    def apply(field):
        if field in text_input["na_values"]:
            part = column["missing_group"]
        else:
            value = _text_value(field, column["value_type"], text_input)
            part = group_of.get(value) if value is not _UNKNOWN else None
            if part is None:
                part = column["unknown_group"]
        if part is None:
            raise UnknownValueError(f"{column['name']}: {field!r}")
        return part

    return apply


def _numeric_applier(column, text_input):
    cuts = column["cuts"]

    def apply(field):
        if field in text_input["na_values"]:
            return column["missing_bin"]
        if field in text_input["true_values"] + text_input["false_values"]:
            x = 1.0 if field in text_input["true_values"] else 0.0
        else:
            x = float(field)
        # version 2: a special value goes to its part whatever the cuts
        for part in column.get("special_parts", []):
            if x in part["values"]:
                return part["id"]
        # cuts[m-1] < x <= cuts[m] is bin m: the number of cuts below x
        return sum(1 for cut in cuts if cut < x)

    return apply


def apply_document(document_json, csv_text):
    """Every column's part id for every row of a CSV text, as lists of ints."""
    document = json.loads(document_json)
    assert document["schema"] == "partikit.mapping"
    assert document["version"] in (1, 2)
    text_input = document["text_input"]
    rows = list(csv.reader(csv_text.splitlines(keepends=True)))
    header, rows = rows[0], rows[1:]
    appliers = []
    for column in document["columns"]:
        make = (
            _categorical_applier
            if column["kind"] == "categorical"
            else _numeric_applier
        )
        appliers.append((header.index(column["name"]), make(column, text_input)))
    return [[apply(row[index]) for index, apply in appliers] for row in rows]


# ---------------------------------------------------------------------------
# Data: every kind of categorical column, odd names and odd categories.

CITIES = [
    "Zürich",
    'O"Brien, Jr.',
    "a,b",
    "it's",
    "日本",
    "plain",
    " padded ",
    "two\nlines",
    "semi;colon",
    "rare one",
]
CATEGORICAL = ["city name", "n'int", 'float "cat"', "flag"]
NUMERIC = ["x one", "x2 ü"]


def _frame(rng, n_samples):
    """Columns whose classes follow hidden groups and intervals, with NaN."""
    weights = np.array([1.0] * 9 + [0.05])
    city = rng.choice(len(CITIES), n_samples, p=weights / weights.sum())
    integers = rng.integers(1, 7, n_samples)
    floats = rng.choice([0.1, 0.25, 1e-3, 2.5, 3.0], n_samples)
    flag = rng.integers(0, 2, n_samples)
    x_one = rng.normal(size=n_samples) * 3
    x_two = rng.integers(0, 50, n_samples)
    logits = np.zeros((n_samples, 3))
    rows = np.arange(n_samples)
    logits[rows, city % 3] += 1.5
    logits[rows, integers % 3] += 1.2
    logits[rows, (floats * 4).astype(int) % 3] += 1.2
    logits[rows, flag * 2] += 1.2
    logits[rows, np.digitize(x_one, [-1.0, 2.0])] += 1.5
    logits[rows, np.digitize(x_two, [15, 30])] += 1.5
    y = (logits + rng.gumbel(size=logits.shape)).argmax(axis=1)
    frame = pd.DataFrame(
        {
            "city name": np.array(CITIES, dtype=object)[city],
            "n'int": integers,
            'float "cat"': floats,
            "flag": (flag == 1).astype(object),
            "x one": x_one,
            "x2 ü": x_two,
            "y": np.array(["low", "mid", "high"])[y],
        }
    )
    for name in ("city name", 'float "cat"', "flag", "x one"):
        frame.loc[rng.random(n_samples) < 0.08, name] = np.nan
    return frame


def _unseen_frame(rng):
    """New rows: unseen categories, missing values where fit saw none, and
    numbers beyond the training range."""
    frame = _frame(rng, 120)
    frame["n'int"] = frame["n'int"].astype(object)
    frame.loc[:9, "city name"] = ["Ünseen", "x'y\"z", "zürich", "plain ", "NA-ish"] * 2
    frame.loc[10:19, "n'int"] = [99, -5, 0, 7, None] * 2
    frame.loc[20:24, 'float "cat"'] = [7.75, 0.2, 1e-4, 2.5000001, -0.1]
    frame.loc[25:34, "x one"] = [-1e6, 1e6, -1e-300, 5e300, 0.0] * 2
    frame.loc[35:39, "x2 ü"] = [-1000, 1000, 50, -1, 10**15]
    return frame


@pytest.fixture(scope="module")
def csv_texts():
    """The training CSV and the CSV of new rows, as pandas writes them."""
    rng = np.random.default_rng(0)
    return _frame(rng, 1500).to_csv(index=False), _unseen_frame(rng).to_csv(index=False)


def _read(text):
    return pd.read_csv(io.StringIO(text))


ESTIMATOR_PAIRS = [
    (KhiopsGrouper(), KhiopsDiscretizer()),
    (CHAIDGrouper(), MDLPDiscretizer()),
    (MaxCutGrouper(), BlockOptDiscretizer()),
]


def _fit(grouper, discretizer, train):
    grouper = clone(grouper).fit(train[CATEGORICAL], train["y"])
    discretizer = clone(discretizer).fit(train[NUMERIC], train["y"])
    return grouper, discretizer


def _transform(grouper, discretizer, frame):
    out = np.hstack(
        [grouper.transform(frame[CATEGORICAL]), discretizer.transform(frame[NUMERIC])]
    )
    assert np.array_equal(out, np.round(out))
    return out.astype(int).tolist()


def _pair_id(pair):
    return "-".join(type(estimator).__name__ for estimator in pair)


@pytest.mark.parametrize("pair", ESTIMATOR_PAIRS, ids=_pair_id)
def test_plain_python_applies_the_document_as_transform(pair, csv_texts):
    """Check that the JSON document, applied to the CSV text by plain Python,
    gives transform's output, on the training file and on new rows."""
    train_text, new_text = csv_texts
    train = _read(train_text)
    grouper, discretizer = _fit(*pair, train)
    assert grouper.n_groups_.min() >= 2
    document = mapping_document(
        [grouper, discretizer],
        target="y",
        classes=grouper.classes_,
        settings={"grouper": grouper, "discretizer": discretizer.get_params()},
    )
    document_json = json.dumps(document)
    assert json.loads(document_json) == document
    for text in (train_text, new_text):
        expected = _transform(grouper, discretizer, _read(text))
        assert apply_document(document_json, text) == expected


def _sqlite(frame, table):
    connection = sqlite3.connect(":memory:")
    frame.to_sql(table, connection, index=False)
    return connection


@pytest.mark.parametrize("pair", ESTIMATOR_PAIRS, ids=_pair_id)
def test_sql_in_sqlite_gives_transform(pair, csv_texts):
    """Check that the SQL statement, run by SQLite on the data read from the
    CSV, gives transform's output."""
    train_text, new_text = csv_texts
    grouper, discretizer = _fit(*pair, _read(train_text))
    table = 'my "data", ü'
    sql = mapping_sql(mapping_document([grouper, discretizer]), table)
    for text in (train_text, new_text):
        frame = _read(text)
        rows = _sqlite(frame, table).execute(sql).fetchall()
        assert [list(row) for row in rows] == _transform(grouper, discretizer, frame)


def test_handle_unknown_error_is_kept(csv_texts):
    """Check that where transform raises (unknown values with
    handle_unknown="error"), plain Python raises and SQL gives NULL, and that
    both give transform's ids on every other row."""
    train_text, new_text = csv_texts
    train = _read(train_text)
    strict = KhiopsGrouper(handle_unknown="error").fit(train[CATEGORICAL], train.y)
    lenient = KhiopsGrouper().fit(train[CATEGORICAL], train.y)
    document = mapping_document([strict])
    assert all(column["unknown_group"] is None for column in document["columns"])
    assert apply_document(json.dumps(document), train_text) == _transform_groups(
        strict, train
    )
    new = _read(new_text)
    with pytest.raises(ValueError, match="unknown categories"):
        strict.transform(new[CATEGORICAL])
    with pytest.raises(UnknownValueError):
        apply_document(json.dumps(document), new_text)
    rows = _sqlite(new, "t").execute(mapping_sql(document, "t")).fetchall()
    expected = _transform_groups(lenient, new)
    n_null = 0
    for j, name in enumerate(CATEGORICAL):
        seen = {v for v in strict.categories_[j].tolist() if not pd.isna(v)}
        for row, wanted, value in zip(rows, expected, new[name], strict=True):
            missing = pd.isna(value)
            unknown = (missing and not _missing_seen(strict, j)) or (
                not missing and value not in seen
            )
            n_null += unknown
            assert row[j] == (None if unknown else wanted[j])
    assert n_null > 0


def _transform_groups(grouper, frame):
    return grouper.transform(frame[CATEGORICAL]).astype(int).tolist()


def _missing_seen(grouper, j):
    return bool(pd.isna(grouper.categories_[j][-1]))


def test_missing_not_seen_in_fit_follows_handle_unknown():
    """Check missing_group where fit saw no missing value: the default group,
    or None (transform raises) with handle_unknown="error"."""
    X = pd.DataFrame({"c": ["a", "b", "c", "d"] * 20})
    y = np.array([0, 1, 1, 0] * 20)
    X_new = pd.DataFrame({"c": ["a", None]})
    for handle_unknown in ("default_group", "error"):
        grouper = MaxCutGrouper(handle_unknown=handle_unknown).fit(X, y)
        mapping = column_mapping(grouper, 0)
        assert mapping["missing_seen"] is False
        if handle_unknown == "error":
            assert mapping["missing_group"] is None
            with pytest.raises(ValueError):
                grouper.transform(X_new)
        else:
            assert mapping["missing_group"] == mapping["default_group"]
            assert grouper.transform(X_new)[1, 0] == mapping["missing_group"]


def test_ordinal_column_keeps_its_order():
    """Check that a group lists its members in the order of categories_ (an
    ordinal column's own order) and that the SQL applies it as transform."""
    rng = np.random.default_rng(3)
    levels = ["low", "mid", "high", "top"]
    codes = rng.integers(0, 4, 800)
    y = (rng.random(800) < np.array([0.1, 0.15, 0.6, 0.65])[codes]).astype(int)
    values = pd.Categorical(np.array(levels)[codes], categories=levels, ordered=True)
    frame = pd.DataFrame({"size": values})
    grouper = CHAIDGrouper(ordinal="all").fit(frame, y)
    mapping = column_mapping(grouper, "size")
    members = [value for group in mapping["groups"] for value in group["values"]]
    assert members == levels == grouper.categories_[0].tolist()
    sql = mapping_sql(mapping_document([mapping]), "t")
    rows = _sqlite(frame.astype(str), "t").execute(sql).fetchall()
    assert [row[0] for row in rows] == grouper.transform(frame)[:, 0].tolist()


def test_boolean_text_in_a_numeric_column():
    """Check that booleans cut by a discretizer are 1 and 0, in the document
    as in transform."""
    text = "b,y\n" + "True,1\nFALSE,0\n" * 10 + "true,0\n,1\n"
    frame = _read(text)
    discretizer = MDLPDiscretizer().fit(frame[["b"]], frame["y"])
    document = json.dumps(mapping_document([discretizer]))
    expected = discretizer.transform(frame[["b"]]).astype(int).tolist()
    assert apply_document(document, text) == expected


def test_columns_without_values():
    """Check the mapping of columns fitted on missing values only: every
    present value is unknown (grouper), one bin and the missing bin
    (discretizer)."""
    X = pd.DataFrame({"c": [None] * 10, "x": [np.nan] * 10})
    y = np.array([0, 1] * 5)
    with pytest.warns(UserWarning):
        grouper = KhiopsGrouper().fit(X[["c"]], y)
    with pytest.warns(UserWarning):
        discretizer = MDLPDiscretizer().fit(X[["x"]], y)
    document = mapping_document([grouper, discretizer])
    check_document_schema(document)
    categorical, numeric = document["columns"]
    assert categorical["value_type"] is None
    assert categorical["missing_seen"] is True
    assert numeric["cuts"] == [] and numeric["n_bins"] == 1
    assert numeric["missing_bin"] == 1
    text = pd.DataFrame({"c": ["z", None], "x": [3.0, np.nan]}).to_csv(index=False)
    frame = _read(text).astype({"c": object})
    expected = np.hstack(
        [grouper.transform(frame[["c"]]), discretizer.transform(frame[["x"]])]
    )
    assert apply_document(json.dumps(document), text) == expected.astype(int).tolist()


def test_ten_thousand_categories_in_sqlite():
    """Check that SQLite runs IN lists of thousands of categories."""
    rng = np.random.default_rng(1)
    n_categories = 10_000
    codes = np.concatenate([np.arange(n_categories)] * 3)
    y = (codes % 2) ^ (rng.random(len(codes)) < 0.05)
    frame = pd.DataFrame({"big col": [f"cat '{c}'" for c in codes]})
    grouper = MaxCutGrouper(handle_unknown="error").fit(frame, y)
    sql = mapping_sql(mapping_document([grouper]), "t")
    assert sql.count(", ") >= n_categories - 2
    rows = _sqlite(frame, "t").execute(sql).fetchall()
    assert [row[0] for row in rows] == grouper.transform(frame)[:, 0].tolist()


def test_numpy_input_and_column_by_name():
    """Check names x0, x1, ... for an estimator fitted without column names,
    and a column chosen by its name."""
    X = np.array([[1.0, 5.0], [2.0, 6.0], [3.0, 7.0], [4.0, 8.0]] * 10)
    y = np.array([0, 0, 1, 1] * 10)
    discretizer = MDLPDiscretizer().fit(X, y)
    document = mapping_document([(discretizer, 1), (discretizer, 0)])
    assert [c["name"] for c in document["columns"]] == ["x1", "x0"]
    frame = pd.DataFrame(X, columns=["a", "b"])
    named = MDLPDiscretizer().fit(frame, y)
    assert column_mapping(named, "b") == dict(column_mapping(discretizer, 1), name="b")


def test_rejected_inputs():
    """Check the errors for what cannot be exported."""
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0] * 5})
    y = np.array([0, 0, 1, 1] * 5)
    discretizer = MDLPDiscretizer().fit(X, y)
    with pytest.raises(TypeError, match="neither"):
        column_mapping(StandardScaler().fit(X), 0)
    with pytest.raises(ValueError, match="out of range"):
        column_mapping(discretizer, 1)
    with pytest.raises(ValueError, match="without a column named"):
        column_mapping(discretizer, "b")
    with pytest.raises(ValueError, match="more than once"):
        mapping_document([discretizer, (discretizer, 0)])
    with pytest.raises(TypeError, match="Each item"):
        mapping_document([X])
    document = mapping_document([discretizer])
    with pytest.raises(ValueError, match="version"):
        mapping_sql(dict(document, version=3), "t")
    with pytest.raises(ValueError, match="Not a mapping document"):
        mapping_sql({"columns": []}, "t")
    with pytest.raises(ValueError, match="no columns"):
        mapping_sql(dict(document, columns=[]), "t")
    with pytest.raises(ValueError, match="NUL"):
        mapping_sql(document, "t\x00")


def test_text_input_matches_pandas_read_csv():
    """Check that the strings the document lists as missing values and
    booleans are those pandas.read_csv reads so by default."""
    text = "v\n" + "\n".join(f'"{value}"' for value in NA_VALUES[1:]) + "\n\n"
    read = pd.read_csv(io.StringIO(text), skip_blank_lines=False)["v"]
    assert len(read) == len(NA_VALUES) and read.isna().all()
    for near_miss in (" NA", "na", "NONE", "Nan "):
        text = f"v\n{near_miss}\nx\n"
        assert not pd.read_csv(io.StringIO(text))["v"].isna().any()
    parsers = pytest.importorskip("pandas._libs.parsers")
    assert set(NA_VALUES) == set(parsers.STR_NA_VALUES)
    for value in TRUE_VALUES + FALSE_VALUES:
        read = pd.read_csv(io.StringIO(f"v\n{value}\n"))["v"]
        assert read.dtype == bool and read[0] == (value in TRUE_VALUES)


def test_cuts_are_exact_floats():
    """Check that cut points survive JSON and SQL literals bit for bit."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=400) * 1e-3 + 1 / 3
    y = (x > np.quantile(x, 0.5)).astype(int)
    discretizer = KhiopsDiscretizer().fit(x[:, None], y)
    cuts = discretizer.bin_edges_[0][1:-1]
    assert len(cuts) >= 1
    document = json.loads(json.dumps(mapping_document([discretizer])))
    assert np.array_equal(document["columns"][0]["cuts"], cuts)
    selected = sqlite3.connect(":memory:").execute(
        "SELECT " + ", ".join(repr(c) for c in document["columns"][0]["cuts"])
    )
    assert list(selected.fetchone()) == cuts.tolist()


# ---------------------------------------------------------------------------
# The schema, as docs/user_guide/mapping_schema.rst documents it.

TOP_LEVEL = {
    "schema": str,
    "version": int,
    "generator": str,
    "target": (str, type(None)),
    "classes": (list, type(None)),
    "settings": dict,
    "text_input": dict,
    "columns": list,
}
CATEGORICAL_FIELDS = {
    "name": str,
    "kind": str,
    "estimator": str,
    "value_type": (str, type(None)),
    "n_groups": int,
    "groups": list,
    "missing_seen": bool,
    "missing_group": (int, type(None)),
    "handle_unknown": str,
    "default_group": int,
    "unknown_group": (int, type(None)),
}
NUMERIC_FIELDS = {
    "name": str,
    "kind": str,
    "estimator": str,
    "cuts": list,
    "n_bins": int,
    "missing_seen": bool,
    "missing_bin": int,
}
VALUE_TYPES = {"string": str, "integer": int, "float": float, "boolean": bool}


def _check_fields(obj, fields):
    assert set(obj) == set(fields), sorted(set(obj) ^ set(fields))
    for key, types in fields.items():
        assert isinstance(obj[key], types), (key, obj[key])
        # bool is an int in Python, never in the schema
        if types in (int, (int, type(None))):
            assert not isinstance(obj[key], bool), key


def check_document_schema(document):
    """Assert that a document follows schema partikit.mapping, version 1."""
    _check_fields(document, TOP_LEVEL)
    assert document["schema"] == "partikit.mapping"
    assert document["version"] == 1
    assert document["text_input"] == {
        "na_values": list(NA_VALUES),
        "true_values": list(TRUE_VALUES),
        "false_values": list(FALSE_VALUES),
    }
    for column in document["columns"]:
        if column["kind"] == "categorical":
            _check_fields(column, CATEGORICAL_FIELDS)
            n_groups = column["n_groups"]
            assert [g["id"] for g in column["groups"]] == list(range(n_groups))
            value_type = column["value_type"]
            for group in column["groups"]:
                assert set(group) == {"id", "values"}
                for value in group["values"]:
                    assert type(value) is VALUE_TYPES[value_type]
            members = [v for g in column["groups"] for v in g["values"]]
            assert len(members) == len(set(members))
            assert column["handle_unknown"] in ("default_group", "error")
            assert 0 <= column["default_group"] < n_groups
            assert column["unknown_group"] == (
                column["default_group"]
                if column["handle_unknown"] == "default_group"
                else None
            )
            if column["missing_seen"]:
                assert 0 <= column["missing_group"] < n_groups
            else:
                assert column["missing_group"] == column["unknown_group"]
        else:
            assert column["kind"] == "numeric"
            _check_fields(column, NUMERIC_FIELDS)
            cuts = column["cuts"]
            assert all(type(c) is float and math.isfinite(c) for c in cuts)
            assert cuts == sorted(set(cuts))
            assert column["n_bins"] == len(cuts) + 1
            assert column["missing_bin"] == column["n_bins"]


@pytest.mark.parametrize("pair", ESTIMATOR_PAIRS, ids=_pair_id)
def test_document_follows_the_schema(pair, csv_texts):
    """Check every field of documents from every estimator, before and after
    a JSON round trip."""
    train = _read(csv_texts[0])
    grouper, discretizer = _fit(*pair, train)
    document = mapping_document(
        [grouper, discretizer], target="y", classes=grouper.classes_
    )
    check_document_schema(document)
    check_document_schema(json.loads(json.dumps(document)))
    value_types = [c.get("value_type") for c in document["columns"]]
    assert value_types == ["string", "integer", "float", "boolean", None, None]
    assert document["classes"] == ["high", "low", "mid"]
    assert document["target"] == "y"


def test_settings_are_stored_as_json():
    """Check that settings of any type become JSON values."""
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0] * 5})
    discretizer = MDLPDiscretizer().fit(X, [0, 0, 1, 1] * 5)
    settings = {
        "n": np.int64(3),
        "p": np.float32(0.5),
        "bad": float("nan"),
        "sizes": (1, np.array([2, 3])),
        "estimator": KhiopsGrouper(alpha=0.1),
        4: "key",
    }
    document = mapping_document([discretizer], settings=settings)
    assert document["settings"] == {
        "n": 3,
        "p": 0.5,
        "bad": None,
        "sizes": [1, [2, 3]],
        "estimator": "KhiopsGrouper(alpha=0.1)",
        "4": "key",
    }
    assert json.loads(json.dumps(document, allow_nan=False)) == document


def test_report_json_applied_by_plain_python_is_the_reports_transform(
    csv_texts, tmp_path
):
    """Check the JSON of ``partikit.report`` and of ``partikit report --json``:
    applied to the CSV text by plain Python, it gives the report's transform."""
    from partikit import report
    from partikit.__main__ import main

    train_text, new_text = csv_texts
    train = _read(train_text)
    result = report(train, "y", categorical=CATEGORICAL, numeric=NUMERIC)
    for text in (train_text, new_text):
        expected = result.transform(_read(text)).to_numpy().tolist()
        assert apply_document(result.to_json(), text) == expected
    data, mapping = tmp_path / "train.csv", tmp_path / "mapping.json"
    data.write_text(train_text, encoding="utf-8")
    assert main(["report", str(data), "--target", "y", "--json", str(mapping),
                 "--categorical", ",".join(CATEGORICAL)]) == 0  # fmt: skip
    assert apply_document(mapping.read_text(encoding="utf-8"), train_text) == (
        result.transform(train).to_numpy().tolist()
    )


# ---------------------------------------------------------------------------
# values="woe" / "rate": every part carries the value that encodes it.


def _binary(frame):
    frame = frame.copy()
    frame["y"] = np.where(frame["y"] == "high", "event", "other")
    return frame


def _part_values(document):
    """Per column, its parts' values by id, as a plain-Python reader reads them."""
    out = []
    for column in document["columns"]:
        parts = column["groups"] if column["kind"] == "categorical" else column["bins"]
        out.append({part["id"]: part["value"] for part in parts})
    return out


def _woe_transform(grouper, discretizer, frame):
    return np.hstack(
        [grouper.transform(frame[CATEGORICAL]), discretizer.transform(frame[NUMERIC])]
    )


@pytest.mark.parametrize("woe_sign", ["event", "non_event"])
@pytest.mark.parametrize("pair", ESTIMATOR_PAIRS, ids=_pair_id)
def test_woe_values_are_what_encode_woe_outputs(pair, woe_sign, csv_texts):
    """Check that a document with values="woe", applied by plain Python (the
    part id, then its value) and as SQL in SQLite, gives transform's output with
    encode="woe" and the estimators' woe_sign, on the training rows and on new
    rows (unseen categories, missing values where fit saw none)."""
    train_text, new_text = csv_texts
    train = _binary(_read(train_text))
    grouper, discretizer = _fit(
        clone(pair[0]).set_params(woe_sign=woe_sign),
        clone(pair[1]).set_params(woe_sign=woe_sign),
        train,
    )
    encoders = _fit(
        clone(grouper).set_params(encode="woe"),
        clone(discretizer).set_params(encode="woe"),
        train,
    )
    document = mapping_document([grouper, discretizer], values="woe")
    assert document["values"] == "woe"
    assert {c["woe_sign"] for c in document["columns"]} == {woe_sign}
    assert {c["values"] for c in document["columns"]} == {"woe"}
    document_json = json.dumps(document, allow_nan=False)
    values = _part_values(json.loads(document_json))
    sql = mapping_sql(document, "t")
    for text in (train_text, new_text):
        frame = _binary(_read(text))
        expected = _woe_transform(*encoders, frame)
        ids = apply_document(document_json, _binary(_read(text)).to_csv(index=False))
        applied = [[values[j][part] for j, part in enumerate(row)] for row in ids]
        np.testing.assert_array_equal(applied, expected)
        rows = _sqlite(frame, "t").execute(sql).fetchall()
        np.testing.assert_array_equal(np.array(rows, dtype=float), expected)
    # a numeric column lists every bin, the missing bin last
    numeric = document["columns"][len(CATEGORICAL)]
    assert [b["id"] for b in numeric["bins"]] == list(range(numeric["n_bins"] + 1))


def test_rate_values_are_the_event_rates_of_the_partition_table(csv_texts):
    """Check values="rate": each part's value is partition_table's event_rate
    (None for a part without rows), and the SQL gives each row its part's."""
    train_text, new_text = csv_texts
    train = _binary(_read(train_text))
    grouper, discretizer = _fit(KhiopsGrouper(), MDLPDiscretizer(), train)
    document = mapping_document([grouper, discretizer], values="rate")
    assert document["values"] == "rate"
    assert {c["woe_sign"] for c in document["columns"]} == {None}
    rates = []
    for estimator, names in ((grouper, CATEGORICAL), (discretizer, NUMERIC)):
        rates += [estimator.partition_table(n)["event_rate"] for n in names]
    for column, rate, values in zip(
        document["columns"], rates, _part_values(document), strict=True
    ):
        expected = [None if np.isnan(r) else r for r in rate.tolist()]
        assert [values[m] for m in range(len(values))] == expected, column["name"]
    # a numeric column fitted without missing values: its missing bin has no rate
    assert document["columns"][-1]["bins"][-1]["value"] is None
    new = _binary(_read(new_text))
    ids = np.array(_transform(grouper, discretizer, new))
    expected = np.column_stack(
        [np.asarray(rate, dtype=float)[ids[:, j]] for j, rate in enumerate(rates)]
    )
    rows = _sqlite(new, "t").execute(mapping_sql(document, "t")).fetchall()
    np.testing.assert_array_equal(np.array(rows, dtype=float), expected)


def test_values_none_keeps_the_document_and_sql_unchanged(csv_texts):
    """Check that values=None writes no new field and the SQL of ids."""
    train = _binary(_read(csv_texts[0]))
    grouper, discretizer = _fit(KhiopsGrouper(), KhiopsDiscretizer(), train)
    document = mapping_document([grouper, discretizer], values=None)
    check_document_schema(document)
    assert "values" not in document
    assert "bins" not in document["columns"][-1]
    woe_sql = mapping_sql(mapping_document([discretizer], values="woe"), "t")
    assert mapping_sql(mapping_document([discretizer]), "t") != woe_sql


def test_values_are_refused_where_they_do_not_apply(csv_texts):
    """Check the errors: an unknown kind of value, a multiclass target, a
    column mapping of other values than the document's, a part without its
    value in a document with values."""
    train = _read(csv_texts[0])
    three_classes = KhiopsGrouper().fit(train[CATEGORICAL], train["y"])
    with pytest.raises(ValueError, match="binary target"):
        mapping_document([three_classes], values="woe")
    with pytest.raises(ValueError, match="binary target"):
        column_mapping(three_classes, 0, values="rate")
    binary = _binary(train)
    grouper = KhiopsGrouper().fit(binary[CATEGORICAL], binary["y"])
    message = "values must be None, 'woe', 'rate' or 'mean'"
    with pytest.raises(ValueError, match=message):
        mapping_document([grouper], values="odds")
    with pytest.raises(ValueError, match="carries values=None"):
        mapping_document([column_mapping(grouper, 0)], values="woe")
    with pytest.raises(ValueError, match="carries values='rate'"):
        mapping_document([column_mapping(grouper, 0, values="rate")])
    document = mapping_document([grouper], values="woe")
    del document["columns"][0]["groups"][0]["value"]
    with pytest.raises(ValueError, match="lacks the value"):
        mapping_sql(document, "t")


def test_report_and_command_write_values(csv_texts, tmp_path):
    """Check Report.to_json / to_sql and ``partikit report --values``."""
    from partikit import report
    from partikit.__main__ import main

    train_text, _ = csv_texts
    train = _binary(_read(train_text))
    result = report(
        train, "y", categorical=CATEGORICAL, numeric=NUMERIC,
        grouper=KhiopsGrouper(woe_sign="non_event"),
    )  # fmt: skip
    document = json.loads(result.to_json(values="woe"))
    signs = {c["name"]: c["woe_sign"] for c in document["columns"]}
    assert signs == {**dict.fromkeys(CATEGORICAL, "non_event"),
                     **dict.fromkeys(NUMERIC, "event")}  # fmt: skip
    rows = _sqlite(train, "t").execute(result.to_sql("t", values="woe")).fetchall()
    ids = result.transform(train)
    expected = np.column_stack(
        [
            result.partition_table(name)["woe"].to_numpy()[ids[name].to_numpy()]
            for name in ids.columns
        ]
    )
    np.testing.assert_allclose(np.array(rows, dtype=float), expected, rtol=1e-15)
    data, mapping, sql = (tmp_path / n for n in ("d.csv", "m.json", "m.sql"))
    data.write_text(train.to_csv(index=False), encoding="utf-8")
    assert main(["report", str(data), "--target", "y", "--json", str(mapping),
                 "--sql", str(sql), "--values", "rate",
                 "--categorical", ",".join(CATEGORICAL)]) == 0  # fmt: skip
    assert json.loads(mapping.read_text(encoding="utf-8"))["values"] == "rate"
    assert "THEN 0." in sql.read_text(encoding="utf-8")
    data.write_text(train_text, encoding="utf-8")
    assert main(["report", str(data), "--target", "y", "--json", str(mapping),
                 "--values", "woe"]) == 1  # fmt: skip
