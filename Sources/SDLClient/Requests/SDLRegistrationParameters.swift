import SDLProtocol
import SDLSpec

/// The RegisterAppInterface request of an ``SDLAppConfiguration`` (MOBILE_API.xml 8.0.0,
/// FunctionID 1; docs/protocol.md §f), checked before anything is sent, and the reading of its
/// response's `resultCode`.
///
/// Checks, each failing with ``SDLClientError/Code/invalidParameters`` naming the field:
/// - the RPC spec: ``SDLCatalog/validate(_:against:maximumDepth:)`` against the
///   RegisterAppInterface request (lengths, array sizes, enums, ranges, color schemes);
/// - SDL Core's syntax check (`CommandImpl::CheckSyntax`, docs/protocol.md §e "Registration and
///   limits"), which answers `INVALID_DATA`: `appName` empty or all white space, or any of
///   `appName`, a non-empty `ttsName` text, `ngnMediaScreenAppName` holding a tab or newline, or
///   the two-character texts `\t` / `\n`. The client applies the same check to `appID`,
///   `fullAppID`, `vrSynonyms` and `hashID`, which no head unit can want blank or multi-line.
public enum SDLRegistrationParameters {
    /// The function name of the request.
    public static let functionName = "RegisterAppInterface"
    /// Its FunctionID (docs/protocol.md §g).
    public static let functionID: UInt32 = 1

    /// What a RegisterAppInterface `resultCode` means for the session.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// The app is registered: SUCCESS, WARNINGS, WRONG_LANGUAGE (registered with the head
        /// unit's language) or RESUME_FAILED (registered, but resumption data was dropped;
        /// docs/protocol.md §k "Resumption").
        case registered
        /// The app is not registered and the session must close (e.g. DISALLOWED,
        /// DUPLICATE_NAME, APPLICATION_REGISTERED_ALREADY, INVALID_DATA, GENERIC_ERROR).
        case fatal
    }

    /// The result codes of a RegisterAppInterface response that leave the app registered.
    public static let registeredResultCodes: Set<String> = ["SUCCESS", "WARNINGS", "WRONG_LANGUAGE", "RESUME_FAILED"]

    /// Whether a RegisterAppInterface response with `resultCode` left the app registered.
    public static func classify(resultCode: String) -> Outcome {
        registeredResultCodes.contains(resultCode) ? .registered : .fatal
    }

    /// The JSON parameters of the RegisterAppInterface request for `configuration`, with the
    /// spec's defaults filled in; throws ``SDLClientError/Code/invalidParameters`` naming the
    /// first bad field.
    public static func make(from configuration: SDLAppConfiguration, catalog: SDLCatalog = .builtIn) throws(SDLClientError) -> SDLJSON {
        try checkSyntax(configuration)
        let parameters = json(of: configuration)
        guard let function = catalog.function(named: functionName, messageType: .request) else {
            throw SDLClientError(.unknownFunction, "the RPC catalog has no \(functionName) request")
        }
        if let issue = catalog.validate(parameters, against: function).first {
            throw SDLClientError(.invalidParameters, "\(functionName) \(issue.message)")
        }
        return parameters
    }

    /// The JSON of `configuration`, unchecked: empty arrays and `nil` values are left out.
    public static func json(of configuration: SDLAppConfiguration) -> SDLJSON {
        var members: [String: SDLJSON] = [
            "appName": .string(configuration.appName),
            "appID": .string(configuration.appID),
            "isMediaApplication": .bool(configuration.isMediaApplication),
            "languageDesired": .string(configuration.languageDesired),
            "hmiDisplayLanguageDesired": .string(configuration.hmiDisplayLanguageDesired),
            "syncMsgVersion": [
                "majorVersion": .int(Int64(configuration.syncMsgVersion.major)),
                "minorVersion": .int(Int64(configuration.syncMsgVersion.minor)),
                "patchVersion": .int(Int64(configuration.syncMsgVersion.patch)),
            ],
        ]
        if let fullAppID = configuration.fullAppID { members["fullAppID"] = .string(fullAppID) }
        if !configuration.appHMIType.isEmpty { members["appHMIType"] = .array(configuration.appHMIType.map { .string($0) }) }
        if !configuration.ttsName.isEmpty {
            members["ttsName"] = .array(configuration.ttsName.map { ["text": .string($0.text), "type": .string($0.type)] })
        }
        if !configuration.vrSynonyms.isEmpty { members["vrSynonyms"] = .array(configuration.vrSynonyms.map { .string($0) }) }
        if let name = configuration.ngnMediaScreenAppName { members["ngnMediaScreenAppName"] = .string(name) }
        if let scheme = configuration.dayColorScheme { members["dayColorScheme"] = scheme }
        if let scheme = configuration.nightColorScheme { members["nightColorScheme"] = scheme }
        if let hashID = configuration.hashID { members["hashID"] = .string(hashID) }
        if let info = configuration.deviceInfo {
            var device: [String: SDLJSON] = [:]
            if let value = info.hardware { device["hardware"] = .string(value) }
            if let value = info.firmwareRev { device["firmwareRev"] = .string(value) }
            if let value = info.os { device["os"] = .string(value) }
            if let value = info.osVersion { device["osVersion"] = .string(value) }
            if let value = info.carrier { device["carrier"] = .string(value) }
            if let value = info.maxNumberRFCOMMPorts { device["maxNumberRFCOMMPorts"] = .int(Int64(value)) }
            members["deviceInfo"] = .object(device)
        }
        return .object(members)
    }

    /// SDL Core's `CheckSyntax` rules and the client's own (see the type's documentation).
    private static func checkSyntax(_ configuration: SDLAppConfiguration) throws(SDLClientError) {
        try requireNotBlank(configuration.appName, field: "appName")
        try requireSingleLine(configuration.appName, field: "appName")
        try requireNotBlank(configuration.appID, field: "appID")
        try requireSingleLine(configuration.appID, field: "appID")
        if let fullAppID = configuration.fullAppID {
            try requireNotBlank(fullAppID, field: "fullAppID")
            try requireSingleLine(fullAppID, field: "fullAppID")
        }
        for (index, chunk) in configuration.ttsName.enumerated() where !chunk.text.isEmpty {
            try requireNotBlank(chunk.text, field: "ttsName[\(index)].text")
            try requireSingleLine(chunk.text, field: "ttsName[\(index)].text")
        }
        if let name = configuration.ngnMediaScreenAppName {
            try requireNotBlank(name, field: "ngnMediaScreenAppName")
            try requireSingleLine(name, field: "ngnMediaScreenAppName")
        }
        for (index, synonym) in configuration.vrSynonyms.enumerated() {
            try requireNotBlank(synonym, field: "vrSynonyms[\(index)]")
            try requireSingleLine(synonym, field: "vrSynonyms[\(index)]")
        }
        if let hashID = configuration.hashID {
            try requireNotBlank(hashID, field: "hashID")
            try requireSingleLine(hashID, field: "hashID")
        }
        if let icon = configuration.appIcon { try checkIcon(icon) }
    }

    /// The app icon is sent later (PutFile `syncFileName` at most 255 characters, SetAppIcon an
    /// image); a bad one is refused before registering rather than failing after.
    private static func checkIcon(_ icon: SDLAppConfiguration.AppIcon) throws(SDLClientError) {
        try requireNotBlank(icon.name, field: "appIcon.name")
        try requireSingleLine(icon.name, field: "appIcon.name")
        guard icon.name.unicodeScalars.count <= 255, !icon.name.contains("/") else {
            throw SDLClientError(.invalidParameters, "appIcon.name: at most 255 characters and no \"/\"")
        }
        guard SDLAppConfiguration.AppIcon.imageFileTypes.contains(icon.fileType) else {
            throw SDLClientError(
                .invalidParameters,
                "appIcon.fileType: expected one of \(SDLAppConfiguration.AppIcon.imageFileTypes.sorted()), got \(icon.fileType)")
        }
        guard !icon.data.isEmpty, icon.data.count <= SDLAppConfiguration.AppIcon.maximumSize else {
            throw SDLClientError(
                .invalidParameters, "appIcon.data: expected 1...\(SDLAppConfiguration.AppIcon.maximumSize) bytes, got \(icon.data.count)")
        }
    }

    private static func requireNotBlank(_ text: String, field: String) throws(SDLClientError) {
        if text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) {
            throw SDLClientError(.invalidParameters, "\(functionName) $.\(field): must not be empty or only white space")
        }
    }

    private static func requireSingleLine(_ text: String, field: String) throws(SDLClientError) {
        if text.unicodeScalars.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\r" })
            || text.contains("\\t") || text.contains("\\n")
        {
            throw SDLClientError(
                .invalidParameters, "\(functionName) $.\(field): must not contain a tab or newline (nor the text \\t or \\n)")
        }
    }
}
