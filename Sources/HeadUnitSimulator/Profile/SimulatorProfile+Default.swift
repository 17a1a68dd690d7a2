import Foundation
import SDLSpec

/// The built-in head-unit profile, kept as JSON in `Resources/default-profile.json` and embedded
/// in the code by the EmbedResources build plugin (no resource bundle). Edit that file to change what the simulator reports by default;
/// `--profile FILE` replaces it at run time (format: ``SimulatorProfile``).
extension SimulatorProfile {
    /// The built-in profile: a generic 8-inch (800×480) touchscreen head unit in the spirit of
    /// SDL Core's default `hmi_capabilities.json`, with the vehicle strings SDL Core 8.2 was seen
    /// sending (make "SDL", model "Generic", modelYear "2019", trim "SE",
    /// systemSoftwareVersion "12345_US"; SDL-PROTOCOL.md §k), rpc_spec 8.0.0 and Core's 100 MiB
    /// app directory quota.
    ///
    /// A missing or invalid resource is a packaging error: this stops the process with the
    /// ``SimulatorProfileError`` of ``loadDefault(catalog:)``, which names the file.
    public static let `default`: SimulatorProfile = {
        do {
            return try loadDefault()
        } catch {
            preconditionFailure("the built-in simulator profile cannot be loaded: \(error)")
        }
    }()

    /// The text of the built-in profile (see ``default``).
    public static let defaultJSON: String = {
        do {
            return try String(decoding: defaultProfileData(), as: UTF8.self)
        } catch {
            preconditionFailure("the built-in simulator profile cannot be loaded: \(error)")
        }
    }()

    /// Loads the built-in profile (embedded in the code from `Resources/default-profile.json`),
    /// checked against `catalog`. Throws ``SimulatorProfileError`` with the kind and JSON path of
    /// the first problem when it does not load.
    public static func loadDefault(catalog: SDLCatalog = .builtIn) throws(SimulatorProfileError) -> SimulatorProfile {
        try loadDefault(from: EmbeddedResources.files, catalog: catalog)
    }

    /// Loads the profile `resources` holds under `default-profile.json`.
    static func loadDefault(from resources: [String: [UInt8]], catalog: SDLCatalog = .builtIn) throws(SimulatorProfileError) -> SimulatorProfile {
        let data = try defaultProfileData(from: resources)
        do {
            return try SimulatorProfile(json: data, catalog: catalog)
        } catch {
            var error = error
            error.message = "\(defaultResourceFileName) (built-in profile): \(error.message)"
            throw error
        }
    }

    static let defaultResourceFileName = "default-profile.json"

    static func defaultProfileData(from resources: [String: [UInt8]] = EmbeddedResources.files) throws(SimulatorProfileError) -> Data {
        guard let bytes = resources[defaultResourceFileName] else {
            throw SimulatorProfileError(
                kind: .unreadable,
                path: "$",
                message: "\(defaultResourceFileName) is missing from the embedded resources (Resources/\(defaultResourceFileName) of HeadUnitSimulator); rebuild, or pass --profile FILE"
            )
        }
        return Data(bytes)
    }
}
