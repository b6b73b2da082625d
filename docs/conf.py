"""Sphinx configuration of the rulekb site: the rules reference for players, and the
project's documentation as a separate part («О программе», ``about/``).

Build it with ``rulekb.site.build_site`` (or the CLI), which copies this folder, writes the
generated pages (the start page, the rules reference, the CLI reference, formats, the search
index and the reference tooltips) into the copy and runs Sphinx there; this folder itself
stays as committed.
"""

project = "Справочник правил"
author = "rulekb"
copyright = "rulekb"
language = "ru"
html_search_language = "ru"

extensions = ["rulekb.site.sphinx_ext"]
# the KB that the rules pages show, relative to the source folder (written by build_site)
rulekb_kb = "_generated/kb.json"

root_doc = "index"
exclude_patterns = ["_build", "_generated", "reference", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]
highlight_language = "text"
# the rules' inches (24") and quotes must stay as written, not become «» typography
smartquotes = False

# furo: a well-kept theme that works on phones (navigation in a drawer, no fixed widths)
html_theme = "furo"
html_title = "Справочник правил"
html_short_title = "Справочник правил"
html_static_path = ["_static"]
html_css_files = ["rulekb.css"]
html_js_files = [
    "rulekb-search-index.js", "rulekb-search.js", "rulekb-tips-data.js", "rulekb-tips.js",
]
html_favicon = "_static/favicon.svg"
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False
html_show_copyright = False
# the search box stands at the top of every page (_templates/page.html), not in the sidebar
html_sidebars = {
    "**": ["sidebar/brand.html", "sidebar/scroll-start.html", "sidebar/navigation.html",
           "sidebar/scroll-end.html"],
}
html_theme_options = {
    "top_of_page_buttons": [],
    "navigation_with_keys": False,
}
# no index of terms: the glossary of each system is the index a player reads
html_use_index = False
html_domain_indices = False
locale_dirs = ["locales"]
