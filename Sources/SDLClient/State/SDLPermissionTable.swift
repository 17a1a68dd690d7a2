import SDLProtocol
import Synchronization

/// What the head unit's policy allows the app, from OnPermissionsChange (MOBILE_API.xml 8.0.0,
/// FunctionID 32776: `permissionItem` is an array of `PermissionItem {rpcName, hmiPermissions
/// {allowed, userDisallowed}, parameterPermissions {allowed, userDisallowed}, requireEncryption}`;
/// docs/protocol.md §e, "Default policy").
///
/// Each notification updates the items it names and keeps the others, as the SDL app libraries'
/// permission managers do; Core sends the whole table after registration and on each policy
/// update.
public struct SDLPermissionTable: Sendable, Hashable {
    /// One `PermissionItem`.
    public struct Item: Sendable, Hashable {
        public var allowedLevels: Set<SDLHMILevel>
        public var userDisallowedLevels: Set<SDLHMILevel>
        public var allowedParameters: Set<String>
        public var userDisallowedParameters: Set<String>
        public var requireEncryption: Bool

        public init(
            allowedLevels: Set<SDLHMILevel>,
            userDisallowedLevels: Set<SDLHMILevel> = [],
            allowedParameters: Set<String> = [],
            userDisallowedParameters: Set<String> = [],
            requireEncryption: Bool = false
        ) {
            self.allowedLevels = allowedLevels
            self.userDisallowedLevels = userDisallowedLevels
            self.allowedParameters = allowedParameters
            self.userDisallowedParameters = userDisallowedParameters
            self.requireEncryption = requireEncryption
        }

        /// Whether the function may be sent at `level`: allowed there and not user-disallowed.
        public func allows(_ level: SDLHMILevel) -> Bool {
            allowedLevels.contains(level) && !userDisallowedLevels.contains(level)
        }

        /// The levels at which the function may be sent, FULL first.
        public var permittedLevels: [SDLHMILevel] {
            SDLHMILevel.allCases.filter(allows)
        }
    }

    /// Items by `rpcName`.
    public var items: [String: Item]

    /// The last table made from an empty one, and what made it: every app of a head unit gets
    /// the same first table (the policy's, about 200 items), and with ``SDLJSONInterning`` the
    /// same parameters value, whose comparison then stops at its shared storage. The apps then
    /// share one copy of the items instead of 19 KB each (issue "Performance", what each session
    /// keeps).
    private static let lastFromEmpty = Mutex<(parameters: SDLJSON, items: [String: Item])?>(nil)
    /// The notification-level `requireEncryption`, if it was sent.
    public var requireEncryption: Bool?

    public init(items: [String: Item] = [:], requireEncryption: Bool? = nil) {
        self.items = items
        self.requireEncryption = requireEncryption
    }

    /// Applies OnPermissionsChange parameters. Items without an `rpcName` are skipped; unknown
    /// HMI level names are ignored.
    public mutating func apply(_ parameters: SDLJSON) {
        if let flag = parameters["requireEncryption"]?.boolValue { requireEncryption = flag }
        let fromEmpty = items.isEmpty
        if fromEmpty, let shared = Self.lastFromEmpty.withLock({ $0 }), shared.parameters == parameters {
            items = shared.items
            return
        }
        defer { if fromEmpty { Self.lastFromEmpty.withLock { [items] in $0 = (parameters, items) } } }
        for entry in parameters["permissionItem"]?.arrayValue ?? [] {
            guard let name = entry["rpcName"]?.stringValue else { continue }
            func levels(_ key: String) -> Set<SDLHMILevel> {
                Set((entry["hmiPermissions"]?[key]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(SDLHMILevel.init(rawValue:)) })
            }
            func names(_ key: String) -> Set<String> {
                Set((entry["parameterPermissions"]?[key]?.arrayValue ?? []).compactMap(\.stringValue))
            }
            items[name] = Item(
                allowedLevels: levels("allowed"),
                userDisallowedLevels: levels("userDisallowed"),
                allowedParameters: names("allowed"),
                userDisallowedParameters: names("userDisallowed"),
                requireEncryption: entry["requireEncryption"]?.boolValue ?? false
            )
        }
    }

    /// Whether `parameter` of `function` is allowed (a vehicle data name, for instance): listed
    /// in the item's allowed parameters and not user-disallowed.
    public func allowsParameter(_ parameter: String, of function: String) -> Bool {
        guard let item = items[function] else { return false }
        return item.allowedParameters.contains(parameter) && !item.userDisallowedParameters.contains(parameter)
    }

    /// `{rpcName: {allowed: [levels], userDisallowed: [levels], parameters: {allowed, userDisallowed}}}`,
    /// lists sorted so the output is stable.
    public var json: SDLJSON {
        func levels(_ set: Set<SDLHMILevel>) -> SDLJSON {
            .array(SDLHMILevel.allCases.filter(set.contains).map { .string($0.rawValue) })
        }
        func names(_ set: Set<String>) -> SDLJSON { .array(set.sorted().map(SDLJSON.string)) }
        return .object(
            items.mapValues { item in
                [
                    "allowed": levels(item.allowedLevels),
                    "userDisallowed": levels(item.userDisallowedLevels),
                    "parameters": ["allowed": names(item.allowedParameters), "userDisallowed": names(item.userDisallowedParameters)],
                    "requireEncryption": .bool(item.requireEncryption),
                ]
            }
        )
    }
}
