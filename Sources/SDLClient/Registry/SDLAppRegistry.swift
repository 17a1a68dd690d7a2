import Logging
import NIOCore
import SDLTime
import Synchronization

/// Many app sessions to one or more head units (docs/architecture.md, the app resource and
/// `POST`/`DELETE /v1/apps`): each ``SDLAppSession`` under a registry id, with its head unit
/// address (`host:port` for tcp, `ws://host:port` for Core's WebSocket device;
/// ``SDLAppRegistryIndex/headUnit(address:)``).
///
/// All sessions of the gateway look like one device to SDL Core (docs/protocol.md §e "Ports and
/// transports"), so ``add(id:configuration:)`` refuses an app whose app id (`fullAppID` if set)
/// or app name / VR synonym clashes with another app on the same head unit, and a taken registry
/// id, with ``SDLClientError/Code/duplicateApp`` before anything is sent (§e "Registration and
/// limits"; ``SDLAppRegistryIndex``).
///
/// ``run()`` is structured: it runs every session's ``SDLAppSession/run()`` in one discarding task
/// group; sessions added later join it through a stream. ``shutdown()`` closes every session
/// (UnregisterAppInterface, then EndService) and makes ``run()`` return.
public final class SDLAppRegistry: Sendable {
    /// One app of the registry.
    public struct Entry: Sendable {
        public let id: String
        /// ``SDLAppRegistryIndex/headUnit(address:)``: `host:port` or `ws://host:port`, the
        /// host lowercased.
        public let headUnit: String
        public let session: SDLAppSession
    }

    private struct State: Sendable {
        var index = SDLAppRegistryIndex()
        var sessions: [String: SDLAppSession] = [:]
        var shuttingDown = false
        /// Taken by the one ``run()``.
        var newSessions: AsyncStream<SDLAppSession>?
        /// Sessions whose `run()` is in progress inside ``run()``.
        var running = 0
        /// No more sessions join ``run()``; once `running` is 0 it may return.
        var draining = false
    }

    private let state: Mutex<State>
    private let newSessions: AsyncStream<SDLAppSession>.Continuation
    private let allEnded: AsyncStream<Void>
    private let allEndedContinuation: AsyncStream<Void>.Continuation
    private let backoff: SDLBackoff
    private let eventBufferLimit: Int
    private let clock: any SDLClock
    private let shutdownGracePeriod: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - backoff: the reconnect backoff of each session.
    ///   - clock: the time of every session (backoff, timers, request deadlines) and of the
    ///     shutdown grace period.
    ///   - shutdownGracePeriod: how long ``run()`` waits, after ``shutdown()`` closed every
    ///     session, for the sessions to end before it cancels them. Longer than Core's EndService
    ///     answer time (the client waits 11 s, ``SDLSessionStateMachine/Configuration``) so a clean
    ///     end is never cut short.
    /// - Parameter eventBufferLimit: how many events may wait for the reader of each session's
    ///   events (``SDLAppSession/init(configuration:backoff:clock:eventBufferLimit:logger:)``).
    public init(
        backoff: SDLBackoff = SDLBackoff(), clock: any SDLClock = SDLSystemClock(), shutdownGracePeriod: Duration = .seconds(12),
        eventBufferLimit: Int = SDLConnection.eventBufferLimit, logger: Logger
    ) {
        self.eventBufferLimit = eventBufferLimit
        let (stream, continuation) = AsyncStream<SDLAppSession>.makeStream()
        (allEnded, allEndedContinuation) = AsyncStream<Void>.makeStream()
        self.newSessions = continuation
        self.state = Mutex(State(newSessions: stream))
        self.backoff = backoff
        self.clock = clock
        self.shutdownGracePeriod = shutdownGracePeriod
        self.logger = logger
    }

    /// Adds an app session under `id` (or a generated `app-N`); ``run()`` starts it. Throws
    /// ``SDLClientError/Code/duplicateApp`` for a taken id or an app clashing with another on the
    /// same head unit, the errors of ``SDLRegistrationParameters/make(from:catalog:)`` for
    /// parameters the head unit would refuse, and ``SDLClientError/Code/closed`` once
    /// ``shutdown()`` began; nothing is sent then.
    ///
    /// `capture`, given the app's registry id once it is known, may return the tap that records
    /// the session's bytes (``SDLConnection/Configuration/capture``).
    @discardableResult
    public func add(
        id: String? = nil, configuration: SDLConnection.Configuration, capture: ((_ id: String) -> SDLCaptureTap?)? = nil
    ) throws(SDLClientError) -> SDLAppSession {
        _ = try SDLRegistrationParameters.make(from: configuration.app, catalog: configuration.catalog)
        let headUnit = SDLAppRegistryIndex.headUnit(address: configuration.address)
        return try state.withLock { state throws(SDLClientError) -> SDLAppSession in
            guard !state.shuttingDown else {
                throw SDLClientError(.closed, "the registry is shutting down")
            }
            let id = id ?? state.index.makeID()
            try state.index.claim(id: id, headUnit: headUnit, app: configuration.app)
            var configuration = configuration
            if let capture { configuration.capture = capture(id) }
            var logger = self.logger
            logger[metadataKey: "sdl.registryID"] = "\(id)"
            let session = SDLAppSession(
                configuration: configuration, backoff: backoff, clock: clock, eventBufferLimit: eventBufferLimit, logger: logger)
            state.sessions[id] = session
            // Under the lock, so no session is yielded after shutdown() finished the stream.
            newSessions.yield(session)
            return session
        }
    }

    /// Closes the session `id` (UnregisterAppInterface, then EndService) and forgets it; returns
    /// whether there was one. Its app id and names stay taken until the close is done, so a
    /// replacement never meets the old app on the head unit.
    @discardableResult
    public func remove(id: String) async -> Bool {
        guard let session = state.withLock({ $0.sessions.removeValue(forKey: id) }) else { return false }
        await session.close()
        state.withLock { _ = $0.index.release(id: id) }
        return true
    }

    public func session(id: String) -> SDLAppSession? {
        state.withLock { $0.sessions[id] }
    }

    public func entry(id: String) -> Entry? {
        state.withLock { state in
            guard let claim = state.index.claim(id: id), let session = state.sessions[id] else { return nil }
            return Entry(id: id, headUnit: claim.headUnit, session: session)
        }
    }

    /// Every app, in the order they were added.
    public var all: [Entry] {
        state.withLock { state in
            state.index.claims.compactMap { claim in
                state.sessions[claim.id].map { Entry(id: claim.id, headUnit: claim.headUnit, session: $0) }
            }
        }
    }

    /// Runs every session, those added later too, until ``shutdown()`` (or cancellation). Only
    /// the first call runs; a second returns at once.
    public func run() async {
        guard
            let sessions = state.withLock({ state in
                defer { state.newSessions = nil }
                return state.newSessions
            })
        else {
            logger.warning("SDLAppRegistry.run() is already running")
            return
        }
        await withDiscardingTaskGroup { group in
            for await session in sessions {
                state.withLock { $0.running += 1 }
                group.addTask {
                    await session.run()
                    self.sessionEnded()
                }
            }
            // shutdown() closed every session and finished the stream, or run() was cancelled.
            let idle = state.withLock { state in
                state.draining = true
                return state.running == 0
            }
            if idle { allEndedContinuation.finish() }
            if await !sessionsEnd(within: shutdownGracePeriod) {
                logger.warning("app sessions did not end within the shutdown grace period; cancelling them")
                group.cancelAll()
            }
        }
    }

    private func sessionEnded() {
        let idle = state.withLock { state in
            state.running -= 1
            return state.draining && state.running == 0
        }
        if idle { allEndedContinuation.finish() }
    }

    /// Whether every session's `run()` returned within `period`.
    private func sessionsEnd(within period: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in self.allEnded {}
                return !Task.isCancelled
            }
            group.addTask {
                let (seconds, attoseconds) = period.components
                try? await self.clock.sleep(for: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
                return false
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }

    /// Closes every session (UnregisterAppInterface, then EndService, all at once), refuses new
    /// ones and makes ``run()`` return once they ended.
    public func shutdown() async {
        let sessions = state.withLock { state in
            state.shuttingDown = true
            return state.index.claims.compactMap { state.sessions[$0.id] }
        }
        await withDiscardingTaskGroup { group in
            for session in sessions {
                group.addTask { await session.close() }
            }
        }
        state.withLock { state in
            state.sessions = [:]
            state.index = SDLAppRegistryIndex()
            newSessions.finish()
        }
    }
}
