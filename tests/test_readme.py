# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_readme_quickstart_runs_and_prints_what_it_says():
    """Check that the README's quickstart runs and prints the groups its comment
    announces."""
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})
    lines = out.getvalue().strip().splitlines()
    assert lines[0] == "[4 1 1]"
    # the partition table: a header, the index name, then one row per group
    assert lines[1].split() == ["label", "count", "rate_0", "rate_1"]
    groups = lines[3:]
    assert len(groups) == 4
    assert all("more)" in row for row in groups)
    assert sum(float(row.split()[-3]) for row in groups) == 20_000


def test_readme_continuous_example_runs_and_prints_what_it_says():
    """Check that the README's continuous-target example prints what its
    comment says."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    code = next(block for block in blocks if "PartitionTreeRegressor" in block)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})
    assert out.getvalue().strip() == "[4] continuous"


def test_readme_scorecard_example_runs_and_prints_what_it_says():
    """Check that the README's scorecard example prints the points its comment
    says, ascending with age as the monotonic bins make them."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    code = next(block for block in blocks if "Scorecard" in block)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {})
    assert out.getvalue().strip() == "[68.0, 81.0, 96.0, 114.0, 91.0]"
