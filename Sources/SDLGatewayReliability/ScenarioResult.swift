import SDLProtocol

/// One scenario's outcome: its figures (for the `RELIABILITY` line), a one-line summary, and the
/// checks that failed. A check is something that must hold whatever the machine's speed; timing
/// targets are figures with a `…Met` flag beside them, reported and not failed on.
struct ScenarioResult: Sendable {
    let name: String
    var figures: [String: SDLJSON] = [:]
    var failures: [String] = []
    var summary = ""

    init(_ name: String) {
        self.name = name
    }

    mutating func check(_ condition: Bool, _ what: @autoclosure () -> String) {
        if !condition { failures.append(what()) }
    }

    subscript(figure: String) -> SDLJSON? {
        get { figures[figure] }
        set { figures[figure] = newValue }
    }

    var passed: Bool { failures.isEmpty }

    var line: String {
        "\(name): \(summary) — " + (passed ? "passed" : "FAILED: " + failures.joined(separator: "; "))
    }

    var json: SDLJSON {
        var members = figures
        members["passed"] = .bool(passed)
        if !passed { members["failures"] = .array(failures.map { .string($0) }) }
        return .object(members)
    }
}

extension SDLJSON {
    static func number(_ value: Double, digits: Double = 10) -> SDLJSON {
        .double((value * digits).rounded() / digits)
    }
}
