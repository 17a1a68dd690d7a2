#!/usr/bin/env bash
# Builds the libFuzzer targets (release, -sanitize=fuzzer,address) once and runs them.
#   ./run-fuzz.sh TARGET|all [SECONDS]    fuzz one target, or all five one after the other,
#                                         for SECONDS each (default 60), from Seeds/TARGET/
# Targets: FuzzFrameDecoder FuzzBSON FuzzRPCJSON FuzzSpecValidator FuzzCaptureDecoder.
# Each target prints one line:
#   FUZZ target=… seconds=… execs=… exec_per_s=… cov=… ft=… corpus=… crashes=… peak_rss_mb=…
# The corpus grows in corpus/TARGET/ and logs go to logs/TARGET.log (both ignored by git). A crash
# leaves crash-* in artifacts/TARGET/, prints the log's tail, and makes the script exit non-zero;
# turn the input into a test in Tests/SDLProtocolTests/FuzzRegressionTests.swift.
set -euo pipefail
cd "$(dirname "$0")"
all_targets=(FuzzFrameDecoder FuzzBSON FuzzRPCJSON FuzzSpecValidator FuzzCaptureDecoder)
which="${1:-all}"
seconds="${2:-60}"
if [ "$which" = all ]; then
    targets=("${all_targets[@]}")
elif [[ " ${all_targets[*]} " == *" $which "* ]]; then
    targets=("$which")
else
    echo "usage: $0 TARGET|all [SECONDS]; targets: ${all_targets[*]}" >&2
    exit 64
fi

# The largest input per target: a few frames of a stream, a control frame's BSON, an RPC payload,
# a capture file of a few records.
max_len() {
    case "$1" in
        FuzzFrameDecoder) echo 8192 ;;
        FuzzBSON) echo 4096 ;;
        FuzzRPCJSON) echo 8192 ;;
        FuzzSpecValidator) echo 4096 ;;
        FuzzCaptureDecoder) echo 8192 ;;
    esac
}

swift build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
    --scratch-path .build-fuzz 2>&1 | tail -n 3
bin="$(swift build -c release --scratch-path .build-fuzz --show-bin-path)"

failed=0
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target" logs
    log="logs/$target.log"
    set +e
    SWIFT_BACKTRACE=enable=no "$bin/$target" -max_total_time="$seconds" -max_len="$(max_len "$target")" \
        -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix="artifacts/$target/" \
        "corpus/$target" "Seeds/$target" > "$log" 2>&1
    status=$?
    set -e
    # libFuzzer's last status line ("#N DONE cov: C ft: F corp: K/…": K inputs kept, seeds included)
    # and its final stats.
    last=$(grep -E '^#[0-9]+[[:space:]]+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)' "$log" | tail -n 1 || true)
    execs=$(grep -oE '^stat::number_of_executed_units:[[:space:]]+[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    [ -n "$execs" ] || execs=$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#' || true)
    exec_per_s=$(grep -oE '^stat::average_exec_per_sec:[[:space:]]+[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    peak=$(grep -oE '^stat::peak_rss_mb:[[:space:]]+[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
    cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || true)
    ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || true)
    corpus=$(grep -oE 'corp: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || true)
    crashes=$(find "artifacts/$target" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    echo "FUZZ target=$target seconds=$seconds execs=${execs:-?} exec_per_s=${exec_per_s:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corpus:-?} crashes=$crashes peak_rss_mb=${peak:-?}"
    if [ "$status" -ne 0 ] || [ "$crashes" -ne 0 ]; then
        echo "-- $target exited $status; the tail of $log:"
        tail -n 40 "$log"
        failed=1
    fi
done
exit "$failed"
