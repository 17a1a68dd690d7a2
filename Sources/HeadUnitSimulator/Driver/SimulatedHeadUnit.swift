import Logging
import NIOCore
import NIOPosix
import SDLProtocol
import SDLTransport
import Synchronization

/// The simulated head unit on real sockets: a thin driver around the pure ``HeadUnit``.
///
/// It accepts TCP connections (SDL frames streamed with no extra framing, as on SDL Core's port
/// 12345) and, when asked, WebSocket connections (one SDL frame per binary message, any request
/// path, as on Core's WebSocket server for apps, port 2020; SDL-PROTOCOL.md §e), feeds their
/// bytes and the time to the one ``HeadUnit``, writes what it answers, and runs its timers and
/// the 10 Hz vehicle data. The control API reaches the same state through
/// ``perform(_:)``. Run it as a task; cancelling the task closes every connection.
public final class SimulatedHeadUnit: Sendable {
    private enum Outbound: Sendable {
        case bytes(ByteBuffer)
        case close
    }

    /// Frames waiting to be written to one connection; a connection that does not read closes
    /// instead of growing this without bound.
    static let outboundQueueLimit = 10_000
    /// How late a timer may fire at worst: the driver re-reads the next deadline this often.
    static let timerResolution = TimeAmount.milliseconds(10)

    private let state: Mutex<HeadUnit>
    private let writers = Mutex<[ConnectionID: AsyncStream<Outbound>.Continuation]>([:])
    private let logger: Logger

    public init(configuration: HeadUnitConfiguration = HeadUnitConfiguration(), logger: Logger) {
        self.state = Mutex(HeadUnit(configuration: configuration))
        self.logger = logger
    }

    /// Reads or changes the head unit (the control API); the actions it returns are carried out.
    public func perform<T>(_ body: (inout HeadUnit, NIODeadline) throws -> (T, [HeadUnitAction])) rethrows -> T {
        let (value, actions) = try state.withLock { unit in try body(&unit, .now()) }
        execute(actions)
        return value
    }

    /// A snapshot of the head unit.
    public var snapshot: HeadUnit { state.withLock { $0 } }

    /// Listens on `host:port` (port 0 picks a free one, reported through `onListening`) and serves
    /// until the task is cancelled.
    public func run(host: String, port: Int, onListening: @Sendable (SocketAddress) -> Void = { _ in }) async throws {
        try await run([.tcp(host: host, port: port)]) { addresses in addresses.first.map(onListening) }
    }

    /// Listens for apps on SDL Core's WebSocket server for apps convention at `host:port` (port 0
    /// picks a free one, reported through `onListening`) and serves until the task is cancelled.
    public func runWebSocket(host: String, port: Int, onListening: @Sendable (SocketAddress) -> Void = { _ in }) async throws {
        try await run([.webSocket(host: host, port: port)]) { addresses in addresses.first.map(onListening) }
    }

    /// Listens on every listener (TCP and WebSocket alike serve this one head unit, so apps on
    /// both see each other), reports the bound addresses in the listeners' order once all are
    /// bound, and serves until the task is cancelled.
    public func run(_ listeners: [Listener], onListening: @Sendable ([SocketAddress]) -> Void = { _ in }) async throws {
        var bound: [BoundListener] = []
        do {
            for listener in listeners { bound.append(try await bind(listener)) }
        } catch {
            for server in bound { try? await server.channel.close() }
            throw error
        }
        let addresses = bound.compactMap(\.channel.localAddress)
        onListening(addresses)
        for (listener, address) in zip(listeners, addresses) {
            logger.info(
                "head unit simulator listening",
                metadata: ["sdl.address": "\(address)", "sdl.transport": "\(listener.transport)"]
            )
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await self.runTimers() }
            for server in bound {
                group.addTask { try await self.accept(server) }
            }
        }
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

    /// Runs the head unit on `host:port` (port 0 picks a free one) while `body` runs with the bound
    /// port, then stops it: how tests and embedders use a simulator for a while.
    public func withListening<T: Sendable>(host: String = "127.0.0.1", port: Int = 0, _ body: (Int) async throws -> T) async throws -> T {
        try await withListening([.tcp(host: host, port: port)]) { ports in try await body(ports[0]) }
    }

    /// Runs the head unit on `listeners` (port 0 picks a free one) while `body` runs with the bound
    /// ports in the listeners' order, then stops it; e.g. `[.tcp(…), .webSocket(…)]` serves one
    /// head unit over both transports.
    public func withListening<T: Sendable>(_ listeners: [Listener], _ body: ([Int]) async throws -> T) async throws -> T {
        let (ports, continuation) = AsyncStream<[Int]>.makeStream()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await self.run(listeners) { addresses in
                    continuation.yield(zip(addresses, listeners).map { address, listener in address.port ?? listener.port })
                }
            }
            var iterator = ports.makeAsyncIterator()
            guard let bound = await iterator.next() else {
                try await group.next()
                throw CancellationError()
            }
            defer { group.cancelAll() }
            return try await body(bound)
        }
    }

    /// Fires the head unit's timers (interactions, activation, audio pass-thru, vehicle data).
    private func runTimers() async throws {
        while true {
            let now = NIODeadline.now()
            let next = state.withLock { $0.nextDeadline } ?? now + Self.timerResolution
            let wait = min(next - now, Self.timerResolution)
            if wait > .zero { try await Task.sleep(for: .nanoseconds(wait.nanoseconds)) }
            let actions = state.withLock { $0.advance(to: .now()) }
            execute(actions)
        }
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, framing: Framing) async {
        let id = state.withLock { $0.connectionOpened() }
        let (stream, continuation) = AsyncStream<Outbound>.makeStream(bufferingPolicy: .bufferingOldest(Self.outboundQueueLimit))
        writers.withLock { $0[id] = continuation }
        let logger = self.logger.with(metadataKey: "sdl.connection", value: "\(id.rawValue)")
        logger.debug("app connected")
        do {
            try await connection.executeThenClose { inbound, outbound in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await item in stream {
                            switch item {
                            case .bytes(let bytes):
                                switch framing {
                                case .stream: try await outbound.write(bytes)
                                case .messagePerFrame: try await outbound.write(contentsOf: Self.frames(in: bytes))
                                }
                            case .close: return
                            }
                        }
                    }
                    group.addTask {
                        for try await bytes in inbound {
                            let actions = self.state.withLock { $0.receive(bytes, on: id, now: .now()) }
                            self.execute(actions)
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["error": "\(error)"])
        }
        writers.withLock { $0.removeValue(forKey: id) }?.finish()
        let actions = state.withLock { $0.connectionClosed(id, now: .now()) }
        execute(actions)
        logger.debug("app disconnected")
    }

    private func execute(_ actions: [HeadUnitAction]) {
        guard !actions.isEmpty else { return }
        writers.withLock { writers in
            for action in actions {
                switch action {
                case .write(let id, let bytes):
                    guard let writer = writers[id] else { continue }
                    if case .dropped = writer.yield(.bytes(bytes)) {
                        // The app stopped reading: close rather than buffer without bound.
                        writer.finish()
                        writers[id] = nil
                    }
                case .close(let id):
                    writers[id]?.yield(.close)
                    writers[id]?.finish()
                    writers[id] = nil
                }
            }
        }
    }
}

extension Logger {
    func with(metadataKey key: String, value: String) -> Logger {
        var copy = self
        copy[metadataKey: key] = .string(value)
        return copy
    }
}
