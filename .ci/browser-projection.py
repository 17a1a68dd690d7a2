"""Projection in headless Chromium against `serve --simulate`, through the public API only: the
navigation example (public/examples/navigation.html) registers a NAVIGATION app, which the
simulator puts in FULL; the example starts the video service and streams its canvas (WebCodecs
H.264); the simulator's `video.h264` grows and starts with an Annex B start code and an SPS; in a
second browser the page's HMI preview decodes the live feed (its `data-frames-decoded` grows); a
drag on the preview arrives in the example as touchEvent BEGIN/MOVE/END and pans its map; stopping
ends the service. No error in either browser's console. Waits are bounded conditions.
Usage: browser-projection.py BASE_URL ARTIFACTS [SCREENSHOTS]"""
import json
import pathlib
import sys
import urllib.error
import urllib.request

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from browser_support import chromium, save_failure, wait

base, artifacts = sys.argv[1], pathlib.Path(sys.argv[2])
screenshots = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else None


def request(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=15) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def api(method, path, body=None):
    status, _, text = request(method, path, body)
    if status >= 300:
        raise RuntimeError(f"{method} {path}: {status} {text.decode(errors='replace')}")
    return json.loads(text) if text else None


def ok(text):
    print(f"ok   {text}")


def recorded():
    """The simulator's kept stream: (total bytes, frames, state, the kept bytes)."""
    status, headers, body = request("GET", "/v1/simulator/apps/navigation/video.h264")
    if status != 200:
        return None
    headers = {key.lower(): value for key, value in headers.items()}
    return int(headers["sdl-stream-bytes"]), int(headers["sdl-stream-frames"]), headers["sdl-stream-state"], body


example = chromium()
preview = None
failed = False
try:
    example.get(base + "/examples/navigation.html")
    map_canvas = example.find_element(By.ID, "map")
    wait(lambda: api("GET", "/v1/apps/navigation")["hmiLevel"] == "FULL", "the navigation app in FULL")
    ok("the example registers a NAVIGATION app and the head unit puts it in FULL")
    video = wait(lambda: (lambda v: v if v["state"] == "streaming" else None)(api("GET", "/v1/apps/navigation/video")), "the gateway's video service streaming")
    ok(f"the video service started: {json.dumps(video['accepted'])}")

    first = wait(lambda: (lambda r: r if r and r[0] > 0 else None)(recorded()), "the simulator's first video bytes")
    later = wait(lambda: (lambda r: r if r and r[0] > first[0] + 2000 else None)(recorded()), "the simulator's video.h264 growing")
    kept = later[3]
    start = 4 if kept.startswith(b"\x00\x00\x00\x01") else 3 if kept.startswith(b"\x00\x00\x01") else None
    assert start is not None, f"video.h264 starts with {kept[:8].hex()}, not an Annex B start code"
    assert kept[start] & 0x1F == 7, f"video.h264's first NAL is of type {kept[start] & 0x1F}, not an SPS (7)"
    assert later[2] == "streaming", later[2]
    ok(f"video.h264 grows ({first[0]} → {later[0]} bytes, {later[1]} frames) and starts with a start code and an SPS")

    preview = chromium()
    preview.get(base + "/")
    # The list is drawn again as events arrive: find and click in one retried step.
    wait(lambda: preview.find_element(By.CSS_SELECTOR, "#apps li[data-app='navigation'] button.select").click() or True, "the app in the page's list")
    wait(lambda: preview.find_element(By.ID, "tab-hmi").click() or True, "the HMI tab")
    canvas = wait(lambda: preview.find_element(By.CSS_SELECTOR, "#hmi-screen .hu-video"), "the preview's video canvas")
    decoded = lambda: int(preview.find_element(By.CSS_SELECTOR, "#hmi-screen .hu-video").get_attribute("data-frames-decoded"))
    wait(lambda: decoded() >= 3, "the preview decoding frames")
    before = decoded()
    wait(lambda: decoded() >= before + 5, "the preview's decoded count growing")
    layout = preview.find_element(By.CSS_SELECTOR, "#hmi-screen .hu-body").get_attribute("data-layout")
    ok(f"the preview decodes the live video ({decoded()} frames, layout {layout})")

    # A drag on the preview: BEGIN, MOVE…, END → touchEvent in the example, which pans its map.
    view_before = map_canvas.get_attribute("data-view")
    canvas = preview.find_element(By.CSS_SELECTOR, "#hmi-screen .hu-video")
    ActionChains(preview).move_to_element(canvas).click_and_hold().move_by_offset(60, 0).move_by_offset(60, 30).release().perform()
    wait(lambda: int(map_canvas.get_attribute("data-touches") or 0) >= 3, "the example's touchEvents (BEGIN, MOVE, END)")
    wait(lambda: map_canvas.get_attribute("data-view") != view_before, "the example's map panned")
    ok(f"a drag on the preview arrives as touches and pans the map ({view_before} → {map_canvas.get_attribute('data-view')})")
    # The example's own line, and pictures once the pan is in the stream.
    wait(lambda: decoded() >= before + 20, "the preview showing the panned map")
    state = example.find_element(By.ID, "state").text
    ok(f"the example says: {state}")
    if screenshots:
        screenshots.mkdir(parents=True, exist_ok=True)
        example.save_screenshot(str(screenshots / "projection-example.png"))
        preview.find_element(By.CSS_SELECTOR, ".hu-frame").screenshot(str(screenshots / "projection-preview.png"))

    example.find_element(By.ID, "stream").click()
    wait(lambda: api("GET", "/v1/apps/navigation/video")["state"] == "stopped", "the video service ended by the example")
    ok("Stop streaming ends the video service")

    for name, driver in [("example", example), ("preview", preview)]:
        errors = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
        assert not errors, f"{name}: console errors {errors}"
    ok("no error in either console")
except Exception as error:
    failed = True
    print(f"FAIL {error}")
    save_failure(example, artifacts, "projection-example")
    if preview:
        save_failure(preview, artifacts, "projection-preview")
finally:
    example.quit()
    if preview:
        preview.quit()
sys.exit(1 if failed else 0)
