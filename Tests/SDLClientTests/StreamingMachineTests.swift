import NIOCore
import SDLClient
import SDLProtocol
import Testing

/// The video and audio services in ``SDLConnectionStateMachine``, frame by frame against a
/// scripted head unit (docs/protocol.md §o); golden bytes for what goes on the wire.
@Suite("Streaming services: state machine and wire bytes")
struct StreamingMachineTests {
    static let format = SDLVideoStreamFormat(codec: "H264", protocol: "RAW", width: 800, height: 480)

    /// A registered app whose StartService(video) went out; returns that frame's bytes.
    static func starting(_ script: inout ConnectionMachineScript, _ service: SDLStreamingService = .video) throws -> ByteBuffer {
        _ = script.register()
        let (accepted, actions) = try script.machine.startStreaming(service, format: format, now: script.now)
        #expect(accepted == nil)
        let frame = try #require(actions.compactMap(\.written).first?.first)
        var bytes = ByteBuffer()
        bytes.writeSDLFrame(frame)
        return bytes
    }

    static func ack(
        _ service: SDLStreamingService = .video, mtu: Int64? = 1000, _ format: SDLVideoStreamFormat? = format
    ) -> SDLFrame {
        SessionFrames.control(
            .startServiceACK(
                .init(
                    mtu: mtu, height: format?.height.map { Int32($0) }, width: format?.width.map { Int32($0) },
                    videoProtocol: format?.protocol, videoCodec: format?.codec)),
            version: 5, service: service.serviceType, messageID: 7)
    }

    static func started(_ script: inout ConnectionMachineScript, mtu: Int64 = 1000) throws -> SDLStreamingAccepted {
        _ = try starting(&script)
        let actions = script.feed(ack(mtu: mtu))
        let reply = try #require(actions.compactMap(\.streamingReply).first)
        return try #require(try reply.result.get())
    }

    @Test("StartService(video) is a v5 control frame on service 0x0B with the BSON of the format, the session's id and next message id")
    func startServiceGolden() throws {
        var script = ConnectionMachineScript()
        let bytes = try Self.starting(&script)
        // RegisterAppInterface took message id 1; this is 2. BSON (little-endian): height 480,
        // width 800 (int32), videoProtocol "RAW", videoCodec "H264" (string), 72 bytes in all.
        let expected =
            "50 0b 01 01 00000048 00000002"
            + " 48000000"
            + " 10 686569676874 00 e0010000"
            + " 10 7769647468 00 20030000"
            + " 02 766964656f50726f746f636f6c 00 04000000 52415700"
            + " 02 766964656f436f646563 00 05000000 4832363400"
            + " 00"
        #expect(bytes.hex == expected.filter { $0 != " " })
    }

    @Test("StartService(audio) carries no parameters, whatever format is passed")
    func startServiceAudio() throws {
        var script = ConnectionMachineScript()
        let bytes = try Self.starting(&script, .audio)
        #expect(bytes.hex == "500a0101" + "00000000" + "00000002")
    }

    @Test("StartServiceACK: the service is started with the ACK's mtu and echoed format; a started event and the caller's answer")
    func acknowledged() throws {
        var script = ConnectionMachineScript()
        _ = try Self.starting(&script)
        let actions = script.feed(Self.ack(mtu: 4096))
        let accepted = SDLStreamingAccepted(service: .video, mtu: 4096, format: Self.format)
        #expect(actions.compactMap(\.streamingEvent) == [SDLStreamingEvent(service: .video, state: .started)])
        let reply = try #require(actions.compactMap(\.streamingReply).first)
        #expect(reply.service == .video)
        #expect(try reply.result.get() == accepted)
        let status = try #require(script.machine.streamingStatus(.video))
        #expect(status.accepted == accepted && status.frames == 0 && status.bytes == 0 && status.startedAt == script.now)
        // Asking again sends nothing and answers with what was accepted.
        let (again, more) = try script.machine.startStreaming(.video, format: nil, now: script.now)
        #expect(again == accepted && more.isEmpty)
        #expect(SDLAppEvent.streaming(.init(service: .video, state: .started)).type == "videoStreaming")
    }

    @Test("An ACK without mtu (as below v5) takes the session's MTU")
    func ackWithoutMTU() throws {
        var script = ConnectionMachineScript()
        _ = try Self.starting(&script)
        let actions = script.feed(Self.ack(mtu: nil, nil))
        let reply = try #require(actions.compactMap(\.streamingReply).first)
        #expect(try reply.result.get()?.mtu == 131_072)
    }

    @Test("StartServiceNAK: streamingRefused with the NAK's reason and rejectedParams, a refused event, nothing started")
    func refused() throws {
        var script = ConnectionMachineScript()
        _ = try Self.starting(&script)
        let nak = SessionFrames.control(
            .startServiceNAK(.init(rejectedParams: ["videoCodec", "height"], reason: "unsupported codec")), version: 5, service: .video)
        let actions = script.feed(nak)
        #expect(actions.compactMap(\.streamingEvent) == [SDLStreamingEvent(service: .video, state: .refused, reason: "unsupported codec")])
        let reply = try #require(actions.compactMap(\.streamingReply).first)
        #expect(throws: SDLClientError.self) { try reply.result.get() }
        guard case .failure(let error) = reply.result else { return }
        #expect(error.code == .streamingRefused && error.rejectedParams == ["videoCodec", "height"])
        #expect(error.detail.contains("unsupported codec"))
        #expect(script.machine.streamingStatus(.video) == nil)
        #expect(SDLAppEvent.streaming(.init(service: .audio, state: .refused, reason: "x")).data == ["state": "refused", "reason": "x"])
    }

    @Test("No answer to StartService: timedOut at the session's startServiceTimeout, a refused event; the deadline is in nextDeadline")
    func startTimeout() throws {
        var script = ConnectionMachineScript { $0.session.startServiceTimeout = .seconds(3) }
        _ = try Self.starting(&script)
        let deadline = script.now + .seconds(3)
        #expect(script.machine.nextDeadline == deadline)
        script.now = deadline - .nanoseconds(1)
        #expect(script.machine.timerFired(now: script.now).compactMap(\.streamingReply).isEmpty)
        script.now = deadline
        let actions = script.machine.timerFired(now: script.now)
        let reply = try #require(actions.compactMap(\.streamingReply).first)
        guard case .failure(let error) = reply.result else { Issue.record("a timeout must fail"); return }
        #expect(error.code == .timedOut)
        #expect(actions.compactMap(\.streamingEvent).map(\.state) == [.refused])
        #expect(script.machine.nextDeadline != deadline)
        // A late ACK starts nothing.
        #expect(script.feed(Self.ack()).isEmpty)
        #expect(script.machine.streamingStatus(.video) == nil)
    }

    @Test("Data before the service started, while starting, or before registration is refused and writes nothing")
    func dataBeforeStart() throws {
        var script = ConnectionMachineScript()
        #expect { try script.machine.startStreaming(.video, format: nil, now: script.now) } throws: {
            ($0 as? SDLClientError)?.code == .notConnected
        }
        _ = script.register()
        let bytes = ByteBuffer(bytes: [0, 0, 0, 1, 0x67])
        #expect { try script.machine.streamFrames(.video, bytes, now: script.now) } throws: {
            ($0 as? SDLClientError)?.code == .streamingNotStarted
        }
        _ = try script.machine.startStreaming(.video, format: nil, now: script.now)
        #expect { try script.machine.streamFrames(.video, bytes, now: script.now) } throws: {
            ($0 as? SDLClientError)?.code == .streamingNotStarted
        }
        #expect { try script.machine.startStreaming(.video, format: nil, now: script.now) } throws: {
            ($0 as? SDLClientError)?.code == .tooManyPendingRequests
        }
        #expect { try script.machine.endStreaming(.audio, now: script.now) } throws: {
            ($0 as? SDLClientError)?.code == .streamingNotStarted
        }
    }

    @Test("Data is split at the service's MTU into Single Frames on 0x0B with consecutive message ids, counted in the status")
    func dataFrames() throws {
        var script = ConnectionMachineScript()
        _ = try Self.started(&script, mtu: 1000)
        let payload = ByteBuffer(bytes: (0..<2500).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let frames = try script.machine.streamFrames(.video, payload, now: script.now)
        #expect(frames.map(\.payload.readableBytes) == [1000, 1000, 500])
        #expect(frames.map(\.header.messageID) == [3, 4, 5])
        #expect(frames.allSatisfy { $0.header.frameType == .single && $0.header.serviceType == .video && $0.header.sessionID == 1 })
        #expect(frames.allSatisfy { $0.header.version == 5 && !$0.header.isEncrypted && $0.header.frameInfo == 0 })
        var joined = ByteBuffer()
        for frame in frames { joined.writeImmutableBuffer(frame.payload) }
        #expect(joined == payload)
        // Golden: the last frame on the wire.
        var wire = ByteBuffer()
        wire.writeSDLFrame(SDLFrame(header: frames[2].header, payload: ByteBuffer(bytes: [0xDE, 0xAD])))
        #expect(wire.hex == "510b0001" + "00000002" + "00000005" + "dead")
        let status = try #require(script.machine.streamingStatus(.video))
        #expect(status.frames == 3 && status.bytes == 2500)
        // Empty data makes no frame (Core rejects empty Single Frames).
        #expect(try script.machine.streamFrames(.video, ByteBuffer(), now: script.now).isEmpty)
        // The RPC service goes on numbering after the stream's frames.
        let (_, actions) = script.send("Show", ["mainField1": "x"], waiter: 1)
        #expect(actions.compactMap(\.written).first?.first?.header.messageID == 6)
    }

    @Test("EndService from the app: EndService on 0x0B (golden), then EndServiceACK ends it with an ended event and no reason")
    func endedByApp() throws {
        var script = ConnectionMachineScript()
        _ = try Self.started(&script)
        let actions = try script.machine.endStreaming(.video, now: script.now)
        var wire = ByteBuffer()
        wire.writeSDLFrame(try #require(actions.compactMap(\.written).first?.first))
        #expect(wire.hex == "500b0401" + "00000000" + "00000003")
        #expect { try script.machine.streamFrames(.video, ByteBuffer(bytes: [1]), now: script.now) } throws: {
            ($0 as? SDLClientError)?.code == .streamingNotStarted
        }
        let acked = script.feed(SessionFrames.control(.endServiceACK, version: 5, service: .video))
        #expect(acked.compactMap(\.streamingEvent) == [SDLStreamingEvent(service: .video, state: .ended)])
        let reply = try #require(acked.compactMap(\.streamingReply).first)
        #expect(try reply.result.get() == nil)
        #expect(script.machine.streamingStatus(.video) == nil)
    }

    @Test("EndService from the head unit: answered with EndServiceACK on 0x0B, an ended event with its reason; data is refused after")
    func endedByHeadUnit() throws {
        var script = ConnectionMachineScript()
        _ = try Self.started(&script)
        let actions = script.feed(SessionFrames.control(.endService(.init()), version: 5, service: .video, messageID: 9))
        let answer = try #require(actions.compactMap(\.written).first?.first)
        #expect(answer.header.serviceType == .video && answer.header.frameType == .control)
        #expect(answer.header.frameInfo == SDLControlFrameInfo.endServiceACK.rawValue && answer.header.messageID == 3)
        #expect(
            actions.compactMap(\.streamingEvent) == [SDLStreamingEvent(service: .video, state: .ended, reason: "the head unit ended it")])
        #expect(actions.compactMap(\.streamingReply).isEmpty)
        #expect { try script.machine.streamFrames(.video, ByteBuffer(bytes: [1]), now: script.now) } throws: {
            ($0 as? SDLClientError)?.code == .streamingNotStarted
        }
        #expect(!script.machine.isClosed)
    }

    @Test("EndServiceNAK and an EndService without answer end the service all the same, with streamingRefused and timedOut")
    func endRefusedOrSilent() throws {
        var script = ConnectionMachineScript { $0.session.endServiceTimeout = .seconds(2) }
        _ = try Self.started(&script)
        _ = try script.machine.endStreaming(.video, now: script.now)
        let naked = script.feed(SessionFrames.control(.endServiceNAK(.init(reason: "no such service")), version: 5, service: .video))
        guard case .failure(let error) = try #require(naked.compactMap(\.streamingReply).first).result else {
            Issue.record("an EndServiceNAK must fail")
            return
        }
        #expect(error.code == .streamingRefused && error.detail.contains("no such service"))
        #expect(script.machine.streamingStatus(.video) == nil)

        _ = try script.machine.startStreaming(.audio, format: nil, now: script.now)
        _ = script.feed(Self.ack(.audio, nil))
        _ = try script.machine.endStreaming(.audio, now: script.now)
        script.now = script.now + .seconds(2)
        let fired = script.machine.timerFired(now: script.now)
        guard case .failure(let timeout) = try #require(fired.compactMap(\.streamingReply).first).result else {
            Issue.record("a silent EndService must time out")
            return
        }
        #expect(timeout.code == .timedOut)
        #expect(script.machine.streamingStatus(.audio) == nil)
    }

    @Test("A lost link ends started services with an event, and fails a pending StartService with the link's error")
    func linkLost() throws {
        var script = ConnectionMachineScript()
        _ = try Self.started(&script)
        _ = try script.machine.startStreaming(.audio, format: nil, now: script.now)
        let actions = script.machine.linkDown(SDLClientError(.linkLost, "gone"), now: script.now)
        #expect(actions.compactMap(\.streamingEvent) == [SDLStreamingEvent(service: .video, state: .ended, reason: "the link was lost")])
        let reply = try #require(actions.compactMap(\.streamingReply).first)
        #expect(reply.service == .audio)
        guard case .failure(let error) = reply.result else { Issue.record("the pending start must fail"); return }
        #expect(error.code == .linkLost)
        #expect(script.machine.streamingStatus(.video) == nil)
    }
}

extension SDLConnectionStateMachine.Action {
    var streamingEvent: SDLStreamingEvent? {
        if case .publish(.streaming(let event)) = self { return event }
        return nil
    }

    var streamingReply: (service: SDLStreamingService, result: Result<SDLStreamingAccepted?, SDLClientError>)? {
        if case .streamingReply(let service, let result) = self { return (service, result) }
        return nil
    }
}

extension ByteBuffer {
    /// Lowercase hex of the readable bytes.
    var hex: String {
        let digits = Array("0123456789abcdef")
        return String(readableBytesView.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}
