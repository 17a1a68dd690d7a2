import HeadUnitModel
import SDLProtocol

/// What the headless HMI answers Core's requests with (HMI_API.xml responses): capabilities,
/// languages, system information and vehicle type from a head-unit profile (the simulator's, so
/// that the HMI and the simulator describe the same head unit), vehicle data from the latest
/// sample, and SUCCESS with the mandatory parameters for everything else.
public struct HMIAnswers: Sendable {
    public let profile: SimulatorProfile
    /// The latest vehicle data sample, by mobile API name.
    public var vehicleData: [String: SDLJSON] = [:]

    public init(profile: SimulatorProfile) {
        self.profile = profile
    }

    private var document: [String: SDLJSON] { profile.document }

    /// The result code and parameters of `method`'s response.
    public func answer(to method: String, params: [String: SDLJSON]) -> (HMIResult, [String: SDLJSON]) {
        if method.hasSuffix(".IsReady") { return (.success, ["available": true]) }
        let language = SDLJSON.string(profile.language)
        switch method {
        case "UI.GetCapabilities":
            var result: [String: SDLJSON] = [:]
            result["displayCapabilities"] = document["displayCapabilities"]
            let passThru = document["audioPassThruCapabilities"]?.arrayValue ?? []
            result["audioPassThruCapabilities"] =
                passThru.first ?? ["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"]
            result["audioPassThruCapabilitiesList"] = .array(passThru)
            result["hmiZoneCapabilities"] = document["hmiZoneCapabilities"]?.arrayValue?.first ?? "FRONT"
            result["softButtonCapabilities"] = document["softButtonCapabilities"]
            result["hmiCapabilities"] = document["hmiCapabilities"]
            result["pcmStreamCapabilities"] = document["pcmStreamCapabilities"]
            let system = systemCapabilities
            if !system.isEmpty { result["systemCapabilities"] = .object(system) }
            return (.success, result.filter { $0.value != .null })
        case "VR.GetCapabilities":
            return (.success, ["vrCapabilities": document["vrCapabilities"] ?? ["TEXT"]])
        case "TTS.GetCapabilities":
            return (
                .success,
                [
                    "speechCapabilities": document["speechCapabilities"] ?? ["TEXT"],
                    "prerecordedSpeechCapabilities": document["prerecordedSpeech"] ?? [],
                ]
            )
        case "Buttons.GetCapabilities":
            var result: [String: SDLJSON] = ["capabilities": document["buttonCapabilities"] ?? []]
            result["presetBankCapabilities"] = document["presetBankCapabilities"]
            return (.success, result)
        case "UI.GetLanguage", "VR.GetLanguage", "TTS.GetLanguage":
            return (.success, ["language": method == "UI.GetLanguage" ? .string(profile.hmiDisplayLanguage) : language])
        case "UI.GetSupportedLanguages", "VR.GetSupportedLanguages", "TTS.GetSupportedLanguages":
            return (.success, ["languages": .array(profile.supportedLanguages.map { .string($0) })])
        case "BasicCommunication.GetSystemInfo":
            return (
                .success,
                [
                    "ccpu_version": .string(profile.startServiceVehicleInfo.systemSoftwareVersion ?? "sdl-gateway-hmi"),
                    "language": language, "wersCountryCode": "WAEGB",
                ]
            )
        case "BasicCommunication.MixingAudioSupported":
            return (.success, ["attenuatedSupported": true])
        case "VehicleInfo.GetVehicleType":
            return (.success, ["vehicleType": document["vehicleType"] ?? ["make": "SDL"]])
        case "VehicleInfo.GetVehicleData":
            let values = params.keys.filter { $0 != "appID" }.compactMap { name in vehicleData[name].map { (name, $0) } }
            return values.isEmpty && params.keys.contains(where: { $0 != "appID" })
                ? (.dataNotAvailable, [:]) : (.success, Dictionary(uniqueKeysWithValues: values))
        case "VehicleInfo.SubscribeVehicleData", "VehicleInfo.UnsubscribeVehicleData":
            var result: [String: SDLJSON] = [:]
            for name in params.keys where name != "appID" {
                let known = SubscriptionVehicleData.dataTypes[name]
                result[name] = [
                    "dataType": .string(known ?? "VEHICLEDATA_OEM_CUSTOM_DATA"),
                    "resultCode": known == nil ? "DATA_NOT_AVAILABLE" : "SUCCESS",
                ]
            }
            return (.success, result)
        case "BasicCommunication.GetSystemTime":
            return (.success, ["systemTime": ["millisecond": 0, "second": 0, "minute": 0, "hour": 12, "day": 1, "month": 1, "year": 2026]])
        case "SDL.ActivateApp":
            return (
                .success,
                ["isSDLAllowed": true, "isPermissionsConsentNeeded": false, "isAppPermissionsRevoked": false, "isAppRevoked": false]
            )
        default:
            return (.success, [:])
        }
    }
}
