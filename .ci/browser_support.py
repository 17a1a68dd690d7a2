"""What the browser tests share: a headless Chromium that keeps its console log, and saving a
screenshot and that log when a test fails."""
import json
import pathlib

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
