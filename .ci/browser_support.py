"""What the browser tests share: a headless Chromium that keeps its console log, and saving a
screenshot and that log when a test fails."""
import json
import pathlib
import struct
import time
import zlib

from selenium import webdriver


def chromium():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))


def save_failure(driver, artifacts: pathlib.Path, name: str):
    """A screenshot and the browser's console log of a failed test, in ARTIFACTS."""
    artifacts.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(artifacts / f"{name}-failure.png"))
    (artifacts / f"{name}-console.log").write_text("\n".join(json.dumps(entry) for entry in driver.get_log("browser")))
    print(f"saved a screenshot and the console log in {artifacts}")


def firefox_marionette(profile_dir):
    """Headless Firefox through its own Marionette protocol (Debian packages no geckodriver): the
    started process and a client with a session, once Marionette listens (bounded wait)."""
    import pathlib
    import subprocess
    import time

    from marionette_driver.marionette import Marionette

    profile = pathlib.Path(profile_dir)
    # Port 0: Firefox picks a free port and writes it into the profile.
    (profile / "user.js").write_text('user_pref("marionette.port", 0);\n')
    process = subprocess.Popen(["firefox-esr", "--headless", "--marionette", "--no-remote", "--profile", str(profile)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = profile / "MarionetteActivePort"
    deadline = time.monotonic() + 30
    while not port_file.exists():  # bounded: Firefox writes it once Marionette listens
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise RuntimeError("Firefox did not start Marionette")
        time.sleep(0.1)
    client = Marionette(host="127.0.0.1", port=int(port_file.read_text().strip()))
    client.start_session()
    client.timeout.script = 60
    return process, client


def png(width, height, pixel):
    """A PNG of `pixel(x, y) → (r, g, b, a)`, for tests that need an image with real pixels."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))
    chunk = lambda kind, data: struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def wait(condition, message, timeout=30, interval=0.1):
    """Polls `condition()` until it is truthy, at most `timeout` s, and returns its value.
    Exceptions count as not yet (a stale element while a page redraws, a 404 before the first
    bytes); the last one is named in the TimeoutError."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as error:
            last = error
        time.sleep(interval)
    raise TimeoutError(f"{message} (after {timeout} s{f'; last error: {last}' if last else ''})")
