import NIOCore
import SDLClient
import SDLProtocol
import Testing

@Suite("Session malformed input")
struct SessionMalformedTests {
    let now = NIODeadline.uptimeNanoseconds(5_000_000_000)

    static func header(
        _ type: SDLFrameType, service: SDLServiceType = .rpc, info: UInt8 = 0, session: UInt8 = 1, messageID: UInt32 = 5
    ) -> SDLFrameHeader {
        SDLFrameHeader(
            version: 5, frameType: type, serviceType: service, frameInfo: info, sessionID: session, dataSize: 0, messageID: messageID)
    }

    static func bytes(_ values: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: values) }

    /// Frames an established v5 session must reject, with what is wrong with them.
    static let malformed: [(String, SDLFrame)] = [
        ("consecutive frame without a First Frame", SDLFrame(header: header(.consecutive, info: 0), payload: bytes([1, 2, 3]))),
        ("RPC shorter than its binary header", SDLFrame(header: header(.single), payload: bytes([0, 0, 0, 1, 0]))),
        ("RPC JSON size past the payload", SDLFrame(header: header(.single), payload: bytes([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 9, 0x7B]))),
        ("RPC type 3", SDLFrame(header: header(.single), payload: bytes([0x30, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]))),
        ("RPC JSON that is not JSON", SDLFrame(header: header(.single), payload: bytes([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 0x7B, 0x7B]))),
        ("unknown control frame info", SDLFrame(header: header(.control, info: 0x42), payload: ByteBuffer())),
        ("truncated BSON in a control frame", SDLFrame(header: header(.control, info: 0x04), payload: bytes([0x20, 0, 0, 0, 0x10]))),
        (
            "a frame for another session",
            SDLFrame(header: header(.single, session: 9), payload: bytes([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]))
        ),
        (
            "an RPC on the video service",
            SDLFrame(header: header(.single, service: .video), payload: bytes([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0]))
        ),
        ("a First Frame announcing zero bytes", SDLFrame(header: header(.first), payload: bytes([0, 0, 0, 0, 0, 0, 0, 0]))),
    ]

    @Test("Malformed frames close the session with protocolViolation", arguments: 0..<malformed.count)
    func malformedFrame(index: Int) throws {
        let (name, frame) = Self.malformed[index]
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        let actions = machine.receive(frame, now: now)
        let error = try #require(actions.first?.closeError ?? nil, "\(name)")
        #expect(actions.count == 1)
        #expect(error.code == .protocolViolation, "\(name)")
        #expect(machine.closeError == error)
        let after = machine.receive(frame, now: now)
        #expect(after.isEmpty)
    }

    @Test("An RPC before StartServiceACK is a protocolViolation")
    func rpcBeforeACK() throws {
        var machine = SDLSessionStateMachine()
        _ = machine.start(now: now)
        let rpc = SDLRPCMessage(rpcType: .notification, functionID: 32768, correlationID: .max)
        let actions = machine.receive(SessionFrames.rpcFrame(rpc), now: now)
        #expect((actions.first?.closeError ?? nil)?.code == .protocolViolation)
    }

    @Test("A v5 ACK with an unreadable protocolVersion or an absurd mtu is a protocolViolation")
    func badACK() {
        let (badVersion, versionActions) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(protocolVersion: "five"), now: now)
        #expect((versionActions.first?.closeError ?? nil)?.code == .protocolViolation)
        #expect(badVersion.isClosed)
        let (_, mtuActions) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(mtu: 4), now: now)
        #expect((mtuActions.first?.closeError ?? nil)?.code == .protocolViolation)
        let (_, hugeActions) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(mtu: 1 << 40), now: now)
        #expect((hugeActions.first?.closeError ?? nil)?.code == .protocolViolation)
    }

    @Test("A decoder error from the driver closes with protocolViolation")
    func decodingFailed() {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        let actions = machine.decodingFailed(SDLProtocolError(.unknownServiceType, "service type 0x42 is reserved", offset: 1))
        #expect((actions.first?.closeError ?? nil)?.code == .protocolViolation)
    }

    @Test("Transport events and stray acknowledgements are ignored")
    func ignoredControlFrames() {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        let update = SessionFrames.control(.transportEventUpdate(.init(tcpIPAddress: "", tcpPort: 0)), version: 5, service: .control)
        let first = machine.receive(update, now: now)
        #expect(first.isEmpty)
        let ack = machine.receive(SessionFrames.control(.endServiceACK, version: 5), now: now)
        #expect(ack.isEmpty)
        #expect(machine.isEstablished)
    }
}
