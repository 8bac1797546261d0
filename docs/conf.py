# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Sphinx configuration of the partikit documentation.

Build with ``python -m sphinx -W -b html docs docs/_build/html`` from the
repository root. The build never touches the network: intersphinx links to
Python, NumPy, SciPy, pandas and scikit-learn are only enabled when the
environment variable ``PARTIKIT_DOCS_INTERSPHINX=1`` is set (their inventories
are then downloaded).
"""

import os

import partikit

# -- Project information ------------------------------------------------------------

project = "partikit"
author = "The partikit developers"
copyright = author
version = partikit.__version__
release = partikit.__version__

# -- General configuration ----------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"
source_suffix = {".rst": "restructuredtext"}
default_role = "literal"
language = "en"

# References to objects outside partikit cannot be resolved without intersphinx;
# they are written as plain literals in the pages, and a docstring's unresolved
# Python cross-reference (for example a type name) is rendered as text.
nitpicky = False

# intersphinx is opt-in: the build machine has no network (see install.rst).
INTERSPHINX = os.environ.get("PARTIKIT_DOCS_INTERSPHINX") == "1"

# -- autodoc / autosummary / numpydoc -----------------------------------------------

autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": True}
autodoc_typehints = "none"

numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
# Parameter types in docstrings (``bool``, ``array-like``...) link to the Python and
# NumPy documentation through intersphinx, so only when it is enabled; otherwise
# they are plain text. Unknown words in type lines are never turned into links.
numpydoc_xref_param_type = INTERSPHINX
numpydoc_xref_aliases = {
    "KhiopsGrouper": "partikit.groupers.KhiopsGrouper",
}
numpydoc_xref_ignore = "all"

# -- intersphinx: opt-in, since the build machine has no network --------------------

if INTERSPHINX:
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
        "scipy": ("https://docs.scipy.org/doc/scipy", None),
        "pandas": ("https://pandas.pydata.org/docs", None),
        "sklearn": ("https://scikit-learn.org/stable", None),
    }
else:
    intersphinx_mapping = {}

# -- sphinx-gallery -----------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "auto_examples",
    "doc_module": ("partikit",),
    "backreferences_dir": os.path.join("api", "generated"),
    "reference_url": {"partikit": None},
    "within_subsection_order": "FileNameSortKey",
    "filename_pattern": r"/plot_",
    "show_memory": False,
    "download_all_examples": False,
    # a string, so that `-D plot_gallery=0` on the command line can override it
    "plot_gallery": "True",
    "remove_config_comments": True,
    # The execution-times pages load jQuery and DataTables from CDNs: not written.
    "write_computation_times": False,
    # Binder and JupyterLite stay off (their defaults): both point to remote services.
}

# -- HTML output --------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = f"partikit {version}"
html_static_path = []
html_show_sourcelink = False
html_theme_options = {
    # Nothing is fetched from the network: no version switcher JSON, no analytics,
    # no remote logo, no edit/issue links that need a repository URL.
    "navbar_end": ["theme-switcher", "navbar-icon-links"],
    "icon_links": [],
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"install": [], "whats_new": [], "design": []}
# MathJax is loaded by the reader's browser; set PARTIKIT_DOCS_MATHJAX_PATH to a
# local copy (for example a vendored tex-chtml.js) for fully offline pages.
if os.environ.get("PARTIKIT_DOCS_MATHJAX_PATH"):
    mathjax_path = os.environ["PARTIKIT_DOCS_MATHJAX_PATH"]


# -- Build-time fixes ---------------------------------------------------------------

# Methods inherited from scikit-learn (``set_output``, ``get_metadata_routing``,
# ``set_fit_request``...) have docstrings that point to scikit-learn's own labels
# and glossary. Without intersphinx those targets do not exist here: render them
# as plain text instead of warning. Unresolved references in partikit's own pages
# and docstrings still warn.
_SKLEARN_DOCSTRING = "docstring of sklearn."


def _sklearn_reference_as_text(app, env, node, contnode):
    if INTERSPHINX or node.get("refdomain") != "std":
        return None
    if node.get("reftype") not in ("ref", "term"):
        return None
    if _SKLEARN_DOCSTRING not in (node.source or ""):
        return None
    from docutils import nodes

    # ``:ref:`label``` without a title would show the raw label: name the source.
    text = contnode.astext()
    if node["reftype"] == "ref" and not node.get("refexplicit"):
        text = "scikit-learn's guide"
    return nodes.inline(text, text)


def setup(app):
    app.connect("missing-reference", _sklearn_reference_as_text)
