"""The browser client and the page in headless Firefox, through Firefox's own Marionette protocol
(no geckodriver: Debian does not package it, and nothing else may be downloaded here). Runs the
client's tests (.ci/browser-client-tests.js), then registers an app from the page, sends Show from
the RPC builder and sees it in the HMI preview. A failure saves a screenshot in ARTIFACTS.
Usage: browser-firefox.py BASE_URL CONTROL_TOKEN ARTIFACTS"""
import base64
import pathlib
import subprocess
import sys
import tempfile
import time

from marionette_driver.marionette import Marionette
from marionette_driver.wait import Wait

base, token, artifacts = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
profile = pathlib.Path(tempfile.mkdtemp())
# Port 0: Firefox picks a free port and writes it into the profile.
(profile / "user.js").write_text('user_pref("marionette.port", 0);\n')
firefox = subprocess.Popen(["firefox-esr", "--headless", "--marionette", "--no-remote", "--profile", str(profile)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
failed = False
client = None
try:
    port_file = profile / "MarionetteActivePort"
    deadline = time.monotonic() + 30
    while not port_file.exists():  # bounded: Firefox writes it once Marionette listens
        if time.monotonic() > deadline or firefox.poll() is not None:
            raise RuntimeError("Firefox did not start Marionette")
        time.sleep(0.1)
    client = Marionette(host="127.0.0.1", port=int(port_file.read_text().strip()))
    client.start_session()
    client.timeout.script = 60
    wait = lambda condition, message: Wait(client, timeout=15, interval=0.1).until(condition, message=message)

    client.navigate(base + "/sdl-gateway.js")
    results = client.execute_async_script(pathlib.Path(__file__).with_name("browser-client-tests.js").read_text(), script_args=[token], sandbox=None)
    for name, passed, detail in results:
        print(("ok   " if passed else "FAIL ") + "firefox: " + name + ("" if passed else f": {detail}"))
        failed = failed or not passed

    client.execute_script("sessionStorage.setItem('sdl-gateway.token', arguments[0])", script_args=[token])
    client.navigate(base + "/")
    # Read in one script: the app list is redrawn as it changes, which would make a found element stale.
    texts = lambda c, selector: c.execute_script("return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", script_args=[selector])
    wait(lambda c: texts(c, "#apps li.empty") == ["no apps"], "the page lists no apps")
    assert client.find_element("id", "forget").is_displayed(), "Forget token hidden while a token is in use"
    client.find_element("id", "register").click()
    wait(lambda c: texts(c, "#apps li[data-app='demo-app'] .badge") == ["registered", "FULL"], "the app registered and FULL")
    client.find_element("id", "tab-builder").click()
    field = wait(lambda c: c.find_element("css selector", "#params .param[data-name=mainField1] .value"), "the builder's form")
    field.send_keys("Hello from Firefox")
    client.find_element("id", "send").click()
    client.find_element("id", "tab-hmi").click()
    wait(lambda c: "Hello from Firefox" in c.find_element("id", "hmi-fields").text, "Show in the HMI preview")
    print("ok   firefox: the page registers an app, and Show from the builder is in the HMI preview")
    # 420 px wide, dark or light as the system has it: nothing scrolls sideways.
    client.set_window_rect(width=420, height=900)
    for name in ["dashboard", "builder", "console", "files", "simulator"]:
        client.find_element("id", f"tab-{name}").click()
        widths = client.execute_script("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], (name, widths)
    print("ok   firefox: at 420 px wide no view scrolls sideways")
except Exception as error:  # report, save what shows the failure, fail the step
    print(f"FAIL firefox: {type(error).__name__}: {error}")
    failed = True
    if client is not None:
        artifacts.mkdir(parents=True, exist_ok=True)
        (artifacts / "browser-firefox-failure.png").write_bytes(base64.b64decode(client.screenshot()))
        print(f"saved a screenshot in {artifacts}")
finally:
    if client is not None:
        client.delete_session()
    firefox.kill()
if failed:
    sys.exit(1)
print("browser firefox passed")
