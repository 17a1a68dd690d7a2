/// One conformance case, modelled on a test of sdl_atf's Smoke set: it runs against the head unit
/// through a ``ConformanceContext`` and passes by returning; it fails by throwing
/// ``ConformanceFailure`` (or any error), and is skipped by throwing ``ConformanceSkip``.
public struct ConformanceCase: Sendable, Identifiable {
    /// Stable and short: `area.what` (`show.template`), for `--only` and the reports.
    public var id: String
    /// What it checks, in a few words.
    public var title: String
    /// Whether it needs the driver's side (``ConformanceDriver``); without one it is skipped.
    public var needsDriver: Bool
    /// How long it may take at `--timeout-scale 1`; the runner scales it.
    public var deadline: Duration
    /// The case itself.
    public var run: @Sendable (ConformanceContext) async throws -> Void

    public init(
        _ id: String, _ title: String, needsDriver: Bool = false, deadline: Duration = .seconds(15),
        run: @escaping @Sendable (ConformanceContext) async throws -> Void
    ) {
        self.id = id
        self.title = title
        self.needsDriver = needsDriver
        self.deadline = deadline
        self.run = run
    }
}
