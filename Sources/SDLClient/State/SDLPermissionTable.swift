import SDLProtocol

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
