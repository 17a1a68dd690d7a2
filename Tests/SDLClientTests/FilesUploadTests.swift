import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import TestSupport
import Testing

/// Chunked PutFile uploads through ``SDLAppSession`` to the simulator over TCP (docs/protocol.md §c
/// "PutFile with bulk data"): the simulator checks every chunk's offset, length and CRC-32.
@Suite("Files: uploads to the simulator over TCP", .timeLimit(.minutes(1)))
struct FilesUploadTests {
    static let app = SDLAppConfiguration(appName: "Uploader", appID: "uploader-app", isMediaApplication: true)

    /// `size` bytes (byte i is i % 251) made lazily in pieces of `pieceSize`: nothing holds the file.
    struct GeneratedBytes: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        var size: Int
        var pieceSize: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            var offset = 0
            let size: Int
            let pieceSize: Int

            mutating func next() async -> ByteBuffer? {
                guard offset < size else { return nil }
                let count = Swift.min(pieceSize, size - offset)
                var buffer = ByteBuffer()
                buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
                    for index in 0..<count { pointer[index] = UInt8((offset + index) % 251) }
                    return count
                }
                offset += count
                return buffer
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(size: size, pieceSize: pieceSize) }
    }

    /// Runs the simulator and a registered session in HMI FULL (out of NONE's 5-PutFile limit).
    static func withSession(_ body: @Sendable (SimulatedHeadUnit, SDLAppSession) async throws -> Void) async throws {
        let simulator = SimulatedHeadUnit(
            configuration: HeadUnitConfiguration(autoActivate: true, timeScale: 0.01), logger: Logger.test("test")
        )
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await simulator.run(host: "127.0.0.1", port: 0) {
                    portContinuation.yield($0.port ?? 0); portContinuation.finish()
                }
            }
            var portIterator = ports.makeAsyncIterator()
            let port = try #require(await portIterator.next())
            let session = SDLAppSession(configuration: .init(port: port, app: Self.app), logger: Logger.test("test"))
            group.addTask { await session.run() }
            var registered = false
            var full = false
            for await event in session.events {
                switch event {
                case .connection(.registered, _): registered = true
                case .connection(.closed, _): Issue.record("the session closed before HMI FULL")
                case .app(.hmiStatus(let status)) where status.hmiLevel.rawValue == "FULL": full = true
                default: break
                }
                if registered && full { break }
            }
            try #require(registered && full)
            try await body(simulator, session)
            await session.close()
            group.cancelAll()
        }
    }

    @Test("A 3-chunk upload arrives whole: ListFiles shows it and the simulator holds its full size")
    func threeChunks() async throws {
        try await Self.withSession { simulator, session in
            var progress: [SDLFileUploader.Progress] = []
            let size = 2 * 64 * 1024 + 1000
            let response = try await session.upload(
                name: "track.bin", fileType: "BINARY", size: size, chunks: GeneratedBytes(size: size, pieceSize: 5000), chunkSize: 64 * 1024
            ) { progress.append($0) }
            #expect(response.parameters["resultCode"] == "SUCCESS")
            #expect(progress.map(\.bytesSent) == [65536, 131072, size])
            #expect(progress.map(\.chunksSent) == [1, 2, 3])
            #expect(progress.last?.fractionCompleted == 1)
            #expect(progress.last?.spaceAvailable != nil)
            let names = try await session.listFiles()
            #expect(names.contains("track.bin"))
            #expect(simulator.snapshot.app(withID: "uploader-app")?.files["track.bin"]?.size == size)
            try await session.setAppIcon("track.bin")
            #expect(simulator.snapshot.app(withID: "uploader-app")?.iconFile == "track.bin")
            try await session.deleteFile("track.bin")
            let after = try await session.listFiles()
            #expect(!after.contains("track.bin"))
        }
    }

    @Test("A chunk refused with OUT_OF_MEMORY stops the upload with its offset and result code")
    func failingChunk() async throws {
        try await Self.withSession { simulator, session in
            var sent: [Int] = []
            let error = await #expect(throws: SDLClientError.self) {
                _ = try await session.upload(
                    name: "big.bin", fileType: "BINARY", size: 3000, chunks: GeneratedBytes(size: 3000, pieceSize: 3000), chunkSize: 1000
                ) { progress in
                    sent.append(progress.bytesSent)
                    // The head unit runs out of space after the first chunk.
                    try? simulator.perform { unit, _ in (try unit.addFault(Fault(function: "PutFile", resultCode: "OUT_OF_MEMORY")), []) }
                }
            }
            #expect(error?.code == .fileRequestFailed)
            #expect(error?.detail.contains("offset 1000") == true)
            #expect(error?.detail.contains("OUT_OF_MEMORY") == true)
            #expect(sent == [1000])
            #expect(simulator.snapshot.app(withID: "uploader-app")?.files["big.bin"]?.size == 1000)
        }
    }

    @Test("Cancelling the task between chunks ends the upload with cancelled; no further chunk is sent")
    func cancellation() async throws {
        try await Self.withSession { simulator, session in
            let upload = Task {
                try await session.upload(
                    name: "cancelled.bin", fileType: "BINARY", size: 5000, chunks: GeneratedBytes(size: 5000, pieceSize: 700),
                    chunkSize: 1000
                ) { progress in
                    if progress.chunksSent == 2 { withUnsafeCurrentTask { $0?.cancel() } }
                }
            }
            let result = await upload.result
            #expect(throws: SDLClientError.self) { try result.get() }
            #expect((try? result.get()) == nil)
            if case .failure(let error) = result {
                #expect((error as? SDLClientError)?.code == .cancelled)
            }
            #expect(simulator.snapshot.app(withID: "uploader-app")?.files["cancelled.bin"]?.size == 2000)
        }
    }

    @Test("A 50 MB upload made lazily never holds more than about one chunk")
    func largeUpload() async throws {
        try await Self.withSession { simulator, session in
            let size = 50 * 1000 * 1000
            let chunkSize = SDLFileUploadPlan.defaultChunkSize
            var last: SDLFileUploader.Progress?
            var calls = 0
            _ = try await session.upload(
                name: "large.bin", fileType: "BINARY", size: size, chunks: GeneratedBytes(size: size, pieceSize: 64 * 1024),
                timeout: .seconds(60)
            ) { progress in
                last = progress
                calls += 1
            }
            #expect(calls == 48)  // 50,000,000 / 1,048,576 rounded up
            #expect(last?.bytesSent == size)
            let held = try #require(last?.maximumBufferedBytes)
            #expect(held <= chunkSize + 64 * 1024)
            #expect(held < 2 * chunkSize)
            print("50 MB upload: the re-chunker held at most \(held) bytes")
            #expect(simulator.snapshot.app(withID: "uploader-app")?.files["large.bin"]?.size == size)
        }
    }
}
