"""The built-in page in headless Chromium against a gateway with tokens, as a browser user meets
it: the page itself loads without a token; the API's 401 makes it ask for one (a prompt), again
after a wrong one, and keeps it in session storage; "Forget token" shows while a token is in use;
its WebSocket authenticates with the bearer subprotocol, so events arrive; its Show reaches the head
unit. With a read-only token, the first refusal shows next to the button that was pressed (not in
the header), and every control that needs the control scope is disabled with a title saying why.
Usage: browser-auth.py BASE_URL CONTROL_TOKEN READ_TOKEN"""
import json
import sys
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

base, token, read_token = sys.argv[1], sys.argv[2], sys.argv[3]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
# The page redraws its lists as events arrive: an element found can go stale before it is read.
wait = WebDriverWait(driver, 10, ignored_exceptions=[StaleElementReferenceException])
try:
    driver.get(base + "/")
    alert = wait.until(expected_conditions.alert_is_present())
    print("ok   the page loads without a token and asks for one:", alert.text.splitlines()[0])
    alert.send_keys("not-a-token")
    alert.accept()
    alert = wait.until(expected_conditions.alert_is_present())
    assert "not accepted" in alert.text, alert.text
    print("ok   after a wrong token it asks again:", alert.text.splitlines()[0])
    alert.send_keys(token)
    alert.accept()
    assert driver.title == "sdl-gateway", driver.title
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#apps li.empty").text == "no apps")
    assert driver.find_element(By.ID, "forget").is_displayed()
    print("ok   with it, the page lists the apps, and offers to forget the token")
    assert driver.execute_script("return sessionStorage.getItem('sdl-gateway.token')") == token
    assert token not in driver.current_url
    driver.find_element(By.ID, "register").click()
    wait.until(lambda d: d.execute_script("return document.querySelector(\"#apps li[data-app='demo-app'] .badge[data-field=connection]\")?.textContent") == "registered")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#events li[data-type=hmiStatus]"))
    print("ok   registered; events arrive over the WebSocket (bearer subprotocol)")
    driver.find_element(By.ID, "tab-builder").click()
    field = driver.find_element(By.CSS_SELECTOR, "#params .param[data-name=mainField1] .value")
    wait.until(lambda d: field.is_displayed())
    field.send_keys("Hello from the browser")
    driver.find_element(By.ID, "send").click()
    request = urllib.request.Request(base + "/v1/simulator/apps/demo-app/screen", headers={"Authorization": f"Bearer {token}"})

    def shown(_):
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.load(response).get("show", {}).get("mainField1") == "Hello from the browser"

    wait.until(shown)
    print("ok   the page's Show reached the head unit")
    driver.refresh()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#apps li[data-app='demo-app']"))
    print("ok   a reload keeps the token for the tab (no second prompt)")

    # A read-only token: the API tells no scope up front, so the first refusal (403 forbidden)
    # teaches the page, which shows it by the button and disables what needs control.
    driver.execute_script("sessionStorage.setItem('sdl-gateway.token', arguments[0])", read_token)
    driver.refresh()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#apps li[data-app='demo-app']"))
    status = driver.find_element(By.ID, "status").text
    driver.find_element(By.ID, "tab-builder").click()
    driver.find_element(By.ID, "send").click()
    note = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#view-builder .note.error"))
    assert "forbidden" in note.text and "read-only" in note.text, note.text
    assert "read-only token" in driver.find_element(By.ID, "status").text and status in driver.find_element(By.ID, "status").text
    print("ok   a read-only token's refusal shows next to Send:", note.text)
    for selector in ["#send", "#register", "#subscribe-speed", "#sim-buttons button", "#apps .remove", "#record"]:
        control = driver.find_element(By.CSS_SELECTOR, selector)
        assert not control.is_enabled() and "read-only" in control.get_attribute("title"), selector
    print("ok   and every control that needs the control scope is disabled, with a title saying why")
    driver.find_element(By.ID, "tab-console").click()
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".note"))
    print("ok   the note goes at the next action")
finally:
    driver.quit()
print("browser auth passed")
