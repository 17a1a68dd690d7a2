#!/usr/bin/env python3
"""End-to-end check against a real SDL Core 8.2.0 with only `sdl-gateway hmi` attached.

  deploy/sdl_core/e2e-check.py PREFIX [SDL_GATEWAY]

PREFIX is where deploy/sdl_core/build-sdl-core.sh installed Core (PREFIX/bin, PREFIX/lib);
SDL_GATEWAY is the sdl-gateway executable (default: `swift build --show-bin-path`/sdl-gateway).
It copies Core's bin/ to a temporary folder, adds a policy entry for the check's app ID
(docs/sdl-core-policy.md: a vehicle-data group without a consent prompt), starts Core, then
`sdl-gateway hmi --auto-activate` and `sdl-gateway serve` with a token, its app connecting through a
small TCP relay that the check can cut. Then: the app registers and reaches FULL, a Show reaches the
HMI's screen, an Alert and a PerformInteraction wait for the driver until the HMI's control API
answers them, vehicle data is read and streamed, a button press from the HMI arrives as an event,
the relay cuts the link and the app comes back with its resumption hash (Core answers SUCCESS), and
the vehicle data subscription works again. Each step prints a line; the last line is
`E2E {json}` with the timings. Exit status 0 when every step passed. Needs no network beyond 127.0.0.1.
"""
import json
import os
import socket
import sys
import threading
import time

from core_check import STEPS, CoreRun, edit_policy, free_port, gateway_path, step, wait_for
import core_check

APP_ID = "e2e-app"
TOKEN = "e2e-check-token-0123456789"


def http(method, url, body=None, token=TOKEN, timeout=15):
    return core_check.http(method, url, body, token=token, timeout=timeout)


def in_background(call):
    """Runs `call` on a thread (a request the HMI holds); returns a function waiting for its result."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", call()), daemon=True)
    thread.start()

    def wait():
        thread.join(timeout=60)
        if "value" not in result:
            raise SystemExit("FAIL a held request did not come back within 60 s")
        return result["value"]
    return wait


class Relay:
    """A TCP relay from a local port to Core's app port whose connections can be cut."""

    def __init__(self, target):
        self.target = target
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.sockets = []
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self.lock:
                self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self.pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def pump(source, sink):
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        with self.lock:
            sockets, self.sockets = self.sockets, []
        for s in sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass
        return len(sockets) // 2


def add_policy(policy):
    names = ["speed", "rpm", "fuelLevel", "gps", "odometer"]
    rpc = {"hmi_levels": ["BACKGROUND", "FULL", "LIMITED"], "parameters": names}
    policy["functional_groupings"]["SDLGateway-VehicleData"] = {
        "rpcs": {name: rpc for name in ["GetVehicleData", "SubscribeVehicleData", "UnsubscribeVehicleData", "OnVehicleData"]}
    }
    policy["app_policies"][APP_ID] = {
        "keep_context": False, "steal_focus": False, "priority": "NONE", "default_hmi": "NONE",
        "groups": ["Base-4", "SDLGateway-VehicleData"],
    }


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    gateway = gateway_path(sys.argv[2:])
    core = CoreRun(sys.argv[1], "e2e")
    edit_policy(os.path.join(core.run, "sdl_preloaded_pt.json"), add_policy)
    start = core.start
    work = core.work

    try:
        started = time.monotonic()
        core.start_core()
        step("core started", started)

        started = time.monotonic()
        control_port = free_port()
        start("hmi", [gateway, "hmi", "--core-hmi", "ws://127.0.0.1:8087", "--control", f"127.0.0.1:{control_port}", "--auto-activate"])
        control = f"http://127.0.0.1:{control_port}"
        wait_for("the HMI ready", lambda: http("GET", f"{control}/status", token=None)[1]["phase"] == "ready")
        step("hmi registered with Core", started)

        started = time.monotonic()
        relay = Relay(12345)
        api_port = free_port()
        start("serve", [gateway, "serve", "--listen", f"127.0.0.1:{api_port}", "--core", f"tcp://127.0.0.1:{relay.port}", "--token", TOKEN])
        api = f"http://127.0.0.1:{api_port}"
        wait_for("the gateway", lambda: http("GET", f"{api}/v1/health", token=None)[0] == 200)
        status, app = http("POST", f"{api}/v1/apps", {"id": "e2e", "appName": "E2E Check", "appID": APP_ID})
        assert status == 201 and app["connection"] == "registered", (status, app)
        step("app registered through sdl-gateway serve", started)

        started = time.monotonic()
        wait_for("FULL", lambda: http("GET", f"{api}/v1/apps/e2e")[1].get("hmiLevel") == "FULL")
        wait_for("FULL on the HMI too", lambda: http("GET", f"{control}/apps", token=None)[1][0]["hmiLevel"] == "FULL")
        step("app in FULL (SDL.ActivateApp from the headless HMI)", started)

        started = time.monotonic()
        status, shown = http("POST", f"{api}/v1/apps/e2e/rpc/Show", {"mainField1": "Hello from the e2e check"})
        assert status == 200 and shown["resultCode"] == "SUCCESS", (status, shown)
        hmi_apps = http("GET", f"{control}/apps", token=None)[1]
        hmi_id = hmi_apps[0]["appID"]
        screen = http("GET", f"{control}/apps/{hmi_id}/screen", token=None)[1]
        assert "Hello from the e2e check" in json.dumps(screen), screen
        step("Show reached the HMI", started)

        started = time.monotonic()
        alert = in_background(lambda: http("POST", f"{api}/v1/apps/e2e/rpc/Alert", {"alertText1": "From the e2e check", "duration": 10000}, timeout=30))
        wait_for("the Alert held by the HMI", lambda: any(i["method"] == "UI.Alert" for i in http("GET", f"{control}/apps/{hmi_id}/screen", token=None)[1]["interactions"]))
        status, answered = http("POST", f"{control}/apps/{hmi_id}/interaction", {}, token=None)
        assert status == 200 and "UI.Alert" in answered["answered"], (status, answered)
        status, alerted = alert()
        assert status == 200 and alerted["resultCode"] == "SUCCESS", (status, alerted)
        assert time.monotonic() - started < 9, "the Alert was answered by its duration, not by the driver"
        step("Alert held by the HMI until the driver dismissed it", started)

        started = time.monotonic()
        choices = [{"choiceID": 11, "menuName": "Jazz", "vrCommands": ["Jazz"]}, {"choiceID": 12, "menuName": "Rock", "vrCommands": ["Rock"]}]
        status, created = http("POST", f"{api}/v1/apps/e2e/rpc/CreateInteractionChoiceSet", {"interactionChoiceSetID": 1, "choiceSet": choices})
        assert status == 200 and created["resultCode"] == "SUCCESS", (status, created)
        interaction = in_background(lambda: http("POST", f"{api}/v1/apps/e2e/rpc/PerformInteraction", {
            "initialText": "Genre?", "interactionMode": "BOTH", "interactionChoiceSetIDList": [1], "timeout": 10000}, timeout=30))
        wait_for("the PerformInteraction held by the HMI", lambda: {i["method"] for i in http("GET", f"{control}/apps/{hmi_id}/screen", token=None)[1]["interactions"]}
                 >= {"UI.PerformInteraction", "VR.PerformInteraction"})
        status, answered = http("POST", f"{control}/apps/{hmi_id}/interaction", {"choiceID": 12}, token=None)
        assert status == 200, (status, answered)
        status, chosen = interaction()
        assert status == 200 and chosen["resultCode"] == "SUCCESS" and chosen.get("choiceID") == 12 and chosen.get("triggerSource") == "MENU", (status, chosen)
        step("PerformInteraction (BOTH) answered with the driver's choice from the menu", started)

        started = time.monotonic()
        status, data = http("GET", f"{api}/v1/apps/e2e/vehicle-data?names=speed")
        assert status == 200 and "speed" in data, (status, data)
        status, subscribed = http("PUT", f"{api}/v1/apps/e2e/subscriptions/vehicle-data", {"names": ["speed"]})
        assert status == 200, (status, subscribed)
        wait_for("a vehicleData event", lambda: any(e["type"] == "vehicleData" for e in events(api)), timeout=10)
        step("vehicle data read and streamed", started)

        started = time.monotonic()
        status, _ = http("PUT", f"{api}/v1/apps/e2e/subscriptions/buttons/OK")
        assert status == 200, status
        status, _ = http("POST", f"{control}/buttons/OK/press", {"appID": hmi_id}, token=None)
        assert status == 200, status
        wait_for("a buttonPress event", lambda: any(e["type"] == "buttonPress" for e in events(api)), timeout=10)
        step("button press from the HMI arrived", started)

        started = time.monotonic()
        cut = relay.cut()
        assert cut >= 1, "no connection to cut"
        wait_for("registered again", lambda: http("GET", f"{api}/v1/apps/e2e")[1].get("connection") == "registered"
                 and any(e["type"] == "connection" and e["data"].get("state") == "registered" for e in events(api, since_cut=True)), timeout=30)
        back = [e for e in events(api, since_cut=True) if e["type"] == "connection" and e["data"].get("state") == "registered"]
        step(f"link cut and registered again ({json.dumps(back[-1]['data'].get('detail')) if back else '?'})", started)

        started = time.monotonic()
        wait_for("FULL again", lambda: http("GET", f"{api}/v1/apps/e2e")[1].get("hmiLevel") == "FULL", timeout=15)
        status, again = http("PUT", f"{api}/v1/apps/e2e/subscriptions/vehicle-data", {"names": ["speed"], })
        assert status in (200, 409), (status, again)
        step("FULL again; the subscription is in place (SUCCESS or IGNORED)", started)
        print("E2E " + json.dumps({"steps": STEPS, "work": work}), flush=True)
    finally:
        core.stop()


def events(api, since_cut=False):
    """The app's events so far; since the last cut of the link with `since_cut`."""
    found = core_check.events(api, "e2e", TOKEN)
    if since_cut:
        cuts = [i for i, e in enumerate(found) if e["type"] == "connection" and e["data"].get("state") in ("reconnecting", "connecting")]
        return found[cuts[-1]:] if cuts else []
    return found


if __name__ == "__main__":
    main()
