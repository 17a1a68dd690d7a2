#!/usr/bin/env python3
"""Builds the simulator's built-in profile from SDL Core's stock hmi_capabilities.json.

  Scripts/core-profile.py HMI_CAPABILITIES BASE_PROFILE > Sources/HeadUnitSimulator/Resources/default-profile.json

HMI_CAPABILITIES is the file deploy/sdl_core/build-sdl-core.sh installs in PREFIX/bin (Core 8.2.0's
src/appMain/hmi_capabilities.json). BASE_PROFILE is a simulator profile (the `full` one,
Resources/full-profile.json) giving what Core's file does not hold: the vehicle strings, versions,
diagnostic modes, the app directory quota, and the REMOTE_CONTROL, SEAT_LOCATION and APP_SERVICES
capabilities (Core's RC section is in the HMI API's shape).

The result is what a real Core 8.2 sends apps from its stock file (its RegisterAppInterface
response was captured to check it), with one change: image fields that Core's file lists without
`imageTypeSupported`, which MOBILE_API.xml makes mandatory, get Core's three graphic types so that
every response stays valid.
"""
import json
import sys

GRAPHIC_TYPES = ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        core = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        base = json.load(f)
    ui, tts, vr, buttons = core["UI"], core["TTS"], core["VR"], core["Buttons"]

    display = dict(ui["displayCapabilities"])
    image_types = display.pop("imageCapabilities", None)
    menu_layouts = display.pop("menuLayoutsAvailable", None)
    display["imageFields"] = [
        field if "imageTypeSupported" in field else dict(field, imageTypeSupported=GRAPHIC_TYPES)
        for field in display.get("imageFields", [])
    ]
    main_window = {}
    if image_types:
        main_window["imageTypeSupported"] = image_types
    if menu_layouts:
        main_window["menuLayoutsAvailable"] = menu_layouts

    system = {}
    for key, name in [("navigationCapability", "NAVIGATION"), ("phoneCapability", "PHONE_CALL"),
                      ("videoStreamingCapability", "VIDEO_STREAMING"), ("driverDistractionCapability", "DRIVER_DISTRACTION")]:
        if key in ui.get("systemCapabilities", {}):
            system[name] = ui["systemCapabilities"][key]
    # Core's RC section is in the HMI API's shape (its seats are not the mobile API's SeatLocation):
    # the base profile's remote control, seat location and app services stand for it.
    for name in ["REMOTE_CONTROL", "SEAT_LOCATION", "APP_SERVICES"]:
        if name in base.get("systemCapabilities", {}):
            system[name] = base["systemCapabilities"][name]

    zone = ui["hmiZoneCapabilities"]
    profile = {
        "language": ui["language"],
        "hmiDisplayLanguage": ui["language"],
        "supportedLanguages": ui["languages"],
        "displayCapabilities": display,
        "displays": {"windowTypeSupported": [{"type": "MAIN", "maximumNumberOfWindows": 1}], "mainWindow": main_window},
        "buttonCapabilities": buttons["capabilities"],
        "presetBankCapabilities": buttons["presetBankCapabilities"],
        "softButtonCapabilities": ui["softButtonCapabilities"],
        "hmiZoneCapabilities": zone if isinstance(zone, list) else [zone],
        "speechCapabilities": tts["speechCapabilities"],
        "prerecordedSpeech": tts["prerecordedSpeechCapabilities"],
        "vrCapabilities": vr["vrCapabilities"],
        "audioPassThruCapabilities": ui["audioPassThruCapabilities"],
        "pcmStreamCapabilities": ui["pcmStreamCapabilities"],
        # The file's navigation/phoneCall/videoStreaming; Core adds the others (seen on the wire).
        "hmiCapabilities": dict(base["hmiCapabilities"], **ui["hmiCapabilities"]),
        "systemCapabilities": system,
        "vehicleType": core.get("VehicleInfo", {}).get("vehicleType", base["vehicleType"]),
    }
    for key in ["sdlVersion", "syncMsgVersion", "systemSoftwareVersion", "supportedDiagModes", "appDirectoryQuota"]:
        if key in base:
            profile[key] = base[key]
    json.dump(profile, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
