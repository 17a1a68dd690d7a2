import HeadUnitSimulator
import Logging
import NIOCore
import SDLProtocol
import TestSupport
import Testing

@testable import SDLClient

/// The video and audio services of ``SDLConnection`` over real TCP (127.0.0.1): RPCs go to the
/// simulator, the streaming services to ``StreamingHeadUnit``, which keeps every byte.
@Suite("Streaming services over TCP", .timeLimit(.minutes(1)))
struct StreamingConnectionTests {
    /// A registered connection through a ``StreamingHeadUnit`` answering `answer`.
    static func withStreamingConnection(
        answer: StreamingHeadUnit.StartAnswer = .ack(mtu: 1000),
        _ body: @Sendable (SDLConnection, StreamingHeadUnit) async throws -> Void
    ) async throws {
        let unit = StreamingHeadUnit(answer: answer)
        try await ConnectionTests.withSimulator { _, simulatorPort in
            let (ports, port) = AsyncStream<Int>.makeStream()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await unit.run(upstreamPort: simulatorPort) { port.yield($0) } }
                var iterator = ports.makeAsyncIterator()
                let proxyPort = try #require(await iterator.next())
                _ = try await ConnectionTests.withConnection(port: proxyPort) { connection, _ in
                    try await body(connection, unit)
                }
                group.cancelAll()
            }
        }
    }

    /// `count` bytes of 64 KiB blocks: counter words from `seed` on (big-endian), the first word
    /// of each block replaced by the block's number, so a lost, repeated or reordered piece shows.
    static func pattern(_ count: Int, seed: UInt32 = 0) -> ByteBuffer {
        let blockSize = 64 * 1024
        var block = ByteBuffer()
        for word in 0..<UInt32(blockSize / 4) { block.writeInteger(seed &+ word) }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(count + blockSize)
        var number: UInt32 = 0
        while buffer.readableBytes < count {
            buffer.writeInteger(number)
            buffer.writeImmutableBuffer(block.getSlice(at: 4, length: blockSize - 4)!)
            number += 1
        }
        return buffer.getSlice(at: 0, length: count)!
    }

    @Test("Start video, stream in pieces, end: the head unit gets the bytes intact, in order, as Single Frames of at most the MTU")
    func streamsIntact() async throws {
        try await Self.withStreamingConnection(answer: .ack(mtu: 1000)) { connection, unit in
            let format = SDLVideoStreamFormat(codec: "H264", protocol: "RAW", width: 800, height: 480)
            let accepted = try await connection.startStreaming(.video, format: format)
            #expect(accepted == SDLStreamingAccepted(service: .video, mtu: 1000, format: format))
            #expect(unit.controls(.video).first == .startService(.init(height: 480, width: 800, videoProtocol: "RAW", videoCodec: "H264")))

            let stream = Self.pattern(300_001)
            var rest = stream
            var written = 0
            while rest.readableBytes > 0 {
                written += try await connection.sendStream(.video, rest.readSlice(length: min(rest.readableBytes, 77_777))!)
            }
            await unit.waitForPayload(.video, count: stream.readableBytes)
            #expect(unit.payload(.video) == stream)
            let headers = unit.dataHeaders(.video)
            #expect(headers.allSatisfy { $0.frameType == .single && $0.dataSize <= 1000 && $0.dataSize > 0 && $0.sessionID == 1 })
            #expect(zip(headers, headers.dropFirst()).allSatisfy { $0.messageID < $1.messageID })
            let status = try #require(connection.streamingStatus(.video))
            #expect(status.frames == headers.count && status.bytes == stream.readableBytes)
            #expect(written == headers.count, "sendStream returns the frames it wrote")

            try await connection.endStreaming(.video)
            #expect(unit.controls(.video).last == .endService(.init()))
            #expect(connection.streamingStatus(.video) == nil)
            await #expect { try await connection.sendStream(.video, ByteBuffer(bytes: [1])) } throws: {
                ($0 as? SDLClientError)?.code == .streamingNotStarted
            }
        }
    }

    @Test("Audio: StartService without parameters, PCM bytes through, the ACK's mtu")
    func audio() async throws {
        try await Self.withStreamingConnection(answer: .ack(mtu: 4096)) { connection, unit in
            let accepted = try await connection.startStreaming(.audio, format: nil)
            #expect(accepted == SDLStreamingAccepted(service: .audio, mtu: 4096))
            #expect(unit.controls(.audio) == [.startService(.init())])
            let pcm = Self.pattern(10_000, seed: 3)
            let frames = try await connection.sendStream(.audio, pcm)
            #expect(frames == 3)
            await unit.waitForPayload(.audio, count: pcm.readableBytes)
            #expect(unit.payload(.audio) == pcm)
            #expect(unit.dataHeaders(.audio).map(\.dataSize) == [4096, 4096, 1808])
        }
    }

    @Test("A StartServiceNAK throws streamingRefused with its reason and rejectedParams, and publishes a refused event")
    func refused() async throws {
        try await Self.withStreamingConnection(answer: .nak(reason: "video is not allowed", rejectedParams: ["videoCodec"])) {
            connection, _ in
            await #expect { _ = try await connection.startStreaming(.video, format: .init(codec: "VP9")) } throws: {
                let error = $0 as? SDLClientError
                return error?.code == .streamingRefused && error?.rejectedParams == ["videoCodec"]
                    && error?.detail.contains("video is not allowed") == true
            }
            try await ConnectionTests.waitFor(connection) {
                $0 == .streaming(.init(service: .video, state: .refused, reason: "video is not allowed"))
            }
        }
    }

    @Test("EndService from the head unit: answered with EndServiceACK, an ended event, and later data is refused")
    func endedByHeadUnit() async throws {
        try await Self.withStreamingConnection { connection, unit in
            _ = try await connection.startStreaming(.video, format: nil)
            unit.send(.endService(.init()), on: .video)
            try await ConnectionTests.waitFor(connection) {
                $0 == .streaming(.init(service: .video, state: .ended, reason: "the head unit ended it"))
            }
            await unit.waitForControls(.video, count: 2)
            #expect(unit.controls(.video).last == .endServiceACK)
            await #expect { try await connection.sendStream(.video, ByteBuffer(bytes: [1])) } throws: {
                ($0 as? SDLClientError)?.code == .streamingNotStarted
            }
        }
    }

    @Test("A slow link suspends sendStream: the channel holds at most its high-water mark and one batch, and every byte arrives after")
    func slowLinkIsBounded() async throws {
        try await Self.withStreamingConnection(answer: .ack(mtu: 32_768)) { connection, unit in
            _ = try await connection.startStreaming(.video, format: nil)
            let stream = Self.pattern(24 << 20, seed: 9)
            unit.pause()
            let gate = try #require(connection.writeGate)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { gate.releaseSuspensionWatchers() }  // a sender that never waited fails below, not hangs
                    try await connection.sendStream(.video, stream)
                }
                // The link pushed back: the sender waited for writability.
                await gate.waitForSuspensions(1)
                #expect(gate.suspensions >= 1, "sendStream never waited for the link")
                let buffered = try await connection.bufferedWritableBytes()
                // NIO's default high-water mark (64 KiB) plus one batch of frames with headers.
                let bound = 64 * 1024 + SDLConnection.streamBatchBytes + 32_768 + 64 * 12
                #expect(buffered <= bound, "the channel holds \(buffered) bytes")
                let sent = try #require(connection.streamingStatus(.video)).bytes
                #expect(sent < stream.readableBytes, "sendStream pushed everything (\(sent) bytes) into a link that reads nothing")
                unit.resume()
                try await group.next()
            }
            await unit.waitForPayload(.video, count: stream.readableBytes)
            #expect(unit.payload(.video) == stream)
            #expect(connection.writeGate.map(\.suspensions) ?? 0 >= 1)
        }
    }

    @Test(
        "forwardStream does not suspend: on a slow link it answers false once the channel is full, calls back when it drained, and every byte arrives in order"
    )
    func forwardStreamHoldsBack() async throws {
        try await Self.withStreamingConnection(answer: .ack(mtu: 32_768)) { connection, unit in
            _ = try await connection.startStreaming(.video, format: nil)
            let stream = Self.pattern(24 << 20, seed: 10)
            unit.pause()
            let piece = 16 * 1024
            var offset = 0
            var full = false
            var holds = 0
            while offset < stream.readableBytes {
                let bytes = stream.getSlice(at: offset, length: min(piece, stream.readableBytes - offset))!
                offset += bytes.readableBytes
                let (ready, whenReady) = AsyncStream<Void>.makeStream()
                guard try !connection.forwardStream(.video, bytes, whenReady: { whenReady.yield() }) else { continue }
                holds += 1
                // Held back because the link is full, not only because the loop had not taken
                // the last pieces yet: its channel is over NIO's high-water mark (64 KiB).
                let buffered = try await connection.bufferedWritableBytes()
                if !full, buffered > 64 * 1024 {
                    full = true
                    // The high-water mark, the bytes let be in flight, one piece, frame headers.
                    let bound = 64 * 1024 + SDLConnection.forwardedBytesInFlight + piece + 64 * 12
                    #expect(buffered <= bound, "the channel holds \(buffered) bytes")
                    #expect(offset < stream.readableBytes, "everything went into a link that reads nothing")
                    unit.resume()
                }
                var iterator = ready.makeAsyncIterator()
                await iterator.next()
            }
            #expect(full, "the link never filled (held back \(holds) times)")
            await unit.waitForPayload(.video, count: stream.readableBytes)
            #expect(unit.payload(.video) == stream)
            #expect(connection.writeGate.map(\.suspensions) ?? 0 >= holds)
        }
    }

    @Test("A lost link ends a started stream with an event, and a waiting sendStream fails")
    func linkLost() async throws {
        try await Self.withStreamingConnection(answer: .ack(mtu: 32_768)) { connection, unit in
            _ = try await connection.startStreaming(.video, format: nil)
            unit.pause()
            let gate = try #require(connection.writeGate)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { gate.releaseSuspensionWatchers() }
                    await #expect { try await connection.sendStream(.video, Self.pattern(24 << 20)) } throws: {
                        [.linkLost, .streamingNotStarted, .notConnected, .closed].contains(($0 as? SDLClientError)?.code)
                    }
                }
                await gate.waitForSuspensions(1)
                unit.dropClient()
                try await ConnectionTests.waitFor(connection) {
                    $0 == .streaming(.init(service: .video, state: .ended, reason: "the link was lost"))
                }
                try await group.next()
            }
        }
    }

    @Test("A caller cancelled while its StartService waits fails at once with cancelled; the service stays pending in the machine")
    func cancelledStart() async throws {
        try await Self.withStreamingConnection(answer: .none) { connection, unit in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    await #expect { _ = try await connection.startStreaming(.video, format: nil) } throws: {
                        ($0 as? SDLClientError)?.code == .cancelled
                    }
                }
                await unit.waitForControls(.video, count: 1)
                group.cancelAll()
                try await group.next()
            }
            await #expect { _ = try await connection.startStreaming(.video, format: nil) } throws: {
                ($0 as? SDLClientError)?.code == .tooManyPendingRequests
            }
        }
    }

    @Test("SDLAppSession without a connection refuses streaming with notConnected")
    func appSessionNotConnected() async throws {
        let session = SDLAppSession(configuration: .init(port: 1, app: .init(appName: "Nav", appID: "nav")), logger: Logger.test("test"))
        await #expect { _ = try await session.startStreaming(.video, format: nil) } throws: {
            ($0 as? SDLClientError)?.code == .notConnected
        }
        await #expect { try await session.sendStream(.audio, ByteBuffer(bytes: [1])) } throws: {
            ($0 as? SDLClientError)?.code == .notConnected
        }
        #expect(session.streamingStatus(.video) == nil)
    }
}
