#!/usr/bin/env python3
"""`sdl-gateway check` against a real SDL Core 8.2.0, with the headless HMI as the driver.

  deploy/sdl_core/check-conformance.py PREFIX [SDL_GATEWAY] [--junit=FILE] [--html=FILE] [--only=CASES]

PREFIX is where deploy/sdl_core/build-sdl-core.sh installed Core; SDL_GATEWAY the sdl-gateway
executable (default: `swift build --show-bin-path`/sdl-gateway). Core runs from a copy of
PREFIX/bin (core_check.CoreRun) whose policy table gives the check's apps (`sdl-check`, and
`sdl-check-heartbeat` of the heartbeat case) the stock
Base-4 group and one more for the vehicle data its cases read (speed and rpm, with no consent
prompt), then

  sdl-gateway check --core tcp://127.0.0.1:12345 --hmi ws://127.0.0.1:8087

runs every case: the app registers on Core's app port and the headless HMI, started inside
`check`, answers Core's HMI requests and drives the app (activation, buttons, alerts,
interactions, vehicle data). The check's table is printed as it comes; the last line is
`CONFORMANCE {json}` with the exit status and the time. Exit status: the check's. Needs no
network beyond 127.0.0.1.
"""
import json
import subprocess
import sys
import time

from core_check import CoreRun, edit_policy, gateway_path

APP_ID = "sdl-check"


def add_policy(policy):
    # What the vehicle cases read (docs/sdl-core-policy.md: a group of its own, no consent prompt).
    rpc = {"hmi_levels": ["BACKGROUND", "FULL", "LIMITED"], "parameters": ["speed", "rpm"]}
    policy["functional_groupings"]["SDLGateway-Check-VehicleData"] = {
        "rpcs": {name: rpc for name in ["GetVehicleData", "SubscribeVehicleData", "UnsubscribeVehicleData", "OnVehicleData"]}
    }
    # The app under test, and the second app of the heartbeat case.
    for app_id in (APP_ID, f"{APP_ID}-heartbeat"):
        policy["app_policies"][app_id] = {
            "keep_context": False, "steal_focus": False, "priority": "NONE", "default_hmi": "NONE",
            "groups": ["Base-4", "SDLGateway-Check-VehicleData"],
        }


def main(arguments):
    options = [a for a in arguments if a.startswith("--")]
    positional = [a for a in arguments if not a.startswith("--")]
    if not positional:
        raise SystemExit(__doc__)
    gateway = gateway_path(positional[1:])
    core = CoreRun(positional[0], "conformance")
    edit_policy(f"{core.run}/sdl_preloaded_pt.json", add_policy)
    started = time.monotonic()
    try:
        core.start_core()
        command = [gateway, "check", "--core", "tcp://127.0.0.1:12345", "--hmi", "ws://127.0.0.1:8087"] + options
        print("$ " + " ".join(["sdl-gateway"] + command[1:]), flush=True)
        status = subprocess.run(command, timeout=int(__import__("os").environ.get("CHECK_TIMEOUT", "600"))).returncode
    finally:
        core.stop()
    took = round(time.monotonic() - started, 1)
    print("CONFORMANCE " + json.dumps({"exit": status, "seconds": took, "core": core.work}), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
