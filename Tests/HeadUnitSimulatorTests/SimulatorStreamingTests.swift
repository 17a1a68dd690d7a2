import HeadUnitModel
import NIOCore
import SDLProtocol
import Testing

@testable import HeadUnitSimulator

/// The video and audio streaming services as Core 8.2 runs them (docs/protocol.md §k,
/// "Streaming services"): who may start them, the NAK's reason and `rejectedParams`, the bytes
/// and counts kept, and the EndService when the app leaves FULL/LIMITED, on a hand-moved clock.
@Suite("Simulator streaming services")
struct SimulatorStreamingTests {
    struct Rig {
        var harness: HeadUnitHarness
        let connection: ConnectionID
        let session: UInt8
        var messageID: UInt32 = 100

        init(appHMIType: [String], appID: String = "nav-1", isMedia: Bool = false, configuration: HeadUnitConfiguration = .init()) {
            harness = HeadUnitHarness(configuration)
            connection = harness.open()
            let types = SDLJSON.array(appHMIType.map { .string($0) })
            (session, _) = harness.register(appID: appID, isMedia: isMedia, on: connection, extra: ["appHMIType": types])
        }

        mutating func setLevel(_ level: String, appID: String = "nav-1") throws {
            harness.apply(
                try harness.unit.setHMI(appID: appID, hmiLevel: level, audioStreamingState: nil, systemContext: nil, now: harness.now))
        }

        /// Sends StartService on `service`; returns the head unit's answer.
        mutating func start(
            _ service: SDLServiceType, _ parameters: SDLControlMessage.StartService = .init()
        ) -> (SDLFrameHeader, SDLControlMessage)? {
            messageID += 1
            let before = harness.received[connection]?.count ?? 0
            harness.send(
                SDLControlMessage.startService(parameters).makeFrame(
                    version: 5, serviceType: service, sessionID: session, messageID: messageID), on: connection)
            return controls(after: before).last
        }

        /// Sends one data frame on `service`.
        mutating func send(_ bytes: [UInt8], on service: SDLServiceType) {
            messageID += 1
            let message = SDLMessage(
                version: 5, serviceType: service, sessionID: session, messageID: messageID, payload: ByteBuffer(bytes: bytes))
            for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: 131_072) { harness.send(frame, on: connection) }
        }

        func controls(after index: Int = 0) -> [(SDLFrameHeader, SDLControlMessage)] {
            (harness.received[connection] ?? []).dropFirst(index).compactMap { item in
                guard case .control(let header, let message) = item else { return nil }
                return (header, message)
            }
        }

        /// The EndService frames the head unit sent, by service.
        var endServices: [SDLServiceType] {
            controls().compactMap { header, message in
                if case .endService = message { header.serviceType } else { nil }
            }
        }

        var app: AppState { harness.unit.app(withID: "nav-1")! }
    }

    static func nak(_ answer: (SDLFrameHeader, SDLControlMessage)?) -> SDLControlMessage.NAK? {
        if case .startServiceNAK(let nak)? = answer?.1 { nak } else { nil }
    }

    static func ack(_ answer: (SDLFrameHeader, SDLControlMessage)?) -> SDLControlMessage.StartServiceACK? {
        if case .startServiceACK(let ack)? = answer?.1 { ack } else { nil }
    }

    @Test("A DEFAULT app may stream neither video nor audio: NAK with Core's reason, even in FULL")
    func defaultAppRefused() throws {
        var rig = Rig(appHMIType: ["DEFAULT"], isMedia: true)
        try rig.setLevel("FULL")
        let video = rig.start(.video)
        #expect(video?.0.serviceType == .video)
        #expect(Self.nak(video)?.reason == "Service type: 11 disallowed with current HMI type")
        #expect(Self.nak(rig.start(.audio))?.reason == "Service type: 10 disallowed with current HMI type")
        #expect(rig.app.streams.isEmpty)
    }

    @Test("A NAVIGATION app in NONE or BACKGROUND: NAK, disallowed with current HMI level", arguments: ["NONE", "BACKGROUND"])
    func wrongLevelRefused(level: String) throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        if level == "BACKGROUND" {
            try rig.setLevel("FULL")
            try rig.setLevel("BACKGROUND")
        }
        #expect(rig.app.hmiLevel == level)
        #expect(Self.nak(rig.start(.video))?.reason == "Service type: 11 disallowed with current HMI level")
        #expect(Self.nak(rig.start(.audio))?.reason == "Service type: 10 disallowed with current HMI level")
    }

    @Test("A NAVIGATION app in FULL or LIMITED: ACK with the mtu and the video parameters echoed", arguments: ["FULL", "LIMITED"])
    func acceptedInFullOrLimited(level: String) throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel(level)
        let answer = rig.start(.video, .init(height: 300, width: 800, videoProtocol: "RAW", videoCodec: "H264"))
        let ack = try #require(Self.ack(answer))
        #expect(answer?.0.serviceType == .video)
        #expect(ack.mtu == 131_072)
        #expect(ack.width == 800 && ack.height == 300 && ack.videoProtocol == "RAW" && ack.videoCodec == "H264")
        #expect(Self.ack(rig.start(.audio)) != nil)
        #expect(rig.app.streams[.video]?.isStreaming == true)
        #expect(
            rig.app.json["streams"]?["video"] == [
                "state": "streaming", "bytes": 0, "frames": 0, "keptBytes": 0,
                "format": [
                    "codec": "H264", "protocol": "RAW", "width": 800, "height": 300,
                ],
            ])
        #expect(rig.app.json["streams"]?["audio"]?["format"] == .null)
    }

    @Test("A PROJECTION app that is not media is NOT_AUDIBLE: video yes, audio no (Core's IsAudioApplication)")
    func projectionAudio() throws {
        var rig = Rig(appHMIType: ["PROJECTION"])
        try rig.setLevel("FULL")
        #expect(rig.app.audioStreamingState == "NOT_AUDIBLE")
        #expect(Self.ack(rig.start(.video)) != nil)
        #expect(Self.nak(rig.start(.audio))?.reason == "Service type: 10 disallowed with current HMI level")
    }

    @Test("Video parameters: no such codec → rejectedParams without reason; a codec the HMI does not support → SetVideoConfig failure")
    func videoParameters() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        let unknown = try #require(Self.nak(rig.start(.video, .init(videoProtocol: "RAW", videoCodec: "MPEG2"))))
        #expect(unknown.rejectedParams == ["videoCodec"])
        #expect(unknown.reason == nil)
        let unsupported = try #require(Self.nak(rig.start(.video, .init(videoProtocol: "RTMP", videoCodec: "H264"))))
        #expect(unsupported.rejectedParams == ["videoProtocol"])
        #expect(unsupported.reason == "Received SetVideoConfig failure response")
        #expect(Self.nak(rig.start(.video, .init(videoProtocol: "RTP", videoCodec: "VP9")))?.rejectedParams == ["videoCodec"])
        #expect(Self.ack(rig.start(.video, .init(videoProtocol: "RTP", videoCodec: "H264"))) != nil)
    }

    @Test("Data frames are counted and their bytes kept in order")
    func bytesKept() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        #expect(Self.ack(rig.start(.video)) != nil)
        rig.send([0, 0, 0, 1, 0x67], on: .video)
        rig.send([0, 0, 0, 1, 0x68, 0xCE], on: .video)
        rig.send(Array(repeating: 7, count: 200_000), on: .video)  // one message in several frames
        let record = try #require(rig.app.streams[.video])
        #expect(record.frames == 3)
        #expect(record.bytes == 200_011)
        #expect(Array(buffer: record.tail.bytes()) == [0, 0, 0, 1, 0x67, 0, 0, 0, 1, 0x68, 0xCE] + Array(repeating: 7, count: 200_000))
        #expect(rig.app.streams[.audio] == nil)
    }

    @Test("The kept bytes are bounded: the last streamKeptBytes, the counts go on")
    func bytesBounded() throws {
        var configuration = HeadUnitConfiguration()
        configuration.streamKeptBytes = 10
        var rig = Rig(appHMIType: ["NAVIGATION"], configuration: configuration)
        try rig.setLevel("FULL")
        #expect(Self.ack(rig.start(.audio)) != nil)
        for chunk in 0..<5 { rig.send(Array(repeating: UInt8(chunk), count: 4) + [0xFF], on: .audio) }
        let record = try #require(rig.app.streams[.audio])
        #expect(record.bytes == 25 && record.frames == 5)
        #expect(record.tail.count == 10 && record.tail.start == 15)
        #expect(Array(buffer: record.tail.bytes()) == [3, 3, 3, 3, 0xFF, 4, 4, 4, 4, 0xFF])
        #expect(Array(buffer: record.tail.bytes(from: 18, limit: 3)) == [3, 0xFF, 4])
        #expect(Array(buffer: record.tail.bytes(from: 2)) == Array(buffer: record.tail.bytes()))
    }

    @Test("StreamTail: a chunk larger than the capacity keeps its end; positions count every byte")
    func tail() {
        var tail = StreamTail(capacity: 4)
        tail.append(ByteBuffer(bytes: [1, 2, 3, 4, 5, 6]))
        #expect(Array(buffer: tail.bytes()) == [3, 4, 5, 6])
        #expect(tail.total == 6 && tail.start == 2)
        tail.append(ByteBuffer(bytes: [7]))
        #expect(Array(buffer: tail.bytes()) == [4, 5, 6, 7])
        #expect(Array(buffer: tail.bytes(from: 6)) == [7])
        #expect(tail.bytes(from: 7).readableBytes == 0)
        var none = StreamTail(capacity: 0)
        none.append(ByteBuffer(bytes: [1]))
        #expect(none.total == 1 && none.count == 0)
    }

    @Test("FULL → BACKGROUND: NOT_STREAMABLE at once, data dropped for StopStreamingTimeout, then the next frame gets EndService")
    func endServiceAfterBackground() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        #expect(Self.ack(rig.start(.video)) != nil)
        rig.send([1, 2, 3], on: .video)
        try rig.setLevel("BACKGROUND")
        let status = rig.harness.notifications("OnHMIStatus", session: rig.session, on: rig.connection).last
        #expect(status?.parameters["videoStreamingState"] == "NOT_STREAMABLE")
        #expect(status?.parameters["hmiLevel"] == "BACKGROUND")

        rig.harness.advance(by: .milliseconds(999))
        rig.send([4], on: .video)
        #expect(rig.endServices.isEmpty)
        #expect(rig.app.streams[.video]?.isStreaming == true)
        rig.harness.advance(by: .milliseconds(1))
        #expect(rig.endServices.isEmpty, "no data, no EndService")
        rig.send([5], on: .video)
        #expect(rig.endServices == [.video])
        let record = try #require(rig.app.streams[.video])
        #expect(!record.isStreaming)
        #expect(record.bytes == 3 && record.frames == 1)
        rig.send([6], on: .video)
        #expect(rig.endServices == [.video], "only one EndService")
        #expect(rig.app.json["streams"]?["video"]?["state"] == "stopped")
    }

    @Test("Back to FULL before the timeout: the stream goes on")
    func backBeforeTimeout() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        #expect(Self.ack(rig.start(.video)) != nil)
        try rig.setLevel("BACKGROUND")
        rig.harness.advance(by: .milliseconds(500))
        try rig.setLevel("FULL")
        rig.harness.advance(by: .seconds(2))
        rig.send([1], on: .video)
        #expect(rig.endServices.isEmpty)
        #expect(rig.app.streams[.video]?.bytes == 1)
    }

    @Test("FULL → NONE ends both services at once")
    func endServicesOnNone() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        #expect(Self.ack(rig.start(.video)) != nil)
        #expect(Self.ack(rig.start(.audio)) != nil)
        try rig.setLevel("NONE")
        #expect(Set(rig.endServices) == [.video, .audio])
        #expect(rig.app.streams.values.allSatisfy { !$0.isStreaming })
    }

    @Test("The app's own EndService stops the stream; StartService again continues the counts")
    func appEndsService() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        #expect(Self.ack(rig.start(.video)) != nil)
        rig.send([1, 2], on: .video)
        rig.messageID += 1
        rig.harness.send(
            SDLControlMessage.endService(.init()).makeFrame(
                version: 5, serviceType: .video, sessionID: rig.session, messageID: rig.messageID),
            on: rig.connection)
        #expect(rig.app.streams[.video]?.isStreaming == false)
        rig.send([3], on: .video)
        #expect(rig.app.streams[.video]?.bytes == 2, "data after EndService is dropped")
        #expect(Self.ack(rig.start(.video)) != nil)
        rig.send([3], on: .video)
        #expect(rig.app.streams[.video]?.bytes == 3)
        #expect(Array(buffer: rig.app.streams[.video]!.tail.bytes()) == [1, 2, 3])
    }

    @Test("GetSystemCapability(VIDEO_STREAMING) answers the profile's videoStreamingCapability")
    func videoCapability() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        let answer = rig.harness.call(
            "GetSystemCapability", ["systemCapabilityType": "VIDEO_STREAMING"], session: rig.session, on: rig.connection)
        let response = try #require(answer)
        #expect(response.resultCode == "SUCCESS")
        let capability = response.parameters["systemCapability"]?["videoStreamingCapability"]
        #expect(capability?["preferredResolution"] == ["resolutionWidth": 800, "resolutionHeight": 300])
        #expect(capability?["supportedFormats"] == [["protocol": "RAW", "codec": "H264"], ["protocol": "RTP", "codec": "H264"]])
    }

    @Test("Touches: one OnTouchEvent each, its timestamp the simulator's clock in ms; bad values refused")
    func touches() throws {
        var rig = Rig(appHMIType: ["NAVIGATION"])
        try rig.setLevel("FULL")
        let (sent, actions) = try rig.harness.unit.touch(
            appID: "nav-1", [TouchInput(type: "BEGIN", x: 10, y: 20), TouchInput(type: "END", x: 11, y: 21, id: 3)], now: rig.harness.now)
        rig.harness.apply(actions)
        #expect(sent == 2)
        let events = rig.harness.notifications("OnTouchEvent", session: rig.session, on: rig.connection)
        let ms = Int64(rig.harness.now.uptimeNanoseconds / 1_000_000)
        #expect(
            events.map(\.parameters) == [
                ["type": "BEGIN", "event": [["id": 0, "ts": [.int(ms)], "c": [["x": 10, "y": 20]]]]],
                ["type": "END", "event": [["id": 3, "ts": [.int(ms)], "c": [["x": 11, "y": 21]]]]],
            ])
        for bad in [
            [TouchInput(type: "TAP", x: 0, y: 0)], [TouchInput(type: "MOVE", x: -1, y: 0)], [TouchInput(type: "MOVE", x: 0, y: 0, id: 10)],
            [],
            Array(repeating: TouchInput(type: "MOVE", x: 0, y: 0), count: 101),
        ] {
            #expect(throws: SimulatorControlError.self) { try rig.harness.unit.touch(appID: "nav-1", bad, now: rig.harness.now) }
        }
        #expect(throws: SimulatorControlError.self) {
            try rig.harness.unit.touch(appID: "nobody", [TouchInput(type: "BEGIN", x: 0, y: 0)], now: rig.harness.now)
        }
    }
}
