import NIOCore
import SDLClient
import SDLProtocol
import Synchronization
import Testing

/// ``SDLFileUploader`` against a recording fake head unit: what each PutFile carries, short and
/// long inputs, a refused chunk (docs/protocol.md §c "PutFile with bulk data").
@Suite("Files: uploader against a fake head unit", .timeLimit(.minutes(1)))
struct FilesUploaderTests {
    /// Records every request and answers with the next scripted result code (SUCCESS when none).
    final class FakeHeadUnit: Sendable {
        struct Sent: Sendable {
            var function: String
            var parameters: SDLJSON
            var bulkData: ByteBuffer?
        }

        private let state = Mutex<(sent: [Sent], results: [String])>(([], []))

        init(results: [String] = []) {
            state.withLock { $0.results = results }
        }

        var sent: [Sent] { state.withLock { $0.sent } }

        var uploader: SDLFileUploader {
            SDLFileUploader { function, parameters, bulkData in
                let code = self.state.withLock { state in
                    state.sent.append(Sent(function: function, parameters: parameters, bulkData: bulkData))
                    return state.results.isEmpty ? "SUCCESS" : state.results.removeFirst()
                }
                return SDLRPCMessage(
                    rpcType: .response, functionID: 32, correlationID: 1,
                    parameters: ["success": .bool(code == "SUCCESS"), "resultCode": .string(code), "info": "scripted"]
                )
            }
        }
    }

    static func pieces(_ bytes: [UInt8], size: Int) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) {
                continuation.yield(ByteBuffer(bytes: bytes[start..<min(start + size, bytes.count)]))
            }
            continuation.finish()
        }
    }

    static let bytes = (0..<25).map { UInt8($0 * 7 % 256) }

    @Test("Seven-byte pieces become 10, 10 and 5-byte PutFiles with offsets, lengths and the CRC-32 of each chunk")
    func chunks() async throws {
        let fake = FakeHeadUnit()
        let plan = try SDLFileUploadPlan(syncFileName: "f.bin", fileType: "BINARY", size: 25, chunkSize: 10)
        var progress: [SDLFileUploader.Progress] = []
        let response = try await fake.uploader.upload(plan, bytes: Self.pieces(Self.bytes, size: 7)) { progress.append($0) }
        #expect(response.parameters["resultCode"] == "SUCCESS")
        let sent = fake.sent
        #expect(sent.map(\.function) == ["PutFile", "PutFile", "PutFile"])
        #expect(sent.map { $0.parameters["offset"]?.intValue } == [0, 10, 20])
        #expect(sent.map { $0.parameters["length"]?.intValue } == [25, 10, 5])
        let data = sent.map { Array($0.bulkData?.readableBytesView ?? ByteBuffer().readableBytesView) }
        #expect(data == [Array(Self.bytes[0..<10]), Array(Self.bytes[10..<20]), Array(Self.bytes[20..<25])])
        #expect(sent.map { $0.parameters["crc"]?.intValue } == data.map { Int64(SDLCRC32.checksum($0)) })
        #expect(progress.map(\.bytesSent) == [10, 20, 25])
        #expect(progress.map(\.chunksSent) == [1, 2, 3])
        #expect(progress.last?.isComplete == true)
        #expect(progress.allSatisfy { $0.totalBytes == 25 && $0.chunkCount == 3 && $0.maximumBufferedBytes <= 10 + 7 })
    }

    @Test("Input shorter than the declared size fails with invalidParameters before the missing chunk is sent")
    func shortInput() async throws {
        let fake = FakeHeadUnit()
        let plan = try SDLFileUploadPlan(syncFileName: "f.bin", fileType: "BINARY", size: 30, chunkSize: 10)
        let error = await #expect(throws: SDLClientError.self) {
            _ = try await fake.uploader.upload(plan, bytes: Self.pieces(Self.bytes, size: 7))
        }
        #expect(error?.code == .invalidParameters)
        #expect(error?.detail.contains("ended after 25 bytes") == true)
        #expect(fake.sent.count == 2)
    }

    @Test("Input longer than the declared size fails with invalidParameters and the last chunk is not sent")
    func longInput() async throws {
        let fake = FakeHeadUnit()
        let plan = try SDLFileUploadPlan(syncFileName: "f.bin", fileType: "BINARY", size: 20, chunkSize: 10)
        let error = await #expect(throws: SDLClientError.self) {
            _ = try await fake.uploader.upload(plan, bytes: Self.pieces(Self.bytes, size: 7))
        }
        #expect(error?.code == .invalidParameters)
        #expect(fake.sent.count == 1)
    }

    @Test("A refused chunk stops the upload with fileRequestFailed naming its offset and result code")
    func refusedChunk() async throws {
        let fake = FakeHeadUnit(results: ["SUCCESS", "CORRUPTED_DATA"])
        let plan = try SDLFileUploadPlan(syncFileName: "f.bin", fileType: "BINARY", size: 25, chunkSize: 10)
        var progress: [Int] = []
        let error = await #expect(throws: SDLClientError.self) {
            _ = try await fake.uploader.upload(plan, bytes: Self.pieces(Self.bytes, size: 25)) { progress.append($0.bytesSent) }
        }
        #expect(error?.code == .fileRequestFailed)
        #expect(error?.detail.contains("offset 10") == true)
        #expect(error?.detail.contains("CORRUPTED_DATA") == true)
        #expect(fake.sent.count == 2)
        #expect(progress == [10])
    }

    @Test("A data source that ends with CancellationError ends the upload with cancelled after the chunks already sent")
    func cancelledSource() async throws {
        let fake = FakeHeadUnit()
        let plan = try SDLFileUploadPlan(syncFileName: "f.bin", fileType: "BINARY", size: 25, chunkSize: 10)
        let source = AsyncThrowingStream<ByteBuffer, any Error> { continuation in
            continuation.yield(ByteBuffer(bytes: Self.bytes[0..<12]))
            continuation.finish(throwing: CancellationError())
        }
        let error = await #expect(throws: SDLClientError.self) {
            _ = try await fake.uploader.upload(plan, bytes: source)
        }
        #expect(error?.code == .cancelled)
        #expect(error?.detail.contains("after 10 of 25 bytes") == true)
        #expect(fake.sent.count == 1)
    }
}
