import SDLClient
import SDLTransport

/// Whether an app asked for by `PUT /v1/apps/{id}` is the app already there: the same head unit
/// and the same RegisterAppInterface parameters (MOBILE_API.xml 8.0.0; docs/protocol.md §f), each
/// compared after ``AppCreateBody`` filled in the spec's defaults, so a body that leaves out
/// `languageDesired` matches an app created with `EN-US`. `wait` and `id` are not registration
/// parameters; `hashID` is the session's own resumption state, never the client's.
enum AppRegistrationComparison {
    /// The body members in which `requested` differs from `existing` (`core` first, then the
    /// RegisterAppInterface parameters); empty when they match.
    static func differences(
        existing: SDLAppConfiguration, existingCore: SDLTransportAddress, requested: SDLAppConfiguration, requestedCore: SDLTransportAddress
    ) -> [String] {
        var names: [String] = []
        func compare<Value: Equatable>(_ name: String, _ value: KeyPath<SDLAppConfiguration, Value>) {
            if existing[keyPath: value] != requested[keyPath: value] { names.append(name) }
        }
        if !sameHeadUnit(existingCore, requestedCore) { names.append("core") }
        compare("appName", \.appName)
        compare("appID", \.appID)
        compare("fullAppID", \.fullAppID)
        compare("isMediaApplication", \.isMediaApplication)
        compare("appHMIType", \.appHMIType)
        compare("languageDesired", \.languageDesired)
        compare("hmiDisplayLanguageDesired", \.hmiDisplayLanguageDesired)
        compare("ttsName", \.ttsName)
        compare("vrSynonyms", \.vrSynonyms)
        compare("ngnMediaScreenAppName", \.ngnMediaScreenAppName)
        compare("dayColorScheme", \.dayColorScheme)
        compare("nightColorScheme", \.nightColorScheme)
        compare("deviceInfo", \.deviceInfo)
        compare("syncMsgVersion", \.syncMsgVersion)
        compare("appIcon", \.appIcon)
        return names
    }

    /// The same head unit: scheme, host (case-insensitive), port and, for WebSocket, request path.
    static func sameHeadUnit(_ one: SDLTransportAddress, _ other: SDLTransportAddress) -> Bool {
        one.scheme == other.scheme && one.host.lowercased() == other.host.lowercased() && one.port == other.port && one.path == other.path
    }
}
