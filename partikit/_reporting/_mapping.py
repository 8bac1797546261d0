# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The learned mapping of fitted groupers and discretizers as JSON data and SQL.

A document of the schema ``partikit.mapping`` (documented in the user guide,
"The mapping document") holds, for every column, what ``transform`` does with
``encode="ordinal"``: the members of each group, the cut points of the
intervals, and the rules for missing values, unknown categories and values
outside the training range, in plain JSON types. A system without Python can
apply it; :func:`mapping_sql` writes it as one SQL ``SELECT`` statement.
With ``values="woe"`` or ``values="rate"`` every part also carries the value
that encodes it (its weight of evidence, or its event rate; for a continuous
target, ``values="mean"``: the mean of the target in the part), and the SQL
outputs that value instead of the part id.

The estimators are read through their fitted attributes only (``categories_``,
``group_ids_``, ``default_group_`` of a grouper; ``bin_edges_``,
``missing_bin_`` of a discretizer), so that any grouper or discretizer whose
``transform`` follows the estimator contract is covered.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_is_fitted

from partikit._counting._validation import feature_name
from partikit._statistics._measures import weight_of_evidence
from partikit._statistics._moments import CONTINUOUS, part_means
from partikit._version import __version__

#: The name and version of the document's schema. The version changes when a
#: consumer of the previous version could misread a document (a field removed,
#: renamed or given another meaning, a new rule to apply); new optional fields
#: keep it. Version 2 adds the special parts of numeric columns (a rule applied
#: before the cuts): a document without them is written as version 1, which a
#: consumer of version 1 applies correctly.
SCHEMA = "partikit.mapping"
SCHEMA_VERSION = 2
#: The versions :func:`mapping_sql` reads.
SCHEMA_VERSIONS = (1, 2)

#: What the parts of a document may carry besides their id (``values=``): the
#: weight of evidence, with the estimator's ``woe_sign``, or the event rate (the
#: rate of the second class), binary targets only; or the mean of the target
#: in the part, continuous targets only.
VALUE_KINDS = ("woe", "rate", "mean")

#: The strings ``pandas.read_csv`` reads as a missing value by default (its
#: ``na_values``), compared with the whole field, without trimming spaces.
NA_VALUES = (
    "",
    "#N/A",
    "#N/A N/A",
    "#NA",
    "-1.#IND",
    "-1.#QNAN",
    "-NaN",
    "-nan",
    "1.#IND",
    "1.#QNAN",
    "<NA>",
    "N/A",
    "NA",
    "NULL",
    "NaN",
    "None",
    "n/a",
    "nan",
    "null",
)
#: The strings ``pandas.read_csv`` reads as booleans in a column of booleans.
TRUE_VALUES = ("True", "TRUE", "true")
FALSE_VALUES = ("False", "FALSE", "false")


def is_grouper(estimator):
    """Whether ``estimator`` is a partikit grouper, fitted or not.

    Every grouper has the pure core call ``group_table`` (and every
    discretizer ``cut_table``): the subpackages' base classes are private.
    """
    return callable(getattr(estimator, "group_table", None))


def is_discretizer(estimator):
    """Whether ``estimator`` is a partikit discretizer, fitted or not."""
    return callable(getattr(estimator, "cut_table", None))


def _column_index(estimator, j):
    n_features = estimator.n_features_in_
    if isinstance(j, str):
        names = getattr(estimator, "feature_names_in_", None)
        if names is None or j not in list(names):
            raise ValueError(
                f"{type(estimator).__name__} was fitted without a column named {j!r}."
            )
        return list(names).index(j)
    if not isinstance(j, numbers.Integral) or isinstance(j, bool):
        raise TypeError(f"A column is given by its index or its name, not {j!r}.")
    if not 0 <= j < n_features:
        raise ValueError(
            f"Column index {j} is out of range: {type(estimator).__name__} was "
            f"fitted on {n_features} columns."
        )
    return int(j)


def _value_type(values):
    """The JSON type of a column's known categories, None when there are none."""
    if len(values) == 0:
        return None
    if all(isinstance(v, str) for v in values):
        return "string"
    if all(isinstance(v, (bool, np.bool_)) for v in values):
        return "boolean"
    if all(
        isinstance(v, (numbers.Integral, np.integer))
        and not isinstance(v, (bool, np.bool_))
        for v in values
    ):
        return "integer"
    return "float"


def _plain_value(value, value_type):
    if value_type == "string":
        return str(value)
    if value_type == "boolean":
        return bool(value)
    if value_type == "integer":
        return int(value)
    return float(value)


def _check_values(values):
    if values is not None and values not in VALUE_KINDS:
        raise ValueError(
            f"values must be None, 'woe', 'rate' or 'mean', got {values!r}."
        )


def _part_values(estimator, j, values):
    """The value of every part of column ``j``, by part id, in JSON types.

    ``"woe"``: :func:`~partikit._statistics._measures.weight_of_evidence` of the
    fitted per-part table with the estimator's ``woe_sign`` (what
    ``encode="woe"`` outputs); ``"rate"``: the weighted rate of the second
    class, None for a part without rows; ``"mean"`` (continuous target): the
    weighted mean of the target in the part, None for a part without rows.
    """
    continuous = getattr(estimator, "target_type_", None) == CONTINUOUS
    if (values == "mean") != continuous:
        if continuous:
            raise ValueError(
                f"values={values!r} needs a binary target; "
                f"{type(estimator).__name__} was fitted on a continuous target: "
                "use values='mean'."
            )
        raise ValueError(
            "values='mean' needs a continuous target; "
            f"{type(estimator).__name__} was fitted on class labels: use "
            "values='woe' or values='rate' (binary targets)."
        )
    if continuous:
        table = np.asarray(estimator.table_[j], dtype=np.float64)
        parts = part_means(table, default=np.nan)
        return [float(v) if math.isfinite(v) else None for v in parts.tolist()]
    n_classes = len(estimator.classes_)
    if n_classes != 2:
        raise ValueError(
            f"values={values!r} needs a binary target; "
            f"{type(estimator).__name__} was fitted on {n_classes} classes."
        )
    table = np.asarray(estimator.table_[j], dtype=np.float64)
    if values == "woe":
        sign = getattr(estimator, "woe_sign", "event")
        parts = weight_of_evidence(table, sign=sign)
    else:
        counts = table.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            parts = table[:, 1] / counts
    return [float(v) if math.isfinite(v) else None for v in parts.tolist()]


def _values_fields(estimator, values):
    """The column fields that say what its parts' values are."""
    sign = getattr(estimator, "woe_sign", "event") if values == "woe" else None
    return {"values": values, "woe_sign": sign}


def _categorical_mapping(estimator, j):
    categories = estimator.categories_[j]
    group_ids = np.asarray(estimator.group_ids_[j])
    # fit appends the missing category (NaN) last when it saw one
    missing_seen = len(categories) > 0 and bool(pd.isna(categories[-1]))
    n_known = len(categories) - missing_seen
    known = list(categories[:n_known])
    value_type = _value_type(known)
    n_groups = int(estimator.n_groups_[j])
    members = [[] for _ in range(n_groups)]
    for value, group in zip(known, group_ids[:n_known].tolist(), strict=True):
        members[group].append(_plain_value(value, value_type))
    default_group = int(estimator.default_group_[j])
    unknown_group = (
        default_group if estimator.handle_unknown == "default_group" else None
    )
    # A missing value not seen in fit is looked up as an unknown category
    # (category_lookup gives it -1), so it follows handle_unknown.
    missing_group = int(group_ids[-1]) if missing_seen else unknown_group
    return {
        "name": feature_name(estimator, j),
        "kind": "categorical",
        "estimator": type(estimator).__name__,
        "value_type": value_type,
        "n_groups": n_groups,
        "groups": [
            {"id": group, "values": values} for group, values in enumerate(members)
        ],
        "missing_seen": missing_seen,
        "missing_group": missing_group,
        "handle_unknown": str(estimator.handle_unknown),
        "default_group": default_group,
        "unknown_group": unknown_group,
    }


def _numeric_mapping(estimator, j):
    # transform searches the inner edges: the outer ones (the training range)
    # play no part, which sends values beyond it to the end bins
    cuts = [float(c) for c in np.asarray(estimator.bin_edges_[j], np.float64)[1:-1]]
    table = getattr(estimator, "table_", None)
    n_bins = int(estimator.n_bins_[j])
    missing_bin = int(estimator.missing_bin_[j])
    statistics = getattr(estimator, "statistics_", None)
    if missing_bin != n_bins and statistics is not None:
        # missing="attach": the missing values' weight is in an interval's row
        missing_seen = statistics[j].get("missing_weight", 0.0) > 0
    else:
        missing_seen = table is not None and bool(
            np.asarray(table[j])[missing_bin].sum() > 0
        )
    mapping = {
        "name": feature_name(estimator, j),
        "kind": "numeric",
        "estimator": type(estimator).__name__,
        "cuts": cuts,
        "n_bins": n_bins,
        "missing_seen": missing_seen,
        "missing_bin": missing_bin,
    }
    specials = getattr(estimator, "_specials", None)
    names, codes = specials() if specials is not None else ([], [])
    if names:
        mapping["special_parts"] = [
            {"id": int(part), "name": name, "values": [float(v) for v in values]}
            for part, name, values in zip(
                estimator.special_bins_[j], names, codes, strict=True
            )
        ]
    return mapping


def _with_values(mapping, part_values, fields):
    """``mapping`` with the value of each part, and the fields that name them."""
    if mapping["kind"] == "categorical":
        mapping["groups"] = [
            {**group, "value": part_values[group["id"]]} for group in mapping["groups"]
        ]
    else:
        # one object per part id: the intervals, the missing bin (id n_bins)
        # unless attached to one, the special parts
        mapping["bins"] = [
            {"id": m, "value": value} for m, value in enumerate(part_values)
        ]
    mapping.update(fields)
    return mapping


def column_mapping(estimator, j, *, values=None):
    """The learned mapping of one column of a fitted grouper or discretizer.

    The mapping is plain JSON data (str, int, float, bool, None, lists and
    dicts) that gives, for every value, the id that ``transform`` outputs with
    ``encode="ordinal"``, and with ``values`` the value that encodes each part.
    Its fields are those of a column of the ``partikit.mapping`` document (see
    the user guide, "The mapping document").

    Parameters
    ----------
    estimator : fitted grouper or discretizer
        A partikit grouper (:class:`~partikit.KhiopsGrouper`,
        :class:`~partikit.CHAIDGrouper`, :class:`~partikit.MaxCutGrouper`, ...)
        or discretizer (:class:`~partikit.KhiopsDiscretizer`,
        :class:`~partikit.MDLPDiscretizer`, ...).
    j : int or str
        The column: its index among the estimator's input columns, or its name
        in ``feature_names_in_``.
    values : {"woe", "rate", "mean"} or None, default=None
        Also give every part (group or bin, the missing bin included) the value
        that encodes it: ``"woe"``, its weight of evidence with the estimator's
        ``woe_sign`` (what ``encode="woe"`` outputs), or ``"rate"``, its event
        rate (the weighted rate of the second class of ``classes_``; None for a
        part without rows), binary targets only; ``"mean"``, the weighted mean
        of the target in the part (None for a part without rows), continuous
        targets only. None: the parts' ids only.

        .. versionadded:: 0.2

    Returns
    -------
    mapping : dict
        For a grouper's column, ``kind="categorical"``: ``name``,
        ``estimator``, ``value_type`` (``"string"``, ``"integer"``,
        ``"float"``, ``"boolean"``, or None when every category seen in fit was
        missing), ``n_groups``, ``groups`` (each group's ``id`` and member
        ``values``), ``missing_seen``, ``missing_group``, ``handle_unknown``,
        ``default_group`` and ``unknown_group`` (None where ``transform``
        raises). For a discretizer's column, ``kind="numeric"``: ``name``,
        ``estimator``, ``cuts`` (value ``x`` goes to bin ``m`` when
        ``cuts[m-1] < x <= cuts[m]``), ``n_bins``, ``missing_seen`` and
        ``missing_bin`` (an interval's id with ``missing="attach"``), and
        with ``special_codes`` ``special_parts`` (each special part's ``id``,
        ``name`` and ``values``, which go to that part before any cut). With
        ``values``: each group also has a ``value``, a numeric column has
        ``bins`` (each part's ``id`` and ``value``, in the order of the
        ids), and the column has ``values`` (``"woe"``,
        ``"rate"`` or ``"mean"``) and ``woe_sign`` (the sign of the WoE, None
        for rates and means).

    Raises
    ------
    TypeError
        If ``estimator`` is neither a grouper nor a discretizer.
    ValueError
        If the column is not one of the estimator's, or ``values`` does not
        fit the target (``"woe"`` and ``"rate"`` need a binary target,
        ``"mean"`` a continuous one).

    See Also
    --------
    mapping_document : The mappings of several columns as one document.
    mapping_sql : A document as one SQL statement.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from partikit import KhiopsGrouper, MDLPDiscretizer
    >>> from partikit._reporting._mapping import column_mapping
    >>> X = pd.DataFrame({"color": ["red", "red", "blue", "blue", "green",
    ...                             "green", None, None] * 5})
    >>> y = np.array([1, 1, 0, 0, 1, 1, 0, 0] * 5)
    >>> mapping = column_mapping(KhiopsGrouper().fit(X, y), "color")
    >>> mapping["groups"]
    [{'id': 0, 'values': ['blue']}, {'id': 1, 'values': ['green', 'red']}]
    >>> mapping["missing_group"], mapping["unknown_group"]
    (0, 0)
    >>> ages = pd.DataFrame({"age": [18, 22, 25, 31, 38, 45, 52, 60, None, 70] * 3})
    >>> y = np.array([0, 0, 0, 0, 1, 1, 1, 1, 0, 1] * 3)
    >>> mapping = column_mapping(MDLPDiscretizer().fit(ages, y), 0)
    >>> mapping["cuts"], mapping["n_bins"], mapping["missing_bin"]
    ([34.5], 2, 2)
    >>> rates = column_mapping(MDLPDiscretizer().fit(ages, y), 0, values="rate")
    >>> rates["bins"]
    [{'id': 0, 'value': 0.0}, {'id': 1, 'value': 1.0}, {'id': 2, 'value': 0.0}]
    """
    _check_values(values)
    if is_grouper(estimator):
        check_is_fitted(estimator)
        k = _column_index(estimator, j)
        mapping = _categorical_mapping(estimator, k)
    elif is_discretizer(estimator):
        check_is_fitted(estimator)
        k = _column_index(estimator, j)
        mapping = _numeric_mapping(estimator, k)
    else:
        check_is_fitted(estimator)
        raise TypeError(
            f"{type(estimator).__name__} is neither a partikit grouper nor a "
            "partikit discretizer; its mapping cannot be exported."
        )
    if values is None:
        return mapping
    return _with_values(
        mapping,
        _part_values(estimator, k, values),
        _values_fields(estimator, values),
    )


def _jsonable(value):
    """``value`` in JSON types: numpy values as Python ones, other objects as repr.

    Non-finite floats become None, as strict JSON has no NaN or infinity.
    """
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(item) for item in value]
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return repr(value)


def _column_mappings(columns, values):
    for item in columns:
        if isinstance(item, dict):
            if item.get("values") != values:
                raise ValueError(
                    f"Column {item.get('name')!r} carries values="
                    f"{item.get('values')!r} but the document values={values!r}: "
                    "build its mapping with column_mapping(..., "
                    f"values={values!r})."
                )
            yield item
        elif isinstance(item, tuple) and len(item) == 2:
            yield column_mapping(*item, values=values)
        elif is_grouper(item) or is_discretizer(item):
            check_is_fitted(item)
            for j in range(item.n_features_in_):
                yield column_mapping(item, j, values=values)
        else:
            raise TypeError(
                "Each item of columns is a column mapping (a dict), an "
                "(estimator, column) pair or a fitted grouper or discretizer (all "
                f"its columns); got {type(item).__name__}."
            )


def mapping_document(
    columns, *, target=None, classes=None, settings=None, values=None,
    target_type=None,
):  # fmt: skip
    """The learned mapping of several columns as one versioned JSON document.

    The document follows the schema ``partikit.mapping``, version 1 (2 when
    a column has special parts),
    documented field by field in the user guide ("The mapping document"),
    with the rules that turn a value into its id: ``json.dump`` it, and a
    system without Python outputs what ``transform`` outputs with
    ``encode="ordinal"``, including for a CSV file read as
    ``pandas.read_csv`` reads it (``text_input`` lists the strings read as
    missing values and as booleans).

    Parameters
    ----------
    columns : list
        The columns, in output order. Each item is a column mapping as
        :func:`column_mapping` returns it, an ``(estimator, column)`` pair
        (``column`` an index or a name), or a fitted grouper or discretizer,
        which stands for all its columns in their order.
    target : str or None, default=None
        The name of the target column the estimators were fitted on.
    classes : array-like or None, default=None
        The target's classes (``classes_``).
    settings : dict or None, default=None
        Anything worth recording about the fit (the estimators' parameters,
        the input file, ...). Values are stored in JSON types: numpy values as
        Python ones, non-finite floats as None, any other object as its
        ``repr``.
    values : {"woe", "rate", "mean"} or None, default=None
        Also give every part of every column the value that encodes it, as
        :func:`column_mapping` does: its weight of evidence (with each
        estimator's ``woe_sign``) or its event rate, binary targets only; the
        mean of the target in the part, continuous targets only. The
        document then has a field ``values``, and :func:`mapping_sql` outputs
        the values instead of the ids. None: the document of ids only, with
        no new field.

        .. versionadded:: 0.2
    target_type : {"binary", "multiclass", "continuous"} or None, default=None
        The kind of target, recorded in the field ``target_type`` when given
        (a continuous target has no ``classes``).

    Returns
    -------
    document : dict
        ``schema`` (``"partikit.mapping"``), ``version`` (2 when a column
        has special parts, else 1), ``generator``,
        ``target``, ``classes``, ``settings``, ``text_input``, ``values``
        (only when ``values`` is set), ``target_type`` (only when given) and
        ``columns`` (one mapping per column). Only JSON types:
        ``json.loads(json.dumps(document)) == document``.

    Raises
    ------
    ValueError
        If two columns have the same name, ``values`` is set and a target is
        not binary, or a column mapping given as a dict carries other values
        than ``values``.

    See Also
    --------
    column_mapping : The mapping of one column.
    mapping_sql : A document as one SQL statement.

    Examples
    --------
    >>> import json
    >>> import numpy as np
    >>> import pandas as pd
    >>> from partikit import KhiopsGrouper, MDLPDiscretizer
    >>> from partikit._reporting._mapping import mapping_document
    >>> colors = pd.DataFrame({"color": ["red", "red", "blue", "blue", "green",
    ...                                  "green", None, None] * 5})
    >>> y = np.array([1, 1, 0, 0, 1, 1, 0, 0] * 5)
    >>> grouper = KhiopsGrouper().fit(colors, y)
    >>> ages = pd.DataFrame({"age": [18, 22, 25, 31, 38, 45, 52, 60] * 5})
    >>> discretizer = MDLPDiscretizer().fit(ages, y)
    >>> document = mapping_document([grouper, discretizer], target="y",
    ...                             classes=grouper.classes_)
    >>> document["schema"], document["version"], document["classes"]
    ('partikit.mapping', 1, [0, 1])
    >>> [column["name"] for column in document["columns"]]
    ['color', 'age']
    >>> json.loads(json.dumps(document)) == document
    True
    >>> document = mapping_document([grouper], values="woe")
    >>> [round(group["value"], 3) for group in document["columns"][0]["groups"]]
    [-3.045, 3.045]
    """
    _check_values(values)
    mappings = [dict(mapping) for mapping in _column_mappings(columns, values)]
    names = [mapping["name"] for mapping in mappings]
    duplicated = sorted({name for name in names if names.count(name) > 1})
    if duplicated:
        raise ValueError(
            f"Columns {duplicated} appear more than once; every column of a "
            "mapping document needs a name of its own."
        )
    # version 1 unless a column needs version 2's rule (its special parts)
    special = any("special_parts" in mapping for mapping in mappings)
    document = {
        "schema": SCHEMA,
        "version": SCHEMA_VERSION if special else 1,
        "generator": f"partikit {__version__}",
        "target": None if target is None else str(target),
        "classes": None if classes is None else _jsonable(np.asarray(classes)),
        "settings": _jsonable(settings if settings is not None else {}),
        "text_input": {
            "na_values": list(NA_VALUES),
            "true_values": list(TRUE_VALUES),
            "false_values": list(FALSE_VALUES),
        },
    }
    if values is not None:
        # an optional field: a document without values is unchanged
        document["values"] = values
    if target_type is not None:
        document["target_type"] = str(target_type)
    document["columns"] = _jsonable(mappings)
    return document


def _quote_identifier(name):
    if "\x00" in name:
        raise ValueError(f"The name {name!r} holds a NUL character; SQL cannot.")
    return '"' + name.replace('"', '""') + '"'


def _sql_literal(value, value_type, column):
    if value_type == "string":
        if "\x00" in value:
            raise ValueError(
                f"Category {value!r} of column {column!r} holds a NUL character, "
                "which an SQL string literal cannot hold."
            )
        return "'" + value.replace("'", "''") + "'"
    if value_type == "boolean":
        return "TRUE" if value else "FALSE"
    if value_type == "integer":
        return str(int(value))
    # repr is the shortest decimal that reads back as the same double
    return repr(float(value))


def _id_literal(part):
    return "NULL" if part is None else str(int(part))


def _part_literals(column, values):
    """The SQL literal of a part id: the id, or with ``values`` the part's value.

    A part id of None (a rejected value) and a value of None (a rate of a part
    without rows) are ``NULL``.
    """
    if values is None:
        return _id_literal
    if column["kind"] == "categorical":
        parts = column["groups"]
        expected = range(int(column["n_groups"]))
    else:
        parts = column.get("bins") or []
        expected = {
            *range(int(column["n_bins"])),
            int(column["missing_bin"]),
            *(int(part["id"]) for part in column.get("special_parts", [])),
        }
    absent = object()
    by_id = {int(part["id"]): part.get("value", absent) for part in parts}
    if any(by_id.get(m, absent) is absent for m in expected):
        raise ValueError(
            f"Column {column['name']!r} lacks the value of some of its parts, "
            f"while the document has values={values!r} (build it with "
            "mapping_document(..., values=...))."
        )

    def literal(part):
        if part is None or by_id[int(part)] is None:
            return "NULL"
        return repr(float(by_id[int(part)]))

    return literal


def _categorical_sql(column, name, literal):
    value_type = column["value_type"]
    unknown = column["unknown_group"]
    whens = [f"WHEN {name} IS NULL THEN {literal(column['missing_group'])}"]
    for group in column["groups"]:
        # the group that receives unknown values is the ELSE branch: listing its
        # members too would change nothing (and it is often the largest list)
        if not group["values"] or group["id"] == unknown:
            continue
        members = ", ".join(
            _sql_literal(value, value_type, column["name"]) for value in group["values"]
        )
        whens.append(f"WHEN {name} IN ({members}) THEN {literal(group['id'])}")
    return whens, literal(unknown)


def _numeric_sql(column, name, literal):
    whens = [f"WHEN {name} IS NULL THEN {literal(column['missing_bin'])}"]
    for part in column.get("special_parts", []):
        # the special values before the cuts: they are kept out of the intervals
        codes = ", ".join(repr(float(value)) for value in part["values"])
        whens.append(f"WHEN {name} IN ({codes}) THEN {literal(part['id'])}")
    cuts = column["cuts"]
    for m, cut in enumerate(cuts):
        whens.append(f"WHEN {name} <= {repr(float(cut))} THEN {literal(m)}")
    return whens, literal(len(cuts))


def column_case_sql(column, values=None):
    """The SQL ``CASE`` expression of one column of a mapping document.

    The expression :func:`mapping_sql` selects for the column (without its
    ``AS`` name): the part id of the value in the column, or with ``values``
    the ``value`` each of the column's parts carries. A scorecard sums such
    expressions, whose parts carry points.

    Parameters
    ----------
    column : dict
        One column of a mapping document (:func:`column_mapping`).
    values : str or None, default=None
        None: the expression gives part ids; otherwise it gives the ``value``
        of every part (``groups`` of a categorical column, ``bins`` of a
        numeric one), ``NULL`` for a value of None.

    Returns
    -------
    lines : list of str
        ``"CASE"``, one ``"  WHEN ..."`` line per branch, ``"  ELSE ..."`` and
        ``"END"``.

    Raises
    ------
    ValueError
        If the column's kind is neither ``"categorical"`` nor ``"numeric"``, or
        ``values`` is set and a part lacks its value.
    """
    name = _quote_identifier(str(column["name"]))
    if column["kind"] not in ("categorical", "numeric"):
        raise ValueError(
            f"Column {column['name']!r} has kind {column['kind']!r}; a mapping "
            "document's columns are 'categorical' or 'numeric'."
        )
    literal = _part_literals(column, values)
    if column["kind"] == "categorical":
        whens, otherwise = _categorical_sql(column, name, literal)
    else:
        whens, otherwise = _numeric_sql(column, name, literal)
    return ["CASE", *(f"  {when}" for when in whens), f"  ELSE {otherwise}", "END"]


def _check_document(document):
    if not isinstance(document, dict) or document.get("schema") != SCHEMA:
        raise ValueError(
            f"Not a mapping document: its 'schema' is not {SCHEMA!r} (build one "
            "with mapping_document)."
        )
    version = document.get("version")
    if version not in SCHEMA_VERSIONS:
        raise ValueError(
            f"Mapping document version {version!r} is not supported; this "
            f"partikit reads versions {list(SCHEMA_VERSIONS)}."
        )
    if document.get("values") is not None and document["values"] not in VALUE_KINDS:
        raise ValueError(
            f"The mapping document's values {document['values']!r} are not one "
            f"of {list(VALUE_KINDS)}."
        )


def mapping_sql(document, table):
    """One SQL ``SELECT`` statement that outputs every column's group or bin id.

    For each column of the document, a ``CASE`` expression gives the id that
    ``transform`` outputs with ``encode="ordinal"``, named as the column:
    ``NULL`` input is the missing value; a categorical column compares the
    value with each group's members (``IN``), and an unknown value goes to
    the ``ELSE`` branch; a numeric column compares the value with the cut
    points, written as the shortest decimal literals that read back as the
    same doubles. Where ``transform`` raises (an unknown category with
    ``handle_unknown="error"``), the statement gives ``NULL``.

    When the document carries values (``mapping_document(...,
    values="woe")``, ``values="rate"`` or, for a continuous target,
    ``values="mean"``), each branch outputs the value of the part instead of
    its id, as a float literal (``NULL`` for a rate or a mean of a part
    without rows): with ``"woe"``, what ``transform`` outputs with
    ``encode="woe"``; with ``"mean"``, the mean of the target over the
    part's rows of fit.
    ----------
    document : dict
        A mapping document (:func:`mapping_document`, or its JSON read back).
    table : str
        The name of the table (or view) that holds the columns.

    Returns
    -------
    sql : str
        ``SELECT CASE ... END AS "column", ... FROM "table"``, identifiers in
        double quotes and strings in single quotes (each doubled inside),
        booleans as ``TRUE`` and ``FALSE``. It runs in SQLite (3.23 or later)
        and in databases that follow the SQL standard; the columns must hold
        SQL numbers for numeric and numeric-valued categories, text for string
        categories, and ``NULL`` (not NaN) for missing values.

    Raises
    ------
    ValueError
        If ``document`` is not a mapping document of a version this partikit
        reads, a name or category holds a NUL character, or the document has
        values and a part lacks its value.

    See Also
    --------
    mapping_document : The document this statement applies.

    Examples
    --------
    >>> import sqlite3
    >>> import numpy as np
    >>> import pandas as pd
    >>> from partikit import KhiopsGrouper
    >>> from partikit._reporting._mapping import mapping_document, mapping_sql
    >>> X = pd.DataFrame({"color": ["red", "red", "blue", "blue", "green",
    ...                             "green", None, None] * 5})
    >>> y = np.array([1, 1, 0, 0, 1, 1, 0, 0] * 5)
    >>> grouper = KhiopsGrouper().fit(X, y)
    >>> sql = mapping_sql(mapping_document([grouper]), "my data")
    >>> print(sql)
    SELECT
      CASE
        WHEN "color" IS NULL THEN 0
        WHEN "color" IN ('green', 'red') THEN 1
        ELSE 0
      END AS "color"
    FROM "my data"
    >>> connection = sqlite3.connect(":memory:")
    >>> _ = connection.execute('CREATE TABLE "my data" (color TEXT)')
    >>> _ = connection.executemany('INSERT INTO "my data" VALUES (?)',
    ...                            [("red",), ("blue",), (None,), ("pink",)])
    >>> connection.execute(sql).fetchall()
    [(1,), (0,), (0,), (0,)]
    >>> print(mapping_sql(mapping_document([grouper], values="woe"), "my data"))
    SELECT
      CASE
        WHEN "color" IS NULL THEN -3.044522437723423
        WHEN "color" IN ('green', 'red') THEN 3.044522437723423
        ELSE -3.044522437723423
      END AS "color"
    FROM "my data"
    """
    _check_document(document)
    if not document["columns"]:
        raise ValueError(
            "The mapping document has no columns: there is nothing to select."
        )
    values = document.get("values")
    expressions = []
    for column in document["columns"]:
        lines = [f"  {line}" for line in column_case_sql(column, values)]
        lines[-1] += f" AS {_quote_identifier(str(column['name']))}"
        expressions.append("\n".join(lines))
    return (
        "SELECT\n" + ",\n".join(expressions) + f"\nFROM {_quote_identifier(str(table))}"
    )
