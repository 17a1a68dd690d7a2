import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import ProcessHarness
import SDLProtocol

/// Scenario 5, rapid connect/disconnect: `cycles` WebSocket event clients and `cycles` SSE
/// clients connect, see their stream open, and leave, `parallel` at a time. Afterwards the
/// gateway must hold what it held before: event clients (its gauge), open file descriptors,
/// threads, and about the same memory.
struct ChurnScenario {
    let cycles: Int
    let parallel = 8

    func run(_ rig: ReliabilityRig) async throws -> ScenarioResult {
        var result = ScenarioResult("churn")
        let app = "rel-churn"
        let api = rig.api
        try await api.createApp(app)
        let stats = rig.gateway.stats
        // One cycle of each first: what is allocated once (pools, caches) is in "before".
        try await webSocketCycle(port: api.port, app: app)
        try await serverSentEventsCycle(port: api.port, app: app)
        try await settle(api)
        let before = (stats.openFileDescriptors, stats.threads, stats.residentKiB, try await api.metric("sdl_gateway_event_clients") ?? -1)
        let started = ContinuousClock.now
        try await inParallel(cycles) { try await webSocketCycle(port: api.port, app: app) }
        let webSocketTime = ContinuousClock.now - started
        try await inParallel(cycles) { try await serverSentEventsCycle(port: api.port, app: app) }
        let sseTime = ContinuousClock.now - started - webSocketTime
        let settled = try await settle(api)
        let after = (stats.openFileDescriptors, stats.threads, stats.residentKiB, try await api.metric("sdl_gateway_event_clients") ?? -1)
        result["cycles"] = .int(Int64(cycles))
        result["webSocketCyclesPerSecond"] = .number(Double(cycles) / max(webSocketTime.milliseconds / 1000, 0.001))
        result["sseCyclesPerSecond"] = .number(Double(cycles) / max(sseTime.milliseconds / 1000, 0.001))
        result["fdsBefore"] = .int(Int64(before.0))
        result["fdsAfter"] = .int(Int64(after.0))
        result["threadsBefore"] = .int(Int64(before.1))
        result["threadsAfter"] = .int(Int64(after.1))
        result["residentBeforeKiB"] = .int(Int64(before.2))
        result["residentAfterKiB"] = .int(Int64(after.2))
        result["eventClientsBefore"] = .number(before.3)
        result["eventClientsAfter"] = .number(after.3)
        result.check(settled, "the gateway still counts event clients 10 s after the last one left")
        result.check(after.3 == before.3, "event clients \(before.3) → \(after.3)")
        result.check(after.0 <= before.0 + 2, "open file descriptors \(before.0) → \(after.0)")
        // Pools start and stop threads as they need them (Swift's cooperative pool, NIO's blocking
        // pool): one or two more is not a leak, which would show one per cycle.
        result.check(after.1 <= before.1 + 2, "threads \(before.1) → \(after.1)")
        // A leak of one event client's state (about 40 KiB each) would show as 40 MiB per 1,000.
        result.check(after.2 - before.2 < max(8 * 1024, cycles * 8), "resident memory \(before.2 / 1024) → \(after.2 / 1024) MiB")
        result.summary =
            "\(cycles) WebSocket + \(cycles) SSE cycles (\(parallel) at a time): event clients \(Int(before.3)) → \(Int(after.3)), "
            + "fds \(before.0) → \(after.0), threads \(before.1) → \(after.1), RSS \(before.2 / 1024) → \(after.2 / 1024) MiB"
        return result
    }

    /// Runs `cycle` `count` times, `parallel` at once.
    private func inParallel(_ count: Int, _ cycle: @escaping @Sendable () async throws -> Void) async throws {
        let parallel = parallel
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<parallel {
                group.addTask {
                    for _ in stride(from: worker, to: count, by: parallel) { try await cycle() }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Waits until the gateway counts no event client (every cycle's server side ended): whether
    /// it did within 10 s.
    @discardableResult
    private func settle(_ api: GatewayEndpoint) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await api.metric("sdl_gateway_event_clients") == 0 { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Upgrades, reads the first event (the replayed `connection` state or an `hmiStatus`), closes.
    private func webSocketCycle(port: Int, app: String) async throws {
        var logger = Logger(label: "sdl-gateway-reliability.churn")
        logger.logLevel = .critical
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/v1/apps/\(app)/events?since=0&types=hmiStatus", logger: logger) {
            inbound, outbound, _ in
            var messages = inbound.messages(maxSize: EventSocket.maximumMessageSize).makeAsyncIterator()
            _ = try await messages.next()
            try await outbound.close(.normalClosure, reason: nil)
        }
    }

    /// Opens the app's SSE stream, reads the response head and the first event, closes.
    private func serverSentEventsCycle(port: Int, app: String) async throws {
        let client = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        try await client.channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/v1/apps/\(app)/events?since=0&types=hmiStatus")
            head.headers.add(name: "Host", value: client.host)
            head.headers.add(name: "Accept", value: "text/event-stream")
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
            var parts = inbound.makeAsyncIterator()
            var status = 0
            while let part = try await parts.next() {
                switch part {
                case .head(let response): status = Int(response.status.code)
                case .body(let chunk) where String(buffer: chunk).contains("event:"): return
                case .body: continue
                case .end: throw BenchFailure(description: "churn: the SSE stream ended (status \(status))")
                }
            }
            throw BenchFailure(description: "churn: the gateway closed the SSE stream (status \(status))")
        }
    }
}
