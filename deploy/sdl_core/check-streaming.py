#!/usr/bin/env python3
"""Projection against a real SDL Core 8.2.0: what the gateway streams is what Core hands on.

  deploy/sdl_core/check-streaming.py PREFIX [SDL_GATEWAY] [--screenshot=FILE]

PREFIX is where deploy/sdl_core/build-sdl-core.sh installed Core; SDL_GATEWAY the sdl-gateway
executable (default: `swift build --show-bin-path`/sdl-gateway). Core runs from a copy of
PREFIX/bin (core_check.CoreRun) with a policy entry for the check's app (Base-4 and
OnTouchEventOnlyGroup), and `sdl-gateway serve --hmi` (the headless HMI in process) in front of it.
A NAVIGATION app registers through the gateway and is activated by the HMI. Then, twice:

1. Core's file consumer (VideoStreamConsumer = file, AudioStreamConsumer = file, with the
   Video/AudioDataStoppedTimeout raised so Core keeps the files while the check reads them):
   PUT /v1/apps/nav/video, a 4 MiB clip POSTed to /v1/apps/nav/video/stream, and Core's
   storage/video_stream_file must equal it byte for byte; the same for 1 MiB of PCM on the audio
   service and storage/audio_stream_file. A touch from the HMI's control API
   (POST /v1/hmi/apps/nav/touch) reaches the app as a touchEvent. DELETE ends the service.
2. Core's socket consumer (the default, port 5050): the HMI relay's WebSocket
   /v1/hmi/apps/nav/video (what the page's preview plays) carries the clip byte for byte.
3. With selenium and Chromium (as the CI's browser checks use them): the navigation example
   (public/examples/navigation.html) streams its map from Chromium to Core, the page's HMI preview
   decodes Core's socket stream, and a drag on it reaches the example as touches through Core;
   --screenshot=FILE keeps the preview's picture. Skipped without selenium.

Each step prints a line; the last line is `STREAMING {json}` with the timings and rates.
Exit status 0 when every step passed. Needs no network beyond 127.0.0.1.
"""
import hashlib
import json
import os
import sys
import threading
import time

from core_check import STEPS, CoreRun, WebSocketReader, edit_policy, events, free_port, gateway_path, http, set_ini, step, wait_for

APP_ID = "stream-check"
TOKEN = "stream-check-token-0123456789"
RATES = {}


def add_policy(policy):
    # The check's app, and the navigation example's (public/examples/navigation.html), which follows
    # the GPS: vehicle data without a consent prompt (docs/sdl-core-policy.md).
    rpc = {"hmi_levels": ["BACKGROUND", "FULL", "LIMITED"], "parameters": ["gps", "speed"]}
    policy["functional_groupings"]["SDLGateway-GPS"] = {
        "rpcs": {name: rpc for name in ["GetVehicleData", "SubscribeVehicleData", "UnsubscribeVehicleData", "OnVehicleData"]}
    }
    for app_id in (APP_ID, "navigation-1"):
        policy["app_policies"][app_id] = {
            "keep_context": False, "steal_focus": False, "priority": "NONE", "default_hmi": "NONE",
            "groups": ["Base-4", "OnTouchEventOnlyGroup", "SDLGateway-GPS"],
        }


def clip(size, seed):
    """`size` bytes shaped like H.264 Annex B: start codes before runs of deterministic noise."""
    out = bytearray()
    block = seed
    while len(out) < size:
        block = hashlib.sha256(block).digest()
        out += b"\x00\x00\x00\x01\x41" + block * 32
    return bytes(out[:size])


def gateway(core, gateway_bin, token=TOKEN):
    port = free_port()
    core.start("serve", [gateway_bin, "serve", "--listen", f"127.0.0.1:{port}", "--core", "tcp://127.0.0.1:12345",
                         "--hmi", "ws://127.0.0.1:8087"] + (["--token", token] if token else []))
    api = f"http://127.0.0.1:{port}"
    wait_for("the gateway", lambda: http("GET", f"{api}/v1/health")[0] == 200)
    return api, port


def register(api):
    started = time.monotonic()
    status, app = http("POST", f"{api}/v1/apps", {"id": "nav", "appName": "Stream Check", "appID": APP_ID,
                                                  "appHMIType": ["NAVIGATION"]}, token=TOKEN)
    assert status == 201 and app["connection"] == "registered", (status, app)
    wait_for("FULL", lambda: http("GET", f"{api}/v1/apps/nav", token=TOKEN)[1].get("hmiLevel") == "FULL")
    step("NAVIGATION app registered and in FULL", started)


def start_service(api, path, body):
    started = time.monotonic()
    status, accepted = http("PUT", f"{api}/v1/apps/nav/{path}", body, token=TOKEN)
    assert status == 200 and accepted["state"] == "streaming", (status, accepted)
    step(f"PUT /v1/apps/nav/{path}: Core accepted {json.dumps(accepted.get('accepted', accepted))}", started)
    return accepted


def post_clip(api, path, data):
    started = time.monotonic()
    status, sent = http("POST", f"{api}/v1/apps/nav/{path}/stream", raw=data, token=TOKEN,
                        content_type="application/octet-stream", timeout=120)
    assert status == 200 and sent["bytes"] == len(data), (status, sent)
    took = time.monotonic() - started
    step(f"POST {len(data)} bytes to /v1/apps/nav/{path}/stream ({sent['frames']} frames)", started)
    return took


def start(prefix, gateway_bin, name, ini, token=TOKEN):
    """Core from a copy of PREFIX/bin with the check's policy and `ini` settings, and the gateway."""
    core = CoreRun(prefix, name)
    edit_policy(os.path.join(core.run, "sdl_preloaded_pt.json"), add_policy)
    set_ini(os.path.join(core.run, "smartDeviceLink.ini"), ini)
    started = time.monotonic()
    try:
        core.start_core()
        api, port = gateway(core, gateway_bin, token)
    except BaseException:
        core.stop()
        raise
    step(f"Core ({ini.get('VideoStreamConsumer', 'socket')} consumer) and serve --hmi started", started)
    return core, api, port


def file_phase(prefix, gateway_bin):
    core, api, _ = start(prefix, gateway_bin, "streaming-file", {
        "VideoStreamConsumer": "file", "AudioStreamConsumer": "file",
        "VideoDataStoppedTimeout": 60000, "AudioDataStoppedTimeout": 60000,
    })
    try:
        register(api)
        storage = os.path.join(core.run, "storage")
        for path, name, size, body in (("video", "video_stream_file", 4 << 20, {"codec": "H264", "protocol": "RAW"}),
                                       ("audio-stream", "audio_stream_file", 1 << 20, {})):
            data = clip(size, path.encode())
            start_service(api, path, body)
            sending = time.monotonic()
            post_clip(api, path, data)
            written = os.path.join(storage, name)
            wait_for(f"{name} holding {size} bytes", lambda: os.path.getsize(written) >= size, timeout=60)
            took = time.monotonic() - sending
            with open(written, "rb") as f:
                kept = f.read()
            assert kept == data, f"{name}: {len(kept)} bytes, the first difference at {next((i for i, (a, b) in enumerate(zip(kept, data)) if a != b), min(len(kept), len(data)))}"
            rate = RATES[f"{path} MB/s (POST to Core's file)"] = round(size / took / 1e6, 1)
            step(f"Core's {name} equals the {size} bytes sent ({rate} MB/s)", sending)
            if path == "video":
                started = time.monotonic()
                status, touched = http("POST", f"{api}/v1/hmi/apps/nav/touch",
                                       {"events": [{"type": "BEGIN", "x": 120, "y": 80}, {"type": "END", "x": 130, "y": 90}]}, token=TOKEN)
                assert status == 200 and touched == {"sent": 2}, (status, touched)
                found = wait_for("the touchEvents", lambda: [e for e in events(api, "nav", TOKEN, {"touchEvent"})
                                                             if e["data"].get("type") in ("BEGIN", "END")][-2:] or None, timeout=10)
                step(f"a touch on Core's HMI reached the app: {json.dumps([e['data'] for e in found])}", started)
            started = time.monotonic()
            status, _ = http("DELETE", f"{api}/v1/apps/nav/{path}", token=TOKEN)
            assert status == 204, status
            wait_for("the service ended", lambda: http("GET", f"{api}/v1/apps/nav/{path}", token=TOKEN)[1].get("state") == "stopped")
            step(f"DELETE /v1/apps/nav/{path} ended the service", started)
    finally:
        core.stop()


def socket_phase(prefix, gateway_bin):
    core, api, port = start(prefix, gateway_bin, "streaming-socket", {"VideoStreamConsumer": "socket"})
    try:
        register(api)
        start_service(api, "video", {})
        reader = WebSocketReader("127.0.0.1", port, "/v1/hmi/apps/nav/video", TOKEN)
        data = clip(2 << 20, b"socket")
        received = bytearray()
        problems = []

        def read():
            try:
                while len(received) < len(data):
                    opcode, payload = reader.message()
                    if opcode != 0x2:
                        problems.append(payload.decode(errors="replace"))
                        return
                    received.extend(payload)
            except (EOFError, OSError) as error:
                problems.append(str(error))

        thread = threading.Thread(target=read, daemon=True)
        thread.start()
        sending = time.monotonic()
        post_clip(api, "video", data)
        thread.join(timeout=60)
        reader.close()
        assert not problems, problems
        assert bytes(received) == data, f"{len(received)} bytes relayed of {len(data)}"
        RATES["video MB/s (POST to the HMI relay's WebSocket)"] = round(len(data) / (time.monotonic() - sending) / 1e6, 1)
        step(f"the HMI's relay of Core's socket carried the {len(data)} bytes sent", sending)
    finally:
        core.stop()


def browser_phase(prefix, gateway_bin, screenshot):
    """The navigation example streams from headless Chromium through the gateway to Core; the
    page's HMI preview (another Chromium) plays Core's socket stream as the HMI relays it, and a drag
    on it reaches the example as touches (UI.OnTouchEvent through Core). The gateway has no token
    here, as the demo runs on loopback."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".ci"))
    try:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.by import By
        from browser_support import chromium
    except ImportError as error:
        print(f"skip the browser phase: {error}", flush=True)
        return
    core, api, _ = start(prefix, gateway_bin, "streaming-browser", {"VideoStreamConsumer": "socket"}, token=None)
    drivers = []
    try:
        started = time.monotonic()
        example = chromium()
        drivers.append(example)
        example.get(api + "/examples/navigation.html")
        wait_for("the example streaming", lambda: http("GET", f"{api}/v1/apps/navigation/video")[1].get("state") == "streaming", timeout=60)
        step("the navigation example streams its map from Chromium through the gateway to Core", started)
        started = time.monotonic()
        preview = chromium()
        drivers.append(preview)
        preview.get(api + "/")
        # The list is drawn again as events arrive: find and click in one retried step.
        wait_for("the app in the page's list", lambda: preview.find_element(By.CSS_SELECTOR, "#apps li[data-app='navigation'] button.select").click() or True)
        wait_for("the HMI tab", lambda: preview.find_element(By.ID, "tab-hmi").click() or True)
        decoded = lambda: int(preview.find_element(By.CSS_SELECTOR, "#hmi-screen .hu-video").get_attribute("data-frames-decoded"))
        wait_for("the preview decoding Core's stream", lambda: decoded() >= 10, timeout=60)
        step(f"the page's HMI preview plays Core's socket stream ({decoded()} pictures decoded)", started)
        started = time.monotonic()
        map_canvas = example.find_element(By.ID, "map")
        canvas = preview.find_element(By.CSS_SELECTOR, "#hmi-screen .hu-video")
        ActionChains(preview).move_to_element(canvas).click_and_hold().move_by_offset(60, 0).move_by_offset(60, 30).release().perform()
        wait_for("the example's touchEvents", lambda: int(map_canvas.get_attribute("data-touches") or 0) >= 3, timeout=20)
        step(f"a drag on the preview reached the example through Core ({map_canvas.get_attribute('data-touches')} touches)", started)
        if screenshot:
            before = decoded()
            wait_for("the panned map in the preview", lambda: decoded() >= before + 20, timeout=30)
            preview.find_element(By.CSS_SELECTOR, ".hu-frame").screenshot(screenshot)
    finally:
        for driver in drivers:
            driver.quit()
        core.stop()


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--screenshot=")]
    screenshot = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--screenshot=")), None)
    if not arguments:
        sys.exit(__doc__)
    gateway_bin = gateway_path(arguments[1:])
    file_phase(arguments[0], gateway_bin)
    socket_phase(arguments[0], gateway_bin)
    browser_phase(arguments[0], gateway_bin, screenshot)
    print("STREAMING " + json.dumps({"steps": STEPS, "rates": RATES}), flush=True)


if __name__ == "__main__":
    main()
