# Sourced by the browser scripts: installs chromium, its driver and selenium when missing.
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! python3 -c 'import selenium' 2>/dev/null; then
    python3 -m pip install -q selenium >/dev/null
fi
