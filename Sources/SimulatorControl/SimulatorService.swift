import HeadUnitSimulator
import NIOCore
import ServiceLifecycle

/// Runs a ``SimulatedHeadUnit`` as a service: listening until graceful shutdown.
///
/// Either it binds when it starts (``init(simulator:listeners:onListening:)``, the ports are
/// reported through `onListening`), or it serves listeners the caller bound beforehand with
/// ``SimulatedHeadUnit/bind(_:)`` (``init(simulator:bound:)``), so the caller knew the real
/// ports before building the rest of the application.
public struct SimulatorService: Service {
    public let simulator: SimulatedHeadUnit
    /// Where apps connect: TCP and, optionally, WebSocket, serving the one head unit.
    public let listeners: [SimulatedHeadUnit.Listener]
    private let source: Source

    private enum Source: Sendable {
        case unbound(onListening: @Sendable ([SocketAddress]) -> Void)
        case bound(SimulatedHeadUnit.BoundListeners)
    }

    /// A simulator on TCP at `host:port`.
    public init(simulator: SimulatedHeadUnit, host: String, port: Int, onListening: @escaping @Sendable (SocketAddress) -> Void = { _ in })
    {
        self.init(simulator: simulator, listeners: [.tcp(host: host, port: port)]) { addresses in
            addresses.first.map(onListening)
        }
    }

    /// A simulator on every listener, bound when the service starts; `onListening` gets the bound
    /// addresses in their order.
    public init(
        simulator: SimulatedHeadUnit,
        listeners: [SimulatedHeadUnit.Listener],
        onListening: @escaping @Sendable ([SocketAddress]) -> Void = { _ in }
    ) {
        self.simulator = simulator
        self.listeners = listeners
        self.source = .unbound(onListening: onListening)
    }

    /// A simulator serving listeners already bound by `simulator.bind(_:)`; the service closes
    /// them when it stops.
    public init(simulator: SimulatedHeadUnit, bound: SimulatedHeadUnit.BoundListeners) {
        self.simulator = simulator
        self.listeners = bound.listeners
        self.source = .bound(bound)
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                switch source {
                case .unbound(let onListening):
                    try await simulator.run(listeners, onListening: onListening)
                case .bound(let bound):
                    try await simulator.run(bound)
                }
            }
        } catch is CancellationError {
            // Graceful shutdown: the listeners and every connection are closed.
        }
    }
}
