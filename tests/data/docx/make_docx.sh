#!/bin/sh
# Writes whfb_psychology.docx, and ../odt/whfb_psychology.odt, from src/whfb_psychology.html
# with LibreOffice (run by hand:
# apt-get install libreoffice-writer-nogui; the tests only read what it wrote), as a user who
# saves a page of rules as a Word document gets it: its headings in Word's heading styles, a
# rule's name in bold, numbered and bulleted lists, a dice table.
set -e
cd "$(dirname "$0")"
soffice --headless --convert-to "docx:MS Word 2007 XML" --outdir . src/whfb_psychology.html
soffice --headless --convert-to odt --outdir ../odt src/whfb_psychology.html
