# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""numpydoc validation of the public API (no whitelist, never skipped)."""

import importlib

import pytest
from numpydoc.validate import validate

from partikit.utils import all_estimators

#: Checks we do not enforce: See Also on every object, and an extended summary on
#: every method (sklearn's own choice).
IGNORED = {"SA01", "ES01", "GL08", "EX01", "RT02", "SS05"}
PUBLIC_FUNCTIONS = [
    "partikit.datasets.make_grouped_categorical",
    "partikit.utils.all_estimators",
]


def _public_objects():
    for name, cls in all_estimators():
        qualname = f"{cls.__module__}.{name}"
        yield qualname
        for method in ("fit", "transform", "fit_transform", "get_feature_names_out"):
            if method in vars(cls) or any(
                method in vars(base)
                for base in cls.__mro__
                if base.__module__.startswith("partikit")
            ):
                yield f"{qualname}.{method}"
    yield from PUBLIC_FUNCTIONS


@pytest.mark.parametrize("name", list(_public_objects()))
def test_public_docstring_is_valid_numpydoc(name):
    """Check that every public estimator, method and function has a valid
    numpydoc docstring."""
    module_name, _, obj_name = name.rpartition(".")
    try:
        importlib.import_module(module_name)
    except ImportError:
        module_name, _, cls_name = module_name.rpartition(".")
        obj_name = f"{cls_name}.{obj_name}"
    result = validate(f"{module_name}.{obj_name}")
    errors = [(code, msg) for code, msg in result["errors"] if code not in IGNORED]
    assert not errors, "\n".join(f"{code}: {msg}" for code, msg in errors)
