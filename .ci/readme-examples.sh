#!/usr/bin/env bash
# The README's shell examples, run as written and in order against the servers they start
# (`serve --simulate`, on free ports): .ci/readme-examples.py. Installs jq and curl when missing.
# Usage: readme-examples.sh PATH/TO/sdl-gateway
set -euo pipefail
bin="$1"
if ! command -v jq >/dev/null || ! command -v curl >/dev/null; then
    apt-get update -qq && apt-get install -y -qq jq curl >/dev/null
fi
cd "$(dirname "$0")/.."
python3 .ci/readme-examples.py README.md "$bin"
