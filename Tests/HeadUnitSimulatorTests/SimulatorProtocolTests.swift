import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

@Suite("Simulator: protocol side as SDL Core 8.2")
struct SimulatorProtocolTests {
    @Test("A v5 StartService gets Core's ACK: session 1, message id 0, hashId, mtu, protocolVersion, vehicle strings")
    func v5StartService() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        // The 12-byte-header StartService of docs/protocol.md §k.
        harness.send(
            bytes: ByteBuffer(bytes: [0x50, 0x07, 0x01, 0x00, 0, 0, 0, 0x20, 0, 0, 0, 1] + Self.protocolVersionBSON), on: connection)
        let frame = try #require(harness.frames[connection]?.first)
        #expect(
            frame.header
                == SDLFrameHeader(
                    version: 5, frameType: .control, serviceType: .rpc, frameInfo: 2, sessionID: 1, dataSize: frame.header.dataSize,
                    messageID: 0))
        guard case .startServiceACK(let ack) = try SDLControlMessage(frame: frame) else { Issue.record("not an ACK"); return }
        #expect(ack.hashID == 65537)
        #expect(ack.mtu == 131_072)
        #expect(ack.protocolVersion == "5.4.0")
        #expect(ack.make == "SDL")
        #expect(ack.model == "Generic")
        #expect(ack.secondaryTransports == [])
        #expect(ack.audioServiceTransports == [1])
        var payload = frame.payload
        let bson = try payload.readBSONDocument()
        #expect(bson["hashId"] == .int32(65537))
        #expect(bson["mtu"] == .int64(131_072))
    }

    static let protocolVersionBSON: [UInt8] = [
        0x20, 0, 0, 0, 0x02, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x63, 0x6f, 0x6c, 0x56, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0,
        0x06, 0, 0, 0, 0x35, 0x2e, 0x34, 0x2e, 0x30, 0, 0,
    ]

    @Test("An app asking for 5.2.0 gets 5.2.0 and no vehicle strings; a newer app gets 5.4.0")
    func negotiatesVersion() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (_, older) = harness.startSession(on: connection, protocolVersion: "5.2.0")
        guard case .startServiceACK(let ack) = older else { Issue.record("not an ACK"); return }
        #expect(ack.protocolVersion == "5.2.0")
        #expect(ack.make == nil)
        let (_, newer) = harness.startSession(on: connection, protocolVersion: "5.9.1")
        guard case .startServiceACK(let ack2) = newer else { Issue.record("not an ACK"); return }
        #expect(ack2.protocolVersion == "5.4.0")
    }

    @Test("A v3 StartService without payload gets a v4 ACK carrying the 4-byte hash id")
    func v3StartService() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        harness.send(bytes: ByteBuffer(bytes: [0x30, 0x07, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 1]), on: connection)
        let frame = try #require(harness.frames[connection]?.first)
        #expect(frame.header.version == 4)
        #expect(frame.payload == ByteBuffer(bytes: [0, 1, 0, 1]))
    }

    @Test("Session ids come from one pool of 1…255 across connections, lowest free first")
    func sessionPool() {
        var harness = HeadUnitHarness()
        let a = harness.open()
        let b = harness.open()
        #expect(harness.startSession(on: a).0 == 1)
        #expect(harness.startSession(on: b).0 == 2)
        #expect(harness.startSession(on: a).0 == 3)
        harness.closeConnection(a)
        #expect(harness.startSession(on: b).0 == 1)
    }

    @Test("EndService with a wrong hash id gets Core's NAK; the right one an ACK and frees the session")
    func endService() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.startSession(on: connection)
        harness.send(
            SDLControlMessage.endService(.init(hashID: 1234)).makeFrame(version: 5, serviceType: .rpc, sessionID: session, messageID: 2),
            on: connection)
        guard case .control(_, .endServiceNAK(let nak)) = harness.received[connection]!.last! else { Issue.record("no NAK"); return }
        #expect(nak.rejectedParams == ["hashId"])
        #expect(nak.reason == "Wrong hash_id for session 1")
        harness.send(
            SDLControlMessage.endService(.init(hashID: 65537)).makeFrame(version: 5, serviceType: .rpc, sessionID: session, messageID: 3),
            on: connection)
        guard case .control(let header, .endServiceACK) = harness.received[connection]!.last! else { Issue.record("no ACK"); return }
        #expect(header.dataSize == 0)
        #expect(harness.unit.sessions[session] == nil)
    }

    @Test("Heartbeat on v5 is answered on the control service with its message id; v2 gets none")
    func heartbeat() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.startSession(on: connection)
        harness.send(
            SDLControlMessage.heartbeat.makeFrame(version: 5, serviceType: .control, sessionID: session, messageID: 77), on: connection)
        let ack = try #require(harness.frames[connection]?.last)
        #expect(
            ack.header
                == SDLFrameHeader(
                    version: 5, frameType: .control, serviceType: .control, frameInfo: 0xFF, sessionID: session, dataSize: 0, messageID: 77)
        )
        let count = harness.frames[connection]!.count
        harness.send(
            SDLControlMessage.heartbeat.makeFrame(version: 2, serviceType: .control, sessionID: session, messageID: 78), on: connection)
        #expect(harness.frames[connection]!.count == count)
    }

    @Test("Once an app heartbeats, silence gets a Heartbeat after the timeout and EndService after another")
    func heartbeatMonitor() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.startSession(on: connection)
        harness.send(
            SDLControlMessage.heartbeat.makeFrame(version: 5, serviceType: .control, sessionID: session, messageID: 5), on: connection)
        harness.advance(by: .milliseconds(7000))
        guard case .control(_, .heartbeat) = harness.received[connection]!.last! else { Issue.record("no Heartbeat"); return }
        harness.advance(by: .milliseconds(7000))
        guard case .control(_, .endService(let end)) = harness.received[connection]!.last! else { Issue.record("no EndService"); return }
        #expect(end.hashID == 65537)
        #expect(harness.unit.sessions[session] == nil)
    }

    @Test("Malformed frames close the connection above Core's 10 per second, not at 10")
    func malformedThreshold() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let bad = ByteBuffer(bytes: [0x51, 0x07, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 1])  // data size 0: malformed for Core
        for _ in 0..<10 { harness.send(bytes: bad, on: connection) }
        #expect(!harness.closed.contains(connection))
        harness.advance(by: .seconds(1))
        for _ in 0..<10 { harness.send(bytes: bad, on: connection) }
        #expect(!harness.closed.contains(connection))
        harness.send(bytes: bad, on: connection)
        #expect(harness.closed.contains(connection))
    }

    @Test("Garbage bytes are skipped one at a time and the frames after them still work")
    func resynchronises() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        harness.send(bytes: ByteBuffer(bytes: [0xFF, 0xEE]), on: connection)
        let (session, _) = harness.startSession(on: connection)
        #expect(session == 1)
        #expect(!harness.closed.contains(connection))
    }

    @Test("An unknown function id is answered with that id and UNSUPPORTED_REQUEST (docs/protocol.md §k)")
    func unknownFunction() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(SDLRPCMessage(rpcType: .request, functionID: 999, correlationID: 42))
        harness.send(
            SDLFrame(
                header: .init(version: 5, frameType: .single, serviceType: .rpc, sessionID: session, dataSize: 0, messageID: 50),
                payload: payload), on: connection)
        let response = try #require(harness.response(42, on: connection))
        #expect(response.functionID == 999)
        #expect(
            response.parameters == [
                "success": false, "resultCode": "UNSUPPORTED_REQUEST", "info": "Module does not recognize this function id",
            ])
    }

    @Test("Requests before RegisterAppInterface get APPLICATION_NOT_REGISTERED")
    func notRegistered() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.startSession(on: connection)
        let id = harness.request("Show", ["mainField1": "hi"], session: session, on: connection)
        #expect(harness.response(id, on: connection)?.resultCode == "APPLICATION_NOT_REGISTERED")
    }

    @Test("Invalid parameters get INVALID_DATA naming the parameter (docs/protocol.md §k)")
    func invalidData() throws {
        var harness = HeadUnitHarness(HeadUnitConfiguration(autoActivate: true))
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        harness.advance(by: .seconds(1))
        let id = harness.request("Show", ["mainField1": 123], session: session, on: connection)
        let response = try #require(harness.response(id, on: connection))
        #expect(response.success == false)
        #expect(response.resultCode == "INVALID_DATA")
        #expect(response.parameters["info"]?.stringValue?.contains("mainField1") == true)
    }

    @Test("A v2 app gets responses bigger than 1488 bytes as First and Consecutive Frames")
    func fragmentsForV2() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        harness.send(bytes: ByteBuffer(bytes: [0x20, 0x07, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 1]), on: connection)
        let correlationID = harness.request(
            "RegisterAppInterface",
            [
                "syncMsgVersion": ["majorVersion": 4, "minorVersion": 0], "appName": "Old", "isMediaApplication": false,
                "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "old",
            ],
            session: 1, on: connection, version: 2, mtu: 1488
        )
        let response = try #require(harness.response(correlationID, on: connection))
        #expect(response.resultCode == "SUCCESS")
        let frames = harness.frames[connection]!.filter { $0.header.serviceType == .rpc && $0.header.frameType != .control }
        #expect(frames.contains { $0.header.frameType == .first })
        #expect(frames.allSatisfy { $0.header.version == 2 && $0.payload.readableBytes <= 1488 })
    }

    @Test("A request bigger than the MTU is reassembled from the app's frames")
    func reassemblesRequests() throws {
        var harness = HeadUnitHarness(HeadUnitConfiguration(autoActivate: true))
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        harness.advance(by: .seconds(1))
        let id = harness.request(
            "Show", ["mainField1": .string(String(repeating: "é", count: 250))], session: session, on: connection, mtu: 100)
        #expect(harness.response(id, on: connection)?.resultCode == "SUCCESS")
    }
}
