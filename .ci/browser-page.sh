#!/usr/bin/env bash
# The built-in page in headless Chromium against `serve --simulate` (.ci/browser-page.py).
# Installs chromium, its driver and selenium when missing. With SCREENSHOTS, saves the page's
# screenshots there (docs/screenshots holds the ones the README shows).
# Usage: browser-page.sh PATH/TO/sdl-gateway [ARTIFACTS] [SCREENSHOTS]
set -euo pipefail
bin="$1"
artifacts="${2:-$(mktemp -d)}"
source "$(dirname "$0")/browser-tools.sh"
source "$(dirname "$0")/start-gateway.sh"
start_gateway "$bin" --log-level warning
timeout 180 python3 "$(dirname "$0")/browser-page.py" "$G" "$artifacts" ${3:+"$3"}
kill "$gateway"
wait "$gateway" || true
trap - EXIT
