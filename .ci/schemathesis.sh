#!/usr/bin/env bash
# schemathesis against `sdl-gateway serve --simulate` over every operation of openapi.yaml: every
# response must conform to the document (status codes, headers, bodies), no response may be a 5xx,
# bad input must be refused, a request the document allows must be accepted (positive_data_acceptance;
# .ci/schemathesis.toml names the operations where a rule the document cannot state may refuse
# one), unknown methods answered 405. One app, "demo", is registered first
# and every {id} is it (.ci/schemathesis.toml); restarting the head unit (which cuts every app's
# link for a moment) and deleting the app run last. The stateful phase follows the document's links
# (from createApp to what uses the new app) and those schemathesis infers. The event streams never end, so they are left
# to GatewayTests. The simulator runs 20 times faster, so that an interaction nobody answers
# ends in half a second. A recording (recordAudio) lasts as long as its body asks, up to 1,000 s
# (50 s here), so it runs with its examples only, beside its last.wav (a 404 until an app records,
# which the stateful phase would take for a created resource gone missing); GatewayTests cover its refusals. Usage: schemathesis.sh PATH/TO/sdl-gateway
set -euo pipefail
bin="$1"
if ! python3 -c 'import schemathesis' 2>/dev/null; then
    python3 -m pip install -q 'schemathesis>=4.3,<5' >/dev/null
fi
source "$(dirname "$0")/start-gateway.sh"
# No per-client rate limit here: schemathesis sends thousands of requests on purpose.
config="$(mktemp)"
echo '{"limits": {"requestsPerSecond": 0}}' > "$config"
start_gateway "$bin" --config "$config" --log-level error --time-scale 0.05
curl -sf -o /dev/null -X POST "$G/v1/apps" -d '{"id":"demo","appName":"Demo","appID":"demo-app"}'
st() {
    # The console script may not be on PATH right after pip installs it: call its entry point.
    python3 -c 'from schemathesis.cli import schemathesis; schemathesis()' --config-file .ci/schemathesis.toml run openapi.yaml --url "$G" \
        --checks all --seed 20261122 "$@"
}
st --exclude-operation-id deleteApp --exclude-operation-id restartSimulator --exclude-operation-id getAppEvents --exclude-operation-id getEvents \
    --exclude-operation-id recordAudio --exclude-operation-id getLastRecording --exclude-operation-id addSimulatorFault --exclude-operation-id clearSimulatorFaults --workers 2
st --include-operation-id recordAudio --include-operation-id getLastRecording --phases examples
# Injected faults are the simulator doing on purpose what a 5xx check calls a failure ({"hang": true}
# leaves every later request unanswered, a 504 by design), so they run alone, on nothing else, and
# are cleared before the rest. (Run beside the interactions they once turned one into a 504.)
st --include-operation-id addSimulatorFault --include-operation-id clearSimulatorFaults --phases examples,coverage,fuzzing
curl -sf -o /dev/null -X DELETE "$G/v1/simulator/faults"
# One operation alone has no links to follow: no stateful phase.
st --include-operation-id restartSimulator --phases examples,coverage,fuzzing
st --include-operation-id deleteApp --phases examples,coverage,fuzzing
kill "$gateway"
wait "$gateway" || true
trap - EXIT
echo "schemathesis passed"
