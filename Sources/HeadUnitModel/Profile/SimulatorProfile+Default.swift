import Foundation
import SDLSpec

/// The built-in head-unit profiles, kept as JSON in `Resources/` and embedded in the code by the
/// EmbedResources build plugin (no resource bundle):
///
/// - `core-8.2` (``default``, `Resources/default-profile.json`): what SDL Core 8.2.0 sends apps from
///   its stock `hmi_capabilities.json` — 30 text fields, an 800×350 touchscreen, TEXT speech,
///   44 kHz 8-bit audio pass-thru: Core's stock file as ``profileDocument(fromCoreCapabilities:base:)``
///   converts it.
/// - `full` (``full``, `Resources/full-profile.json`): a richer 800×480 head unit (38 text fields
///   including `templateTitle`, every speech capability, widgets) for apps that use more.
///
/// `--profile NAME|FILE` picks one or replaces them at run time (format: ``SimulatorProfile``).
extension SimulatorProfile {
    /// A built-in profile: its name and its file under `Resources/`.
    public struct BuiltIn: Sendable, Hashable {
        public var name: String
        public var fileName: String

        public static let core82 = BuiltIn(name: "core-8.2", fileName: "default-profile.json")
        public static let full = BuiltIn(name: "full", fileName: "full-profile.json")
        /// Every built-in profile, the default first.
        public static let all: [BuiltIn] = [.core82, .full]
    }

    /// The built-in profile `core-8.2`: SDL Core 8.2.0's stock capabilities, with the vehicle
    /// strings Core was seen sending (make "SDL", model "Generic", modelYear "2019", trim "SE",
    /// systemSoftwareVersion "12345_US"; docs/protocol.md §k), rpc_spec 8.0.0 and Core's 100 MiB
    /// app directory quota.
    ///
    /// A missing or invalid resource is a packaging error: this stops the process with the
    /// ``SimulatorProfileError`` of ``loadDefault(catalog:)``, which names the file.
    public static let `default`: SimulatorProfile = load(.core82)

    /// The built-in profile `full`: a richer head unit than Core's stock file describes.
    public static let full: SimulatorProfile = load(.full)

    /// The built-in profile called `name` (`core-8.2`, `full`), nil for another name.
    public static func named(_ name: String) -> SimulatorProfile? {
        switch name {
        case BuiltIn.core82.name: .default
        case BuiltIn.full.name: .full
        default: nil
        }
    }

    /// `--profile NAME|FILE`: a built-in profile by name (checked against `catalog`), else the
    /// profile file at that path.
    public init(nameOrPath: String, catalog: SDLCatalog = .builtIn) throws(SimulatorProfileError) {
        if let builtIn = BuiltIn.all.first(where: { $0.name == nameOrPath }) {
            self = try Self.loadBuiltIn(builtIn, catalog: catalog)
        } else {
            try self.init(contentsOfFile: nameOrPath, catalog: catalog)
        }
    }

    private static func load(_ builtIn: BuiltIn) -> SimulatorProfile {
        do {
            return try loadBuiltIn(builtIn)
        } catch {
            preconditionFailure("the built-in simulator profile \(builtIn.name) cannot be loaded: \(error)")
        }
    }

    /// The text of the default built-in profile (see ``default``).
    public static let defaultJSON: String = {
        do {
            return try String(decoding: defaultProfileData(), as: UTF8.self)
        } catch {
            preconditionFailure("the built-in simulator profile cannot be loaded: \(error)")
        }
    }()

    /// Loads the default built-in profile, checked against `catalog`. Throws
    /// ``SimulatorProfileError`` with the kind and JSON path of the first problem when it does not load.
    public static func loadDefault(catalog: SDLCatalog = .builtIn) throws(SimulatorProfileError) -> SimulatorProfile {
        try loadBuiltIn(.core82, catalog: catalog)
    }

    /// Loads a built-in profile, checked against `catalog`.
    public static func loadBuiltIn(_ builtIn: BuiltIn, catalog: SDLCatalog = .builtIn) throws(SimulatorProfileError) -> SimulatorProfile {
        try loadBuiltIn(builtIn, from: EmbeddedResources.files, catalog: catalog)
    }

    /// Loads the default profile `resources` holds under `default-profile.json`.
    static func loadDefault(
        from resources: [String: [UInt8]], catalog: SDLCatalog = .builtIn
    ) throws(SimulatorProfileError) -> SimulatorProfile {
        try loadBuiltIn(.core82, from: resources, catalog: catalog)
    }

    static func loadBuiltIn(
        _ builtIn: BuiltIn, from resources: [String: [UInt8]], catalog: SDLCatalog = .builtIn
    ) throws(SimulatorProfileError) -> SimulatorProfile {
        let data = try profileData(builtIn.fileName, from: resources)
        do {
            return try SimulatorProfile(json: data, catalog: catalog)
        } catch {
            var error = error
            error.message = "\(builtIn.fileName) (built-in profile \(builtIn.name)): \(error.message)"
            throw error
        }
    }

    static let defaultResourceFileName = BuiltIn.core82.fileName

    static func defaultProfileData(from resources: [String: [UInt8]] = EmbeddedResources.files) throws(SimulatorProfileError) -> Data {
        try profileData(defaultResourceFileName, from: resources)
    }

    static func profileData(
        _ fileName: String, from resources: [String: [UInt8]] = EmbeddedResources.files
    ) throws(SimulatorProfileError) -> Data {
        guard let bytes = resources[fileName] else {
            throw SimulatorProfileError(
                kind: .unreadable,
                path: "$",
                message:
                    "\(fileName) is missing from the embedded resources (Resources/\(fileName) of HeadUnitModel); rebuild, or pass --profile FILE"
            )
        }
        return Data(bytes)
    }
}
