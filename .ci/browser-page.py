"""The built-in page in headless Chromium against `serve --simulate` (no token; browser-auth.py
covers tokens): register an app and see it FULL in the one app list, send Show from the RPC
builder and see its response beside Send, in the HMI preview and the console, press a hardware
button no app listens to and subscribe the app from the hint, follow and override the speed, see
the feed's time move, subscribe to speed and see its plot and the GPS in words, read the console
by kind with repeats collapsed, mute a notification, keep an open entry in place, export the
console as JSON lines, unregister an app with a confirmation, upload a file and see it listed,
record 2 s of audio, answer an alert in the HMI preview, open with the history of an app a script
drove before, fit a 420 px window, be legible in dark mode, and load every page without an error
in the browser console (the icon included). With SCREENSHOTS, saves the dashboard, the HMI
preview and the RPC builder there. A failure saves a screenshot and the console log in ARTIFACTS.
Waits are bounded conditions, never sleeps.
Usage: browser-page.py BASE_URL ARTIFACTS [SCREENSHOTS]"""
import json
import pathlib
import re
import sys
import tempfile
import threading
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from browser_support import chromium, save_failure
from selenium.webdriver.support.ui import WebDriverWait

base, artifacts = sys.argv[1], pathlib.Path(sys.argv[2])
screenshots = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None
driver = chromium()
wait = WebDriverWait(driver, 15)


def api(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
        return json.loads(text) if text else None


def tab(name):
    driver.find_element(By.ID, f"tab-{name}").click()
    wait.until(lambda d: d.find_element(By.ID, f"view-{name}").is_displayed())


def console_errors():
    """The browser console's errors since the last call (a failed load such as a missing
    /favicon.ico is one)."""
    return [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def load_without_errors(path, ready):
    driver.get(base + path)
    wait.until(ready)
    errors = console_errors()
    assert not errors, f"{path}: {errors}"


def text(selector):
    """The text of the elements at `selector`, as the DOM has it (textContent)."""
    # In one script: the page redraws lists as events arrive, which would make an element stale.
    return driver.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent).join(' ')", selector)


def badge(app, field):
    """A badge of an app's entry in the app list: its connection or its HMI level."""
    return driver.execute_script("return document.querySelector(arguments[0])?.textContent ?? null", f"#apps li[data-app='{app}'] .badge[data-field='{field}']")


def speed_api():
    return api("GET", "/v1/simulator/vehicle-data")["speed"]


# The contrast of every visible text against the background it is drawn on (WCAG's ratio).
CONTRAST = """
const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
  .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
const background = (node) => { for (; node; node = node.parentElement) { const c = rgb(getComputedStyle(node).backgroundColor); if (c.length === 3 || c[3] > 0.5) return c; } return [255, 255, 255]; };
const bad = [];
for (const node of document.querySelectorAll("body *")) {
  if (!node.checkVisibility?.() || ![...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
  if (node.closest(".hmi, .hu-frame, :disabled")) continue;
  const [a, b] = [lum(rgb(getComputedStyle(node).color)), lum(background(node))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) bad.push(`${node.tagName}#${node.id}.${node.className}: ${node.textContent.trim().slice(0, 30)} ${ratio.toFixed(2)}`);
}
return bad;
"""


def shot(name):
    if screenshots:
        screenshots.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(screenshots / f"{name}.png"))


# The panels talk to the gateway only through the browser client's documented methods: no raw
# request, no fetch (the head unit's modules included).
for panel in sorted((pathlib.Path(__file__).parent.parent / "public" / "app").rglob("*.js")):
    raw = [line.strip() for line in panel.read_text().splitlines() if ".request(" in line or "fetch(" in line]
    assert not raw, f"{panel.name} calls the API raw: {raw}"
print("ok   the page's panels call the gateway only through the client's methods")

failed = False
try:
    # Every page of the gateway loads with nothing in the console: its icon included.
    load_without_errors("/examples/", lambda d: d.find_elements(By.CSS_SELECTOR, "a[href='media-player.html']"))
    print("ok   /examples/ lists the examples, with no error in the console")
    driver.get(base + "/")
    wait.until(lambda d: text("#apps li.empty") == "no apps")
    errors = console_errors()
    assert not errors, errors
    assert driver.execute_script("return document.querySelector('link[rel=icon]').href").endswith("/favicon.svg")
    print("ok   the page loads with its icon and no error in the console")
    assert not driver.find_element(By.ID, "forget").is_displayed(), "Forget token shows without a token"
    driver.find_element(By.ID, "register").click()
    wait.until(lambda d: badge("demo-app", "connection") == "registered" and badge("demo-app", "HMI level") == "FULL")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#apps li[data-app]")) == 1 and not driver.find_elements(By.ID, "app-list"), text("#apps")
    assert "Demo" in text("#apps li[data-app='demo-app'] .name") and "demo-app" in text("#apps li[data-app='demo-app'] .id")
    print("ok   registered from the form; the app is listed once, with its name, id, connection and HMI level")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#events li[data-type=hmiStatus]"))
    wait.until(lambda d: re.search(r"^\d\d:\d\d:\d\d\.\d{3} hmiStatus FULL · \w+ · MAIN", text("#events li[data-type=hmiStatus]:first-child"), re.M)
               or re.search(r"FULL · \w+ · MAIN", text("#events li[data-type=hmiStatus]")))
    assert "{" not in text("#events"), text("#events")
    print("ok   its events arrive, in words:", text("#events li[data-type=hmiStatus]").split("  ")[0][:60])

    tab("builder")
    field = driver.find_element(By.CSS_SELECTOR, "#params .param[data-name=mainField1] .value")
    wait.until(lambda d: field.is_displayed())
    field.send_keys("Hello from the builder")
    driver.find_element(By.ID, "send").click()
    wait.until(lambda d: '"SUCCESS"' in d.find_element(By.ID, "response").text)
    # The response shows by Send (beside the form, or right under the toolbar), in the window.
    send = driver.find_element(By.ID, "send").rect
    response = driver.find_element(By.ID, "response").rect
    assert response["y"] - (send["y"] + send["height"]) < 120 and response["y"] + 40 < driver.execute_script("return innerHeight"), (send, response)
    assert driver.find_element(By.ID, "response-status").text == "SUCCESS"
    # No send/empty/omit choice is cut, at any depth of the form.
    cut = driver.execute_script("""
      const probe = document.createElement("canvas").getContext("2d");
      return [...document.querySelectorAll("#params select.mode")].filter((select) => {
        probe.font = getComputedStyle(select).font;
        const widest = Math.max(...[...select.options].map((option) => probe.measureText(option.text).width));
        return select.getBoundingClientRect().width < widest + 24;
      }).map((select) => select.getAttribute("aria-label"));""")
    assert not cut, cut
    print("ok   the builder's response shows right by Send; no nested choice is cut")
    shot("rpc-builder")
    tab("hmi")
    wait.until(lambda d: "Hello from the builder" in d.find_element(By.ID, "hmi-fields").text)
    print("ok   Show sent from the builder appears in the HMI preview")
    tab("console")
    wait.until(lambda d: any("Show response SUCCESS" in item.get_attribute("textContent") for item in d.find_elements(By.CSS_SELECTOR, "#console li.success")))
    print("ok   and in the console, coloured as a success")

    tab("simulator")
    # The feed's time moves while the panel shows.
    wait.until(lambda d: re.search(r"playing at [\d.]+ s", d.find_element(By.ID, "sim-feed").text))
    first = float(re.search(r"at ([\d.]+) s", driver.find_element(By.ID, "sim-feed").text).group(1))
    wait.until(lambda d: float(re.search(r"at ([\d.]+) s", d.find_element(By.ID, "sim-feed").text).group(1)) > first + 0.5)
    print("ok   the simulator panel shows the feed's time live")
    driver.find_element(By.ID, "sim-feed-pause").click()
    wait.until(lambda d: "paused" in d.find_element(By.ID, "sim-feed").text)
    assert api("GET", "/v1/simulator/feed")["playing"] is False
    driver.find_element(By.ID, "sim-feed-play").click()
    wait.until(lambda d: "playing" in d.find_element(By.ID, "sim-feed").text)
    print("ok   the simulator panel pauses and plays the vehicle data feed")
    # The sliders start at the vehicle's values and follow them (an override made elsewhere too).
    api("PUT", "/v1/simulator/feed", {"playing": False})
    wait.until(lambda d: d.find_element(By.ID, "sim-rpm-value").text == f"{round(api('GET', '/v1/simulator/vehicle-data')['rpm'])} rpm")
    api("PUT", "/v1/simulator/feed", {"playing": True})
    api("PUT", "/v1/simulator/vehicle-data", {"speed": 55})
    wait.until(lambda d: d.find_element(By.ID, "sim-speed").get_attribute("value") == "55" and d.find_element(By.ID, "sim-speed-value").text == "55 km/h")
    print("ok   the speed and rpm sliders start at the vehicle's values and follow them")
    driver.execute_script("const s = document.getElementById('sim-speed'); s.value = 120; s.dispatchEvent(new Event('change'))")
    wait.until(lambda d: speed_api() == 120 and d.find_element(By.ID, "sim-speed-release").is_displayed())
    assert "held at 120 km/h" in driver.find_element(By.ID, "sim-result").text, driver.find_element(By.ID, "sim-result").text
    driver.find_element(By.ID, "sim-speed-release").click()
    wait.until(lambda d: not d.find_element(By.ID, "sim-speed-release").is_displayed() and "follows the feed" in d.find_element(By.ID, "sim-result").text)
    assert speed_api() != 120, "the override was not released"
    print("ok   moving the speed slider overrides the speed; Release gives it back to the feed")
    # A button no app subscribed to: the answer notified nobody; the hint subscribes the app.
    driver.find_element(By.CSS_SELECTOR, "#sim-buttons button[data-button=OK]").click()
    wait.until(lambda d: d.find_element(By.ID, "sim-press-hint").is_displayed())
    assert "no app was notified" in driver.find_element(By.ID, "sim-result").text, driver.find_element(By.ID, "sim-result").text
    driver.find_element(By.CSS_SELECTOR, "#sim-press-hint button[data-subscribe=OK]").click()
    wait.until(lambda d: "OK" in api("GET", "/v1/apps/demo-app")["subscriptions"]["buttons"])
    driver.find_element(By.CSS_SELECTOR, "#sim-buttons button[data-button=OK]").click()
    wait.until(lambda d: "notified demo-app" in d.find_element(By.ID, "sim-result").text and not d.find_element(By.ID, "sim-press-hint").is_displayed())
    print("ok   a press nobody heard shows a hint; its button subscribes the app, and the next press reaches it")
    tab("dashboard")
    wait.until(lambda d: "OK" in text("#events li[data-type=buttonPress] .what"))
    print("ok   a hardware button pressed in the simulator panel is an event on the dashboard:", text("#events li[data-type=buttonPress]")[:60])

    assert not driver.find_element(By.ID, "gps-box").is_displayed(), "an empty GPS box shows"
    driver.find_element(By.ID, "subscribe-speed").click()
    wait.until(lambda d: d.find_elements(By.ID, "vd-speed"))
    for speed in (10, 40, 70):
        api("PUT", "/v1/simulator/vehicle-data", {"speed": speed})
        wait.until(lambda d, s=speed: d.find_element(By.CSS_SELECTOR, "#vd-speed td:nth-child(2)").text == f"{s} km/h")
    api("PUT", "/v1/simulator/vehicle-data", {"speed": None})
    points = int(driver.find_element(By.ID, "vd-speed").get_attribute("data-points"))
    assert points >= 3, points
    plot = driver.find_element(By.CSS_SELECTOR, "#vd-speed canvas")
    assert plot.size["width"] >= 300, plot.size
    print(f"ok   subscribed to speed; its value in km/h, its plot {plot.size['width']} px wide with {points} points")
    wait.until(lambda d: d.find_element(By.ID, "gps-box").is_displayed())
    gps = driver.find_element(By.CSS_SELECTOR, "#vd-gps td:nth-child(2)").text
    assert re.match(r"\d+\.\d{5}° [NS], \d+\.\d{5}° [EW]", gps), gps
    print("ok   the GPS shows as latitude and longitude with 5 decimals, and its track once it has data:", gps)

    # The console: kinds by name, no notification's placeholder correlation id, repeats in one entry.
    tab("console")
    wait.until(lambda d: any(int(item.get_attribute("data-count")) >= 3 for item in d.find_elements(By.CSS_SELECTOR, "#console li.notification[data-function=OnVehicleData]")))
    assert "4294967295" not in text("#console"), "a notification shows its placeholder correlation id"
    assert "OnVehicleData notification" in text("#console li.notification[data-function=OnVehicleData]")
    assert "Show request" in text("#console li.request[data-function=Show]")
    print("ok   the console labels entries by kind and function and collapses repeats:", text("#console li.notification[data-function=OnVehicleData]:first-child summary")[:70])
    # An open entry stays where it is while new traffic waits.
    entry = driver.find_element(By.CSS_SELECTOR, "#console li.request[data-function=Show]")
    entry.find_element(By.TAG_NAME, "summary").click()
    before_top = entry.rect["y"]
    for index in range(3):
        api("POST", "/v1/apps/demo-app/rpc/Show", {"mainField1": f"while open {index}"})
    wait.until(lambda d: d.find_element(By.ID, "console-paused").is_displayed() and "new" in d.find_element(By.ID, "console-paused").text)
    assert entry.rect["y"] == before_top and entry.find_element(By.TAG_NAME, "details").get_attribute("open"), (before_top, entry.rect)
    driver.find_element(By.ID, "console-resume").click()
    wait.until(lambda d: "while open 2" in text("#console li.request[data-function=Show]:first-child pre") or "while open 2" in text("#console li[data-function=Show] pre"))
    assert not driver.find_element(By.ID, "console-paused").is_displayed()
    print("ok   an open console entry stays in place while new entries wait; closing it lets them in")
    # Mute a notification: it leaves the console, a chip brings it back.
    driver.find_element(By.CSS_SELECTOR, "#console li.notification[data-function=OnVehicleData] .mute").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#console-muted button[data-function=OnVehicleData]"))
    wait.until(lambda d: "hidden" in text("#console-muted button[data-function=OnVehicleData]"))
    assert not driver.find_elements(By.CSS_SELECTOR, "#console li[data-function=OnVehicleData]")
    driver.find_element(By.CSS_SELECTOR, "#console-muted button[data-function=OnVehicleData]").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#console li[data-function=OnVehicleData]"))
    print("ok   muting OnVehicleData hides it (counting what it hid); unmuting shows it again")
    # The export: one rpc event a line, as many as the console counted.
    exported = driver.execute_async_script("""
      const done = arguments[0];
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function () {
        HTMLAnchorElement.prototype.click = click;
        const name = this.download;
        fetch(this.href).then((r) => r.text()).then((body) => done({ name, body, count: document.getElementById("console-count").textContent }));
      };
      document.getElementById("console-export").click();""")
    lines = [json.loads(line) for line in exported["body"].splitlines()]
    assert exported["name"].startswith("demo-app-console-") and exported["name"].endswith(".jsonl"), exported["name"]
    assert lines and all(line["type"] == "rpc" for line in lines) and int(exported["count"].split()[0]) >= len(lines) > 10, (len(lines), exported["count"])
    print(f"ok   the console exports as JSON lines ({len(lines)} rpc events in {exported['name']})")

    tab("dashboard")  # the plots have had the feed's data for a while
    shot("dashboard")

    # Unregister from the list, after a confirmation.
    api("POST", "/v1/apps", {"id": "temp", "appName": "Temp", "appID": "temp-app"})
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#apps li[data-app=temp] .remove"))
    driver.find_element(By.CSS_SELECTOR, "#apps li[data-app=temp] .remove").click()
    confirm = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#apps li[data-app=temp] .confirm"))
    assert "Unregister Temp?" in confirm.text, confirm.text
    confirm.find_element(By.CSS_SELECTOR, "button.danger").click()
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#apps li[data-app=temp]"))
    assert "temp" not in [app["id"] for app in api("GET", "/v1/apps")["apps"]]
    print("ok   an app unregisters from the list after a confirmation")

    tab("files")
    with tempfile.NamedTemporaryFile(suffix=".png", delete=False) as file:
        file.write(b"\x89PNG\r\n\x1a\n" + bytes(2000))
    driver.find_element(By.ID, "file").send_keys(file.name)
    name = pathlib.Path(file.name).name
    wait.until(lambda d: name in d.find_element(By.ID, "files").text and "2,008 bytes" in d.find_element(By.ID, "files").text)
    print("ok   a file uploaded from the page is listed with its size")
    next(b for b in driver.find_elements(By.CSS_SELECTOR, "#files button") if b.text == "Use in the builder").click()
    wait.until(lambda d: d.find_element(By.ID, "view-builder").is_displayed())
    graphic = driver.find_element(By.CSS_SELECTOR, "#params .param[data-name=graphic] .param[data-name=value] .value")
    wait.until(lambda d: graphic.get_attribute("value") == name)
    driver.find_element(By.ID, "send").click()
    wait.until(lambda d: '"SUCCESS"' in d.find_element(By.ID, "response").text)
    assert api("GET", "/v1/simulator/apps/demo-app/screen")["show"]["graphic"]["value"] == name
    print("ok   used in the builder, it becomes the screen's graphic")

    # Record two seconds in the builder: the chunks are counted as they come, then the player
    # holds the WAV, which the browser decodes as 2 s of audio.
    driver.find_element(By.ID, "record-seconds").clear()
    driver.find_element(By.ID, "record-seconds").send_keys("2")
    driver.find_element(By.ID, "record").click()
    wait.until(lambda d: "64044 bytes of WAV" in d.find_element(By.ID, "record-status").text)
    assert "20 chunks, 64000 bytes (2 s)" in driver.find_element(By.ID, "record-status").text, driver.find_element(By.ID, "record-status").text
    player = driver.find_element(By.ID, "recording")
    wait.until(lambda d: player.is_displayed() and float(d.execute_script("return arguments[0].duration || 0", player)) > 1.99)
    duration = driver.execute_script("return arguments[0].duration", player)
    assert abs(duration - 2) < 0.01, duration
    print(f"ok   the builder records 2 s of the simulated microphone and its player holds {duration:.3f} s of audio")

    tab("hmi")
    # The app on the screen (the unregister test's app was in FULL before it left).
    api("PUT", "/v1/simulator/apps/demo-app/hmi", {"hmiLevel": "FULL"})
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#hmi-screen[data-app='demo-app']"))
    alert = {"text": ["Low fuel"], "softButtons": [{"id": "ok", "text": "Got it"}]}
    answers = []
    thread = threading.Thread(target=lambda: answers.append(api("POST", "/v1/apps/demo-app/alerts", alert)))
    thread.start()
    wait.until(lambda d: d.find_elements(By.ID, "hmi-overlay"))
    shot("hmi-preview")
    # The preview redraws on every RPC: find and click the button in one step, again if it was redrawn.
    def press(d):
        button = next((b for b in d.find_elements(By.CSS_SELECTOR, "#hmi-overlay button") if b.text == "Got it"), None)
        return button is not None and (button.click() or True)

    WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException]).until(press)
    thread.join(15)
    assert answers and answers[0]["button"] == "ok", answers
    print("ok   an alert shows in the HMI preview; its button pressed there answers the alert")

    # A script does its work before the page is opened: the page opens with the app's recent
    # history (the event ring through `since`) in its console and its dashboard's events.
    api("POST", "/v1/apps", {"id": "script", "appName": "Script", "appID": "script-app"})
    wait.until(lambda d: api("GET", "/v1/apps/script")["hmiLevel"] == "FULL")  # a press reaches the app in FULL
    api("PUT", "/v1/apps/script/subscriptions/buttons/OK")
    api("POST", "/v1/apps/script/rpc/Show", {"mainField1": "Shown by a script"})
    api("POST", "/v1/simulator/buttons/OK/press", {"mode": "SHORT"})
    before = api("GET", "/v1/apps/script")["lastEventSeq"]
    driver.get(base + "/")

    def pick_script(d):
        button = next(iter(d.find_elements(By.CSS_SELECTOR, "#apps li[data-app=script] button.select")), None)
        return button is not None and (button.click() or True)

    WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException]).until(pick_script)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#events li[data-type=buttonPress]"))
    assert "OK" in text("#events li[data-type=buttonPress] .what") and driver.find_elements(By.CSS_SELECTOR, "#events li[data-type=hmiStatus]"), text("#events")
    seqs = [int(li.get_attribute("data-seq")) for li in driver.find_elements(By.CSS_SELECTOR, "#events li")]
    assert any(seq <= before for seq in seqs), seqs
    tab("console")
    wait.until(lambda d: any("Show response SUCCESS" in item.get_attribute("textContent") for item in d.find_elements(By.CSS_SELECTOR, "#console li.success")))
    requests = [item for item in driver.find_elements(By.CSS_SELECTOR, "#console li.request") if item.get_attribute("data-function") == "Show"]
    assert requests, "no Show request in the console"
    requests[0].find_element(By.TAG_NAME, "summary").click()
    assert "Shown by a script" in requests[0].text, requests[0].text
    print(f"ok   a page opened after a script's Show and button press lists them (events up to seq {before}) in its console and dashboard")

    # 420 px wide: nothing scrolls sideways, on any view.
    driver.set_window_size(420, 900)
    for name in ["dashboard", "hmi", "builder", "console", "files", "simulator"]:
        tab(name)
        widths = driver.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], (name, widths)
    print("ok   at 420 px wide no view scrolls sideways")
    driver.set_window_size(1280, 900)
    # Every text legible (WCAG AA contrast), light and dark.
    for scheme in ["light", "dark"]:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        for name in ["dashboard", "builder", "console", "simulator"]:
            tab(name)
            bad = driver.execute_script(CONTRAST)
            assert not bad, (scheme, name, bad[:5])
    print("ok   every text has AA contrast in light and dark mode")
except Exception as error:  # report, save what shows the failure, fail the step
    print(f"FAIL {type(error).__name__}: {error}")
    failed = True
finally:
    if failed:
        save_failure(driver, artifacts, "browser-page")
    driver.quit()
if failed:
    sys.exit(1)
print("browser page passed")
