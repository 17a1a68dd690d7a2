"""The built-in page's simulator panel driving SDL Core through `serve --hmi`, in headless Chromium.

A fake of Core's HMI WebSocket (JSON-RPC, as Core's message broker answers) stands in for Core:
it registers one app with the HMI. The page, with a control token, finds the headless HMI, hides
what only the simulator has (feed, faults), and its HMI level, button, speed and driver
distraction controls reach the fake Core as SDL.ActivateApp, Buttons.OnButtonPress,
VehicleInfo.OnVehicleData and UI.OnDriverDistraction. Then the HMI preview draws the app's screen
from Core's own UI.Show (text as showStrings, the template, a graphic by the path of a file in
Core's storage, soft buttons), a soft button clicked there is the driver's press to Core, and
Core's UI.Alert is drawn over the screen and answered by a click.
Usage: browser-hmi.py PATH/TO/sdl-gateway ARTIFACTS"""
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from websockets.sync.server import serve

from browser_support import chromium, png, save_failure

binary, artifacts = sys.argv[1], pathlib.Path(sys.argv[2])
TOKEN = "hmi-browser-token"
received = []
lock = threading.Lock()
connections = []  # Core's end of the HMI connection, to send the HMI requests as Core does


def core(websocket):
    """Core's side of the HMI connection: the broker's handshake, an app, a vehicle data subscription."""
    components = 0
    connections.append(websocket)
    for text in websocket:
        message = json.loads(text)
        with lock:
            received.append(message)
        method, ident = message.get("method"), message.get("id")
        if method == "MB.registerComponent":
            components += 1
            websocket.send(json.dumps({"jsonrpc": "2.0", "id": ident, "result": 1000 * components}))
        elif method == "MB.subscribeTo":
            websocket.send(json.dumps({"jsonrpc": "2.0", "id": ident, "result": "OK"}))
        elif method == "BasicCommunication.OnReady":
            websocket.send(json.dumps({"jsonrpc": "2.0", "method": "BasicCommunication.OnAppRegistered",
                                       "params": {"application": {"appID": 7, "appName": "Bench", "policyAppID": "bench-app"}}}))
            websocket.send(json.dumps({"jsonrpc": "2.0", "id": 900, "method": "VehicleInfo.SubscribeVehicleData",
                                       "params": {"appID": 7, "speed": True}}))
        elif ident is not None and method:
            websocket.send(json.dumps({"jsonrpc": "2.0", "id": ident, "result": {"code": 0, "method": method}}))


def got(predicate):
    with lock:
        return any(predicate(message) for message in received)


def api(base, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Authorization", f"Bearer {TOKEN}")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"null")


server = serve(core, "127.0.0.1", 0)
threading.Thread(target=server.serve_forever, daemon=True).start()
port = server.socket.getsockname()[1]
log = tempfile.NamedTemporaryFile(prefix="serve-hmi-", suffix=".log", delete=False)
gateway = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--core", "tcp://127.0.0.1:9", "--hmi", f"ws://127.0.0.1:{port}",
                            "--token", TOKEN, "--log-level", "warning"], stdout=log, stderr=subprocess.STDOUT)
driver = None
failed = False
try:
    deadline = time.monotonic() + 30
    base = None
    while base is None and time.monotonic() < deadline:
        found = re.search(r"sdl-gateway on (http://127\.0\.0\.1:\d+)", pathlib.Path(log.name).read_text())
        base = found.group(1) if found else time.sleep(0.1)
    assert base, pathlib.Path(log.name).read_text()
    # No Core on the app side here: the app is kept, reconnecting, once its first 10 s are over.
    api(base, "POST", "/v1/apps", {"id": "bench", "appName": "Bench", "appID": "bench-app"})

    driver = chromium()
    wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
    driver.get(base + "/openapi.yaml.missing")  # a page of the origin, to hand the tab the token
    driver.execute_script("sessionStorage.setItem('sdl-gateway.token', arguments[0])", TOKEN)
    driver.get(base + "/")
    wait.until(lambda d: "headless HMI (ready)" in d.find_element(By.ID, "status").text)
    print("ok   the page finds SDL Core's headless HMI (serve --hmi)")

    def pick(d):
        button = next(iter(d.find_elements(By.CSS_SELECTOR, "#apps li[data-app=bench] button.select")), None)
        return button is not None and (button.click() or True)

    wait.until(pick)
    driver.find_element(By.ID, "tab-simulator").click()
    assert not driver.find_element(By.ID, "sim-feed-row").is_displayed() and not driver.find_element(By.ID, "sim-fault-row").is_displayed()
    print("ok   its simulator panel hides the feed and the faults, which only the simulator has")

    Select(driver.find_element(By.ID, "sim-hmi")).select_by_visible_text("FULL")
    driver.find_element(By.ID, "sim-hmi-set").click()
    wait.until(lambda d: got(lambda m: m.get("method") == "SDL.ActivateApp" and m["params"].get("appID") == 7))
    print("ok   HMI level FULL for the gateway's app reaches Core as SDL.ActivateApp with Core's app id")

    driver.find_element(By.CSS_SELECTOR, "#sim-buttons button[data-button=OK]").click()
    wait.until(lambda d: got(lambda m: m.get("method") == "Buttons.OnButtonPress" and m["params"].get("name") == "OK"))
    print("ok   a button reaches Core as Buttons.OnButtonEvent/OnButtonPress")

    driver.execute_script("const s = document.getElementById('sim-speed'); s.value = 123; s.dispatchEvent(new Event('change'))")
    wait.until(lambda d: got(lambda m: m.get("method") == "VehicleInfo.OnVehicleData" and m["params"].get("speed") == 123))
    print("ok   the speed control reaches Core as VehicleInfo.OnVehicleData (Core subscribed)")

    driver.find_element(By.ID, "sim-dd").click()
    wait.until(lambda d: got(lambda m: m.get("method") == "UI.OnDriverDistraction" and m["params"].get("state") == "DD_ON"))
    print("ok   driver distraction reaches Core as UI.OnDriverDistraction")
    driver.find_element(By.ID, "sim-dd").click()
    wait.until(lambda d: got(lambda m: m.get("method") == "UI.OnDriverDistraction" and m["params"].get("state") == "DD_OFF"))

    # Core's UI.Show as Core 8.2 sends it: text as showStrings, the graphic by the full path of the
    # file in Core's storage folder (readable here, as with a shared volume), the template.
    storage = pathlib.Path(tempfile.mkdtemp()) / "bench-app_0123456789"
    storage.mkdir(parents=True)
    (storage / "cover.png").write_bytes(png(96, 96, lambda x, y: (40 + x * 2, 90, 200 - y, 255)))
    connections[0].send(json.dumps({"jsonrpc": "2.0", "id": 901, "method": "UI.Show", "params": {
        "appID": 7, "showStrings": [{"fieldName": "mainField1", "fieldText": "From Core"}, {"fieldName": "mainField2", "fieldText": "through the HMI"}],
        "graphic": {"imageType": "DYNAMIC", "isTemplate": False, "value": str(storage / "cover.png")},
        "softButtons": [{"type": "TEXT", "text": "Reply", "softButtonID": 5, "isHighlighted": False, "systemAction": "DEFAULT_ACTION"}],
        "templateConfiguration": {"template": "GRAPHIC_WITH_TEXT_AND_SOFTBUTTONS"}}}))
    driver.find_element(By.ID, "tab-hmi").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hmi-screen[data-template=GRAPHIC_WITH_TEXT_AND_SOFTBUTTONS]"))
    wait.until(lambda d: "From Core" in d.find_element(By.ID, "hmi-fields").text)
    wait.until(lambda d: d.execute_script("const i = document.querySelector('#hmi-screen .hu-graphic img'); return i && i.complete && i.naturalWidth") == 96)
    driver.find_element(By.CSS_SELECTOR, "#hmi-screen .hu-soft-button").click()
    wait.until(lambda d: got(lambda m: m.get("method") == "Buttons.OnButtonPress" and m["params"].get("name") == "CUSTOM_BUTTON" and m["params"].get("customButtonID") == 5))
    print("ok   the preview draws Core's UI.Show (showStrings, template, the graphic read from Core's storage); its soft button is the driver's press to Core")

    # A file in a storage folder the gateway cannot read: the gateway's own copy (its image store,
    # which declared images are uploaded from) is drawn instead.
    request = urllib.request.Request(base + "/v1/images/logo.png", method="PUT", data=png(64, 64, lambda x, y: (200, 60 + y, 40, 255)))
    request.add_header("Authorization", f"Bearer {TOKEN}")
    request.add_header("Content-Type", "image/png")
    urllib.request.urlopen(request, timeout=30).read()
    connections[0].send(json.dumps({"jsonrpc": "2.0", "id": 903, "method": "UI.Show", "params": {
        "appID": 7, "showStrings": [], "graphic": {"imageType": "DYNAMIC", "isTemplate": False, "value": "/var/lib/unshared-core-storage/bench-app_0123456789/logo.png"}}}))
    wait.until(lambda d: d.execute_script("const i = document.querySelector('#hmi-screen .hu-graphic img'); return i && i.complete && i.naturalWidth") == 64)
    print("ok   a file of Core's that the gateway cannot read is drawn from the gateway's image store")

    # Core's UI.Alert over the screen, answered by the driver's click on its button.
    connections[0].send(json.dumps({"jsonrpc": "2.0", "id": 902, "method": "UI.Alert", "params": {
        "appID": 7, "alertStrings": [{"fieldName": "alertText1", "fieldText": "Call from Ann"}], "duration": 0,
        "softButtons": [{"type": "TEXT", "text": "Answer", "softButtonID": 9, "systemAction": "DEFAULT_ACTION"}], "alertType": "UI"}}))
    wait.until(lambda d: "Answer" in d.find_element(By.ID, "hmi-overlay").text)
    driver.find_element(By.CSS_SELECTOR, "#hmi-overlay .hu-soft-button").click()
    wait.until(lambda d: got(lambda m: m.get("id") == 902 and "result" in m))
    wait.until(lambda d: not d.find_elements(By.ID, "hmi-overlay"))
    print("ok   Core's UI.Alert is drawn over the screen; its button clicked answers Core and closes it")
except Exception as error:  # report, save what shows the failure, fail the step
    print(f"FAIL {type(error).__name__}: {error}")
    print(pathlib.Path(log.name).read_text()[-2000:])
    failed = True
finally:
    if failed and driver is not None:
        save_failure(driver, artifacts, "browser-hmi")
    if driver is not None:
        driver.quit()
    gateway.terminate()
    gateway.wait(timeout=10)
    server.shutdown()
if failed:
    sys.exit(1)
print("browser hmi passed")
