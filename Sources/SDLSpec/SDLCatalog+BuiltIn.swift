import Foundation

extension SDLCatalog {
    /// The catalog of MOBILE_API.xml rpc_spec 8.0.0 (docs/protocol.md §f–§h), compiled into the library.
    ///
    /// It is stored as JSON in `Generated/BuiltInCatalog.swift` (written by `sdl-spec-gen` with
    /// ``init(xml:)`` and ``generatedSwiftSource(specFileName:)``) and decoded once, on first use.
    public static let builtIn: SDLCatalog = {
        do {
            return try SDLCatalog(json: Data(builtInCatalogJSON.utf8))
        } catch {
            preconditionFailure("the generated built-in catalog does not decode: \(error)")
        }
    }()

    /// Decodes a catalog from its Codable JSON form (as written by ``jsonData()``).
    public init(json: Data) throws(SDLSpecError) {
        do {
            self = try JSONDecoder().decode(SDLCatalog.self, from: json)
        } catch {
            throw SDLSpecError(.invalidCatalog, "cannot decode the catalog JSON: \(error)")
        }
    }

    /// The catalog's Codable JSON form: compact, keys sorted, so equal catalogs give equal bytes.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            preconditionFailure("a catalog always encodes: \(error)")
        }
    }
}
