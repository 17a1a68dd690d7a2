#!/usr/bin/env bash
# The built-in page in headless Chromium against `serve --simulate` with a token (.ci/browser-auth.py).
# Installs chromium, its driver and selenium when missing. Usage: browser-auth.sh PATH/TO/sdl-gateway
set -euo pipefail
bin="$1"
source "$(dirname "$0")/browser-tools.sh"
source "$(dirname "$0")/start-gateway.sh"
start_gateway "$bin" --token ctltoken1:control --token readtoken1:read --log-level warning
timeout 120 python3 "$(dirname "$0")/browser-auth.py" "$G" ctltoken1 readtoken1
kill "$gateway"
wait "$gateway" || true
trap - EXIT
