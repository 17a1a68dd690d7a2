import HummingbirdWSClient
import Logging
import NIOWebSocket
import ProcessHarness
import SDLProtocol
import Synchronization

/// What one event client received, in order, readable while it is still receiving.
final class EventCollector: Sendable {
    private let received = Mutex<[SDLJSON]>([])

    func append(_ event: SDLJSON) {
        received.withLock { $0.append(event) }
    }

    var events: [SDLJSON] { received.withLock { $0 } }

    /// Events of `type`.
    func events(_ type: String) -> [SDLJSON] {
        received.withLock { $0.filter { $0["type"]?.stringValue == type } }
    }

    /// Polls until `condition` holds for what arrived, at most `limit`: whether it did.
    func wait(within limit: Duration, until condition: ([SDLJSON]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if received.withLock({ condition($0) }) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return received.withLock { condition($0) }
    }

    /// The `state` of each `connection` event so far, in order.
    var connectionStates: [String] {
        events("connection").compactMap { $0["data"]?["state"]?.stringValue }
    }

    /// Waits, at most `limit`, until the last `connection` event says `state`. The event arrives
    /// on its own socket, so it can trail the HTTP answer that already shows the new state.
    func waitForConnection(_ state: String, within limit: Duration = .seconds(5)) async -> Bool {
        await wait(within: limit) { received in
            received.last { $0["type"]?.stringValue == "connection" }?["data"]?["state"]?.stringValue == state
        }
    }
}

/// Event WebSocket clients as browsers hold them: `GET /v1/apps/{id}/events` upgraded, every
/// message kept in an ``EventCollector``.
enum EventSocket {
    static let maximumMessageSize = 1 << 20

    /// How a client reads: at once, or waiting `pause` after each message until `until` reaches 1
    /// (a reader that falls behind, then catches up).
    struct Pace: Sendable {
        var pause: Duration
        var until: BenchSignal
    }

    /// Connects to `path` on the gateway, adds 1 to `connected` once upgraded, keeps every message
    /// (at `pace`) until `stop` reaches 1, then closes.
    static func run(
        port: Int, path: String, into collector: EventCollector, pace: Pace? = nil, connected: BenchSignal, stop: BenchSignal
    ) async throws {
        var logger = Logger(label: "sdl-gateway-reliability.ws")
        logger.logLevel = .critical
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)\(path)", logger: logger) { inbound, outbound, _ in
            await connected.add()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var messages = inbound.messages(maxSize: maximumMessageSize).makeAsyncIterator()
                    while let message = try await messages.next() {
                        if case .text(let text) = message, let event = try? SDLJSON.parse(text) { collector.append(event) }
                        if let pace, await pace.until.value == 0 { try await Task.sleep(for: pace.pause) }
                    }
                }
                group.addTask { _ = await stop.wait(for: 1) }
                // The first to end: stop, or the gateway closing the stream.
                _ = try await group.next()
                group.cancelAll()
            }
            try? await outbound.close(.normalClosure, reason: nil)
        }
    }

    /// Runs `body` while one client reads `path` into `collector`.
    static func with<Result: Sendable>(
        port: Int, path: String, into collector: EventCollector, _ body: () async throws -> Result
    ) async throws -> Result {
        let connected = BenchSignal()
        let stop = BenchSignal()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await run(port: port, path: path, into: collector, connected: connected, stop: stop) }
            guard await connected.wait(for: 1, until: .now + .seconds(10)) else {
                throw BenchFailure(description: "the event WebSocket \(path) did not connect")
            }
            do {
                let result = try await body()
                await stop.add()
                try await group.waitForAll()
                return result
            } catch {
                await stop.add()
                group.cancelAll()
                throw error
            }
        }
    }
}
