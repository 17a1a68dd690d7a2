import HeadUnitSimulator
import NIOCore
import ServiceLifecycle

/// Runs a ``SimulatedHeadUnit`` as a service: listening until graceful shutdown.
public struct SimulatorService: Service {
    public let simulator: SimulatedHeadUnit
    /// Where apps connect: TCP and, optionally, WebSocket, serving the one head unit.
    public let listeners: [SimulatedHeadUnit.Listener]
    let onListening: @Sendable ([SocketAddress]) -> Void

    /// A simulator on TCP at `host:port`.
    public init(simulator: SimulatedHeadUnit, host: String, port: Int, onListening: @escaping @Sendable (SocketAddress) -> Void = { _ in }) {
        self.init(simulator: simulator, listeners: [.tcp(host: host, port: port)]) { addresses in
            addresses.first.map(onListening)
        }
    }

    /// A simulator on every listener; `onListening` gets the bound addresses in their order.
    public init(
        simulator: SimulatedHeadUnit,
        listeners: [SimulatedHeadUnit.Listener],
        onListening: @escaping @Sendable ([SocketAddress]) -> Void = { _ in }
    ) {
        self.simulator = simulator
        self.listeners = listeners
        self.onListening = onListening
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await simulator.run(listeners, onListening: onListening)
            }
        } catch is CancellationError {
            // Graceful shutdown: the listeners and every connection are closed.
        }
    }
}
