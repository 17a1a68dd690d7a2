import Foundation
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLProtocol
import Synchronization

/// Scenario 4, a notification burst: the head unit sends `count` OnVehicleData at full speed to
/// one app whose events `clients` WebSocket clients read, one of them slowly. The fast clients
/// must get every event in order; the slow one gets `gap` events whose `missed` counts add up
/// exactly to what it did not get; the gateway's memory stays bounded.
struct BurstScenario {
    let count: Int
    let clients: Int
    /// How long the slow client waits after each message while the burst lasts (20 ms: 50 a
    /// second, far behind it); once the fast clients have every event it reads at full speed, to
    /// find out what it missed.
    let slowPause: Duration

    /// A full GPS fix with each notification (about 600 bytes of event JSON), so that the full
    /// burst (6 MB) is about what the socket buffers between the gateway and the slow client hold
    /// on loopback. Larger events make the 100 readers of this suite (not the gateway) fall more
    /// than the WebSocket ping interval behind.
    static let parameters =
        #"{"speed":42.5,"rpm":2200,"fuelLevel":61.5,"odometer":123456,"#
        + #""gps":{"longitudeDegrees":-83.237,"latitudeDegrees":42.301,"utcYear":2026,"utcMonth":11,"utcDay":26,"utcHours":4,"utcMinutes":30,"utcSeconds":12,"#
        + #""compassDirection":"NORTHWEST","pdop":1.2,"hdop":0.9,"vdop":1.1,"actual":true,"satellites":11,"dimension":"3D","altitude":183.5,"heading":312.25,"speed":42.5,"shifted":false}}"#

    func run(_ rig: ReliabilityRig) async throws -> ScenarioResult {
        var result = ScenarioResult("burst")
        let app = "rel-burst"
        let api = rig.api
        try await api.createApp(app)
        let collectors = (0..<clients).map { _ in EventCollector() }
        let connected = BenchSignal()
        let stop = BenchSignal()
        // The slow client reads slowly until the fast ones have every event, then catches up.
        let slowPace = EventSocket.Pace(pause: slowPause, until: BenchSignal())
        let stats = rig.gateway.stats
        let residentBefore = stats.residentKiB
        let peak = Shared(residentBefore)
        let count = count
        let (fastComplete, slowComplete, burstTime, slowBehind) = try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, collector) in collectors.enumerated() {
                let pace = index == 0 ? slowPace : nil
                group.addTask {
                    try await EventSocket.run(
                        port: api.port, path: "/v1/apps/\(app)/events?types=vehicleData", into: collector, pace: pace, connected: connected,
                        stop: stop)
                }
            }
            guard await connected.wait(for: collectors.count, until: .now + .seconds(30)) else {
                throw BenchFailure(description: "burst: only \(await connected.value) of \(collectors.count) clients connected")
            }
            // The gateway's resident memory, sampled while the burst passes through it.
            group.addTask {
                while await stop.value == 0 {
                    let resident = stats.residentKiB
                    peak.withLock { $0 = max($0, resident) }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let started = ContinuousClock.now
            let burst = try await rig.control(
                .POST, "/faults",
                #"{"burst":{"notification":"OnVehicleData","count":\#(count),"params":\#(Self.parameters),"appID":"\#(app)"}}"#)
            guard burst.status == 201 else {
                throw BenchFailure(description: "burst: POST /faults answered \(burst.status): \(String(buffer: burst.body))")
            }
            func accounted(_ events: [SDLJSON]) -> Int {
                events.reduce(0) { sum, event in
                    sum + (event["type"] == "vehicleData" ? 1 : Int(event["data"]?["missed"]?.intValue ?? 0))
                }
            }
            // One deadline for all the fast clients, another for the slow one.
            let fastDeadline = ContinuousClock.now + .seconds(60)
            var fastComplete = true
            for collector in collectors.dropFirst() {
                let done = await collector.wait(within: max(.zero, fastDeadline - .now)) { accounted($0) >= count }
                fastComplete = fastComplete && done
            }
            let burstTime = ContinuousClock.now - started
            let slowBehind = count - accounted(collectors[0].events)
            await slowPace.until.add()
            let slowComplete = await collectors[0].wait(within: .seconds(60)) { accounted($0) >= count }
            await stop.add()
            try await group.waitForAll()
            return (fastComplete, slowComplete, burstTime, slowBehind)
        }
        var inOrder = true
        var fastDelivered: [Int] = []
        var fastGaps = 0
        for collector in collectors.dropFirst() {
            let events = collector.events
            let seqs = events.compactMap { $0["seq"]?.intValue }
            inOrder = inOrder && zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 }
            fastDelivered.append(events.filter { $0["type"] == "vehicleData" }.count)
            fastGaps += events.filter { $0["type"] == "gap" }.count
        }
        let slow = collectors[0].events
        let slowDelivered = slow.filter { $0["type"] == "vehicleData" }.count
        let slowMissed = slow.filter { $0["type"] == "gap" }.reduce(0) { $0 + Int($1["data"]?["missed"]?.intValue ?? 0) }
        let slowGapEvents = slow.filter { $0["type"] == "gap" }.count
        let peakKiB = peak.withLock { $0 }
        result["notifications"] = .int(Int64(count))
        result["clients"] = .int(Int64(clients))
        result["fastMinDelivered"] = .int(Int64(fastDelivered.min() ?? 0))
        result["fastGapEvents"] = .int(Int64(fastGaps))
        result["fastInOrder"] = .bool(inOrder)
        result["fastAllMs"] = .number(burstTime.milliseconds)
        result["slowBehindWhenFastDone"] = .int(Int64(slowBehind))
        result["slowDelivered"] = .int(Int64(slowDelivered))
        result["slowGapEvents"] = .int(Int64(slowGapEvents))
        result["slowMissed"] = .int(Int64(slowMissed))
        result["gatewayResidentBeforeKiB"] = .int(Int64(residentBefore))
        result["gatewayResidentPeakKiB"] = .int(Int64(peakKiB))
        result.check(
            fastComplete && fastDelivered.allSatisfy { $0 == count },
            "fast clients got \(fastDelivered.min() ?? 0)…\(fastDelivered.max() ?? 0) of \(count) (\(fastGaps) gap events)")
        result.check(inOrder, "a fast client's events were out of order")
        result.check(
            slowComplete && slowDelivered + slowMissed == count, "the slow client got \(slowDelivered) + missed \(slowMissed) ≠ \(count)")
        // Whether the slow client fell behind far enough to lose events depends on how much the
        // sockets between it and the gateway hold: a figure, not a check.
        result["slowClientWasBehind"] = .bool(slowGapEvents > 0)
        // 1,000 queued events per client and a 10,000-event ring bound it; 256 MiB is far above that.
        result.check(peakKiB - residentBefore < 256 * 1024, "the gateway grew \((peakKiB - residentBefore) / 1024) MiB")
        result.summary =
            "\(count) OnVehicleData to \(clients) clients: the \(clients - 1) fast ones got all, in order, in \(Int(burstTime.milliseconds)) ms; "
            + "the slow one, \(slowBehind) behind then, got \(slowDelivered) and \(slowGapEvents) gaps missing \(slowMissed) (sum \(slowDelivered + slowMissed)); gateway RSS \(residentBefore / 1024) → peak \(peakKiB / 1024) MiB"
        return result
    }
}
