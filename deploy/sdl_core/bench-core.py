#!/usr/bin/env python3
"""`sdl-gateway-bench` against a real SDL Core 8.2.0, with the headless HMI activating its apps.

  deploy/sdl_core/bench-core.py PREFIX [BIN_DIR] [-- BENCH_OPTIONS...]

PREFIX is where deploy/sdl_core/build-sdl-core.sh installed Core; BIN_DIR the folder with the
release `sdl-gateway` and `sdl-gateway-bench` (default: `swift build -c release --show-bin-path`).
Core runs from a copy of PREFIX/bin (core_check.CoreRun) with `AppTimeScaleMaxRequests = 0`, so
that throughput is measured (the bench then passes `--core-request-limit 0`), then

  sdl-gateway hmi --core-hmi ws://127.0.0.1:8087 --control 127.0.0.1:PORT --auto-activate
  sdl-gateway-bench --core tcp://127.0.0.1:12345 --control 127.0.0.1:PORT --core-request-limit 0 BENCH_OPTIONS

(BENCH_OPTIONS default: `--only latency,throughput`). The bench's apps get Core's default policy
(Base-4: Show in FULL, LIMITED and BACKGROUND). The bench's table is printed as it comes; its last
line is `BENCH {json}`. Exit status: the bench's. Needs no network beyond 127.0.0.1.
"""
import os
import subprocess
import sys

from core_check import CoreRun, free_port, set_ini, wait_for_port


def bin_dir(arguments):
    if arguments:
        return os.path.abspath(arguments[0])
    command = ["swift", "build", "-c", "release", "--show-bin-path"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def main(arguments):
    bench_options = arguments[arguments.index("--") + 1:] if "--" in arguments else ["--only", "latency,throughput"]
    positional = arguments[: arguments.index("--")] if "--" in arguments else arguments
    if not positional:
        raise SystemExit(__doc__)
    binaries = bin_dir(positional[1:])
    gateway = os.path.join(binaries, "sdl-gateway")
    bench = os.path.join(binaries, "sdl-gateway-bench")
    core = CoreRun(positional[0], "bench")
    set_ini(os.path.join(core.run, "smartDeviceLink.ini"), {"AppTimeScaleMaxRequests": "0"})
    control = free_port()
    try:
        core.start_core()
        core.start("hmi", [gateway, "hmi", "--core-hmi", "ws://127.0.0.1:8087", "--control", f"127.0.0.1:{control}", "--auto-activate"])
        wait_for_port("the headless HMI's control API", control)
        command = [bench, "--core", "tcp://127.0.0.1:12345", "--control", f"127.0.0.1:{control}", "--core-request-limit", "0"] + bench_options
        print("$ " + " ".join(["sdl-gateway-bench"] + command[1:]), flush=True)
        status = subprocess.run(command, timeout=int(os.environ.get("BENCH_TIMEOUT", "1200"))).returncode
    finally:
        core.stop()
    print(f"Core's logs: {core.work}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
