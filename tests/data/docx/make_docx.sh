#!/bin/sh
# Writes whfb_psychology.docx, ../odt/whfb_psychology.odt and ../doc/whfb_psychology.doc from
# src/whfb_psychology.html, and ../doc/whfb_notes.doc from ../doc/src/whfb_notes.fodt, with
# LibreOffice (run by hand:
# apt-get install libreoffice-writer-nogui; the tests only read what it wrote), as a user who
# saves a page of rules as a Word document gets it: its headings in Word's heading styles, a
# rule's name in bold, numbered and bulleted lists, a dice table; and a page formatted by
# hand (titles in a larger type), with a footnote, an endnote and a page number's field.
set -e
cd "$(dirname "$0")"
soffice --headless --convert-to "docx:MS Word 2007 XML" --outdir . src/whfb_psychology.html
soffice --headless --convert-to odt --outdir ../odt src/whfb_psychology.html
soffice --headless --convert-to "doc:MS Word 97" --outdir ../doc src/whfb_psychology.html
soffice --headless --convert-to "doc:MS Word 97" --outdir ../doc ../doc/src/whfb_notes.fodt
soffice --headless --convert-to "doc:MS Word 97" --outdir ../doc ../doc/src/whfb_text_box.fodt
