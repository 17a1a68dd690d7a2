"""A raw SDL app in Python for CI: StartService v5, RegisterAppInterface, Show, an unknown
function id, a Heartbeat and EndService against `sdl-gateway simulate`; writes what each side sent
to two files for `sdl-gateway inspect`. Usage: sdl-smoke.py PORT APP_BYTES HEAD_UNIT_BYTES"""
import json
import socket
import struct
import sys
import time

port, app_file, head_unit_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
sock = socket.create_connection(("127.0.0.1", port), timeout=5)
sent, received = bytearray(), bytearray()


def bson_string(key, value):
    data = value.encode() + b"\0"
    return b"\x02" + key.encode() + b"\0" + struct.pack("<i", len(data)) + data


def document(elements):
    body = b"".join(elements) + b"\0"
    return struct.pack("<i", len(body) + 4) + body


def frame(frame_type, service, info, session, message_id, payload):
    return bytes([5 << 4 | frame_type, service, info, session]) + struct.pack(">II", len(payload), message_id) + payload


def rpc(function_id, correlation_id, params):
    data = json.dumps(params).encode()
    return struct.pack(">III", function_id, correlation_id, len(data)) + data


def send(data):
    sent.extend(data)
    sock.sendall(data)


def read_until(predicate, limit=5.0):
    deadline = time.time() + limit
    while not predicate(bytes(received)) and time.time() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        received.extend(chunk)


send(frame(0, 7, 1, 0, 1, document([bson_string("protocolVersion", "5.4.0")])))
read_until(lambda data: len(data) >= 12)
register = {"syncMsgVersion": {"majorVersion": 8, "minorVersion": 0}, "appName": "CI smoke", "isMediaApplication": False,
            "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "ci-smoke"}
send(frame(1, 7, 0, 1, 1, rpc(1, 1, register)))
read_until(lambda data: b'"hmiLevel":"FULL"' in data)
send(frame(1, 7, 0, 1, 2, rpc(13, 2, {"mainField1": "Hello from CI"})))
send(frame(1, 7, 0, 1, 3, rpc(999, 3, {})))
send(frame(0, 0, 0, 1, 77, b""))
read_until(lambda data: data.count(b"\xff\xff\xff\xff") >= 0 and b"Module does not recognize" in data and bytes([0x50, 0, 0xFF, 1]) in data)
send(frame(0, 7, 4, 1, 4, document([b"\x10hashId\0" + struct.pack("<i", 65537)])))
read_until(lambda data: bytes([0x50, 7, 5, 1]) in data)
sock.close()
open(app_file, "wb").write(sent)
open(head_unit_file, "wb").write(received)
print(f"sent {len(sent)} bytes, received {len(received)} bytes")
