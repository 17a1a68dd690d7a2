extension SDLCatalog {
    /// The elements of enum FunctionID (docs/protocol.md §g) by name without the "ID" suffix
    /// (`RegisterAppInterface` → 1, `OnHMIStatus` → 0x8000). It lists ids that have no live
    /// `<function>` too: `RESERVED` (0), and `SyncPData` / `OnSyncPData`, whose definitions are
    /// commented out in MOBILE_API.xml 8.0.0.
    /// Built with the catalog, when it is made or its enums change.
    public var functionIDTable: [String: UInt32] { functionIDsByName }

    /// The FunctionID number of `name` (without the "ID" suffix), from enum FunctionID.
    public func functionID(named name: String) -> UInt32? {
        functionIDTable[name]
    }

    /// The FunctionID name (without the "ID" suffix) of number `id`, from enum FunctionID.
    public func functionName(forID id: UInt32) -> String? {
        functionNamesByID[id]
    }
}
