/// The RPC catalog of an SDL RPC spec (MOBILE_API.xml): every top-level `<function>`, `<enum>`
/// and `<struct>` of its `<interface>`, with the constraints needed to validate and build RPC
/// parameters (docs/protocol.md §f–§h).
///
/// Load one with ``init(xml:)`` or ``init(contentsOf:)``, or use ``builtIn`` (rpc_spec 8.0.0).
public struct SDLCatalog: Sendable, Hashable, Codable {
    /// The `<interface>`'s `version` attribute, e.g. `8.0.0`.
    public var version: String
    /// The `<interface>`'s `minVersion` attribute, e.g. `1.0`.
    public var minVersion: String?
    /// The `<interface>`'s `date` attribute.
    public var date: String?
    /// Every top-level `<function>`, in document order.
    public var functions: [SDLFunction] {
        didSet { index = Self.makeIndex(functions, enums: enums) }
    }
    /// Every top-level `<enum>`, by name (FunctionID included).
    public var enums: [String: SDLEnum] {
        didSet { index = Self.makeIndex(functions, enums: enums) }
    }
    /// Every top-level `<struct>`, by name.
    public var structs: [String: SDLStruct]

    private struct Key: Hashable, Sendable {
        var name: String
        var messageType: SDLMessageType
    }

    private struct IDKey: Hashable, Sendable {
        var id: UInt32
        var messageType: SDLMessageType
    }

    private struct Index: Hashable, Sendable {
        var byName: [Key: Int] = [:]
        var byID: [IDKey: Int] = [:]
        /// Enum FunctionID both ways (``functionIDTable``): looked up for every message sent and
        /// received, so built once, not per lookup.
        var functionIDs: [String: UInt32] = [:]
        var functionNames: [UInt32: String] = [:]
    }

    /// Derived from `functions` and `enums`; equal catalogs have equal indexes.
    private var index: Index

    public init(
        version: String, minVersion: String? = nil, date: String? = nil, functions: [SDLFunction], enums: [String: SDLEnum],
        structs: [String: SDLStruct]
    ) {
        self.version = version
        self.minVersion = minVersion
        self.date = date
        self.functions = functions
        self.enums = enums
        self.structs = structs
        self.index = Self.makeIndex(functions, enums: enums)
    }

    private static func makeIndex(_ functions: [SDLFunction], enums: [String: SDLEnum]) -> Index {
        var index = Index()
        for element in enums["FunctionID"]?.elements ?? [] {
            guard let value = element.value, let id = UInt32(exactly: value) else { continue }
            let name = element.name.hasSuffix("ID") ? String(element.name.dropLast(2)) : element.name
            index.functionIDs[name] = id
            // The first name of a number in document order, should the spec give a number twice.
            if index.functionNames[id] == nil { index.functionNames[id] = name }
        }
        for (position, function) in functions.enumerated() {
            index.byName[Key(name: function.name, messageType: function.messageType)] =
                index.byName[Key(name: function.name, messageType: function.messageType)] ?? position
            index.byID[IDKey(id: function.functionID, messageType: function.messageType)] =
                index.byID[IDKey(id: function.functionID, messageType: function.messageType)] ?? position
        }
        return index
    }

    private enum CodingKeys: String, CodingKey {
        case version, minVersion, date, functions, enums, structs
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            version: try c.decode(String.self, forKey: .version),
            minVersion: try c.decodeIfPresent(String.self, forKey: .minVersion),
            date: try c.decodeIfPresent(String.self, forKey: .date),
            functions: try c.decode([SDLFunction].self, forKey: .functions),
            enums: try c.decode([String: SDLEnum].self, forKey: .enums),
            structs: try c.decode([String: SDLStruct].self, forKey: .structs)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(version, forKey: .version)
        try c.encodeIfPresent(minVersion, forKey: .minVersion)
        try c.encodeIfPresent(date, forKey: .date)
        try c.encode(functions, forKey: .functions)
        try c.encode(enums, forKey: .enums)
        try c.encode(structs, forKey: .structs)
    }

    /// The function `name` (e.g. `Show`) of the given message type.
    public func function(named name: String, messageType: SDLMessageType) -> SDLFunction? {
        index.byName[Key(name: name, messageType: messageType)].map { functions[$0] }
    }

    /// The function with FunctionID number `id` of the given message type, as found in an RPC
    /// header (protocol spec §5.2; docs/protocol.md §c, §g).
    public func function(id: UInt32, messageType: SDLMessageType) -> SDLFunction? {
        index.byID[IDKey(id: id, messageType: messageType)].map { functions[$0] }
    }

    /// The function `name` of the given message type, or ``SDLSpecError/Code/unknownFunction``.
    public func requireFunction(named name: String, messageType: SDLMessageType) throws(SDLSpecError) -> SDLFunction {
        guard let function = function(named: name, messageType: messageType) else {
            throw SDLSpecError(.unknownFunction, "no \(messageType) named \(name) in rpc_spec \(version)")
        }
        return function
    }

    /// The elements of enum FunctionID by name (``functionIDTable``) and by number.
    var functionIDsByName: [String: UInt32] { index.functionIDs }
    var functionNamesByID: [UInt32: String] { index.functionNames }

    /// The distinct FunctionID numbers used by the functions.
    public var functionIDs: Set<UInt32> { Set(functions.map(\.functionID)) }
}
