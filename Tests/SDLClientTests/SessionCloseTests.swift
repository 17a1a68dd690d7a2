import HeadUnitSimulator
import NIOCore
import SDLClient
import SDLProtocol
import Testing

@Suite("Session close")
struct SessionCloseTests {
    let now = NIODeadline.uptimeNanoseconds(5_000_000_000)

    @Test("EndService on v5 echoes hashId as a BSON int32, byte for byte")
    func v5EndServiceBytes() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(hashID: 65537), now: now)
        let actions = machine.close(now: now)
        let frames = try #require(actions.first?.writtenFrames)
        #expect(actions.count == 1 && frames.count == 1)
        var bytes = ByteBuffer()
        bytes.writeSDLFrame(frames[0])
        let expected: [UInt8] = [
            0x50, 0x07, 0x04, 0x01, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x01,
            // {hashId: int32 65537}
            0x11, 0x00, 0x00, 0x00, 0x10, 0x68, 0x61, 0x73, 0x68, 0x49, 0x64, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
        ]
        #expect(Array(bytes.readableBytesView) == expected)
    }

    @Test("EndService on v4 echoes the hash id as a 4-byte big-endian payload")
    func v4EndServiceBytes() throws {
        var (machine, _) = SDLSessionStateMachine.started(
            with: SessionFrames.legacyACK(version: 4, hashID: 0x0002_0003, session: 2), now: now)
        let actions = machine.close(now: now)
        let frame = try #require(actions.first?.writtenFrames?.first)
        var bytes = ByteBuffer()
        bytes.writeSDLFrame(frame)
        #expect(Array(bytes.readableBytesView) == [0x40, 0x07, 0x04, 0x02, 0, 0, 0, 4, 0, 0, 0, 1, 0x00, 0x02, 0x00, 0x03])
    }

    @Test("The simulated head unit acknowledges our EndService and the session closes cleanly")
    func closeWithSimulator() throws {
        var harness = SessionHarness()
        harness.start()
        harness.close()
        let end = try #require(harness.sent.last)
        #expect(end.header.frameInfo == SDLControlFrameInfo.endService.rawValue)
        #expect(try SDLControlMessage(frame: end) == .endService(.init(hashID: 65537)))
        #expect(harness.received.last?.header.frameInfo == SDLControlFrameInfo.endServiceACK.rawValue)
        #expect(harness.closes.count == 1)
        #expect(harness.closes.first == .some(nil))
        #expect(harness.machine.isClosed)
        #expect(harness.machine.closeError == nil)
        #expect(harness.machine.nextDeadline == nil)
    }

    @Test("Without EndServiceACK the session closes after the EndService timeout")
    func endServiceTimeout() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        _ = machine.close(now: now)
        #expect(machine.nextDeadline == now + .milliseconds(11_000))
        let early = machine.timerFired(now: now + .seconds(10))
        #expect(early.isEmpty)
        let actions = machine.timerFired(now: now + .milliseconds(11_000))
        #expect((actions.first?.closeError ?? nil)?.code == .closed)
        #expect(machine.isClosed)
    }

    @Test("EndServiceNAK (a wrong hash id) still closes the connection, with Core's reason")
    func endServiceNAK() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        _ = machine.close(now: now)
        let nak = SessionFrames.control(
            .endServiceNAK(.init(rejectedParams: ["hashId"], reason: "Wrong hash_id for session 1")), version: 5)
        let actions = machine.receive(nak, now: now)
        let error = try #require(actions.first?.closeError ?? nil)
        #expect(error.code == .closed)
        #expect(error.detail.contains("Wrong hash_id"))
    }

    @Test("EndService from Core is acknowledged and closes with linkLost")
    func endServiceFromCore() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        let end = SessionFrames.control(.endService(.init(hashID: 65537)), version: 5, messageID: 9)
        let actions = machine.receive(end, now: now)
        #expect(actions.count == 2)
        let ack = try #require(actions.first?.writtenFrames?.first)
        #expect(ack.header.frameInfo == SDLControlFrameInfo.endServiceACK.rawValue)
        #expect(ack.header.serviceType == .rpc)
        #expect(ack.header.sessionID == 1)
        #expect((actions.last?.closeError ?? nil)?.code == .linkLost)
        #expect(machine.closeError?.code == .linkLost)
    }

    @Test("RPCs still arriving while closing are delivered; sending is refused")
    func closingState() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), now: now)
        _ = machine.close(now: now)
        let rpc = SDLRPCMessage(rpcType: .response, functionID: 12, correlationID: 4, parameters: ["success": true])
        let actions = machine.receive(SessionFrames.rpcFrame(rpc), now: now)
        #expect(actions == [.deliver(rpc)])
        do {
            _ = try machine.send(rpc, now: now)
            Issue.record("send while closing succeeded")
        } catch {
            #expect(error.code == .closed)
        }
    }

    @Test("Closing before the ACK closes the connection without EndService")
    func closeWhileStarting() {
        var machine = SDLSessionStateMachine()
        _ = machine.start(now: now)
        let actions = machine.close(now: now)
        #expect(actions == [.closeConnection(nil)])
        #expect(machine.isClosed)
    }
}
