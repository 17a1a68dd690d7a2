import SDLTransport

/// The pure bookkeeping of ``SDLAppRegistry``: which registry ids are taken, and which app ids and
/// names each head unit already has from this gateway.
///
/// SDL Core sees every TCP connection from the gateway host as one device (docs/protocol.md §e
/// "Ports and transports"). On one device it refuses an app id that is already registered
/// (`DISALLOWED`) and an `appName` or `vrSynonyms` entry that clashes with another app's
/// (`DUPLICATE_NAME`), comparing without regard to case and using `fullAppID` when present
/// (§e "Registration and limits", §f). The index refuses the same before a session is opened, so
/// nothing reaches the head unit. Apps on different head units never clash.
///
/// Head units are told apart by their address as configured (`host:port`, the host lowercased);
/// two spellings of one host (`localhost`, `127.0.0.1`) count as two head units.
///
/// Core puts every connection to its WebSocket server for apps on one virtual "WebEngine" device,
/// apart from the TCP device of the same host (§e "WebSocket server for apps"). So a `ws://` or
/// `wss://` address is a head unit of its own, `ws://host:port` (the path dropped: Core ignores
/// it), even when tcp on the same host reaches the same Core: the same app may be registered once
/// over each. ``headUnit(address:)`` makes these keys.
public struct SDLAppRegistryIndex: Sendable, Hashable {
    /// What one registered app claims on its head unit.
    public struct Claim: Sendable, Hashable {
        public var id: String
        public var headUnit: String
        /// `fullAppID` if set, otherwise `appID`; lowercased.
        public var appKey: String
        /// `appName` and `vrSynonyms`, lowercased.
        public var names: Set<String>
    }

    /// The claims in the order they were made.
    public private(set) var claims: [Claim] = []
    private var generated = 0

    public init() {}

    /// `host:port` with the host lowercased: a head unit on SDL Core's TCP transport.
    public static func headUnit(host: String, port: Int) -> String {
        "\(host.lowercased()):\(port)"
    }

    /// The head unit behind `address`: `host:port` for tcp (as ``headUnit(host:port:)``),
    /// `ws://host:port` or `wss://host:port` for Core's WebSocket device; the host lowercased,
    /// the path dropped.
    public static func headUnit(address: SDLTransportAddress) -> String {
        let device = headUnit(host: address.host.contains(":") ? "[\(address.host)]" : address.host, port: address.port)
        return address.scheme == .tcp ? device : "\(address.scheme.rawValue)://\(device)"
    }

    /// The id Core keys the app by: `fullAppID` when present, otherwise `appID`, lowercased.
    public static func appKey(of app: SDLAppConfiguration) -> String {
        let fullAppID = app.fullAppID.flatMap { $0.isEmpty ? nil : $0 }
        return (fullAppID ?? app.appID).lowercased()
    }

    /// The names Core compares across apps of one device: `appName` and `vrSynonyms`, lowercased.
    public static func names(of app: SDLAppConfiguration) -> Set<String> {
        Set(([app.appName] + app.vrSynonyms).map { $0.lowercased() })
    }

    public func contains(id: String) -> Bool {
        claims.contains { $0.id == id }
    }

    public func claim(id: String) -> Claim? {
        claims.first { $0.id == id }
    }

    /// A registry id that is not taken: `app-1`, `app-2`, …
    public mutating func makeID() -> String {
        while true {
            generated += 1
            let id = "app-\(generated)"
            if !contains(id: id) { return id }
        }
    }

    /// Records `app` under `id` on `headUnit`, or throws ``SDLClientError/Code/duplicateApp``
    /// (and records nothing) when the id is taken or the app clashes with another on that head
    /// unit.
    public mutating func claim(id: String, headUnit: String, app: SDLAppConfiguration) throws(SDLClientError) {
        if contains(id: id) {
            throw SDLClientError(.duplicateApp, "the registry already has an app with id \(id)")
        }
        let appKey = Self.appKey(of: app)
        let names = Self.names(of: app)
        for other in claims where other.headUnit == headUnit {
            if other.appKey == appKey {
                throw SDLClientError(.duplicateApp, "app \(other.id) already registers app id \(appKey) on \(headUnit)")
            }
            if let clash = names.intersection(other.names).sorted().first {
                throw SDLClientError(.duplicateApp, "app \(other.id) already uses the name \"\(clash)\" on \(headUnit)")
            }
        }
        claims.append(Claim(id: id, headUnit: headUnit, appKey: appKey, names: names))
    }

    /// Forgets `id`; returns whether it was there.
    @discardableResult
    public mutating func release(id: String) -> Bool {
        guard let index = claims.firstIndex(where: { $0.id == id }) else { return false }
        claims.remove(at: index)
        return true
    }
}
