import SDLProtocol

/// One of an app's streaming services as the headless HMI knows it from Core's `Navigation`
/// requests and notifications (HMI_API.xml; docs/protocol.md §n): Core asks the HMI to play a
/// stream with `Navigation.StartStream` (video) or `StartAudioStream` (audio), naming its `url`,
/// says when data flows on it with `OnVideoDataStreaming` / `OnAudioDataStreaming`
/// `{"available": Bool}`, and stops it with `StopStream` / `StopAudioStream`.
public struct HMIStream: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case video, audio
    }

    public enum State: String, Sendable, Hashable {
        /// No StartStream, or StopStream came.
        case stopped
        /// StartStream answered; Core has no data for it (yet, or any more: it suspends the
        /// stream when the app sends nothing for `VideoDataStoppedTimeout`).
        case started
        /// Core said data flows (`available: true`): its consumer has the bytes.
        case streaming
    }

    public var state: State = .stopped
    /// Where Core offers the stream (StartStream's `url`): `http://ServerAddress:VideoStreamingPort`
    /// for the socket consumer, a path for the file or pipe consumer.
    public var url: String?
    /// Video: the configuration Core asked for with `Navigation.SetVideoConfig` and the HMI accepted.
    public var config: [String: SDLJSON]?

    public init() {}

    /// The control API's view: `{"state", "url", "config"}`.
    public var json: SDLJSON {
        var object: [String: SDLJSON] = ["state": .string(state.rawValue)]
        if let url { object["url"] = .string(url) }
        if let config { object["config"] = .object(config) }
        return .object(object)
    }
}

/// Where the HMI reads a stream that Core's socket consumer serves (`VideoStreamConsumer =
/// socket`): the app, and the host and port of StartStream's `http://` url.
public struct HMIStreamSource: Sendable, Hashable {
    public var appID: Int64
    public var kind: HMIStream.Kind
    public var host: String
    public var port: Int

    public init(appID: Int64, kind: HMIStream.Kind, host: String, port: Int) {
        self.appID = appID
        self.kind = kind
        self.host = host
        self.port = port
    }

    /// The source of an `http://host:port` url (Core's `MessageHelper::SendNaviStartStream` writes
    /// `"http://" + ServerAddress + ":" + port`); nil for a file or pipe path.
    public init?(appID: Int64, kind: HMIStream.Kind, url: String) {
        guard url.hasPrefix("http://") else { return nil }
        var authority = url.dropFirst("http://".count)
        if let slash = authority.firstIndex(of: "/") { authority = authority[..<slash] }
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        let host = authority[..<colon].withoutBrackets
        guard !host.isEmpty else { return nil }
        self.init(appID: appID, kind: kind, host: String(host), port: port)
    }
}

extension Substring {
    /// An IPv6 literal's host without its brackets (`[::1]` → `::1`).
    fileprivate var withoutBrackets: Substring {
        hasPrefix("[") && hasSuffix("]") ? dropFirst().dropLast() : self
    }
}
