import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import ProcessHarness
import SDLClient
import SDLProtocol

/// `video`: H.264-like bytes (``VideoPayload``) to the video service of a NAVIGATION app in FULL
/// on the simulated head unit (README "Projection"; docs/protocol.md §o), three ways:
///
/// - `raw`: ``SDLAppSession/sendStream(_:_:)`` of the harness's own SDL session, one call per frame;
/// - `ws`: one binary message per frame on the gateway app's `/v1/apps/{id}/video` WebSocket,
///   masked as a browser masks (``MaskedWebSocketClient``);
/// - `post`: the whole stream as the body of `POST /v1/apps/{id}/video/stream`.
///
/// Each measurement brings its app to FULL through the simulator's control API, starts the video
/// service (the head unit lets one app stream video at a time), sends, and ends when the head
/// unit has received every byte (its `streams.video.bytes` count, polled once the sender is
/// done); then it checks that the head unit's kept bytes (`video.h264`, the last
/// `simulate --stream-keep`) equal the end of what was sent, and ends the service.
///
/// It holds the HTTP clients' send functions, so it lives only within their connections' `run`.
struct VideoScenario {
    /// The three ways, by name.
    enum Way: String, Sendable, CaseIterable {
        case raw, ws, post
    }

    /// The gateway (`host:port`), its app's id and SDL appID.
    let gateway: String
    let app: String
    let gatewayAppID: String
    /// The harness's own NAVIGATION session and its SDL appID.
    let raw: SDLAppSession
    let rawAppID: String
    /// HTTP to the gateway and to the simulator's control API.
    let gatewaySend: HTTPKeepAliveClient.Send
    let controlSend: HTTPKeepAliveClient.Send
    /// The simulator's control API (`host:port`), for its live feed.
    let control: String

    static let format = SDLVideoStreamFormat(codec: "H264", protocol: "RAW")

    func appID(_ way: Way) -> String { way == .raw ? rawAppID : gatewayAppID }

    // MARK: Throughput

    /// Sends `payload` one way; MB/s from the first byte sent to the head unit's having the last.
    func throughput(_ way: Way, _ payload: VideoPayload) async throws -> Double {
        try await activate(way)
        try await start(way)
        let before = try await received(way)
        let clock = ContinuousClock()
        let started = Shared(clock.now)
        switch way {
        case .raw:
            for frame in payload.frames { try await raw.sendStream(.video, frame) }
        case .ws:
            try await webSocket { send in
                started.withLock { $0 = clock.now }
                for frame in payload.frames { try await send(frame) }
            }
        case .post:
            let answer = try await gatewaySend(.POST, "/v1/apps/\(app)/video/stream", payload.stream)
            let sent = (try? SDLJSON.parse(answer.body))?["bytes"]?.intValue
            guard answer.status == 200, sent == Int64(payload.size) else {
                throw BenchFailure(description: "POST …/video/stream answered \(answer.status): \(String(buffer: answer.body))")
            }
        }
        try await waitUntilReceived(way, before + payload.size)
        let seconds = (clock.now - started.value).seconds
        try await checkKept(way, payload.stream)
        try await end(way)
        return seconds > 0 ? Double(payload.size) / 1e6 / seconds : 0
    }

    /// Opens the gateway app's video WebSocket, runs `body` with its send function (one binary
    /// message a call, masked as a browser masks: ``MaskedWebSocketClient``), closes with 1000.
    func webSocket(_ body: (_ send: MaskedWebSocketClient.Send) async throws -> Void) async throws {
        guard let colon = gateway.lastIndex(of: ":"), let port = Int(gateway[gateway.index(after: colon)...]) else {
            throw BenchFailure(description: "the gateway is host:port, got \(gateway)")
        }
        try await MaskedWebSocketClient.connect(host: String(gateway[..<colon]), port: port, path: "/v1/apps/\(app)/video", body)
    }

    // MARK: The head unit and the services

    /// The driver activates the way's app (SDL.ActivateApp); returns once the app was told FULL.
    func activate(_ way: Way) async throws {
        let answer = try await controlSend(.PUT, "/apps/\(appID(way))/hmi", ByteBuffer(string: #"{"hmiLevel":"FULL"}"#))
        guard answer.status == 200 else {
            throw BenchFailure(description: "activating \(appID(way)) answered \(answer.status): \(String(buffer: answer.body))")
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while try await level(way) != "FULL" {
            guard ContinuousClock.now < deadline else {
                throw BenchFailure(description: "video: the \(way) app is not in FULL 10 s after the head unit activated it")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func level(_ way: Way) async throws -> String? {
        if way == .raw { return raw.connection?.tracker.hmiStatus?.hmiLevel.rawValue }
        return (try? SDLJSON.parse(try await gatewaySend(.GET, "/v1/apps/\(app)", nil).body))?["hmiLevel"]?.stringValue
    }

    func start(_ way: Way) async throws {
        if way == .raw {
            _ = try await raw.startStreaming(.video, format: Self.format)
            return
        }
        let answer = try await gatewaySend(.PUT, "/v1/apps/\(app)/video", ByteBuffer(string: #"{"codec":"H264","protocol":"RAW"}"#))
        guard answer.status == 200 else {
            throw BenchFailure(description: "PUT /v1/apps/\(app)/video answered \(answer.status): \(String(buffer: answer.body))")
        }
    }

    func end(_ way: Way) async throws {
        if way == .raw {
            try await raw.endStreaming(.video)
            return
        }
        let answer = try await gatewaySend(.DELETE, "/v1/apps/\(app)/video", nil)
        guard answer.status == 204 else {
            throw BenchFailure(description: "DELETE /v1/apps/\(app)/video answered \(answer.status): \(String(buffer: answer.body))")
        }
    }

    /// The payload bytes the head unit received on the app's video service, in all.
    func received(_ way: Way) async throws -> Int {
        let answer = try await controlSend(.GET, "/apps/\(appID(way))", nil)
        guard answer.status == 200, let app = try? SDLJSON.parse(answer.body) else {
            throw BenchFailure(description: "GET /apps/\(appID(way)) answered \(answer.status): \(String(buffer: answer.body))")
        }
        return Int(app["streams"]?["video"]?["bytes"]?.intValue ?? 0)
    }

    /// Polls the head unit's count until it is `total`; more, or not there within 30 s, fails.
    func waitUntilReceived(_ way: Way, _ total: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let count = try await received(way)
            if count == total { return }
            guard count < total, ContinuousClock.now < deadline else {
                throw BenchFailure(description: "video \(way): the head unit received \(count) bytes in all, \(total) were expected")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The head unit's kept bytes equal the end of `stream`.
    func checkKept(_ way: Way, _ stream: ByteBuffer) async throws {
        let answer = try await controlSend(.GET, "/apps/\(appID(way))/video.h264", nil)
        // The kept bytes may begin with an earlier measurement's when this one sent fewer.
        let compared = min(answer.body.readableBytes, stream.readableBytes)
        guard answer.status == 200, compared > 0,
            answer.body.readableBytesView.suffix(compared).elementsEqual(stream.readableBytesView.suffix(compared))
        else {
            throw BenchFailure(
                description:
                    "video \(way): the head unit's last \(compared) bytes (video.h264, \(answer.status)) are not the end of the \(stream.readableBytes) bytes sent"
            )
        }
    }
}
