import NIOCore
import SDLProtocol
import SDLSpec

/// Every decision of one app session on one connection, as a pure value: the protocol session
/// (``SDLSessionStateMachine``), frame decoding, registration, the pending requests with their
/// deadlines, the rate limits and permission preflight, and the app's state
/// (``SDLAppStateTracker``). ``SDLConnection`` is its thin driver: it feeds in bytes, requests,
/// cancellations and the time, and executes the returned ``Action``s in order.
///
/// - Registration (docs/protocol.md §f, §k): once StartService is acknowledged the machine sends
///   RegisterAppInterface itself (asking to resume the latest OnHashChange `hashID`), and reads
///   the response's `resultCode` (``SDLRegistrationParameters/classify(resultCode:)``): a
///   registered app gets ``Action/registered(_:)``, a refused one ends the session with
///   ``SDLClientError/Code/registrationFailed``.
/// - OnAppInterfaceUnregistered ends the session with ``SDLClientError/Code/unregistered``:
///   Core has dropped the app, so the connection is of no more use.
/// - ``nextDeadline`` is the complete next deadline: StartService/EndService timeouts, the
///   heartbeat, the idle timeout, reassembly expiry and every pending request's deadline. The
///   driver keeps one wake-up there and calls ``timerFired(now:)``; nothing is due while it is nil.
///
/// `Waiter` is the caller's opaque payload per request (the driver's continuation).
public struct SDLConnectionStateMachine<Waiter: Sendable>: Sendable {
    /// What the driver must do, in order.
    public enum Action: Sendable {
        /// Queue these frames for the wire, in the same critical section as the input (so the
        /// wire carries message ids in the order the session numbered them).
        case write([SDLFrame])
        /// Publish an event about the app.
        case publish(SDLAppEvent)
        /// A request got its response.
        case succeed(Waiter, SDLRPCMessage)
        /// A request failed (refused locally, timed out, cancelled, or the session ended).
        case fail(Waiter, SDLClientError)
        /// RegisterAppInterface succeeded: the app is registered; this is the response.
        case registered(SDLRPCMessage)
        /// A pending StartService (an accepted service) or EndService (`nil`) of a streaming
        /// service got its answer, or failed (docs/protocol.md §o).
        case streamingReply(SDLStreamingService, Result<SDLStreamingAccepted?, SDLClientError>)
        /// Close the connection after the frames queued so far; see ``closeError``.
        case closeConnection
    }

    /// Where registration stands.
    public enum Registration: Sendable, Hashable {
        /// StartService is not acknowledged yet.
        case waitingForSession
        /// RegisterAppInterface was sent with this correlation id.
        case registering(correlationID: UInt32)
        case registered
        /// The session ended or is closing.
        case ended
    }

    /// Who waits for a pending request.
    enum Requester: Sendable {
        /// The machine's own RegisterAppInterface.
        case registration
        case caller(Waiter)
    }

    /// The connection's configuration, kept once for the connection and its machine (it is
    /// 960 bytes: inline in both, it was 2 KB of every app session, heaptrack, issue "Performance").
    final class SharedConfiguration: Sendable {
        let value: SDLConnection.Configuration

        init(_ value: SDLConnection.Configuration) {
            self.value = value
        }
    }

    let sharedConfiguration: SharedConfiguration
    public var configuration: SDLConnection.Configuration { sharedConfiguration.value }
    public internal(set) var session: SDLSessionStateMachine
    public internal(set) var tracker: SDLAppStateTracker
    public private(set) var registration = Registration.waitingForSession
    /// Why the session ended (the first reason wins); `nil` while open and after a clean close.
    public private(set) var closeError: SDLClientError?
    /// The head unit acknowledged our EndService.
    public private(set) var endedCleanly = false
    /// The owner is closing the session (``closing(now:)``): requests still pending at its end
    /// fail with ``SDLClientError/Code/cancelled``, whatever ends it.
    public private(set) var isClosingByOwner = false
    private var decoder = SDLFrameDecoder()
    private var buffer = ByteBuffer()
    var pending: SDLPendingRequests<Requester>
    var limiter: SDLRequestRateLimiter
    /// The session's video and audio services (SDLConnectionStateMachine+Streaming.swift).
    var streams: SDLStreamingServices

    public init(configuration: SDLConnection.Configuration, maximumPending: Int = SDLPendingRequests<Waiter>.defaultMaximumPending) {
        self.init(shared: SharedConfiguration(configuration), maximumPending: maximumPending)
    }

    init(shared: SharedConfiguration, maximumPending: Int = SDLPendingRequests<Waiter>.defaultMaximumPending) {
        let configuration = shared.value
        self.sharedConfiguration = shared
        self.session = SDLSessionStateMachine(configuration: configuration.session)
        self.tracker = SDLAppStateTracker(catalog: configuration.catalog)
        self.pending = SDLPendingRequests(maximumPending: maximumPending)
        self.limiter = SDLRequestRateLimiter(configuration: configuration.rateLimits)
        self.streams = SDLStreamingServices(
            startTimeout: configuration.session.startServiceTimeout, endTimeout: configuration.session.endServiceTimeout)
    }

    // MARK: - State

    public var isRegistered: Bool { registration == .registered }
    public var isClosed: Bool { session.isClosed }
    /// How many requests wait for their responses (the machine's RegisterAppInterface included).
    public var pendingCount: Int { pending.count }
    /// How many requests the rate limiter counts in its overall window.
    public var rateLimitCounted: Int { limiter.counted }

    /// The complete next deadline: the session's timers and every pending request's deadline.
    public var nextDeadline: NIODeadline? {
        session.nextDeadline.earliest(pending.nextDeadline).earliest(streams.nextDeadline)
    }

    // MARK: - Inputs

    /// The connection is open: StartService.
    public mutating func start(now: NIODeadline) -> [Action] {
        absorb(session.start(now: now), now: now)
    }

    /// The driver paused reading the head unit, or resumed
    /// (``SDLSessionStateMachine/readingPaused(_:now:)``).
    public mutating func readingPaused(_ paused: Bool, now: NIODeadline) {
        session.readingPaused(paused, now: now)
    }

    /// Bytes from the head unit: frames are decoded and handled in order.
    public mutating func receive(_ bytes: ByteBuffer, now: NIODeadline) -> [Action] {
        if buffer.readableBytes == 0 {
            // Nothing waits: take the read as it is, no copy. The buffer of an earlier large
            // message (a RegisterAppInterface response, a PutFile) is released, not kept at its
            // largest size for the life of the session.
            buffer = bytes
        } else {
            var bytes = bytes
            buffer.writeBuffer(&bytes)
        }
        var actions: [Action] = []
        while !session.isClosed {
            do throws(SDLProtocolError) {
                guard let frame = try decoder.decode(buffer: &buffer) else { break }
                actions += absorb(session.receive(frame, now: now), now: now)
            } catch {
                actions += absorb(session.decodingFailed(error), now: now)
                break
            }
        }
        if buffer.readableBytes == 0 {
            buffer = ByteBuffer()
        } else {
            buffer.discardReadBytes()
        }
        return actions
    }

    /// Runs every timer due at `now`: the session's, then the request deadlines.
    public mutating func timerFired(now: NIODeadline) -> [Action] {
        var actions = absorb(session.timerFired(now: now), now: now)
        actions += streams.timerFired(now: now).flatMap { apply($0, now: now) }
        for timedOut in pending.expire(now: now) {
            switch timedOut.waiter {
            case .caller(let waiter):
                actions.append(.fail(waiter, timedOut.error))
            case .registration:
                let error = SDLClientError(.timedOut, "no response to RegisterAppInterface before its deadline")
                actions += end(error, now: now) + [.closeConnection]
            }
        }
        return actions
    }

    /// Ends the session: EndService, then the close once acknowledged (or timed out). Requests
    /// are refused from now on. The driver unregisters the app first while it is registered.
    public mutating func close(now: NIODeadline) -> [Action] {
        registration = .ended
        let ended = streams.endAll(reason: nil, error: SDLClientError(.closed, "the session is closing")).flatMap { apply($0, now: now) }
        return ended + absorb(session.close(now: now), now: now)
    }

    /// The owner is ending the session (the app is deleted, the gateway stops): every request
    /// waiting for its response fails now with ``SDLClientError/Code/cancelled`` (a late response
    /// is only logged), and so does every request still pending when the session ends, instead
    /// of the ``SDLClientError/Code/linkLost`` of a link that broke under it. Requests may still
    /// be sent (the driver's UnregisterAppInterface); ``close(now:)`` follows.
    public mutating func closing(now: NIODeadline) -> [Action] {
        isClosingByOwner = true
        return pending.correlationIDs.compactMap { correlationID in
            guard let entry = pending[correlationID], case .caller(let waiter) = entry.waiter else { return nil }
            _ = pending.remove(correlationID: correlationID)
            return .fail(waiter, Self.closedByOwner(entry.function, correlationID))
        }
    }

    static func closedByOwner(_ function: String, _ correlationID: UInt32) -> SDLClientError {
        SDLClientError(
            .cancelled,
            "\(function) (correlation id \(correlationID)) was cancelled: the app's session was closed (the app was deleted or the gateway is stopping)"
        )
    }

    /// The connection closed under the session (or never opened): every pending request fails
    /// with `error` unless an earlier reason was recorded, and the app is disconnected.
    public mutating func linkDown(_ error: SDLClientError, now: NIODeadline) -> [Action] {
        var actions = end(error, now: now)
        _ = session.connectionClosed()
        actions += tracker.linkDown(now: now).map(Action.publish)
        return actions
    }
}

// MARK: - Session actions, registration, deliveries

extension SDLConnectionStateMachine {
    /// Turns the protocol session's actions into the driver's.
    private mutating func absorb(_ actions: [SDLSessionStateMachine.Action], now: NIODeadline) -> [Action] {
        var result: [Action] = []
        for action in actions {
            switch action {
            case .write(let frames):
                result.append(.write(frames))
            case .deliver(let rpc):
                result += deliver(rpc, now: now)
            case .streamControl(let service, let message):
                result += receiveStreaming(message, on: service, now: now)
            case .established(let parameters):
                decoder.maximumPayloadSize = max(parameters.mtu, SDLFrameDecoder.defaultMaximumPayloadSize)
                result += register(now: now)
            case .closeConnection(let error):
                if let error {
                    result += end(error, now: now)
                } else {
                    endedCleanly = true
                    registration = .ended
                    let closed = SDLClientError(.closed, "the session ended")
                    result += streams.endAll(reason: nil, error: closed).flatMap { apply($0, now: now) }
                }
                result.append(.closeConnection)
            }
        }
        return result
    }

    /// RegisterAppInterface for the configured app, asking to resume the latest `hashID`.
    private mutating func register(now: NIODeadline) -> [Action] {
        var app = configuration.app
        if app.hashID == nil { app.hashID = tracker.latestHashID }
        do throws(SDLClientError) {
            let parameters = try SDLRegistrationParameters.make(from: app, catalog: configuration.catalog)
            guard let spec = configuration.catalog.function(named: SDLRegistrationParameters.functionName, messageType: .request) else {
                throw SDLClientError(.unknownFunction, "the RPC catalog has no RegisterAppInterface request")
            }
            let (correlationID, actions) = try enqueue(
                spec, parameters, options: SDLRequestOptions(), requester: .registration, checkPermissions: false, now: now
            )
            registration = .registering(correlationID: correlationID)
            return actions
        } catch {
            return end(error, now: now) + [.closeConnection]
        }
    }

    private mutating func deliver(_ rpc: SDLRPCMessage, now: NIODeadline) -> [Action] {
        switch rpc.rpcType {
        case .response:
            var actions: [Action] = [.publish(tracker.record(.received, rpc, now: now))]
            guard let completed = pending.complete(with: rpc) else { return actions }
            actions += tracker.apply(response: rpc, now: now).map(Action.publish)
            switch completed.waiter {
            case .caller(let waiter):
                actions.append(.succeed(waiter, rpc))
            case .registration:
                actions += registered(rpc, now: now)
            }
            return actions
        case .notification:
            var actions: [Action] = [.publish(tracker.record(.received, rpc, now: now))]
            actions += tracker.apply(rpc, now: now).map(Action.publish)
            if configuration.catalog.functionName(forID: rpc.functionID) == "OnAppInterfaceUnregistered" {
                let reason = rpc.parameters["reason"]?.stringValue ?? "unknown"
                let error = SDLClientError(.unregistered, "the head unit unregistered the app: \(reason)")
                actions += end(error, now: now) + [.closeConnection]
            }
            return actions
        case .request:
            return []  // head units send no requests to apps over RPC
        }
    }

    /// The RegisterAppInterface response: registered, or the session ends with its result code.
    private mutating func registered(_ response: SDLRPCMessage, now: NIODeadline) -> [Action] {
        let code = response.parameters["resultCode"]?.stringValue ?? "GENERIC_ERROR"
        guard SDLRegistrationParameters.classify(resultCode: code) == .registered else {
            let info = response.parameters["info"]?.stringValue.map { ": \($0)" } ?? ""
            let error = SDLClientError(.registrationFailed, "RegisterAppInterface answered \(code)\(info)")
            return end(error, now: now) + [.closeConnection]
        }
        guard case .registering = registration else { return [] }  // closing meanwhile
        registration = .registered
        return [.registered(response)]
    }

    /// Records why the session ends (the first reason wins) and fails every pending request:
    /// with `error`, or with ``SDLClientError/Code/cancelled`` once the owner is closing.
    private mutating func end(_ error: SDLClientError, now: NIODeadline) -> [Action] {
        if closeError == nil, !endedCleanly { closeError = error }
        registration = .ended
        let reason = isClosingByOwner ? nil : SDLStreamingEvent.linkLost
        let streamsEnded = streams.endAll(reason: reason, error: error).flatMap { apply($0, now: now) }
        return streamsEnded
            + pending.failAll(error).compactMap { failed in
                guard case .caller(let waiter) = failed.waiter else { return nil }
                return .fail(waiter, isClosingByOwner ? Self.closedByOwner(failed.request.function, failed.correlationID) : failed.error)
            }
    }
}
