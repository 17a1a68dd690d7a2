import HeadUnitSimulator
import NIOCore
import SDLProtocol
import Testing

@testable import SDLClient

@Suite("Session sending and receiving RPCs")
struct SessionSendTests {
    let now = NIODeadline.uptimeNanoseconds(5_000_000_000)

    @Test("Message ids start at 1 and count up per message on service 0x07 in the negotiated version")
    func messageIDs() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        var ids: [UInt32] = []
        for correlationID in UInt32(1)...3 {
            let frames = try machine.send(SDLRPCMessage(rpcType: .request, functionID: 12, correlationID: correlationID), now: now)
            #expect(frames.count == 1)
            let header = try #require(frames.first?.header)
            #expect(header.frameType == .single)
            #expect(header.serviceType == .rpc)
            #expect(header.version == 5)
            #expect(header.sessionID == 1)
            ids.append(header.messageID)
        }
        #expect(ids == [1, 2, 3])
    }

    @Test("The message id wraps from UInt32.max to 1, never 0")
    func messageIDWrap() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        machine.setNextMessageIDForTesting(.max - 1)
        var ids: [UInt32] = []
        for _ in 0..<4 {
            let frames = try machine.send(SDLRPCMessage(rpcType: .request, functionID: 12, correlationID: 1), now: now)
            ids.append(frames[0].header.messageID)
        }
        #expect(ids == [.max - 1, .max, 1, 2])
    }

    @Test("A 300 KB RPC with bulk data becomes a First Frame and Consecutive Frames of at most the MTU on 0x0F")
    func fragmentation() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        let file = ByteBuffer(repeating: 0xAB, count: 300 * 1024)
        let rpc = SDLRPCMessage(
            rpcType: .request, functionID: 32, correlationID: 7,
            parameters: ["syncFileName": "big.bin", "fileType": "BINARY"], bulkData: file)
        let frames = try machine.send(rpc, now: now)
        var payload = ByteBuffer()
        let total = payload.writeSDLRPCMessage(rpc)
        #expect(frames.count == 1 + 3)
        let first = try #require(frames.first)
        #expect(first.header.frameType == .first)
        var firstPayload = first.payload
        let totalSize = firstPayload.readInteger(endianness: .big, as: UInt32.self)
        let consecutiveCount = firstPayload.readInteger(endianness: .big, as: UInt32.self)
        #expect(totalSize == UInt32(total))
        #expect(consecutiveCount == 3)
        #expect(frames.dropFirst().map(\.header.frameType) == [.consecutive, .consecutive, .consecutive])
        #expect(frames.dropFirst().map(\.header.frameInfo) == [1, 2, 0])
        #expect(frames.allSatisfy { $0.header.serviceType == .bulkData && $0.header.messageID == 1 && $0.header.sessionID == 1 })
        #expect(frames.allSatisfy { $0.payload.readableBytes <= 131_072 })

        // The frames put back together are the RPC.
        var assembler = SDLMessageAssembler()
        var message: SDLMessage?
        for frame in frames {
            message = try assembler.process(frame, now: now)
        }
        var reassembled = try #require(message).payload
        let decoded = try reassembled.readSDLRPCMessage()
        #expect(decoded == rpc)
    }

    @Test("A negotiated MTU of 1000 bytes cuts a 5000-byte RPC into 1000-byte frames on 0x07")
    func smallMTU() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(mtu: 1000), now: now)
        let text = String(repeating: "x", count: 5000 - 12 - 17)
        let rpc = SDLRPCMessage(rpcType: .request, functionID: 13, correlationID: 2, parameters: ["mainField1": .string(text)])
        let frames = try machine.send(rpc, now: now)
        #expect(frames.count == 1 + 5)
        #expect(frames.dropFirst().allSatisfy { $0.payload.readableBytes == 1000 && $0.header.serviceType == .rpc })
    }

    @Test("A v2 session fragments at 1488 bytes and writes v2 headers")
    func v2Fragmentation() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.legacyACK(version: 2), now: now)
        let rpc = SDLRPCMessage(rpcType: .request, functionID: 32, correlationID: 1, bulkData: ByteBuffer(repeating: 1, count: 3000))
        let frames = try machine.send(rpc, now: now)
        #expect(frames.count == 1 + 3)
        #expect(frames.allSatisfy { $0.header.version == 2 && $0.payload.readableBytes <= 1488 })
    }

    @Test("RegisterAppInterface through the simulated head unit comes back as a delivered response")
    func registerWithSimulator() throws {
        var harness = SessionHarness()
        harness.start()
        let parameters: SDLJSON = [
            "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0],
            "appName": "Session test",
            "isMediaApplication": false,
            "languageDesired": "EN-US",
            "hmiDisplayLanguageDesired": "EN-US",
            "appID": "session-1",
        ]
        try harness.send(SDLRPCMessage(rpcType: .request, functionID: 1, correlationID: 1, parameters: parameters))
        let response = try #require(harness.delivered.first { $0.rpcType == .response })
        #expect(response.functionID == 1)
        #expect(response.correlationID == 1)
        #expect(response.parameters["resultCode"]?.stringValue == "SUCCESS")
        #expect(harness.delivered.contains { $0.rpcType == .notification })
        #expect(harness.closes.isEmpty)
    }

    @Test("A message from Core in First and Consecutive frames is reassembled and delivered once")
    func reassembly() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        let rpc = SDLRPCMessage(
            rpcType: .notification, functionID: 32_789, correlationID: SDLRPCMessage.notificationCorrelationID,
            bulkData: ByteBuffer(repeating: 7, count: 10_000))
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(rpc)
        let message = SDLMessage(version: 5, serviceType: .bulkData, sessionID: 1, messageID: 40, payload: payload)
        var actions: [SDLSessionStateMachine.Action] = []
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: 4096) {
            actions += machine.receive(frame, now: now)
        }
        #expect(actions == [.deliver(rpc)])
    }

    @Test("A 4 MB message in 1025 frames is reassembled in place and delivered")
    func largeReassembly() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        let rpc = SDLRPCMessage(
            rpcType: .response, functionID: 32, correlationID: 3,
            parameters: ["success": true], bulkData: ByteBuffer(repeating: 9, count: 4 * 1024 * 1024))
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(rpc)
        let message = SDLMessage(version: 5, serviceType: .bulkData, sessionID: 1, messageID: 41, payload: payload)
        var delivered: [SDLRPCMessage] = []
        var frameCount = 0
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: 4096) {
            frameCount += 1
            for action in machine.receive(frame, now: now) {
                if case .deliver(let rpc) = action { delivered.append(rpc) }
            }
        }
        #expect(frameCount == 1 + 1025)
        #expect(delivered == [rpc])
        #expect(machine.isEstablished)
    }
}
