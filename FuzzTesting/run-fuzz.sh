#!/usr/bin/env bash
# Builds the libFuzzer target over SDLProtocol's decoders and runs it.
#   ./run-fuzz.sh [SECONDS]      fuzz for SECONDS (default 60), starting from Seeds/
# A crash leaves crash-* here and exits non-zero; turn it into a test in
# Tests/SDLProtocolTests/FuzzRegressionTests.swift.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
    --scratch-path .build-fuzz 2>&1 | tail -n 3
binary="$(swift build -c release --scratch-path .build-fuzz --show-bin-path)/FuzzSDLProtocol"
mkdir -p corpus
set +e
SWIFT_BACKTRACE=enable=no "$binary" -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 corpus Seeds > fuzz.log 2>&1
status=$?
set -e
grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss_mb)' fuzz.log || true
if [ "$status" -ne 0 ]; then
    tail -n 60 fuzz.log
fi
exit "$status"
