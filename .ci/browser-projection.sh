#!/usr/bin/env bash
# Projection in headless Chromium against `serve --simulate` (.ci/browser-projection.py): the
# navigation example streams its canvas as H.264, the simulator receives it, the page's HMI
# preview decodes it, and a drag on the preview pans the example's map. Installs chromium, its
# driver and selenium when missing. With SCREENSHOTS, saves the example's and the preview's
# screenshots there (docs/screenshots holds the ones the README shows).
# Usage: browser-projection.sh PATH/TO/sdl-gateway [ARTIFACTS] [SCREENSHOTS]
set -euo pipefail
bin="$1"
artifacts="${2:-$(mktemp -d)}"
source "$(dirname "$0")/browser-tools.sh"
source "$(dirname "$0")/start-gateway.sh"
start_gateway "$bin" --log-level warning
timeout 240 python3 "$(dirname "$0")/browser-projection.py" "$G" "$artifacts" ${3:+"$3"}
kill "$gateway"
wait "$gateway" || true
trap - EXIT
