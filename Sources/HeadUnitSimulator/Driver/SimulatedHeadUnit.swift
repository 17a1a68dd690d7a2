import Logging
import NIOCore
import NIOPosix
import SDLProtocol
import Synchronization

/// The simulated head unit on real sockets: a thin driver around the pure ``HeadUnit``.
///
/// It accepts TCP connections (SDL frames streamed with no extra framing, as on SDL Core's port
/// 12345), feeds their bytes and the time to the ``HeadUnit``, writes what it answers, and runs
/// its timers and the 10 Hz vehicle data. The control API reaches the same state through
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
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        if let address = server.channel.localAddress { onListening(address) }
        logger.info("head unit simulator listening", metadata: ["sdl.address": "\(server.channel.localAddress.map { "\($0)" } ?? "?")"])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await self.runTimers() }
            try await server.executeThenClose { inbound in
                for try await connection in inbound {
                    group.addTask { await self.serve(connection) }
                }
            }
        }
    }

    /// Runs the head unit on `host:port` (port 0 picks a free one) while `body` runs with the bound
    /// port, then stops it: how tests and embedders use a simulator for a while.
    public func withListening<T: Sendable>(host: String = "127.0.0.1", port: Int = 0, _ body: (Int) async throws -> T) async throws -> T {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { continuation.finish() }
                try await self.run(host: host, port: port) { continuation.yield($0.port ?? port) }
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

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
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
                            case .bytes(let bytes): try await outbound.write(bytes)
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
