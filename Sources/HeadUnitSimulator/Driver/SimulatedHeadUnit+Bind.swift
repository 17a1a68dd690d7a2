import Logging
import NIOCore
import SDLTransport
import Synchronization

/// Binding first, serving second: a caller learns the real ports (port 0 → the one the system
/// picked) before it builds anything that needs them, and the simulator then serves the very
/// sockets it bound, with no window in which another process could take the port.
extension SimulatedHeadUnit {
    /// Listeners bound by ``SimulatedHeadUnit/bind(_:)``, waiting to be served by
    /// ``SimulatedHeadUnit/run(_:)`` (once), or closed by ``close()`` when they will not be.
    public final class BoundListeners: Sendable {
        /// The listeners as asked for (port 0 where any port would do).
        public let listeners: [Listener]
        /// The bound addresses, in the listeners' order.
        public let addresses: [SocketAddress]
        /// The bound ports, in the listeners' order.
        public var ports: [Int] { zip(addresses, listeners).map { address, listener in address.port ?? listener.port } }
        /// The server channels until ``SimulatedHeadUnit/run(_:)`` or ``close()`` takes them.
        private let servers: Mutex<[BoundListener]?>
        /// Completed when each server channel has closed, whoever took it: how a test learns that
        /// the sockets were freed without binding their ports again (which a parallel test may
        /// hold by then).
        let closeFutures: [EventLoopFuture<Void>]

        init(listeners: [Listener], servers: [BoundListener]) {
            self.listeners = listeners
            self.addresses = servers.compactMap(\.channel.localAddress)
            self.closeFutures = servers.map(\.channel.closeFuture)
            self.servers = Mutex(servers)
        }

        deinit {
            // Dropped without being served or closed: do not leave the sockets open.
            for server in take() ?? [] {
                server.channel.close(promise: nil)
            }
        }

        /// The server channels, once: `nil` after the first call.
        func take() -> [BoundListener]? {
            servers.withLock { servers in
                defer { servers = nil }
                return servers
            }
        }

        /// Closes the listeners without serving them (e.g. when starting up failed after binding).
        /// Does nothing once ``SimulatedHeadUnit/run(_:)`` has taken them.
        public func close() async {
            for server in take() ?? [] {
                try? await server.channel.close()
            }
        }
    }

    /// Binds every listener (TCP and WebSocket alike serve this one head unit) and returns them
    /// bound but not yet accepting: read ``BoundListeners/ports`` for the real ports, then serve
    /// them with ``run(_:)``. If one cannot be bound, those already bound are closed and the
    /// error is thrown.
    public func bind(_ listeners: [Listener]) async throws -> BoundListeners {
        var servers: [BoundListener] = []
        do {
            for listener in listeners { servers.append(try await bind(listener)) }
        } catch {
            for server in servers { try? await server.channel.close() }
            throw error
        }
        let bound = BoundListeners(listeners: listeners, servers: servers)
        for (listener, address) in zip(listeners, bound.addresses) {
            logger.info(
                "head unit simulator listening",
                metadata: ["sdl.address": "\(address)", "sdl.transport": "\(listener.transport)"]
            )
        }
        return bound
    }

    /// Serves listeners bound by ``bind(_:)`` and runs the head unit's timers until the task is
    /// cancelled; the listeners and every connection are closed when it returns. A
    /// ``BoundListeners`` is served once: running it again (or after ``BoundListeners/close()``)
    /// throws ``AlreadyServed``.
    public func run(_ bound: BoundListeners) async throws {
        guard let servers = bound.take() else { throw AlreadyServed() }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await self.runTimers() }
            for server in servers {
                group.addTask { try await self.accept(server) }
            }
        }
    }

    /// ``run(_:)`` was given listeners that were already served or closed.
    public struct AlreadyServed: Error, Hashable, CustomStringConvertible {
        public var description: String { "these listeners were already served or closed" }
    }

    /// Accepts the connections of one listener until it is closed or the task cancelled; each
    /// is served in its own child task.
    private func accept(_ server: BoundListener) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            switch server {
            case .tcp(let server):
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await self.serve(connection, framing: .stream) }
                    }
                }
            case .webSocket(let server):
                try await server.executeThenClose { inbound in
                    for try await accepted in inbound {
                        group.addTask {
                            // A failed or refused upgrade concerns that connection only.
                            guard let connection = try? await SDLWebSocketServer.upgraded(accepted) else { return }
                            await self.serve(connection, framing: .messagePerFrame)
                        }
                    }
                }
            }
        }
    }
}
