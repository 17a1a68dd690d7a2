#!/usr/bin/env bash
# The browser client and its media-player example in headless Chromium against `serve --simulate`
# with a token (.ci/browser-client.py). Installs chromium, its driver and selenium when missing.
# Usage: browser-client.sh PATH/TO/sdl-gateway [ARTIFACTS]
set -euo pipefail
bin="$1"
artifacts="${2:-$(mktemp -d)}"
source "$(dirname "$0")/browser-tools.sh"
source "$(dirname "$0")/start-gateway.sh"
start_gateway "$bin" --token ctltoken1:control --log-level warning
timeout 180 python3 "$(dirname "$0")/browser-client.py" "$G" ctltoken1 "$artifacts"
kill "$gateway"
wait "$gateway" || true
trap - EXIT
