import Foundation
import SDLProtocol

/// What one client of an event stream wants: `types=` (event types) and `names=` (vehicle data
/// names; a `vehicleData` event keeps only these keys and is dropped when none is left).
/// `gap` and `connection` events always pass the type filter: they say what the client lost
/// and whether anything can come at all.
public struct EventFilter: Sendable, Hashable {
    public var types: Set<String>?
    public var names: Set<String>?

    public init(types: Set<String>? = nil, names: Set<String>? = nil) {
        self.types = types
        self.names = names
    }

    /// Parses comma-separated `types` and `names` query values; an unknown type is an error.
    public init(types: String?, names: String?) throws(GatewayError) {
        func list(_ text: String?) -> Set<String>? {
            guard let text else { return nil }
            let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            return items.isEmpty ? nil : Set(items)
        }
        let types = list(types)
        if let unknown = types?.subtracting(GatewayEvent.types).sorted().first {
            throw GatewayError(
                .invalidQuery, "unknown event type \(unknown); known: \(GatewayEvent.types.sorted().joined(separator: ", "))")
        }
        self.init(types: types, names: list(names))
    }

    /// The event as this client sees it, or nil when filtered out.
    public func apply(_ event: GatewayEvent) -> GatewayEvent? {
        if let types, !types.contains(event.type), event.type != "gap", event.type != "connection" { return nil }
        guard event.type == "vehicleData", let names, let members = event.data.objectValue else { return event }
        // Nothing to take out: the event itself, with the encoding it may share with other clients.
        if !members.isEmpty, members.keys.allSatisfy(names.contains) { return event }
        let kept = members.filter { names.contains($0.key) }
        guard !kept.isEmpty else { return nil }
        var filtered = event
        filtered.data = .object(kept)
        return filtered
    }

    public var json: SDLJSON {
        [
            "types": types.map { .array($0.sorted().map(SDLJSON.string)) } ?? .null,
            "names": names.map { .array($0.sorted().map(SDLJSON.string)) } ?? .null,
        ]
    }
}
