# Sourced by the CI scripts: start_gateway BIN [ARGS…] runs `BIN serve --simulate --listen
# 127.0.0.1:0 ARGS…` in the background, sets $gateway (its pid), $work (a scratch folder) and $G
# (its base URL, read from the line it prints), and stops it when the script exits.
start_gateway() {
    local bin="$1"
    shift
    work="$(mktemp -d)"
    "$bin" serve --simulate --listen 127.0.0.1:0 "$@" > "$work/serve.log" 2>&1 &
    gateway=$!
    trap 'kill "$gateway" 2>/dev/null || true' EXIT
    for _ in $(seq 1 100); do
        grep -q 'sdl-gateway on' "$work/serve.log" && break
        sleep 0.1
    done
    G="$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -n 1)"
    [ -n "$G" ] || { echo "sdl-gateway serve did not start:"; cat "$work/serve.log"; exit 1; }
}
