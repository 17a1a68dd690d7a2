import Foundation
import Gateway
import HTTPTypes
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import NIOCore
@testable import SDLClient  // the link's write gate and buffered bytes
import SDLProtocol
import Synchronization
import TestSupport
import Testing

/// A slow head-unit link through the gateway (README "Projection", memory stays bounded): a
/// client sends video as fast as it can to an app whose head unit stops reading. The gateway
/// must stop reading the client, so that the bytes wait in the client and the kernel, not in the
/// gateway; once the head unit reads again, the stream completes intact.
///
/// What the gateway holds is measured, not assumed: the bytes the client handed to its socket,
/// less those the kernel holds on the client's connection (the client's unsent bytes and the
/// gateway's unread ones, from `/proc/net/tcp`), less those the gateway framed for the head unit,
/// plus those framed but still in the head-unit link's channel. A route that read messages ahead
/// into a queue would hold most of the 16 MiB. (Whether the client's own writes stall before the
/// end depends on how much the kernel takes: with Linux's autotuned loopback buffers, up to
/// `tcp_rmem`'s maximum, often more than the stream.)
@Suite(
    "Projection: a slow head-unit link does not grow the gateway's memory", .timeLimit(.minutes(2)),
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/net/tcp"), "reads the kernel's socket queues (Linux)"),
    .disabled(
        "not yet reliable: at real time (needed so that a paused head unit does not look dead) the app is sometimes still in NONE when the video is started through the tap; see the known issue below for what it found"
    )
)
struct StreamSlowLinkTests {
    typealias H = GatewayHarness
    typealias S = StreamRoutesTests

    static let messageSize = 64 * 1024
    static let total = 16 << 20
    /// What the gateway may hold: the WebSocket's inbound frames Hummingbird reads ahead (its
    /// high watermark of frames), the message being sent, the link channel's high-water mark and
    /// one batch of frames, and the client's own channel buffer, which the measure cannot tell
    /// from the gateway's (NIO's high-water mark and one message).
    static let bound = 2 << 20

    /// Message `index`: a block whose first 4 bytes are the message's number, so that a lost,
    /// doubled or reordered message shows.
    static func message(_ index: Int, block: ByteBuffer) -> ByteBuffer {
        var message = ByteBuffer()
        message.reserveCapacity(messageSize)
        message.writeInteger(UInt32(index))
        message.writeImmutableBuffer(block.getSlice(at: 4, length: messageSize - 4)!)
        return message
    }

    /// A client's WebSocket frame (RFC 6455 §5.2): FIN, `opcode`, masked with the key 0 (which
    /// leaves the payload as it is), the length in the form its size needs.
    static func frame(opcode: UInt8, _ payload: ByteBuffer) -> ByteBuffer {
        var frame = ByteBuffer()
        frame.writeInteger(0x80 | opcode)
        switch payload.readableBytes {
        case ..<126: frame.writeInteger(0x80 | UInt8(payload.readableBytes))
        case ..<65_536:
            frame.writeInteger(UInt8(0x80 | 126))
            frame.writeInteger(UInt16(payload.readableBytes))
        default:
            frame.writeInteger(UInt8(0x80 | 127))
            frame.writeInteger(UInt64(payload.readableBytes))
        }
        frame.writeInteger(UInt32(0))
        frame.writeImmutableBuffer(payload)
        return frame
    }

    /// The bytes the kernel holds on the established loopback connections to `port`: the unsent
    /// or unacknowledged bytes of each client side (`tx_queue`) and the unread bytes of each
    /// server side (`rx_queue`), from `/proc/net/tcp` and `/proc/net/tcp6` (`localhost` may be either).
    static func kernelQueued(port: Int) throws -> Int {
        var table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
        if let six = try? String(contentsOfFile: "/proc/net/tcp6", encoding: .utf8) { table += "\n" + six }
        var total = 0
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[3] == "01" else { continue }  // ESTABLISHED
            let local = fields[1].split(separator: ":")  // address:port, in hex
            let remote = fields[2].split(separator: ":")
            let queues = fields[4].split(separator: ":")
            guard local.count == 2, remote.count == 2, queues.count == 2, let localPort = Int(local[1], radix: 16),
                let remotePort = Int(remote[1], radix: 16), let unsent = Int(queues[0], radix: 16), let unread = Int(queues[1], radix: 16)
            else { continue }
            if remotePort == port { total += unsent }
            if localPort == port { total += unread }
        }
        return total
    }

    /// What the client has handed to its socket.
    final class Progress: Sendable {
        let accepted = Atomic<Int>(0)
    }

    @Test(
        "A WebSocket client sends 16 MiB in 64 KiB messages to a head unit that stops reading: its bytes wait in the kernel while the gateway holds under 2 MiB; the stream then completes intact"
    )
    func webSocketStalls() async throws {
        let pause = ReadPause()
        let tap = WireTap(hooks: WireTap.Hooks(beforeRead: { await pause.waitWhilePaused() }))
        // Real time: a head unit that reads nothing for seconds must not look dead to either side.
        try await H.withGateway(mode: .live, timeScale: 1, through: tap) { client, _, apps in
            try await S.createNavigationApp(client)
            // The app may still be on its way to FULL at real time: the start is refused until then.
            var (started, state) = try await S.request(client, .put, "/v1/apps/nav/video", [:])
            for _ in 0..<100 where started == .conflict && state?["type"] == "urn:sdl-gateway:problem:streaming-not-allowed" {
                try await Task.sleep(for: .milliseconds(50))
                (started, state) = try await S.request(client, .put, "/v1/apps/nav/video", [:])
            }
            try #require(started == .ok, "\(state.map { "\($0)" } ?? "")")
            let connection = try #require(apps.session("nav").connection)
            let gate = try #require(connection.writeGate)
            let port = try #require(client.port)
            let block = S.bytes(Self.messageSize, seed: 11)
            let count = Self.total / Self.messageSize
            let progress = Progress()
            pause.pause()
            var stalledAt = 0
            var kernelAtStall = 0
            var held = [Int]()
            var linkBuffered = 0
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // A client of its own (NIO's channel, whose writes wait while its socket is
                    // full), so that what the process holds beyond the kernel is the gateway's.
                    try await RawConnection.connect(port: port).channel.executeThenClose { inbound, outbound in
                        try await outbound.write(
                            ByteBuffer(string: RawConnection.get("/v1/apps/nav/video", RawConnection.webSocketUpgrade)))
                        var head = ""
                        var reader = inbound.makeAsyncIterator()
                        while !head.contains("\r\n\r\n"), let bytes = try await reader.next() { head += String(buffer: bytes) }
                        #expect(head.hasPrefix("HTTP/1.1 101"), "\(head)")
                        for index in 0..<count {
                            try await outbound.write(Self.frame(opcode: 0x2, Self.message(index, block: block)))
                            progress.accepted.add(Self.messageSize, ordering: .sequentiallyConsistent)
                        }
                        try await outbound.write(Self.frame(opcode: 0x8, ByteBuffer(bytes: [0x03, 0xE8])))
                        var answer = ByteBuffer()
                        while var bytes = try await reader.next() { answer.writeBuffer(&bytes) }
                        // The gateway answered the client's close: it never ended the stream on its side.
                        #expect(
                            answer.readableBytesView.starts(with: [0x88, 0x02, 0x03, 0xE8]),
                            "\(answer.readableBytesView.prefix(40).map { $0 })")
                    }
                }
                // Sample from the start until nothing moves (the client's bytes and the framed ones
                // stay put for 30 samples) or the client is done: in the order the bytes move, so that
                // bytes moving meanwhile make the measure smaller, never larger.
                var unchanged = 0
                var last = (accepted: -1, framed: -1)
                while unchanged < 30 {
                    let accepted = progress.accepted.load(ordering: .sequentiallyConsistent)
                    let kernel = try Self.kernelQueued(port: port)
                    let framed = connection.streamingStatus(.video)?.bytes ?? 0
                    let buffered = try await connection.bufferedWritableBytes()
                    held.append(accepted - kernel - framed + buffered)
                    linkBuffered = max(linkBuffered, buffered)
                    stalledAt = accepted
                    kernelAtStall = kernel
                    if accepted == Self.total { break }
                    unchanged = (accepted, framed) == last ? unchanged + 1 : 0
                    last = (accepted, framed)
                    try await Task.sleep(for: .milliseconds(10))  // a measuring interval, not a wait for an event
                }
                #expect(gate.suspensions >= 1, "the head-unit link never pushed back")
                #expect(try apps.session("nav").connection === connection, "the head-unit link was lost while it read nothing")
                // Stalled on the head unit: what the gateway holds now is bounded.
                let stalled = held.last ?? 0
                #expect(
                    stalled <= Self.bound,
                    "stalled, the gateway held \(stalled) bytes (the client had sent \(stalledAt), the kernel held \(kernelAtStall))")
                // At the start of the stream the gateway was seen holding megabytes (3.5 MB) that it
                // had read before the route's handler framed anything: most likely what arrives
                // between the 101 and the handler's start, which NIO's upgrade handler buffers
                // without a bound and hands on at once. Not located for certain yet.
                let most = held.max() ?? 0
                withKnownIssue("the bytes a client sends before the WebSocket handler starts are read unbounded", isIntermittent: true) {
                    #expect(most <= Self.bound, "the gateway held up to \(most) bytes, at the start of the stream")
                }
                #expect(linkBuffered <= 64 * 1024 + SDLConnection.streamBatchBytes + 128 * 1024, "the link's channel held \(linkBuffered)")
                pause.resume()
                try await group.waitForAll()
            }
            // Every byte went on once the head unit read again: count and the kept tail.
            // The gateway sends what it still held after the client's close; then EndService follows the data.
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            while try await S.request(client, .get, "/v1/apps/nav/video").1?["bytes"]?.intValue != Int64(Self.total), clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await S.request(client, .delete, "/v1/apps/nav/video").0 == .noContent)
            let (_, kept, bytes, _) = try await S.received(client)
            #expect(bytes == Self.total)
            var expected = ByteBuffer()
            let keptMessages = kept.readableBytes / Self.messageSize
            for index in (count - keptMessages)..<count { expected.writeImmutableBuffer(Self.message(index, block: block)) }
            #expect(kept.readableBytes > 0 && kept.readableBytes % Self.messageSize == 0, "kept \(kept.readableBytes)")
            #expect(kept == expected, "the head unit's last bytes are the last messages, in order")
        }
    }
}
