"""The security issue's transcript against `sdl-gateway serve --simulate` with a read and a control
token, as a user would run it: a read token's WebSocket RPC is refused and never reaches the head
unit; a browser's credentials (subprotocol, ticket) work once and are never echoed; static files
need no token; guessing tokens gets 429; 101 closed SSE streams and 101 closed WebSockets leave no
event client and lock nobody out. Usage: auth-smoke.py BASE_URL READ_TOKEN CONTROL_TOKEN"""
import base64
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time
import urllib.error
import urllib.request

base, read_token, control_token = sys.argv[1], sys.argv[2], sys.argv[3]
host, port = re.match(r"http://([^:/]+):(\d+)", base).groups()
port = int(port)


def http(method, path, token=None, body=None, headers=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def check(name, condition, detail=""):
    if not condition:
        print(f"FAIL {name}: {detail}")
        sys.exit(1)
    print(f"ok   {name}")


class WebSocket:
    """Just enough RFC 6455 for text messages: a masked client frame out, unmasked frames in."""

    def __init__(self, path, headers):
        self.sock = socket.create_connection((host, port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}", "Upgrade: websocket", "Connection: Upgrade",
                 "Sec-WebSocket-Version: 13", f"Sec-WebSocket-Key: {key}"] + headers
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        self.head = head.decode()

    def send(self, value):
        data = json.dumps(value).encode()
        mask = os.urandom(4)
        header = bytes([0x81]) + (bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(data)))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self):
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._read(8))[0]
        payload = self._read(length)
        return first & 0x0F, payload

    def until(self, predicate):
        while True:
            opcode, payload = self.receive()
            if opcode == 1:
                message = json.loads(payload)
                if predicate(message):
                    return message

    def close(self):
        self.sock.close()


def event_clients():
    status, text = http("GET", "/metrics", read_token)
    match = re.search(r"^sdl_gateway_event_clients(?:\{[^}]*\})? (\d+)", text, re.M)
    return int(match.group(1)) if match else 0


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


status, _ = http("POST", "/v1/apps", control_token, {"id": "s", "appName": "Smoke", "appID": "smoke-app"})
check("register with the control token", status == 201, status)
status, _ = http("POST", "/v1/apps/s/rpc/Show", read_token, {"mainField1": "read"})
check("POST rpc/Show with the read token: 403", status == 403, status)

def shows():
    return http("GET", "/v1/simulator/log?limit=1000", read_token)[1].count('"function":"Show"')

before = shows()
ws = WebSocket("/v1/apps/s/events?types=connection", [f"Authorization: Bearer {read_token}"])
check("WebSocket with the read token opens", ws.head.startswith("HTTP/1.1 101"), ws.head)
ws.send({"id": "c1", "function": "Show", "params": {"mainField1": "read over ws"}})
reply = ws.until(lambda m: m.get("id") == "c1")
check("its RPC is answered 403 forbidden", reply["status"] == 403 and reply["problem"]["type"].endswith(":forbidden"), reply)
ws.close()
check("and never reached the head unit", shows() == before, f"{before} -> {shows()}")

ws = WebSocket("/v1/apps/s/events?types=connection", [f"Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.{control_token}"])
check("browser subprotocol: 101 selecting sdl-gateway.v1", ws.head.startswith("HTTP/1.1 101") and "sec-websocket-protocol: sdl-gateway.v1" in ws.head.lower(), ws.head)
check("the token is not echoed", control_token not in ws.head)
ws.send({"id": "c2", "function": "Show", "params": {"mainField1": "control over ws"}})
reply = ws.until(lambda m: m.get("id") == "c2")
check("the control token's RPC succeeds", reply["status"] == 200 and reply["response"]["resultCode"] == "SUCCESS", reply)
ws.close()

ws = WebSocket("/v1/apps/s/events", ["Sec-WebSocket-Protocol: sdl-gateway.v1, bearer.wrongtoken9"])
check("a wrong subprotocol token: 401 with the problem, no upgrade", ws.head.startswith("HTTP/1.1 401") and "application/problem+json" in ws.head.lower(), ws.head)
ws.sock.close()

for path in ["/", "/openapi.yaml"]:
    status, _ = http("GET", path)
    check(f"GET {path} without a token: 200", status == 200, status)
status, _ = http("GET", "/v1/apps")
check("GET /v1/apps without a token: 401", status == 401, status)

status, body = http("POST", "/v1/tickets", read_token)
ticket = json.loads(body)["ticket"]
check("POST /v1/tickets with the read token: 201", status == 201 and json.loads(body)["expiresIn"] == 30, body)
curl = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-m", "0.5", "-H", "Accept: text/event-stream"]
code = subprocess.run(curl + [f"{base}/v1/apps/s/events?ticket={ticket}"], capture_output=True, text=True).stdout
check("EventSource-style SSE with the ticket: 200", code == "200", code)
code = subprocess.run(curl + [f"{base}/v1/apps/s/events?ticket={ticket}"], capture_output=True, text=True).stdout
check("the same ticket again: 401", code == "401", code)

gateway_pid = int(sys.argv[4]) if len(sys.argv) > 4 else None
rss_before = rss_kib(gateway_pid) if gateway_pid else 0
started = time.monotonic()
for _ in range(101):
    subprocess.run(curl[:-2] + ["-m", "0.3", "-H", "Accept: text/event-stream", "-H", f"Authorization: Bearer {read_token}", f"{base}/v1/apps/s/events"],
                   capture_output=True)
for _ in range(101):
    WebSocket("/v1/apps/s/events?types=buttonPress", [f"Authorization: Bearer {read_token}"]).close()
deadline = time.monotonic() + 1
while event_clients() > 0 and time.monotonic() < deadline:
    time.sleep(0.05)
print(f"     101 SSE (curl -m 0.3) and 101 WebSocket cycles in {time.monotonic() - started:.1f} s")
check("no event client counted a second later", event_clients() == 0, event_clients())
code = subprocess.run(curl[:-2] + ["-m", "0.5", "-H", "Accept: text/event-stream", "-H", f"Authorization: Bearer {read_token}", f"{base}/v1/apps/s/events"],
                      capture_output=True, text=True).stdout
check("the next stream is admitted", code == "200", code)
if gateway_pid:
    growth = rss_kib(gateway_pid) - rss_before
    print(f"     gateway RSS {rss_before} KiB before, {rss_before + growth} KiB after")
    check("RSS grew less than 16 MiB", growth < 16 * 1024, growth)

# Two failures above (no token, a used ticket) count too: the budget is 20 a minute per address.
statuses = [http("GET", "/v1/apps", f"guess-{i}")[0] for i in range(21)]
first_429 = statuses.index(429) if 429 in statuses else None
check("guessing tokens: 401 until the budget is spent, then 429", first_429 is not None and set(statuses[:first_429]) == {401}
      and set(statuses[first_429:]) == {429}, statuses)
status, _ = http("GET", "/v1/health")
check("health stays open", status == 200, status)
print("auth smoke passed")
