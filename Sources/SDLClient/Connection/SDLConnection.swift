import Logging
import NIOCore
import NIOPosix
import NIOSSL
import SDLProtocol
import SDLSpec
import SDLTime
import SDLTransport
import Synchronization

/// One SDL app session over one transport connection to a head unit: SDL Core's TCP app port
/// (12345) or its WebSocket server for apps (ws/wss, 2020; docs/protocol.md §e "Ports and
/// transports"). It connects, negotiates the protocol, registers the app, carries requests with
/// deadlines, keeps the app's state and ends with UnregisterAppInterface and EndService.
///
/// Every decision is made by ``SDLConnectionStateMachine``; this type is its thin driver. It
/// moves bytes in and frames out, keeps one wake-up on its ``SDLClock`` at the machine's complete
/// next deadline (none while nothing is due), resumes callers and publishes events:
///
/// - Frames are handed to the link's ``SDLLinkOutbox`` in the same critical section that numbers
///   them, so message ids reach the head unit in increasing order however many tasks send at
///   once; its one task on the event loop writes what was handed over and flushes once. Every SDL
///   frame is written as its own buffer, and all the frames of one message in the same flush:
///   over WebSocket each frame is then one binary message, as Core sends them (§e).
/// - A caller whose task is cancelled fails at once with ``SDLClientError/Code/cancelled`` and
///   frees its pending-request slot; a caller cancelled before its request was queued sends
///   nothing and takes no rate-limit count.
/// - ``events`` is bounded: a consumer that falls behind gets ``Event/lost(count:)`` where events
///   were dropped.
///
/// - With ``Configuration/capture`` set (`serve --record`), every buffer read from and written to
///   the transport, and the connection's opening and end, go to that ``SDLCaptureTap`` without
///   waiting; without it nothing is recorded.
///
/// A connection is one-shot (as a grpc-swift subchannel's connection is): when the link goes, every pending request fails
/// at once with ``SDLClientError/Code/linkLost`` and ``run()`` returns; a supervisor
/// (``SDLAppSession``) owns reconnection. When its owner ends it with ``close()``, pending requests
/// fail with ``SDLClientError/Code/cancelled`` instead: nothing broke, the app is going away.
public final class SDLConnection: Sendable {
    /// What a connection publishes.
    public enum Event: Sendable {
        /// What the head unit changed about the app.
        case app(SDLAppEvent)
        /// `count` events were dropped here because the consumer fell behind; delivered where
        /// they were lost.
        case lost(count: Int)
        /// The head unit accepted RegisterAppInterface: its response, once per link, never dropped
        /// (the session restores what the app had from here, ``SDLAppSession``).
        case registered(SDLRPCMessage)
    }

    typealias Waiter = CheckedContinuation<SDLRPCMessage, any Error>
    typealias Machine = SDLConnectionStateMachine<Waiter>

    struct State: Sendable {
        var machine: Machine
        /// The open link: frames go to its outbox from the critical section that numbers them
        /// (one write per frame; a message's frames in one flush); ``closeLink(_:)`` ends it.
        var link: Link?
        var alarm = SDLDriverAlarm()
        /// The caller of each streaming service's pending StartService or EndService
        /// (SDLConnection+Streaming.swift); the machine allows one per service.
        var streamWaiters: [SDLStreamingService: (call: UInt64, waiter: StreamWaiter)] = [:]
        /// Numbers the streaming calls, so a cancelled one removes only its own waiter.
        var nextStreamCall: UInt64 = 0
    }

    typealias StreamWaiter = CheckedContinuation<SDLStreamingAccepted?, any Error>

    /// Shared with the state machine, which keeps the same configuration.
    private let sharedConfiguration: Machine.SharedConfiguration
    public var configuration: Configuration { sharedConfiguration.value }
    let state: Mutex<State>
    private let clock: any SDLClock
    private let logger: Logger
    private let eventStream: SDLEventStream<Event>
    private let eventSource: SDLEventStream<Event>.Source

    struct Link: Sendable {
        let channel: any Channel
        /// The channel's writability, for stream data (``SDLWriteGate``).
        let gate: SDLWriteGate
        /// Every frame to the channel goes through it, in the machine's order.
        let outbox: SDLLinkOutbox
    }

    /// How many events wait for a slow reader before new ones are dropped (and counted).
    public static let eventBufferLimit = 1000

    /// - Parameters:
    ///   - clock: the time of the session's timers and request deadlines.
    ///   - eventBufferLimit: how many events may wait for the reader of ``events``.
    public init(
        configuration: Configuration,
        clock: any SDLClock = SDLSystemClock(),
        eventBufferLimit: Int = SDLConnection.eventBufferLimit,
        logger: Logger
    ) {
        let shared = Machine.SharedConfiguration(configuration)
        self.sharedConfiguration = shared
        self.clock = clock
        self.logger = logger
        self.state = Mutex(State(machine: Machine(shared: shared)))
        (eventStream, eventSource) = SDLEventStream.makeStream(capacity: eventBufferLimit) { .lost(count: $0) }
    }

    /// What the head unit says about the app (HMI status, appState, lock screen, permissions …),
    /// with ``Event/lost(count:)`` where a slow reader missed events, and
    /// ``Event/registered(_:)`` once the head unit accepted the registration (never dropped).
    public var events: SDLEventStream<Event> { eventStream }

    /// Every event this connection published, including those its reader missed.
    public var publishedEventCount: Int { eventSource.published }

    /// The app's state now.
    public var tracker: SDLAppStateTracker { state.withLock { $0.machine.tracker } }

    /// The negotiated session, once StartService was acknowledged.
    public var sessionParameters: SDLSessionStateMachine.SessionParameters? { state.withLock { $0.machine.session.parameters } }

    /// The latest OnHashChange `hashID`, for resumption after a reconnect.
    public var latestHashID: String? { state.withLock { $0.machine.tracker.latestHashID } }

    /// The audio pass-thru running on this link: its PerformAudioPassThru sent, not yet answered.
    public var audioPassThru: SDLAudioPassThruRecording? { state.withLock { $0.machine.tracker.audioPassThru } }

    /// How many requests wait for their responses.
    public var pendingRequestCount: Int { state.withLock { $0.machine.pendingCount } }

    /// How many requests the client-side rate limiter counts in its overall window.
    public var rateLimitCounted: Int { state.withLock { $0.machine.rateLimitCounted } }

    /// Connects, negotiates and registers (``events`` gets ``Event/registered(_:)``);
    /// then serves until the link goes or ``close()`` ends the session. Throws why it ended
    /// (nothing after a clean close). However it ends, even when the connect fails, ``events``
    /// ends with it and every waiting request fails.
    public func run() async throws {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await openInChildTask().get()
        } catch {
            // No link was made: it ends as a link does, with its own error.
            if error.code != .closed { configuration.capture?.record(.lost, text: "\(error)") }
            linkDown(error)
            throw error
        }
        let capture = configuration.capture
        capture?.record(.opened, text: configuration.address.description)
        defer { linkDown(SDLClientError(.linkLost, "the connection to the head unit closed")) }
        do {
            try await serve(channel)
        } catch let error as SDLClientError {
            linkDown(error)
        } catch {
            linkDown(SDLClientError(.linkLost, "\(error)"))
        }
        let (error, clean) = state.withLock { ($0.machine.closeError, $0.machine.endedCleanly) }
        if let capture {
            if clean && error == nil {
                capture.record(.closed, text: "the session ended")
            } else {
                capture.record(.lost, text: error.map { "\($0)" } ?? "the head unit closed the connection")
            }
        }
        if let error { throw error }
        if !clean { throw SDLClientError(.linkLost, "the head unit closed the connection") }
    }

    /// ``open()`` in a child task. A task keeps the stack it grew until it ends: connecting (the
    /// bootstrap, the TLS or WebSocket set-up) took about 4 KB that this long-lived task kept for
    /// the whole session (heaptrack, BENCHMARKS.md, issue "Performance"); the child gives it back.
    private func openInChildTask() async -> Result<NIOAsyncChannel<ByteBuffer, ByteBuffer>, SDLClientError> {
        async let opened: Result<NIOAsyncChannel<ByteBuffer, ByteBuffer>, SDLClientError> = {
            do throws(SDLClientError) {
                return .success(try await self.open())
            } catch {
                return .failure(error)
            }
        }()
        return await opened
    }

    /// Connects and starts the session (the link's byte channel); refuses when ``close()`` came first.
    private func open() async throws(SDLClientError) -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        guard !state.withLock({ $0.machine.isClosed }) else {
            throw SDLClientError(.closed, "the connection was closed before it started")
        }
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            var transport = SDLTransportClient.Configuration(
                connectTimeout: configuration.connectTimeout, tlsConfiguration: configuration.tlsConfiguration)
            if let group = configuration.eventLoopGroup { transport.eventLoopGroup = group }
            channel = try await SDLTransportClient.connect(to: configuration.address, configuration: transport)
        } catch let error as SDLTransportError where error.code == .webSocketUpgradeRefused {
            throw SDLClientError(.webSocketUpgradeFailed, error.detail)
        } catch {
            throw SDLClientError(.connectFailed, "\(configuration.address): \(error)")
        }
        // Stream data waits for the channel's writability; the gate learns it first in line.
        let gate = SDLWriteGate()
        do {
            try await channel.channel.pipeline.addHandler(SDLWritabilityHandler(gate: gate), position: .first).get()
        } catch {
            try? await channel.channel.close()
            throw SDLClientError(.connectFailed, "\(configuration.address): the connection closed as it opened: \(error)")
        }
        let started = perform { state, now -> (Bool, [Machine.Action]) in
            // close() may have come while connecting: then end here instead of starting.
            guard !state.machine.isClosed else { return (false, []) }
            state.link = Link(channel: channel.channel, gate: gate, outbox: SDLLinkOutbox(channel: channel.channel))
            return (true, state.machine.start(now: now))
        }
        guard started else {
            try? await channel.channel.close()
            throw SDLClientError(.closed, "the connection was closed while it was being opened")
        }
        return channel
    }

    /// Reads the link until it ends, on the link's own event loop: the reader is resumed where
    /// NIO read the bytes, and resumes each request's caller from there. On Swift's global
    /// executor every response crossed two threads (the loop woke an executor thread to read,
    /// which woke the caller's; BENCHMARKS.md, issue "Performance"); NIO keeps one loop per channel,
    /// so the reader's work stays in the order the bytes came.
    private func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(channel.channel.eventLoop)) {
            try await readUntilClosed(channel)
        }
    }

    /// Reads until the link closes: the head unit closed it, or the session ended it
    /// (``closeLink(_:)``: EndService, a failure or a refusal; every frame written before leaves
    /// first). No task waits beside the reader for the end (a task keeps its stack while it
    /// lives, heaptrack, issue "Performance").
    private func readUntilClosed(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        try await channel.executeThenClose { inbound, _ in
            let capture = self.configuration.capture
            let pauses = self.configuration.eventOverflow == .pauseReading
            for try await bytes in inbound {
                capture?.record(.headUnitToApp, bytes)
                self.perform { state, now in ((), state.machine.receive(bytes, now: now)) }
                // Half the buffer free before the next read: one read's frames fit.
                let threshold = max(1, self.eventSource.capacity / 2)
                if pauses, self.eventSource.waiting >= threshold {
                    self.perform { state, now in
                        state.machine.readingPaused(true, now: now)
                        return ((), [])
                    }
                    self.logger.debug(
                        "reading paused: the session's reader is behind", metadata: ["sdl.waitingEvents": "\(self.eventSource.waiting)"])
                    await self.eventSource.waitForRoom(below: threshold)
                    self.logger.debug("reading resumed")
                    self.perform { state, now in
                        state.machine.readingPaused(false, now: now)
                        return ((), [])
                    }
                }
            }
        }
    }

    /// Ends the link: closes its channel on its event loop, after the frames written before (the
    /// loop runs them in order), which ends the reader's reads; a reader paused for a slow
    /// consumer of ``events`` goes on instead of waiting for it.
    private func closeLink(_ link: Link) {
        eventSource.endPauses()
        let channel = link.channel
        channel.eventLoop.execute { channel.close(promise: nil) }
    }

    /// Sends a request and waits for its response (or a GenericResponse with its correlation id).
    /// Refuses locally — nothing is sent — when the session is not registered, the parameters do
    /// not match the spec, the permission table forbids it, or the rate limit would be exceeded
    /// (``SDLConnectionStateMachine/send(_:_:options:waiter:now:)``). Cancelling the calling task
    /// fails it at once with ``SDLClientError/Code/cancelled``.
    public func request(
        _ function: String, _ parameters: SDLJSON = [:], options: SDLRequestOptions = .default
    ) async throws -> SDLRPCMessage {
        let sent = SentRequest()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: Waiter) in
                perform { state, now in
                    // Read in the critical section the cancellation handler also takes: either the
                    // handler finds the correlation id, or the request sees the cancellation here.
                    guard !Task.isCancelled else {
                        return ((), [.fail(waiter, SDLClientError(.cancelled, "\(function) was cancelled before it was sent"))])
                    }
                    let (correlationID, actions) = state.machine.send(function, parameters, options: options, waiter: waiter, now: now)
                    sent.correlationID.withLock { $0 = correlationID }
                    return ((), actions)
                }
            }
        } onCancel: {
            perform { state, now in
                guard let correlationID = sent.correlationID.withLock({ $0 }) else { return ((), []) }
                return ((), state.machine.cancel(correlationID: correlationID, now: now))
            }
        }
    }

    /// Ends the session: every pending request fails at once with ``SDLClientError/Code/cancelled``
    /// (``SDLConnectionStateMachine/closing(now:)``), then UnregisterAppInterface (when
    /// registered) and EndService; ``run()`` returns once the head unit acknowledged
    /// or the EndService timeout passed.
    public func close() async {
        perform { state, now in ((), state.machine.closing(now: now)) }
        if state.withLock({ $0.machine.isRegistered }) {
            _ = try? await request("UnregisterAppInterface", options: SDLRequestOptions(timeout: .seconds(2), checkPermissions: false))
        }
        perform { state, now in ((), state.machine.close(now: now)) }
    }

    // MARK: - Driver

    /// Runs one input of the machine under the lock. Writes, events and the end of the link
    /// happen in that critical section, so their order is the machine's.
    ///
    /// Every request's caller (a response, a refusal, a timeout, a cancellation, the link's
    /// end) is resumed first, in the critical section, before its events are queued: resuming
    /// only queues the caller's task, and queued first it usually runs before the task that
    /// forwards the events (which queuing an event wakes) instead of after it: the gateway's
    /// head-unit round trip came nearer a plain socket client's (BENCHMARKS.md, issue
    /// "Performance"). So a caller may see its answer before ``events`` delivers the same
    /// exchange's traffic records; nothing orders the two. Streaming callers are resumed after
    /// the section.
    @discardableResult
    func perform<Result>(_ body: (inout State, NIODeadline) -> (Result, [Machine.Action])) -> Result {
        let now = clock.now()
        let (result, resumptions) = state.withLock { state -> (Result, [Resumption]) in
            let (result, actions) = body(&state, now)
            for action in actions {
                switch action {
                case .succeed(let waiter, let response): waiter.resume(returning: response)
                case .fail(let waiter, let error): waiter.resume(throwing: error)
                default: continue
                }
            }
            var resumptions: [Resumption] = []
            for action in actions {
                switch action {
                case .write(let frames):
                    if let link = state.link { write(frames, to: link) }
                case .publish(let event):
                    eventSource.yield(.app(event))
                case .closeConnection:
                    if let link = state.link { closeLink(link) }
                case .succeed, .fail:
                    continue
                case .registered(let response):
                    eventSource.yieldKept(.registered(response))
                    resumptions.append(.registered(response))
                case .streamingReply(let service, let result):
                    if let (_, waiter) = state.streamWaiters.removeValue(forKey: service) {
                        resumptions.append(.streaming(waiter, result))
                    }
                }
            }
            state.alarm.update(to: state.machine.nextDeadline, clock: clock) { [self] generation in
                alarmFired(generation: generation)
            }
            return (result, resumptions)
        }
        for resumption in resumptions {
            switch resumption {
            case .registered(let response):
                logger.info(
                    "app registered",
                    metadata: [
                        "sdl.app": "\(configuration.app.appID)",
                        "sdl.resultCode": "\(response.parameters["resultCode"]?.stringValue ?? "?")",
                    ])
            case .streaming(let waiter, let result):
                waiter.resume(with: result.mapError { $0 as any Error })
            }
        }
        return result
    }

    private enum Resumption {
        case registered(SDLRPCMessage)
        case streaming(StreamWaiter, Result<SDLStreamingAccepted?, SDLClientError>)
    }

    /// The wake-up at the machine's next deadline: run every timer due now.
    private func alarmFired(generation: UInt64) {
        perform { state, now in
            state.alarm.fired(generation: generation)
            return ((), state.machine.timerFired(now: now))
        }
    }

    /// One buffer per frame (one WebSocket message per frame, docs/protocol.md §e), handed to
    /// the link's ``SDLLinkOutbox`` in the critical section that numbered them, so frames reach
    /// the socket in the machine's order, their message ids rising; the outbox's task on the
    /// channel's event loop writes them (also from the loop itself, where writing at once would
    /// overtake the tasks queued before). `afterwards` runs on the loop once they are written.
    func write(_ frames: [SDLFrame], to link: Link, afterwards: (@Sendable () -> Void)? = nil) {
        let buffers = frames.map { frame in
            var bytes = link.channel.allocator.buffer(capacity: frame.payload.readableBytes + 12)
            bytes.writeSDLFrame(frame)
            configuration.capture?.record(.appToHeadUnit, bytes)
            return bytes
        }
        link.outbox.enqueue(buffers, afterwards: afterwards)
    }

    private func linkDown(_ error: SDLClientError) {
        perform { state, now in
            let actions = state.machine.linkDown(error, now: now)
            state.link?.gate.close(error)
            if let link = state.link { closeLink(link) }
            state.link = nil
            return ((), actions)
        }
        state.withLock { $0.alarm.cancel() }
        eventSource.finish()
    }
}

/// The correlation id a request got, for its cancellation handler; written and read only inside
/// the connection's critical section, so the handler either finds it or the request sees the
/// cancellation first.
private final class SentRequest: Sendable {
    let correlationID = Mutex<UInt32?>(nil)
}
