#!/usr/bin/env bash
# The browser client and the page in headless Firefox (.ci/browser-firefox.py) against
# `serve --simulate` with a token. Installs firefox-esr and Mozilla's marionette_driver when missing.
# Usage: browser-firefox.sh PATH/TO/sdl-gateway [ARTIFACTS]
set -euo pipefail
bin="$1"
artifacts="${2:-$(mktemp -d)}"
if ! command -v firefox-esr >/dev/null; then
    apt-get update -qq && apt-get install -y -qq firefox-esr >/dev/null
fi
if ! python3 -c 'import marionette_driver' 2>/dev/null; then
    python3 -m pip install -q marionette_driver >/dev/null
fi
source "$(dirname "$0")/start-gateway.sh"
start_gateway "$bin" --token ctltoken1:control --log-level warning
timeout 180 python3 "$(dirname "$0")/browser-firefox.py" "$G" ctltoken1 "$artifacts"
kill "$gateway"
wait "$gateway" || true
trap - EXIT
