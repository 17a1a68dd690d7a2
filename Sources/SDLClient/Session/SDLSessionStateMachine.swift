import NIOCore
import SDLProtocol

/// The protocol-level state of one SDL app session on one connection: the RPC service's
/// StartService handshake, message ids, fragmentation and reassembly, heartbeats, the idle
/// timer and EndService (docs/protocol.md §a, §b, §d, §k).
///
/// The video and audio services' control frames go up as ``Action/streamControl(_:_:)`` to
/// ``SDLStreamingServices``; the session numbers their frames (SDLSessionStateMachine+Streaming.swift).
///
/// Pure: no I/O and no clock. Every input takes the time and returns the ``Action``s a thin
/// driver executes in order (write frames, deliver RPCs, close the connection), as SwiftNIO's
/// SSH and HTTP/2 state machines do. The driver keeps one timer at ``nextDeadline`` and calls
/// ``timerFired(now:)`` when it fires.
///
/// ```
///  idle ──start──▶ starting ──StartServiceACK──▶ established ──close──▶ closing ──EndServiceACK──▶ closed
///                     │ NAK, timeout, bad ACK        │ EndService from Core, idle      │ NAK, timeout
///                     └──────────────────────────────┴── timeout, malformed ───────────┴──────────▶ closed
/// ```
public struct SDLSessionStateMachine: Sendable {
    public let configuration: Configuration
    private let offeredVersion: SDLProtocolVersion
    /// Internal so the streaming services (SDLSessionStateMachine+Streaming.swift) frame with
    /// the session's numbering.
    var state: State

    enum State: Sendable {
        case idle
        /// StartService sent; waiting for its ACK or NAK until `deadline`.
        case starting(deadline: NIODeadline)
        case established(Established)
        /// EndService sent; waiting for EndServiceACK until `deadline`.
        case closing(Established, deadline: NIODeadline)
        /// Ended; `error` is why (nil after an acknowledged EndService).
        case closed(error: SDLClientError?)
        /// Only while an input runs, so the session's reassembly buffers stay uniquely referenced
        /// and grow in place instead of being copied (as in SwiftNIO's state machines).
        case modifying
    }

    /// The data of an established session.
    struct Established: Sendable {
        var parameters: SessionParameters
        /// The id of the next frame we originate; 1…UInt32.max, never 0 (Core rejects 0, §a).
        var nextMessageID: UInt32 = 1
        var assembler: SDLMessageAssembler
        var lastReceived: NIODeadline
        var lastSent: NIODeadline
        /// Whether we send Heartbeats on this version.
        var sendsHeartbeats: Bool
        var idleTimeout: TimeAmount?
        /// The driver stopped reading because its reader fell behind (``SDLEventOverflow``): the
        /// head unit is not silent, we are not listening, so the idle timeout does not run.
        var readingPaused = false

        mutating func takeMessageID() -> UInt32 {
            let id = nextMessageID
            nextMessageID = id == .max ? 1 : id + 1
            return id
        }
    }

    public init(configuration: Configuration = .default) {
        guard let version = SDLProtocolVersion(configuration.protocolVersion), (2...5).contains(version.major) else {
            preconditionFailure("protocol version \(configuration.protocolVersion) is not 2.x.x…5.x.x")
        }
        self.configuration = configuration
        self.offeredVersion = version
        self.state = .idle
    }

    // MARK: - State

    /// What the StartServiceACK negotiated, while the session is established or closing.
    public var parameters: SessionParameters? {
        switch state {
        case .established(let session), .closing(let session, _): return session.parameters
        case .idle, .starting, .closed, .modifying: return nil
        }
    }

    /// Whether RPCs can be sent.
    public var isEstablished: Bool {
        if case .established = state { return true }
        return false
    }

    /// Whether the session has ended; see ``closeError``.
    public var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Why the session ended (`nil` while open and after an acknowledged EndService).
    public var closeError: SDLClientError? {
        if case .closed(let error) = state { return error }
        return nil
    }

    /// The message id the next frame we originate will carry (for tests and logs).
    public var nextMessageID: UInt32? {
        switch state {
        case .established(let session), .closing(let session, _): return session.nextMessageID
        case .idle, .starting, .closed, .modifying: return nil
        }
    }

    /// Moves the message id counter, so tests can reach the wrap at `UInt32.max` (0 is skipped).
    mutating func setNextMessageIDForTesting(_ id: UInt32) {
        guard var session = openSession else { return }
        session.nextMessageID = max(id, 1)
        update(session)
    }

    /// When the driver must call ``timerFired(now:)``: the earliest of the StartService or
    /// EndService timeout, the next Heartbeat, the idle timeout and the reassembly expiry.
    public var nextDeadline: NIODeadline? {
        switch state {
        case .idle, .closed, .modifying:
            return nil
        case .starting(let deadline):
            return deadline
        case .established(let session):
            return deadline(of: session)
        case .closing(let session, let deadline):
            return self.deadline(of: session).earliest(deadline)
        }
    }

    private func deadline(of session: Established) -> NIODeadline? {
        var next = session.assembler.nextExpiry
        if session.sendsHeartbeats {
            next = next.earliest(session.lastSent + configuration.heartbeatInterval)
        }
        if let idle = session.idleTimeout, !session.readingPaused {
            next = next.earliest(session.lastReceived + idle)
        }
        return next
    }

    // MARK: - Inputs

    /// Opens the RPC service: StartService(RPC) on session 0 with message id 1, a 12-byte header of
    /// the offered major version and BSON `{protocolVersion: "5.4.0"}` (docs/protocol.md §a
    /// "Opening handshake", §k: Core accepts the v5 header). Below v5 the payload is empty.
    public mutating func start(now: NIODeadline) -> [Action] {
        guard case .idle = state else { return [] }
        let major = UInt8(offeredVersion.major)
        let parameters =
            major >= 5
            ? SDLControlMessage.StartService(protocolVersion: offeredVersion.description)
            : SDLControlMessage.StartService()
        let frame = SDLControlMessage.startService(parameters)
            .makeFrame(version: major, serviceType: .rpc, sessionID: 0, messageID: 1)
        state = .starting(deadline: now + configuration.startServiceTimeout)
        return [.write([frame])]
    }

    /// Handles one frame from the head unit.
    public mutating func receive(_ frame: SDLFrame, now: NIODeadline) -> [Action] {
        switch state {
        case .idle:
            return fail(.protocolViolation, "a frame arrived before StartService was sent")
        case .closed, .modifying:
            return []
        case .starting:
            return receiveWhileStarting(frame, now: now)
        case .established, .closing:
            return receiveWhileOpen(frame, now: now)
        }
    }

    /// The driver's frame decoder failed: the byte stream cannot be trusted any more.
    public mutating func decodingFailed(_ error: SDLProtocolError) -> [Action] {
        guard !isClosed else { return [] }
        return fail(.protocolViolation, "undecodable frame: \(error)")
    }

    /// The connection closed under the session (transport error or EOF).
    public mutating func connectionClosed() -> [Action] {
        switch state {
        case .closed, .modifying:
            return []
        case .closing:
            // Our EndService may have been handled; either way the session is over.
            state = .closed(error: nil)
            return []
        case .idle, .starting, .established:
            state = .closed(error: SDLClientError(.linkLost, "the connection closed"))
            return []
        }
    }

    /// The frames carrying `rpc`: on the RPC service 0x07, or the bulk data service 0x0F when it
    /// has bulk data (docs/protocol.md §c); one Single Frame, or a First Frame and Consecutive
    /// Frames when the payload is larger than the negotiated MTU (§a "First Frame"). Each message
    /// takes the session's next message id. Throws ``SDLClientError/Code/notConnected`` before
    /// the session is established, and the closing reason after it ended.
    public mutating func send(_ rpc: SDLRPCMessage, now: NIODeadline) throws(SDLClientError) -> [SDLFrame] {
        guard case .established(var session) = state else {
            switch state {
            case .closed(let error?): throw error
            case .closing, .closed: throw SDLClientError(.closed, "the session is closing")
            case .idle, .starting, .established, .modifying: throw SDLClientError(.notConnected, "the RPC service is not started")
            }
        }
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(rpc)
        let message = SDLMessage(
            version: session.parameters.majorVersion,
            serviceType: rpc.bulkData == nil ? .rpc : .bulkData,
            sessionID: session.parameters.sessionID,
            messageID: session.takeMessageID(),
            payload: payload
        )
        let frames = Array(SDLMessageFragmenter(message: message, maximumPayloadSize: session.parameters.mtu))
        session.lastSent = now
        state = .established(session)
        return frames
    }

    /// Ends the session: EndService(RPC) echoing the hash id (v5 BSON `hashId` int32; v2–v4 a
    /// 4-byte payload, docs/protocol.md §a "Hash id", §b), then waits for EndServiceACK or
    /// ``Configuration/endServiceTimeout``. Before the ACK of StartService it just closes.
    public mutating func close(now: NIODeadline) -> [Action] {
        switch state {
        case .idle:
            state = .closed(error: nil)
            return []
        case .starting:
            state = .closed(error: nil)
            return [.closeConnection(nil)]
        case .closing, .closed, .modifying:
            return []
        case .established(var session):
            let frame = SDLControlMessage.endService(.init(hashID: session.parameters.hashID)).makeFrame(
                version: session.parameters.majorVersion,
                serviceType: .rpc,
                sessionID: session.parameters.sessionID,
                messageID: session.takeMessageID()
            )
            session.lastSent = now
            state = .closing(session, deadline: now + configuration.endServiceTimeout)
            return [.write([frame])]
        }
    }

    /// Runs every timer due at `now`: StartService/EndService timeouts, the idle timeout
    /// (→ ``SDLClientError/Code/linkLost``), our Heartbeat, and reassembly expiry (an
    /// incomplete message is dropped, as Core does after `ExpectedConsecutiveFramesTimeout`).
    public mutating func timerFired(now: NIODeadline) -> [Action] {
        switch state {
        case .idle, .closed, .modifying:
            return []
        case .starting(let deadline):
            guard deadline <= now else { return [] }
            return fail(.timedOut, "no StartServiceACK within \(Self.describe(configuration.startServiceTimeout))")
        case .closing(var session, let deadline):
            if deadline <= now {
                return fail(.closed, "no EndServiceACK within \(Self.describe(configuration.endServiceTimeout)); closing anyway")
            }
            if let idle = session.idleTimeout, !session.readingPaused, session.lastReceived + idle <= now {
                return fail(.closed, "nothing received for \(Self.describe(idle)) while closing")
            }
            session.assembler.expire(now: now)
            state = .closing(session, deadline: deadline)
            return []
        case .established(var session):
            if let idle = session.idleTimeout, !session.readingPaused, session.lastReceived + idle <= now {
                return fail(.linkLost, "nothing received for \(Self.describe(idle))")
            }
            session.assembler.expire(now: now)
            var actions: [Action] = []
            if session.sendsHeartbeats, session.lastSent + configuration.heartbeatInterval <= now {
                let beat = SDLControlMessage.heartbeat.makeFrame(
                    version: session.parameters.majorVersion,
                    serviceType: .control,
                    sessionID: session.parameters.sessionID,
                    messageID: session.takeMessageID()
                )
                session.lastSent = now
                actions.append(.write([beat]))
            }
            state = .established(session)
            return actions
        }
    }

    // MARK: - Receiving

    private mutating func receiveWhileStarting(_ frame: SDLFrame, now: NIODeadline) -> [Action] {
        let header = frame.header
        guard header.frameType == .control else {
            return fail(.protocolViolation, "a \(header.frameType) frame arrived before StartServiceACK")
        }
        let message: SDLControlMessage
        do {
            message = try SDLControlMessage(frame: frame)
        } catch {
            return fail(.protocolViolation, "malformed control frame: \(error)")
        }
        switch message {
        case .startServiceACK(let ack) where header.serviceType == .rpc:
            return acknowledge(ack, header: header, now: now)
        case .startServiceNAK(let nak) where header.serviceType == .rpc:
            return fail(.startServiceRejected, Self.describe(nak, "StartServiceNAK"))
        case .transportEventUpdate, .registerSecondaryTransportACK, .registerSecondaryTransportNAK, .serviceDataACK:
            return []
        default:
            return fail(
                .protocolViolation,
                "\(message.frameInfo) on service 0x\(String(header.serviceType.rawValue, radix: 16)) arrived before StartServiceACK")
        }
    }

    /// StartServiceACK: version, hash id and MTU (docs/protocol.md §a "Opening handshake", "MTU").
    private mutating func acknowledge(
        _ ack: SDLControlMessage.StartServiceACK, header: SDLFrameHeader, now: NIODeadline
    ) -> [Action] {
        let ackMajor = header.version
        guard (2...5).contains(ackMajor) else {
            return fail(.unsupportedProtocolVersion, "StartServiceACK has header version \(ackMajor); this client speaks 2…5")
        }
        // The lower of ours and the head unit's: Core answers a v3 StartService with a v4 ACK (§k).
        var theirs = SDLProtocolVersion(Int(ackMajor))
        var mtu = SDLFrameHeader.defaultMaximumPayloadSize(forVersion: ackMajor)
        if ackMajor >= 5 {
            if let string = ack.protocolVersion {
                guard let version = SDLProtocolVersion(string) else {
                    return fail(.protocolViolation, "StartServiceACK protocolVersion \"\(string)\" is not Major.Minor.Patch")
                }
                guard version.major == Int(ackMajor) else {
                    return fail(
                        .unsupportedProtocolVersion,
                        "StartServiceACK protocolVersion \(string) does not match its header version \(ackMajor)")
                }
                theirs = version
            }
            if let value = ack.mtu, value > 0 {
                guard value >= Self.minimumMTU, value <= Self.maximumMTU else {
                    return fail(.protocolViolation, "StartServiceACK mtu \(value) is outside \(Self.minimumMTU)…\(Self.maximumMTU)")
                }
                mtu = Int(value)
            }
        }
        let negotiated = min(offeredVersion, theirs)
        let major = UInt8(negotiated.major)
        if major < 5 { mtu = SDLFrameHeader.defaultMaximumPayloadSize(forVersion: major) }
        let parameters = SessionParameters(
            sessionID: header.sessionID,
            protocolVersion: negotiated.description,
            majorVersion: major,
            hashID: ack.hashID,
            mtu: mtu,
            acknowledgement: ack
        )
        let sendsHeartbeats = configuration.heartbeatVersions.contains(major)
        let idleTimeout: TimeAmount?
        switch configuration.idleTimeout {
        case .automatic: idleTimeout = sendsHeartbeats ? configuration.heartbeatInterval * 3 : nil
        case .disabled: idleTimeout = nil
        case .after(let amount): idleTimeout = amount
        }
        state = .established(
            Established(
                parameters: parameters,
                assembler: SDLMessageAssembler(configuration: configuration.assembler),
                lastReceived: now,
                lastSent: now,
                sendsHeartbeats: sendsHeartbeats,
                idleTimeout: idleTimeout
            ))
        return [.established(parameters)]
    }

    /// The smallest MTU accepted from an ACK: a First Frame's 8 bytes must fit.
    static let minimumMTU: Int64 = 8
    /// The largest MTU accepted from an ACK (16 MiB): it becomes the frame decoder's limit.
    static let maximumMTU: Int64 = 16 * 1024 * 1024
}

// MARK: - Established and closing sessions

extension SDLSessionStateMachine {
    var openSession: Established? {
        switch state {
        case .established(let session), .closing(let session, _): return session
        case .idle, .starting, .closed, .modifying: return nil
        }
    }

    private var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }

    /// Stores `session` back, keeping the established or closing state.
    mutating func update(_ session: Established) {
        switch state {
        case .established: state = .established(session)
        case .closing(_, let deadline): state = .closing(session, deadline: deadline)
        case .idle, .starting, .closed, .modifying: break
        }
    }

    /// The driver paused reading the head unit (its reader fell behind) or resumed: while paused
    /// the idle timeout does not run, and it starts afresh on resuming.
    public mutating func readingPaused(_ paused: Bool, now: NIODeadline) {
        guard var session = openSession else { return }
        session.readingPaused = paused
        if !paused { session.lastReceived = now }
        update(session)
    }

    private mutating func receiveWhileOpen(_ frame: SDLFrame, now: NIODeadline) -> [Action] {
        guard var session = openSession else { return [] }
        session.lastReceived = now
        update(session)
        let header = frame.header
        guard header.sessionID == session.parameters.sessionID else {
            return fail(
                .protocolViolation, "a frame for session \(header.sessionID) on session \(session.parameters.sessionID)'s connection")
        }
        guard !header.isEncrypted else {
            return fail(.protocolViolation, "an encrypted frame, but this session negotiated no protection")
        }
        if header.frameType == .control {
            return receiveControl(frame, session: session, now: now)
        }
        guard header.serviceType == .rpc || header.serviceType == .bulkData else {
            return fail(
                .protocolViolation,
                "a \(header.frameType) frame on service 0x\(String(header.serviceType.rawValue, radix: 16)), which was never started")
        }
        let message: SDLMessage?
        let closingDeadline: NIODeadline?
        if case .closing(_, let deadline) = state { closingDeadline = deadline } else { closingDeadline = nil }
        state = .modifying  // the only reference to the buffers is now `session`'s
        do {
            message = try session.assembler.process(frame, now: now)
        } catch {
            return fail(.protocolViolation, "reassembly failed: \(error)")
        }
        if let closingDeadline {
            state = .closing(session, deadline: closingDeadline)
        } else {
            state = .established(session)
        }
        guard let message else { return [] }
        var payload = message.payload
        do {
            return [.deliver(try payload.readSDLRPCMessage())]
        } catch {
            return fail(.protocolViolation, "malformed RPC message \(message.messageID): \(error)")
        }
    }

    /// Control frames of an open session (docs/protocol.md §a "Closing", §d).
    private mutating func receiveControl(_ frame: SDLFrame, session: Established, now: NIODeadline) -> [Action] {
        var session = session
        let header = frame.header
        let message: SDLControlMessage
        do {
            message = try SDLControlMessage(frame: frame)
        } catch {
            return fail(.protocolViolation, "malformed control frame: \(error)")
        }
        let major = session.parameters.majorVersion
        switch message {
        case .heartbeat:
            // Core answers only on v3–v5 (§d); so do we. The ACK echoes the message id (§k).
            guard (3...5).contains(major) else { return [] }
            let ack = SDLControlMessage.heartbeatACK.makeFrame(
                version: major, serviceType: header.serviceType, sessionID: session.parameters.sessionID,
                messageID: header.messageID)
            session.lastSent = now
            update(session)
            return [.write([ack])]
        case _ where SDLStreamingService(serviceType: header.serviceType) != nil:
            // StartServiceACK/NAK, EndService, EndServiceACK/NAK of video and audio (§o).
            guard let service = SDLStreamingService(serviceType: header.serviceType), !isClosing else { return [] }
            return [.streamControl(service, message)]
        case .endService where header.serviceType == .rpc:
            // Core ends the session itself, e.g. after its heartbeat timeout (§a "Closing", §d).
            let ack = SDLControlMessage.endServiceACK.makeFrame(
                version: major, serviceType: .rpc, sessionID: session.parameters.sessionID,
                messageID: session.takeMessageID())
            if isClosing {
                state = .closed(error: nil)
                return [.write([ack]), .closeConnection(nil)]
            }
            let error = SDLClientError(.linkLost, "the head unit ended the session (EndService)")
            state = .closed(error: error)
            return [.write([ack]), .closeConnection(error)]
        case .endServiceACK where header.serviceType == .rpc && isClosing:
            state = .closed(error: nil)
            return [.closeConnection(nil)]
        case .endServiceNAK(let nak) where header.serviceType == .rpc && isClosing:
            return fail(.closed, Self.describe(nak, "EndServiceNAK") + "; closing the connection anyway")
        default:
            // HeartbeatACK (the receive time is all it is for), transport events, and stray
            // acknowledgements are ignored.
            return []
        }
    }

    /// Ends the session with `code`; the driver closes the connection.
    private mutating func fail(_ code: SDLClientError.Code, _ detail: String) -> [Action] {
        let error = SDLClientError(code, detail)
        state = .closed(error: error)
        return [.closeConnection(error)]
    }

    static func describe(_ nak: SDLControlMessage.NAK, _ name: String) -> String {
        var detail = name
        if let reason = nak.reason { detail += ": \(reason)" }
        if let rejected = nak.rejectedParams, !rejected.isEmpty {
            detail += " (rejected: \(rejected.joined(separator: ", ")))"
        }
        return detail
    }

    static func describe(_ amount: TimeAmount) -> String {
        "\(amount.nanoseconds / 1_000_000) ms"
    }
}
