import Foundation
import SDLProtocol
import SDLSpec

/// What the simulated head unit says about itself: the capabilities in its RegisterAppInterface
/// response and GetSystemCapability answers, its languages, vehicle strings and file quota.
///
/// ## The profile file (`--profile FILE`)
///
/// One JSON object. Keys named like a RegisterAppInterface response parameter are sent as they
/// are, with the types of MOBILE_API.xml 8.0.0 (`SyncMsgVersion`, `DisplayCapabilities`,
/// `ButtonCapabilities[]`, …); a key left out is not sent, as SDL Core leaves out what its HMI
/// did not report.
///
/// | key | type | |
/// |---|---|---|
/// | `language`, `hmiDisplayLanguage` | `Language` | **required**; the head unit's languages |
/// | `syncMsgVersion` | `SyncMsgVersion` | **required**; the highest RPC spec version; the response carries the lower of this and the app's |
/// | `supportedLanguages` | `[Language]` | for ChangeRegistration; must hold both languages; default: the two languages |
/// | `sdlVersion`, `systemSoftwareVersion` | String | |
/// | `vehicleType` | `VehicleType` | also the `make`, `model`, `modelYear`, `trim` of StartServiceACK |
/// | `appDirectoryQuota` | Integer ≥ 0 | bytes of files one app may store (SDL Core's `AppDirectoryQuota`); default 104857600 |
/// | `displayCapabilities`, `buttonCapabilities`, `softButtonCapabilities`, `presetBankCapabilities` | as in the response | the text fields' `width` are the character limits of ``textFieldWidths`` |
/// | `hmiZoneCapabilities`, `speechCapabilities`, `prerecordedSpeech`, `vrCapabilities`, `audioPassThruCapabilities`, `pcmStreamCapabilities`, `supportedDiagModes`, `hmiCapabilities` | as in the response | |
/// | `systemCapabilities` | object | by `SystemCapabilityType`: `NAVIGATION` (`NavigationCapability`), `PHONE_CALL` (`PhoneCapability`), `VIDEO_STREAMING` (`VideoStreamingCapability`), `REMOTE_CONTROL` (`RemoteControlCapabilities`), `APP_SERVICES` (`AppServicesCapabilities`), `SEAT_LOCATION` (`SeatLocationCapability`), `DRIVER_DISTRACTION` (`DriverDistractionCapability`), `DISPLAYS` (`[DisplayCapability]`) |
/// | `displays` | object | when `systemCapabilities` has no `DISPLAYS`, it is built from `displayCapabilities`, `buttonCapabilities` and `softButtonCapabilities` as one display with main window 0, plus `displays.windowTypeSupported` (`[WindowTypeCapabilities]`, default one MAIN window) and `displays.mainWindow` (more `WindowCapability` members, such as `keyboardCapabilities` or `menuLayoutsAvailable`) |
///
/// ## SDL Core's `hmi_capabilities.json`
///
/// A file with Core's top-level sections (`UI`, `VR`, `TTS`, `Buttons`, `VehicleInfo`, `RC`,
/// `SyncMessageVersion`) instead is read as Core's own capabilities file and converted as it is
/// loaded (``profileDocument(fromCoreCapabilities:base:)``); a file in neither format is refused
/// with an error naming both.
///
/// Loading checks everything: unknown keys, the profile's own keys, and the RegisterAppInterface
/// response and every GetSystemCapability answer built from the profile against the catalog, so
/// a profile that loads never makes the head unit send an invalid message.
/// ``SimulatorProfile/defaultJSON`` is a complete example.
public struct SimulatorProfile: Sendable, Hashable {
    /// The vehicle strings of a v5 StartServiceACK (docs/protocol.md §k); `nil` ones are not sent.
    public struct VehicleInfo: Sendable, Hashable {
        public var make: String?
        public var model: String?
        public var modelYear: String?
        public var trim: String?
        public var systemSoftwareVersion: String?

        public init(
            make: String? = nil, model: String? = nil, modelYear: String? = nil, trim: String? = nil, systemSoftwareVersion: String? = nil
        ) {
            self.make = make
            self.model = model
            self.modelYear = modelYear
            self.trim = trim
            self.systemSoftwareVersion = systemSoftwareVersion
        }
    }

    /// The height of the HMI's header, in screen pixels, above an app's template: the page's head
    /// unit draws it 50 pixels of an 800-pixel-wide screen (public/hmi.css, `.hu-header`). The
    /// built-in profiles' `videoStreamingCapability.preferredResolution` is the screen below it,
    /// as generic_hmi advertises its screen less its header, so a projected video fills the area
    /// that shows it.
    public static let headerHeight: Int64 = 50

    /// SDL Core's `AppDirectoryQuota` (smartDeviceLink.ini): 100 MiB.
    public static let defaultAppDirectoryQuota: Int64 = 104_857_600

    /// The `SystemCapabilityType` values and the `SystemCapability` member that carries each.
    public static let systemCapabilityMembers: [String: String] = [
        "NAVIGATION": "navigationCapability",
        "PHONE_CALL": "phoneCapability",
        "VIDEO_STREAMING": "videoStreamingCapability",
        "REMOTE_CONTROL": "remoteControlCapability",
        "APP_SERVICES": "appServicesCapabilities",
        "SEAT_LOCATION": "seatLocationCapability",
        "DISPLAYS": "displayCapabilities",
        "DRIVER_DISTRACTION": "driverDistractionCapability",
    ]

    /// Profile keys copied into a successful RegisterAppInterface response.
    static let responseKeys: [String] = [
        "displayCapabilities", "buttonCapabilities", "softButtonCapabilities", "presetBankCapabilities",
        "hmiZoneCapabilities", "speechCapabilities", "prerecordedSpeech", "vrCapabilities",
        "audioPassThruCapabilities", "pcmStreamCapabilities", "vehicleType", "supportedDiagModes",
        "hmiCapabilities", "sdlVersion", "systemSoftwareVersion",
    ]

    static let profileKeys: Set<String> = Set(responseKeys).union([
        "language", "hmiDisplayLanguage", "syncMsgVersion", "supportedLanguages", "appDirectoryQuota",
        "systemCapabilities", "displays",
    ])

    /// The head unit's current language and display language.
    public let language: String
    public let hmiDisplayLanguage: String
    /// Languages the head unit accepts in ChangeRegistration.
    public let supportedLanguages: [String]
    /// The head unit's `SyncMsgVersion` object.
    public let syncMsgVersion: SDLJSON
    /// Bytes of files one app may store.
    public let appDirectoryQuota: Int64
    /// The strings for StartServiceACK.
    public let startServiceVehicleInfo: VehicleInfo
    /// The `width` of each `displayCapabilities.textFields` entry by `TextFieldName`: how many
    /// characters that field shows (for CHAR_LIMIT_EXCEEDED and truncation checks).
    public let textFieldWidths: [String: Int]
    /// The profile object as loaded.
    public let document: [String: SDLJSON]
    /// The `SystemCapability` objects by type, built at load time.
    private let systemCapabilities: [String: SDLJSON]

    /// Loads a profile (format above), or SDL Core's `hmi_capabilities.json` as it is, converted
    /// (``profileDocument(fromCoreCapabilities:base:)``). Throws ``SimulatorProfileError`` naming
    /// the JSON path of the first problem (in Core's file, for Core's file).
    public init(json: some Collection<UInt8>, catalog: SDLCatalog = .builtIn) throws(SimulatorProfileError) {
        let root: SDLJSON
        do {
            root = try SDLJSON.parse(json)
        } catch {
            throw SimulatorProfileError(kind: .malformedJSON, path: "$", message: "not JSON: \(error)")
        }
        guard case .object(let document) = root else {
            throw SimulatorProfileError(kind: .invalidProfile, path: "$", message: "expected an object, got \(root.typeName)")
        }
        guard Self.isCoreCapabilities(document) else {
            self = try SimulatorProfile(document: document, catalog: catalog)
            return
        }
        let converted = try Self.profileDocument(fromCoreCapabilities: document)
        do throws(SimulatorProfileError) {
            self = try SimulatorProfile(document: converted, catalog: catalog)
        } catch {
            throw error.inCoreCapabilities()
        }
    }

    /// Loads a profile object (format above).
    init(document: [String: SDLJSON], catalog: SDLCatalog) throws(SimulatorProfileError) {
        for key in document.keys.sorted() where !Self.profileKeys.contains(key) {
            throw SimulatorProfileError(kind: .invalidProfile, path: "$.\(key)", message: "unknown key. \(Self.acceptedFormats)")
        }
        let languages = catalog.enums["Language"]
        func requireLanguage(_ key: String) throws(SimulatorProfileError) -> String {
            guard let value = document[key] else {
                throw SimulatorProfileError(kind: .invalidProfile, path: "$.\(key)", message: "missing (a Language such as \"EN-US\")")
            }
            guard let text = value.stringValue, languages?.contains(text) ?? true else {
                throw SimulatorProfileError(
                    kind: .invalidProfile, path: "$.\(key)", message: "expected a Language such as \"EN-US\", got \(value)")
            }
            return text
        }
        language = try requireLanguage("language")
        hmiDisplayLanguage = try requireLanguage("hmiDisplayLanguage")
        guard let version = document["syncMsgVersion"] else {
            throw SimulatorProfileError(
                kind: .invalidProfile, path: "$.syncMsgVersion", message: "missing (e.g. {\"majorVersion\": 8, \"minorVersion\": 0})")
        }
        syncMsgVersion = version

        if let value = document["supportedLanguages"] {
            guard let items = value.arrayValue, !items.isEmpty else {
                throw SimulatorProfileError(
                    kind: .invalidProfile, path: "$.supportedLanguages",
                    message: "expected a non-empty array of Language, got \(value.typeName)")
            }
            var list: [String] = []
            for (index, item) in items.enumerated() {
                guard let text = item.stringValue, languages?.contains(text) ?? true else {
                    throw SimulatorProfileError(
                        kind: .invalidProfile, path: "$.supportedLanguages[\(index)]", message: "expected a Language, got \(item)")
                }
                list.append(text)
            }
            for required in [language, hmiDisplayLanguage] where !list.contains(required) {
                throw SimulatorProfileError(
                    kind: .invalidProfile, path: "$.supportedLanguages", message: "does not contain the profile's language \(required)")
            }
            supportedLanguages = list
        } else {
            supportedLanguages = language == hmiDisplayLanguage ? [language] : [language, hmiDisplayLanguage]
        }

        if let value = document["appDirectoryQuota"] {
            guard case .int(let quota) = value, quota >= 0 else {
                throw SimulatorProfileError(
                    kind: .invalidProfile, path: "$.appDirectoryQuota", message: "expected an integer ≥ 0, got \(value)")
            }
            appDirectoryQuota = quota
        } else {
            appDirectoryQuota = Self.defaultAppDirectoryQuota
        }

        let vehicle = document["vehicleType"]
        startServiceVehicleInfo = VehicleInfo(
            make: vehicle?["make"]?.stringValue,
            model: vehicle?["model"]?.stringValue,
            modelYear: vehicle?["modelYear"]?.stringValue,
            trim: vehicle?["trim"]?.stringValue,
            systemSoftwareVersion: document["systemSoftwareVersion"]?.stringValue
        )

        var widths: [String: Int] = [:]
        for field in document["displayCapabilities"]?["textFields"]?.arrayValue ?? [] {
            if let name = field["name"]?.stringValue, let width = field["width"]?.intValue {
                widths[name] = Int(width)
            }
        }
        textFieldWidths = widths

        systemCapabilities = try Self.buildSystemCapabilities(document)
        self.document = document

        // Everything the head unit will send from this profile must pass the catalog.
        try Self.check(registerAppInterfaceResponse(), function: "RegisterAppInterface", catalog: catalog) { $0 }
        for type in systemCapabilities.keys.sorted() {
            let response: SDLJSON = ["success": true, "resultCode": "SUCCESS", "systemCapability": systemCapabilities[type]!]
            let member = "$.systemCapability.\(Self.systemCapabilityMembers[type]!)"
            let profilePath =
                document["systemCapabilities"]?[type] != nil
                ? "$.systemCapabilities.\(type)" : "$.displays (DISPLAYS built from displayCapabilities)"
            try Self.check(response, function: "GetSystemCapability", catalog: catalog) { path in
                path.hasPrefix(member) ? profilePath + path.dropFirst(member.count) : path
            }
        }
    }

    /// Loads a profile file (at most `maximumFileSize` bytes).
    public init(contentsOfFile path: String, maximumFileSize: Int = 4 << 20, catalog: SDLCatalog = .builtIn) throws(SimulatorProfileError) {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? NSNumber, size.intValue > maximumFileSize {
                throw SimulatorProfileError(kind: .unreadable, path: "$", message: "\(path): larger than \(maximumFileSize) bytes")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as SimulatorProfileError {
            throw error
        } catch {
            throw SimulatorProfileError(kind: .unreadable, path: "$", message: "\(path): \(error.localizedDescription)")
        }
        try self.init(json: data, catalog: catalog)
    }

    /// The character limit of a text field (`TextFieldName`), or `nil` when the display does
    /// not list it.
    public func maximumLength(ofTextField name: String) -> Int? {
        textFieldWidths[name]
    }

    /// The RegisterAppInterface response parameters.
    ///
    /// `success` follows `resultCode` as in SDL Core: true for SUCCESS, WARNINGS, WRONG_LANGUAGE
    /// and RESUME_FAILED (the app is registered), false otherwise; a failed registration carries
    /// only `success`, `resultCode` and `info`. A successful one carries every key of the
    /// profile that Core 8.2 sends (docs/protocol.md §k): the languages (the head unit's, unless
    /// given), `syncMsgVersion` (the lower of the profile's and `appSyncMsgVersion`),
    /// `sdlVersion`, `vehicleType`, the capabilities, `systemSoftwareVersion` and `iconResumed`.
    public func registerAppInterfaceResponse(
        resultCode: String = "SUCCESS",
        info: String? = nil,
        language: String? = nil,
        hmiDisplayLanguage: String? = nil,
        appSyncMsgVersion: SDLJSON? = nil,
        iconResumed: Bool = false
    ) -> SDLJSON {
        let success = Self.registeredResultCodes.contains(resultCode)
        var response: [String: SDLJSON] = ["success": .bool(success), "resultCode": .string(resultCode)]
        if let info { response["info"] = .string(info) }
        guard success else { return .object(response) }
        response["language"] = .string(language ?? self.language)
        response["hmiDisplayLanguage"] = .string(hmiDisplayLanguage ?? self.hmiDisplayLanguage)
        response["syncMsgVersion"] = appSyncMsgVersion.map { Self.lowerVersion(syncMsgVersion, $0) } ?? syncMsgVersion
        for key in Self.responseKeys {
            if let value = document[key] { response[key] = value }
        }
        response["iconResumed"] = .bool(iconResumed)
        return .object(response)
    }

    /// Result codes with which SDL Core registers the app (`success: true`).
    public static let registeredResultCodes: Set<String> = ["SUCCESS", "WARNINGS", "WRONG_LANGUAGE", "RESUME_FAILED"]

    /// The `systemCapability` of a GetSystemCapability response for a `SystemCapabilityType`
    /// (`{"systemCapabilityType": type, "<member>": …}`), or `nil` when the head unit has none
    /// of that type (Core answers DATA_NOT_AVAILABLE or UNSUPPORTED_RESOURCE).
    public func systemCapability(_ type: String) -> SDLJSON? {
        systemCapabilities[type]
    }

    /// The `SystemCapabilityType`s this profile answers.
    public var systemCapabilityTypes: [String] { systemCapabilities.keys.sorted() }

    // MARK: - Building and checking

    private static func buildSystemCapabilities(_ document: [String: SDLJSON]) throws(SimulatorProfileError) -> [String: SDLJSON] {
        var result: [String: SDLJSON] = [:]
        if let value = document["systemCapabilities"] {
            guard let table = value.objectValue else {
                throw SimulatorProfileError(
                    kind: .invalidProfile, path: "$.systemCapabilities",
                    message: "expected an object keyed by SystemCapabilityType, got \(value.typeName)")
            }
            for (type, capability) in table {
                guard let member = systemCapabilityMembers[type] else {
                    throw SimulatorProfileError(
                        kind: .invalidProfile, path: "$.systemCapabilities.\(type)",
                        message: "not a SystemCapabilityType (\(systemCapabilityMembers.keys.sorted().joined(separator: ", ")))")
                }
                result[type] = ["systemCapabilityType": .string(type), member: capability]
            }
        }
        if result["DISPLAYS"] == nil, let displays = try derivedDisplays(document) {
            result["DISPLAYS"] = ["systemCapabilityType": "DISPLAYS", "displayCapabilities": displays]
        }
        return result
    }

    /// `[DisplayCapability]` from the legacy display, button and soft button capabilities, as
    /// SDL Core builds it for an HMI that reports only those.
    private static func derivedDisplays(_ document: [String: SDLJSON]) throws(SimulatorProfileError) -> SDLJSON? {
        guard let legacy = document["displayCapabilities"]?.objectValue else { return nil }
        var extras: [String: SDLJSON] = [:]
        var windowTypes: SDLJSON = [["type": "MAIN", "maximumNumberOfWindows": 1]]
        if let value = document["displays"] {
            guard let displays = value.objectValue else {
                throw SimulatorProfileError(kind: .invalidProfile, path: "$.displays", message: "expected an object, got \(value.typeName)")
            }
            for key in displays.keys.sorted() where key != "windowTypeSupported" && key != "mainWindow" {
                throw SimulatorProfileError(
                    kind: .invalidProfile, path: "$.displays.\(key)", message: "unknown key (windowTypeSupported, mainWindow)")
            }
            if let types = displays["windowTypeSupported"] { windowTypes = types }
            if let main = displays["mainWindow"] {
                guard let members = main.objectValue else {
                    throw SimulatorProfileError(
                        kind: .invalidProfile, path: "$.displays.mainWindow",
                        message: "expected a WindowCapability object, got \(main.typeName)")
                }
                extras = members
            }
        }
        var window: [String: SDLJSON] = ["windowID": 0]
        for key in ["textFields", "imageFields", "templatesAvailable", "numCustomPresetsAvailable"] {
            if let value = legacy[key] { window[key] = value }
        }
        for key in ["buttonCapabilities", "softButtonCapabilities"] {
            if let value = document[key] { window[key] = value }
        }
        window.merge(extras) { _, extra in extra }
        var display: [String: SDLJSON] = ["windowTypeSupported": windowTypes, "windowCapabilities": [.object(window)]]
        if let name = legacy["displayName"] { display["displayName"] = name }
        return [.object(display)]
    }

    /// Throws the first catalog issue of `message`, its path mapped back into the profile.
    private static func check(
        _ message: SDLJSON, function: String, catalog: SDLCatalog, profilePath: (String) -> String
    ) throws(SimulatorProfileError) {
        let issues: [SDLValidationIssue]
        do {
            issues = try catalog.validate(message, function: function, messageType: .response)
        } catch {
            throw SimulatorProfileError(kind: .invalidCapabilities, path: "$", message: "the catalog cannot check \(function): \(error)")
        }
        guard let first = issues.first else { return }
        let more = issues.count > 1 ? " (and \(issues.count - 1) more)" : ""
        throw SimulatorProfileError(
            kind: .invalidCapabilities,
            path: profilePath(first.path),
            message: "\(function) response would be invalid: expected \(first.expected), got \(first.got)\(more)"
        )
    }

    /// The lower of two `SyncMsgVersion` objects (a missing patch counts as 0).
    static func lowerVersion(_ a: SDLJSON, _ b: SDLJSON) -> SDLJSON {
        func triple(_ v: SDLJSON) -> [Int64] {
            [v["majorVersion"]?.intValue ?? 0, v["minorVersion"]?.intValue ?? 0, v["patchVersion"]?.intValue ?? 0]
        }
        guard b["majorVersion"]?.intValue != nil, b["minorVersion"]?.intValue != nil else { return a }
        return triple(b).lexicographicallyPrecedes(triple(a)) ? b : a
    }
}

/// A profile that could not be loaded, with the JSON path of the problem.
public struct SimulatorProfileError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file could not be read.
        case unreadable
        /// The text is not JSON.
        case malformedJSON
        /// A key of the profile itself is missing, unknown or of the wrong type.
        case invalidProfile
        /// A message built from the profile would not pass the RPC catalog.
        case invalidCapabilities
    }

    public var kind: Kind
    /// Where in the profile: `$.displayCapabilities.textFields[3].width`.
    public var path: String
    public var message: String

    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String { "profile \(path): \(message)" }
}
