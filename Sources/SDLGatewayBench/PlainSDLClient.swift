#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import SDLClient
import SDLProtocol
import SDLSpec

/// Why the plain client stopped, with a stable code.
struct PlainSDLClientError: Error, CustomStringConvertible {
    enum Code: String, Sendable {
        /// The socket could not be made or connected.
        case connectFailed = "connect_failed"
        /// Nothing (or not the awaited answer) arrived before the deadline.
        case timedOut = "timed_out"
        /// The head unit closed the connection.
        case closed
        /// A frame or message that cannot be read, or StartServiceNAK.
        case protocolViolation = "protocol_violation"
        /// RegisterAppInterface answered a code that leaves the app unregistered.
        case registrationFailed = "registration_failed"
        /// A function the RPC catalog does not know.
        case unknownFunction = "unknown_function"
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "\(code.rawValue): \(message)" }
}

/// The smallest SDL app the protocol allows, as a yardstick for the head-unit round trip: one
/// blocking TCP socket (TCP_NODELAY), no event loop, no tasks, nothing asynchronous. A call
/// writes the request's frame(s) and reads on the same thread until the response with its
/// correlation id (notifications are read and dropped, a Heartbeat is answered with
/// HeartbeatACK). Every read has a deadline (SO_RCVTIMEO and a clock check), so a silent head
/// unit ends a call with ``PlainSDLClientError/Code/timedOut``.
///
/// The bytes are those of the project's own client: StartService(RPC) on session 0 with a v5
/// header and BSON `protocolVersion` (docs/protocol.md §a "Opening handshake", §b), the RPC
/// binary header and JSON (§c), First/Consecutive Frames above the ACK's `mtu` (§a "MTU").
///
/// It never sends a Heartbeat, so SDL Core never heartbeats it nor drops it for silence between
/// calls (docs/protocol.md §d). Not Sendable: one caller owns it.
final class PlainSDLClient {
    let catalog: SDLCatalog
    /// How long a call (or the opening handshake) may wait for its answer.
    let timeout: Duration
    private let socket: Int32
    private var decoder = SDLFrameDecoder()
    private var assembler = SDLMessageAssembler()
    private var inbound = ByteBuffer()
    private var outbound = ByteBuffer()
    private var sessionID: UInt8 = 0
    private var version: UInt8 = 5
    private var mtu = SDLFrameDecoder.defaultMaximumPayloadSize
    private var hashID: Int32?
    private var nextMessageID: UInt32 = 1
    private var nextCorrelationID: UInt32 = 1
    private var closed = false
    /// The app's HMI level from the latest OnHMIStatus read, if any.
    private(set) var hmiLevel: String?
    /// RPC messages read that came as a First Frame and Consecutive Frames.
    private(set) var multiFrameMessages = 0

    /// Connects to `host:port` (IPv4 numeric or a name) and opens the RPC service.
    init(host: String, port: Int, timeout: Duration = .seconds(10), catalog: SDLCatalog = .builtIn) throws(PlainSDLClientError) {
        self.catalog = catalog
        self.timeout = timeout
        socket = try Self.connect(host: host, port: port, timeout: timeout)
        do throws(PlainSDLClientError) {
            try startService()
        } catch {
            _ = systemClose(socket)
            closed = true
            throw error
        }
    }

    deinit { close() }

    /// RegisterAppInterface for `app`, then reads until the app is out of HMI level NONE (where
    /// the head unit refuses Show) or `timeout` passes. Returns the response.
    @discardableResult
    func register(_ app: SDLAppConfiguration, waitForHMILevel: Bool = true) throws(PlainSDLClientError) -> SDLRPCMessage {
        let parameters: SDLJSON
        do { parameters = try SDLRegistrationParameters.make(from: app, catalog: catalog) } catch {
            throw PlainSDLClientError(.registrationFailed, "\(error)")
        }
        let response = try call(SDLRegistrationParameters.functionName, parameters)
        let code = response.parameters["resultCode"]?.stringValue ?? "?"
        guard SDLRegistrationParameters.classify(resultCode: code) == .registered else {
            throw PlainSDLClientError(.registrationFailed, "RegisterAppInterface answered \(code)")
        }
        guard waitForHMILevel else { return response }
        let deadline = ContinuousClock.now + timeout
        while hmiLevel == nil || hmiLevel == "NONE" {
            _ = try readMessage(until: deadline, waitingFor: "OnHMIStatus out of NONE")
        }
        return response
    }

    /// Sends the request `function` with `parameters` and reads until its response.
    func call(_ function: String, _ parameters: SDLJSON) throws(PlainSDLClientError) -> SDLRPCMessage {
        guard let functionID = catalog.functionID(named: function) else {
            throw PlainSDLClientError(.unknownFunction, "the RPC catalog has no function \(function)")
        }
        let correlationID = nextCorrelationID
        nextCorrelationID &+= 1
        let rpc = SDLRPCMessage(rpcType: .request, functionID: functionID, correlationID: correlationID, parameters: parameters)
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(rpc)
        let message = SDLMessage(version: version, serviceType: .rpc, sessionID: sessionID, messageID: takeMessageID(), payload: payload)
        outbound.clear()
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: mtu) { outbound.writeSDLFrame(frame) }
        try writeOutbound()
        let deadline = ContinuousClock.now + timeout
        while true {
            let rpc = try readMessage(until: deadline, waitingFor: "the \(function) response")
            if rpc.rpcType == .response, rpc.correlationID == correlationID { return rpc }
        }
    }

    /// EndService(RPC) with the hash id, then closes the socket (no wait for the ACK).
    func close() {
        guard !closed else { return }
        closed = true
        outbound.clear()
        outbound.writeSDLFrame(
            SDLControlMessage.endService(.init(hashID: hashID)).makeFrame(
                version: version, serviceType: .rpc, sessionID: sessionID, messageID: takeMessageID()))
        try? writeOutbound()
        _ = systemClose(socket)
    }

    // MARK: - Handshake

    /// StartService(RPC), session 0, message id 1, v5 header, BSON `protocolVersion` "5.4.0";
    /// waits for StartServiceACK and takes its session id, hash id and `mtu`.
    private func startService() throws(PlainSDLClientError) {
        outbound.clear()
        outbound.writeSDLFrame(
            SDLControlMessage.startService(.init(protocolVersion: "5.4.0")).makeFrame(
                version: 5, serviceType: .rpc, sessionID: 0, messageID: takeMessageID()))
        try writeOutbound()
        let deadline = ContinuousClock.now + timeout
        while true {
            let frame = try readFrame(until: deadline, waitingFor: "StartServiceACK")
            guard frame.header.frameType == .control else {
                throw PlainSDLClientError(.protocolViolation, "a \(frame.header.frameType) frame arrived before StartServiceACK")
            }
            let control: SDLControlMessage
            do { control = try SDLControlMessage(frame: frame) } catch {
                throw PlainSDLClientError(.protocolViolation, "malformed control frame: \(error)")
            }
            switch control {
            case .startServiceACK(let ack) where frame.header.serviceType == .rpc:
                sessionID = frame.header.sessionID
                version = frame.header.version
                hashID = ack.hashID
                mtu = SDLFrameHeader.defaultMaximumPayloadSize(forVersion: version)
                if version >= 5, let value = ack.mtu, value > 0 { mtu = Int(value) }
                return
            case .startServiceNAK(let nak):
                throw PlainSDLClientError(.protocolViolation, "StartServiceNAK \(nak.reason ?? "")")
            default:
                continue
            }
        }
    }

    // MARK: - Reading

    /// The next RPC message, answering Heartbeats and dropping other control frames on the way;
    /// OnHMIStatus updates ``hmiLevel``.
    private func readMessage(until deadline: ContinuousClock.Instant, waitingFor what: String) throws(PlainSDLClientError) -> SDLRPCMessage
    {
        while true {
            let frame = try readFrame(until: deadline, waitingFor: what)
            if frame.header.frameType == .control {
                if frame.header.frameInfo == SDLControlFrameInfo.heartbeat.rawValue {
                    // The ACK echoes the heartbeat's service and message id (docs/protocol.md §d, §k).
                    outbound.clear()
                    outbound.writeSDLFrame(
                        SDLControlMessage.heartbeatACK.makeFrame(
                            version: version, serviceType: frame.header.serviceType, sessionID: sessionID,
                            messageID: frame.header.messageID))
                    try writeOutbound()
                }
                continue
            }
            let message: SDLMessage?
            do { message = try assembler.process(frame, now: .now()) } catch {
                throw PlainSDLClientError(.protocolViolation, "\(error)")
            }
            guard var payload = message?.payload, message?.serviceType == .rpc || message?.serviceType == .bulkData else { continue }
            if frame.header.frameType == .consecutive { multiFrameMessages += 1 }
            let rpc: SDLRPCMessage
            do { rpc = try payload.readSDLRPCMessage() } catch {
                throw PlainSDLClientError(.protocolViolation, "unreadable RPC message: \(error)")
            }
            if rpc.rpcType == .notification, catalog.functionName(forID: rpc.functionID) == "OnHMIStatus",
                let level = rpc.parameters["hmiLevel"]?.stringValue
            {
                hmiLevel = level
            }
            return rpc
        }
    }

    /// The next whole frame: decodes what is buffered, else blocks in recv (at most until
    /// `deadline`: SO_RCVTIMEO bounds each recv, the clock the whole wait).
    private func readFrame(until deadline: ContinuousClock.Instant, waitingFor what: String) throws(PlainSDLClientError) -> SDLFrame {
        while true {
            do {
                if let frame = try decoder.decode(buffer: &inbound) { return frame }
            } catch {
                throw PlainSDLClientError(.protocolViolation, "undecodable frame: \(error)")
            }
            guard ContinuousClock.now < deadline else {
                throw PlainSDLClientError(.timedOut, "no \(what) within \(timeout)")
            }
            // recv's -1 (a timeout, a signal) is kept apart: the buffer takes only bytes written.
            var received = 0
            inbound.writeWithUnsafeMutableBytes(minimumWritableBytes: 65_536) { bytes in
                received = recv(socket, bytes.baseAddress, bytes.count, 0)
                return max(received, 0)
            }
            if received == 0 { throw PlainSDLClientError(.closed, "the head unit closed the connection while waiting for \(what)") }
            if received < 0 {
                let error = errno
                if error == EAGAIN || error == EWOULDBLOCK || error == EINTR { continue }
                throw PlainSDLClientError(.closed, "recv failed (errno \(error)) while waiting for \(what)")
            }
        }
    }

    // MARK: - Writing

    private func takeMessageID() -> UInt32 {
        defer { nextMessageID &+= 1 }
        return nextMessageID
    }

    /// Writes all of ``outbound`` (blocking).
    private func writeOutbound() throws(PlainSDLClientError) {
        while outbound.readableBytes > 0 {
            let sent = outbound.withUnsafeReadableBytes { bytes in send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                let error = errno
                if error == EINTR { continue }
                throw PlainSDLClientError(.closed, "send failed (errno \(error))")
            }
            outbound.moveReaderIndex(forwardBy: sent)
        }
    }

    /// A connected blocking TCP socket with TCP_NODELAY and SO_RCVTIMEO/SO_SNDTIMEO of `timeout`.
    private static func connect(host: String, port: Int, timeout: Duration) throws(PlainSDLClientError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw PlainSDLClientError(.connectFailed, "cannot resolve \(host):\(port): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError: Int32 = 0
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = systemSocket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            setSocketTimeouts(fd, timeout)
            if systemConnect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return fd }
            lastError = errno
            _ = systemClose(fd)
        }
        throw PlainSDLClientError(.connectFailed, "cannot connect to \(host):\(port) (errno \(lastError))")
    }
}

/// SO_RCVTIMEO (which bounds `accept` too on Linux) and SO_SNDTIMEO of `timeout` on `socket`.
func setSocketTimeouts(_ socket: Int32, _ timeout: Duration) {
    let (seconds, attoseconds) = timeout.components
    var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    _ = setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
}

// The C calls whose names the client's members shadow.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemSocket(_ family: Int32, _ type: Int32, _ proto: Int32) -> Int32 { socket(family, type, proto) }
private func systemConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
