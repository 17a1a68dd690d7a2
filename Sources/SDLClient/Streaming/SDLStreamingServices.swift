import NIOCore
import SDLProtocol

/// The streaming services of one session (docs/protocol.md §o), as a pure value: which are
/// starting, started or ending, their deadlines and counters. No I/O, no clock, no frames:
/// ``SDLConnectionStateMachine`` feeds it the control messages of the services and the time,
/// turns its ``Outcome``s into events, answers and replies, and has the session frame what it
/// writes (message ids are the session's).
///
/// ```
///  absent ──start──▶ starting ──StartServiceACK──▶ started ──end──▶ ending ──EndServiceACK──▶ absent
///     ▲                 │ NAK, timeout, EndService     │ EndService       │ NAK, timeout, EndService
///     └─────────────────┴──────────────────────────────┴──────────────────┴──────────────────────┘
/// ```
/// At most one StartService or EndService of a service is pending at a time.
struct SDLStreamingServices: Sendable {
    enum Phase: Sendable, Hashable {
        /// StartService sent; waiting for its ACK or NAK until `deadline`.
        case starting(deadline: NIODeadline)
        case started(SDLStreamingStatus)
        /// EndService sent; waiting for EndServiceACK until `deadline`.
        case ending(SDLStreamingStatus, deadline: NIODeadline)
    }

    /// What the owner of a pending StartService or EndService gets.
    enum Reply: Sendable, Hashable {
        case started(SDLStreamingAccepted)
        case ended
        case failed(SDLClientError)
    }

    /// What an input changed about one service.
    struct Outcome: Sendable, Hashable {
        var service: SDLStreamingService
        /// The event to publish.
        var event: SDLStreamingEvent?
        /// The answer to the pending StartService or EndService.
        var reply: Reply?
        /// A control message to send back on the service (EndServiceACK to the head unit's
        /// EndService).
        var answer: SDLControlMessage?
    }

    let startTimeout: TimeAmount
    let endTimeout: TimeAmount
    private(set) var phases: [SDLStreamingService: Phase] = [:]

    init(startTimeout: TimeAmount, endTimeout: TimeAmount) {
        self.startTimeout = startTimeout
        self.endTimeout = endTimeout
    }

    /// A started (or ending) service's status.
    func status(_ service: SDLStreamingService) -> SDLStreamingStatus? {
        switch phases[service] {
        case .started(let status), .ending(let status, _): status
        case .starting, nil: nil
        }
    }

    /// The earliest StartService or EndService deadline.
    var nextDeadline: NIODeadline? {
        var earliest: NIODeadline?
        for phase in phases.values {
            switch phase {
            case .starting(let deadline), .ending(_, let deadline): earliest = earliest.earliest(deadline)
            case .started: break
            }
        }
        return earliest
    }

    // MARK: - The app's inputs

    /// StartService is to be sent: `nil`. A service already started answers with what its ACK
    /// accepted, and nothing is sent. Throws ``SDLClientError/Code/tooManyPendingRequests`` while
    /// a StartService or EndService of the service is pending.
    mutating func start(_ service: SDLStreamingService, now: NIODeadline) throws(SDLClientError) -> SDLStreamingAccepted? {
        switch phases[service] {
        case .started(let status):
            return status.accepted
        case .starting:
            throw SDLClientError(.tooManyPendingRequests, "a StartService for the \(service) service is already waiting for its answer")
        case .ending:
            throw SDLClientError(.tooManyPendingRequests, "the \(service) service is ending (EndService sent)")
        case nil:
            phases[service] = .starting(deadline: now + startTimeout)
            return nil
        }
    }

    /// Forgets a StartService that could not be sent after ``start(_:now:)``.
    mutating func abandon(_ service: SDLStreamingService) {
        if case .starting = phases[service] { phases[service] = nil }
    }

    /// The payload limit of a started service's data frames; throws
    /// ``SDLClientError/Code/streamingNotStarted`` otherwise (data before StartServiceACK, after
    /// EndService, or after the head unit ended it).
    func mtu(_ service: SDLStreamingService) throws(SDLClientError) -> Int {
        guard case .started(let status) = phases[service] else {
            let why =
                switch phases[service] {
                case .starting: "its StartService is not acknowledged yet"
                case .ending: "it is ending"
                case .started, nil: "it is not started"
                }
            throw SDLClientError(.streamingNotStarted, "no data can be sent on the \(service) service: \(why)")
        }
        return status.accepted.mtu
    }

    /// Counts data frames sent on a started service.
    mutating func sent(_ service: SDLStreamingService, frames: Int, bytes: Int) {
        guard case .started(var status) = phases[service] else { return }
        status.frames += frames
        status.bytes += bytes
        phases[service] = .started(status)
    }

    /// EndService is to be sent. Throws ``SDLClientError/Code/streamingNotStarted`` when the
    /// service is not started, ``SDLClientError/Code/tooManyPendingRequests`` while its
    /// StartService or EndService is pending.
    mutating func end(_ service: SDLStreamingService, now: NIODeadline) throws(SDLClientError) {
        switch phases[service] {
        case .started(let status):
            phases[service] = .ending(status, deadline: now + endTimeout)
        case .starting:
            throw SDLClientError(.tooManyPendingRequests, "the \(service) service's StartService is still waiting for its answer")
        case .ending:
            throw SDLClientError(.tooManyPendingRequests, "an EndService for the \(service) service is already waiting for its answer")
        case nil:
            throw SDLClientError(.streamingNotStarted, "the \(service) service is not started")
        }
    }

    // MARK: - The head unit's inputs

    /// A control message on the service from the head unit (docs/protocol.md §o). `sessionMTU` is
    /// the MTU of an ACK without `mtu`. Stray ones (an ACK nobody waits for) change nothing.
    mutating func receive(
        _ message: SDLControlMessage, on service: SDLStreamingService, sessionMTU: Int, now: NIODeadline
    ) -> Outcome? {
        let phase = phases[service]
        switch (message, phase) {
        case (.startServiceACK(let ack), .starting):
            guard let accepted = Self.accepted(ack, service: service, sessionMTU: sessionMTU) else {
                phases[service] = nil
                let detail = "StartServiceACK of the \(service) service has mtu \(ack.mtu ?? 0), outside 1…\(Self.maximumMTU)"
                return Outcome(
                    service: service, event: .init(service: service, state: .refused, reason: detail),
                    reply: .failed(SDLClientError(.protocolViolation, detail)))
            }
            phases[service] = .started(SDLStreamingStatus(service: service, accepted: accepted, startedAt: now))
            return Outcome(service: service, event: .init(service: service, state: .started), reply: .started(accepted))
        case (.startServiceNAK(let nak), .starting):
            phases[service] = nil
            let error = SDLClientError(
                .streamingRefused, SDLSessionStateMachine.describe(nak, "StartServiceNAK (\(service))"),
                rejectedParams: nak.rejectedParams)
            return Outcome(
                service: service, event: .init(service: service, state: .refused, reason: nak.reason ?? "StartServiceNAK"),
                reply: .failed(error))
        case (.endService, .started):
            phases[service] = nil
            return Outcome(
                service: service, event: .init(service: service, state: .ended, reason: SDLStreamingEvent.headUnitEnded),
                answer: .endServiceACK)
        case (.endService, .starting):
            phases[service] = nil
            let error = SDLClientError(.streamingRefused, "the head unit ended the \(service) service (EndService) before acknowledging it")
            return Outcome(
                service: service, event: .init(service: service, state: .refused, reason: SDLStreamingEvent.headUnitEnded),
                reply: .failed(error), answer: .endServiceACK)
        case (.endService, .ending), (.endServiceACK, .ending):
            // Both ends ended it at once, or the head unit acknowledged ours.
            phases[service] = nil
            let answer: SDLControlMessage? = if case .endService = message { .endServiceACK } else { nil }
            return Outcome(service: service, event: .init(service: service, state: .ended), reply: .ended, answer: answer)
        case (.endServiceNAK(let nak), .ending):
            // Core NAKs an EndService for a service it does not have (docs/protocol.md §o): gone either way.
            phases[service] = nil
            let error = SDLClientError(
                .streamingRefused, SDLSessionStateMachine.describe(nak, "EndServiceNAK (\(service))"), rejectedParams: nak.rejectedParams)
            return Outcome(
                service: service, event: .init(service: service, state: .ended, reason: nak.reason ?? "EndServiceNAK"),
                reply: .failed(error))
        case (.endService, nil):
            // Nothing to end; the answer tells the head unit so.
            return Outcome(service: service, answer: .endServiceACK)
        default:
            return nil
        }
    }

    /// Fails every StartService and EndService whose deadline passed.
    mutating func timerFired(now: NIODeadline) -> [Outcome] {
        var outcomes: [Outcome] = []
        for service in SDLStreamingService.allCases {
            switch phases[service] {
            case .starting(let deadline) where deadline <= now:
                phases[service] = nil
                let detail = "no StartServiceACK for the \(service) service within \(SDLSessionStateMachine.describe(startTimeout))"
                outcomes.append(
                    Outcome(
                        service: service, event: .init(service: service, state: .refused, reason: detail),
                        reply: .failed(SDLClientError(.timedOut, detail))))
            case .ending(_, let deadline) where deadline <= now:
                phases[service] = nil
                let detail = "no EndServiceACK for the \(service) service within \(SDLSessionStateMachine.describe(endTimeout))"
                outcomes.append(
                    Outcome(
                        service: service, event: .init(service: service, state: .ended, reason: detail),
                        reply: .failed(SDLClientError(.timedOut, detail))))
            default:
                break
            }
        }
        return outcomes
    }

    /// The session ended: every service with it. Started services end with `reason` (`nil` when
    /// the app closed the session); a pending StartService fails with `error`; a pending
    /// EndService succeeds (the service is gone).
    mutating func endAll(reason: String?, error: SDLClientError) -> [Outcome] {
        var outcomes: [Outcome] = []
        for service in SDLStreamingService.allCases {
            switch phases[service] {
            case .starting:
                outcomes.append(Outcome(service: service, reply: .failed(error)))
            case .started:
                outcomes.append(Outcome(service: service, event: .init(service: service, state: .ended, reason: reason)))
            case .ending:
                outcomes.append(Outcome(service: service, event: .init(service: service, state: .ended), reply: .ended))
            case nil:
                break
            }
        }
        phases = [:]
        return outcomes
    }

    /// The largest `mtu` taken from a streaming StartServiceACK (16 MiB, as the session's).
    static let maximumMTU: Int64 = 16 * 1024 * 1024

    private static func accepted(
        _ ack: SDLControlMessage.StartServiceACK, service: SDLStreamingService, sessionMTU: Int
    ) -> SDLStreamingAccepted? {
        var mtu = sessionMTU
        if let value = ack.mtu {
            guard (1...maximumMTU).contains(value) else { return nil }
            mtu = Int(value)
        }
        let format: SDLVideoStreamFormat? =
            service == .video
            ? SDLVideoStreamFormat(
                codec: ack.videoCodec, protocol: ack.videoProtocol, width: ack.width.map { Int($0) }, height: ack.height.map { Int($0) })
            : nil
        return SDLStreamingAccepted(service: service, mtu: mtu, format: format)
    }
}
