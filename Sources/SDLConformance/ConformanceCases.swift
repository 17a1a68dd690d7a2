/// The cases of `sdl-gateway check`, in the order they run: registration first, then what an
/// app does in FULL, then resumption, UnregisterAppInterface last (sdl_atf's Smoke set, in its
/// order).
public enum ConformanceCases {
    public static let all: [ConformanceCase] =
        [RegistrationCases.register, RegistrationCases.hmiFull, RegistrationCases.changeRegistration]
        + ScreenCases.all + MenuCases.all + InteractionCases.all + VehicleCases.all + FileCases.all
        + [RegistrationCases.invalidData, RegistrationCases.heartbeat, RegistrationCases.resumption, RegistrationCases.unregister]

    /// The cases `only` names, in run order: an id (`show.template`) or the part before its dot
    /// (`menu` for every `menu.*`). Throws naming what matches no case.
    public static func select(_ only: [String], from cases: [ConformanceCase] = all) throws(ConformanceSelectionError) -> [ConformanceCase]
    {
        guard !only.isEmpty else { return cases }
        let unknown = only.filter { name in !cases.contains { matches($0.id, name) } }
        guard unknown.isEmpty else { throw ConformanceSelectionError(unknown: unknown, known: cases.map(\.id)) }
        return cases.filter { conformanceCase in only.contains { matches(conformanceCase.id, $0) } }
    }

    static func matches(_ id: String, _ name: String) -> Bool {
        id == name || id.hasPrefix(name + ".")
    }
}

/// `--only` named a case there is not.
public struct ConformanceSelectionError: Error, Sendable, CustomStringConvertible {
    public var unknown: [String]
    public var known: [String]

    public var description: String {
        "no case \(unknown.joined(separator: ", ")); the cases are \(known.joined(separator: ", "))"
    }
}
