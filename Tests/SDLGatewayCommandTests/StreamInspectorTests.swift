import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import SDLGatewayCommand

@Suite("sdl-gateway inspect")
struct StreamInspectorTests {
    static func inspector() -> StreamInspector {
        StreamInspector(catalog: .builtIn)
    }

    /// A session as docs/protocol.md §k saw it: StartService v5 (12-byte header), its ACK,
    /// RegisterAppInterface, a PutFile split into frames, a Heartbeat.
    static func session() -> ByteBuffer {
        var stream = ByteBuffer()
        stream.writeSDLFrame(
            SDLControlMessage.startService(.init(protocolVersion: "5.4.0")).makeFrame(
                version: 5, serviceType: .rpc, sessionID: 0, messageID: 1))
        stream.writeSDLFrame(
            SDLControlMessage.startServiceACK(.init(protocolVersion: "5.4.0", hashID: 65537, mtu: 131_072))
                .makeFrame(version: 5, serviceType: .rpc, sessionID: 1, messageID: 0)
        )
        var rai = ByteBuffer()
        rai.writeSDLRPCMessage(SDLRPCMessage(rpcType: .request, functionID: 1, correlationID: 1, parameters: ["appName": "Demo"]))
        stream.writeSDLFrame(
            SDLFrame(
                header: .init(version: 5, frameType: .single, serviceType: .rpc, sessionID: 1, dataSize: 0, messageID: 1), payload: rai))
        var put = ByteBuffer()
        put.writeSDLRPCMessage(
            SDLRPCMessage(
                rpcType: .request, functionID: 32, correlationID: 2, parameters: ["syncFileName": "a"],
                bulkData: ByteBuffer(repeating: 7, count: 95)))
        let message = SDLMessage(version: 5, serviceType: .bulkData, sessionID: 1, messageID: 2, payload: put)
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: 64) { stream.writeSDLFrame(frame) }
        stream.writeSDLFrame(SDLControlMessage.heartbeat.makeFrame(version: 5, serviceType: .control, sessionID: 1, messageID: 77))
        return stream
    }

    static func run(_ chunks: [ByteBuffer]) throws -> [SDLJSON] {
        var inspector = inspector()
        var lines: [SDLJSON] = []
        for chunk in chunks { try inspector.feed(chunk, emit: { lines.append($0) }) }
        try inspector.finish()
        return lines
    }

    @Test("A whole session: control frames with BSON, RPCs with names, a reassembled PutFile")
    func session() throws {
        let lines = try Self.run([Self.session()])
        #expect(lines.count == 8)
        #expect(
            lines[0] == [
                "version": 5, "encrypted": false, "frameType": "control", "serviceType": 7, "frameInfo": 1, "controlFrame": "StartService",
                "sessionID": 0, "dataSize": 32, "messageID": 1, "bson": ["protocolVersion": "5.4.0"],
            ])
        #expect(lines[1]["controlFrame"] == "StartServiceACK")
        #expect(lines[1]["bson"] == ["hashId": 65537, "mtu": 131_072, "protocolVersion": "5.4.0"])
        #expect(lines[2]["function"] == "RegisterAppInterface")
        #expect(lines[2]["rpcType"] == "request")
        #expect(lines[2]["correlationID"] == 1)
        #expect(lines[2]["json"] == ["appName": "Demo"])
        #expect(lines[2]["bulkDataSize"] == 0)
        // First frame + 2 consecutive (12 + 20 + 95 = 127 bytes at 64), then the message line.
        #expect(lines[3]["frameType"] == "first")
        #expect(lines[4]["frameInfo"] == 1)
        #expect(lines[5]["frameInfo"] == 0)
        #expect(lines[6]["frameType"] == nil)
        #expect(lines[6]["function"] == "PutFile")
        #expect(lines[6]["dataSize"] == 127)
        #expect(lines[6]["bulkDataSize"] == 95)
        #expect(lines[6]["serviceType"] == 15)
        #expect(lines[7]["controlFrame"] == "Heartbeat")
    }

    @Test("Byte-by-byte feeding prints the same lines")
    func chunking() throws {
        let stream = Self.session()
        let whole = try Self.run([stream])
        let bytes = (0..<stream.readableBytes).map { stream.getSlice(at: $0, length: 1)! }
        #expect(try Self.run(bytes) == whole)
    }

    @Test("Malformed input names its byte offset after printing the frames before it")
    func malformedOffset() throws {
        var stream = Self.session()
        let good = stream.readableBytes
        stream.writeBytes([0x51, 0x09, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1])
        var inspector = Self.inspector()
        var lines: [SDLJSON] = []
        #expect {
            try inspector.feed(stream, emit: { lines.append($0) })
        } throws: { error in
            let error = error as! StreamInspector.InspectionError
            return error.offset == good + 1 && error.error.code == .unknownServiceType
        }
        #expect(lines.count == 8)
    }

    @Test("Bad JSON inside an RPC points into the payload")
    func badJSON() throws {
        var stream = ByteBuffer()
        stream.writeBytes([0x51, 0x07, 0, 1, 0, 0, 0, 14, 0, 0, 0, 1])
        stream.writeBytes([0, 0, 0, 13, 0, 0, 0, 1, 0, 0, 0, 2, 0x7B, 0x7B])
        #expect {
            _ = try Self.run([stream])
        } throws: { error in
            let error = error as! StreamInspector.InspectionError
            return error.offset == 12 + 13 && error.error.code == .invalidJSON
        }
    }

    @Test("A stream that ends inside a frame or a multi-frame message is malformed")
    func truncated() throws {
        let stream = Self.session()
        #expect(throws: StreamInspector.InspectionError.self) {
            _ = try Self.run([stream.getSlice(at: 0, length: stream.readableBytes - 1)!])
        }
        // Cut after the PutFile's first consecutive frame.
        let lines = try Self.run([Self.session()])
        let cut = lines[0...4].reduce(0) { total, line in total + (line["version"] == 1 ? 8 : 12) + Int(line["dataSize"]!.intValue!) }
        #expect {
            _ = try Self.run([stream.getSlice(at: 0, length: cut)!])
        } throws: { error in
            (error as! StreamInspector.InspectionError).error.code == .reassemblySizeMismatch
        }
    }

    @Test("v1 RPCs are named by the JSON wrapper and numbered from the catalog")
    func v1() throws {
        var stream = ByteBuffer()
        var payload = ByteBuffer()
        payload.writeSDLRPCMessageV1(SDLRPCMessageV1(rpcType: .request, name: "Show", correlationID: 3, parameters: ["mainField1": "hi"]))
        stream.writeSDLFrame(
            SDLFrame(header: .init(version: 1, frameType: .single, serviceType: .rpc, sessionID: 1, dataSize: 0), payload: payload))
        let lines = try Self.run([stream])
        #expect(lines[0]["functionID"] == 13)
        #expect(lines[0]["function"] == "Show")
        #expect(lines[0]["messageID"] == nil)
    }

    @Test("Hex input ignores separators and 0x prefixes")
    func hex() throws {
        #expect(try InspectCommand.parseHex("10 07:01|00\n0x00,0X00") == ByteBuffer(bytes: [0x10, 0x07, 0x01, 0x00, 0x00, 0x00]))
        #expect(throws: InspectCommand.HexError.self) { _ = try InspectCommand.parseHex("1") }
        #expect(throws: InspectCommand.HexError.self) { _ = try InspectCommand.parseHex("zz") }
    }
}
