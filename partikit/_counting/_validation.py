# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Column-wise input validation that keeps each column's own dtype.

scikit-learn's ``check_array`` turns a DataFrame into one homogeneous array; for
categorical data that either coerces strings to objects (a copy of every column) or
numbers to float. Here every column is handled on its own, as
``sklearn.preprocessing._encoders._BaseEncoder._check_X`` does, and categories are
factorized by pandas: a ``category`` column gives its codes directly, with no hashing.
"""

from __future__ import annotations

import numbers
import sys
import threading
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_array, check_consistent_length

from partikit._compat import _check_sample_weight, validate_data
from partikit._kernels._tables import contingency_table
from partikit._threads import shared_threads

#: Kinds of category values a column may hold. A column's kind is recorded at fit
#: time so that a column that changes kind at transform time is reported instead of
#: silently mapping every value to the unknown group.
STRING_KIND = "string"
NUMERIC_KIND = "numeric"


def _is_pandas_df(X) -> bool:
    return isinstance(X, pd.DataFrame)


def _is_polars_df(X) -> bool:
    polars = sys.modules.get("polars")
    return polars is not None and isinstance(X, polars.DataFrame)


def _check_columns(X) -> None:
    """Raise for duplicated column names and for date or time columns.

    A column chosen by name would be ambiguous with duplicated names; no
    partikit estimator partitions dates (as categories every instant would be a
    category, as numbers their unit would be arbitrary).
    """
    if _is_pandas_df(X):
        names = pd.Index(X.columns)
        kinds = [
            (name, getattr(dtype, "kind", "O"))
            for name, dtype in zip(names, X.dtypes, strict=True)
        ]
    elif _is_polars_df(X):
        names = pd.Index(X.columns)
        kinds = [
            (name, "M" if dtype.is_temporal() else "O")
            for name, dtype in zip(names, X.dtypes, strict=True)
        ]
    else:
        X = np.asarray(X) if not hasattr(X, "dtype") else X
        kind = getattr(getattr(X, "dtype", None), "kind", "O")
        kinds = [(None, kind)]
        names = pd.Index([])
    if names.has_duplicates:
        duplicated = names[names.duplicated()].unique().tolist()
        raise ValueError(
            f"X has duplicated column names {duplicated}: every column must have a "
            "name of its own."
        )
    for name, kind in kinds:
        if kind in "Mm":
            where = "X" if name is None else f"Column {name!r}"
            raise TypeError(
                f"{where} holds dates or times; partikit groups categorical values "
                "and cuts numbers. Convert it first: to a number (e.g. days since a "
                "date) or to categories (e.g. the month or the weekday)."
            )


def check_categorical_X(estimator, X, *, reset: bool) -> list:
    """Validate ``X`` for a grouper and return its columns, dtypes untouched.

    Parameters
    ----------
    estimator : estimator instance
        Receives ``n_features_in_`` and ``feature_names_in_`` when ``reset=True``;
        they are checked against ``X`` otherwise.
    X : {array-like, pandas or polars DataFrame} of shape (n_samples, n_features)
        The input. Lists and numpy arrays are converted with ``dtype=None`` so that
        strings stay strings.
    reset : bool
        True in ``fit``, False in ``transform``.

    Returns
    -------
    columns : list
        One entry per feature: a pandas Series for pandas input, a 1-D numpy array
        otherwise (polars columns are converted with ``Series.to_numpy``).
    """
    _check_columns(X)
    if not (_is_pandas_df(X) or _is_polars_df(X)):
        # Missing values stay as they are: they are a category of their own.
        X = check_array(
            X,
            dtype=None,
            ensure_all_finite=False,
            ensure_min_samples=0,
            ensure_min_features=0,
        )
    n_samples, n_features = X.shape
    if n_samples == 0:
        raise ValueError(
            f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 "
            "is required."
        )
    if n_features == 0:
        raise ValueError(
            f"Found array with 0 feature(s) (shape={X.shape}) while a minimum of 1 "
            "is required."
        )
    if _is_polars_df(X):
        # scikit-learn reads feature names through the dataframe interchange
        # protocol, which polars >= 2 dropped: give it an empty pandas stand-in.
        names = pd.DataFrame(columns=pd.Index(X.columns, dtype=object))
        validate_data(estimator, X=names, reset=reset, skip_check_array=True)
    else:
        validate_data(estimator, X=X, reset=reset, skip_check_array=True)
    if _is_pandas_df(X):
        return [X.iloc[:, j] for j in range(n_features)]
    if _is_polars_df(X):
        return [_polars_column_to_numpy(X[:, j]) for j in range(n_features)]
    return [X[:, j] for j in range(n_features)]


def _polars_column_to_numpy(column) -> np.ndarray:
    polars = sys.modules["polars"]
    if isinstance(column.dtype, (polars.Categorical, polars.Enum)):
        column = column.cast(polars.String)
    return column.to_numpy()


@dataclass
class FactorizedColumn:
    """A column as integer codes into its sorted categories.

    The row codes are kept as the factorizer produced them (for a ``category``
    column, the column's own codes: no copy); ``lookup`` translates them, so that
    ``lookup[raw_codes + 1]`` is the index of each row's value in ``categories``,
    and -1 for a missing value.

    Attributes
    ----------
    categories : ndarray
        The distinct non-missing values, sorted (unless
        :func:`factorize_column` was told not to sort them, when they may also
        hold values absent from the column).
    raw_codes : ndarray of int
        One code per row, -1 for a missing value.
    lookup : ndarray of intp of shape (n_raw_codes + 1,)
        Raw code + 1 -> index into ``categories`` (slot 0, the missing value, is -1).
    kind : {"string", "numeric"}
        What the categories are.
    """

    categories: np.ndarray
    raw_codes: np.ndarray
    lookup: np.ndarray
    kind: str


def column_kind(values, feature_name) -> str:
    """Return ``"string"`` or ``"numeric"`` for non-missing category values.

    Raises a ``TypeError`` for a column mixing strings and numbers (they cannot be
    sorted into a deterministic category order) or holding other objects.
    """
    values = np.asarray(values)
    if values.dtype.kind in "biuf":
        return NUMERIC_KIND
    if values.dtype.kind in "US":
        return STRING_KIND
    if values.dtype.kind != "O":
        raise TypeError(
            f"Column {feature_name!r} has dtype {values.dtype}; groupers accept "
            "string, categorical, integer, float and boolean columns."
        )
    # pandas' type inference is a C loop; the Python loops below, 20 times
    # slower, only run for what it does not settle.
    inferred = pd.api.types.infer_dtype(values, skipna=False)
    if inferred == "string":
        return STRING_KIND
    if inferred in ("integer", "floating", "mixed-integer-float", "boolean"):
        return NUMERIC_KIND
    is_string = np.fromiter((isinstance(v, str) for v in values), bool, len(values))
    if is_string.all():
        return STRING_KIND
    is_number = np.fromiter(
        (isinstance(v, (numbers.Number, np.number, np.bool_)) for v in values),
        bool,
        len(values),
    )
    if is_number.all():
        return NUMERIC_KIND
    kinds = sorted({type(v).__name__ for v in values})
    raise TypeError(
        f"Column {feature_name!r} mixes values of types {kinds}; the categories of a "
        "column must be all strings or all numbers."
    )


def check_finite_categories(values, feature_name) -> None:
    """Raise a ``ValueError`` if numeric category values contain infinity."""
    values = np.asarray(values)
    if values.dtype.kind == "f" or values.dtype.kind == "O":
        with np.errstate(invalid="ignore"):
            as_float = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy()
        if np.isinf(as_float).any():
            raise ValueError(
                f"Input X contains infinity in column {feature_name!r}; a category "
                "must be a finite number or a string (NaN is the missing category)."
            )


#: Rows hashed at a time by :func:`factorize`.
_FACTORIZE_CHUNK = 1 << 16
#: Distinct values past which :func:`factorize` hashes the whole column at once.
_MAX_CHUNKED_UNIQUES = _FACTORIZE_CHUNK // 4


def factorize(column):
    """``pd.factorize`` in chunks of rows: codes (intp, -1 missing) and uniques.

    ``pd.factorize`` sizes its hash table for one entry per row (about 8 times the
    codes for an object column). Hashing chunks of ``_FACTORIZE_CHUNK`` rows and
    merging their few uniques through a small index keeps the only row-sized
    allocation the codes, at about the same speed. An Arrow-backed column (pandas
    3's default string dtype when pyarrow is installed) is encoded whole:
    pyarrow's memo table holds the distinct values only, and the chunks' merging
    would cost a third more time. A
    column whose chunks hold many distinct values (past
    ``_MAX_CHUNKED_UNIQUES``) is hashed whole instead: its uniques are then
    about as large as that hash table, and merging them chunk by chunk would
    cost a pass over all the uniques seen so far at every chunk.
    """
    dtype = getattr(column, "dtype", None)
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "python":
        # The Python-backed string array's own object array (a view) hashes
        # about twice as fast as the array itself (1M rows: 23 against 45 ms),
        # to the same codes and values (its missing values are NaN or pd.NA).
        column = np.asarray(column.array)
    n_rows = len(column)
    if _arrow_backed(dtype):
        encoded = _arrow_factorize(column)
        if encoded is not None:
            return encoded
    if n_rows <= _FACTORIZE_CHUNK or _arrow_backed(dtype):
        # pyarrow's dictionary encoding hashes into a table of the distinct
        # values, not of the rows: whole, it is a third faster than by chunks
        # (1M rows: 15 against 21 ms, pandas 3's default string dtype)
        codes, uniques = pd.factorize(column, sort=False, use_na_sentinel=True)
        return codes, np.asarray(uniques)
    codes = np.empty(n_rows, dtype=np.intp)
    seen = None
    for start in range(0, n_rows, _FACTORIZE_CHUNK):
        chunk = column[start : start + _FACTORIZE_CHUNK]
        chunk_codes, chunk_uniques = pd.factorize(chunk, use_na_sentinel=True)
        if seen is None:
            seen = pd.Index(chunk_uniques)
            lookup = np.arange(len(seen))
        else:
            lookup = seen.get_indexer(chunk_uniques)
            new = lookup < 0
            if new.any():
                lookup[new] = len(seen) + np.arange(new.sum())
                seen = seen.append(pd.Index(chunk_uniques[new]))
        if len(seen) > _MAX_CHUNKED_UNIQUES:
            codes, uniques = pd.factorize(column, sort=False, use_na_sentinel=True)
            return codes, np.asarray(uniques)
        # chunk code -1 (missing) takes the appended -1 (mode="wrap")
        np.take(
            np.append(lookup, -1),
            chunk_codes,
            mode="wrap",
            out=codes[start : start + len(chunk_codes)],
        )
    return codes, np.asarray(seen)


#: Rows per thread, at least, when an Arrow column is encoded or looked up by slices.
_MIN_ARROW_ROWS_PER_THREAD = 1 << 18


def _arrow_slices(column, work):
    """Run ``work(values, start)`` on row slices of an Arrow string column, in threads.

    pyarrow's hash kernels (``dictionary_encode``, ``index_in``) run in one
    thread and release the GIL; a column of at least twice
    ``_MIN_ARROW_ROWS_PER_THREAD`` rows is cut into one slice per thread, up to
    pyarrow's CPU count (``pyarrow.set_cpu_count``). The threads are
    :func:`~partikit._threads.shared_threads` (new threads cost pyarrow's
    allocator about a quarter of the time saved).

    Returns
    -------
    results : list or None
        ``work``'s results by slice (``start``: the slice's first row); None
        for a column that is not Arrow strings, or too short to share out.
    """
    if not isinstance(column, pd.Series) or not _arrow_backed(column.dtype):
        return None
    import pyarrow as pa

    n_threads = min(pa.cpu_count(), len(column) // _MIN_ARROW_ROWS_PER_THREAD)
    if n_threads < 2:
        return None
    values = column.array.__arrow_array__()
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        return None
    pool = shared_threads(n_threads)
    bounds = np.linspace(0, len(values), n_threads + 1).astype(np.intp)
    slices = [
        values.slice(start, n)
        for start, n in zip(bounds[:-1], np.diff(bounds), strict=True)
    ]
    return list(pool.map(work, slices, bounds[:-1]))


def _arrow_encode(column, then=None):
    """An Arrow-backed string column dictionary-encoded by slices in threads
    (:func:`_arrow_slices`); None when it cannot be shared out.

    Each thread dictionary-encodes its slice; the slices' dictionaries are then
    united in row order, which numbers the strings as ``pd.factorize`` does (in
    the order of their first row).

    Parameters
    ----------
    column : pandas Series
    then : callable or None
        ``then(start, n_entries, indices)``, called in the slice's thread once
        it is encoded (``n_entries``: its dictionary's size); its result ends
        each piece.

    Returns
    -------
    uniques : pyarrow Array
        The distinct strings, in the order of their first row.
    pieces : list of (int, ndarray of int32, ndarray of intp[, object])
        Per slice: its first row, its rows' indices into its own dictionary
        (-1 for a missing value), and the code (in ``uniques``) of each entry
        of its dictionary followed by a -1 (``np.take(..., mode="wrap")`` of an
        index gives the code); then ``then``'s result, if given.
    """
    if not isinstance(column, pd.Series) or not _arrow_backed(column.dtype):
        return None  # decided before pyarrow is imported: it may not be installed
    import pyarrow as pa
    import pyarrow.compute as pc

    if len(column) < 2 * _MIN_ARROW_ROWS_PER_THREAD or _many_distinct(column):
        return None  # too short to share out (no estimate then), or not worth it

    def encode(part, start):
        # a chunked slice is encoded into one dictionary that all its chunks share
        indices = pc.dictionary_encode(part).combine_chunks()
        dictionary, indices = indices.dictionary, indices.indices
        if indices.null_count:
            indices = indices.fill_null(-1)
        indices = indices.to_numpy()
        if then is None:
            return start, dictionary, indices
        return start, dictionary, indices, then(start, len(dictionary), indices)

    sliced = _arrow_slices(column, encode)
    if sliced is None:
        return None
    # The slices' dictionaries, one after the other, encoded once: their values
    # in the order of their first row, and each entry's code (one hash pass
    # over the dictionaries).
    dictionaries = [piece[1] for piece in sliced]
    united = pc.dictionary_encode(pa.concat_arrays(dictionaries))
    codes = united.indices.to_numpy().astype(np.intp)
    bounds = np.cumsum([0] + [len(d) for d in dictionaries])
    pieces = [
        (start, indices, np.append(codes[low:high], -1), *more)
        for (start, _, indices, *more), low, high in zip(
            sliced, bounds[:-1], bounds[1:], strict=True
        )
    ]
    return united.dictionary, pieces


#: Rows of the sample by which :func:`_many_distinct` estimates a column's
#: number of distinct values.
_DISTINCT_SAMPLE = 1 << 12


def _many_distinct(column):
    """Whether an Arrow string column seems to hold more than one distinct value
    per 8 rows, when encoding it by slices costs more than whole.

    Each slice's hash table then holds most of its rows, and the slices are
    slower in two threads than the column in one (1M rows: 230 ms against 95 ms
    at 1,000,000 distinct strings, 58 against 44 ms at 200,000; 11 against 15
    ms at 20,000). The estimate counts the distinct values of a random sample
    of 4,096 rows (0.1-0.3 ms) and compares them with what a column of ``n / 8``
    equally frequent values would show.
    """
    import pyarrow.compute as pc

    n = len(column)
    values = column.array.__arrow_array__()
    # rows drawn at random (a fixed seed): an evenly spaced sample of a column
    # sorted by value would see a new value at almost every row
    rows = np.random.default_rng(0).integers(0, n, min(_DISTINCT_SAMPLE, n))
    sample = values.take(np.sort(rows))
    n_sample = len(sample)
    n_distinct = pc.count_distinct(sample, mode="only_valid").as_py()
    limit = n / 8
    expected = limit * -np.expm1(-n_sample / limit)
    return bool(n_distinct > expected)


def _arrow_factorize(column):
    """Codes and uniques of an Arrow-backed string column, encoded by slices in
    threads (:func:`_arrow_encode`); None when it cannot be shared out.

    The codes and uniques are ``pd.factorize``'s: the categories in the order of
    their first row, -1 for a missing value (1M rows of 1,000 strings: 8 ms in
    2 threads, against 16 ms).
    """
    encoded = _arrow_encode(column)
    if encoded is None:
        return None
    uniques, pieces = encoded
    codes = _translate_pieces(pieces, len(column), lambda lookup: lookup)
    return codes, uniques.to_numpy(zero_copy_only=False)


def _translate_pieces(pieces, n_rows, recode):
    """The codes of every row of :func:`_arrow_encode`'s pieces, in threads.

    Parameters
    ----------
    pieces : list
        As :func:`_arrow_encode` returns them.
    n_rows : int
    recode : callable
        Takes a piece's lookup (united code of each dictionary entry, -1 last)
        and returns the code to write for each entry, -1 last.

    Returns
    -------
    codes : ndarray of intp of shape (n_rows,)
    """
    codes = np.empty(n_rows, dtype=np.intp)

    def translate(piece):
        # numpy's take releases the GIL: the slices' codes are written in the
        # threads too (most of its time is the first writes to the codes' pages)
        start, indices, lookup = piece[:3]
        np.take(
            recode(lookup), indices, mode="wrap",
            out=codes[start : start + len(indices)],
        )  # fmt: skip

    # list(): waits for every slice (and raises what a thread raised)
    list(shared_threads(len(pieces)).map(translate, pieces))
    return codes


#: The memory budget of one fit, in float64 cells (512 MiB): the tables of
#: all its columns (values x classes, the joint tables too) and the dense
#: working arrays that stage 2 makes from them (a copy of each table, a
#: grouper's pairwise matrix: ``_working_cells`` of each estimator). A fit
#: past it is refused with a :class:`TableSizeError` before it allocates the
#: table, or the working arrays, that would exceed it.
MAX_FIT_CELLS = 1 << 26

#: The former per-column limit, now the budget of the whole fit.
MAX_TABLE_CELLS = MAX_FIT_CELLS


class TableSizeError(ValueError):
    """A table too large to allocate: the target, not the column, is at fault.

    Raised by :func:`check_table_size`; a report lets it through instead of
    leaving the one column out, since every column has as many classes.
    """


def _gib(cells):
    if cells * 8 < 2**30:
        return f"{cells * 8 / 2**20:.1f} MiB"
    return f"{cells * 8 / 2**30:.2f} GiB"


class TableBudget:
    """The cells the tables of one fit take, reserved before each is allocated.

    One per count of a fit's columns (``count_tables``); thread-safe, as the
    columns are counted in threads (``n_jobs``). Each table's rows are
    reserved before it is allocated; a reservation past ``cells`` raises a
    :class:`TableSizeError` naming every table counted so far and the ways
    out.

    Parameters
    ----------
    n_classes : int
        Columns of every table (3 for a continuous target's moments).
    cells : int or None, default=None
        None: ``MAX_FIT_CELLS``.
    """

    def __init__(self, n_classes, cells=None):
        self.n_classes = int(n_classes)
        self.cells = int(MAX_FIT_CELLS if cells is None else cells)
        self.used = 0
        self.sizes = []
        self._lock = threading.Lock()

    def reserve(self, n_rows, feature_name, *, numeric=False, extra=0, what=""):
        """Reserve a table of ``n_rows`` rows (and ``extra`` working cells).

        Parameters
        ----------
        n_rows : int
            Rows of the table (the column's values, and the missing row).
        feature_name : str
        numeric : bool, default=False
            Whether the column is numeric (``max_values`` pools it).
        extra : int, default=0
            Working cells reserved beside the table (stage 2's arrays).
        what : str, default=""
            What the extra cells are, for the message.
        """
        cells = int(n_rows) * self.n_classes + int(extra)
        with self._lock:
            self.sizes.append((feature_name, int(n_rows) - 1, numeric, cells, what))
            self.used += cells
            if self.used <= self.cells:
                return
            sizes, used = list(self.sizes), self.used
        raise table_size_error(sizes, self.n_classes, used, self.cells)


def table_size_error(sizes, n_classes, used, cells):
    """The :class:`TableSizeError` of a fit whose tables pass the budget."""
    largest = sorted(sizes, key=lambda size: -size[3])
    listed = ", ".join(
        f"the {what} of {name!r}: {_gib(c)}"
        if what
        else f"{name!r}: {n_values:,} values x {n_classes:,} = {_gib(c)}"
        for name, n_values, _, c, what in largest[:5]
    )
    if len(largest) > 5:
        listed += f", and {len(largest) - 5} more"
    ways = (
        "If y is a quantity rather than class labels, say so with "
        "target_type='continuous' (each table then has 3 columns: weight, sum, "
        "sum of squares; CHAIDGrouper, MaxCutGrouper, BlockOptDiscretizer, "
        "PartitionEncoder and column_tables take it); otherwise group the "
        "classes of y (fewer classes), or fit fewer columns at a time"
    )
    numeric = [size for size in largest if size[2]]
    # rows per table that would fit the budget with every table counted
    rows = cells // max(len(sizes), 1) // n_classes - 1
    if numeric and rows >= 2:
        ways += (
            "; numeric columns (" + ", ".join(repr(s[0]) for s in numeric[:5])
            + f") take max_values (e.g. max_values={min(rows, 1000)}), which pools "
            "their distinct values into at most that many rows before counting"
        )  # fmt: skip
    return TableSizeError(
        f"y has {n_classes:,} classes: the tables of this fit would take "
        f"{_gib(used)} at least, past the budget of "
        f"{cells * 8 / 2**20:.0f} MiB (partikit's MAX_FIT_CELLS, {cells:,} cells). "
        f"Largest: {listed}. {ways}."
    )


def check_table_size(n_rows, n_classes, feature_name, budget=None, *, numeric=False):
    """Raise a ``ValueError`` before a table past the fit's budget is allocated.

    The error is a :class:`TableSizeError`.

    A target of thousands of classes (a numeric target taken as labels) times
    columns of thousands of values makes dense tables of gigabytes: the
    message names the sizes and the ways out instead of letting the operating
    system kill the process.

    Parameters
    ----------
    n_rows : int
        Rows of the table (the column's values, and the missing row).
    n_classes : int
    feature_name : str
    budget : TableBudget or None, default=None
        The fit's budget, which the table is reserved from; None: a budget of
        its own (this table alone is checked against ``MAX_FIT_CELLS``).
    numeric : bool, default=False
        Whether the column is numeric (the message then names ``max_values``).
    """
    if budget is None:
        budget = TableBudget(n_classes)
    budget.reserve(n_rows, feature_name, numeric=numeric)


def arrow_contingency_table(column, feature_name, y_codes, n_classes, budget=None):
    """Sorted categories and table of an Arrow string column, counted in threads.

    For a column :func:`_arrow_encode` can share out: each thread counts the
    rows of its slice by its own dictionary's entries, right after encoding it
    (no array of codes for the whole column, and no second round of the
    threads), and each slice's rows are added to the rows of their categories
    in the sorted table. Unweighted only, so the counts are integers and the
    sum is the table of a count in row order, bit for bit. When a table per
    slice would hold more cells than the slice has rows (many categories: at
    a million, two tables of 80 MB and their sum cost 25% of the fit), the
    threads write each row's table row instead, and one table is counted.

    Returns
    -------
    counted : tuple of (ndarray, str, ndarray of float64) or None
        The categories, their kind and the table (the missing row last); None
        when the column is not one :func:`_arrow_encode` shares out.
    """

    def count(start, n_entries, indices):
        if (n_entries + 1) * n_classes > len(indices):
            return None  # many categories: see below
        # a row per dictionary entry, the missing row last (lookup[0] < 0)
        rows = np.arange(-1, n_entries, dtype=np.intp)
        return contingency_table(
            indices, rows, y_codes[start : start + len(indices)], None,
            n_entries + 1, n_classes,
        )  # fmt: skip

    encoded = _arrow_encode(column, count)
    if encoded is None:
        return None
    uniques, pieces = encoded
    categories, lookup, kind = _sorted_categories(
        uniques.to_numpy(zero_copy_only=False), feature_name
    )
    n_rows = len(categories) + 1
    check_table_size(n_rows, n_classes, feature_name, budget)
    if any(piece[3] is None for piece in pieces):
        # a table per slice would cost more than the rows (many categories):
        # the rows' table rows are written in the threads, counted in one table
        # (the row of each dictionary entry, -1 (missing) last)
        codes = _translate_pieces(
            pieces, len(column), lambda piece_lookup: lookup[piece_lookup + 1]
        )
        rows = np.arange(-1, n_rows - 1, dtype=np.intp)
        table = contingency_table(codes, rows, y_codes, None, n_rows, n_classes)
        return categories, kind, table
    table = np.zeros((n_rows, n_classes))
    for _, _, piece_lookup, piece_table in pieces:
        # entry i's table row is lookup[code + 1], the missing row (-1) last:
        # distinct rows, so one indexed addition adds each
        rows = lookup[piece_lookup + 1]
        rows[rows < 0] = n_rows - 1
        table[rows] += piece_table
    return categories, kind, table


def _arrow_backed(dtype):
    """Whether a column of this dtype is stored by pyarrow (pandas' Arrow dtypes)."""
    return getattr(dtype, "storage", None) == "pyarrow" or type(dtype).__name__ == (
        "ArrowDtype"
    )


def integer_range(values):
    """Smallest and largest value of a numpy integer column, else None.

    None for any column that is not a non-empty 1-D numpy integer array (or a
    pandas Series of one; a pandas ``category`` column is read through its own
    codes instead), and for unsigned values beyond the largest ``intp``, so that
    a value minus the smallest always fits an ``intp``.

    Parameters
    ----------
    values : pandas Series or ndarray

    Returns
    -------
    span : tuple of (int, int) or None
    """
    dtype = getattr(values, "dtype", None)
    if isinstance(dtype, (pd.StringDtype, pd.CategoricalDtype)) or (
        isinstance(dtype, np.dtype) and dtype.kind not in "iu"
    ):
        # decided by the dtype: np.asarray would turn Arrow-backed strings into
        # one Python object per row
        return None
    values = np.asarray(values)
    if values.dtype.kind not in "iu" or values.ndim != 1 or len(values) == 0:
        return None
    low, high = int(values.min()), int(values.max())
    if high > np.iinfo(np.intp).max:
        return None
    return low, high


def small_integer_range(values, max_values):
    """An integer column and its range when it spans at most ``max_values``.

    For a caller that reads the column through its values (a value minus the
    smallest is its code: no factorization, no array of codes).

    Parameters
    ----------
    values : pandas Series or ndarray
    max_values : int
        Largest number of integers the range may hold.

    Returns
    -------
    span : tuple of (ndarray, int, int) or None
        The column as a numpy array, its smallest value and the number of
        integers of its range; None when :func:`integer_range` is None or the
        range is larger.
    """
    span = integer_range(values)
    if span is None or span[1] - span[0] + 1 > max_values:
        return None
    return np.asarray(values), span[0], span[1] - span[0] + 1


#: An integer column of range below this, or below an eighth of its length, is
#: looked up (``factorize_column(sort=False)``) through its whole range.
_MIN_LOOKUP_RANGE = 1 << 12


def _count_integers(values, *, present=True):
    """Codes and sorted uniques of an integer column by counting, not hashing.

    For a numpy integer column whose values span a range at most a few times
    its length: the codes are the values minus the smallest (the column itself,
    no copy, when that is 0 and the column is already ``intp``), the uniques the
    values present. One ``bincount`` replaces ``pd.factorize``'s hashing and the
    sort of the uniques. ``present=False`` (a column only looked up) skips the
    ``bincount`` when the range is small against the column: the uniques are
    then every integer of the range. Returns None for any other column.
    """
    span = integer_range(values)
    if span is None:
        return None
    values = np.asarray(values)
    low, high = span
    if high - low >= 2 * len(values) + (1 << 16):
        return None
    if low == 0 and values.dtype == np.intp:
        codes = np.ascontiguousarray(values)
    else:
        codes = np.subtract(values, low, dtype=np.intp)
    n_values = high - low + 1
    if not present and n_values <= max(len(values) // 8, _MIN_LOOKUP_RANGE):
        uniques = (np.arange(n_values) + low).astype(values.dtype)
        return codes, uniques, np.arange(-1, n_values, dtype=np.intp)
    present = np.bincount(codes, minlength=high - low + 1) > 0
    uniques = np.flatnonzero(present)
    # codes of absent values occur in no row; they point at category 0
    lookup = np.zeros(high - low + 2, dtype=np.intp)
    lookup[0] = -1
    lookup[1:][uniques] = np.arange(len(uniques))
    return codes, (uniques + low).astype(values.dtype), lookup


def sorting_order(uniques, kind):
    """Stable order of distinct category values.

    numpy's variable-width strings (numpy >= 2) sort a million strings about
    twice as fast as Python objects, in the same (code point) order.
    """
    if kind == STRING_KIND and len(uniques) > 10_000:
        string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
        if string_dtype is not None:
            try:
                return np.argsort(uniques.astype(string_dtype()), kind="stable")
            except (TypeError, ValueError, UnicodeEncodeError):
                pass  # e.g. lone surrogates: Python's own comparison below
    return np.argsort(uniques, kind="stable")


def factorize_column(
    column, feature_name, *, sort=True, known=None
) -> FactorizedColumn:
    """Turn one column into sorted categories and integer codes.

    A pandas ``category`` column uses its own codes, translated through a lookup
    table of the size of its categories (no hashing of the rows); an integer
    column over a modest range is counted (its values are its codes). Any other
    column is factorized by ``pandas.factorize``. NaN, None and ``pd.NA`` all
    become the one missing value.

    Parameters
    ----------
    column : pandas Series or 1-D ndarray
        The values of one feature.
    feature_name : str
        Used in error messages.
    sort : bool, default=True
        False leaves the categories in the order the factorizer met them (a
        pandas ``category`` column: its own order), for a caller that only looks
        them up (transform): sorting a million strings takes about a second. An
        integer column over a small range then has every integer of its range
        as categories, present in the column or not (no count of its values).
    known : ndarray or None, default=None
        With ``sort=False``, the categories learned in fit (sorted, the missing
        value last when seen). An Arrow-backed string column whose values are
        all among them is looked up in them by pyarrow (``index_in``: a hash
        table of the known values, probed by each row, a third faster than
        encoding the rows); its categories are then the known strings. Any
        other column, or one holding a value unseen in fit, is factorized.

    Returns
    -------
    FactorizedColumn
    """
    if known is not None and not sort:
        looked_up = _arrow_lookup(column, known)
        if looked_up is not None:
            return looked_up
    if isinstance(column, pd.Series) and isinstance(column.dtype, pd.CategoricalDtype):
        uniques = np.asarray(column.cat.categories)
        # a read-only view of the column's own codes (Series.cat.codes copies them)
        raw_codes = column.array.codes
    else:
        counted = _count_integers(column, present=sort)
        if counted is not None:
            raw_codes, uniques, lookup = counted
            return FactorizedColumn(uniques, raw_codes, lookup, NUMERIC_KIND)
        raw_codes, uniques = factorize(column)
    categories, lookup, kind = _sorted_categories(uniques, feature_name, sort)
    return FactorizedColumn(categories, raw_codes, lookup, kind)


def _sorted_categories(uniques, feature_name, sort=True):
    """The distinct values of a column as its categories.

    Returns
    -------
    categories : ndarray
        ``uniques`` sorted (left in order with ``sort=False``); strings as
        objects.
    lookup : ndarray of intp of shape (len(uniques) + 1,)
        ``lookup[i + 1]`` is the category of ``uniques[i]``; ``lookup[0]`` is -1
        (the missing value).
    kind : {"string", "numeric"}
    """
    kind = column_kind(uniques, feature_name)
    if kind == NUMERIC_KIND:
        check_finite_categories(uniques, feature_name)
    else:
        # numpy '<U', pandas 'str' and 'string' columns all give object categories.
        uniques = uniques.astype(object)
    # Sorting only the distinct values is what makes the category order (and thus
    # every tie-break downstream) independent of row order.
    if not sort:
        return uniques, np.arange(-1, len(uniques), dtype=np.intp), kind
    order = sorting_order(uniques, kind)
    lookup = np.empty(len(uniques) + 1, dtype=np.intp)
    lookup[0] = -1
    lookup[1:][order] = np.arange(len(uniques))
    return uniques[order], lookup, kind


def _arrow_lookup(column, known):
    """An Arrow-backed string column as codes into the known strings, or None
    when it is not one or holds a string that is not among them."""
    if not isinstance(column, pd.Series) or not _arrow_backed(column.dtype):
        return None
    strings = [value for value in known if isinstance(value, str)]
    n_known = len(known) - (1 if len(known) and pd.isna(known[-1]) else 0)
    if len(strings) != n_known:
        return None  # numbers in fit: the kinds differ, category_lookup says so
    import pyarrow as pa
    import pyarrow.compute as pc

    values = column.array.__arrow_array__()
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        return None
    value_set = pa.array(strings, type=values.type)

    raw_codes = np.empty(len(values), dtype=np.intp)

    def look_up(part, start):
        index = pc.index_in(part, value_set=value_set)
        # a null index is a missing value or a string unseen in fit
        found = index.null_count == part.null_count
        if found:
            raw_codes[start : start + len(part)] = index.fill_null(-1).to_numpy()
        return found

    found = _arrow_slices(column, look_up) or [look_up(values, 0)]
    if not all(found):
        return None
    lookup = np.arange(-1, len(strings), dtype=np.intp)
    return FactorizedColumn(
        np.array(strings, dtype=object), raw_codes, lookup, STRING_KIND
    )


def append_missing(categories):
    """Append the missing category, ``np.nan``, to sorted categories.

    Float categories stay float; others become objects so that their values (ints,
    bools, strings) are kept exactly.
    """
    if categories.dtype.kind != "f":
        categories = categories.astype(object)
    return np.append(categories, np.array([np.nan], dtype=categories.dtype))


def category_lookup(factorized, categories, values, fitted_kind, name):
    """Translate a column's raw codes into values learned per fitted category.

    Parameters
    ----------
    factorized : FactorizedColumn
        The column as :func:`factorize_column` returns it.
    categories : ndarray
        The categories learned in fit, sorted, the missing category (NaN) last
        when there is one.
    values : ndarray of int
        The value of each category (a group id, a level).
    fitted_kind : {"string", "numeric"}
        What the categories were in fit.
    name : str
        The column's name, for the error message.

    Returns
    -------
    lookup : ndarray of intp of shape (n_raw_codes + 1,)
        ``lookup[raw code + 1]`` is the value of the row's category, -1 for a
        category not learned in fit (slot 0 is the missing value).

    Raises
    ------
    ValueError
        If the column held another kind of values in fit.
    """
    has_missing = len(categories) > 0 and pd.isna(categories[-1])
    known = categories[:-1] if has_missing else categories
    seen_values = factorized.categories
    if len(seen_values) and factorized.kind != fitted_kind:
        raise ValueError(
            f"Column {name!r} held {fitted_kind} categories in fit but holds "
            f"{factorized.kind} values in transform."
        )
    position = pd.Index(known).get_indexer(seen_values)
    value_of_seen = np.where(position >= 0, values[np.maximum(position, 0)], -1)
    lookup = np.empty(len(factorized.lookup), dtype=np.intp)
    lookup[0] = values[-1] if has_missing else -1
    lookup[1:] = value_of_seen[factorized.lookup[1:]]
    return lookup


def label_kind(labels):
    """Whether class labels are ``"strings"``, ``"numbers"`` or ``"mixed"``.

    Booleans, integers and floats are numbers (``1``, ``1.0`` and ``True`` are
    one label, as in a numpy concatenation of them). Labels of other types
    (``None`` apart, which a target never holds) are neither and are
    ``"other"``.

    Parameters
    ----------
    labels : ndarray
        Class labels, or the classes of a table.

    Returns
    -------
    kind : {"strings", "numbers", "mixed", "other"}
    """
    labels = np.asarray(labels)
    if labels.dtype.kind in "biuf":
        return "numbers"
    if labels.dtype.kind in "US":
        return "strings"
    # object labels: one pass over the distinct types only
    types = {type(label) for label in labels.ravel().tolist()}
    strings = any(issubclass(t, str) for t in types)
    numbers = any(issubclass(t, (bool, int, float, np.number, np.bool_)) for t in types)
    if strings and numbers:
        return "mixed"
    if strings and all(issubclass(t, str) for t in types):
        return "strings"
    if numbers and all(
        issubclass(t, (bool, int, float, np.number, np.bool_)) for t in types
    ):
        return "numbers"
    return "other"


def _first_of_type(labels, kind):
    """The first label that is a string (``kind="strings"``) or a number."""
    for label in np.asarray(labels).ravel().tolist():
        if isinstance(label, str) == (kind == "strings"):
            return label
    return None


def raise_mixed_labels(strings, numbers):
    """Raise the ``ValueError`` of class labels that mix strings and numbers.

    ``fit`` raises it for a target holding both, and ``partial_fit`` and the
    ``+`` of two :class:`~partikit.ColumnTables` for chunks whose labels
    differ in type: ``"0"`` and ``0`` are two labels, and uniting them
    silently would give the chunks another fit than their concatenation.

    Parameters
    ----------
    strings, numbers : ndarray
        Labels (or classes) holding the strings, and the numbers.
    """
    raise ValueError(
        "y mixes class labels of two types, strings (such as "
        f"{_first_of_type(strings, 'strings')!r}) and numbers (such as "
        f"{_first_of_type(numbers, 'numbers')!r}); give every label one type, "
        "in every chunk: y.astype(str) for strings, or numbers throughout."
    )


def check_same_label_types(a, b):
    """Raise :func:`raise_mixed_labels`'s error unless ``a`` and ``b`` are
    labels of one type (both strings or both numbers).

    Parameters
    ----------
    a, b : ndarray
        The classes of two chunks or two tables.
    """
    kinds = (label_kind(a), label_kind(b))
    if "mixed" in kinds:
        mixed = a if kinds[0] == "mixed" else b
        raise_mixed_labels(mixed, mixed)
    if set(kinds) == {"strings", "numbers"}:
        strings, numbers = (a, b) if kinds[0] == "strings" else (b, a)
        raise_mixed_labels(strings, numbers)


def _check_unknown_labels(y):
    """Raise the mixed-types error for a target of an unknown type (to
    scikit-learn) that mixes strings and numbers: clearer than its type."""
    if y.dtype == object and y.ndim == 1 and label_kind(y) == "mixed":
        raise_mixed_labels(y, y)


def check_classification_y(y, sample_weight=None, *, min_classes=2):
    """Validate a classification target and encode it as integer codes.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels of any type.
    sample_weight : ndarray of shape (n_samples,) or None
        Rows with zero weight do not count when the classes are learned.
    min_classes : {1, 2}, default=2
        Fewest classes accepted: 2 for the transformers (one class would make
        every column one group), 1 for the tree (one class is one leaf).

    Returns
    -------
    y_codes : ndarray of intp
        Index into ``classes`` for every row (rows of zero weight included).
    classes : ndarray
        The sorted distinct labels seen with positive weight.
    """
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    check_y_missing(y)
    # Integer and boolean 1-D labels are always binary or multiclass; other dtypes
    # (floats that may be continuous or NaN, objects) go through scikit-learn's
    # check, which sorts a copy of y.
    is_integer_labels = y.ndim == 1 and y.dtype.kind in "biu"
    target_type = (
        "multiclass" if is_integer_labels else type_of_target(y, input_name="y")
    )
    if target_type not in ("binary", "multiclass"):
        _check_unknown_labels(y)
        raise ValueError(
            f"Unknown label type: {target_type!r}. partikit's estimators need a "
            "classification target y (binary or multiclass class labels); a "
            "continuous target cannot be used as class labels."
        )
    y_codes, classes = _encode_labels(y)
    if sample_weight is not None:
        seen = np.bincount(y_codes, weights=sample_weight, minlength=len(classes)) > 0
        if not seen.all():
            # the rows of a dropped class have zero weight: any class code counts
            # them as nothing, and 0 keeps the first class's rows in range
            remap = np.maximum(np.cumsum(seen) - 1, 0)
            y_codes = remap[y_codes]
            classes = classes[seen]
    check_n_classes(classes, min_classes)
    return np.ascontiguousarray(y_codes, dtype=np.intp), classes


#: What ``target_type`` accepts (scikit-learn's ``TargetEncoder`` vocabulary).
TARGET_TYPES = ("auto", "binary", "multiclass", "continuous")


def guess_target_type(y):
    """The kind of a target, by scikit-learn's rule (``type_of_target``).

    Floats that are not all integers are ``"continuous"``; integers, booleans,
    strings and integral floats are class labels (``"binary"`` or
    ``"multiclass"``). A numeric target of integers that are amounts (prices,
    counts) is guessed as labels: say ``target_type="continuous"``.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)

    Returns
    -------
    target_type : {"binary", "multiclass", "continuous"}
    """
    if y.dtype.kind in "biu":
        return "multiclass"
    check_y_missing(y)
    guessed = type_of_target(y, input_name="y")
    if guessed in ("binary", "multiclass", "continuous"):
        return guessed
    _check_unknown_labels(y)
    raise ValueError(
        f"Unknown label type: {guessed!r}. partikit's estimators need a target y of "
        "one column: class labels (binary or multiclass) or a continuous target."
    )


def check_target(y, sample_weight=None, *, target_type="auto", min_classes=2):
    """Validate a target and encode it for counting.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    sample_weight : ndarray of shape (n_samples,) or None
    target_type : {"auto", "binary", "multiclass", "continuous"}, default="auto"
        ``"auto"`` guesses by :func:`guess_target_type`; ``"binary"`` and
        ``"multiclass"`` take ``y`` as class labels (``"binary"`` checks that
        there are two at most); ``"continuous"`` as numbers.
    min_classes : {1, 2}, default=2
        Fewest classes accepted for class labels (see
        :func:`check_classification_y`); a continuous target needs two distinct
        values of positive weight when it is 2.

    Returns
    -------
    y_encoded : ndarray
        The class index of every row (intp) for class labels; the target's
        values (float64) for a continuous target: what the counting functions
        take as ``y_codes``.
    classes : ndarray or None
        The sorted class labels; None for a continuous target.
    target_type : {"binary", "multiclass", "continuous"}
    """
    if target_type not in TARGET_TYPES:
        raise ValueError(
            f"target_type must be one of {list(TARGET_TYPES)}, got {target_type!r}."
        )
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if target_type == "auto":
        target_type = guess_target_type(y)
    if target_type != "continuous":
        y_codes, classes = check_classification_y(
            y, sample_weight, min_classes=min_classes
        )
        if target_type == "binary" and len(classes) > 2:
            raise ValueError(
                f"target_type='binary' but y has {len(classes)} classes; use "
                "target_type='multiclass' (or 'auto')."
            )
        return y_codes, classes, "binary" if len(classes) <= 2 else "multiclass"
    return (
        check_continuous_y(y, sample_weight, min_values=min_classes),
        None,
        target_type,
    )


def check_continuous_y(y, sample_weight=None, *, min_values=2):
    """Validate a continuous target: one column of finite numbers.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    sample_weight : ndarray of shape (n_samples,) or None
    min_values : {1, 2}, default=2
        Fewest distinct values (of positive weight) accepted: a constant
        target leaves nothing to learn for a transformer.

    Returns
    -------
    y : ndarray of float64 of shape (n_samples,)
    """
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(f"y must be one column; got an array of shape {y.shape}.")
    if y.dtype.kind not in "biuf":
        missing = np.asarray(pd.isna(y)).ravel()
        if missing.any():
            _raise_missing_continuous(missing)
        try:
            y = y.astype(np.float64)
        except (TypeError, ValueError):
            raise ValueError(
                "target_type='continuous' needs numbers in y; got values of dtype "
                f"{y.dtype} that are not numbers. Use class labels with "
                "target_type='auto'."
            ) from None
    y = np.ascontiguousarray(y, dtype=np.float64)
    finite = np.isfinite(y)
    if not finite.all():
        missing = np.isnan(y)
        if missing.any():
            _raise_missing_continuous(missing)
        first = int(np.flatnonzero(~finite)[0])
        raise ValueError(
            f"y has {int((~finite).sum())} infinite value(s), the first ({y[first]}) "
            f"at row {first}; a continuous target must be finite. Drop these rows."
        )
    if min_values >= 2 and len(y):
        kept = y if sample_weight is None else y[sample_weight > 0]
        if len(kept) and kept.min() == kept.max():
            raise ValueError(
                f"y is constant ({kept[0]}) once zero-weight rows are dropped; a "
                "supervised grouping or discretization needs a target that varies."
            )
    return y


def _raise_missing_continuous(missing):
    first = int(np.flatnonzero(missing)[0])
    raise ValueError(
        f"y has {int(missing.sum())} missing value(s) (NaN, None or pd.NA), the "
        f"first at row {first}; a continuous target cannot be missing. Drop these "
        "rows."
    )


def check_n_classes(classes, min_classes=2) -> None:
    """Raise a ``ValueError`` for fewer than ``min_classes`` classes.

    Parameters
    ----------
    classes : ndarray
        The classes seen with positive weight (of a target, or of the tables
        a fit reads).
    min_classes : {1, 2}, default=2
    """
    if len(classes) < min_classes:
        raise ValueError(
            f"y has {len(classes)} class ({classes.tolist()!r}) once zero-weight rows "
            "are dropped; a supervised grouping or discretization needs at least 2 "
            "classes. With a single class every column would be one group or one "
            "bin, which is almost certainly a mistake in the target."
        )


def check_y_missing(y) -> None:
    """Raise a ``ValueError`` when class labels hold missing values.

    Integer and boolean labels cannot hold one and cost nothing; float and object
    labels are checked (NaN, None, ``pd.NA``), so that they never reach the
    sorting of the labels, which fails on them with a ``TypeError`` about
    comparing floats and strings.

    Parameters
    ----------
    y : ndarray
        The labels.
    """
    if y.dtype.kind in "biuUS":
        return
    missing = np.asarray(pd.isna(y)).ravel()
    if missing.any():
        first = int(np.flatnonzero(missing)[0])
        raise ValueError(
            f"y has {int(missing.sum())} missing value(s) (NaN, None or pd.NA), the "
            f"first at row {first}; class labels cannot be missing. Drop these rows "
            "or give them a class of their own."
        )


#: Integer labels spanning at most this range are encoded by counting, not hashing.
_MAX_COUNTED_LABEL_RANGE = 1 << 20


def _encode_labels(y):
    """Sorted distinct labels and the code of every row.

    Integer and boolean labels over a modest range are encoded through a bincount
    of the range and a lookup, in one row-sized buffer; ``pd.factorize`` (used for
    everything else) builds a hash table sized for one entry per row.
    """
    if y.dtype.kind in "biu" and y.size:
        high = int(y.max())
        counts = None
        if y.dtype == np.intp and 0 <= high < _MAX_COUNTED_LABEL_RANGE:
            # the usual labels 0, 1, ...: bincount finds a negative label itself
            # (it raises), so that no pass looks for the smallest one
            try:
                counts = np.bincount(y, minlength=high + 1)
            except ValueError:
                counts = None
        low = 0 if counts is not None else int(y.min())
        if high - low < _MAX_COUNTED_LABEL_RANGE:
            if low == 0 and y.dtype == np.intp:
                codes = y
            else:
                codes = np.subtract(y, low, dtype=np.intp)
            if counts is None:
                counts = np.bincount(codes, minlength=high - low + 1)
            present = np.flatnonzero(counts)
            if len(present) == high - low + 1:
                # labels 0, 1, ... (shifted): already their codes
                return codes, (present + low).astype(y.dtype)
            if codes is y:
                codes = codes.copy()
            lookup = np.zeros(high - low + 1, dtype=np.intp)
            lookup[present] = np.arange(len(present))
            # mode="clip" writes in place (mode="raise" buffers); codes are in range.
            np.take(lookup, codes, out=codes, mode="clip")
            return codes, (present + low).astype(y.dtype)
    codes, classes = pd.factorize(y, sort=True)
    return codes, np.asarray(classes)


#: Largest total of ``sample_weight`` a fit accepts. The largest product the
#: kernels form from counts is of degree four in the total N: CHAID's pairwise
#: chi-square and F statistics square ``d = u n_h - v n_g`` (|d| <= N^2), and the
#: chi-square, Ward (Khiops) and max-cut weights multiply two or three masses.
#: With N <= 1e50, N^4 <= 1e200 stays far below the largest float (1.8e308),
#: leaving 1e108 for sums over categories and classes and for a regression
#: target's scale (N^4 y^2 in the F statistic: |y| up to about 1e50).
#: The statistics are not scale invariant (a chi-square grows with the counts),
#: so weights are never rescaled silently: they are refused.
MAX_TOTAL_WEIGHT = 1e50
#: Smallest positive total of ``sample_weight`` a fit accepts: the mirror of
#: MAX_TOTAL_WEIGHT, so that N^4 >= 1e-200 never underflows to a subnormal or to
#: zero (a product of masses that underflows to 0 divides 0 by 0).
MIN_TOTAL_WEIGHT = 1e-50


def check_total_weight(total, name="sample_weight"):
    """Raise unless a total weight lies in [MIN_TOTAL_WEIGHT, MAX_TOTAL_WEIGHT].

    Parameters
    ----------
    total : float
        Sum of the frequency weights (the weight of a table).
    name : str, default="sample_weight"
        What the total is the sum of, for the message.
    """
    if MIN_TOTAL_WEIGHT <= total <= MAX_TOTAL_WEIGHT:
        return
    if total > MAX_TOTAL_WEIGHT:  # inf included
        problem = f"exceeds {MAX_TOTAL_WEIGHT:g}, beyond which"
        way_out = "divide the weights by a constant such as 10**k"
    else:
        problem = f"is below {MIN_TOTAL_WEIGHT:g}, under which"
        way_out = "multiply the weights by a constant such as 10**k"
    raise ValueError(
        f"{name} sums to {total:g}, which {problem} the products of class counts "
        "the statistics form (squares of products of two counts, up to the total "
        "to the fourth power) overflow or underflow a float64. sample_weight are "
        f"frequency weights: {way_out} so that they sum to between "
        f"{MIN_TOTAL_WEIGHT:g} and {MAX_TOTAL_WEIGHT:g} (the statistics, not scale "
        "invariant, are then those of that many rows)."
    )


def check_tables_weight(tables):
    """:func:`check_total_weight` of a ColumnTables' weight (its first column's).

    Every column of a ColumnTables counts the same rows, so the first one's
    total is the weight of them all: a sum of chunks' tables may pass the bound
    that each chunk's ``sample_weight`` kept.
    """
    if not tables.n_features:
        return
    table = np.asarray(tables.tables[0], dtype=np.float64)
    if tables.target_type == "continuous":
        table = table[:, 0]  # the weight column of a moment table
    with np.errstate(over="ignore"):
        total = table.sum()
    if total > 0:
        check_total_weight(total, "the weight of the tables fitted (every chunk's)")


def check_sample_weight(sample_weight, n_samples):
    """Validate frequency weights: finite, non-negative, not all zero, and a
    total in [``MIN_TOTAL_WEIGHT``, ``MAX_TOTAL_WEIGHT``].

    Returns None when ``sample_weight`` is None so that kernels can take their
    unweighted (faster) path.
    """
    if sample_weight is None:
        return None
    sample_weight = _check_sample_weight(
        sample_weight,
        np.empty((n_samples, 0)),
        dtype=np.float64,
        ensure_non_negative=True,
    )
    # (finite weights may still sum to inf: it is refused as too large)
    with np.errstate(over="ignore"):
        total = sample_weight.sum()
    if not total > 0:
        raise ValueError("sample_weight sums to zero: there is nothing to learn.")
    check_total_weight(total)
    return sample_weight


#: numpy dtype kinds that ``categorical_features="from_dtype"`` treats as
#: categorical; a numpy object column is decided by its values.
_CATEGORICAL_KINDS = "USb"
#: ``pd.api.types.infer_dtype`` (missing values skipped) of an object column of
#: real numbers: ints and floats, numpy's or Python's, not bools; "empty" for a
#: column of missing values only, numeric as an all-NaN float column is.
_NUMBER_TYPES = frozenset({"integer", "floating", "mixed-integer-float", "empty"})


def is_categorical_column(column):
    """Whether ``categorical_features="from_dtype"`` makes a column categorical.

    A DataFrame's object column is categorical: pandas gives numbers a numeric
    dtype, so object is a choice. A numpy object array's column, such as a
    meta-estimator's ``np.asarray(df, dtype=object)`` holds, is numeric when its
    non-missing values are all real numbers, so that it gets the mask of the
    DataFrame's own dtypes.
    """
    dtype = column.dtype
    if isinstance(dtype, (pd.CategoricalDtype, pd.StringDtype, pd.BooleanDtype)):
        return True
    kind = getattr(dtype, "kind", "O")
    if kind == "O":
        if isinstance(column, pd.Series):
            return True
        return pd.api.types.infer_dtype(column, skipna=True) not in _NUMBER_TYPES
    return kind in _CATEGORICAL_KINDS


def numeric_values(column, name):
    """A column as float64 (NaN missing); a clear error for strings or infinity."""
    if isinstance(column, np.ndarray) and column.dtype == np.float64:
        values = column
    elif isinstance(column, pd.Series):
        try:
            values = column.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"Column {name!r} is treated as numeric but holds non-numeric "
                f"values ({exc}); list it in categorical_features."
            ) from exc
    else:
        try:
            values = np.asarray(
                pd.to_numeric(pd.Series(column), errors="raise"), dtype=np.float64
            )
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"Column {name!r} is treated as numeric but holds non-numeric "
                f"values ({exc}); list it in categorical_features."
            ) from exc
    if np.isinf(values).any():
        raise ValueError(
            f"Input X contains infinity in numeric column {name!r}; a numeric value "
            "must be finite (NaN is a missing value)."
        )
    return values


def categorical_mask(spec, columns, names):
    """Which columns are categorical, by a ``categorical_features`` value.

    Parameters
    ----------
    spec : "from_dtype", "all", array-like of int, str or bool, or None
        ``"from_dtype"``: :func:`is_categorical_column` of each column;
        ``"all"``: every column; None: none; else column indices, names or a
        boolean mask.
    columns : list
        The columns, as :func:`check_categorical_X` returns them.
    names : list of str
        The feature names (``x0, x1, ...`` without names).

    Returns
    -------
    mask : ndarray of bool of shape (n_features,)
    """
    n_features = len(columns)
    if spec is None:
        return np.zeros(n_features, dtype=bool)
    if isinstance(spec, str):
        if spec == "all":
            return np.ones(n_features, dtype=bool)
        return np.array([is_categorical_column(c) for c in columns], dtype=bool)
    # object dtype keeps a mixed list such as [0, "d"] as ints and strings
    items = list(np.asarray(spec, dtype=object).ravel())
    if items and all(isinstance(item, (bool, np.bool_)) for item in items):
        if len(items) != n_features:
            raise ValueError(
                f"categorical_features as a boolean mask must have "
                f"{n_features} entries (one per feature), got {len(items)}."
            )
        return np.array(items, dtype=bool)
    mask = np.zeros(n_features, dtype=bool)
    for item in items:
        if isinstance(item, str):
            if item not in names:
                raise ValueError(
                    f"categorical_features names {item!r}, which is not a "
                    f"feature of X; features: {names}."
                )
            mask[names.index(item)] = True
        elif isinstance(item, (numbers.Integral, np.integer)):
            if not -n_features <= item < n_features:
                raise ValueError(
                    f"categorical_features index {item} is out of range for X "
                    f"with {n_features} features."
                )
            mask[item] = True
        else:
            raise ValueError(
                "categorical_features must hold column indices, column names "
                f"or booleans; got {item!r}."
            )
    return mask


def feature_name(estimator, j) -> str:
    """Name of feature ``j``: ``feature_names_in_[j]``, else ``x{j}``."""
    names = getattr(estimator, "feature_names_in_", None)
    return str(names[j]) if names is not None else f"x{j}"


def check_lengths(estimator, X_columns, y, sample_weight) -> None:
    """Raise a ``ValueError`` when y is missing or X and y lengths do not match.

    ``X_columns`` is a sequence whose first item has one entry per row (a
    column, or the whole array).
    """
    if y is None:
        raise ValueError(
            f"{type(estimator).__name__} requires y to be passed, but the target y "
            "is None: a supervised grouping or discretization learns from a "
            "classification target."
        )
    n_samples = len(X_columns[0])
    y = np.asarray(y)
    if y.ndim == 0 or len(y) != n_samples:
        raise ValueError(
            f"X has {n_samples} rows but y has {y.size}: they must have the same "
            "number of samples."
        )
    if sample_weight is not None and not np.isscalar(sample_weight):
        check_consistent_length(X_columns[0], sample_weight)


def check_numeric_X(estimator, X, *, reset: bool) -> np.ndarray:
    """Validate ``X`` for a discretizer: a float64 array, NaN allowed, no infinity.

    Parameters
    ----------
    estimator : estimator instance
        Receives ``n_features_in_`` and ``feature_names_in_`` when ``reset=True``;
        they are checked against ``X`` otherwise.
    X : {array-like, pandas or polars DataFrame} of shape (n_samples, n_features)
        Numeric columns (float, int, bool, pandas nullable); NaN, None and
        ``pd.NA`` are missing values.
    reset : bool
        True in ``fit``, False in ``transform``.

    Returns
    -------
    X : ndarray of float64 of shape (n_samples, n_features)
    """
    _check_columns(X)
    if _is_pandas_df(X):
        for name, dtype in X.dtypes.items():
            if (
                isinstance(dtype, pd.CategoricalDtype)
                or pd.api.types.is_string_dtype(dtype)
                and not pd.api.types.is_object_dtype(dtype)
            ):
                raise TypeError(
                    f"Column {name!r} has dtype {dtype}; discretizers cut numeric "
                    "columns into intervals. Group categorical columns with a "
                    "partikit grouper instead."
                )
    if _is_polars_df(X):
        names = pd.DataFrame(columns=pd.Index(X.columns, dtype=object))
        validate_data(estimator, X=names, reset=reset, skip_check_array=True)
        X = check_array(X.to_numpy(), dtype=np.float64, ensure_all_finite=False)
    else:
        try:
            X = validate_data(
                estimator, X=X, reset=reset, dtype=np.float64, ensure_all_finite=False
            )
        except ValueError as error:
            if "convert" not in str(error):
                raise
            raise ValueError(
                f"{error}. Discretizers cut numeric columns into intervals; group "
                "categorical columns with a partikit grouper instead."
            ) from error
    infinite = np.isinf(X).any(axis=0)
    if infinite.any():
        name = feature_name(estimator, int(np.flatnonzero(infinite)[0]))
        raise ValueError(
            f"Input X contains infinity in column {name!r}; a discretizer needs "
            "finite values (NaN is the missing value and gets its own bin)."
        )
    return X
