import Logging
import NIOCore
import SDLProtocol
import SDLTime
import Synchronization

/// The simulated head unit on real sockets: a thin driver around the pure ``HeadUnit``.
///
/// It accepts TCP connections (SDL frames streamed with no extra framing, as on SDL Core's port
/// 12345) and, when asked, WebSocket connections (one SDL frame per binary message, any request
/// path, as on Core's WebSocket server for apps, port 2020; docs/protocol.md §e), feeds their
/// bytes and the time to the one ``HeadUnit``, writes what it answers, and runs its timers. The
/// control API reaches the same state through ``perform(_:)``.
///
/// Timers: one loop sleeps on the injected `SDLClock` until ``HeadUnit/nextDeadline`` and no
/// longer; any input that brings that deadline forward (a frame, a connection, a control call)
/// wakes it to sleep again with the new one. With nothing due it does not wake at all.
///
/// Serving: ``bind(_:)`` then ``run(_:)`` (the caller learns the ports before serving), or
/// ``run(_:onListening:)`` and ``withListening(_:_:)`` which do both. Cancelling the task that
/// serves closes the listeners and every connection.
public final class SimulatedHeadUnit: Sendable {
    private enum Outbound: Sendable {
        case bytes(ByteBuffer)
        case close
    }

    /// The head unit and what the timer loop is waiting for, under one lock so that an input
    /// sees the deadline the loop sleeps until.
    struct Driven: Sendable {
        var unit: HeadUnit
        /// `nil` until the timer loop computed a deadline; then the deadline it sleeps until
        /// (itself `nil` when nothing is due).
        var timerLoopDeadline: NIODeadline??

        /// Whether the timer loop must wake to recompute: the head unit's next deadline is
        /// earlier than the one the loop sleeps until.
        var timerLoopMustWake: Bool {
            guard case .some(let sleepingUntil) = timerLoopDeadline, let next = unit.nextDeadline else { return false }
            guard let sleepingUntil else { return true }
            return next < sleepingUntil
        }
    }

    /// Frames waiting to be written to one connection; a connection that does not read closes
    /// instead of growing this without bound. Above the largest burst the control API sends
    /// (10,000 notifications) with room for what the app's requests are answered with meanwhile:
    /// an app that reads, however slowly, gets every frame.
    static let outboundQueueLimit = 30_000

    /// Where `now` comes from and how the timer loop sleeps.
    public let clock: any SDLClock
    let state: Mutex<Driven>
    private let writers = Mutex<[ConnectionID: AsyncStream<Outbound>.Continuation]>([:])
    let wakeUpSignal = WakeUpSignal()
    /// Rings when something happened on a stream (``HeadUnit/streamGeneration``): wakes the live
    /// stream readers (``followStream(appID:_:maximumMessageSize:_:)``).
    let streamSignal = WakeUpSignal()
    /// How many times the timer loop woke up (to advance the head unit and compute a deadline).
    let timerWakeUps = Atomic<Int>(0)
    let logger: Logger

    public init(configuration: HeadUnitConfiguration = HeadUnitConfiguration(), clock: any SDLClock = SDLSystemClock(), logger: Logger) {
        self.state = Mutex(Driven(unit: HeadUnit(configuration: configuration)))
        self.clock = clock
        self.logger = logger
    }

    /// Reads or changes the head unit (the control API); the actions it returns are carried out.
    /// The head unit is first brought up to the clock's time (``HeadUnit/advance(to:)``).
    public func perform<T>(_ body: (inout HeadUnit, NIODeadline) throws -> (T, [HeadUnitAction])) rethrows -> T {
        try update { unit, now in
            let due = unit.advance(to: now)
            let (value, actions) = try body(&unit, now)
            return (value, due + actions)
        }
    }

    /// A snapshot of the head unit, brought up to the clock's time first (so its vehicle data is
    /// current even when no app is subscribed and the timer loop sleeps).
    public var snapshot: HeadUnit {
        update { unit, now in
            let due = unit.advance(to: now)
            return (unit, due)
        }
    }

    /// Applies an input to the head unit at the clock's time, wakes the timer loop when the input
    /// brought the next deadline forward, and carries out the actions.
    private func update<T>(_ body: (inout HeadUnit, NIODeadline) throws -> (T, [HeadUnitAction])) rethrows -> T {
        let (value, mustWake, streamed) = try state.withLock { driven in
            let generation = driven.unit.streamGeneration
            let (value, actions) = try body(&driven.unit, clock.now())
            // Carried out under the lock, so that writes reach each app in the order the head unit
            // made them: outside it, the timer loop could write an activation's OnHMIStatus FULL
            // before the RegisterAppInterface response and OnHMIStatus NONE that preceded it.
            execute(actions)
            return (value, driven.timerLoopMustWake, driven.unit.streamGeneration != generation)
        }
        if mustWake { wakeUpSignal.ring() }
        if streamed { streamSignal.ring() }
        return value
    }

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
    /// bound, and serves until the task is cancelled: ``bind(_:)`` then ``run(_:)``.
    public func run(_ listeners: [Listener], onListening: @Sendable ([SocketAddress]) -> Void = { _ in }) async throws {
        let bound = try await bind(listeners)
        onListening(bound.addresses)
        try await run(bound)
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
        let bound = try await bind(listeners)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.run(bound) }
            defer { group.cancelAll() }
            return try await body(bound.ports)
        }
    }

    /// Fires the head unit's timers: advances it to the clock's time, then sleeps until its next
    /// deadline or until an input rings ``wakeUpSignal``, whichever comes first.
    func runTimers() async throws {
        while true {
            try Task.checkCancellation()
            timerWakeUps.add(1, ordering: .relaxed)
            let (deadline, rings) = state.withLock { driven in
                execute(driven.unit.advance(to: clock.now()))  // under the lock, in order (see update)
                let deadline = driven.unit.nextDeadline
                driven.timerLoopDeadline = .some(deadline)
                return (deadline, wakeUpSignal.rings)
            }
            wakeUpSignal.parked(until: deadline)
            try await sleep(until: deadline, orRingAfter: rings)
        }
    }

    private func sleep(until deadline: NIODeadline?, orRingAfter rings: UInt64) async throws {
        guard let deadline else {
            await wakeUpSignal.wait(since: rings)
            return
        }
        guard deadline > clock.now() else { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.clock.sleep(until: deadline) }
            group.addTask { await self.wakeUpSignal.wait(since: rings) }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>, framing: Framing) async {
        let id = update { unit, _ in (unit.connectionOpened(), []) }
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
                            self.update { unit, now in ((), unit.receive(bytes, on: id, now: now)) }
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
        update { unit, now in ((), unit.connectionClosed(id, now: now)) }
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
