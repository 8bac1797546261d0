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
