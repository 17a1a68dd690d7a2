#!/usr/bin/env bash
# The CPU time an idle `sdl-gateway serve --simulate` uses with 10 registered apps, over 30 s, read
# from /proc (utime + stime). Usage: Scripts/idle-cpu.sh [PATH/TO/sdl-gateway] [PORT]
set -euo pipefail
bin="${1:-$(swift build --show-bin-path)/sdl-gateway}"
port="${2:-18181}"
log="$(mktemp)"
"$bin" serve --simulate --listen "127.0.0.1:$port" --log-level error > "$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf -o /dev/null "http://127.0.0.1:$port/v1/health" && break; sleep 0.1; done
for i in $(seq 1 10); do
    curl -sf -o /dev/null -X POST "http://127.0.0.1:$port/v1/apps" -d "{\"id\":\"a$i\",\"appName\":\"App $i\",\"appID\":\"app-$i\"}"
done
sleep 3  # let registration traffic settle before measuring
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks)
sleep 30
after=$(ticks)
echo "idle CPU over 30 s with 10 apps: $(( (after - before) * 1000 / hz )) ms = $(awk -v t=$((after - before)) -v hz="$hz" 'BEGIN{printf "%.2f", t/hz/30*100}') % of one core"
