# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone

from partikit._counting._validation import (
    _MAX_COUNTED_LABEL_RANGE,
    _arrow_backed,
    _encode_labels,
    check_classification_y,
    factorize_column,
)


@pytest.mark.parametrize(
    "y",
    [
        np.array([3, 1, 1, 7, 3]),
        np.array([True, False, True]),
        np.array([-5, 10, -5], dtype=np.int8),
        np.array([-3, 4, 4]),  # intp with a negative label: bincount raises
        np.array([1, 2, 2]),  # intp labels from 1
        np.array([0, 2, 2, 5], dtype=np.uint64),
        np.array([0, _MAX_COUNTED_LABEL_RANGE * 4, 0]),  # too wide: hashed
        np.array(["b", "a", "b"], dtype=object),
        np.array([2.0, 1.0, 2.0]),
    ],
)
def test_encode_labels_matches_pandas_factorize(y):
    """Check that the counting path for integer labels equals pd.factorize."""
    codes, classes = _encode_labels(y)
    expected_codes, expected_classes = pd.factorize(y, sort=True)
    assert_array_equal(codes, expected_codes)
    assert_array_equal(classes, np.asarray(expected_classes))
    assert classes.dtype == np.asarray(expected_classes).dtype


def test_check_classification_y_drops_classes_of_zero_weight_rows():
    """Check that a class seen only with zero weight is not a class."""
    codes, classes = check_classification_y(
        np.array([0, 1, 2, 1]), np.array([1.0, 1.0, 0.0, 1.0])
    )
    assert_array_equal(classes, [0, 1])
    assert_array_equal(codes[[0, 1, 3]], [0, 1, 1])


def test_check_classification_y_accepts_a_column_vector():
    """Check that y of shape (n, 1) is read as a 1-D target."""
    codes, classes = check_classification_y(np.array([[1], [2], [1]]))
    assert_array_equal(codes, [0, 1, 0])


def test_factorize_column_sorts_categories_and_codes_missing():
    """Check sorted categories, missing as -1, and the lookup translation."""
    column = pd.Series(["b", None, "a", "b", np.nan])
    factorized = factorize_column(column, "x")
    assert list(factorized.categories) == ["a", "b"]
    rows = factorized.lookup[factorized.raw_codes + 1]
    assert_array_equal(rows, [1, -1, 0, 1, -1])
    assert factorized.kind == "string"


def test_factorize_column_uses_category_codes_without_copy():
    """Check that a category column's own codes are used as they are."""
    column = pd.Series(["x", "y", "x"], dtype="category")
    factorized = factorize_column(column, "c")
    assert np.shares_memory(factorized.raw_codes, column.array.codes)


@pytest.mark.parametrize(
    "make",
    [
        lambda v: v.astype(object),
        lambda v: pd.Series(v.astype(object)),
        lambda v: pd.Series(v, dtype="str"),
        lambda v: v.astype(float),
        lambda v: pd.Series(v).astype("Int64"),
        lambda v: pd.Series(v.astype(str), dtype="string[python]"),
        lambda v: pd.Series(v.astype(str), dtype="string[pyarrow]"),
    ],
    ids=["numpy-object", "object", "str", "float", "Int64", "python", "pyarrow"],
)
def test_chunked_factorize_matches_pandas(make, monkeypatch, request):
    """Check that factorizing in chunks (Arrow-backed columns: whole) gives the
    values of pd.factorize, with missing values and uniques first seen in late
    chunks."""
    import partikit._counting._validation as validation

    if request.node.callspec.id == "pyarrow":
        pytest.importorskip("pyarrow", reason="string[pyarrow] needs pyarrow")

    monkeypatch.setattr(validation, "_FACTORIZE_CHUNK", 7)
    rng = np.random.default_rng(0)
    raw = rng.integers(0, 12, 100)
    raw[90:] = 50 + np.arange(10)  # new values in the last chunks
    column = make(raw)
    if isinstance(column, pd.Series) and (
        column.dtype == object or isinstance(column.dtype, pd.StringDtype)
    ):
        column[[3, 40]] = None
    elif isinstance(column, np.ndarray) and column.dtype == object:
        column[[3, 40]] = None
    factorized = factorize_column(column, "x")
    expected = pd.Series(column, dtype=object).where(pd.notna(column), None)
    got = factorized.categories[factorized.lookup[factorized.raw_codes + 1]]
    missing = factorized.lookup[factorized.raw_codes + 1] < 0
    assert_array_equal(missing, pd.isna(expected).to_numpy())
    assert_array_equal(got[~missing], expected[~missing].to_numpy())


@pytest.mark.parametrize("n_uniques_limit", [3, 15, 10_000])
def test_factorize_hashes_the_whole_column_past_many_uniques(
    n_uniques_limit, monkeypatch
):
    """Check that a column whose chunks hold many distinct values, hashed whole
    instead, gives the values of pd.factorize."""
    import partikit._counting._validation as validation

    monkeypatch.setattr(validation, "_FACTORIZE_CHUNK", 7)
    monkeypatch.setattr(validation, "_MAX_CHUNKED_UNIQUES", n_uniques_limit)
    rng = np.random.default_rng(1)
    column = pd.Series(rng.integers(0, 40, 100).astype(str).astype(object))
    column[[5, 60]] = None
    factorized = factorize_column(column, "x")
    rows = factorized.lookup[factorized.raw_codes + 1]
    assert_array_equal(rows < 0, column.isna().to_numpy())
    assert_array_equal(
        factorized.categories[rows[rows >= 0]], column.dropna().to_numpy()
    )
    assert list(factorized.categories) == sorted(column.dropna().unique())


@pytest.mark.parametrize(
    "values",
    [
        np.array([3, 0, 7, 3, 7]),
        np.array([-5, 2, -5, 9], dtype=np.int32),
        np.array([4, 4, 4], dtype=np.uint8),
        np.array([10**12, 10**12 + 3, 10**12]),  # offset range: counted
        np.array([0, 10**9, 5]),  # range far larger than the column: hashed
        np.array([2**63 + 5, 2**63 + 1], dtype=np.uint64),  # beyond intp: hashed
    ],
    ids=["small", "negative-int32", "uint8", "offset", "wide", "uint64-large"],
)
@pytest.mark.parametrize("as_series", [False, True])
def test_integer_columns_are_counted_like_pd_factorize(values, as_series):
    """Check that an integer column factorized by counting (or hashed, when its
    range is too wide) gives sorted categories of its own dtype and the right
    category for every row."""
    column = pd.Series(values) if as_series else values
    factorized = factorize_column(column, "x")
    expected = np.unique(values)
    assert_array_equal(factorized.categories, expected)
    assert factorized.categories.dtype == values.dtype
    assert factorized.kind == "numeric"
    rows = factorized.lookup[np.asarray(factorized.raw_codes) + 1]
    assert_array_equal(factorized.categories[rows], values)


def test_unsorted_factorization_looks_up_the_same_values():
    """Check that factorize_column(sort=False), which transform uses, maps every
    row to its own value, like the sorted factorization."""
    column = pd.Series(["b", "c", None, "a", "c"])
    plain = factorize_column(column, "x", sort=False)
    rows = plain.lookup[plain.raw_codes + 1]
    assert_array_equal(rows < 0, column.isna().to_numpy())
    assert_array_equal(plain.categories[rows[rows >= 0]], ["b", "c", "a", "c"])


def test_many_strings_sort_in_python_order(monkeypatch):
    """Check that the numpy-string sort used for many distinct strings gives
    Python's order (code points), also for non-ASCII strings, and that strings
    numpy cannot encode (lone surrogates) fall back to Python's sort."""
    from partikit._counting._validation import STRING_KIND, sorting_order

    rng = np.random.default_rng(0)
    alphabet = np.array(list("aZé€𝄞 0"), dtype=object)
    words = np.array(
        ["".join(rng.choice(alphabet, rng.integers(0, 6))) for _ in range(30_000)],
        dtype=object,
    )
    uniques = pd.unique(words)
    order = sorting_order(uniques, STRING_KIND)
    assert list(uniques[order]) == sorted(uniques)
    with_surrogate = np.append(uniques, "\ud800").astype(object)
    order = sorting_order(with_surrogate, STRING_KIND)
    assert list(with_surrogate[order]) == sorted(with_surrogate)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64])
@pytest.mark.parametrize("weighted", [False, True])
def test_integer_column_table_counted_directly_equals_the_factorized_one(
    dtype, weighted, global_random_seed
):
    """Check that an integer column counted through its values gives the
    categories and table (bit for bit) of the factorized column."""
    from partikit._counting._column_tables import count_categorical as column_table
    from partikit._statistics._contingency import build_table

    rng = np.random.default_rng(global_random_seed)
    # int8: the difference of two values overflows an int8
    low = {np.int8: -128, np.uint8: 0, np.uint64: 0}.get(dtype, -50)
    values = rng.choice([low, low + 3, low + 4, low + 9, 100], size=500).astype(dtype)
    y = rng.integers(0, 3, size=500).astype(np.intp)
    weights = rng.uniform(0, 2, size=500) if weighted else None
    if weighted:
        weights[values == low + 3] = 0.0
    categories, kind, table = column_table(values, "x", y, weights, 3)
    factorized = factorize_column(values, "x")
    expected = build_table(
        factorized.raw_codes, y, weights, len(factorized.categories) + 1, 3,
        lookup=factorized.lookup,
    )  # fmt: skip
    assert kind == factorized.kind == "numeric"
    assert categories.dtype == factorized.categories.dtype
    assert len(categories) > len(factorized.categories)  # the whole range
    present = table[:-1].sum(axis=1) > 0
    expected_present = expected[:-1].sum(axis=1) > 0
    assert_array_equal(categories[present], factorized.categories[expected_present])
    assert_array_equal(table[:-1][present], expected[:-1][expected_present])
    assert_array_equal(table[-1], expected[-1])


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64])
def test_unsorted_integer_factorization_looks_up_every_row(dtype):
    """Check that factorize_column(sort=False) of an integer column over a small
    range (its categories the whole range, no count of the values) maps every
    row to its own value."""
    rng = np.random.default_rng(0)
    low = -100 if np.dtype(dtype).kind == "i" else 3
    column = rng.choice(np.array([low, low + 7, low + 200], dtype=dtype), size=5000)
    plain = factorize_column(column, "x", sort=False)
    assert len(plain.categories) == 201  # every value of the range
    assert plain.categories.dtype == column.dtype
    assert_array_equal(plain.categories[plain.lookup[plain.raw_codes + 1]], column)


@pytest.mark.parametrize("dtype", ["str", "string"])
@pytest.mark.parametrize("chunk", [7, 1 << 16])
def test_python_string_columns_factorize_like_pandas(dtype, chunk, monkeypatch):
    """Check that a Python-backed string column, factorized through its object
    array, gives pd.factorize's codes and values (NaN and pd.NA missing)."""
    import partikit._counting._validation as validation

    monkeypatch.setattr(validation, "_FACTORIZE_CHUNK", chunk)
    rng = np.random.default_rng(0)
    values = rng.choice(["b", "a", "c", None], size=100).astype(object)
    values[90:] = "late"
    if dtype == "str":  # NaN as the missing value (pandas >= 2.3)
        try:
            string_dtype = pd.StringDtype("python", na_value=np.nan)
        except TypeError:
            pytest.skip("pandas < 2.3 has no NaN-valued string dtype")
    else:
        string_dtype = pd.StringDtype("python")
    column = pd.Series(values, dtype=string_dtype)
    codes, uniques = validation.factorize(column)
    expected_codes, expected_uniques = pd.factorize(column, use_na_sentinel=True)
    assert_array_equal(codes, expected_codes)
    assert_array_equal(uniques, np.asarray(expected_uniques, dtype=object))
    assert uniques.dtype == object


@pytest.mark.parametrize("dtype", ["string[pyarrow]", "large_string[pyarrow]"])
@pytest.mark.parametrize("fit_missing", [False, True])
def test_arrow_strings_are_looked_up_in_the_known_categories(dtype, fit_missing):
    """An Arrow-backed string column whose values were all seen in fit is coded
    by pyarrow's index_in into the known categories; unseen values, numbers in
    fit or another dtype take the factorizer, to the same codes."""
    pytest.importorskip("pyarrow", reason="Arrow-backed strings need pyarrow")
    if dtype.startswith("large"):
        import pyarrow as pa

        dtype = pd.ArrowDtype(pa.large_string())
    known = np.array(["a", "b", "c"] + ([np.nan] if fit_missing else []), dtype=object)
    column = pd.Series(["c", None, "a", "a", "b", None], dtype=dtype)
    looked_up = factorize_column(column, "x", sort=False, known=known)
    assert list(looked_up.categories) == ["a", "b", "c"]
    codes = looked_up.lookup[np.asarray(looked_up.raw_codes) + 1]
    assert_array_equal(codes, [2, -1, 0, 0, 1, -1])
    # a value unseen in fit: the factorizer, whose codes say the same
    unseen = pd.Series(["c", "z", None], dtype=dtype)
    factorized = factorize_column(unseen, "x", sort=False, known=known)
    values = factorized.categories[factorized.lookup[factorized.raw_codes + 1]]
    assert list(values[[0, 1]]) == ["c", "z"]
    assert factorized.lookup[factorized.raw_codes[2] + 1] == -1
    # numbers in fit: no lookup (category_lookup reports the kinds)
    numbers = factorize_column(column, "x", sort=False, known=np.array([1.0, 2.0]))
    assert numbers.kind == "string" and "z" not in list(numbers.categories)


@pytest.fixture
def arrow_in_threads(monkeypatch):
    """Arrow string columns of a few rows shared out to 3 threads."""
    pa = pytest.importorskip("pyarrow", reason="Arrow-backed strings need pyarrow")
    import partikit._counting._validation as validation

    monkeypatch.setattr(validation, "_MIN_ARROW_ROWS_PER_THREAD", 4)
    # a few rows hold many distinct values each: shared out all the same
    monkeypatch.setattr(validation, "_many_distinct", lambda column: False)
    n_cpus = pa.cpu_count()
    pa.set_cpu_count(3)
    yield validation
    pa.set_cpu_count(n_cpus)


@pytest.mark.parametrize("dtype", ["string[pyarrow]", "str", "large_string"])
@pytest.mark.parametrize("n_chunks", [1, 4])
def test_arrow_strings_factorized_in_threads_like_pandas(
    arrow_in_threads, dtype, n_chunks
):
    """Check that an Arrow string column encoded by slices in threads gets
    pd.factorize's codes and uniques (first-row order, -1 missing), whatever its
    chunks, and that a lookup by slices finds or misses as the whole does."""
    import pyarrow as pa

    validation = arrow_in_threads
    rng = np.random.default_rng(1)
    values = rng.choice(["b", "a", "c", "d", None], size=40).astype(object)
    values[:10] = "a"  # the first slice lacks the later categories
    values[35] = "late"  # one category seen only in the last slice
    if dtype == "large_string":
        dtype = pd.ArrowDtype(pa.large_string())
    elif dtype == "str" and not _arrow_backed(pd.Series(["a"], dtype="str").dtype):
        pytest.skip("this pandas' 'str' dtype is not Arrow-backed")
    column = pd.Series(values, dtype=dtype)
    if n_chunks > 1:
        chunked = pa.chunked_array(np.array_split(values, n_chunks), type=pa.string())
        column = pd.Series(pd.arrays.ArrowExtensionArray(chunked))
    assert validation._arrow_factorize(column) is not None  # shared out
    codes, uniques = validation.factorize(column)
    expected_codes, expected_uniques = pd.factorize(column, use_na_sentinel=True)
    assert_array_equal(codes, expected_codes)
    assert_array_equal(uniques, np.asarray(expected_uniques, dtype=object))
    known = np.array(sorted(set(uniques)), dtype=object)
    looked_up = factorize_column(column, "x", sort=False, known=known)
    assert_array_equal(
        looked_up.lookup[looked_up.raw_codes + 1],
        np.searchsorted(known, uniques)[codes].astype(np.intp) * (codes >= 0)
        - (codes < 0),
    )
    # "late" unseen in fit: the last slice misses, and the factorizer takes over
    fewer = known[known != "late"]
    factorized = factorize_column(column, "x", sort=False, known=fewer)
    assert "late" in list(factorized.categories)


@pytest.mark.parametrize("dtype", ["string[pyarrow]", "large_string"])
@pytest.mark.parametrize("n_chunks", [1, 4])
@pytest.mark.parametrize("n_rows", [50, 2000])
def test_arrow_strings_counted_in_threads_like_the_codes(
    arrow_in_threads, dtype, n_chunks, n_rows
):
    """Check that an unweighted Arrow string column counted by slices in threads
    gets the categories and table of its factorized codes, missing row last:
    with a table per slice (2,000 rows) and with the rows' table rows written
    in the threads (50 rows: a slice's table of 6 x 3 cells holds more than its
    rows)."""
    import pyarrow as pa

    from partikit._counting._column_tables import count_categorical

    validation = arrow_in_threads
    rng = np.random.default_rng(2)
    values = rng.choice(["b", "a", "c", "d", None], size=n_rows).astype(object)
    values[:12] = "a"  # the first slice lacks the later categories
    values[-3] = "late"  # one category seen only in the last slice
    y = rng.integers(0, 3, n_rows)
    if dtype == "large_string":
        dtype = pd.ArrowDtype(pa.large_string())
    column = pd.Series(values, dtype=dtype)
    if n_chunks > 1:
        chunked = pa.chunked_array(np.array_split(values, n_chunks), type=pa.string())
        column = pd.Series(pd.arrays.ArrowExtensionArray(chunked))
    counted = validation.arrow_contingency_table(column, "x", y, 3)
    assert counted is not None  # shared out
    categories, kind, table = counted
    # the serial path: the same column as Python objects
    expected = count_categorical(pd.Series(values, dtype=object), "x", y, None, 3)
    assert_array_equal(categories, expected[0])
    assert kind == expected[1] == "string"
    assert_array_equal(table, expected[2])
    assert table[-1].sum() == sum(v is None for v in values)
    assert_array_equal(count_categorical(column, "x", y, None, 3)[2], table)


def test_arrow_columns_of_many_distinct_strings_are_encoded_whole():
    """Check the estimate that keeps columns of many distinct strings (more than
    one per 8 rows, where slices in threads are slower) out of the threads, on
    a random sample (a column sorted by value is estimated alike)."""
    pytest.importorskip("pyarrow", reason="Arrow-backed strings need pyarrow")
    import partikit._counting._validation as validation

    rng = np.random.default_rng(3)
    n = 200_000
    for n_values, many in [(1000, False), (10_000, False), (n // 2, True), (n, True)]:
        values = np.array([f"v{k}" for k in rng.integers(0, n_values, n)])
        for ordered in (values, np.sort(values)):
            column = pd.Series(ordered, dtype="string[pyarrow]")
            assert validation._many_distinct(column) is many
    column = pd.Series(np.array([f"v{k}" for k in range(n)]), dtype="string[pyarrow]")
    assert validation._arrow_encode(column) is None
    # encoded whole instead, to the same codes
    codes, uniques = validation.factorize(column)
    assert_array_equal(codes, np.arange(n))


def test_arrow_threads_are_made_anew_after_a_fork(arrow_in_threads):
    """A forked child does not wait on its parent's threads (which it lacks)."""
    import multiprocessing

    validation = arrow_in_threads
    column = pd.Series(["a", "b", None, "c"] * 5, dtype="string[pyarrow]")
    validation.factorize(column)  # the parent's threads exist
    try:
        context = multiprocessing.get_context("fork")
    except ValueError:
        pytest.skip("no fork on this platform")
    with context.Pool(1) as pool:
        codes, uniques = pool.apply_async(validation.factorize, (column,)).get(30)
    assert_array_equal(codes, pd.factorize(column)[0])


def test_arrow_string_transforms_equal_object_transforms():
    """Groupers, the aggregator and the tree code Arrow-backed strings as they
    code the same strings in an object column, unseen values included."""
    pytest.importorskip("pyarrow", reason="Arrow-backed strings need pyarrow")
    from partikit.groupers import AttributeAggregator, KhiopsGrouper
    from partikit.tree import PartitionTreeClassifier

    rng = np.random.default_rng(0)
    values = rng.choice(list("abcdefgh"), 400).astype(object)
    values[rng.random(400) < 0.1] = None
    y = (np.isin(values, list("abc")) + rng.random(400) < 0.8).astype(int)
    other = rng.choice(list("xy"), 400).astype(object)
    objects = pd.DataFrame({"v": values, "w": other}, dtype=object)
    arrow = objects.astype("string[pyarrow]")
    new = pd.DataFrame({"v": ["a", None, "h"], "w": ["x", "y", "x"]})
    unseen = pd.DataFrame({"v": ["a", "q"], "w": ["x", "x"]})
    for estimator in (
        KhiopsGrouper(handle_unknown="default_group"),
        AttributeAggregator([["v", "w"]], grouper=KhiopsGrouper()),
        PartitionTreeClassifier(),
    ):
        on_arrow = clone(estimator).fit(arrow, y)
        on_objects = clone(estimator).fit(objects, y)
        method = "predict" if hasattr(estimator, "predict") else "transform"
        for frame in (new, unseen):
            assert_array_equal(
                getattr(on_arrow, method)(frame.astype("string[pyarrow]")),
                getattr(on_objects, method)(frame.astype(object)),
            )
    strict = KhiopsGrouper(handle_unknown="error").fit(arrow, y)
    with pytest.raises(ValueError, match=r"unknown categories in column 'v'.*'q'"):
        strict.transform(unseen.astype("string[pyarrow]"))


def test_estimators_fit_and_transform_without_pyarrow():
    """Check that string and number columns are counted, fitted and transformed
    when pyarrow is not installed (it is optional: only Arrow-backed columns
    need it, and the code that reads them must not import it for others)."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "import numpy as np, pandas as pd\n"
        "from partikit import column_tables\n"
        "from partikit.groupers import KhiopsGrouper, CHAIDGrouper, MaxCutGrouper\n"
        "from partikit.discretizers import MDLPDiscretizer\n"
        "from partikit.tree import PartitionTreeClassifier\n"
        "rng = np.random.default_rng(0)\n"
        "n = 600_000\n"
        "X = pd.DataFrame({'s': rng.choice(['a', 'b', 'c'], n),\n"
        "                  'o': rng.choice(['x', 'y'], n).astype(object),\n"
        "                  'i': rng.integers(0, 5, n)})\n"
        "y = rng.integers(0, 2, n)\n"
        "for est in (KhiopsGrouper(), CHAIDGrouper(), MaxCutGrouper()):\n"
        "    est.fit(X, y).transform(X)\n"
        "MDLPDiscretizer().fit(X[['i']], y).transform(X[['i']])\n"
        "PartitionTreeClassifier(max_depth=2).fit(X, y).predict(X)\n"
        "column_tables(X, y)\n"
        "print('ok')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
