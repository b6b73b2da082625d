#!/usr/bin/env bash
# Set up rulekb on a fresh machine (Python 3.11 + package registries) and run the main job:
# build the knowledge base of the default corpus (../shared/corpus) and print its summary.
#   bash setup.sh            set up, then build kb.json
#   bash setup.sh --no-run   set up only (what .ci/run uses)
set -euo pipefail
cd "$(dirname "$0")"
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3

# Headless Chromium for the site's browser test (Debian packages; nothing downloaded later).
if ! command -v chromedriver >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 \
   && [ "$(id -u)" = 0 ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
     chromium chromium-driver >/dev/null) || echo "setup: chromium not installed; browser tests will be skipped" >&2
fi

[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install -q -e '.[dev]'

if [ "${1:-}" != "--no-run" ]; then
  .venv/bin/rulekb build -o kb.json
fi
