import NIOCore
import SDLProtocol
import Testing

@Suite("RPC messages")
struct RPCMessageTests {
    @Test("The RegisterAppInterface binary header of docs/protocol.md §c")
    func registerAppInterfaceGolden() throws {
        // 231 bytes of JSON after `00 00 00 01 | 00 00 00 01 | 00 00 00 e7`.
        let name = String(repeating: "x", count: 231 - #"{"appName":""}"#.utf8.count)
        let message = SDLRPCMessage(rpcType: .request, functionID: 1, correlationID: 1, parameters: ["appName": .string(name)])
        var payload = ByteBuffer()
        #expect(payload.writeSDLRPCMessage(message) == 243)
        #expect(payload.getSlice(at: 0, length: 12) == ByteBuffer(hex: "00 00 00 01 00 00 00 01 00 00 00 e7"))
        let frames = Array(
            SDLMessageFragmenter(
                message: SDLMessage(version: 5, serviceType: .rpc, sessionID: 1, messageID: 1, payload: payload),
                maximumPayloadSize: 131_072))
        var wire = ByteBuffer()
        wire.writeSDLFrame(frames[0])
        #expect(wire.getSlice(at: 0, length: 12) == ByteBuffer(hex: "51 07 00 01 00 00 00 f3 00 00 00 01"))
        #expect(try payload.readSDLRPCMessage() == message)
    }

    @Test("A PutFile with bulk data on the hybrid service (golden)")
    func putFileGolden() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let message = SDLRPCMessage(
            rpcType: .request,
            functionID: 32,
            correlationID: 5,
            parameters: ["syncFileName": "icon.png", "fileType": "GRAPHIC_PNG", "persistentFile": false],
            bulkData: ByteBuffer(bytes: png)
        )
        let golden = ByteBuffer(
            hex: """
                51 0f 00 01 00 00 00 5f 00 00 00 02
                00 00 00 20 00 00 00 05 00 00 00 4b
                7b 22 66 69 6c 65 54 79 70 65 22 3a 22 47 52 41 50 48 49 43 5f 50 4e 47 22 2c 22 70 65 72 73 69 73
                74 65 6e 74 46 69 6c 65 22 3a 66 61 6c 73 65 2c 22 73 79 6e 63 46 69 6c 65 4e 61 6d 65 22 3a 22 69
                63 6f 6e 2e 70 6e 67 22 7d
                89 50 4e 47 0d 0a 1a 0a
                """)
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(message)
        var wire = ByteBuffer()
        wire.writeSDLFrame(
            SDLFrame(
                header: SDLFrameHeader(version: 5, frameType: .single, serviceType: .bulkData, sessionID: 1, dataSize: 0, messageID: 2),
                payload: payload))
        #expect(wire == golden)

        var input = golden
        var decoder = SDLFrameDecoder()
        var frame = try #require(try decoder.decode(buffer: &input))
        let decoded = try frame.payload.readSDLRPCMessage()
        #expect(decoded == message)
        #expect(decoded.bulkData?.readableBytes == 8)
    }

    @Test("Core's pretty-printed response JSON and a notification's correlation id")
    func prettyResponse() throws {
        let json = Array("{\n\t\"resultCode\" : \"SUCCESS\",\n\t\"success\" : true\n}\n".utf8)
        var payload = ByteBuffer()
        payload.writeInteger(UInt32(0x1000_0001), endianness: .big)
        payload.writeInteger(UInt32(0xFFFF_FFFF), endianness: .big)
        payload.writeInteger(UInt32(json.count), endianness: .big)
        payload.writeBytes(json)
        let message = try payload.readSDLRPCMessage()
        #expect(message.rpcType == .response)
        #expect(message.functionID == 1)
        #expect(message.correlationID == SDLRPCMessage.notificationCorrelationID)
        #expect(message.parameters == ["success": true, "resultCode": "SUCCESS"])
        #expect(message.bulkData == nil)
    }

    @Test(
        "Malformed RPC payloads are errors with stable codes and offsets",
        arguments: [
            ("00 00 00 01 00 00 00 01 00 00", SDLProtocolError.Code.rpcHeaderTruncated, 0),
            ("30 00 00 01 00 00 00 01 00 00 00 00", .unknownRPCType, 0),
            ("00 00 00 01 00 00 00 01 00 00 00 05 7b 7d", .rpcJSONSizeMismatch, 8),
            ("00 00 00 01 00 00 00 01 00 00 00 02 5b 5d", .invalidRPCMessage, 12),
            ("00 00 00 01 00 00 00 01 00 00 00 02 7b 7b", .invalidJSON, 13),
        ]
    )
    func rejects(hex: String, code: SDLProtocolError.Code, offset: Int) {
        var buffer = ByteBuffer(hex: hex)
        #expect {
            _ = try buffer.readSDLRPCMessage()
        } throws: { error in
            let error = error as! SDLProtocolError
            return error.code == code && error.offset == offset
        }
    }

    @Test("Generated RPC messages round-trip")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<500 {
            var parameters: [String: SDLJSON] = [:]
            for index in 0..<Int.random(in: 0..<5, using: &rng) {
                parameters["p\(index)"] = JSONTests.generate(depth: 1, using: &rng)
            }
            let bulk = Bool.random(using: &rng) ? ByteBuffer(bytes: (0..<Int.random(in: 1..<64, using: &rng)).map { UInt8($0) }) : nil
            let message = SDLRPCMessage(
                rpcType: SDLRPCType.allCases.randomElement(using: &rng)!,
                functionID: UInt32.random(in: 0...SDLRPCMessage.maximumFunctionID, using: &rng),
                correlationID: UInt32.random(in: 0...UInt32.max, using: &rng),
                parameters: .object(parameters),
                bulkData: bulk
            )
            var buffer = ByteBuffer()
            buffer.writeSDLRPCMessage(message)
            #expect(try buffer.readSDLRPCMessage() == message)
            #expect(buffer.readableBytes == 0)
        }
    }

    @Test("The v1 JSON wrapper, with Core's trailing NUL")
    func v1() throws {
        var buffer = ByteBuffer(
            string: #"{"response":{"name":"RegisterAppInterface","correlationID":65529,"parameters":{"success":true}}}"#)
        buffer.writeInteger(UInt8(0))
        let message = try buffer.readSDLRPCMessageV1()
        #expect(
            message
                == SDLRPCMessageV1(rpcType: .response, name: "RegisterAppInterface", correlationID: 65529, parameters: ["success": true]))
        var out = ByteBuffer()
        out.writeSDLRPCMessageV1(message)
        #expect(try out.readSDLRPCMessageV1() == message)

        var notification = ByteBuffer(string: #"{"notification":{"name":"OnHMIStatus","parameters":{"hmiLevel":"FULL"}}}"#)
        #expect(try notification.readSDLRPCMessageV1().correlationID == nil)

        for bad in [
            #"{"request":{"correlationID":1}}"#, #"{"request":{"name":"Show"}}"#, #"{"ask":{"name":"Show","correlationID":1}}"#, #"[1]"#,
            #"{"request":{"name":"Show","correlationID":-1}}"#,
        ] {
            var input = ByteBuffer(string: bad)
            #expect(throws: SDLProtocolError.self) { _ = try input.readSDLRPCMessageV1() }
        }
    }
}
