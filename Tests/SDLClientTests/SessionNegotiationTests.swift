import HeadUnitSimulator
import NIOCore
import SDLClient
import SDLProtocol
import Testing

@Suite("Session negotiation")
struct SessionNegotiationTests {
    let now = NIODeadline.uptimeNanoseconds(5_000_000_000)

    @Test("StartService is a v5 header on session 0 with message id 1 and protocolVersion 5.4.0, byte for byte")
    func startServiceBytes() throws {
        var machine = SDLSessionStateMachine()
        let actions = machine.start(now: now)
        let frames = try #require(actions.first?.writtenFrames)
        #expect(actions.count == 1 && frames.count == 1)
        var bytes = ByteBuffer()
        bytes.writeSDLFrame(frames[0])
        // docs/protocol.md §k: 50 07 01 00 | 00000020 | 00000001 + BSON {"protocolVersion":"5.4.0"}
        let expected: [UInt8] = [
            0x50, 0x07, 0x01, 0x00, 0x00, 0x00, 0x00, 0x20, 0x00, 0x00, 0x00, 0x01,
            0x20, 0x00, 0x00, 0x00, 0x02, 0x70, 0x72, 0x6f, 0x74, 0x6f, 0x63, 0x6f, 0x6c, 0x56, 0x65, 0x72,
            0x73, 0x69, 0x6f, 0x6e, 0x00, 0x06, 0x00, 0x00, 0x00, 0x35, 0x2e, 0x34, 0x2e, 0x30, 0x00, 0x00,
        ]
        #expect(Array(bytes.readableBytesView) == expected)
        #expect(machine.nextDeadline == now + .seconds(20))
    }

    @Test("The simulated head unit's v5 ACK gives session 1, hashId 65537, mtu 131072 and 5.4.0")
    func negotiatesWithSimulator() throws {
        var harness = SessionHarness()
        harness.start()
        let parameters = try #require(harness.established.first)
        #expect(harness.established.count == 1)
        #expect(parameters.sessionID == 1)
        #expect(parameters.hashID == 65537)
        #expect(parameters.mtu == 131_072)
        #expect(parameters.protocolVersion == "5.4.0")
        #expect(parameters.majorVersion == 5)
        #expect(parameters.acknowledgement.make != nil)
        #expect(harness.machine.isEstablished)
        #expect(harness.machine.parameters == parameters)
        #expect(harness.closes.isEmpty)
        // v5 sends no heartbeats and has no idle timer by default: nothing to schedule.
        #expect(harness.machine.nextDeadline == nil)
    }

    @Test("Offering 5.2.0 negotiates the lower version, 5.2.0")
    func lowerOfOursAndTheirs() throws {
        var harness = SessionHarness(.init(protocolVersion: "5.2.0"))
        harness.start()
        #expect(harness.established.first?.protocolVersion == "5.2.0")
        #expect(harness.established.first?.majorVersion == 5)
    }

    @Test("A head unit offering a newer 5.x than ours negotiates ours")
    func newerHeadUnitVersion() throws {
        let (machine, actions) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(protocolVersion: "5.9.1"), now: now)
        #expect(actions == [.established(try #require(machine.parameters))])
        #expect(machine.parameters?.protocolVersion == "5.4.0")
    }

    @Test("A v5 ACK without mtu falls back to 131072; a smaller mtu is taken as the payload limit")
    func v5MTU() {
        let (plain, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(mtu: nil), now: now)
        #expect(plain.parameters?.mtu == 131_072)
        let (small, _) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(mtu: 1000), now: now)
        #expect(small.parameters?.mtu == 1000)
    }

    @Test("A v4 ACK carries a 4-byte hash id and gives MTU 131072")
    func v4ACK() throws {
        let (machine, actions) = SDLSessionStateMachine.started(
            with: SessionFrames.legacyACK(version: 4, hashID: 0x0002_0003, session: 2), now: now)
        let parameters = try #require(machine.parameters)
        #expect(actions == [.established(parameters)])
        #expect(parameters.sessionID == 2)
        #expect(parameters.hashID == 0x0002_0003)
        #expect(parameters.majorVersion == 4)
        #expect(parameters.protocolVersion == "4.0.0")
        #expect(parameters.mtu == 131_072)
    }

    @Test("A v3 ACK gives MTU 131072 and a v2 ACK gives MTU 1488")
    func v2AndV3ACK() {
        let (v3, _) = SDLSessionStateMachine.started(with: SessionFrames.legacyACK(version: 3), now: now)
        #expect(v3.parameters?.mtu == 131_072)
        #expect(v3.parameters?.majorVersion == 3)
        let (v2, _) = SDLSessionStateMachine.started(with: SessionFrames.legacyACK(version: 2), now: now)
        #expect(v2.parameters?.mtu == 1488)
        #expect(v2.parameters?.majorVersion == 2)
        #expect(v2.parameters?.protocolVersion == "2.0.0")
    }

    @Test("Offering v3 to the simulator, which answers with a v4 ACK as Core does, negotiates v3")
    func v3Offer() throws {
        var harness = SessionHarness(.init(protocolVersion: "3.0.0"))
        harness.start()
        let start = try #require(harness.sent.first)
        #expect(start.header.version == 3)
        #expect(start.payload.readableBytes == 0)
        #expect(harness.received.first?.header.version == 4)
        let parameters = try #require(harness.established.first)
        #expect(parameters.majorVersion == 3)
        #expect(parameters.hashID == 65537)
    }

    @Test("An ACK of protocol version 1 or 6 is unsupported", arguments: [UInt8(1), 6])
    func unsupportedVersion(version: UInt8) throws {
        let ack = SessionFrames.control(.startServiceACK(.init(hashID: 1)), version: version)
        let (machine, actions) = SDLSessionStateMachine.started(with: ack, now: now)
        let error = try #require(actions.first?.closeError ?? nil)
        #expect(error.code == .unsupportedProtocolVersion)
        #expect(machine.isClosed)
        #expect(machine.closeError == error)
    }

    @Test("A v5 ACK whose protocolVersion disagrees with its header is unsupported")
    func mismatchedVersionString() throws {
        let (_, actions) = SDLSessionStateMachine.started(with: SessionFrames.v5ACK(protocolVersion: "6.0.0"), now: now)
        #expect((actions.first?.closeError ?? nil)?.code == .unsupportedProtocolVersion)
    }

    @Test("StartServiceNAK fails with startServiceRejected carrying Core's reason and rejected params")
    func nak() throws {
        let nak = SessionFrames.control(
            .startServiceNAK(.init(rejectedParams: ["protocolVersion"], reason: "HMI is not ready")), version: 5, session: 0)
        let (machine, actions) = SDLSessionStateMachine.started(with: nak, now: now)
        let error = try #require(actions.first?.closeError ?? nil)
        #expect(actions.count == 1)
        #expect(error.code == .startServiceRejected)
        #expect(error.detail.contains("HMI is not ready"))
        #expect(error.detail.contains("protocolVersion"))
        #expect(machine.isClosed)
        #expect(machine.nextDeadline == nil)
    }

    @Test("No ACK within the StartService timeout fails with timedOut")
    func startTimeout() throws {
        var machine = SDLSessionStateMachine(configuration: .init(startServiceTimeout: .seconds(10)))
        _ = machine.start(now: now)
        let early = machine.timerFired(now: now + .seconds(9))
        #expect(early.isEmpty)
        let late = machine.timerFired(now: now + .seconds(10))
        #expect((late.first?.closeError ?? nil)?.code == .timedOut)
    }

    @Test("Sending before the ACK throws notConnected")
    func sendBeforeACK() {
        var machine = SDLSessionStateMachine()
        _ = machine.start(now: now)
        let rpc = SDLRPCMessage(rpcType: .request, functionID: 1, correlationID: 1)
        do {
            _ = try machine.send(rpc, now: now)
            Issue.record("send before the ACK succeeded")
        } catch {
            #expect(error.code == .notConnected)
        }
    }
}
