# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The floors of the package (docs/design.rst, "Layout"), enforced.

Every module of partikit sits on one floor, named by its folder (or, for a
module at the root, by its name), and imports partikit modules of lower floors
and of its own folder only. A module this test does not place fails it, so a new
module must be given a floor.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "partikit"

#: Floor of each folder and root module, lowest first, with what it holds.
FLOORS = {
    # root helpers: import no partikit module
    "_compat.py": 0,  # the only importer of private scikit-learn helpers
    "_version.py": 0,
    "_threads.py": 0,  # the shared thread pool
    "_kernels": 0,  # numba kernels: numpy, numba and math only
    "_statistics": 1,  # pure functions of tables and the cores' result records
    "datasets.py": 1,  # synthetic data with a known answer
    "_counting": 2,  # stage 1: rows -> validated input -> column tables
    "_estimator": 3,  # what every transformer shares: fit, encodings, inspection
    "groupers": 4,  # estimators and cores; reach each other's public namespace
    "discretizers": 4,
    "tree": 5,  # imports the cores of groupers and discretizers, never estimators
    "_reporting": 6,  # report, HTML, mapping, the report command
    "__init__.py": 7,  # the public namespace
    "__main__.py": 8,  # the command line, on the public namespace
    "utils": 8,  # all_estimators, which walks the public namespace
}

#: Folders on one floor whose modules reach each other through their public
#: namespace only (``partikit.groupers``, never ``partikit.groupers._chaid``).
SIBLINGS = ("groupers", "discretizers")

MODULES = sorted(PACKAGE.rglob("*.py"))


def _module_id(path):
    return str(path.relative_to(PACKAGE))


def _place(relative_parts):
    """The FLOORS key of a module given by its path parts below partikit/."""
    return relative_parts[0]


def _imports(path):
    """The modules a file imports; ``from partikit import groupers`` names
    ``partikit.groupers``."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == "partikit":
            for alias in node.names:
                folder = alias.name in FLOORS or f"{alias.name}.py" in FLOORS
                yield f"partikit.{alias.name}" if folder else "partikit"
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def _imported_names(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield from ((node.module, alias.name) for alias in node.names)


def _target_place(module):
    """The FLOORS key of an imported ``partikit...`` module."""
    parts = module.split(".")[1:]
    if not parts:
        return "__init__.py"
    head = parts[0]
    return head if head in FLOORS else f"{head}.py"


@pytest.mark.parametrize("path", MODULES, ids=_module_id)
def test_every_module_has_a_floor(path):
    """Check that the module's folder (or root name) is given a floor."""
    place = _place(path.relative_to(PACKAGE).parts)
    assert place in FLOORS, f"{_module_id(path)} is on no floor: add it to FLOORS"


@pytest.mark.parametrize("path", MODULES, ids=_module_id)
def test_imports_go_down(path):
    """Check that a module imports partikit modules of lower floors or of its own
    folder only."""
    place = _place(path.relative_to(PACKAGE).parts)
    floor = FLOORS[place]
    for module in _imports(path):
        if module != "partikit" and not module.startswith("partikit."):
            continue
        target = _target_place(module)
        assert target in FLOORS, f"{_module_id(path)} imports unknown {module}"
        if target == place:
            continue
        assert FLOORS[target] < floor or (place in SIBLINGS and target in SIBLINGS), (
            f"{_module_id(path)} (floor {floor}) imports {module} "
            f"(floor {FLOORS[target]})"
        )


@pytest.mark.parametrize(
    "path", sorted((PACKAGE / "_kernels").glob("*.py")), ids=lambda p: p.name
)
def test_kernels_import_numpy_and_numba_only(path):
    """Check that kernels depend on numpy, numba, math and themselves only."""
    allowed = ("numpy", "numba", "math", "partikit._kernels")
    for module in _imports(path):
        assert module.startswith(allowed), f"{path.name} imports {module}"


@pytest.mark.parametrize("path", MODULES, ids=_module_id)
def test_only_compat_imports_private_sklearn(path):
    """Check that private scikit-learn helpers are imported in _compat.py only."""
    if path.name == "_compat.py":
        return
    for module in _imports(path):
        parts = module.split(".")
        private = module.startswith("sklearn") and any(p.startswith("_") for p in parts)
        assert not private, f"{_module_id(path)} imports {module}"


@pytest.mark.parametrize(
    "path", sorted((PACKAGE / "tree").glob("*.py")), ids=_module_id
)
def test_tree_imports_cores_never_estimators(path):
    """Check that the tree takes pure functions from groupers and discretizers,
    never their estimator classes."""
    for module, name in _imported_names(path):
        if module.startswith(("partikit.groupers", "partikit.discretizers")):
            assert not name.endswith(("Grouper", "Discretizer", "Aggregator")), (
                f"tree/{path.name} imports the estimator {name} from {module}"
            )


@pytest.mark.parametrize("path", MODULES, ids=_module_id)
def test_siblings_meet_through_public_namespaces(path):
    """Check that groupers and discretizers import no private module of each
    other (what they share lives a floor down)."""
    own = _place(path.relative_to(PACKAGE).parts)
    for module in _imports(path):
        parts = module.split(".")
        if len(parts) < 3 or parts[0] != "partikit" or parts[1] not in SIBLINGS:
            continue
        if parts[1] != own and any(p.startswith("_") for p in parts[2:]):
            raise AssertionError(
                f"{_module_id(path)} imports {module}, a private module of "
                f"partikit.{parts[1]}"
            )


@pytest.mark.parametrize("path", MODULES, ids=_module_id)
def test_no_private_name_of_another_folder(path):
    """Check that no module takes a private name (leading underscore) from a
    module outside its own folder; _compat re-exports scikit-learn's private
    helpers under their own names and is the exception."""
    relative = path.relative_to(PACKAGE)
    own = "partikit." + relative.parts[0] if len(relative.parts) > 1 else None
    for module, name in _imported_names(path):
        if not module.startswith("partikit") or module == "partikit._compat":
            continue
        if own is not None and module.startswith(own):
            continue
        dunder = name.startswith("__") and name.endswith("__")
        assert dunder or not name.startswith("_"), (
            f"{relative} imports the private name {name} from {module}"
        )


def test_the_report_uses_estimators_through_their_public_api():
    """Check that the reporting floor calls no private method of an estimator."""
    for path in (PACKAGE / "_reporting").glob("*.py"):
        source = path.read_text()
        for private in ("._fit_prepared(", "._group_table(", "._cut_table("):
            assert private not in source, f"{_module_id(path)} calls {private}"


def _documented_modules():
    """Module paths named by the layout block of docs/design.rst."""
    text = (PACKAGE.parent / "docs" / "design.rst").read_text()
    block = text[text.index("Module layout\n") :].split("\n\n.. code-block:: text\n\n")[
        1
    ]
    documented, folder = set(), None
    for line in block.split("\n\n")[0].splitlines():
        name = line.strip().split(" ")[0]
        indent = len(line) - len(line.lstrip())
        if indent == 5:  # an entry of partikit/
            folder = name[:-1] if name.endswith("/") else None
            if name.endswith(".py"):
                documented.add(name)
        elif indent == 7 and folder and name.endswith(".py"):
            documented.add(f"{folder}/{name}")
    return documented


def test_the_design_notes_name_every_module():
    """Check that docs/design.rst's module layout names every module."""
    missing = sorted(set(map(_module_id, MODULES)) - _documented_modules())
    assert not missing, f"docs/design.rst's module layout misses {missing}"
