#!/usr/bin/env python3
"""Turn a KTHub Nuxt page template (app/pages/*/index.vue) into the plain text a reader
gets by selecting the whole rendered page and copying it.

Conventions (from the brief):
- every block element (heading, paragraph, list item, blockquote paragraph, div with text,
  figcaption paragraph, table row) on a line of its own; a blank line between blocks
  (paragraph, heading, a list as a whole, blockquote); list items one per line, no bullets,
  no blank lines between the items of one list (nested lists stay in the same run);
- <AppHeading subtitle="X">Y</AppHeading>: Y on its line, X on the next line;
  <ActionCard title=T subtitle=S :ap=N>: T, S, "NAP" on consecutive lines (the card header),
  then each effect / condition HTML string rendered as blocks;
- TwoColumnLayout: DOM order = the #left slot (aside) first, then the #right slot;
- inline markup becomes its text, entities decoded (&nbsp; -> space), whitespace collapsed;
- icons, pictures, separators, comments, script/style, TableOfContents give nothing;
- CSS text-transform is NOT applied.
Option --inline-subtitle renders "Y (X)" on one line instead (what AppHeading.vue really
emits: <span> (X)</span> inside the h-tag).

Additions for commit b7d28d57:
- <AppBlockquote> renders <blockquote><p class="m-0"><slot/></p></blockquote>: a block (a
  designer's note);
- <AppFooter> (the site's footer: "Copyright (c) Yauheni Fiarbei <year>" and two icon
  buttons) is the site's chrome like TableOfContents and the layout's header: gives nothing;
- a browser's implicit </p>: a <p> still open when a block-level element starts (every
  component used here renders a block root: TwoColumnLayout/ActionCard -> div, AppHeading ->
  h*, AppBlockquote -> blockquote) is closed there, as the HTML parser does; a stray </p> then
  gives an empty paragraph (no text). (For this template it changes no text: checked by
  converting with and without the rule.)

usage: vue2text.py template.vue out.txt [--inline-subtitle] [--no-implicit-p-close]
"""

import re
import sys
from html.parser import HTMLParser

VOID = {"br", "img", "hr", "input", "meta", "link", "source", "wbr"}
SKIP = {
    "script",
    "style",
    "icon",
    "nuxtpicture",
    "nuxtimg",
    "useparator",
    "tableofcontents",
    "img",
    "svg",
    "appfooter",
}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
BLOCK = HEADINGS | {
    "p", "div", "blockquote", "figure", "figcaption", "section", "aside", "article",
    "header", "footer", "nav", "main", "ucontainer", "template", "table", "thead", "tbody",
    "tr", "appblockquote"
}
# start tags that close an open <p> (HTML "close a p element" rule), with the components
# that render a block root
P_CLOSERS = HEADINGS | {
    "address", "article", "aside", "blockquote", "div", "dl", "fieldset", "figcaption",
    "figure", "footer", "form", "header", "hr", "main", "nav", "ol", "p", "section",
    "table", "ul", "twocolumnlayout", "actioncard", "appheading", "appblockquote"
}
P_SCOPE_STOP = {"#root", "table", "td", "th", "caption", "button", "object", "template"}
IMPLICIT_P_CLOSE = True


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag = tag
        self.attrs = dict(attrs)
        self.children = []
        self.parent = parent


class TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [])
        self.cur = self.root

    def close_open_p(self):
        n = self.cur
        while n is not None and n.tag not in P_SCOPE_STOP:
            if n.tag == "p":
                self.cur = n.parent
                return
            n = n.parent

    def handle_starttag(self, tag, attrs):
        if IMPLICIT_P_CLOSE and tag in P_CLOSERS:
            self.close_open_p()
        n = Node(tag, attrs, self.cur)
        self.cur.children.append(n)
        if tag not in VOID:
            self.cur = n

    def handle_startendtag(self, tag, attrs):
        if IMPLICIT_P_CLOSE and tag in P_CLOSERS:
            self.close_open_p()
        self.cur.children.append(Node(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is None:  # stray end tag
            return
        self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)

    def handle_comment(self, data):
        pass


def parse(html):
    tb = TreeBuilder()
    tb.feed(html)
    tb.close()
    return tb.root


def norm(s):
    s = s.replace("\xa0", " ")
    return re.sub(r"\s+", " ", s).strip()


class Renderer:
    def __init__(self, inline_subtitle=False):
        self.out = []  # tokens: ("L", text) or ("B",)
        self.buf = []
        self.list_depth = 0
        self.inline_subtitle = inline_subtitle

    # --- token helpers
    def flush(self):
        t = norm("".join(self.buf))
        self.buf = []
        if t:
            self.out.append(("L", t))

    def brk(self):
        self.flush()
        if self.list_depth == 0:
            self.out.append(("B",))

    def heading(self, title, sub):
        """A heading and its subtitle: "Y (X)" on one line, or X on the line under Y."""
        if self.inline_subtitle and sub:
            self.line(f"{title} ({sub})")
        else:
            self.line(title)
            if sub:
                self.line(sub)

    def line(self, text):
        text = norm(text)
        if text:
            self.out.append(("L", text))

    # --- rendering
    def inline_text(self, node):
        """all text of a subtree, ignoring skipped components"""
        if isinstance(node, str):
            return node
        if node.tag in SKIP:
            return ""
        return "".join(self.inline_text(c) for c in node.children)

    def render_children(self, node):
        for c in node.children:
            self.render(c)

    def render(self, node):
        if isinstance(node, str):
            self.buf.append(node)
            return
        tag = node.tag
        if tag in SKIP:
            return
        if tag == "template" and node.parent is not None and node.parent.tag == "#root":
            # the <template> root of the SFC
            self.render_children(node)
            return
        if tag == "twocolumnlayout":
            self.brk()
            slots = {}
            for c in node.children:
                if isinstance(c, Node) and c.tag == "template":
                    for k in c.attrs:
                        if k.startswith("#"):
                            slots[k[1:]] = c
                        elif k.startswith("v-slot:"):
                            slots[k[7:]] = c
            for name in ("left", "right"):
                if name in slots:
                    self.render_children(slots[name])
                    self.brk()
            return
        if tag == "appheading":
            self.brk()
            self.heading(norm(self.inline_text(node)), norm(node.attrs.get("subtitle") or ""))
            self.brk()
            return
        if tag == "actioncard":
            self.brk()
            ap = node.attrs.get(":ap") or node.attrs.get("ap") or "1"
            self.heading(norm(node.attrs.get("title") or ""),
                         norm(node.attrs.get("subtitle") or ""))
            self.line(f"{ap.strip()}AP")
            self.brk()
            for key in (":effects", ":conditions"):
                for item in js_string_array(node.attrs.get(key) or "[]"):
                    if not item.strip():
                        continue
                    sub_root = parse(item)
                    self.brk()
                    self.render_children(sub_root)
                    self.brk()
            return
        if tag in ("ul", "ol"):
            self.brk()
            self.list_depth += 1
            self.render_children(node)
            self.flush()
            self.list_depth -= 1
            self.brk()
            return
        if tag == "li":
            self.flush()
            self.render_children(node)
            self.flush()
            return
        if tag in ("td", "th"):
            # cells of one row joined by a tab
            self.buf.append("\t" if node.parent and node.parent.children.index(node) > 0 else "")
            self.buf.append(norm(self.inline_text(node)))
            return
        if tag == "tr":
            self.flush()
            cells = [
                norm(self.inline_text(c))
                for c in node.children
                if isinstance(c, Node) and c.tag in ("td", "th")
            ]
            if any(cells):
                self.out.append(("L", "\t".join(cells)))
            return
        if tag == "br":
            self.flush()
            return
        if tag in BLOCK or tag.startswith("u") and tag not in ("ul",):
            self.brk()
            self.render_children(node)
            self.brk()
            return
        # inline element (strong, em, a, span, component we do not know)
        self.render_children(node)

    def text(self):
        self.flush()
        lines = []
        pending_blank = False
        for tok in self.out:
            if tok[0] == "B":
                pending_blank = True
            else:
                if lines and pending_blank:
                    lines.append("")
                lines.append(tok[1])
                pending_blank = False
        return "\n".join(lines) + "\n"


def js_string_array(src):
    """items of a JS array literal of single-quoted strings: ['<p>..</p>', '...']"""
    items = []
    i = 0
    while i < len(src):
        if src[i] == "'":
            j = i + 1
            s = []
            while j < len(src) and src[j] != "'":
                if src[j] == "\\" and j + 1 < len(src):
                    s.append(src[j + 1])
                    j += 2
                    continue
                s.append(src[j])
                j += 1
            items.append("".join(s))
            i = j + 1
        else:
            i += 1
    return items


def convert(vue_src, inline_subtitle=False):
    m = re.search(r"^<template>(.*)^</template>", vue_src, re.S | re.M)
    tpl = m.group(1)
    # drop HTML comments first (they may contain markup, e.g. a commented-out ActionCard)
    tpl = re.sub(r"<!--.*?-->", "", tpl, flags=re.S)
    root = parse(tpl)
    r = Renderer(inline_subtitle)
    r.render_children(root)
    return r.text()


if __name__ == "__main__":
    if "--no-implicit-p-close" in sys.argv:
        IMPLICIT_P_CLOSE = False
    src = open(sys.argv[1], encoding="utf-8").read()
    txt = convert(src, "--inline-subtitle" in sys.argv)
    open(sys.argv[2], "w", encoding="utf-8").write(txt)
    print(f"{sys.argv[2]}: {len(txt)} chars, {txt.count(chr(10))} lines")
