#!/usr/bin/env python3
"""Writes demo-drive.json: a 60-second OpenXC trace of a short city drive in Detroit.

Deterministic: the same script always writes the same bytes. Run from this folder:
    python3 make-demo-drive.py > demo-drive.json
"""
import json
import math
import random

START = 1781312100.0  # 2026-06-13T00:55:00Z
LAT0, LON0 = 42.3314, -83.0458
RATIOS = [4.17, 2.34, 1.52, 1.14, 0.87, 0.69]
GEAR_NAMES = ["first", "second", "third", "fourth", "fifth", "sixth"]
rng = random.Random(20260613)
lines = []


def emit(t, name, value, event=None):
    record = {"name": name, "value": value}
    if event is not None:
        record["event"] = event
    record["timestamp"] = round(START + t, 3)
    lines.append((t, len(lines), record))


def speed_at(t):
    """km/h: parked until 8 s, accelerate, cruise, brake to a stop, pull away again."""
    if t < 8:
        return 0.0
    if t < 20:
        return 50.0 * (t - 8) / 12
    if t < 38:
        return 50.0
    if t < 46:
        return 50.0 * (46 - t) / 8
    if t < 51:
        return 0.0
    return min(35.0, 35.0 * (t - 51) / 7)


def gear_for(kmh):
    for limit, gear in ((15, 0), (30, 1), (45, 2), (60, 3), (78, 4)):
        if kmh < limit:
            return gear
    return 5


# Getting in and starting.
emit(0.2, "door_status", "driver", True)
emit(1.6, "door_status", "driver", False)
emit(2.0, "ignition_status", "start")
emit(3.1, "ignition_status", "run")
emit(3.2, "transmission_gear_position", "park")
emit(3.3, "headlamp_status", True)
emit(3.3, "parking_brake_status", True)
emit(6.5, "brake_pedal_status", True)
emit(7.0, "parking_brake_status", False)
emit(7.5, "transmission_gear_position", "first")
emit(7.9, "brake_pedal_status", False)

# Steering-wheel buttons: a short press, a long press, a quick tap.
emit(12.0, "button_event", "up", "pressed")
emit(12.3, "button_event", "up", "released")
emit(30.0, "button_event", "ok", "pressed")
emit(30.8, "button_event", "ok", "held_long")
emit(31.4, "button_event", "ok", "released")
emit(55.0, "button_event", "right", "pressed")
emit(55.2, "button_event", "right", "released")

emit(24.0, "windshield_wiper_status", True)
emit(36.0, "windshield_wiper_status", False)
emit(26.0, "high_beam_status", True)
emit(35.0, "high_beam_status", False)
emit(38.5, "brake_pedal_status", True)
emit(52.0, "brake_pedal_status", False)

lat, lon, heading = LAT0, LON0, 90.0
odometer = 18250.3
fuel_used = 2.731
fuel_level = 47.8
gear = None
dt = 0.5
t = 0.0
while t <= 60.0 + 1e-9:
    kmh = speed_at(t)
    accel = (speed_at(t + 0.25) - speed_at(t - 0.25)) / 3.6 / 0.5
    # A left turn while pulling away after the stop.
    yaw = -90.0 / 6 if 51 <= t < 57 else 0.0
    mps = kmh / 3.6
    heading = (heading + yaw * dt) % 360
    lat += mps * dt * math.cos(math.radians(heading)) / 111320
    lon += mps * dt * math.sin(math.radians(heading)) / (111320 * math.cos(math.radians(LAT0)))
    odometer += mps * dt / 1000
    rate = 0.8 + 0.045 * kmh + (3.5 * accel * (0.5 + kmh / 60) if accel > 0.05 else 0)
    fuel_used += rate / 3600 * dt
    fuel_level -= rate / 3600 * dt / 55 * 100

    g = gear_for(kmh)
    if t >= 7.5 and g != gear and kmh > 0:
        gear = g
        emit(t + 0.01, "transmission_gear_position", GEAR_NAMES[g])
    wheel_rpm = mps / 2.07 * 60
    rpm = max(780, wheel_rpm * RATIOS[g] * 3.2 + (250 if accel > 0.05 else 0))
    emit(t, "vehicle_speed", round(kmh + (rng.uniform(-0.2, 0.2) if kmh > 0 else 0), 2))
    emit(t + 0.004, "engine_speed", round(rpm + rng.uniform(-8, 8)))
    if abs(t - round(t)) < 1e-9:
        pedal = 22 + 9 * accel if accel > 0.05 else (0 if accel < -0.05 or kmh < 0.5 else 6 + kmh * 0.12)
        force = 1500 * max(accel, 0) + 180 + 0.4 * mps * mps
        torque = -12 if accel < -0.05 else max(18, force * 0.33 / (RATIOS[g] * 3.2))
        road = math.atan(2.8 * math.radians(yaw) / max(mps, 2.0)) if mps > 0.05 else 0.0
        emit(t + 0.008, "accelerator_pedal_position", round(pedal, 1))
        emit(t + 0.012, "torque_at_transmission", round(torque, 1))
        emit(t + 0.016, "steering_wheel_angle", round(math.degrees(road) * 15 + rng.uniform(-0.5, 0.5), 1))
        emit(t + 0.020, "latitude", round(lat, 6))
        emit(t + 0.021, "longitude", round(lon, 6))
    if abs(t / 5 - round(t / 5)) < 1e-9:
        emit(t + 0.030, "fuel_level", round(fuel_level, 3))
        emit(t + 0.031, "fuel_consumed_since_restart", round(fuel_used, 6))
        emit(t + 0.032, "odometer", round(odometer, 3))
    t = round(t + dt, 3)

lines.sort(key=lambda entry: (entry[0], entry[1]))
for _, _, record in lines:
    print(json.dumps(record, separators=(",", ":")))
