import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import ProcessHarness
import SDLProtocol
import Synchronization

/// `audio`: `clients` WebSocket clients follow one app's `audioPassThru` events while the head
/// unit records `seconds` of 16 kHz 16-bit PCM (`POST …/audio-pass-thru`, in real time): the PCM
/// bytes each client got per second of the recording, the bytes its messages took on the wire,
/// and whether every client's audio is the WAV file's, byte for byte. Once with base64 in the
/// events, once with `?audio=binary`.
struct AudioScenario {
    /// The gateway (`host:port`) and its app.
    let gateway: String
    let app: String
    let seconds: Double

    struct Figures {
        var mode: String
        var clients: Int
        var seconds: Double
        /// From the POST to its answer.
        var wallSeconds: Double
        /// Chunks the head unit sent (the recording's) and the fewest any client got.
        var chunks: Int
        var fewestChunks: Int
        /// PCM and wire bytes over all clients.
        var pcmBytes: Int
        var wireBytes: Int
        /// Every client's PCM equals the WAV file's data.
        var intact: Bool

        var pcmBytesPerSecond: Double { wallSeconds > 0 ? Double(pcmBytes) / wallSeconds : 0 }
        var wireBytesPerSecond: Double { wallSeconds > 0 ? Double(wireBytes) / wallSeconds : 0 }
    }

    private final class Received: Sendable {
        let state = Mutex<(pcm: [UInt8], wire: Int, chunks: Int)>(([], 0, 0))
    }

    /// One run with `clients` clients; `binary` asks for `?audio=binary`. `send` is an HTTP
    /// client of the gateway.
    func run(clients: Int, binary: Bool, send: HTTPKeepAliveClient.Send) async throws -> Figures {
        let expected = Int((seconds * 10).rounded(.up))
        let subscribed = BenchSignal()
        let finished = BenchSignal()
        var logger = Logger(label: "sdl-gateway-bench.audio")
        logger.logLevel = .critical
        let url = "ws://\(gateway)/v1/apps/\(app)/events?types=audioPassThru\(binary ? "&audio=binary" : "")"
        let received = (0..<clients).map { _ in Received() }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for client in received {
                group.addTask { [logger] in
                    try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
                        // The filter's reply comes once the client is subscribed.
                        try await outbound.write(.text(#"{"filter":{"types":["audioPassThru"]}}"#))
                        var isSubscribed = false
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            switch message {
                            case .text(let text):
                                guard isSubscribed else {
                                    if text.contains("\"filter\"") { isSubscribed = true; await subscribed.add() }
                                    continue
                                }
                                let event = try SDLJSON.parse(text)
                                let audio = event["data"]?["audio"]?.stringValue.flatMap { Data(base64Encoded: $0) }
                                let done = client.state.withLock { state in
                                    state.wire += text.utf8.count
                                    state.chunks += 1
                                    if let audio { state.pcm += audio }
                                    return audio != nil && state.chunks >= expected
                                }
                                if done { break }
                            case .binary(let bytes):
                                let done = client.state.withLock { state in
                                    state.wire += bytes.readableBytes
                                    state.pcm += bytes.readableBytesView
                                    return state.chunks >= expected
                                }
                                if done { break }
                            }
                        }
                        await finished.add()
                        try await outbound.close(.normalClosure, reason: nil)
                    }
                }
            }
            defer { group.cancelAll() }
            guard await subscribed.wait(for: clients, until: .now + .seconds(60)) else {
                throw BenchFailure(
                    description: "audio: only \(await subscribed.value) of \(clients) WebSocket clients subscribed within 60 s")
            }
            let started = ContinuousClock.now
            let answer = try await send(.POST, "/v1/apps/\(app)/audio-pass-thru", ByteBuffer(string: #"{"seconds":\#(seconds)}"#))
            let wall = (ContinuousClock.now - started).seconds
            guard answer.status == 200, let recording = (try? SDLJSON.parse(answer.body))?["recording"] else {
                throw BenchFailure(description: "POST …/audio-pass-thru answered \(answer.status): \(String(buffer: answer.body))")
            }
            let wav = try await send(.GET, "/v1/apps/\(app)/audio-pass-thru/last.wav", nil)
            let pcm = Array(wav.body.readableBytesView.dropFirst(44))
            _ = await finished.wait(for: clients, until: .now + .seconds(10))
            let states = received.map { $0.state.withLock { $0 } }
            return Figures(
                mode: binary ? "binary" : "base64", clients: clients, seconds: seconds, wallSeconds: wall,
                chunks: Int(recording["chunks"]?.intValue ?? 0), fewestChunks: states.map(\.chunks).min() ?? 0,
                pcmBytes: states.reduce(0) { $0 + $1.pcm.count }, wireBytes: states.reduce(0) { $0 + $1.wire },
                intact: !pcm.isEmpty && states.allSatisfy { $0.pcm == pcm }
            )
        }
    }
}
