# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""numpydoc validation of every public object (no whitelist, never skipped).

The public objects are those named by the ``__all__`` of partikit and of its
public subpackages and modules, the public methods of the public classes, and the
methods registered in ``partikit.groupers.BIPARTITIONS``.
"""

import importlib
import inspect

import pytest
from numpydoc.validate import validate

#: Checks we do not enforce: See Also on every object, and an extended summary on
#: every method (sklearn's own choice).
IGNORED = {"SA01", "ES01", "GL08", "EX01", "RT02", "SS05"}

#: The public namespaces whose ``__all__`` lists public objects.
PUBLIC_MODULES = (
    "partikit",
    "partikit.groupers",
    "partikit.discretizers",
    "partikit.tree",
    "partikit.datasets",
    "partikit.utils",
)


def _qualified_name(obj):
    return f"{obj.__module__}.{obj.__qualname__}"


def _public_objects():
    """Import paths of the public objects, each once."""
    seen = {}
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if name == "BIPARTITIONS":
                for method in obj.values():
                    seen.setdefault(_qualified_name(method), None)
                continue
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            seen.setdefault(_qualified_name(obj), None)
            if inspect.isclass(obj):
                for attribute, member in inspect.getmembers(obj):
                    defined_here = any(
                        attribute in vars(base)
                        for base in obj.__mro__
                        if base.__module__.startswith("partikit")
                    )
                    if (
                        not attribute.startswith("_")
                        and defined_here
                        and (inspect.isfunction(member) or isinstance(member, property))
                    ):
                        seen.setdefault(f"{_qualified_name(obj)}.{attribute}", None)
    return sorted(seen)


def test_every_public_object_is_validated():
    """Check that the estimators, their methods and the cores are all listed."""
    names = _public_objects()
    for expected in (
        "partikit.groupers._khiops.KhiopsGrouper.fit",
        "partikit.groupers._khiops.KhiopsGrouper.group_table",
        "partikit.groupers._khiops.khiops_grouping",
        "partikit.discretizers._max_cut.max_cut_threshold",
        "partikit.groupers._bipartition.twoing",
        "partikit.tree._classes.PartitionTreeClassifier.predict_proba",
        "partikit.groupers._khiops.KhiopsGrouper.partition_table",
        "partikit._reporting._report.Report.to_html",
        "partikit._reporting._report.report",
    ):
        assert any(name.endswith(expected.split(".", 2)[-1]) for name in names), (
            expected
        )


@pytest.mark.parametrize("name", _public_objects())
def test_public_docstring_is_valid_numpydoc(name):
    """Check that every public estimator, method and function has a valid
    numpydoc docstring."""
    result = validate(name)
    errors = [(code, msg) for code, msg in result["errors"] if code not in IGNORED]
    assert not errors, "\n".join(f"{code}: {msg}" for code, msg in errors)


def _cores():
    for module_name in ("partikit.groupers", "partikit.discretizers"):
        module = importlib.import_module(module_name)
        for name in module.__all__:
            if inspect.isfunction(getattr(module, name)):
                yield module_name, name


@pytest.mark.parametrize("module_name, name", list(_cores()))
def test_public_functions_are_doctested_from_their_public_path(module_name, name):
    """Check that each public function's example imports it from the public
    namespace (``from partikit.groupers import khiops_grouping``), which the
    doctests then run."""
    docstring = inspect.getdoc(getattr(importlib.import_module(module_name), name))
    assert "Examples\n--------" in docstring, f"{name} has no Examples section"
    imports = [
        line
        for line in docstring.splitlines()
        if line.startswith(">>> from partikit") and f" {name}" in line
    ]
    assert imports and all(f">>> from {module_name} import" in i for i in imports), (
        f"{name}'s example imports it from {imports or 'nowhere'}"
    )
