import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

extension SDLCatalog {
    /// Parses an RPC spec in the MOBILE_API.xml format (rpc_spec README; docs/protocol.md §f–§h).
    ///
    /// Only the top-level `<function>`, `<enum>` and `<struct>` children of the root
    /// `<interface>` count; everything inside `<history>` (older definitions) and all
    /// descriptions are ignored. A function's number is the `value` (decimal or `0x` hex, else
    /// `hexvalue`) of the FunctionID element its `functionID` attribute names. Every param type
    /// must be a basic type or a defined enum or struct. External entities are not resolved.
    public init(xml: Data) throws(SDLSpecError) {
        self = try SDLSpecXMLReader.read(xml)
    }

    /// Reads and parses the spec file at `url` (e.g. a user-supplied `--rpc-spec`).
    public init(contentsOf url: URL) throws(SDLSpecError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SDLSpecError(.unreadableFile, "cannot read \(url.path): \(error.localizedDescription)")
        }
        try self.init(xml: data)
    }
}
