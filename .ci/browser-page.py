"""The built-in page in headless Chromium against `serve --simulate` (no token; browser-auth.py
covers tokens): register an app and see it FULL, send Show from the RPC builder and see it in the
HMI preview and the console, press a hardware button and see the event, subscribe to speed and
see its plot move, upload a file and see it listed, record 2 s of audio and see the player hold
them, answer an alert in the HMI preview, open with the history of an app a script drove before,
and load every page without an error in the browser console (the icon included). With
SCREENSHOTS, saves the dashboard, the HMI preview and the RPC builder there. A failure saves a
screenshot and the console log in ARTIFACTS. Waits are bounded conditions, never sleeps.
Usage: browser-page.py BASE_URL ARTIFACTS [SCREENSHOTS]"""
import json
import pathlib
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


def shot(name):
    if screenshots:
        screenshots.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(screenshots / f"{name}.png"))


failed = False
try:
    # Every page of the gateway loads with nothing in the console: its icon included.
    load_without_errors("/examples/", lambda d: d.find_elements(By.CSS_SELECTOR, "a[href='media-player.html']"))
    print("ok   /examples/ lists the examples, with no error in the console")
    driver.get(base + "/")
    wait.until(lambda d: d.find_element(By.ID, "apps").text == "no apps")
    errors = console_errors()
    assert not errors, errors
    assert driver.execute_script("return document.querySelector('link[rel=icon]').href").endswith("/favicon.svg")
    print("ok   the page loads with its icon and no error in the console")
    driver.find_element(By.ID, "register").click()
    wait.until(lambda d: "registered FULL" in d.find_element(By.ID, "apps").text)
    wait.until(lambda d: "hmiStatus" in d.find_element(By.ID, "events").text)
    print("ok   registered from the form; the app is FULL and its events arrive")

    tab("builder")
    field = driver.find_element(By.CSS_SELECTOR, "#params .param[data-name=mainField1] .value")
    wait.until(lambda d: field.is_displayed())
    field.send_keys("Hello from the builder")
    driver.find_element(By.ID, "send").click()
    wait.until(lambda d: '"SUCCESS"' in d.find_element(By.ID, "response").text)
    shot("rpc-builder")
    tab("hmi")
    wait.until(lambda d: "Hello from the builder" in d.find_element(By.ID, "hmi-fields").text)
    print("ok   Show sent from the builder appears in the HMI preview")
    tab("console")
    wait.until(lambda d: any("Show response SUCCESS" in item.text for item in d.find_elements(By.CSS_SELECTOR, "#console li.success")))
    print("ok   and in the console, coloured as a success")

    tab("simulator")
    driver.find_element(By.ID, "sim-feed-pause").click()
    wait.until(lambda d: "paused" in d.find_element(By.ID, "sim-feed").text)
    assert api("GET", "/v1/simulator/feed")["playing"] is False
    driver.find_element(By.ID, "sim-feed-play").click()
    wait.until(lambda d: "playing" in d.find_element(By.ID, "sim-feed").text)
    print("ok   the simulator panel pauses and plays the vehicle data feed")
    api("PUT", "/v1/apps/demo-app/subscriptions/buttons/OK")
    driver.find_element(By.CSS_SELECTOR, "#sim-buttons button[data-button=OK]").click()
    tab("dashboard")
    wait.until(lambda d: "buttonPress" in d.find_element(By.ID, "events").text and "OK" in d.find_element(By.ID, "events").text)
    print("ok   a hardware button pressed in the simulator panel is an event on the dashboard")

    driver.find_element(By.ID, "subscribe-speed").click()
    wait.until(lambda d: d.find_elements(By.ID, "vd-speed"))
    for speed in (10, 40, 70):
        api("PUT", "/v1/simulator/vehicle-data", {"speed": speed})
        wait.until(lambda d, s=speed: d.find_element(By.CSS_SELECTOR, "#vd-speed td:nth-child(2)").text == str(s) or d.find_element(By.CSS_SELECTOR, "#vd-speed td:nth-child(2)").text == f"{s}.0")
    points = int(driver.find_element(By.ID, "vd-speed").get_attribute("data-points"))
    assert points >= 3, points
    print(f"ok   subscribed to speed; its plot has {points} points")
    shot("dashboard")

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
        button = next((b for b in d.find_elements(By.CSS_SELECTOR, "#app-list button") if "(script)" in b.text), None)
        return button is not None and (button.click() or True)

    WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException]).until(pick_script)
    wait.until(lambda d: "buttonPress" in d.find_element(By.ID, "events").text)
    events = driver.find_element(By.ID, "events").text
    assert '"buttonName":"OK"' in events and "hmiStatus" in events, events
    assert any(int(line.split(" ")[0]) <= before for line in events.splitlines() if line), events
    tab("console")
    wait.until(lambda d: any("Show response SUCCESS" in item.text for item in d.find_elements(By.CSS_SELECTOR, "#console li.success")))
    requests = [item for item in driver.find_elements(By.CSS_SELECTOR, "#console li.request") if item.get_attribute("data-function") == "Show"]
    assert requests, "no Show request in the console"
    requests[0].find_element(By.TAG_NAME, "summary").click()
    assert "Shown by a script" in requests[0].text, requests[0].text
    print(f"ok   a page opened after a script's Show and button press lists them (events up to seq {before}) in its console and dashboard")
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
