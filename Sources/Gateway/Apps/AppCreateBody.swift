import Foundation
import SDLClient
import SDLProtocol
import SDLSpec
import SDLTransport

/// The body of `POST /v1/apps`: RegisterAppInterface parameters (docs/architecture.md; MOBILE_API.xml
/// 8.0.0, docs/protocol.md §f) with the spec's defaults filled in, plus the gateway's own `id`,
/// `core` and `wait`. Only `appName` and `appID` are required; unknown members are refused so a
/// typo never goes unnoticed.
public struct AppCreateBody: Sendable {
    static let members: Set<String> = [
        "id", "core", "wait", "appName", "appID", "fullAppID", "isMediaApplication", "appHMIType", "languageDesired",
        "hmiDisplayLanguageDesired", "ttsName", "vrSynonyms", "ngnMediaScreenAppName", "dayColorScheme", "nightColorScheme",
        "deviceInfo", "syncMsgVersion", "appIcon",
    ]

    public var id: String?
    public var core: SDLTransportAddress?
    public var wait: Bool
    public var app: SDLAppConfiguration

    public init(_ body: [String: SDLJSON]) throws(GatewayError) {
        if let unknown = Set(body.keys).subtracting(Self.members).sorted().first {
            throw GatewayError(
                .invalidBody,
                "unknown member \(unknown)\(SDLSpelling.didYouMean(unknown, among: Self.members)); the members are \(Self.members.sorted().joined(separator: ", "))"
            )
        }
        id = try Self.string(body, "id")
        if let id, !Self.isValidID(id) {
            throw GatewayError(.invalidBody, "id must be 1-64 of A-Z a-z 0-9 . _ -")
        }
        core = try Self.string(body, "core").map { text throws(GatewayError) in
            do throws(SDLTransportError) {
                return try SDLTransportAddress(text)
            } catch {
                throw GatewayError(.invalidBody, "core: \(error.detail)")
            }
        }
        wait = try Self.bool(body, "wait") ?? true
        guard let appName = try Self.string(body, "appName"), let appID = try Self.string(body, "appID") else {
            throw GatewayError(.invalidBody, "appName and appID are required")
        }
        var app = SDLAppConfiguration(appName: appName, appID: appID)
        app.fullAppID = try Self.string(body, "fullAppID")
        app.isMediaApplication = try Self.bool(body, "isMediaApplication") ?? false
        app.appHMIType = try Self.strings(body, "appHMIType") ?? ["DEFAULT"]
        app.languageDesired = try Self.string(body, "languageDesired") ?? "EN-US"
        app.hmiDisplayLanguageDesired = try Self.string(body, "hmiDisplayLanguageDesired") ?? "EN-US"
        app.vrSynonyms = try Self.strings(body, "vrSynonyms") ?? []
        app.ngnMediaScreenAppName = try Self.string(body, "ngnMediaScreenAppName")
        app.dayColorScheme = body["dayColorScheme"]
        app.nightColorScheme = body["nightColorScheme"]
        if let chunks = body["ttsName"] {
            guard let array = chunks.arrayValue else { throw GatewayError(.invalidBody, "ttsName must be an array") }
            app.ttsName = try array.map { chunk throws(GatewayError) in
                guard let text = chunk["text"]?.stringValue else { throw GatewayError(.invalidBody, "ttsName[].text must be a string") }
                return .init(text: text, type: chunk["type"]?.stringValue ?? "TEXT")
            }
        }
        if let device = body["deviceInfo"] {
            guard device.objectValue != nil else { throw GatewayError(.invalidBody, "deviceInfo must be an object") }
            app.deviceInfo = .init(
                hardware: device["hardware"]?.stringValue, firmwareRev: device["firmwareRev"]?.stringValue, os: device["os"]?.stringValue,
                osVersion: device["osVersion"]?.stringValue, carrier: device["carrier"]?.stringValue,
                maxNumberRFCOMMPorts: device["maxNumberRFCOMMPorts"]?.intValue.map { Int(clamping: $0) }
            )
        }
        if let version = body["syncMsgVersion"] {
            guard let major = version["majorVersion"]?.intValue, let minor = version["minorVersion"]?.intValue else {
                throw GatewayError(.invalidBody, "syncMsgVersion needs majorVersion and minorVersion")
            }
            app.syncMsgVersion = .init(
                major: Int(clamping: major), minor: Int(clamping: minor), patch: Int(clamping: version["patchVersion"]?.intValue ?? 0))
        }
        if let icon = body["appIcon"] {
            guard let name = icon["name"]?.stringValue, let encoded = icon["data"]?.stringValue,
                let data = Data(base64Encoded: encoded)
            else {
                throw GatewayError(.invalidBody, "appIcon needs name and base64 data")
            }
            app.appIcon = .init(name: name, fileType: icon["fileType"]?.stringValue ?? "GRAPHIC_PNG", data: [UInt8](data))
        }
        self.app = app
    }

    /// 1–64 of `A-Z a-z 0-9 . _ -`: safe in a URL path and a log line.
    static func isValidID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "-")
            }
    }

    private static func string(_ body: [String: SDLJSON], _ name: String) throws(GatewayError) -> String? {
        guard let value = body[name], value != .null else { return nil }
        guard let string = value.stringValue else { throw GatewayError(.invalidBody, "\(name) must be a string") }
        return string
    }

    private static func bool(_ body: [String: SDLJSON], _ name: String) throws(GatewayError) -> Bool? {
        guard let value = body[name], value != .null else { return nil }
        guard let bool = value.boolValue else { throw GatewayError(.invalidBody, "\(name) must be a boolean") }
        return bool
    }

    private static func strings(_ body: [String: SDLJSON], _ name: String) throws(GatewayError) -> [String]? {
        guard let value = body[name], value != .null else { return nil }
        guard let array = value.arrayValue, let strings = Optional(array.compactMap(\.stringValue)), strings.count == array.count else {
            throw GatewayError(.invalidBody, "\(name) must be an array of strings")
        }
        return strings
    }
}
