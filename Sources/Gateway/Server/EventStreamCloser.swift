import ServiceLifecycle

/// Ends every event stream when graceful shutdown begins. It runs after the HTTP server in the
/// service group, so it is told first (services stop in reverse order): SSE responses end and
/// WebSockets close with 1001 before the server waits for its requests to finish.
public struct EventStreamCloser: Service {
    let hub: EventHub

    public init(hub: EventHub) {
        self.hub = hub
    }

    public func run() async throws {
        try? await gracefulShutdown()
        hub.finishAll()
    }
}
