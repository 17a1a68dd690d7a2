import ArgumentParser
import Foundation
import SDLProtocol

/// The JSON config file of `serve`, checked as strictly as the HTTP API checks a body: every key
/// known (a misspelt one is refused with the closest accepted name), every value of its type
/// (booleans are JSON booleans, numbers JSON numbers). See `ServeSettings` for an example.
struct ServeConfigFile {
    static let keys = [
        "listen", "core", "allowedCores", "simulate", "hmi", "tokens", "corsOrigins", "rpcSpec", "public", "logLevel", "logFormat",
        "insecure",
        "coreRequestLimit", "heartbeat", "maxApps", "limits", "events", "apps", "simulator", "record",
    ]
    static let limitsKeys = [
        "bodySize", "fileSize", "webSocketMessageSize", "requestsPerSecond", "idleTimeout", "authFailuresPerMinute", "eventStreamKeepAlive",
        "imageStoreSize",
        "requestHeadTimeout", "minimumBodyRate", "bodyRateGrace", "audioRecordingSize",
    ]
    static let eventsKeys = ["ringCapacity", "clientQueueCapacity", "maximumClients", "ringBytes"]

    var members: [String: SDLJSON]

    /// No file: every setting comes from elsewhere.
    init() {
        members = [:]
    }

    init(members: [String: SDLJSON]) throws {
        try SettingsValue.checkKeys(members.keys, accepted: Self.keys, in: nil)
        self.members = members
        if let limits = try object("limits") {
            try SettingsValue.checkKeys(limits.keys, accepted: Self.limitsKeys, in: "limits")
        }
        if let events = try object("events") {
            try SettingsValue.checkKeys(events.keys, accepted: Self.eventsKeys, in: "events")
        }
        if let simulator = try object("simulator") {
            try SettingsValue.checkKeys(simulator.keys, accepted: SimulatorOptions.fileKeys + ["listen", "wsListen"], in: "simulator")
        }
    }

    init(path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("cannot read the config file \(path): \(error.localizedDescription)")
        }
        guard data.count <= 1 << 20, let object = (try? SDLJSON.parse([UInt8](data)))?.objectValue else {
            throw ValidationError("the config file \(path) is not a JSON object (of at most 1 MiB)")
        }
        try self.init(members: object)
    }

    func string(_ key: String) throws -> String? {
        try member(key, "a string") { $0.stringValue }
    }

    /// A JSON boolean: `"yes"`, `1` or `"true"` are refused, not read as false.
    func bool(_ key: String) throws -> Bool? {
        try member(key, "a boolean (true or false)") { $0.boolValue }
    }

    func strings(_ key: String) throws -> [String]? {
        try member(key, "an array of strings") { value in
            guard let elements = value.arrayValue else { return nil }
            let strings = elements.compactMap(\.stringValue)
            return strings.count == elements.count ? strings : nil
        }
    }

    /// A string among the cases of `Value` (exactly as spelt there).
    func choice<Value: RawRepresentable & CaseIterable>(_ key: String, of type: Value.Type = Value.self) throws -> Value?
    where Value.RawValue == String {
        try string(key).map { text in
            guard let value = Value(rawValue: text) else {
                let accepted = Value.allCases.map(\.rawValue)
                throw ValidationError(
                    "config file: \"\(key)\" is \(text), not one of \(accepted.joined(separator: ", "))\(SettingsValue.suggestion(for: text, among: accepted))."
                )
            }
            return value
        }
    }

    func array(_ key: String) throws -> [SDLJSON]? {
        try member(key, "an array") { $0.arrayValue }
    }

    func object(_ key: String) throws -> [String: SDLJSON]? {
        try member(key, "an object") { $0.objectValue }
    }

    private func member<Value>(_ key: String, _ expected: String, _ read: (SDLJSON) -> Value?) throws -> Value? {
        guard let value = members[key] else { return nil }
        guard let read = read(value) else { throw Self.wrongType(key, expected, value) }
        return read
    }

    /// An integer of `object` (the `limits` or `events` section) from `minimum` to 2³¹ − 1.
    static func int(_ object: [String: SDLJSON]?, _ section: String, _ key: String, default value: Int, minimum: Int = 1) throws -> Int {
        guard let member = object?[key] else { return value }
        guard let number = member.intValue else { throw wrongType("\(section).\(key)", "an integer", member) }
        guard number >= minimum, number <= Int64(Int32.max) else {
            throw ValidationError("config file: \"\(section).\(key)\" must be an integer from \(minimum) to \(Int32.max) (got \(number)).")
        }
        return Int(number)
    }

    static func wrongType(_ key: String, _ expected: String, _ value: SDLJSON) -> ValidationError {
        let article = value.typeName == "null" ? "" : "aeiou".contains(value.typeName.first ?? "a") ? "an " : "a "
        return ValidationError("config file: \"\(key)\" must be \(expected), not \(article)\(value.typeName).")
    }
}
