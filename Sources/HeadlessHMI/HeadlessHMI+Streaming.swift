import SDLProtocol

/// What Core 8.2 asks its HMI for a navigation or projection app's video and audio services
/// (HMI_API.xml `Navigation`; Core's application_manager_impl.cc `StartNaviService` and
/// `OnStreamingConfigurationSuccessful`, navi_set_video_config_request.cc,
/// navi_start_stream_request.cc; docs/protocol.md §n):
///
/// 1. a video StartService with BSON parameters first sends `Navigation.SetVideoConfig
///    {"config": {protocol, codec, width, height}, "appID"}`; Core ACKs the StartService only
///    when the HMI answers SUCCESS, and NAKs it with the `rejectedParams` the HMI names;
/// 2. then `Navigation.StartStream {"url", "appID"}` (`StartAudioStream` for audio), and the
///    ACK; a REJECTED or missing answer is retried (`StartStreamRetry`) and then ends the service;
/// 3. `Navigation.OnVideoDataStreaming {"available": true}` when the first data arrives
///    (`false` after `VideoDataStoppedTimeout` without data); the socket consumer listens
///    meanwhile (``HMIStreamSource``);
/// 4. `Navigation.StopStream` / `StopAudioStream` when the service ends.
extension HeadlessHMI {
    /// The stream requests the HMI answers SUCCESS, and what each does to the app's stream.
    static let streamRequests: [String: (kind: HMIStream.Kind, starts: Bool)] = [
        "Navigation.StartStream": (.video, true), "Navigation.StopStream": (.video, false),
        "Navigation.StartAudioStream": (.audio, true), "Navigation.StopAudioStream": (.audio, false),
    ]

    /// `Navigation.SetVideoConfig`: SUCCESS when the head unit's `videoStreamingCapability`
    /// supports the configuration (``HMIAnswers/rejectedVideoConfig(_:)``), else REJECTED with
    /// `rejectedParams`. Core reads `rejectedParams` from the response's parameters
    /// (navi_set_video_config_request.cc), which its JSON-RPC formatter takes from a `result`
    /// only (an `error`'s `data` goes elsewhere: formatter_json_rpc.h), so the refusal is a
    /// `result` with `code` 4, as `rejectedParams` is documented on the response.
    mutating func setVideoConfig(id: Int64, params: [String: SDLJSON]) -> HMIMessage {
        let method = "Navigation.SetVideoConfig"
        let config = params["config"]?.objectValue ?? [:]
        let rejected = answers.rejectedVideoConfig(config)
        guard rejected.isEmpty else {
            return .response(
                id: id,
                result: [
                    "code": .int(HMIResult.rejected.rawValue), "method": .string(method),
                    "rejectedParams": .array(rejected.map { .string($0) }),
                ])
        }
        if let appID = params["appID"]?.intValue { updateApp(appID) { $0.videoStream.config = config } }
        return .answer(id: id, method: method)
    }

    /// StartStream, StopStream, StartAudioStream, StopAudioStream: the app's stream starts (with
    /// its `url`) or stops.
    mutating func streamRequest(_ method: String, params: [String: SDLJSON]) {
        guard let request = Self.streamRequests[method], let appID = params["appID"]?.intValue else { return }
        let (kind, starts) = (request.kind, request.starts)
        let url = params["url"]?.stringValue
        updateApp(appID) { app in
            Self.change(&app, kind) { stream in
                stream.state = starts ? .started : .stopped
                if starts { stream.url = url }
            }
        }
        if starts {
            streamingApps[kind] = appID
        } else if streamingApps[kind] == appID {
            streamingApps[kind] = nil
        }
    }

    /// `OnVideoDataStreaming` / `OnAudioDataStreaming`: data flows (or stopped) on the stream Core
    /// last asked the HMI to play.
    mutating func dataStreaming(_ kind: HMIStream.Kind, available: Bool?) {
        guard let available, let appID = streamingApps[kind] else { return }
        updateApp(appID) { app in
            Self.change(&app, kind) { stream in
                guard stream.state != .stopped else { return }
                stream.state = available ? .streaming : .started
            }
        }
    }

    /// Where to read the `kind` stream now: the streaming app's, while Core says data flows and its
    /// url is the socket consumer's `http://host:port`; nil otherwise.
    public func streamSource(_ kind: HMIStream.Kind) -> HMIStreamSource? {
        guard let appID = streamingApps[kind], let app = apps[appID] else { return nil }
        let stream = kind == .video ? app.videoStream : app.audioStream
        guard stream.state == .streaming, let url = stream.url else { return nil }
        return HMIStreamSource(appID: appID, kind: kind, url: url)
    }

    private static func change(_ app: inout App, _ kind: HMIStream.Kind, _ body: (inout HMIStream) -> Void) {
        switch kind {
        case .video: body(&app.videoStream)
        case .audio: body(&app.audioStream)
        }
    }
}
