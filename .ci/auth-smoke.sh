#!/usr/bin/env bash
# The security issue's transcript (.ci/auth-smoke.py) against `sdl-gateway serve --simulate` started
# the way a container deployment runs it: with a read and a control token.
# Usage: auth-smoke.sh PATH/TO/sdl-gateway
set -euo pipefail
bin="$1"
source "$(dirname "$0")/start-gateway.sh"
start_gateway "$bin" --token readtoken1:read --token ctltoken1:control --log-level warning
python3 "$(dirname "$0")/auth-smoke.py" "$G" readtoken1 ctltoken1 "$gateway"
if grep -q -e readtoken1 -e ctltoken1 "$work/serve.log"; then
    echo "a token reached the log"
    exit 1
fi
kill "$gateway"
wait "$gateway" || true
trap - EXIT
