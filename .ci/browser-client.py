"""The browser client (public/sdl-gateway.js) and its media-player example in headless Chromium
against `serve --simulate` with a token: the client's own tests (.ci/browser-client-tests.js) run
in a page of the gateway, then the example registers its app and follows a soft-button press. A
failure saves a screenshot and the browser's console log in ARTIFACTS. The example's clock
counts played time only, as the head unit's does.
Usage: browser-client.py BASE_URL CONTROL_TOKEN ARTIFACTS"""
import json
import pathlib
import sys
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from browser_support import chromium, save_failure
from selenium.webdriver.support.ui import WebDriverWait

base, token, artifacts = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
driver = chromium()
driver.set_script_timeout(60)
wait = WebDriverWait(driver, 15)


def api(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


failed = False
try:
    # A document of the gateway's origin that needs no token (the module itself, as text), to run the tests in.
    driver.get(base + "/sdl-gateway.js")
    results = driver.execute_async_script(pathlib.Path(__file__).with_name("browser-client-tests.js").read_text(), token)
    for name, passed, detail in results:
        print(("ok   " if passed else "FAIL ") + name + ("" if passed else f": {detail}"))
        failed = failed or not passed

    driver.execute_script("sessionStorage.setItem('sdl-gateway.token', arguments[0])", token)
    driver.get(base + "/examples/media-player.html")
    wait.until(lambda d: "paused" in d.find_element(By.ID, "state").text)
    print("ok   the media-player example registers and shows its screen")

    def play_pause_id():
        buttons = api("GET", "/v1/apps/media-player/screen")["softButtons"]
        return buttons["playPause"]["softButtonID"]

    api("POST", "/v1/simulator/buttons/CUSTOM_BUTTON/press", {"appID": "media-player", "softButtonID": play_pause_id()})
    wait.until(lambda d: "playing" in d.find_element(By.ID, "state").text)
    wait.until(lambda d: api("GET", "/v1/simulator/apps/media-player/screen")["show"]["softButtons"][0]["text"] == "Pause")
    print("ok   its soft button pressed on the head unit toggles play/pause on the page and the screen")

    # The same button pressed as a prototyper would: in the HMI preview of the built-in page, in a
    # second tab; the example's tab follows.
    example = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(base + "/openapi.yaml.missing")  # any page of the origin, to hand the tab the token
    driver.execute_script("sessionStorage.setItem('sdl-gateway.token', arguments[0])", token)
    driver.get(base + "/")
    def pick(d):
        # The list is drawn again as events arrive: find and click in one go, again if it went stale.
        button = next(iter(d.find_elements(By.CSS_SELECTOR, "#apps li[data-app=media-player] button.select")), None)
        return button is not None and (button.click() or True)

    WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException]).until(pick)
    driver.find_element(By.ID, "tab-hmi").click()

    def press_pause(d):
        button = next((b for b in d.find_elements(By.CSS_SELECTOR, "#hmi-screen .hu-soft-button") if b.text == "Pause"), None)
        return button is not None and (button.click() or True)

    WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException]).until(press_pause)
    driver.switch_to.window(example)
    wait.until(lambda d: "paused" in d.find_element(By.ID, "state").text)
    print("ok   and pressed in the page's HMI preview, it pauses the example")

    # The example's clock counts played time only. Waits are on the page's own clock
    # (performance.now(), which the example counts with), polled.
    def page_now():
        return driver.execute_script("return performance.now()")

    def wait_page_ms(ms):
        until = page_now() + ms
        WebDriverWait(driver, ms / 1000 + 10, poll_frequency=0.05).until(lambda d: page_now() >= until)

    def shown_seconds():
        text = driver.find_element(By.ID, "state").text
        return int(text.rsplit("(", 1)[1].split(" ")[0])

    buttons = api("GET", "/v1/apps/media-player/screen")["softButtons"]
    api("POST", "/v1/simulator/buttons/CUSTOM_BUTTON/press", {"appID": "media-player", "softButtonID": buttons["next"]["softButtonID"]})
    wait.until(lambda d: "paused: So What (0 s)" in d.find_element(By.ID, "state").text)
    wait_page_ms(1500)  # paused time: not played
    driver.find_element(By.ID, "toggle").click()
    wait.until(lambda d: "playing" in d.find_element(By.ID, "state").text)
    assert shown_seconds() == 0, driver.find_element(By.ID, "state").text
    wait_page_ms(2400)  # played time
    driver.find_element(By.ID, "toggle").click()
    wait.until(lambda d: "paused" in d.find_element(By.ID, "state").text)
    played = shown_seconds()
    assert 2 <= played <= 3, driver.find_element(By.ID, "state").text
    clock = api("GET", "/v1/simulator/apps/media-player/screen")["mediaClock"]
    # The head unit paused its own running clock where it was: the same second (within the RPCs' latency).
    assert clock["running"] is False and abs(clock["currentSeconds"] - played) < 1, clock
    wait_page_ms(1200)  # paused again: the page's clock stands still, as the head unit's
    assert shown_seconds() == played, driver.find_element(By.ID, "state").text
    print(f"ok   the example's clock counts played time only: paused 1.5 s → 0 s, played 2.4 s → {played} s, as the head unit's clock")
except Exception as error:  # report, save what shows the failure, fail the step
    print(f"FAIL {type(error).__name__}: {error}")
    failed = True
finally:
    if failed:
        save_failure(driver, artifacts, "browser-client")
    driver.quit()
if failed:
    sys.exit(1)
print("browser client passed")
