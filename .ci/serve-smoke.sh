#!/usr/bin/env bash
# The README's curl walk-through against the real `sdl-gateway serve --simulate` on a free port:
# register, Show, vehicle data over SSE, a file, metrics, then SIGTERM must exit cleanly within 5 s.
# It records with --record (into a directory it creates) and inspects the deleted app's capture file.
# Usage: serve-smoke.sh PATH/TO/sdl-gateway
set -euo pipefail
bin="$1"
source "$(dirname "$0")/start-gateway.sh"
captures="$(mktemp -d)/captures"
start_gateway "$bin" --log-level warning --record "$captures"
echo "gateway at $G"
check() { # check NAME EXPECTED-STATUS CURL-ARGS... : the status must match
    local name="$1" expected="$2"
    shift 2
    local status
    status=$(curl -s -o "$work/body" -w '%{http_code}' "$@")
    if [ "$status" != "$expected" ]; then
        echo "$name: HTTP $status, expected $expected: $(head -c 500 "$work/body")"
        exit 1
    fi
    echo "$name: $status"
}
check health 200 "$G/v1/health"
check register 201 -X POST "$G/v1/apps" -d '{"id":"demo","appName":"Demo","appID":"demo-app","isMediaApplication":true}'
grep -q '"connection":"registered"' "$work/body"
check show 200 -X POST "$G/v1/apps/demo/rpc/Show" -d '{"mainField1":"Hello","mainField2":"from curl"}'
grep -q '"resultCode":"SUCCESS"' "$work/body"
check screen 200 "$G/v1/simulator/apps/demo-app/screen"
grep -q '"mainField1":"Hello"' "$work/body"
check invalid 422 -X POST "$G/v1/apps/demo/rpc/Show" -d '{"mainField1":123}'
grep -q 'application/problem+json' <(curl -s -D - -o /dev/null -X POST "$G/v1/apps/demo/rpc/Show" -d '{"mainField1":123}')
check vehicle-data 200 "$G/v1/apps/demo/vehicle-data?names=speed,rpm"
check subscribe 200 -X PUT "$G/v1/apps/demo/subscriptions/vehicle-data" -d '{"names":["speed","rpm"]}'
# SSE: the simulator's drive streams at 10 Hz; two seconds of the stream hold vehicleData events.
timeout 2 curl -s -N -H 'Accept: text/event-stream' "$G/v1/apps/demo/events?types=vehicleData&names=speed" > "$work/events" || true
grep -q '^event: vehicleData' "$work/events"
grep -q '"speed":' "$work/events"
if grep -q '"rpm":' "$work/events"; then echo "names=speed let rpm through"; exit 1; fi
head -c 300000 /dev/urandom > "$work/track.bin"
check upload 201 -X PUT --data-binary @"$work/track.bin" "$G/v1/apps/demo/files/track.bin?chunkSize=65536"
grep -q '"chunks":5' "$work/body"
check files 200 "$G/v1/apps/demo/files"
grep -q 'track.bin' "$work/body"
check batch 200 -X POST "$G/v1/apps/demo/batch" -d '{"requests":[{"function":"AddCommand","params":{"cmdID":1,"menuParams":{"menuName":"Play"}}},{"function":"Show","params":{"mainField1":"Menu ready"}}]}'
check metrics 200 "$G/metrics"
grep -q 'sdl_gateway_rpc_duration_seconds_bucket{function="Show"' "$work/body"
check openapi 200 "$G/openapi.yaml"
check unregister 204 -X DELETE "$G/v1/apps/demo"
# The capture is closed when the delete answers: both directions of the Show, with times.
"$bin" inspect "$captures"/demo-*.sdlcap > "$work/inspect"
grep -q '"record":"header"' "$work/inspect"
grep '"direction":"appToHeadUnit"' "$work/inspect" | grep '"function":"Show"' >/dev/null
grep '"direction":"headUnitToApp"' "$work/inspect" | grep '"function":"Show"' | grep '"resultCode":"SUCCESS"' >/dev/null
grep -q '"record":"closed"' "$work/inspect"
echo "record + inspect: $(wc -l < "$work/inspect") lines"
start=$(date +%s%N)
kill -TERM "$gateway"
wait "$gateway"
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
trap - EXIT
echo "SIGTERM to exit: ${elapsed_ms} ms"
[ "$elapsed_ms" -lt 5000 ]
echo "serve smoke passed"
