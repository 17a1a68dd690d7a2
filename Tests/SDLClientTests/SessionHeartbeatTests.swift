import HeadUnitSimulator
import NIOCore
@testable import SDLClient  // the session's stream data frames
import SDLProtocol
import Testing

@Suite("Session heartbeats and idle timer")
struct SessionHeartbeatTests {
    let now = NIODeadline.uptimeNanoseconds(5_000_000_000)

    @Test("Core's Heartbeat is answered with a HeartbeatACK echoing its message id", arguments: [UInt8(3), 4, 5])
    func answersHeartbeat(version: UInt8) throws {
        let ack = version == 5 ? SessionFrames.v5ACK() : SessionFrames.legacyACK(version: version)
        var (machine, _) = SDLSessionStateMachine.started(with: ack, configuration: .init(protocolVersion: "\(version).0.0"), now: now)
        let beat = SessionFrames.control(.heartbeat, version: version, service: .control, messageID: 77)
        let actions = machine.receive(beat, now: now + .seconds(1))
        let frames = try #require(actions.first?.writtenFrames)
        #expect(actions.count == 1 && frames.count == 1)
        let header = frames[0].header
        #expect(header.frameType == .control)
        #expect(header.frameInfo == SDLControlFrameInfo.heartbeatACK.rawValue)
        #expect(header.serviceType == .control)
        #expect(header.sessionID == 1)
        #expect(header.messageID == 77)
        #expect(header.version == version)
        #expect(frames[0].payload.readableBytes == 0)
    }

    @Test("A v2 session does not answer Heartbeats, as Core does not")
    func v2IgnoresHeartbeat() {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.legacyACK(version: 2), now: now)
        let actions = machine.receive(SessionFrames.control(.heartbeat, version: 2, service: .control, messageID: 3), now: now)
        #expect(actions.isEmpty)
        #expect(machine.isEstablished)
    }

    @Test("A v3 session sends a Heartbeat after each heartbeat interval without sending")
    func v3SendsHeartbeats() throws {
        let configuration = SDLSessionStateMachine.Configuration(heartbeatInterval: .seconds(5))
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.legacyACK(version: 3), configuration: configuration, now: now)
        #expect(machine.parameters?.majorVersion == 3)
        #expect(machine.nextDeadline == now + .seconds(5))
        let early = machine.timerFired(now: now + .seconds(4))
        #expect(early.isEmpty)

        let due = machine.timerFired(now: now + .seconds(5))
        let frames = try #require(due.first?.writtenFrames)
        #expect(due.count == 1 && frames.count == 1)
        let header = frames[0].header
        #expect(header.frameType == .control)
        #expect(header.frameInfo == SDLControlFrameInfo.heartbeat.rawValue)
        #expect(header.serviceType == .control)
        #expect(header.version == 3)
        #expect(header.sessionID == 1)
        #expect(header.messageID == 1)
        #expect(machine.nextDeadline == now + .seconds(10))

        // Sending an RPC postpones the next Heartbeat.
        let rpc = SDLRPCMessage(rpcType: .request, functionID: 1, correlationID: 1)
        _ = try machine.send(rpc, now: now + .seconds(7))
        let answer = machine.receive(SessionFrames.control(.heartbeatACK, version: 3, service: .control), now: now + .seconds(7))
        #expect(answer.isEmpty)
        #expect(machine.nextDeadline == now + .seconds(12))
        let postponed = machine.timerFired(now: now + .seconds(10))
        #expect(postponed.isEmpty)
        let next = machine.timerFired(now: now + .seconds(12))
        #expect(next.first?.writtenFrames?.first?.header.messageID == 3)
    }

    @Test("Stream data does not postpone the Heartbeat: nothing answers it, so a session that only streams still hears from the head unit")
    func streamingKeepsHeartbeats() throws {
        let configuration = SDLSessionStateMachine.Configuration(heartbeatInterval: .seconds(5), heartbeatVersions: 3...5)
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), configuration: configuration, now: now)
        for second in 1...20 {
            let at = now + .seconds(Int64(second))
            let frames = try machine.streamingDataFrames(ByteBuffer(repeating: 7, count: 1000), on: .video, mtu: 512, now: at)
            #expect(frames.count == 2)
            let actions = machine.timerFired(now: at)
            if second % 5 == 0 {
                let header = try #require(actions.first?.writtenFrames?.first?.header, "no Heartbeat at +\(second) s")
                #expect(header.frameInfo == SDLControlFrameInfo.heartbeat.rawValue)
                _ = machine.receive(SessionFrames.control(.heartbeatACK, version: 5, service: .control), now: at)
            } else {
                #expect(actions.isEmpty, "at +\(second) s")
            }
        }
        #expect(machine.isEstablished, "a session that streamed for four intervals was lost")
    }

    @Test("Nothing received for three heartbeat intervals on v3 closes with linkLost")
    func v3IdleTimeout() throws {
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.legacyACK(version: 3), now: now)
        _ = machine.timerFired(now: now + .seconds(5))
        _ = machine.receive(SessionFrames.control(.heartbeatACK, version: 3, service: .control), now: now + .seconds(5))
        _ = machine.timerFired(now: now + .seconds(10))
        _ = machine.timerFired(now: now + .seconds(15))
        #expect(machine.isEstablished)
        // The last thing received was at +5 s: the idle timer fires at +20 s.
        let actions = machine.timerFired(now: now + .seconds(20))
        let error = try #require(actions.first?.closeError ?? nil)
        #expect(error.code == .linkLost)
        #expect(machine.isClosed)
        #expect(machine.nextDeadline == nil)
    }

    @Test("An explicit idle timeout applies to v5, where Core sends nothing")
    func v5ExplicitIdleTimeout() throws {
        let configuration = SDLSessionStateMachine.Configuration(idleTimeout: .after(.seconds(15)))
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), configuration: configuration, now: now)
        #expect(machine.nextDeadline == now + .seconds(15))
        let rpc = SDLRPCMessage(rpcType: .notification, functionID: 32768, correlationID: SDLRPCMessage.notificationCorrelationID)
        _ = machine.receive(SessionFrames.rpcFrame(rpc), now: now + .seconds(10))
        #expect(machine.nextDeadline == now + .seconds(25))
        let actions = machine.timerFired(now: now + .seconds(25))
        #expect((actions.first?.closeError ?? nil)?.code == .linkLost)
    }

    @Test("With Heartbeats on v3–v5 (the gateway's default), a v5 session heartbeats and a silent head unit is lost after three intervals")
    func v5Heartbeats() throws {
        let configuration = SDLSessionStateMachine.Configuration(heartbeatInterval: .seconds(1), heartbeatVersions: 3...5)
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), configuration: configuration, now: now)
        let beat = machine.timerFired(now: now + .seconds(1))
        let header = try #require(beat.first?.writtenFrames?.first?.header)
        #expect(header.frameInfo == SDLControlFrameInfo.heartbeat.rawValue && header.version == 5)
        _ = machine.receive(SessionFrames.control(.heartbeatACK, version: 5, service: .control), now: now + .seconds(1))
        _ = machine.timerFired(now: now + .seconds(2))
        _ = machine.timerFired(now: now + .seconds(3))
        #expect(machine.isEstablished)
        // The ACK at +1 s was the last thing received: lost at +4 s.
        let actions = machine.timerFired(now: now + .seconds(4))
        #expect((actions.first?.closeError ?? nil)?.code == .linkLost)
    }

    @Test(
        "While the driver has paused reading (its reader fell behind), silence is not a lost link; the idle timer starts afresh on resuming"
    )
    func pausedReading() throws {
        let configuration = SDLSessionStateMachine.Configuration(heartbeatInterval: .seconds(1), heartbeatVersions: 3...5)
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(), configuration: configuration, now: now)
        machine.readingPaused(true, now: now + .milliseconds(500))
        for second in 1...10 {
            let actions = machine.timerFired(now: now + .seconds(Int64(second)))
            #expect(!actions.contains { $0.closeError != nil }, "lost while paused at +\(second) s")
        }
        #expect(machine.isEstablished)
        machine.readingPaused(false, now: now + .seconds(10))
        _ = machine.timerFired(now: now + .seconds(12))
        #expect(machine.isEstablished, "three intervals from the resumption have not passed")
        let actions = machine.timerFired(now: now + .seconds(13))
        #expect((actions.first { $0.closeError != nil }?.closeError ?? nil)?.code == .linkLost)
    }

    @Test("Idle timeout can be disabled on v3 while Heartbeats are still sent")
    func disabledIdleTimeout() {
        let configuration = SDLSessionStateMachine.Configuration(idleTimeout: .disabled)
        var (machine, _) = SDLSessionStateMachine.started(with: SessionFrames.legacyACK(version: 3), configuration: configuration, now: now)
        for second in stride(from: 5, through: 60, by: 5) {
            _ = machine.timerFired(now: now + .seconds(Int64(second)))
        }
        #expect(machine.isEstablished)
    }

    @Test("Heartbeats enabled on v5 keep a session with the simulated head unit alive")
    func heartbeatsWithSimulator() {
        var harness = SessionHarness(.init(heartbeatVersions: 3...5))
        harness.start()
        harness.advance(by: .seconds(60))
        let beats = harness.sent.filter { $0.header.frameType == .control && $0.header.frameInfo == SDLControlFrameInfo.heartbeat.rawValue }
        let acks = harness.received.filter { $0.header.frameInfo == SDLControlFrameInfo.heartbeatACK.rawValue }
        #expect(beats.count == 12)
        #expect(acks.count == 12)
        #expect(harness.closes.isEmpty)
        #expect(harness.machine.isEstablished)
    }
}
