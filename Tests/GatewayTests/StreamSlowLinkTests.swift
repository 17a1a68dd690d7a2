import Foundation
import Gateway
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOCore
@testable import SDLClient  // the link's write gate and buffered bytes
import SDLProtocol
import Synchronization
import TestSupport
import Testing

/// A slow head-unit link through the gateway (README "Projection", memory stays bounded): a
/// client offers 64 MiB of video as fast as its socket takes it, over a WebSocket or a streamed
/// POST, to an app whose head unit reads nothing. The gateway must stop reading the client, so
/// that the bytes wait in the client and the kernel, not in the gateway; once the head unit reads
/// again, the stream completes intact.
///
/// What the gateway holds is measured, not assumed, at every step the client's socket makes and
/// once the client is stalled: the bytes the client's socket took (``SlowLinkClient``), less those
/// the kernel holds on the client's connection (the client's unsent bytes and the gateway's unread
/// ones, from `/proc/net/tcp`), less those the gateway framed for the head unit, plus those framed
/// but still in the head-unit link's channel. Read in the order the bytes move, so that bytes
/// moving meanwhile make a sample smaller, never larger; stalled, nothing moves and the sample is
/// exact (but for the client's frame headers, which it counts as the gateway's). Stalled means:
/// the head-unit link pushed back (its write gate suspended a sender), and then the client's
/// socket took nothing for ``stillness``, each wait ending at the socket's next step.
///
/// One test at a time (`.serialized`), so that one's stream does not slow the other's.
/// Real time (`timeScale: 1`): a head unit that reads nothing for seconds must not look dead to
/// either side.
@Suite(
    "Projection: a slow head-unit link does not grow the gateway's memory", .serialized, .timeLimit(.minutes(3)),
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/net/tcp"), "reads the kernel's socket queues (Linux)")
)
struct StreamSlowLinkTests {
    typealias H = GatewayHarness
    typealias S = StreamRoutesTests
    typealias C = SlowLinkClient

    /// More than the loopback connections' kernel buffers take (autotuned up to `tcp_rmem`'s
    /// maximum, 32 MiB on some systems), so that the client stalls before the end.
    static let total = 64 << 20
    /// What the gateway may hold with messages of `size`: the body parts NIO reads ahead of the
    /// route (`NIOAsyncChannel`'s high watermark, 10, and one read's worth), the message being
    /// sent (and its unmasked copy), the link channel's high-water mark and one batch of SDL
    /// frames, and 1 MiB to spare. A WebSocket holds less: its forwarder hands frames to the link
    /// as they are decoded and stops reading while the link is full (``WebSocketStreamForwarder``).
    static func bound(messageSize size: Int) -> Int { 13 * size + (1 << 20) }
    /// No byte taken by the client's socket for this long, once the head unit pushed back: stalled.
    static let stillness = Duration.seconds(1)

    /// Message `index`, the size of `block`: the block with the message's number in its first
    /// 4 bytes, so that a lost, doubled or reordered message shows.
    static func message(_ index: Int, block: ByteBuffer) -> ByteBuffer {
        var message = ByteBuffer()
        message.reserveCapacity(block.readableBytes)
        message.writeInteger(UInt32(index))
        message.writeImmutableBuffer(block.getSlice(at: 4, length: block.readableBytes - 4)!)
        return message
    }

    /// How the client sends the stream.
    enum Way: Sendable, CustomStringConvertible {
        case webSocket
        case streamedPost

        var description: String { self == .webSocket ? "WebSocket" : "streamed POST" }
    }

    /// What the samples found.
    struct Measure {
        /// What the gateway held at each sample; the last once nothing moved (when stalled).
        var held: [Int] = []
        /// The bytes the client's socket had taken at the stall, and those the kernel held then.
        var written = 0
        var kernel = 0
        /// The most the head-unit link's channel held.
        var linkBuffered = 0
        var stalled = false
    }

    @Test(
        "A WebSocket client offers 64 MiB in 64 KiB messages to a head unit that stops reading: the gateway holds under 2 MiB; the stream then completes intact"
    )
    func webSocketStalls() async throws {
        try await Self.stall(.webSocket, messageSize: 64 * 1024)
    }

    @Test(
        "A streamed POST offers 64 MiB in 64 KiB writes to a head unit that stops reading: the gateway holds under 2 MiB; the stream then completes intact"
    )
    func streamedPostStalls() async throws {
        try await Self.stall(.streamedPost, messageSize: 64 * 1024)
    }

    @Test(
        "A WebSocket client offers 64 MiB in 1 MiB messages, the largest a WebSocket message may be: the gateway holds under 14 MiB; the stream then completes intact"
    )
    func largeMessagesStall() async throws {
        try await Self.stall(.webSocket, messageSize: 1 << 20)
    }

    static func stall(_ way: Way, messageSize: Int) async throws {
        let pause = ReadPause()
        let tap = WireTap(hooks: WireTap.Hooks(beforeRead: { await pause.waitWhilePaused() }))
        try await H.withGateway(mode: .live, timeScale: 1, through: tap) { client, _, apps in
            try await startVideo(client, apps: apps)
            let connection = try #require(apps.session("nav").connection)
            let gate = try #require(connection.writeGate)
            let port = try #require(client.port)
            let block = S.bytes(messageSize, seed: 11)
            let progress = SocketProgress()
            pause.pause()
            let measure = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { progress.finish() }
                    switch way {
                    case .webSocket: try await sendWebSocket(port: port, block: block, progress: progress)
                    case .streamedPost: try await sendPost(port: port, block: block, progress: progress)
                    }
                }
                let measure = try await measureUntilStalled(port: port, connection: connection, gate: gate, progress: progress)
                pause.resume()
                try await group.waitForAll()
                return measure
            }
            #expect(measure.stalled, "\(way): the client never stalled (it sent \(measure.written) of \(Self.total) bytes)")
            #expect(gate.suspensions >= 1, "\(way): the head-unit link never pushed back")
            #expect(try apps.session("nav").connection === connection, "\(way): the head-unit link was lost while it read nothing")
            let stalled = measure.held.last ?? 0
            let most = measure.held.max() ?? 0
            // The figures, for the README (SDL_TEST_LOG_LEVEL=info shows them).
            Logger.test("slow-link").info(
                "\(way): the gateway held at most \(most) bytes, \(stalled) stalled; the client's socket had taken \(measure.written), the kernel held \(measure.kernel); the link's channel at most \(measure.linkBuffered)"
            )
            #expect(
                most <= Self.bound(messageSize: messageSize),
                "\(way): the gateway held up to \(most) bytes, \(stalled) stalled (the client's socket had taken \(measure.written), the kernel held \(measure.kernel))"
            )
            // Its high-water mark, then one batch of a streamed POST, or what the WebSocket's
            // forwarder lets be in flight and one message (handed over whole), and 128 KiB to spare.
            // The forwarder holds the WebSocket's reads, so the frames of the read cycle under way
            // still come: NIO's defaults, 4 reads of at most 64 KiB (a CI run under load held
            // 487,216 bytes with 64 KiB messages, over the 393,216 this bound had without them).
            let readCycle = 4 * 64 * 1024
            let linkBound =
                64 * 1024 + 128 * 1024
                + (way == .webSocket
                    ? SDLConnection.forwardedBytesInFlight + messageSize + readCycle : SDLConnection.streamBatchBytes)
            #expect(measure.linkBuffered <= linkBound, "\(way): the link's channel held \(measure.linkBuffered)")
            try await checkReceived(client, block: block)
        }
    }

    /// Creates app "nav" (NAVIGATION) and starts its video once its events say it is in FULL.
    static func startVideo(_ client: any TestClientProtocol, apps: GatewayApps) async throws {
        try await S.createNavigationApp(client, waitForFull: false)
        // The replay from the start and the live events that follow: the simulator activates new apps.
        let levels = Mutex<[String]>([])
        _ = try await client.ws("/v1/apps/nav/events?since=0&types=hmiStatus") { inbound, _, _ in
            var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            let events = try await LiveEventTests.read(&messages) { $0["data"]?["hmiLevel"] == "FULL" }
            levels.withLock { $0 = events.compactMap { $0["data"]?["hmiLevel"]?.stringValue } }
        }
        let seen = levels.withLock { $0 }
        try #require(seen.last == "FULL", "the app's levels: \(seen)")
        let (started, state) = try await S.request(client, .put, "/v1/apps/nav/video", [:])
        let level = try apps.session("nav").connection?.tracker.hmiStatus
        try #require(
            started == .ok,
            "the start was refused after the events said FULL (\(seen)): \(state.map { "\($0)" } ?? ""); the link's HMI status: \(String(describing: level))"
        )
    }

    /// Samples what the gateway holds at every step the client's socket makes, until the head
    /// unit has pushed back and then the socket took nothing for ``stillness`` (stalled), or the
    /// client finished (it was never held back), or a minute passed.
    static func measureUntilStalled(
        port: Int, connection: SDLConnection, gate: SDLWriteGate, progress: SocketProgress
    ) async throws -> Measure {
        var measure = Measure()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while true {
            let written = try await sample(&measure, port: port, connection: connection, progress: progress)
            if progress.finished { return measure }
            let pushedBack = gate.suspensions >= 1
            let moved = await progress.moved(from: written, within: stillness)
            if !moved && pushedBack {
                // Nothing moves now: this sample is exact.
                _ = try await sample(&measure, port: port, connection: connection, progress: progress)
                measure.stalled = true
                return measure
            }
            if clock.now > deadline {
                Issue.record("the client neither stalled nor finished in a minute: it sent \(written) bytes")
                return measure
            }
        }
    }

    /// One sample of what the gateway holds, read in the order the bytes move; the client's bytes then.
    static func sample(_ measure: inout Measure, port: Int, connection: SDLConnection, progress: SocketProgress) async throws -> Int {
        let written = progress.written
        let kernel = try C.kernelQueued(port: port)
        let framed = connection.streamingStatus(.video)?.bytes ?? 0
        let buffered = try await connection.bufferedWritableBytes()
        measure.held.append(written - kernel - framed + buffered)
        measure.linkBuffered = max(measure.linkBuffered, buffered)
        (measure.written, measure.kernel) = (written, kernel)
        return written
    }

    /// Upgrades, sends ``total`` bytes as binary messages, closes; expects the gateway's close
    /// answer (it never ended the stream on its side). Pings are answered, in case a stall outlasts
    /// the gateway's ping period.
    static func sendWebSocket(port: Int, block: ByteBuffer, progress: SocketProgress) async throws {
        try await C.connect(port: port, counting: progress).executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: RawConnection.get("/v1/apps/nav/video", RawConnection.webSocketUpgrade)))
            var reader = inbound.makeAsyncIterator()
            var rest = ByteBuffer()
            var headLength: Int?
            while headLength == nil, var bytes = try await reader.next() {
                rest.writeBuffer(&bytes)
                headLength = rest.readableBytesView.firstRange(of: "\r\n\r\n".utf8).map { $0.upperBound - rest.readerIndex }
            }
            let head = rest.readString(length: try #require(headLength, "no answer to the upgrade")) ?? ""
            try #require(head.hasPrefix("HTTP/1.1 101"), "\(head)")
            let close: (fin: Bool, opcode: UInt8, payload: ByteBuffer)? = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for index in 0..<(Self.total / block.readableBytes) {
                        try await outbound.write(C.frame(opcode: 0x2, Self.message(index, block: block)))
                    }
                    try await outbound.write(C.frame(opcode: 0x8, ByteBuffer(bytes: [0x03, 0xE8])))
                }
                // Reads the gateway's frames until its close: pongs to its pings.
                while true {
                    while let frame = C.readServerFrame(&rest) {
                        if frame.opcode == 0x9 { try await outbound.write(C.frame(opcode: 0xA, frame.payload)) }
                        if frame.opcode == 0x8 {
                            // The gateway's close: the answer to the client's, or an early one, which the writes need not outlive.
                            if !frame.payload.readableBytesView.starts(with: [0x03, 0xE8]) { group.cancelAll() }
                            try? await group.waitForAll()
                            return frame
                        }
                    }
                    guard var bytes = try await reader.next() else { break }
                    rest.writeBuffer(&bytes)
                }
                try await group.waitForAll()
                return nil
            }
            let code = close.flatMap { $0.payload.getInteger(at: $0.payload.readerIndex, as: UInt16.self) }
            let reason = close.flatMap { $0.payload.getString(at: $0.payload.readerIndex + 2, length: $0.payload.readableBytes - 2) }
            #expect(code == 1000, "the gateway closed with \(code.map(String.init) ?? "nothing"): \(reason ?? "")")
        }
    }

    /// POSTs ``total`` bytes as one body (Content-Length) in writes the size of `block`; expects 200
    /// with the bytes counted.
    static func sendPost(port: Int, block: ByteBuffer, progress: SocketProgress) async throws {
        try await C.connect(port: port, counting: progress).executeThenClose { inbound, outbound in
            let head = [
                "POST /v1/apps/nav/video/stream HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/octet-stream",
                "Content-Length: \(Self.total)", "Connection: close",
            ]
            try await outbound.write(ByteBuffer(string: head.joined(separator: "\r\n") + "\r\n\r\n"))
            for index in 0..<(Self.total / block.readableBytes) { try await outbound.write(Self.message(index, block: block)) }
            var answer = ""
            for try await bytes in inbound { answer += String(buffer: bytes) }
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            #expect(answer.contains(#""bytes":\#(Self.total)"#), "\(answer)")
        }
    }

    /// Every byte went on once the head unit read again: the count, and the simulator's kept tail
    /// is the last messages in order. The client's answer came once the route had passed its last
    /// message on, and EndService follows the data on the link, so nothing is waited for.
    static func checkReceived(_ client: any TestClientProtocol, block: ByteBuffer) async throws {
        #expect(try await S.request(client, .get, "/v1/apps/nav/video").1?["bytes"]?.intValue == Int64(Self.total))
        #expect(try await S.request(client, .delete, "/v1/apps/nav/video").0 == .noContent)
        let (_, kept, bytes, _) = try await S.received(client)
        #expect(bytes == Self.total)
        let count = Self.total / block.readableBytes
        let keptMessages = kept.readableBytes / block.readableBytes
        var expected = ByteBuffer()
        for index in (count - keptMessages)..<count { expected.writeImmutableBuffer(Self.message(index, block: block)) }
        #expect(kept.readableBytes > 0 && kept.readableBytes % block.readableBytes == 0, "kept \(kept.readableBytes)")
        #expect(kept == expected, "the head unit's last bytes are the last messages, in order")
    }
}
