"""Sphinx configuration of the rulekb site: the project's docs and the rules reference.

Build it with ``rulekb.site.build_site`` (or the CLI), which copies this folder, writes the
generated pages (rules reference, CLI reference, formats, search index) into the copy and
runs Sphinx there; this folder itself stays as committed.
"""

project = "rulekb"
author = "rulekb"
copyright = "rulekb"
language = "ru"
html_search_language = "ru"

extensions = ["rulekb.site.sphinx_ext"]
# the KB that the rules pages show, relative to the source folder (written by build_site)
rulekb_kb = "_generated/kb.json"

root_doc = "index"
exclude_patterns = ["_build", "_generated", "reference", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
highlight_language = "text"
# the rules' inches (24") and quotes must stay as written, not become «» typography
smartquotes = False

html_theme = "alabaster"
html_title = "rulekb — справочник правил"
html_short_title = "rulekb"
html_static_path = ["_static"]
html_css_files = ["rulekb.css"]
html_js_files = ["rulekb-search-index.js", "rulekb-search.js"]
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False
html_show_copyright = False
html_sidebars = {"**": ["about.html", "searchbox.html", "navigation.html", "relations.html"]}
html_theme_options = {
    "description": "Справочник правил wh40k6, whfb8 и Kill Team 2018 по текстам корпуса",
    "sidebar_collapse": True,
    "show_relbars": False,
    "fixed_sidebar": False,
    "page_width": "1100px",
}
