#!/usr/bin/env bash
# The HMI preview as a head unit (.ci/browser-headunit.py) in headless Chromium and Firefox against
# `serve --simulate`: every template drawn and compared (Chromium) with docs/screenshots/templates/,
# and the driver's clicks. Installs chromium, firefox-esr, selenium, marionette_driver and Pillow
# when missing. UPDATE_SCREENSHOTS=1 keeps the fresh pictures in docs/screenshots/templates/.
# Usage: browser-headunit.sh PATH/TO/sdl-gateway [ARTIFACTS]
set -euo pipefail
bin="$1"
artifacts="${2:-$(mktemp -d)}"
source "$(dirname "$0")/browser-tools.sh"
if ! command -v firefox-esr >/dev/null; then
    apt-get update -qq && apt-get install -y -qq firefox-esr >/dev/null
fi
for module in marionette_driver:marionette_driver PIL:pillow; do
    python3 -c "import ${module%%:*}" 2>/dev/null || python3 -m pip install -q "${module##*:}" >/dev/null
done
source "$(dirname "$0")/start-gateway.sh"
start_gateway "$bin" --log-level warning
status=0
for browser in chromium firefox; do
    timeout 300 python3 "$(dirname "$0")/browser-headunit.py" "$browser" "$G" "$artifacts" || status=1
done
kill "$gateway"
wait "$gateway" || true
trap - EXIT
exit "$status"
