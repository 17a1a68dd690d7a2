import Foundation
import NIOCore
import TestSupport
import Testing

/// Issue 30, item 10: the README promises that shutdown closes the event WebSockets with 1001
/// (going away); the built `sdl-gateway serve` closed them with 1000, the code of the HTTP
/// server's own shutdown, on SIGTERM and SIGINT alike.
@Suite("sdl-gateway serve: shutdown closes event WebSockets with 1001", .timeLimit(.minutes(2)))
struct ShutdownCloseCodeTests {
    @Test(
        "SIGTERM and SIGINT: an open event WebSocket gets a close frame with 1001, then the process exits 0", arguments: [SIGTERM, SIGINT])
    func goingAway(signal: Int32) async throws {
        try ServeEndToEndTests.requireExecutable()
        let server = try await ServeEndToEndTests.Server.start()
        defer { if server.process.isRunning { server.process.terminate() } }
        let port = try #require(server.baseURL.split(separator: ":").last.flatMap { Int($0) })
        let connection = try await RawConnection.connect(port: port)
        let frames = try await connection.channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: RawConnection.get("/v1/events", RawConnection.webSocketUpgrade)))
            var received: [UInt8] = []
            var frames: [UInt8]?
            for try await chunk in inbound {
                received += chunk.readableBytesView
                if frames == nil, let end = Self.headEnd(received) {
                    #expect(String(decoding: received[..<end], as: UTF8.self).hasPrefix("HTTP/1.1 101"))
                    // Upgraded: now the gateway is told to stop.
                    kill(server.process.processIdentifier, signal)
                    frames = Array(received[end...])
                } else if frames != nil {
                    frames! += chunk.readableBytesView
                }
                // A server's close frame: 0x88, the payload length, the code (big-endian), the reason.
                if let frames, frames.count >= 4, frames.count >= 2 + Int(frames[1]) { return frames }
            }
            return frames ?? []
        }
        try await server.process.exited()
        #expect(server.process.terminationStatus == 0)
        try #require(frames.count >= 4, "no close frame: \(frames)")
        #expect(frames[0] == 0x88, "the first frame after the upgrade is the close: \(frames)")
        #expect(Int(frames[2]) << 8 | Int(frames[3]) == 1001, "the close code")
    }

    /// The index just past the response head's blank line.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        let marker: [UInt8] = Array("\r\n\r\n".utf8)
        guard bytes.count >= marker.count else { return nil }
        for start in 0...(bytes.count - marker.count) where Array(bytes[start..<start + marker.count]) == marker {
            return start + marker.count
        }
        return nil
    }
}
