import HummingbirdWSClient
import Logging
import NIOWebSocket
import ProcessHarness
import SDLProtocol
import Synchronization

/// The gateway's WebSocket RPC channel as a browser uses it: `GET /v1/apps/{id}/events` upgraded,
/// `{"id", "function", "params"}` sent, the reply with that `id` awaited (README, "Events"). The
/// stream is filtered to `hmiStatus` so that the replies are what arrives.
enum WebSocketRPCClient {
    /// Sends `function` with `params` and returns the reply (`{"id", "status", "response"}`).
    typealias Call = (_ function: String, _ params: SDLJSON) async throws -> SDLJSON

    /// The largest message read.
    static let maximumMessageSize = 1 << 20

    /// Opens the app's event WebSocket on `base` (`host:port`), runs `body` with one RPC at a
    /// time, then closes with 1000.
    static func run<Result: Sendable>(
        base: String, app: String, _ body: @escaping @Sendable (_ call: Call) async throws -> Result
    ) async throws -> Result {
        let outcome = Mutex<Result?>(nil)
        var logger = Logger(label: "sdl-gateway-bench.ws")
        logger.logLevel = .error
        try await WebSocketClient.connect(url: "ws://\(base)/v1/apps/\(app)/events?types=hmiStatus", logger: logger) {
            inbound, outbound, _ in
            var messages = inbound.messages(maxSize: maximumMessageSize).makeAsyncIterator()
            var next = 0
            func call(_ function: String, _ params: SDLJSON) async throws -> SDLJSON {
                next += 1
                let id = "b\(next)"
                let request: SDLJSON = ["id": .string(id), "function": .string(function), "params": params]
                try await outbound.write(.text(request.serialized()))
                while let message = try await messages.next() {
                    guard case .text(let text) = message, let reply = try? SDLJSON.parse(text), reply["id"]?.stringValue == id else {
                        continue
                    }
                    return reply
                }
                throw BenchFailure(description: "the gateway closed the WebSocket before answering \(function)")
            }
            let result = try await body(call)
            outcome.withLock { $0 = result }
            try await outbound.close(.normalClosure, reason: nil)
        }
        guard let result = outcome.withLock({ $0 }) else {
            throw BenchFailure(description: "the WebSocket to \(base) closed before the scenario ended")
        }
        return result
    }
}
