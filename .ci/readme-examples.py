"""Runs the README's shell examples as written, in order, in one bash session, the way a reader
pastes them into one terminal: every ```sh, ```bash and ```console block (of a console block, the
`$ ` lines), except a block whose preceding line is `<!-- not run: REASON -->`, which is skipped
and named with its reason. `swift run sdl-gateway` is the built executable; the ports 8080, 8081
and 8082 of the examples are free ports of this machine; a server a block starts with `&` is
waited for before the next line. A curl fails on an HTTP error status unless it prints the status
itself (`-w`); an event stream (`curl -N`) is read for a second; each curl has 30 s, the whole
run RUN_SECONDS. Every process the examples started is stopped at the end. What they print goes
to a log beside the script, shown (its long lines cut) when a block fails.
Usage: readme-examples.py README.md PATH/TO/sdl-gateway"""
import os
import pathlib
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

RUN_SECONDS = 150
FENCE = re.compile(r"^```(sh|bash|console)\s*$")
NOT_RUN = re.compile(r"^<!-- not run: (.+) -->$")
SERVER = re.compile(r"^\s*swift run sdl-gateway serve\b.*&\s*(#.*)?$")

PRELUDE = r"""
set -euo pipefail
swift() {
    [ "${1:-}" = run ] && [ "${2:-}" = sdl-gateway ] || { echo "only 'swift run sdl-gateway' runs here: swift $*" >&2; return 1; }
    shift 2
    "$README_EXAMPLES_BIN" "$@"
}
curl() {
    local a stream=0 status=0 rc=0
    for a in "$@"; do
        case "$a" in -N|--no-buffer) stream=1 ;; -w|--write-out) status=1 ;; esac
    done
    if [ "$stream" = 1 ]; then
        # An event stream never ends by itself: a second of it.
        command curl --max-time 1 "$@" || rc=$?
        echo
        [ "$rc" = 0 ] || [ "$rc" = 28 ] || return "$rc"
        return 0
    fi
    if [ "$status" = 1 ]; then command curl --max-time 30 "$@"; return; fi
    command curl --fail-with-body --max-time 30 "$@"
}
wait_for_server() {  # the port a server started in the background listens on, 10 s at most
    for _ in $(seq 1 100); do
        command curl -s -o /dev/null "http://127.0.0.1:$1/v1/health" && return 0
        sleep 0.1
    done
    echo "no server on port $1 after 10 s" >&2
    return 1
}
block() { echo; echo "== README.md:$1"; }
console_status() { set -e; [ "$1" = 0 ] || { echo "FAILED (exit $1): a console line" >&2; exit 1; }; }
trap 'echo "FAILED (exit $?) at: $BASH_COMMAND" >&2' ERR
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def blocks(readme: str):
    """(line, language, text, reason-not-run or None) of each shell block, in order."""
    lines = readme.splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start = i
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        before = next((lines[j].strip() for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        skip = NOT_RUN.match(before)
        yield start + 1, match.group(1), lines[start + 1:end], skip.group(1) if skip else None
        i = end + 1


def script(readme: str, ports: dict[str, int]) -> tuple[str, int, list[str]]:
    parts, run, skipped = [PRELUDE], 0, []
    for line, language, body, reason in blocks(readme):
        if reason:
            skipped.append(f"README.md:{line} not run: {reason}")
            continue
        run += 1
        console = language == "console"
        if console:
            body = [text[2:] for text in body if text.startswith("$ ")]
        parts.append(f"block {line}")
        for text in body:
            for port, free in ports.items():
                text = text.replace(f":{port}", f":{free}")
            # A console line is judged as a prompt shows it: by the status of the whole line
            # (`inspect …; echo "exit $?"` shows a failing exit on purpose).
            parts.append(f"set +e\n{text}\nconsole_status $?" if console else text)
            if SERVER.match(text):
                listen = re.search(r"--listen \S+:(\d+)", text)
                parts.append(f"wait_for_server {listen.group(1) if listen else ports['8080']}")
    return "\n".join(parts) + "\n", run, skipped


def main():
    readme, binary = pathlib.Path(sys.argv[1]).read_text(), os.path.abspath(sys.argv[2])
    ports = {port: free_port() for port in ("8080", "8081", "8082")}
    text, run, skipped = script(readme, ports)
    for line in skipped:
        print(line)
    work = tempfile.mkdtemp(prefix="readme-examples-")
    (pathlib.Path(work) / "examples.sh").write_text(text)
    environment = dict(os.environ, README_EXAMPLES_BIN=binary, SDL_GATEWAY_LISTEN=f"127.0.0.1:{ports['8080']}", SDL_GATEWAY_LOG_LEVEL="warning",
                       # Alerts and interactions that nobody answers end sooner (once serve reads it).
                       SDL_SIMULATOR_TIME_SCALE="0.2")
    print(f"running {run} blocks in {work} (ports {ports})", flush=True)
    started = time.monotonic()
    log = pathlib.Path(work) / "examples.log"
    with log.open("wb") as output:
        process = subprocess.Popen(["bash", "examples.sh"], cwd=work, env=environment, start_new_session=True, stdout=output, stderr=subprocess.STDOUT)
    try:
        status = process.wait(timeout=RUN_SECONDS)
    except subprocess.TimeoutExpired:
        print(f"the examples did not finish within {RUN_SECONDS} s")
        status = 1
    finally:
        # The servers the examples started in the background, and anything else of theirs.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                break
            time.sleep(0.5)
    # The blocks run; on a failure, the end of what the examples printed (long lines cut).
    lines = log.read_text(errors="replace").splitlines()
    for line in lines[-80:] if status else [line for line in lines if line.startswith("== README.md:")]:
        print(line if len(line) <= 300 else line[:300] + f" … ({len(line)} characters)")
    print(f"\nREADME examples: {run} blocks run, {len(skipped)} marked not run, {time.monotonic() - started:.1f} s, exit {status}")
    sys.exit(0 if status == 0 else 1)


main()
