import SDLProtocol

/// Plays an ``OpenXCTrace`` against the simulator's clock: the caller passes the time since
/// playing started and gets what became due, mapped to SDL by ``OpenXCMapping``.
///
/// With a speed factor of 2 (`--trace-speed 2`) the trace plays twice as fast. When looping,
/// the trace starts again `loopGap` after its last record, keeping the mapping's state (the
/// last known latitude, lamps …) and the snapshot; when the caller falls more than a whole
/// pass behind, the passes in between are skipped rather than played in a burst.
public struct TraceReplayer: Sendable {
    public let trace: OpenXCTrace
    public let speedFactor: Double
    public let loops: Bool
    public let loopGap: Duration

    /// All vehicle data known so far (starting from the baseline), for GetVehicleData.
    public private(set) var snapshot: VehicleDataSnapshot
    /// Whether a trace that does not loop has played all its records.
    public private(set) var isFinished = false
    /// How many times the trace has started again.
    public private(set) var completedLoops = 0

    private var mapping = OpenXCMapping()
    private var nextIndex = 0
    /// Where the current pass starts, in trace seconds.
    private var passStart = 0.0
    private let period: Double
    private let offsets: [Double]

    /// - Parameters:
    ///   - speedFactor: trace seconds per elapsed second; must be finite and positive.
    ///   - baseline: values the car has before the trace says otherwise.
    public init(
        trace: OpenXCTrace, speedFactor: Double = 1, loops: Bool = false, loopGap: Duration = .seconds(1),
        baseline: VehicleDataSnapshot = VehicleDataSnapshot()
    ) {
        precondition(speedFactor.isFinite && speedFactor > 0, "the trace speed factor must be positive")
        self.trace = trace
        self.speedFactor = speedFactor
        self.loops = loops
        self.loopGap = loopGap
        self.snapshot = baseline
        offsets = trace.records.map { GeneratedDrive.seconds($0.offset) }
        period = max(GeneratedDrive.seconds(trace.duration) + max(0, GeneratedDrive.seconds(loopGap)), 0.1)
        isFinished = trace.records.isEmpty && !loops
    }

    /// The events of the records due by `elapsed` (time since playing started) that earlier
    /// calls did not return, in trace order. Consecutive vehicle data is merged into one
    /// ``SimulatedVehicleEvent/vehicleData(_:)`` holding only the names whose value changed;
    /// button events split it where they occur.
    public mutating func advance(to elapsed: Duration) -> [SimulatedVehicleEvent] {
        guard !trace.records.isEmpty, !isFinished else { return [] }
        let now = GeneratedDrive.seconds(elapsed) * speedFactor
        if loops, now - passStart > 2 * period {
            let skipped = ((now - passStart) / period).rounded(.down) - 1
            passStart += skipped * period
            completedLoops += Int(skipped)
            nextIndex = 0
        }
        var events: [SimulatedVehicleEvent] = []
        var pending: [String: SDLJSON] = [:]
        func flush() {
            let changed = snapshot.merge(pending)
            if !changed.isEmpty { events.append(.vehicleData(changed)) }
            pending = [:]
        }
        while true {
            if nextIndex == trace.records.count {
                guard loops else {
                    isFinished = true
                    break
                }
                passStart += period
                completedLoops += 1
                nextIndex = 0
            }
            guard passStart + offsets[nextIndex] <= now else { break }
            for event in mapping.map(trace.records[nextIndex]) {
                if case .vehicleData(let values) = event {
                    pending.merge(values) { _, new in new }
                } else {
                    flush()
                    events.append(event)
                }
            }
            nextIndex += 1
        }
        flush()
        return events
    }
}
