# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
import os
from pathlib import Path

import numpy as np
import pytest

#: Real datasets live beside the repository (never copied into it).
DATASETS_DIR = Path(
    os.environ.get(
        "PARTIKIT_DATASETS", Path(__file__).parents[2] / "shared" / "datasets"
    )
)


@pytest.fixture(
    params=[0]
    if "PARTIKIT_TEST_SEEDS" not in os.environ
    else range(int(os.environ["PARTIKIT_TEST_SEEDS"]))
)
def global_random_seed(request):
    """A seed for random test data; PARTIKIT_TEST_SEEDS=N widens it to 0..N-1."""
    return request.param


@pytest.fixture(params=["pandas", "polars"])
def df_module(request):
    """The dataframe library to build inputs with (skips when not installed)."""
    return pytest.importorskip(request.param)


@pytest.fixture
def datasets_dir():
    """Folder of the shared real datasets; the test skips when it is absent."""
    if not DATASETS_DIR.is_dir():
        pytest.skip(
            f"real datasets not found at {DATASETS_DIR} (set "
            "PARTIKIT_DATASETS to the shared/datasets folder)"
        )
    return DATASETS_DIR


def pytest_configure(config):
    # numpy 2 prints scalars as np.float64(...); doctests are written the 1.x
    # way, which numpy 1.x (the oldest supported) prints natively and does not
    # know as a "legacy" mode
    if int(np.__version__.split(".")[0]) >= 2:
        np.set_printoptions(legacy="1.25")


@pytest.fixture
def close_figures():
    """Close the pyplot figures a test opened (partikit's plots never close them)."""
    plt = pytest.importorskip("matplotlib.pyplot")
    before = set(plt.get_fignums())
    yield
    for number in set(plt.get_fignums()) - before:
        plt.close(number)
