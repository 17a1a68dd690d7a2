import Foundation
import NIOCore
import NIOPosix
import ProcessHarness
import SDLProtocol
import Synchronization

/// `fanout`: the head unit pushes OnVehicleData to one gateway app at `rate` Hz while `clients`
/// WebSocket clients follow the app's `vehicleData` events. Each value is an `odometer` reading
/// the harness sets through the head unit's control API (the simulator's, or `sdl-gateway hmi`'s
/// for a real Core), so every event is told apart and timed: from just before the control request
/// to the client receiving it. The drive is paused meanwhile.
struct FanOutScenario {
    /// The gateway (`host:port`) and its app.
    let gateway: String
    let app: String
    let rate: Int
    let duration: Duration

    struct Figures {
        var clients: Int
        var sent: Int
        var delivered: Int
        var latency: LatencySample
        var gatewayCPUSeconds: Double

        var deliveredFraction: Double { sent * clients == 0 ? 0 : Double(delivered) / Double(sent * clients) }
        /// Gateway CPU seconds per 1,000 delivered events.
        var cpuPerThousand: Double { delivered == 0 ? 0 : gatewayCPUSeconds / (Double(delivered) / 1000) }
    }

    /// Runs with `clients` clients. `setOdometer` sends one value through the control API;
    /// `firstValue` starts this run's values (they never repeat across runs).
    func run(
        clients: Int, firstValue: Int, cpuSeconds: @Sendable () -> Double,
        setOdometer: (Int) async throws -> Void
    ) async throws -> Figures {
        let connected = BenchSignal()
        let primed = BenchSignal()
        let finished = BenchSignal()
        let count = Int(Double(rate) * duration.seconds)
        let stopValue = firstValue + count
        let parts = gateway.split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1]) else {
            throw BenchFailure(description: "fanout: the gateway is host:port, not \(gateway)")
        }
        let host = String(parts[0])
        let path = "/v1/apps/\(app)/events?types=vehicleData&names=odometer"
        let receivers = Receivers()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    let connection = try await FanOutReceiver.connect(
                        host: host, port: port, path: path, firstValue: firstValue, stopValue: stopValue,
                        group: MultiThreadedEventLoopGroup.singleton
                    )
                    receivers.list.withLock { $0.append(connection) }
                    try await withTaskCancellationHandler {
                        try await connection.upgraded.get()
                        await connected.add()
                        try await connection.primed.get()
                        await primed.add()
                        try await connection.finished.get()
                        await finished.add()
                    } onCancel: {
                        connection.channel.close(promise: nil)
                    }
                    try await connection.channel.close()
                }
            }
            defer { group.cancelAll() }
            guard await connected.wait(for: clients, until: .now + .seconds(60)) else {
                throw BenchFailure(
                    description: "fanout: only \(await connected.value) of \(clients) WebSocket clients connected within 60 s")
            }
            // Prime until every client has seen a value: its subscription is live.
            var prime = firstValue - 1_000
            while await primed.value < clients {
                try await setOdometer(prime)
                prime += 1
                guard prime < firstValue - 500 else {
                    throw BenchFailure(description: "fanout: only \(await primed.value) of \(clients) clients received events")
                }
                _ = await primed.wait(for: clients, until: .now + .milliseconds(100))
            }
            let cpuBefore = cpuSeconds()
            let clock = ContinuousClock()
            let start = clock.now + .milliseconds(20)
            var sentAt: [Int: ContinuousClock.Instant] = [:]
            for index in 0..<count {
                try await Task.sleep(until: start + .milliseconds(1000 / rate) * index)
                sentAt[firstValue + index] = clock.now
                try await setOdometer(firstValue + index)
            }
            // The end value follows every measured one on each client's stream, so a client that
            // reads it has read them all; stragglers get 2 s.
            try await setOdometer(stopValue)
            _ = await finished.wait(for: clients, until: .now + .seconds(2))
            let cpu = cpuSeconds() - cpuBefore
            // What arrived by now counts; what a slow client had not received yet does not.
            var durations: [Duration] = []
            var delivered = 0
            var all: [[(Int, ContinuousClock.Instant)]] = []
            for connection in receivers.list.withLock({ $0 }) {
                let receiver = connection.receiver
                all.append(try await connection.channel.eventLoop.submit { receiver.value.receipts }.get())
            }
            for seen in all {
                for (value, received) in seen {
                    guard let sent = sentAt[value] else { continue }
                    delivered += 1
                    durations.append(received - sent)
                }
            }
            return Figures(clients: clients, sent: count, delivered: delivered, latency: LatencySample(durations), gatewayCPUSeconds: cpu)
        }
    }

    /// Every client's channel and receiver, to read their receipts at the end.
    final class Receivers: Sendable {
        let list = Mutex<[FanOutReceiver.Connection]>([])
    }
}
