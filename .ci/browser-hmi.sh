#!/usr/bin/env bash
# The page's simulator panel driving SDL Core through `serve --hmi`, in headless Chromium, with a
# fake of Core's HMI WebSocket (.ci/browser-hmi.py). Installs chromium, selenium and websockets
# when missing. Usage: browser-hmi.sh PATH/TO/sdl-gateway [ARTIFACTS]
set -euo pipefail
bin="$1"
artifacts="${2:-$(mktemp -d)}"
source "$(dirname "$0")/browser-tools.sh"
if ! python3 -c 'import websockets.sync.server' 2>/dev/null; then
    python3 -m pip install -q 'websockets>=12' >/dev/null
fi
timeout 180 python3 "$(dirname "$0")/browser-hmi.py" "$bin" "$artifacts"
