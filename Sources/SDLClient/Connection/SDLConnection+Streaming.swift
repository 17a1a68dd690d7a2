import NIOCore
import SDLProtocol
import Synchronization

// The video and audio streaming services (docs/protocol.md §o) on the connection: the machine
// decides (``SDLConnectionStateMachine/startStreaming(_:format:now:)`` …); this drives it.

extension SDLConnection {
    /// StartService on the service (video: BSON `videoProtocol`, `videoCodec`, `width`,
    /// `height` from `format`) and waits for the answer, at most the session's
    /// ``SDLSessionStateMachine/Configuration/startServiceTimeout``. A service already started
    /// answers with what it accepted. Throws ``SDLClientError/Code/streamingRefused`` for a
    /// StartServiceNAK (its `reason` in the detail, ``SDLClientError/rejectedParams``),
    /// ``SDLClientError/Code/timedOut``, ``SDLClientError/Code/notConnected``.
    public func startStreaming(_ service: SDLStreamingService, format: SDLVideoStreamFormat?) async throws -> SDLStreamingAccepted {
        let accepted = try await streamingOperation(service) { machine, now throws(SDLClientError) in
            try machine.startStreaming(service, format: format, now: now)
        }
        guard let accepted else {
            throw SDLClientError(.protocolViolation, "the \(service) service ended as it started")
        }
        return accepted
    }

    /// EndService on the started service; returns after its EndServiceACK. Throws
    /// ``SDLClientError/Code/streamingNotStarted`` when it is not started,
    /// ``SDLClientError/Code/streamingRefused`` for an EndServiceNAK, ``SDLClientError/Code/timedOut``
    /// after the session's ``SDLSessionStateMachine/Configuration/endServiceTimeout`` (the service
    /// is over either way).
    public func endStreaming(_ service: SDLStreamingService) async throws {
        _ = try await streamingOperation(service) { machine, now throws(SDLClientError) in
            (nil, try machine.endStreaming(service, now: now))
        }
    }

    /// The started service's parameters and counters; `nil` when it is not started.
    public func streamingStatus(_ service: SDLStreamingService) -> SDLStreamingStatus? {
        state.withLock { $0.machine.streamingStatus(service) }
    }

    /// The most stream bytes written to the channel between two looks at its writability: the
    /// frames of one batch (at least one frame, whatever its MTU).
    public static let streamBatchBytes = 64 * 1024

    /// Sends `bytes` as data frames on the started service, in order, each a Single Frame of at
    /// most the service's MTU. Batches of frames (``streamBatchBytes``) go to the channel one at
    /// a time: before each, this suspends while the channel is not writable (its outbound buffer
    /// is over NIO's high-water mark), and after each it lets the event loop take the batch, so
    /// a slow link holds at most the high-water mark and one batch, never the rest of `bytes`.
    /// Throws ``SDLClientError/Code/streamingNotStarted`` when the service is not started (or the
    /// head unit ended it meanwhile: the rest is not sent), the link's error when it goes, and
    /// ``SDLClientError/Code/cancelled`` when the task is cancelled while waiting. One sender per
    /// service: the batches of two concurrent calls on the same service interleave.
    /// Returns how many data frames it wrote.
    @discardableResult
    public func sendStream(_ service: SDLStreamingService, _ bytes: ByteBuffer) async throws -> Int {
        var remaining = bytes
        var written = 0
        repeat {
            let (gate, mtu) = try streamLink(service)
            try await gate.waitUntilWritable()
            let framesPerBatch = max(1, Self.streamBatchBytes / mtu)
            let batch = remaining.readSlice(length: min(remaining.readableBytes, framesPerBatch * mtu))!
            let (channel, frames) = try writeStream(service, batch)
            written += frames
            // The event loop runs its tasks in order: once this one ran, the batch is in the
            // channel's buffer and its writability counts it. After the last batch too: a
            // sender calling again at once (one call per WebSocket message or body chunk) would
            // otherwise find the gate open while its earlier batches still wait for the loop.
            if let channel {
                try await channel.eventLoop.submit {}.get()
            }
        } while remaining.readableBytes > 0
        return written
    }

    /// Frames `bytes` on the started service and hands them to the link's channel at once: the
    /// channel written to (nil when the link is gone) and how many data frames. Throws
    /// ``SDLClientError/Code/streamingNotStarted`` when the service is not started. The caller
    /// bounds what it hands over (``sendStream(_:_:)`` waits for the loop after each batch).
    /// `afterwards` runs once whatever happens: on the link's loop after the frames, else at once.
    func writeStream(
        _ service: SDLStreamingService, _ bytes: ByteBuffer, afterwards: (@Sendable () -> Void)? = nil
    ) throws(SDLClientError) -> ((any Channel)?, Int) {
        try perform { state, now -> (Result<((any Channel)?, Int), SDLClientError>, [Machine.Action]) in
            do throws(SDLClientError) {
                let frames = try state.machine.streamFrames(service, bytes, now: now)
                guard let link = state.link, !frames.isEmpty else {
                    afterwards?()
                    return (.success((state.link?.channel, 0)), [])
                }
                write(frames, to: link, afterwards: afterwards)
                return (.success((link.channel, frames.count)), [])
            } catch {
                afterwards?()
                return (.failure(error), [])
            }
        }.get()
    }

    /// The most stream bytes ``forwardStream(_:_:whenReady:)`` lets be on their way to the
    /// link's event loop before it asks its caller to wait.
    public static let forwardedBytesInFlight = 2 * streamBatchBytes

    /// What one ``forwardStream(_:_:whenReady:)`` call counts beside its bytes while they are on
    /// their way (the frame's header and buffer, the task): many tiny pieces hold back sooner.
    static let forwardedCallCost = 256

    /// Sends `bytes` as data frames on the started service, in order, without suspending: for a
    /// sender that runs on an event loop and stops reading its own source instead (the gateway's
    /// streaming WebSocket, README "Projection"). The frames go to the link's event loop at
    /// once; true when the caller may hand over more now. False when the link is not writable or
    /// more than ``forwardedBytesInFlight`` bytes have not reached its loop yet: the caller
    /// holds back, and `whenReady`, when given, is called once, from any thread, when it may go
    /// on (or when the link is gone, and the next call throws). A caller already holding back
    /// passes nil, so that one callback is pending at a time. So a slow link holds at most its
    /// channel's high-water mark, ``forwardedBytesInFlight`` and what the caller had read.
    ///
    /// Throws ``SDLClientError/Code/streamingNotStarted`` when the service is not started (or the
    /// head unit ended it), ``SDLClientError/Code/notConnected`` when the link is gone.
    public func forwardStream(
        _ service: SDLStreamingService, _ bytes: ByteBuffer, whenReady: (@Sendable () -> Void)?
    ) throws(SDLClientError) -> Bool {
        let (gate, _) = try streamLink(service)
        let count = bytes.readableBytes + Self.forwardedCallCost
        gate.handOver(count)
        let (channel, _) = try writeStream(service, bytes) { gate.taken(count) }
        guard channel != nil else {
            throw SDLClientError(.notConnected, "the connection to the head unit is not open")
        }
        return gate.ready(within: Self.forwardedBytesInFlight, otherwise: whenReady)
    }

    /// The open link's write gate and the service's MTU; throws when either is missing.
    private func streamLink(_ service: SDLStreamingService) throws(SDLClientError) -> (SDLWriteGate, Int) {
        try state.withLock { state throws(SDLClientError) in
            let mtu = try state.machine.streams.mtu(service)
            guard let link = state.link else {
                throw SDLClientError(.notConnected, "the connection to the head unit is not open")
            }
            return (link.gate, mtu)
        }
    }

    /// The write gate of the open link (tests: how often senders waited for writability).
    var writeGate: SDLWriteGate? { state.withLock { $0.link?.gate } }

    /// The bytes written to the open link's channel that it has not handed to the transport yet
    /// (NIO's `bufferedWritableBytes`): what a slow link makes the app side hold.
    func bufferedWritableBytes() async throws -> Int {
        guard let channel = state.withLock({ $0.link?.channel }) else { return 0 }
        return try await channel.getOption(.bufferedWritableBytes).get()
    }

    /// Starts a StartService or EndService in the machine and waits for its reply. `body` returns
    /// an immediate answer (a service already started) or the frames to send. A cancelled caller
    /// fails at once with ``SDLClientError/Code/cancelled``; the service's answer still updates
    /// the machine when it comes (a cancelled StartService can leave the service started).
    private func streamingOperation(
        _ service: SDLStreamingService,
        _ body: (inout Machine, NIODeadline) throws(SDLClientError) -> (SDLStreamingAccepted?, [Machine.Action])
    ) async throws -> SDLStreamingAccepted? {
        let call = state.withLock { state in
            state.nextStreamCall += 1
            return state.nextStreamCall
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: StreamWaiter) in
                perform { state, now in
                    guard !Task.isCancelled else {
                        waiter.resume(
                            throwing: SDLClientError(.cancelled, "the \(service) service's call was cancelled before it was sent"))
                        return ((), [])
                    }
                    do throws(SDLClientError) {
                        let (immediate, actions) = try body(&state.machine, now)
                        if let immediate {
                            waiter.resume(returning: immediate)
                        } else {
                            state.streamWaiters[service] = (call, waiter)
                        }
                        return ((), actions)
                    } catch {
                        waiter.resume(throwing: error)
                        return ((), [])
                    }
                }
            }
        } onCancel: {
            state.withLock { state in
                guard let pending = state.streamWaiters[service], pending.call == call else { return }
                state.streamWaiters[service] = nil
                pending.waiter.resume(throwing: SDLClientError(.cancelled, "the \(service) service's call was cancelled by its caller"))
            }
        }
    }
}
