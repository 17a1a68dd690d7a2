"""One small interface over headless Chromium (Selenium) and headless Firefox (Marionette), so the
head unit's browser test runs the same steps in both: navigate, find by CSS, click, type, run
JavaScript, wait for a condition (bounded), screenshot an element, read console errors."""
import base64
import pathlib
import tempfile

from browser_support import chromium, firefox_marionette, wait


class Browser:
    def __init__(self, kind):
        self.kind = kind
        if kind == "chromium":
            from selenium.webdriver.common.by import By

            self._by = By.CSS_SELECTOR
            self.driver = chromium()
            self.driver.set_window_size(1280, 900)
            self._process = None
        else:
            self._process, self.driver = firefox_marionette(tempfile.mkdtemp())
            self._by = "css selector"
            self.driver.set_window_rect(width=1280, height=900)

    def go(self, url):
        if self.kind == "chromium":
            self.driver.get(url)
        else:
            self.driver.navigate(url)

    def all(self, css):
        return self.driver.find_elements(self._by, css)

    def find(self, css):
        found = self.all(css)
        return found[0] if found else None

    def js(self, script, *args):
        if self.kind == "chromium":
            return self.driver.execute_script(script, *args)
        return self.driver.execute_script(script, script_args=list(args), sandbox=None)

    def wait(self, condition, message, timeout=15):
        """``browser_support.wait``, polling every 50 ms."""
        return wait(condition, message, timeout, interval=0.05)

    def click(self, css, text=None):
        """Clicks the first element matching `css` (and containing `text`), found again if the
        preview redrew it in between."""

        def attempt():
            for node in self.all(css):
                if text is None or text in node.text:
                    node.click()
                    return True
            return False

        return self.wait(attempt, f"a {css}{f' with {text!r}' if text else ''} to click")

    def screenshot(self, css, path):
        """A picture of the first element matching `css`, found again if it was redrawn."""
        pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)

        def attempt():
            node = self.find(css)
            if self.kind == "chromium":
                node.screenshot(str(path))
            else:
                pathlib.Path(path).write_bytes(base64.b64decode(self.driver.screenshot(element=node)))
            return True

        self.wait(attempt, f"a picture of {css}")

    def page_screenshot(self, path):
        pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
        if self.kind == "chromium":
            self.driver.save_screenshot(str(path))
        else:
            pathlib.Path(path).write_bytes(base64.b64decode(self.driver.screenshot()))

    def console_errors(self):
        """Chromium's console errors since the last call (Firefox's console is not readable over
        Marionette: none there)."""
        if self.kind == "chromium":
            return [entry for entry in self.driver.get_log("browser") if entry.get("level") == "SEVERE"]
        return []

    def quit(self):
        try:
            if self.kind == "chromium":
                self.driver.quit()
            else:
                self.driver.delete_session()
        finally:
            if self._process is not None:
                self._process.kill()
