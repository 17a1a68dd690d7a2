/// What a manager wants sent, in order: RPC requests and "ensure file" steps, with the warnings
/// found while planning. Plans are values: the driver executes them one step at a time and stops
/// at the first failure; an empty plan means the head unit already shows the declared state.
public struct SDLManagerPlan: Sendable, Hashable, CustomStringConvertible {
    public var steps: [SDLPlanStep]
    public var warnings: [SDLPlanWarning]

    public init(steps: [SDLPlanStep] = [], warnings: [SDLPlanWarning] = []) {
        self.steps = steps
        self.warnings = warnings
    }

    /// The requests of the plan, in order, without the file steps.
    public var requests: [SDLPlannedRequest] {
        steps.compactMap { step in
            if case .request(let request) = step { return request }
            return nil
        }
    }

    /// The files the plan makes sure of, in order.
    public var files: [String] {
        steps.compactMap { step in
            if case .ensureFile(let name) = step { return name }
            return nil
        }
    }

    public var isEmpty: Bool { steps.isEmpty }

    public mutating func append(_ request: SDLPlannedRequest) { steps.append(.request(request)) }

    /// Adds an ensure-file step unless an earlier step of this plan already ensures `name`.
    public mutating func ensureFile(_ name: String) {
        if !files.contains(name) { steps.append(.ensureFile(name)) }
    }

    /// This plan followed by `other`, dropping file steps `self` already has.
    public mutating func append(contentsOf other: SDLManagerPlan) {
        for step in other.steps {
            switch step {
            case .ensureFile(let name): ensureFile(name)
            case .request(let request): append(request)
            }
        }
        warnings.append(contentsOf: other.warnings)
    }

    /// One step per line.
    public var description: String { steps.map(\.description).joined(separator: "\n") }
}
