import HeadUnitModel
import HeadlessHMI
import SDLProtocol
import TestSupport
import Testing

/// What the headless HMI answers Core 8.2's `Navigation` requests for a navigation app's streams,
/// on messages shaped as Core sends them (docs/protocol.md §n).
@Suite("The headless HMI's streaming answers")
struct HMIStreamingTests {
    static let appID: Int64 = 65537

    /// A ready HMI with the navigation app registered.
    static func hmi() throws -> HeadlessHMI {
        var hmi = HeadlessHMI(answers: HMIAnswers(profile: .default))
        _ = try HeadlessHMITests.ready(&hmi)
        _ = try hmi.receive(
            .notification(
                method: "BasicCommunication.OnAppRegistered",
                params: ["application": ["appID": .int(appID), "appName": "Maps", "policyAppID": "maps-1", "appType": ["NAVIGATION"]]]
            ))
        return hmi
    }

    @Test("Navigation.IsReady is available; UI.GetCapabilities advertises the profile's videoStreamingCapability and videoStreaming")
    func capabilities() throws {
        var hmi = try Self.hmi()
        #expect(
            try hmi.receive(.request(id: 7, method: "Navigation.IsReady", params: [:]))
                == [.response(id: 7, result: ["available": true, "code": 0, "method": "Navigation.IsReady"])])
        let answer = try hmi.receive(.request(id: 8, method: "UI.GetCapabilities", params: [:]))
        guard case .response(8, let result)? = answer.first else { Issue.record("\(answer)"); return }
        let advertised = try #require(SimulatorProfile.default.systemCapability("VIDEO_STREAMING")?["videoStreamingCapability"])
        #expect(result["systemCapabilities"]?["videoStreamingCapability"] == advertised)
        #expect(result["systemCapabilities"]?["navigationCapability"] != nil)
        #expect(result["hmiCapabilities"]?["videoStreaming"] == true)
    }

    @Test("SetVideoConfig within the capability is SUCCESS and kept for the app")
    func videoConfigAccepted() throws {
        var hmi = try Self.hmi()
        let request = try CoreHMIMessages.setVideoConfig(id: 30, appID: Self.appID, protocol: "RAW", codec: "H264", width: 800, height: 300)
        #expect(try hmi.receive(request) == [.response(id: 30, result: ["code": 0, "method": "Navigation.SetVideoConfig"])])
        #expect(hmi.apps[Self.appID]?.videoStream.config == ["protocol": "RAW", "codec": "H264", "width": 800, "height": 300])
    }

    @Test(
        "SetVideoConfig beyond the capability is REJECTED as a result carrying rejectedParams (where Core reads them), naming only what it does not support",
        arguments: [
            ("RAW", "H264", 1920, 1080, ["width", "height"]),
            ("RAW", "VP9", 800, 300, ["codec"]),
            ("RTP", "H265", 320, 200, ["codec"]),
            ("SRTP", "H264", 800, 0, ["protocol", "height"]),
        ])
    func videoConfigRejected(proto: String, codec: String, width: Int, height: Int, rejected: [String]) throws {
        var hmi = try Self.hmi()
        let request = try CoreHMIMessages.setVideoConfig(
            id: 31, appID: Self.appID, protocol: proto, codec: codec, width: width, height: height)
        let answer = try hmi.receive(request)
        #expect(
            answer == [
                .response(
                    id: 31,
                    result: ["code": 4, "method": "Navigation.SetVideoConfig", "rejectedParams": .array(rejected.map { .string($0) })])
            ])
        #expect(hmi.apps[Self.appID]?.videoStream.config == nil)
        // On the wire: a JSON-RPC result, not an error (Core drops an error's data).
        #expect(answer.first?.json["result"]?["rejectedParams"] != nil && answer.first?.json["error"] == nil)
    }

    @Test("StartStream keeps the url; OnVideoDataStreaming says when Core's socket has data; StopStream stops it")
    func videoStream() throws {
        var hmi = try Self.hmi()
        #expect(
            try hmi.receive(try CoreHMIMessages.startStream(id: 32, appID: Self.appID, url: "http://127.0.0.1:5050"))
                == [.response(id: 32, result: ["code": 0, "method": "Navigation.StartStream"])])
        #expect(hmi.apps[Self.appID]?.videoStream.state == .started)
        #expect(hmi.apps[Self.appID]?.videoStream.url == "http://127.0.0.1:5050")
        #expect(hmi.streamSource(.video) == nil, "no data yet: Core's consumer does not listen")
        #expect(try hmi.receive(try CoreHMIMessages.dataStreaming(true)) == [])
        #expect(hmi.apps[Self.appID]?.videoStream.state == .streaming)
        #expect(hmi.streamSource(.video) == HMIStreamSource(appID: Self.appID, kind: .video, host: "127.0.0.1", port: 5050))
        _ = try hmi.receive(try CoreHMIMessages.dataStreaming(false))
        #expect(hmi.apps[Self.appID]?.videoStream.state == .started)
        #expect(hmi.streamSource(.video) == nil)
        _ = try hmi.receive(try CoreHMIMessages.dataStreaming(true))
        #expect(
            try hmi.receive(try CoreHMIMessages.stopStream(id: 33, appID: Self.appID))
                == [.response(id: 33, result: ["code": 0, "method": "Navigation.StopStream"])])
        #expect(hmi.apps[Self.appID]?.videoStream.state == .stopped)
        #expect(hmi.streamSource(.video) == nil)
        #expect(hmi.apps[Self.appID]?.audioStream.state == .stopped, "the audio stream is another")
    }

    @Test("StartAudioStream and OnAudioDataStreaming work the audio stream; a file consumer's path is no socket to read")
    func audioAndFileStreams() throws {
        var hmi = try Self.hmi()
        _ = try hmi.receive(try CoreHMIMessages.startStream(id: 34, appID: Self.appID, url: "http://127.0.0.1:5080", audio: true))
        _ = try hmi.receive(try CoreHMIMessages.dataStreaming(true, audio: true))
        #expect(hmi.streamSource(.audio) == HMIStreamSource(appID: Self.appID, kind: .audio, host: "127.0.0.1", port: 5080))
        #expect(hmi.streamSource(.video) == nil)
        _ = try hmi.receive(try CoreHMIMessages.stopStream(id: 35, appID: Self.appID, audio: true))
        #expect(hmi.streamSource(.audio) == nil)
        _ = try hmi.receive(try CoreHMIMessages.startStream(id: 36, appID: Self.appID, url: "/opt/sdl/bin/storage/video_stream_file"))
        _ = try hmi.receive(try CoreHMIMessages.dataStreaming(true))
        #expect(hmi.apps[Self.appID]?.videoStream.state == .streaming)
        #expect(hmi.streamSource(.video) == nil)
    }
}
