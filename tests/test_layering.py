# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""The import direction of ARCHITECTURE section 2, enforced."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "partikit"


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


@pytest.mark.parametrize(
    "path", sorted((PACKAGE / "_kernels").glob("*.py")), ids=lambda p: p.name
)
def test_kernels_import_numpy_and_numba_only(path):
    """Check that kernels depend on numpy, numba, math and themselves only."""
    allowed = ("numpy", "numba", "math", "partikit._kernels")
    for module in _imports(path):
        assert module.startswith(allowed), f"{path.name} imports {module}"


def test_only_compat_imports_private_sklearn():
    """Check that private scikit-learn helpers are imported in _compat.py only."""
    for path in PACKAGE.rglob("*.py"):
        if path.name == "_compat.py":
            continue
        for module in _imports(path):
            parts = module.split(".")
            private = module.startswith("sklearn") and any(
                p.startswith("_") for p in parts
            )
            assert not private, f"{path.relative_to(PACKAGE)} imports {module}"


def test_low_layers_do_not_import_estimators():
    """Check that tables and statistics never import groupers (no cycles)."""
    for name in ("_tables.py", "_stats.py", "_validation.py", "_compat.py"):
        for module in _imports(PACKAGE / name):
            assert not module.startswith(("partikit.groupers", "partikit.tree")), (
                f"{name} imports {module}"
            )


def _imported_names(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield from ((node.module, alias.name) for alias in node.names)


def test_tree_imports_cores_never_estimators():
    """Check that the tree takes pure functions from groupers and discretizers,
    never their estimator classes."""
    for path in (PACKAGE / "tree").glob("*.py"):
        for module, name in _imported_names(path):
            if module.startswith(("partikit.groupers", "partikit.discretizers")):
                assert not name.endswith(("Grouper", "Discretizer", "Aggregator")), (
                    f"tree/{path.name} imports the estimator {name} from {module}"
                )


def test_nothing_imports_the_tree():
    """Check that only the tree itself, the top-level namespace (a re-export) and
    the command line import partikit.tree."""
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] in ("tree", "__init__.py", "__main__.py"):
            continue
        for module in _imports(path):
            assert not module.startswith("partikit.tree"), (
                f"{relative} imports {module}"
            )


#: The subpackages, each one floor: they may import the floors below
#: (``partikit._*`` modules and ``partikit._kernels``) and each other's public
#: namespaces only.
SUBPACKAGES = ("groupers", "discretizers", "tree", "utils")


MODULES = sorted(PACKAGE.rglob("*.py"))


def _module_id(path):
    return str(path.relative_to(PACKAGE))


@pytest.mark.parametrize("path", MODULES, ids=_module_id)
def test_no_private_module_of_another_subpackage(path):
    """Check that a module imports no private module of another subpackage
    (shared code lives a floor down, in partikit._* modules)."""
    own = path.relative_to(PACKAGE).parts[0]
    for module in _imports(path):
        parts = module.split(".")
        if len(parts) < 3 or parts[0] != "partikit" or parts[1] not in SUBPACKAGES:
            continue
        if parts[1] != own and any(p.startswith("_") for p in parts[2:]):
            raise AssertionError(
                f"{path.relative_to(PACKAGE)} imports {module}, a private module "
                f"of partikit.{parts[1]}"
            )


@pytest.mark.parametrize("path", MODULES, ids=_module_id)
def test_no_private_name_of_another_module(path):
    """Check that no module takes a private name (leading underscore) from a
    module outside its own subpackage; _compat re-exports scikit-learn's private
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
