import NIOCore
import SDLProtocol
import SDLSpec

@testable import HeadUnitSimulator

/// Drives a pure ``HeadUnit`` like a typed fake app: frames in, decoded frames and RPCs out,
/// a hand-moved clock. No sockets, no sleeps.
struct HeadUnitHarness {
    /// What the head unit sent on a connection, decoded.
    enum Received: Sendable {
        case control(SDLFrameHeader, SDLControlMessage)
        case rpc(SDLFrameHeader, SDLRPCMessage)
    }

    var unit: HeadUnit
    var now = NIODeadline.uptimeNanoseconds(1_000_000_000)
    private var decoders: [ConnectionID: (SDLFrameDecoder, SDLMessageAssembler, ByteBuffer)] = [:]
    /// Everything received, per connection, in order.
    var received: [ConnectionID: [Received]] = [:]
    /// Connections the head unit closed.
    var closed: Set<ConnectionID> = []
    /// Raw frames received, per connection, for byte-level checks.
    var frames: [ConnectionID: [SDLFrame]] = [:]
    private var nextCorrelationID: UInt32 = 1
    private var nextMessageID: [UInt8: UInt32] = [:]

    init(_ configuration: HeadUnitConfiguration = HeadUnitConfiguration()) {
        unit = HeadUnit(configuration: configuration)
    }

    var catalog: SDLCatalog { unit.configuration.catalog }

    mutating func open() -> ConnectionID {
        let id = unit.connectionOpened()
        decoders[id] = (SDLFrameDecoder(maximumPayloadSize: 1 << 20), SDLMessageAssembler(), ByteBuffer())
        return id
    }

    mutating func apply(_ actions: [HeadUnitAction]) {
        for action in actions {
            switch action {
            case .write(let id, let bytes):
                var (decoder, assembler, buffer) = decoders[id]!
                var bytes = bytes
                buffer.writeBuffer(&bytes)
                while let frame = try! decoder.decode(buffer: &buffer) {
                    frames[id, default: []].append(frame)
                    if frame.header.frameType == .control {
                        received[id, default: []].append(.control(frame.header, try! SDLControlMessage(frame: frame)))
                    } else if let message = try! assembler.process(frame, now: now) {
                        var payload = message.payload
                        received[id, default: []].append(.rpc(frame.header, try! payload.readSDLRPCMessage()))
                    }
                }
                decoders[id] = (decoder, assembler, buffer)
            case .close(let id):
                closed.insert(id)
            }
        }
    }

    mutating func send(bytes: ByteBuffer, on id: ConnectionID) {
        apply(unit.receive(bytes, on: id, now: now))
    }

    mutating func send(_ frame: SDLFrame, on id: ConnectionID) {
        var buffer = ByteBuffer()
        buffer.writeSDLFrame(frame)
        send(bytes: buffer, on: id)
    }

    mutating func advance(by amount: TimeAmount) {
        let end = now + amount
        // Step through every timer on the way, as the driver does.
        while let next = unit.nextDeadline, next <= end {
            now = max(now, next)
            apply(unit.advance(to: now))
        }
        now = end
        apply(unit.advance(to: now))
    }

    mutating func closeConnection(_ id: ConnectionID) {
        apply(unit.connectionClosed(id, now: now))
    }

    /// Sends StartService(RPC) the way v5 apps do; returns the ACK.
    mutating func startSession(
        on id: ConnectionID, protocolVersion: String? = "5.4.0", headerVersion: UInt8 = 5
    ) -> (UInt8, SDLControlMessage) {
        let frame = SDLControlMessage.startService(.init(protocolVersion: protocolVersion))
            .makeFrame(version: headerVersion, serviceType: .rpc, sessionID: 0, messageID: 1)
        let before = received[id]?.count ?? 0
        send(frame, on: id)
        guard case .control(let header, let message) = received[id]![before] else { fatalError("no ACK") }
        nextMessageID[header.sessionID] = 1
        return (header.sessionID, message)
    }

    /// Sends a request; returns its correlation id.
    @discardableResult
    mutating func request(
        _ function: String,
        _ parameters: SDLJSON = [:],
        session: UInt8,
        on id: ConnectionID,
        version: UInt8 = 5,
        bulkData: ByteBuffer? = nil,
        mtu: Int = 131_072
    ) -> UInt32 {
        let correlationID = nextCorrelationID
        nextCorrelationID += 1
        let functionID = catalog.functionID(named: function)!
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(
            SDLRPCMessage(
                rpcType: .request, functionID: functionID, correlationID: correlationID, parameters: parameters, bulkData: bulkData))
        let messageID = nextMessageID[session, default: 1]
        nextMessageID[session] = messageID + 1
        let message = SDLMessage(
            version: version, serviceType: bulkData == nil ? .rpc : .bulkData, sessionID: session, messageID: messageID, payload: payload)
        var bytes = ByteBuffer()
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: mtu) { bytes.writeSDLFrame(frame) }
        send(bytes: bytes, on: id)
        return correlationID
    }

    /// Sends a request and returns its response, if one arrived at once.
    mutating func call(_ function: String, _ parameters: SDLJSON = [:], session: UInt8, on id: ConnectionID) -> SDLRPCMessage? {
        let correlationID = request(function, parameters, session: session, on: id)
        return response(correlationID, on: id)
    }

    /// The response with this correlation id, if it arrived.
    func response(_ correlationID: UInt32, on id: ConnectionID) -> SDLRPCMessage? {
        for case .rpc(_, let rpc) in received[id] ?? [] where rpc.rpcType == .response && rpc.correlationID == correlationID {
            return rpc
        }
        return nil
    }

    /// Notifications received on a session, by name, in order.
    func notifications(_ name: String? = nil, session: UInt8, on id: ConnectionID) -> [SDLRPCMessage] {
        (received[id] ?? []).compactMap { item in
            guard case .rpc(let header, let rpc) = item, header.sessionID == session, rpc.rpcType == .notification else { return nil }
            guard let name else { return rpc }
            return catalog.functionName(forID: rpc.functionID) == name ? rpc : nil
        }
    }

    /// Starts a session and registers an app on it; returns the session and the response.
    mutating func register(
        appName: String = "Demo",
        appID: String = "demo-1",
        isMedia: Bool = false,
        on id: ConnectionID,
        extra: [String: SDLJSON] = [:]
    ) -> (UInt8, SDLRPCMessage) {
        let (session, _) = startSession(on: id)
        var params: [String: SDLJSON] = [
            "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0],
            "appName": .string(appName),
            "isMediaApplication": .bool(isMedia),
            "languageDesired": "EN-US",
            "hmiDisplayLanguageDesired": "EN-US",
            "appID": .string(appID),
        ]
        params.merge(extra) { $1 }
        let correlationID = request("RegisterAppInterface", .object(params), session: session, on: id)
        return (session, response(correlationID, on: id)!)
    }
}

extension SDLRPCMessage {
    var resultCode: String? { parameters["resultCode"]?.stringValue }
    var success: Bool? { parameters["success"]?.boolValue }
}
