"""The HMI preview as a head unit, in headless Chromium or Firefox against `serve --simulate`:
every template the display lists drawn (`data-template`) with the app's uploaded images by their
pixels and saved as a screenshot, compared in Chromium with the one kept in docs/screenshots/
(a layout change fails; UPDATE_SCREENSHOTS=1 keeps the new picture instead); then the driver's
clicks: a soft button (SHORT and LONG) → `softButton` events, the menu drilled into → a
`menuSelection` by the declared ids, a voice command said, an alert answered by its button, a
choice and a keyboard answer with autocomplete, a slider moved, the launcher opening the app again,
day and night; and no error in the browser console. Waits are bounded conditions.
Usage: browser-headunit.py chromium|firefox BASE_URL ARTIFACTS"""
import json
import os
import pathlib
import sys
import threading
import time
import urllib.error
import urllib.request

from browser_support import png
from headunit_browser import Browser

kind, base, artifacts = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
stored = pathlib.Path(__file__).resolve().parent.parent / "docs" / "screenshots" / "templates"
update = os.environ.get("UPDATE_SCREENSHOTS") == "1"


def api(method, path, body=None, raw=None, timeout=15):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    headers = {"Content-Type": "application/octet-stream" if raw is not None else "application/json"}
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        raise RuntimeError(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}") from None


# Album art: a sunset gradient with a disc; a star as a template icon (alpha only); an app icon.
ART = png(160, 160, lambda x, y: (255 - y, 80 + x // 2, 120 + y // 2, 255) if (x - 80) ** 2 + (y - 80) ** 2 > 900 else (20, 20, 30, 255))
STAR = png(48, 48, lambda x, y: (0, 0, 0, 255 if abs(x - 24) + abs(y - 24) < 18 - abs(abs(x - 24) - abs(y - 24)) // 2 else 0))
ICON = png(64, 64, lambda x, y: (30, 110 + y, 200, 255) if (x // 16 + y // 16) % 2 else (240, 240, 250, 255))


class Events:
    """The app's events over Server-Sent Events from `since`, read on a thread into a list."""

    def __init__(self, app, since):
        self.events = []
        self.lock = threading.Lock()
        request = urllib.request.Request(f"{base}/v1/apps/{app}/events?since={since}", headers={"Accept": "text/event-stream"})
        self.response = urllib.request.urlopen(request, timeout=60)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            for line in self.response:
                if line.startswith(b"data: "):
                    with self.lock:
                        self.events.append(json.loads(line[6:]))
        except Exception:  # the stream ends with the test
            pass

    def find(self, type_, predicate=lambda data: True):
        with self.lock:
            return next((e for e in self.events if e["type"] == type_ and predicate(e.get("data") or {})), None)


def in_thread(function):
    """Runs `function` on a thread (a request the driver answers on the page); returns a getter."""
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("value", function()))
    thread.start()

    def get():
        thread.join(20)
        return result.get("value")

    return get


def compare(fresh, kept):
    """The share of pixels that differ visibly between two screenshots of the same size."""
    from PIL import Image, ImageChops

    a, b = Image.open(fresh).convert("RGB"), Image.open(kept).convert("RGB")
    if a.size != b.size:
        return 1.0, f"size {a.size} against {b.size}"
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 48 else 0)
    changed = diff.histogram()[255]
    return changed / (a.size[0] * a.size[1]), ""


browser = Browser(kind)
failed = False
label = f"{kind}:"
try:
    app = f"hu-{kind}"
    # Each browser's app has a name of its own: a head unit refuses a second app of the same name.
    api("POST", "/v1/apps", {"id": app, "appName": {"chromium": "Radio One"}.get(kind, "Radio Two"), "appID": f"radio-{kind}", "isMediaApplication": True, "appHMIType": ["MEDIA"]})
    browser.wait(lambda: api("GET", f"/v1/apps/{app}")["hmiLevel"] == "FULL", "the app in FULL")
    for name, data in [("art.png", ART), ("star.png", STAR), ("icon.png", ICON)]:
        api("PUT", f"/v1/apps/{app}/files/{name}", raw=data)
    api("POST", f"/v1/apps/{app}/rpc/SetAppIcon", {"syncFileName": "icon.png"})
    since = api("GET", f"/v1/apps/{app}")["lastEventSeq"]
    events = Events(app, since)

    browser.go(base + "/")
    browser.click(f"#apps li[data-app='{app}'] button.select")
    browser.click("#tab-hmi")
    browser.wait(lambda: browser.find(f"#hmi-screen[data-app='radio-{kind}']"), "the preview shows the app")
    browser.click(".hu-theme button[data-theme=night]")

    # Every template the display lists, each with the same content.
    capabilities = api("GET", f"/v1/apps/{app}/capabilities")
    templates = capabilities["registration"]["displayCapabilities"]["templatesAvailable"]
    api("POST", f"/v1/apps/{app}/rpc/SetMediaClockTimer", {"startTime": {"hours": 0, "minutes": 1, "seconds": 5}, "endTime": {"hours": 0, "minutes": 4, "seconds": 10}, "updateMode": "COUNTUP", "audioStreamingIndicator": "PLAY"})
    api("POST", f"/v1/apps/{app}/rpc/SetMediaClockTimer", {"updateMode": "PAUSE"})
    content = {
        "mainField1": "Blue in Green", "mainField2": "Miles Davis", "mainField3": "Kind of Blue", "mainField4": "1959",
        "mediaTrack": "3 of 5", "templateTitle": "Jazz", "statusBar": "FM 101.1",
        "metadataTags": {"mainField1": ["mediaTitle"], "mainField2": ["mediaArtist"]},
        "graphic": {"value": "art.png", "imageType": "DYNAMIC"},
        "secondaryGraphic": {"value": "icon.png", "imageType": "DYNAMIC"},
        "customPresets": ["Jazz", "News", "Rock", "Talk"],
        "softButtons": [
            {"type": "BOTH", "text": "Like", "image": {"value": "star.png", "imageType": "DYNAMIC", "isTemplate": True}, "softButtonID": 1, "isHighlighted": True},
            {"type": "TEXT", "text": "Share", "softButtonID": 2},
            {"type": "IMAGE", "image": {"value": "0xD0", "imageType": "STATIC"}, "softButtonID": 3},
            {"type": "TEXT", "text": "Queue", "softButtonID": 4},
        ],
    }
    scheme = {"primaryColor": {"red": 214, "green": 64, "blue": 69}}
    drawn = []
    for index, template in enumerate(templates):
        configuration = {"template": template}
        if index == 0:
            configuration.update(dayColorScheme=scheme, nightColorScheme=scheme)
        answer = api("POST", f"/v1/apps/{app}/rpc/Show", {**content, "templateConfiguration": configuration})
        assert answer["success"], (template, answer)
        browser.wait(lambda: browser.find(f"#hmi-screen[data-template='{template}']"), f"{template} drawn")
        browser.wait(lambda: not browser.all("#hmi-screen .hu-img.loading"), f"{template}: its images loaded")
        shot = artifacts / "headunit" / kind / f"{template}.png"
        browser.screenshot(".hu-frame", shot)
        if kind == "chromium":
            kept = stored / f"{template}.png"
            if update or not kept.exists():
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_bytes(shot.read_bytes())
            else:
                share, why = compare(shot, kept)
                assert share <= 0.02, f"{template} looks different from docs/screenshots/templates/{template}.png: {why or f'{share:.1%} of the pixels changed'} (see {shot})"
        drawn.append(template)
    print(f"ok   {label} every template the display lists is drawn ({len(drawn)}: {', '.join(drawn)})")

    # The uploaded PNG is drawn by its pixels; a missing file is a placeholder naming it.
    api("POST", f"/v1/apps/{app}/rpc/Show", {"templateConfiguration": {"template": "MEDIA"}})
    browser.wait(lambda: browser.js("const img = document.querySelector('#hmi-screen .hu-graphic img'); return img && img.complete && img.naturalWidth") == 160, "the album art drawn with its 160 pixels")
    api("POST", f"/v1/apps/{app}/rpc/Show", {"graphic": {"value": "nowhere.png", "imageType": "DYNAMIC"}})
    browser.wait(lambda: "nowhere.png" in (browser.find("#hmi-screen .hu-graphic .hu-img.missing") or browser.find("body")).text and browser.find("#hmi-screen .hu-graphic .hu-img.missing"), "the missing file named")
    print(f"ok   {label} an uploaded PNG is drawn with its pixels (naturalWidth 160); a missing one is named")

    # A declared screen's soft button: a click is SHORT, a hold of a second LONG.
    api("PUT", f"/v1/apps/{app}/screen", {"template": "MEDIA", "textFields": ["Now playing"], "softButtons": [{"id": "fav", "states": [{"name": "off", "text": "Favourite"}]}]})
    browser.click("#hmi-screen .hu-soft-button", "Favourite")
    browser.wait(lambda: events.find("softButton", lambda d: d.get("id") == "fav" and d.get("mode") == "SHORT"), "a softButton event, SHORT")
    held = browser.js("""
        const button = [...document.querySelectorAll('#hmi-screen .hu-soft-button')].find((b) => b.textContent.includes('Favourite'));
        button.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, button: 0}));
        return true""")
    time.sleep(1.1)  # the hold itself: a LONG press is one of a second or more
    browser.js("[...document.querySelectorAll('#hmi-screen .hu-soft-button')].find((b) => b.textContent.includes('Favourite')).click()")
    browser.wait(lambda: events.find("softButton", lambda d: d.get("id") == "fav" and d.get("mode") == "LONG"), "a softButton event, LONG")
    print(f"ok   {label} a soft button clicked is a softButton event (SHORT), held a second LONG")

    # The menu: open, into a sub-menu, pick → menuSelection by the declared ids; a voice command.
    api("PUT", f"/v1/apps/{app}/menu", {"menu": [
        {"id": "settings", "title": "Settings"},
        {"id": "stations", "title": "Stations", "children": [{"id": "fm1", "title": "FM 101"}, {"id": "fm2", "title": "FM 102"}]},
        {"id": "news", "title": "News", "voiceCommands": ["play the news"]}]})
    browser.click("#hmi-menu-button")
    browser.click("#hmi-menu .hu-menu-entry.subMenu", "Stations")
    browser.wait(lambda: "FM 102" in browser.find("#hmi-menu").text, "the sub-menu's entries")
    browser.screenshot(".hu-frame", artifacts / "headunit" / kind / "menu.png")
    browser.click("#hmi-menu .hu-menu-entry.command", "FM 102")
    browser.wait(lambda: events.find("menuSelection", lambda d: d.get("id") == "fm2" and d.get("path") == ["stations", "fm2"] and d.get("trigger") == "MENU"), "menuSelection fm2 by MENU")
    browser.wait(lambda: not browser.find("#hmi-menu"), "the menu closed after the pick")
    browser.click("#hmi-say .hu-say-phrase", "play the news")
    browser.wait(lambda: events.find("menuSelection", lambda d: d.get("id") == "news" and d.get("trigger") == "VR"), "menuSelection news by VR")
    print(f"ok   {label} menu → Stations → FM 102 is menuSelection fm2 [stations, fm2] (MENU); saying 'play the news' is news (VR)")

    # An alert answered by one of its buttons.
    answer = in_thread(lambda: api("POST", f"/v1/apps/{app}/alerts", {"text": ["Low fuel", "Find a station?"], "softButtons": [{"id": "yes", "text": "Yes"}, {"id": "no", "text": "No"}]}, timeout=30))
    browser.wait(lambda: browser.find("#hmi-overlay[data-function=Alert]"), "the alert drawn")
    browser.screenshot(".hu-frame", artifacts / "headunit" / kind / "alert.png")
    browser.click("#hmi-overlay .hu-soft-button", "Yes")
    result = answer()
    assert result and result["button"] == "yes", result
    browser.wait(lambda: not browser.find("#hmi-overlay"), "the alert closed")
    print(f"ok   {label} an alert answered by clicking its Yes button (answer button=yes)")

    # Left alone, an alert ends when its time runs out (the bar shows it running), and speech is a
    # caption for as long as the head unit speaks.
    answer = in_thread(lambda: api("POST", f"/v1/apps/{app}/rpc/Alert", {"alertText1": "Traffic ahead", "duration": 3000}, timeout=30))
    browser.wait(lambda: browser.find("#hmi-overlay[data-function=Alert] .hu-countdown"), "the alert with its time running")
    browser.wait(lambda: not browser.find("#hmi-overlay"), "the alert gone by itself", timeout=20)
    result = answer()
    assert result and result["resultCode"] == "SUCCESS", result
    answer = in_thread(lambda: api("POST", f"/v1/apps/{app}/rpc/Speak", {"ttsChunks": [{"text": "Turn left in two hundred metres", "type": "TEXT"}]}, timeout=30))
    browser.wait(lambda: "Turn left in two hundred metres" in browser.find("#hmi-overlay.hu-caption").text, "speech as a caption")
    browser.wait(lambda: not browser.find("#hmi-overlay"), "the caption gone when the speech ends", timeout=20)
    assert answer()["resultCode"] == "SUCCESS"
    print(f"ok   {label} an alert left alone ends by itself after its 3 s; Speak is a caption while it speaks")

    # A choice, then a keyboard with autocomplete.
    answer = in_thread(lambda: api("POST", f"/v1/apps/{app}/interactions", {"title": "Station", "mode": "MANUAL", "choices": [{"id": "jazz", "text": "Jazz FM", "image": "star.png"}, {"id": "talk", "text": "Talk Radio"}]}, timeout=30))
    browser.wait(lambda: browser.find("#hmi-overlay[data-function=PerformInteraction] .hu-choice"), "the choices drawn")
    browser.screenshot(".hu-frame", artifacts / "headunit" / kind / "choices.png")
    browser.click("#hmi-overlay .hu-choice", "Talk Radio")
    result = answer()
    assert result and result["choice"] == "talk", result
    answer = in_thread(lambda: api("POST", f"/v1/apps/{app}/interactions", {"title": "City", "keyboard": {"layout": "QWERTY", "autoComplete": ["Paris", "Perth"]}}, timeout=30))
    browser.wait(lambda: browser.find("#hmi-keyboard"), "the keyboard drawn")
    browser.click("#hmi-overlay .hu-key", "p")
    browser.click("#hmi-overlay .hu-key", "a")
    browser.click("#hmi-suggestions .hu-suggestion", "Paris")
    browser.screenshot(".hu-frame", artifacts / "headunit" / kind / "keyboard.png")
    browser.click("#hmi-keyboard-enter")
    result = answer()
    assert result and result["text"] == "Paris", result
    print(f"ok   {label} a choice clicked (talk), and 'pa' typed on the keyboard completed to Paris")

    # Driving (driver distraction on): the keyboard is locked; the driver can only close it.
    api("PUT", "/v1/simulator/driver-distraction", {"state": "DD_ON"})
    answer = in_thread(lambda: api("POST", f"/v1/apps/{app}/interactions", {"title": "City", "keyboard": {"layout": "QWERTY"}}, timeout=30))
    browser.wait(lambda: browser.js("const k = document.getElementById('hmi-keyboard'); return k && k.disabled") and browser.find("#hmi-screen .hu-lockout"), "the keyboard locked while driving")
    assert browser.js("return [...document.querySelectorAll('#hmi-overlay .hu-key')].every((k) => k.disabled)")
    browser.click("#hmi-overlay .hu-close")
    result = answer()
    assert result and result["result"] == "ABORTED", result
    api("PUT", "/v1/simulator/driver-distraction", {"state": "DD_OFF"})
    browser.wait(lambda: not browser.find("#hmi-screen .hu-lockout"), "unlocked when parked")
    print(f"ok   {label} with driver distraction on the keyboard is locked and can only be closed (ABORTED)")

    # A slider moved to 4 of 5 and saved.
    answer = in_thread(lambda: api("POST", f"/v1/apps/{app}/rpc/Slider", {"numTicks": 5, "position": 1, "sliderHeader": "Volume", "sliderFooter": ["Low", "2", "3", "4", "High"], "timeout": 20000}, timeout=30))
    browser.wait(lambda: browser.find("#hmi-slider"), "the slider drawn")
    browser.js("const s = document.getElementById('hmi-slider'); s.value = 4; s.dispatchEvent(new Event('input', {bubbles: true}));")
    browser.click("#hmi-slider-save")
    result = answer()
    assert result and result.get("sliderPosition") == 4, result
    print(f"ok   {label} a slider moved to 4 answers sliderPosition 4")

    # Home: the launcher lists the app (LIMITED: a media app plays on); a click opens it again.
    browser.click("#hmi-screen .hu-home")
    browser.wait(lambda: browser.find("#hmi-launcher .hu-app-tile"), "the launcher")
    assert api("GET", f"/v1/apps/{app}")["hmiLevel"] == "LIMITED"
    browser.screenshot(".hu-frame", artifacts / "headunit" / kind / "launcher.png")
    browser.click(f"#hmi-launcher .hu-app-tile[data-app-id='radio-{kind}']")
    browser.wait(lambda: api("GET", f"/v1/apps/{app}")["hmiLevel"] == "FULL", "the app FULL again")
    browser.wait(lambda: browser.find(f"#hmi-screen[data-app='radio-{kind}']"), "its screen again")
    browser.click(".hu-theme button[data-theme=day]")
    browser.wait(lambda: browser.find("#hmi-screen[data-theme=day]"), "the day theme")
    print(f"ok   {label} home shows the launcher (the media app LIMITED); its tile opens it (FULL); day and night")

    errors = browser.console_errors()
    assert not errors, errors
    if kind == "chromium":
        print(f"ok   {label} no error in the browser console")
except Exception as error:  # report, save what shows the failure, fail the step
    print(f"FAIL {label} {type(error).__name__}: {error}")
    failed = True
    try:
        browser.page_screenshot(artifacts / f"browser-headunit-{kind}-failure.png")
        print(f"saved a screenshot in {artifacts}")
    except Exception:
        pass
finally:
    browser.quit()
    try:  # the next browser registers its own app on the same gateway
        api("DELETE", f"/v1/apps/hu-{kind}")
    except Exception:
        pass
if failed:
    sys.exit(1)
print(f"browser headunit ({kind}) passed")
