"""The built-in page in headless Chromium against a gateway with tokens, as a browser user meets
it: the page itself loads without a token; the API's 401 makes it ask for one (a prompt), which it
keeps in session storage; its WebSocket authenticates with the bearer subprotocol, so events
arrive; its Show reaches the head unit. Usage: browser-auth.py BASE_URL CONTROL_TOKEN"""
import json
import sys
import urllib.request

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

base, token = sys.argv[1], sys.argv[2]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]:
    options.add_argument(argument)
driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
wait = WebDriverWait(driver, 10)
try:
    driver.get(base + "/")
    alert = wait.until(expected_conditions.alert_is_present())
    print("ok   the page loads without a token and asks for one:", alert.text.splitlines()[0])
    alert.send_keys(token)
    alert.accept()
    assert driver.title == "sdl-gateway", driver.title
    wait.until(lambda d: d.find_element(By.ID, "apps").text == "no apps")
    print("ok   with it, the page lists the apps")
    assert driver.execute_script("return sessionStorage.getItem('sdl-gateway.token')") == token
    assert token not in driver.current_url
    driver.find_element(By.ID, "register").click()
    wait.until(lambda d: "registered" in d.find_element(By.ID, "apps").text)
    wait.until(lambda d: "hmiStatus" in d.find_element(By.ID, "events").text)
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
    wait.until(lambda d: "demo-app" in d.find_element(By.ID, "apps").text)
    print("ok   a reload keeps the token for the tab (no second prompt)")
finally:
    driver.quit()
print("browser auth passed")
