import NIOCore
import Testing

@testable import SDLProtocol

private typealias Message = SDLControlMessage

/// The frame as it goes on the wire: header then payload.
private func wireBytes(_ frame: SDLFrame) -> [UInt8] {
    var buffer = ByteBuffer()
    buffer.writeSDLFrameHeader(frame.header)
    var payload = frame.payload
    buffer.writeBuffer(&payload)
    return Array(buffer.readableBytesView)
}

/// Parses one whole frame from `bytes` (header, then exactly `dataSize` bytes).
private func readFrame(_ bytes: [UInt8]) throws -> SDLFrame {
    var buffer = ByteBuffer(bytes: bytes)
    let header = try #require(try buffer.readSDLFrameHeader())
    let slice = buffer.readSlice(length: Int(header.dataSize))
    let payload = try #require(slice)
    #expect(buffer.readableBytes == 0)
    return SDLFrame(header: header, payload: payload)
}

private func decode(hex: String) throws -> Message {
    try Message(frame: readFrame([UInt8](hex: hex)))
}

private func decodeError(_ frame: SDLFrame) -> SDLProtocolError? {
    do {
        _ = try Message(frame: frame)
        return nil
    } catch {
        return error
    }
}

private func controlFrame(version: UInt8 = 5, service: SDLServiceType = .rpc, info: UInt8, payload: [UInt8]) -> SDLFrame {
    SDLFrame(
        header: SDLFrameHeader(
            version: version, frameType: .control, serviceType: service, frameInfo: info, sessionID: 1, dataSize: 0,
            messageID: 1),
        payload: ByteBuffer(bytes: payload))
}

private let protocolVersionBSON = """
    20 00 00 00 02 70 72 6f 74 6f 63 6f 6c 56 65 72 73 69 6f 6e 00 06 00 00 00 35 2e 34 2e 30 00 00
    """

/// `{hashId: 65537 (int32), mtu: 131072 (int64), protocolVersion: "5.4.0"}`, 57 bytes, by hand.
private let startServiceACKBSON = """
    39 00 00 00
    10 68 61 73 68 49 64 00                                   01 00 01 00
    12 6d 74 75 00                                            00 00 02 00 00 00 00 00
    02 70 72 6f 74 6f 63 6f 6c 56 65 72 73 69 6f 6e 00        06 00 00 00 35 2e 34 2e 30 00
    00
    """

@Suite("ControlFrame")
struct ControlFrameTests {
    // MARK: Golden vectors

    @Test("v5 StartService behind a v1 header (docs/protocol.md §a) encodes and decodes byte for byte")
    func startServiceV1Header() throws {
        let hex = "10 07 01 00 00 00 00 20 " + protocolVersionBSON
        let message = Message.startService(.init(protocolVersion: "5.4.0"))
        let frame = message.makeFrame(version: 1, serviceType: .rpc, sessionID: 0, messageID: 0)
        #expect(wireBytes(frame) == [UInt8](hex: hex))
        #expect(try decode(hex: hex) == message)
        #expect(message.frameInfo == .startService)
    }

    @Test("v5 StartService behind a 12-byte header (§k) decodes the same")
    func startServiceV5Header() throws {
        let hex = "50 07 01 00 | 00000020 | 00000001 " + protocolVersionBSON
        let message = Message.startService(.init(protocolVersion: "5.4.0"))
        #expect(try decode(hex: hex) == message)
        #expect(wireBytes(message.makeFrame(version: 5, serviceType: .rpc, sessionID: 0, messageID: 1)) == [UInt8](hex: hex))
    }

    @Test("v5 StartServiceACK with hashId int32, mtu int64 and protocolVersion, both directions")
    func startServiceACKV5() throws {
        let hex = "50 07 02 01 | 00 00 00 39 | 00 00 00 00 " + startServiceACKBSON
        let message = Message.startServiceACK(.init(protocolVersion: "5.4.0", hashID: 65537, mtu: 131072))
        #expect(wireBytes(message.makeFrame(version: 5, serviceType: .rpc, sessionID: 1, messageID: 0)) == [UInt8](hex: hex))
        #expect(try decode(hex: hex) == message)
    }

    @Test("v4 StartServiceACK carries the hash id as 4 bytes big-endian")
    func startServiceACKV4() throws {
        let hex = "40 07 02 01 | 00 00 00 04 | 00 00 00 00 | 00 01 00 01"
        let message = Message.startServiceACK(.init(hashID: 65537))
        #expect(try decode(hex: hex) == message)
        #expect(wireBytes(message.makeFrame(version: 4, serviceType: .rpc, sessionID: 1, messageID: 0)) == [UInt8](hex: hex))
        // Without a hash id, the payload is empty.
        #expect(try decode(hex: "40 07 02 01 00000000 00000000") == .startServiceACK(.init()))
        #expect(Message.startServiceACK(.init(mtu: 5)).payload(version: 4).readableBytes == 0)
    }

    @Test("v2–v4 EndService: 4-byte hash id, empty tolerated, 1–3 bytes rejected")
    func endServiceV3() throws {
        #expect(try decode(hex: "30 07 04 01 00000004 00000002 ff ff ff fe") == .endService(.init(hashID: -2)))
        #expect(try decode(hex: "30 07 04 01 00000000 00000002") == .endService(.init()))
        let error = decodeError(controlFrame(version: 3, info: 0x04, payload: [0, 1]))
        #expect(error?.code == .invalidControlPayload)
        let frame = Message.endService(.init(hashID: 65537)).makeFrame(
            version: 2, serviceType: .rpc, sessionID: 1, messageID: 3)
        #expect(wireBytes(frame) == [UInt8](hex: "20 07 04 01 00000004 00000003 00 01 00 01"))
    }

    @Test("v5 EndServiceNAK with rejectedParams [\"hashId\"] and a reason (§k)")
    func endServiceNAK() throws {
        let bson = """
            50 00 00 00
            04 72 65 6a 65 63 74 65 64 50 61 72 61 6d 73 00
               13 00 00 00 02 30 00 07 00 00 00 68 61 73 68 49 64 00 00
            02 72 65 61 73 6f 6e 00 1c 00 00 00
               57 72 6f 6e 67 20 68 61 73 68 5f 69 64 20 66 6f 72 20 73 65 73 73 69 6f 6e 20 31 00
            00
            """
        let hex = "50 07 06 01 | 00 00 00 50 | 00 00 00 05 " + bson
        let message = Message.endServiceNAK(.init(rejectedParams: ["hashId"], reason: "Wrong hash_id for session 1"))
        #expect(try decode(hex: hex) == message)
        #expect(wireBytes(message.makeFrame(version: 5, serviceType: .rpc, sessionID: 1, messageID: 5)) == [UInt8](hex: hex))
    }

    @Test("HeartbeatACK v5 echoes message id 77 with no payload")
    func heartbeatACK() throws {
        let frame = Message.heartbeatACK.makeFrame(version: 5, serviceType: .control, sessionID: 1, messageID: 77)
        #expect(wireBytes(frame) == [UInt8](hex: "50 00 ff 01 00000000 0000004d"))
        #expect(try decode(hex: "50 00 ff 01 00000000 0000004d") == .heartbeatACK)
        #expect(try decode(hex: "50 00 00 01 00000000 0000004d") == .heartbeat)
        #expect(frame.header.messageID == 77)
        #expect(frame.header.frameType == .control)
    }

    @Test("Parameterless messages and empty parameter sets have an empty payload in every version")
    func emptyPayloads() {
        for version in UInt8(1)...5 {
            for message: Message in [
                .heartbeat, .heartbeatACK, .endServiceACK, .registerSecondaryTransport,
                .registerSecondaryTransportACK, .serviceDataACK, .startService(.init()), .endService(.init()),
                .startServiceNAK(.init()), .transportEventUpdate(.init()),
            ] {
                #expect(message.payload(version: version).readableBytes == 0)
            }
        }
    }

    @Test("TransportEventUpdate uses the keys tcpIpAddress and tcpPort")
    func transportEventUpdate() throws {
        let message = Message.transportEventUpdate(.init(tcpIPAddress: "192.168.1.2", tcpPort: 12345))
        #expect(message.parameters == ["tcpIpAddress": "192.168.1.2", "tcpPort": .int32(12345)])
        let frame = message.makeFrame(version: 5, serviceType: .control, sessionID: 1, messageID: 9)
        #expect(frame.header.frameInfo == 0xFD)
        #expect(try Message(frame: readFrame(wireBytes(frame))) == message)
    }

    @Test("StartServiceACK parameters as JSON for display")
    func parametersAsJSON() {
        let message = Message.startServiceACK(
            .init(protocolVersion: "5.4.0", hashID: 65537, mtu: 131072, secondaryTransports: [], audioServiceTransports: [1]))
        #expect(
            message.parameters.json == [
                "protocolVersion": "5.4.0", "hashId": 65537, "mtu": 131072, "secondaryTransports": [],
                "audioServiceTransports": [1],
            ])
    }

    // MARK: Reading leniency and strictness

    @Test("mtu is accepted as int32; unknown keys are ignored")
    func lenientReads() throws {
        let document: BSONDocument = ["mtu": .int32(1488), "unknown": .double(1.5), "hashId": .int32(7)]
        var payload = ByteBuffer()
        payload.writeBSONDocument(document)
        let message = try Message(frame: controlFrame(info: 0x02, payload: Array(payload.readableBytesView)))
        #expect(message == .startServiceACK(.init(hashID: 7, mtu: 1488)))
    }

    @Test(
        "Known keys with the wrong BSON type are invalidControlPayload",
        arguments: [
            ["hashId": .int64(1)] as BSONDocument,
            ["hashId": "1"],
            ["mtu": .double(1)],
            ["protocolVersion": .int32(5)],
            ["secondaryTransports": "TCP_WIFI"],
            ["secondaryTransports": [.int32(1)]],
            ["audioServiceTransports": [.int64(1)]],
            ["height": .int64(480)],
            ["make": nil],
        ])
    func wrongTypes(document: BSONDocument) {
        var payload = ByteBuffer()
        payload.writeBSONDocument(document)
        #expect(decodeError(controlFrame(info: 0x02, payload: Array(payload.readableBytesView)))?.code == .invalidControlPayload)
    }

    @Test("EndService reads hashId strictly as int32")
    func endServiceHashIDType() {
        var payload = ByteBuffer()
        payload.writeBSONDocument(["hashId": .int64(65537)])
        #expect(decodeError(controlFrame(info: 0x04, payload: Array(payload.readableBytesView)))?.code == .invalidControlPayload)
    }

    @Test("Bytes after the BSON document are invalidControlPayload; bad BSON keeps its BSON code")
    func payloadErrors() {
        let trailing = decodeError(controlFrame(info: 0x01, payload: [UInt8](hex: protocolVersionBSON) + [0]))
        #expect(trailing?.code == .invalidControlPayload)
        #expect(trailing?.offset == 32)
        let truncated = decodeError(controlFrame(info: 0x01, payload: Array([UInt8](hex: protocolVersionBSON).dropLast())))
        #expect(truncated?.code == .bsonTruncated)
        let badBool = decodeError(controlFrame(info: 0x03, payload: [UInt8](hex: "09 00 00 00 08 62 00 02 00")))
        #expect(badBool == SDLProtocolError(.bsonInvalidValue, "bool byte is 2, not 0 or 1", offset: 7))
    }

    @Test("Non-control frames are invalidFrame; reserved frame info values are unknownControlFrame")
    func wrongFrames() {
        let single = SDLFrame(
            header: SDLFrameHeader(version: 5, frameType: .single, serviceType: .rpc, sessionID: 1, dataSize: 0, messageID: 1),
            payload: ByteBuffer())
        #expect(decodeError(single)?.code == .invalidFrame)
        for info in [0x0A, 0x42, 0xFC] as [UInt8] {
            #expect(decodeError(controlFrame(info: info, payload: []))?.code == .unknownControlFrame)
        }
        for info in SDLControlFrameInfo.allCases {
            #expect((try? Message(frame: controlFrame(info: info.rawValue, payload: [])))?.frameInfo == info)
        }
    }

    // MARK: Round trips

    @Test("Random messages survive frame, bytes and decode in every version", arguments: [1, 2, 3, 4, 5] as [UInt8])
    func randomRoundTrip(version: UInt8) throws {
        var rng = SplitMix64(seed: 100 + UInt64(version))
        for _ in 0..<200 {
            let message = ControlMessageGenerator.message(using: &rng)
            let service = SDLServiceType.allCases.randomElement(using: &rng)!
            let sessionID = UInt8.random(in: 0...255, using: &rng)
            let messageID = UInt32.random(in: 0...UInt32.max, using: &rng)
            let frame = message.makeFrame(version: version, serviceType: service, sessionID: sessionID, messageID: messageID)
            #expect(frame.header.frameType == .control)
            #expect(frame.header.frameInfo == message.frameInfo.rawValue)
            #expect(frame.header.serviceType == service)
            #expect(frame.header.sessionID == sessionID)
            #expect(frame.header.messageID == (version == 1 ? 0 : messageID))
            #expect(Int(frame.header.dataSize) == frame.payload.readableBytes)
            let decoded = try Message(frame: readFrame(wireBytes(frame)))
            #expect(decoded == ControlMessageGenerator.surviving(message, version: version))
        }
    }
}

/// Random control messages with random subsets of their parameters.
enum ControlMessageGenerator {
    static func string(using rng: inout SplitMix64) -> String? {
        maybe(using: &rng) { rng in BSONGenerator.string(using: &rng) }
    }

    static func int32(using rng: inout SplitMix64) -> Int32? {
        maybe(using: &rng) { rng in Int32(truncatingIfNeeded: rng.next()) }
    }

    static func strings(using rng: inout SplitMix64) -> [String]? {
        maybe(using: &rng) { rng in (0..<Int.random(in: 0...3, using: &rng)).map { _ in BSONGenerator.string(using: &rng) } }
    }

    static func int32s(using rng: inout SplitMix64) -> [Int32]? {
        maybe(using: &rng) { rng in (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int32.random(in: 1...2, using: &rng) } }
    }

    static func maybe<T>(using rng: inout SplitMix64, _ make: (inout SplitMix64) -> T) -> T? {
        Bool.random(using: &rng) ? make(&rng) : nil
    }

    static func nak(using rng: inout SplitMix64) -> SDLControlMessage.NAK {
        .init(rejectedParams: strings(using: &rng), reason: string(using: &rng))
    }

    static func message(using rng: inout SplitMix64) -> SDLControlMessage {
        switch SDLControlFrameInfo.allCases.randomElement(using: &rng)! {
        case .heartbeat: return .heartbeat
        case .heartbeatACK: return .heartbeatACK
        case .endServiceACK: return .endServiceACK
        case .registerSecondaryTransport: return .registerSecondaryTransport
        case .registerSecondaryTransportACK: return .registerSecondaryTransportACK
        case .serviceDataACK: return .serviceDataACK
        case .startService:
            return .startService(
                .init(
                    protocolVersion: string(using: &rng), height: int32(using: &rng), width: int32(using: &rng),
                    videoProtocol: string(using: &rng), videoCodec: string(using: &rng)))
        case .startServiceACK:
            return .startServiceACK(
                .init(
                    protocolVersion: string(using: &rng), hashID: int32(using: &rng),
                    mtu: maybe(using: &rng) { rng in Int64(bitPattern: rng.next()) },
                    secondaryTransports: strings(using: &rng), audioServiceTransports: int32s(using: &rng),
                    videoServiceTransports: int32s(using: &rng), authToken: string(using: &rng),
                    make: string(using: &rng), model: string(using: &rng), modelYear: string(using: &rng),
                    trim: string(using: &rng), systemSoftwareVersion: string(using: &rng),
                    systemHardwareVersion: string(using: &rng), height: int32(using: &rng), width: int32(using: &rng),
                    videoProtocol: string(using: &rng), videoCodec: string(using: &rng)))
        case .startServiceNAK: return .startServiceNAK(nak(using: &rng))
        case .endService: return .endService(.init(hashID: int32(using: &rng)))
        case .endServiceNAK: return .endServiceNAK(nak(using: &rng))
        case .registerSecondaryTransportNAK: return .registerSecondaryTransportNAK(nak(using: &rng))
        case .transportEventUpdate:
            return .transportEventUpdate(.init(tcpIPAddress: string(using: &rng), tcpPort: int32(using: &rng)))
        }
    }

    /// What of `message` a frame of `version` carries (see ``SDLControlMessage``).
    static func surviving(_ message: SDLControlMessage, version: UInt8) -> SDLControlMessage {
        guard version < 5 else { return message }
        switch message {
        case .startServiceACK(let ack): return .startServiceACK(.init(hashID: ack.hashID))
        case .startServiceNAK: return .startServiceNAK(.init())
        case .endServiceNAK: return .endServiceNAK(.init())
        case .registerSecondaryTransportNAK: return .registerSecondaryTransportNAK(.init())
        case .transportEventUpdate: return .transportEventUpdate(.init())
        default: return message
        }
    }
}
