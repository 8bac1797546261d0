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
    """Check that only the tree itself and the command line import partikit.tree."""
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE)
        if relative.parts[0] == "tree" or relative.name == "__main__.py":
            continue
        for module in _imports(path):
            assert not module.startswith("partikit.tree"), (
                f"{relative} imports {module}"
            )
