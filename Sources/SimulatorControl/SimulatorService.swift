import HeadUnitSimulator
import NIOCore
import ServiceLifecycle

/// Runs a ``SimulatedHeadUnit`` as a service: listening until graceful shutdown.
public struct SimulatorService: Service {
    public let simulator: SimulatedHeadUnit
    public let host: String
    public let port: Int
    let onListening: @Sendable (SocketAddress) -> Void

    public init(simulator: SimulatedHeadUnit, host: String, port: Int, onListening: @escaping @Sendable (SocketAddress) -> Void = { _ in }) {
        self.simulator = simulator
        self.host = host
        self.port = port
        self.onListening = onListening
    }

    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await simulator.run(host: host, port: port, onListening: onListening)
            }
        } catch is CancellationError {
            // Graceful shutdown: the listener and every connection are closed.
        }
    }
}
