import ServiceLifecycle

/// Ends every event stream when graceful shutdown begins, before the HTTP server is told: SSE
/// responses end and WebSockets close with 1001 (going away). The server's own graceful shutdown
/// closes a WebSocket still open with 1000 (hummingbird-websocket), so this service runs beside
/// the application, after it in the service group (services are told in reverse order), and
/// returns once every WebSocket sent its close, or after ``closeWriteLimit``.
public struct EventStreamCloser: Service {
    let hub: EventHub

    /// How long shutdown waits for the WebSockets' close frames to be written (a client that does
    /// not read holds them back); the server's shutdown follows.
    public static let closeWriteLimit: Duration = .seconds(2)

    public init(hub: EventHub) {
        self.hub = hub
    }

    public func run() async throws {
        try? await gracefulShutdown()
        hub.finishAll()
        await hub.webSockets.allClosed(within: Self.closeWriteLimit)
    }
}
