extension SDLCatalog {
    /// The elements of enum FunctionID (docs/protocol.md §g) by name without the "ID" suffix
    /// (`RegisterAppInterface` → 1, `OnHMIStatus` → 0x8000). It lists ids that have no live
    /// `<function>` too: `RESERVED` (0), and `SyncPData` / `OnSyncPData`, whose definitions are
    /// commented out in MOBILE_API.xml 8.0.0.
    public var functionIDTable: [String: UInt32] {
        var table: [String: UInt32] = [:]
        for element in enums["FunctionID"]?.elements ?? [] {
            guard let value = element.value, let id = UInt32(exactly: value) else { continue }
            let name = element.name.hasSuffix("ID") ? String(element.name.dropLast(2)) : element.name
            table[name] = id
        }
        return table
    }

    /// The FunctionID number of `name` (without the "ID" suffix), from enum FunctionID.
    public func functionID(named name: String) -> UInt32? {
        functionIDTable[name]
    }

    /// The FunctionID name (without the "ID" suffix) of number `id`, from enum FunctionID.
    public func functionName(forID id: UInt32) -> String? {
        functionIDTable.first { $0.value == id }?.key
    }
}
