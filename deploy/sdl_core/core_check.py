"""What the checks against a real SDL Core share (e2e-check.py, check-streaming.py): a free port,
a bounded wait, JSON over HTTP with a bearer token, the app's events, and a copy of Core's bin/
with an edited policy table and ini that is started and stopped with the check's other processes.
Needs no network beyond 127.0.0.1."""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

STEPS = {}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, predicate, timeout=30.0, interval=0.1):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except Exception as error:  # noqa: BLE001 - anything not ready yet is retried until the deadline
            last = error
        time.sleep(interval)
    raise SystemExit(f"FAIL {what}: not within {timeout} s (last: {last})")


def wait_for_port(what, port, timeout=30.0):
    """Until something accepts connections on 127.0.0.1:`port` (see wait_for)."""
    wait_for(what, lambda: socket.create_connection(("127.0.0.1", port), timeout=1).close() or True, timeout=timeout)


def http(method, url, body=None, token=None, timeout=15, raw=None, content_type="application/json"):
    """(status, parsed JSON or None); `raw` bytes are sent as they are instead of `body`."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", content_type)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            text = response.read()
            return response.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        text = error.read()
        return error.code, json.loads(text) if text else None


def step(name, started):
    took = round(time.monotonic() - started, 3)
    STEPS[name] = took
    print(f"ok   {name} ({took} s)", flush=True)


def events(api, app, token, types=None):
    """The app's events so far (SSE from the first one, read for a moment)."""
    request = urllib.request.Request(f"{api}/v1/apps/{app}/events?since=0")
    request.add_header("Accept", "text/event-stream")
    request.add_header("Authorization", f"Bearer {token}")
    found = []
    try:
        with urllib.request.urlopen(request, timeout=2) as response:
            deadline = time.monotonic() + 1
            while time.monotonic() < deadline:
                line = response.readline().decode()
                if line.startswith("data:"):
                    found.append(json.loads(line[5:]))
    except (TimeoutError, socket.timeout, urllib.error.URLError):
        pass
    return [e for e in found if types is None or e["type"] in types]


def gateway_path(arguments):
    """The sdl-gateway executable: the argument, or the one `swift build` made."""
    if arguments:
        return os.path.abspath(arguments[0])
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(bin_path, "sdl-gateway")


def set_ini(path, values):
    """Sets `key = value` lines of smartDeviceLink.ini (each key must be there, commented or not)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for key, value in values.items():
        text, count = re.subn(rf"(?m)^;?\s*{re.escape(key)}\s*=.*$", f"{key} = {value}", text, count=1)
        if count != 1:
            raise SystemExit(f"FAIL smartDeviceLink.ini has no {key}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def edit_policy(pt_path, edit):
    with open(pt_path, encoding="utf-8") as f:
        table = json.load(f)
    edit(table["policy_table"])
    with open(pt_path, "w", encoding="utf-8") as f:
        json.dump(table, f, indent=1)


class CoreRun:
    """A copy of PREFIX/bin in a temporary folder (its storage/ removed, so Core reads the edited
    policy table), and the processes the check starts, with a log each; stopped in reverse."""

    def __init__(self, prefix, name):
        self.prefix = os.path.abspath(prefix)
        self.work = tempfile.mkdtemp(prefix=f"sdl-core-{name}-")
        self.run = os.path.join(self.work, "bin")
        shutil.copytree(os.path.join(self.prefix, "bin"), self.run, symlinks=True)
        shutil.rmtree(os.path.join(self.run, "storage"), ignore_errors=True)
        self.processes = []
        self.logs = []

    def start(self, name, arguments, **options):
        log = open(os.path.join(self.work, f"{name}.log"), "w")
        self.logs.append(log)
        process = subprocess.Popen(arguments, stdout=log, stderr=subprocess.STDOUT, **options)
        self.processes.append(process)
        return process

    def start_core(self):
        environment = dict(os.environ, LD_LIBRARY_PATH=f"{self.run}:{os.path.join(self.prefix, 'lib')}")
        self.start("core", ["./smartDeviceLinkCore", "smartDeviceLink.ini"], cwd=self.run, env=environment)
        wait_for_port("Core's app port 12345", 12345, timeout=60)

    def stop(self):
        for process in reversed(self.processes):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        for log in self.logs:
            log.close()


class WebSocketReader:
    """A WebSocket client that only reads (RFC 6455): the upgrade with a bearer token, then
    whole messages as (opcode, payload); the server's frames are not masked."""

    def __init__(self, host, port, path, token, timeout=30):
        import base64
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        head = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer {token}\r\n\r\n")
        self.sock.sendall(head.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise SystemExit(f"FAIL WebSocket {path}: closed during the upgrade")
            self.buffer += chunk
        answer, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not answer.startswith(b"HTTP/1.1 101"):
            raise SystemExit(f"FAIL WebSocket {path}: {answer.decode(errors='replace')}")

    def _take(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError("the WebSocket closed")
            self.buffer += chunk
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def message(self):
        """The next data message (continuations joined) as (opcode, payload); a close raises EOFError."""
        opcode, payload = None, b""
        while True:
            first, second = self._take(2)
            length = second & 0x7F
            if length == 126:
                length = int.from_bytes(self._take(2), "big")
            elif length == 127:
                length = int.from_bytes(self._take(8), "big")
            data = self._take(length)
            code = first & 0x0F
            if code == 0x8:
                raise EOFError(f"the WebSocket closed: {data[2:].decode(errors='replace')}")
            if code in (0x9, 0xA):
                continue
            opcode = opcode if code == 0 else code
            payload += data
            if first & 0x80:
                return opcode, payload

    def close(self):
        self.sock.close()
