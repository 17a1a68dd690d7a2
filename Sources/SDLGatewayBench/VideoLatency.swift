import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import ProcessHarness
import SDLClient
import SDLProtocol

extension VideoScenario {
    /// Sends `payload`'s frames one way (`raw` or `ws`), one every `interval`, and times each from
    /// just before it is sent to the arrival of its last byte on the head unit's live feed
    /// (`GET /apps/{appID}/video` upgraded, on the simulator's control API), which sends what the
    /// head unit receives as it receives it: frame `i` has arrived once the feed has delivered
    /// `(i + 1) × frame size` bytes. The first `warmUp` frames are sent but not counted.
    func latency(_ way: Way, _ payload: VideoPayload, interval: Duration, warmUp: Int) async throws -> [Duration] {
        precondition(way != .post, "a POST body has no messages to time")
        try await activate(way)
        try await start(way)
        let frameSize = payload.frames.first?.readableBytes ?? 0
        let count = payload.frames.count
        let sent = Shared<[ContinuousClock.Instant]>([])
        let arrived = Shared<[ContinuousClock.Instant]>([])
        let following = BenchSignal()
        let complete = BenchSignal()
        let url = "ws://\(control)/apps/\(appID(way))/video"
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var logger = Logger(label: "sdl-gateway-bench.video-feed")
                logger.logLevel = .critical
                try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: logger) {
                    inbound, outbound, _ in
                    await following.add()
                    var bytes = 0
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        let now = ContinuousClock.now
                        switch message {
                        case .binary(let piece): bytes += piece.readableBytes
                        // {"type":"gap","bytes":N}: bytes the feed could not keep up with (they arrived).
                        case .text(let text): bytes += Int((try? SDLJSON.parse(text))?["bytes"]?.intValue ?? 0)
                        }
                        let done = arrived.withLock { times in
                            while times.count < count && bytes >= (times.count + 1) * frameSize { times.append(now) }
                            return times.count == count
                        }
                        if done { break }
                    }
                    await complete.add()
                    try await outbound.close(.normalClosure, reason: nil)
                }
            }
            defer { group.cancelAll() }
            guard await following.wait(for: 1, until: .now + .seconds(10)) else {
                throw BenchFailure(description: "video latency: the head unit's live feed \(url) did not open within 10 s")
            }
            let clock = ContinuousClock()
            let paced: @Sendable (_ write: (ByteBuffer) async throws -> Void) async throws -> Void = { write in
                let first = clock.now
                for (index, frame) in payload.frames.enumerated() {
                    try await Task.sleep(until: first + interval * index, clock: clock)
                    sent.withLock { $0.append(clock.now) }
                    try await write(frame)
                }
            }
            switch way {
            case .raw: try await paced { _ = try await raw.sendStream(.video, $0) }
            default: try await webSocket { send in try await paced { try await send($0) } }
            }
            guard await complete.wait(for: 1, until: .now + .seconds(10)) else {
                throw BenchFailure(
                    description:
                        "video latency \(way): the head unit's feed delivered \(arrived.value.count) of \(count) frames within 10 s of the last"
                )
            }
            try await group.waitForAll()
        }
        try await end(way)
        return zip(sent.value, arrived.value).dropFirst(warmUp).map { $1 - $0 }
    }
}
