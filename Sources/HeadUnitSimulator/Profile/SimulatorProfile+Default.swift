// The built-in head-unit profile. Edit the JSON below to change what the simulator reports by
// default; `--profile FILE` replaces it at run time (format: ``SimulatorProfile``).

extension SimulatorProfile {
    /// The built-in profile: a generic 8-inch (800×480) touchscreen head unit in the spirit of
    /// SDL Core's default `hmi_capabilities.json`, with the vehicle strings SDL Core 8.2 was seen
    /// sending (make "SDL", model "Generic", modelYear "2019", trim "SE",
    /// systemSoftwareVersion "12345_US"), rpc_spec 8.0.0 and Core's 100 MiB app directory quota.
    public static let `default`: SimulatorProfile = {
        do {
            return try SimulatorProfile(json: Array(defaultJSON.utf8))
        } catch {
            preconditionFailure("the built-in simulator profile is invalid: \(error)")
        }
    }()

    /// The text of the built-in profile.
    public static let defaultJSON = #"""
{
  "language": "EN-US",
  "hmiDisplayLanguage": "EN-US",
  "supportedLanguages": [
    "EN-US", "ES-MX", "FR-CA", "DE-DE", "ES-ES", "EN-GB", "RU-RU", "TR-TR", "PL-PL", "FR-FR",
    "IT-IT", "SV-SE", "PT-PT", "NL-NL", "EN-AU", "ZH-CN", "ZH-TW", "JA-JP", "AR-SA", "KO-KR",
    "PT-BR", "CS-CZ", "DA-DK", "NO-NO", "NL-BE", "EL-GR", "HU-HU", "FI-FI", "SK-SK", "EN-IN",
    "TH-TH", "EN-SA", "HE-IL", "RO-RO", "UK-UA", "ID-ID", "VI-VN", "MS-MY", "HI-IN"
  ],
  "syncMsgVersion": {"majorVersion": 8, "minorVersion": 0, "patchVersion": 0},
  "sdlVersion": "8.2.0",
  "systemSoftwareVersion": "12345_US",
  "vehicleType": {"make": "SDL", "model": "Generic", "modelYear": "2019", "trim": "SE"},
  "appDirectoryQuota": 104857600,
  "displayCapabilities": {
    "displayType": "SDL_GENERIC",
    "displayName": "GENERIC_DISPLAY",
    "textFields": [
      {"name": "mainField1", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "mainField2", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "mainField3", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "mainField4", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "statusBar", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "mediaClock", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "mediaTrack", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "templateTitle", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "alertText1", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "alertText2", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "alertText3", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "scrollableMessageBody", "characterSet": "UTF_8", "width": 500, "rows": 8},
      {"name": "initialInteractionText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "navigationText1", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "navigationText2", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "ETA", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "totalDistance", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "audioPassThruDisplayText1", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "audioPassThruDisplayText2", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "sliderHeader", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "sliderFooter", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "menuName", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "secondaryText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "tertiaryText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "menuTitle", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "locationName", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "locationDescription", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "addressLines", "characterSet": "UTF_8", "width": 500, "rows": 4},
      {"name": "phoneNumber", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "timeToDestination", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "turnText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "subtleAlertText1", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "subtleAlertText2", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "subtleAlertSoftButtonText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "menuCommandSecondaryText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "menuCommandTertiaryText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "menuSubMenuSecondaryText", "characterSet": "UTF_8", "width": 500, "rows": 1},
      {"name": "menuSubMenuTertiaryText", "characterSet": "UTF_8", "width": 500, "rows": 1}
    ],
    "imageFields": [
      {
        "name": "softButtonImage",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 70, "resolutionHeight": 70}
      },
      {
        "name": "choiceImage",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 70, "resolutionHeight": 70}
      },
      {
        "name": "choiceSecondaryImage",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 35, "resolutionHeight": 35}
      },
      {
        "name": "vrHelpItem",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 35, "resolutionHeight": 35}
      },
      {
        "name": "turnIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 35, "resolutionHeight": 35}
      },
      {
        "name": "menuIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 35, "resolutionHeight": 35}
      },
      {
        "name": "cmdIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 70, "resolutionHeight": 70}
      },
      {
        "name": "appIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 70, "resolutionHeight": 70}
      },
      {
        "name": "graphic",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 360, "resolutionHeight": 360}
      },
      {
        "name": "secondaryGraphic",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 360, "resolutionHeight": 360}
      },
      {
        "name": "showConstantTBTIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 64, "resolutionHeight": 64}
      },
      {
        "name": "showConstantTBTNextTurnIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 64, "resolutionHeight": 64}
      },
      {
        "name": "locationImage",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 128, "resolutionHeight": 128}
      },
      {
        "name": "alertIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 105, "resolutionHeight": 105}
      },
      {
        "name": "subMenuIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 70, "resolutionHeight": 70}
      },
      {
        "name": "subtleAlertIcon",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 105, "resolutionHeight": 105}
      },
      {
        "name": "menuCommandSecondaryImage",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 35, "resolutionHeight": 35}
      },
      {
        "name": "menuSubMenuSecondaryImage",
        "imageTypeSupported": ["GRAPHIC_BMP", "GRAPHIC_JPEG", "GRAPHIC_PNG"],
        "imageResolution": {"resolutionWidth": 35, "resolutionHeight": 35}
      }
    ],
    "mediaClockFormats": ["CLOCK1", "CLOCK2", "CLOCK3", "CLOCKTEXT1", "CLOCKTEXT2", "CLOCKTEXT3", "CLOCKTEXT4"],
    "graphicSupported": true,
    "templatesAvailable": [
      "DEFAULT", "MEDIA", "NON-MEDIA", "ONSCREEN_PRESETS", "NAV_FULLSCREEN_MAP", "NAV_LIST",
      "NAV_KEYBOARD", "GRAPHIC_WITH_TEXT", "TEXT_WITH_GRAPHIC", "TILES_ONLY", "TEXTBUTTONS_ONLY",
      "GRAPHIC_WITH_TILES", "TILES_WITH_GRAPHIC", "GRAPHIC_WITH_TEXT_AND_SOFTBUTTONS",
      "TEXT_AND_SOFTBUTTONS_WITH_GRAPHIC", "GRAPHIC_WITH_TEXTBUTTONS", "TEXTBUTTONS_WITH_GRAPHIC",
      "LARGE_GRAPHIC_WITH_SOFTBUTTONS", "DOUBLE_GRAPHIC_WITH_SOFTBUTTONS", "LARGE_GRAPHIC_ONLY",
      "WEB_VIEW"
    ],
    "screenParams": {
      "resolution": {"resolutionWidth": 800, "resolutionHeight": 480},
      "touchEventAvailable": {"pressAvailable": true, "multiTouchAvailable": true, "doublePressAvailable": false}
    },
    "numCustomPresetsAvailable": 10
  },
  "buttonCapabilities": [
    {"name": "OK", "shortPressAvailable": true, "longPressAvailable": true, "upDownAvailable": true},
    {
      "name": "PLAY_PAUSE",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "SEEKLEFT",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "SEEKRIGHT",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "TUNEUP",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "TUNEDOWN",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_0",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_1",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_2",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_3",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_4",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_5",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_6",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_7",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_8",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "PRESET_9",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    },
    {
      "name": "SEARCH",
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true
    }
  ],
  "softButtonCapabilities": [
    {
      "shortPressAvailable": true,
      "longPressAvailable": true,
      "upDownAvailable": true,
      "imageSupported": true,
      "textSupported": true
    }
  ],
  "presetBankCapabilities": {"onScreenPresetsAvailable": true},
  "hmiZoneCapabilities": ["FRONT"],
  "speechCapabilities": ["TEXT", "PRE_RECORDED", "SAPI_PHONEMES", "LHPLUS_PHONEMES", "SILENCE", "FILE"],
  "prerecordedSpeech": ["HELP_JINGLE", "INITIAL_JINGLE", "LISTEN_JINGLE", "POSITIVE_JINGLE", "NEGATIVE_JINGLE"],
  "vrCapabilities": ["TEXT"],
  "audioPassThruCapabilities": [{"samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"}],
  "pcmStreamCapabilities": {"samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"},
  "hmiCapabilities": {
    "navigation": true,
    "phoneCall": true,
    "videoStreaming": true,
    "remoteControl": true,
    "appServices": true,
    "displays": true,
    "seatLocation": true,
    "driverDistraction": true
  },
  "displays": {
    "windowTypeSupported": [{"type": "MAIN", "maximumNumberOfWindows": 1}, {"type": "WIDGET", "maximumNumberOfWindows": 2}],
    "mainWindow": {
      "imageTypeSupported": ["STATIC", "DYNAMIC"],
      "menuLayoutsAvailable": ["LIST", "TILES"],
      "dynamicUpdateCapabilities": {
        "supportedDynamicImageFieldNames": ["subMenuIcon", "menuIcon"],
        "supportsDynamicSubMenus": true
      },
      "keyboardCapabilities": {
        "maskInputCharactersSupported": true,
        "supportedKeyboards": [
          {"keyboardLayout": "QWERTY", "numConfigurableKeys": 0},
          {"keyboardLayout": "QWERTZ", "numConfigurableKeys": 0},
          {"keyboardLayout": "AZERTY", "numConfigurableKeys": 0},
          {"keyboardLayout": "NUMERIC", "numConfigurableKeys": 0}
        ]
      }
    }
  },
  "systemCapabilities": {
    "NAVIGATION": {"sendLocationEnabled": true, "getWayPointsEnabled": true},
    "PHONE_CALL": {"dialNumberEnabled": true},
    "VIDEO_STREAMING": {
      "preferredResolution": {"resolutionWidth": 800, "resolutionHeight": 350},
      "maxBitrate": 10000,
      "supportedFormats": [
        {"protocol": "RAW", "codec": "H264"},
        {"protocol": "RTP", "codec": "H264"},
        {"protocol": "RTSP", "codec": "Theora"},
        {"protocol": "RTMP", "codec": "VP8"},
        {"protocol": "WEBM", "codec": "VP9"}
      ],
      "hapticSpatialDataSupported": true,
      "diagonalScreenSize": 8.0,
      "pixelPerInch": 117.0,
      "scale": 1.0,
      "preferredFPS": 15
    },
    "REMOTE_CONTROL": {
      "climateControlCapabilities": [
        {
          "moduleName": "Climate",
          "moduleInfo": {
            "moduleId": "34045662-a9dc-4823-8435-91056d4c26cb",
            "location": {"col": 0, "row": 0, "level": 0, "colspan": 1, "rowspan": 1, "levelspan": 1},
            "serviceArea": {"col": 0, "row": 0, "level": 0, "colspan": 3, "rowspan": 2, "levelspan": 1},
            "allowMultipleAccess": true
          },
          "currentTemperatureAvailable": true,
          "fanSpeedAvailable": true,
          "desiredTemperatureAvailable": true,
          "acEnableAvailable": true,
          "acMaxEnableAvailable": true,
          "circulateAirEnableAvailable": true,
          "autoModeEnableAvailable": true,
          "dualModeEnableAvailable": true,
          "defrostZoneAvailable": true,
          "defrostZone": ["FRONT", "REAR", "ALL", "NONE"],
          "ventilationModeAvailable": true,
          "ventilationMode": ["UPPER", "LOWER", "BOTH", "NONE"],
          "heatedSteeringWheelAvailable": true,
          "heatedWindshieldAvailable": true,
          "heatedRearWindowAvailable": true,
          "heatedMirrorsAvailable": true,
          "climateEnableAvailable": true
        }
      ],
      "radioControlCapabilities": [
        {
          "moduleName": "Radio",
          "moduleInfo": {
            "moduleId": "00bd6d93-e093-4bf0-9784-281febe41bed",
            "location": {"col": 0, "row": 0, "level": 0, "colspan": 1, "rowspan": 1, "levelspan": 1},
            "serviceArea": {"col": 0, "row": 0, "level": 0, "colspan": 3, "rowspan": 2, "levelspan": 1},
            "allowMultipleAccess": true
          },
          "radioEnableAvailable": true,
          "radioBandAvailable": true,
          "radioFrequencyAvailable": true,
          "hdChannelAvailable": true,
          "rdsDataAvailable": true,
          "availableHdChannelsAvailable": true,
          "stateAvailable": true,
          "signalStrengthAvailable": true,
          "signalChangeThresholdAvailable": true,
          "sisDataAvailable": true,
          "hdRadioEnableAvailable": true,
          "siriusxmRadioAvailable": true
        }
      ],
      "buttonCapabilities": [
        {
          "name": "AC_MAX",
          "moduleInfo": {"moduleId": "34045662-a9dc-4823-8435-91056d4c26cb", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "AC",
          "moduleInfo": {"moduleId": "34045662-a9dc-4823-8435-91056d4c26cb", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "RECIRCULATE",
          "moduleInfo": {"moduleId": "34045662-a9dc-4823-8435-91056d4c26cb", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "FAN_UP",
          "moduleInfo": {"moduleId": "34045662-a9dc-4823-8435-91056d4c26cb", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "FAN_DOWN",
          "moduleInfo": {"moduleId": "34045662-a9dc-4823-8435-91056d4c26cb", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "TEMP_UP",
          "moduleInfo": {"moduleId": "34045662-a9dc-4823-8435-91056d4c26cb", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "TEMP_DOWN",
          "moduleInfo": {"moduleId": "34045662-a9dc-4823-8435-91056d4c26cb", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "VOLUME_UP",
          "moduleInfo": {"moduleId": "00bd6d93-e093-4bf0-9784-281febe41bed", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "VOLUME_DOWN",
          "moduleInfo": {"moduleId": "00bd6d93-e093-4bf0-9784-281febe41bed", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "SOURCE",
          "moduleInfo": {"moduleId": "00bd6d93-e093-4bf0-9784-281febe41bed", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "SHUFFLE",
          "moduleInfo": {"moduleId": "00bd6d93-e093-4bf0-9784-281febe41bed", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        },
        {
          "name": "REPEAT",
          "moduleInfo": {"moduleId": "00bd6d93-e093-4bf0-9784-281febe41bed", "allowMultipleAccess": true},
          "shortPressAvailable": true,
          "longPressAvailable": true,
          "upDownAvailable": false
        }
      ]
    },
    "SEAT_LOCATION": {
      "rows": 2,
      "columns": 3,
      "levels": 1,
      "seats": [
        {"grid": {"col": 0, "row": 0, "level": 0, "colspan": 1, "rowspan": 1, "levelspan": 1}},
        {"grid": {"col": 2, "row": 0, "level": 0, "colspan": 1, "rowspan": 1, "levelspan": 1}},
        {"grid": {"col": 0, "row": 1, "level": 0, "colspan": 1, "rowspan": 1, "levelspan": 1}},
        {"grid": {"col": 2, "row": 1, "level": 0, "colspan": 1, "rowspan": 1, "levelspan": 1}}
      ]
    },
    "DRIVER_DISTRACTION": {"menuLength": 10, "subMenuDepth": 3},
    "APP_SERVICES": {"appServices": []}
  }
}
"""#
}
