@testable import HeadlessHMI
import HeadUnitModel
import NIOCore
import SDLClient
import SDLTime
import TestSupport
import Testing

@Suite("The headless HMI's stream relay and Core socket reader", .timeLimit(.minutes(1)))
struct HMIStreamRelayTests {
    static func chunks(_ queue: SDLDropQueue<StreamPiece, HMIStreamRelay.Loss>) -> [StreamPiece] {
        var taken: [StreamPiece] = []
        while case .element(let chunk) = queue.poll() { taken.append(chunk) }
        return taken
    }

    @Test("A reader that does not keep up loses the newest bytes and gets one gap with their count; the bytes it has stay in order")
    func slowReaderGetsGap() throws {
        let relay = HMIStreamRelay(maximumBufferedBytes: 1000, maximumBufferedChunks: 100)
        let reader = relay.subscribe(appID: 1, kind: .video)
        defer { reader.cancel() }
        for index in 0..<10 { relay.publish(appID: 1, kind: .video, ByteBuffer(repeating: UInt8(index), count: 300)) }
        let taken = Self.chunks(reader.queue)
        #expect(taken.count == 4)
        #expect(Array(taken.prefix(3)) == ([0, 1, 2] as [UInt8]).map { StreamPiece.bytes(ByteBuffer(repeating: $0, count: 300)) })
        #expect(taken.last == .gap(2100))
        relay.publish(appID: 1, kind: .video, ByteBuffer(bytes: [42]))
        #expect(Self.chunks(reader.queue) == [.bytes(ByteBuffer(bytes: [42]))])
        #expect(relay.bytesRead(appID: 1, kind: .video) == 3001)
        #expect(relay.readers(appID: 1, kind: .video) == 1 && relay.readers(appID: 1, kind: .audio) == 0)
    }

    @Test("The reader connects to Core's socket consumer, takes off its HTTP head and relays the frames' bytes intact and in order")
    func readsCoreSocket() async throws {
        let streamer = try await FakeCoreStreamer.bind()
        let relay = HMIStreamRelay()
        let reader = relay.subscribe(appID: 9, kind: .video)
        defer { reader.cancel() }
        let frames = (0..<50).map { index in
            ByteBuffer(bytes: (0..<(1000 + index * 37)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) })
        }
        let source = try #require(HMIStreamSource(appID: 9, kind: .video, url: streamer.url))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await streamer.serveOne(frames: frames) }
            try await HMIStreamReader(source: source, relay: relay).run(clock: SDLSystemClock()) { _ in }
            try await group.waitForAll()
        }
        var received = ByteBuffer()
        for chunk in Self.chunks(reader.queue) {
            guard case .bytes(var bytes) = chunk else { Issue.record("a gap: \(chunk)"); continue }
            received.writeBuffer(&bytes)
        }
        var expected = ByteBuffer()
        for var frame in frames { expected.writeBuffer(&frame) }
        #expect(received == expected)
    }

    @Test("Core's HTTP head is taken off however the reads split it; a stream without one is relayed whole")
    func headSplitAnyhow() {
        let head = Array(FakeCoreStreamer.head.utf8)
        let stream = head + [0, 0, 0, 1, 0x67, 0x42]
        for split in [1, 5, head.count - 2, head.count, head.count + 3] {
            var skipper = HMIStreamReader.HeadSkipper()
            var body: [UInt8] = []
            for piece in [Array(stream[..<split]), Array(stream[split...])] {
                if let bytes = skipper.body(after: ByteBuffer(bytes: piece)) { body += Array(bytes.readableBytesView) }
            }
            #expect(body == [0, 0, 0, 1, 0x67, 0x42], "split at \(split)")
        }
        var raw = HMIStreamReader.HeadSkipper()
        #expect(raw.body(after: ByteBuffer(bytes: [0, 0, 0, 1])) == ByteBuffer(bytes: [0, 0, 0, 1]))
    }

    @Test("An http url names a socket to read; paths and other urls do not")
    func sources() {
        #expect(
            HMIStreamSource(appID: 1, kind: .video, url: "http://127.0.0.1:5050")
                == HMIStreamSource(appID: 1, kind: .video, host: "127.0.0.1", port: 5050))
        #expect(HMIStreamSource(appID: 1, kind: .video, url: "http://[::1]:5050/")?.host == "::1")
        #expect(HMIStreamSource(appID: 1, kind: .video, url: "storage/video_stream_file") == nil)
        #expect(HMIStreamSource(appID: 1, kind: .video, url: "http://127.0.0.1") == nil)
        #expect(HMIStreamSource(appID: 1, kind: .video, url: "http://127.0.0.1:99999") == nil)
    }
}
