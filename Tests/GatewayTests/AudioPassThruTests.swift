import AsyncHTTPClient
import Foundation
import Gateway
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
import NIOHTTP1
import SDLProtocol
import Testing

/// Audio pass-thru end to end: the simulator's microphone (``AudioPassThruTone``) through the
/// gateway's session to `audioPassThru` events, `POST …/audio-pass-thru` and `last.wav`. The
/// simulator runs at a time scale of 0.1: a 2 s recording takes 200 ms, a chunk of 100 ms of
/// audio comes every 10 ms (320 KB/s at 16 kHz 16-bit; at the harness's usual 0.01 the suites
/// running beside these share their head-unit event loop with 3.2 MB/s of audio each).
@Suite("Audio pass-thru: chunks as events, the last recording as a WAV file", .timeLimit(.minutes(1)))
struct AudioPassThruTests {
    typealias H = GatewayHarness

    static let timeScale = 0.1

    /// 16 kHz, 16-bit: 1,600 samples, 3,200 bytes per 100 ms chunk.
    static let tone = AudioPassThruTone(sampleRate: 16000, bytesPerSample: 2)

    /// What the microphone sent as chunk `index` (from 1).
    static func sent(_ index: Int) -> ByteBuffer { tone.pcm(from: (index - 1) * 1600, count: 1600) }

    static func post(_ client: any TestClientProtocol, _ path: String, _ body: SDLJSON) async throws -> (HTTPResponse.Status, SDLJSON) {
        try await client.execute(uri: path, method: .post, headers: H.jsonHeaders, body: H.json(body)) { response in
            (response.status, try SDLJSON.parse(response.body))
        }
    }

    /// A POST on its own connection, for while the test client holds a WebSocket open.
    static func post(port: Int?, _ path: String, _ body: SDLJSON) async throws -> (HTTPResponse.Status, SDLJSON) {
        let port = try #require(port)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(H.json(body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (HTTPResponse.Status(code: Int(response.status.code)), try SDLJSON.parse(bytes))
    }

    /// `GET …/last.wav`: the status, the recording-state header and the body.
    static func lastWAV(_ client: any TestClientProtocol, app: String = "demo") async throws -> (HTTPResponse.Status, String?, ByteBuffer) {
        try await client.execute(uri: "/v1/apps/\(app)/audio-pass-thru/last.wav", method: .get) { response in
            (response.status, response.headers[HTTPField.Name("SDL-Recording-State")!], response.body)
        }
    }

    /// `GET …/last.wav` on its own connection, for while the test client holds a WebSocket open.
    static func lastWAV(port: Int?, app: String = "demo") async throws -> (HTTPResponse.Status, String?, ByteBuffer) {
        let port = try #require(port)
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/apps/\(app)/audio-pass-thru/last.wav"), timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 64 << 20)
        return (HTTPResponse.Status(code: Int(response.status.code)), response.headers.first(name: "SDL-Recording-State"), body)
    }

    /// The PCM of an `audioPassThru` event's base64 `audio`.
    static func audio(_ event: SDLJSON) -> ByteBuffer? {
        event["data"]?["audio"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { ByteBuffer(bytes: $0) }
    }

    /// Subscribes (a filter change, answered once the client is subscribed) so that no chunk
    /// can come before the subscription.
    static func subscribed(_ messages: inout WebSocketInboundMessageStream.AsyncIterator, _ outbound: WebSocketOutboundWriter) async throws
    {
        try await outbound.write(.text(#"{"filter":{"types":["audioPassThru"]}}"#))
        _ = try await LiveEventTests.read(&messages) { $0["filter"] != nil }
    }

    /// A WAV file's header fields and its data, checked against the format and `pcm`.
    static func expectWAV(_ file: ByteBuffer, equals pcm: ByteBuffer, rate: UInt32 = 16000, bits: UInt16 = 16) {
        var file = file
        #expect(file.readString(length: 4) == "RIFF")
        #expect(file.readInteger(endianness: .little, as: UInt32.self) == UInt32(36 + pcm.readableBytes))
        #expect(file.readString(length: 4) == "WAVE")
        #expect(file.readString(length: 4) == "fmt ")
        #expect(file.readInteger(endianness: .little, as: UInt32.self) == 16)
        #expect(file.readInteger(endianness: .little, as: UInt16.self) == 1, "format 1: PCM")
        #expect(file.readInteger(endianness: .little, as: UInt16.self) == 1, "mono")
        #expect(file.readInteger(endianness: .little, as: UInt32.self) == rate)
        #expect(file.readInteger(endianness: .little, as: UInt32.self) == rate * UInt32(bits / 8), "bytes per second")
        #expect(file.readInteger(endianness: .little, as: UInt16.self) == bits / 8, "block align")
        #expect(file.readInteger(endianness: .little, as: UInt16.self) == bits)
        #expect(file.readString(length: 4) == "data")
        #expect(file.readInteger(endianness: .little, as: UInt32.self) == UInt32(pcm.readableBytes))
        #expect(file == pcm, "the data chunk is the chunks' bytes in order")
    }

    @Test("Every chunk the microphone sends arrives in order with its bytes; the POST answers when it ends; last.wav holds them all")
    func chunksAndWAV() async throws {
        try await H.withGateway(mode: .live, timeScale: Self.timeScale) { client, _, _ in
            try await H.createApp(client)
            let (missing, _, _) = try await Self.lastWAV(client)
            #expect(missing == .notFound)
            _ = try await client.ws("/v1/apps/demo/events?types=audioPassThru") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await Self.subscribed(&messages, outbound)
                async let answer = Self.post(port: client.port, "/v1/apps/demo/audio-pass-thru", ["seconds": 2])
                let events = try await LiveEventTests.read(&messages) { $0["data"]?["chunk"] == 20 }
                let (status, body) = try await answer
                #expect(status == .ok, "\(body)")
                #expect(body["response"]?["resultCode"] == "SUCCESS")
                let recording = try #require(body["recording"])
                #expect(recording["chunks"] == 20)
                #expect(recording["bytes"] == 64000)
                #expect(recording["durationMs"] == 2000)
                #expect(recording["state"] == "ended")
                #expect(recording["wav"] == "/v1/apps/demo/audio-pass-thru/last.wav")

                #expect(events.map { $0["data"]?["chunk"]?.intValue } == (1...20).map { Int64($0) })
                let seqs = events.compactMap { $0["seq"]?.intValue }
                #expect(seqs == seqs.sorted() && Set(seqs).count == 20)
                var all = ByteBuffer()
                for (offset, event) in events.enumerated() {
                    #expect(event["type"] == "audioPassThru")
                    #expect(event["data"]?["format"] == ["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM"])
                    #expect(event["data"]?["bytes"] == 3200)
                    var chunk = try #require(Self.audio(event))
                    #expect(SDLCRC32.checksum(chunk) == SDLCRC32.checksum(Self.sent(offset + 1)), "chunk \(offset + 1)")
                    all.writeBuffer(&chunk)
                }
                let (wavStatus, state, file) = try await Self.lastWAV(port: client.port)
                #expect(wavStatus == .ok)
                #expect(state == "ended")
                Self.expectWAV(file, equals: all)
            }
        }
    }

    @Test("?audio=binary: each chunk's event without audio, then its bytes as one binary message, the same bytes")
    func binaryWebSocket() async throws {
        try await H.withGateway(mode: .live, timeScale: Self.timeScale) { client, _, _ in
            try await H.createApp(client)
            _ = try await client.ws("/v1/apps/demo/events?types=audioPassThru&audio=binary") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await Self.subscribed(&messages, outbound)
                async let answer = Self.post(
                    port: client.port, "/v1/apps/demo/audio-pass-thru", ["seconds": 1, "samplingRate": "8KHZ", "bitsPerSample": "8_BIT"])
                let eightBit = AudioPassThruTone(sampleRate: 8000, bytesPerSample: 1)
                var header: SDLJSON?
                var received = 0
                while received < 10, let message = try await messages.next() {
                    switch message {
                    case .text(let text):
                        #expect(header == nil, "a header follows a binary message")
                        header = try SDLJSON.parse(text)
                        #expect(header?["data"]?["audio"] == nil)
                        #expect(header?["data"]?["format"]?["samplingRate"] == "8KHZ")
                    case .binary(let bytes):
                        let event = try #require(header, "a binary message follows its header")
                        received += 1
                        #expect(event["data"]?["chunk"]?.intValue == Int64(received))
                        #expect(event["data"]?["bytes"]?.intValue == Int64(bytes.readableBytes))
                        #expect(bytes == eightBit.pcm(from: (received - 1) * 800, count: 800), "chunk \(received)")
                        header = nil
                    }
                }
                #expect(received == 10)
                let (status, _) = try await answer
                #expect(status == .ok)
            }
        }
    }

    @Test("A replay (since=0) of binary audio decodes the kept base64: the same bytes")
    func binaryReplay() async throws {
        try await H.withGateway(mode: .live, timeScale: Self.timeScale) { client, _, _ in
            try await H.createApp(client)
            let (status, _) = try await Self.post(client, "/v1/apps/demo/audio-pass-thru", ["seconds": 0.3])
            #expect(status == .ok)
            _ = try await client.ws("/v1/apps/demo/events?types=audioPassThru&audio=binary&since=0") { inbound, _, _ in
                var chunks: [ByteBuffer] = []
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    if case .binary(let bytes) = message { chunks.append(bytes) }
                    if chunks.count == 3 { break }
                }
                #expect(chunks == (1...3).map(Self.sent))
            }
        }
    }

    @Test("The raw RPC records too; EndAudioPassThru ends it early; last.wav is what arrived until then")
    func rawRPCEndedEarly() async throws {
        try await H.withGateway(mode: .live, timeScale: Self.timeScale) { client, _, _ in
            try await H.createApp(client)
            _ = try await client.ws("/v1/apps/demo/events?types=audioPassThru") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                try await Self.subscribed(&messages, outbound)
                // 100 s of audio: 10 s at this time scale, beyond what the test needs.
                let parameters: SDLJSON = ["samplingRate": "16KHZ", "bitsPerSample": "16_BIT", "audioType": "PCM", "maxDuration": 100_000]
                async let answer = Self.post(port: client.port, "/v1/apps/demo/rpc/PerformAudioPassThru", parameters)
                _ = try await LiveEventTests.read(&messages) { $0["data"]?["chunk"] == 3 }
                let (recordingState, runningState, _) = try await Self.lastWAV(port: client.port)
                #expect(recordingState == .ok)
                #expect(runningState == "recording")
                let (ended, _) = try await Self.post(port: client.port, "/v1/apps/demo/rpc/EndAudioPassThru", [:])
                #expect(ended == .ok)
                let (status, response) = try await answer
                #expect(status == .ok)
                #expect(response["resultCode"] == "SUCCESS")
                // The raw RPC's answer and the recording's end reach the gateway on two paths (the
                // response, and the app's event pump): last.wav says "ended" soon after, not at once.
                var (wavStatus, state, file) = try await Self.lastWAV(port: client.port)
                let deadline = ContinuousClock.now + .seconds(10)
                while state == "recording", ContinuousClock.now < deadline {
                    (wavStatus, state, file) = try await Self.lastWAV(port: client.port)
                }
                #expect(wavStatus == .ok)
                #expect(state == "ended")
                let chunks = (file.readableBytes - 44) / 3200
                #expect(chunks >= 3 && chunks < 1000 && (file.readableBytes - 44) % 3200 == 0)
                var pcm = ByteBuffer()
                for index in 1...max(chunks, 1) {
                    var chunk = Self.sent(index)
                    pcm.writeBuffer(&chunk)
                }
                Self.expectWAV(file, equals: pcm)
            }
        }
    }

    @Test("A client that reads nothing during a recording gets gap events: delivered chunks and missed ones add up to all")
    func slowClientGaps() async throws {
        let configuration = GatewayConfiguration(events: .init(ringCapacity: 1000, clientQueueCapacity: 4, maximumClients: 10))
        try await H.withGateway(configuration, mode: .live, timeScale: Self.timeScale) { client, _, apps in
            try await H.createApp(client)
            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["audioPassThru"]))
            defer { subscription.cancel() }
            let (status, body) = try await Self.post(client, "/v1/apps/demo/audio-pass-thru", ["seconds": 3])
            #expect(status == .ok)
            #expect(body["recording"]?["chunks"] == 30)
            var chunks: [Int64] = []
            var missed: UInt64 = 0
            var gaps = 0
            while chunks.count + Int(missed) < 30, let event = await subscription.queue.next() {
                if event.type == "gap" {
                    gaps += 1
                    missed += UInt64(event.data["missed"]?.intValue ?? 0)
                } else if let chunk = event.data["chunk"]?.intValue {
                    chunks.append(chunk)
                }
            }
            #expect(gaps > 0)
            #expect(chunks.count + Int(missed) == 30)
            #expect(chunks == chunks.sorted(), "what arrived is in order")
        }
    }

    @Test("Refusals: a bad body, both durations, audio=binary over SSE, an unknown audio value, a read token's POST")
    func refusals() async throws {
        try await H.withGateway { client, _, _ in
            try await H.createApp(client)
            #expect(try await Self.post(client, "/v1/apps/demo/audio-pass-thru", ["seconds": 0]).0 == .badRequest)
            #expect(try await Self.post(client, "/v1/apps/demo/audio-pass-thru", ["seconds": 1, "maxDuration": 1000]).0 == .badRequest)
            #expect(try await Self.post(client, "/v1/apps/demo/audio-pass-thru", ["samplingRate": "96KHZ"]).0 == .unprocessableContent)
            #expect(try await Self.post(client, "/v1/apps/nobody/audio-pass-thru", [:]).0 == .notFound)
            let (missing, _, _) = try await Self.lastWAV(client, app: "nobody")
            #expect(missing == .notFound)
            try await client.execute(uri: "/v1/apps/demo/events?audio=binary", method: .get, headers: [.accept: "text/event-stream"]) {
                response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/v1/apps/demo/events?audio=mp3", method: .get, headers: [.accept: "text/event-stream"]) {
                response in
                #expect(response.status == .badRequest)
            }
        }
    }

    @Test("A read token may fetch last.wav but not record")
    func readToken() async throws {
        let configuration = GatewayConfiguration(tokens: ["reader": .read, "driver": .control])
        try await H.withGateway(configuration) { client, _, _ in
            try await H.createApp(client, headers: [.authorization: "Bearer driver"])
            var headers = H.jsonHeaders
            headers[.authorization] = "Bearer reader"
            try await client.execute(uri: "/v1/apps/demo/audio-pass-thru", method: .post, headers: headers, body: H.json([:])) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(
                uri: "/v1/apps/demo/audio-pass-thru/last.wav", method: .get, headers: [.authorization: "Bearer reader"]
            ) { response in
                #expect(response.status == .notFound, "allowed, and nothing recorded")
            }
            try await client.execute(uri: "/v1/apps/demo/audio-pass-thru/last.wav", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }
}
