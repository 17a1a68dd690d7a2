import SDLProtocol

extension SDLAppStateTracker {
    /// The state as the app resource shows it (docs/architecture.md, HTTP API: `GET /v1/apps/{id}`):
    /// `hmiLevel`, `audioStreamingState`, `systemContext`, `videoStreamingState` (null before
    /// the first OnHMIStatus; `hmiLevel` is "NONE" when registered without one), `appState`,
    /// `driverDistraction` ("DD_ON", "DD_OFF" or null), `lockScreen` ("REQUIRED", "OPTIONAL",
    /// "OFF"), `language`, `hmiDisplayLanguage`, `permissions` (null before OnPermissionsChange),
    /// `subscriptions {buttons, vehicleData}` and `systemCapabilities` by type.
    public var snapshot: SDLJSON {
        func string(_ value: String?) -> SDLJSON { value.map(SDLJSON.string) ?? .null }
        return [
            "hmiLevel": isRegistered ? .string(hmiLevel.rawValue) : .null,
            "audioStreamingState": string(hmiStatus?.audioStreamingState),
            "systemContext": string(hmiStatus?.systemContext),
            "videoStreamingState": string(hmiStatus?.videoStreamingState),
            "appState": .string(appState.rawValue),
            "driverDistraction": string(driverDistraction.map { $0 ? "DD_ON" : "DD_OFF" }),
            "lockScreen": .string(lockScreen.rawValue),
            "language": string(language),
            "hmiDisplayLanguage": string(hmiDisplayLanguage),
            "permissions": permissions?.json ?? .null,
            "subscriptions": [
                "buttons": .array(buttonSubscriptions.all.map(SDLJSON.string)),
                "vehicleData": .array(vehicleDataSubscriptions.all.map(SDLJSON.string)),
            ],
            "systemCapabilities": .object(systemCapabilities),
        ]
    }
}
