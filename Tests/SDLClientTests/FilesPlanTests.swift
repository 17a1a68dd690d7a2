import NIOCore
import SDLClient
import SDLProtocol
import SDLSpec
import Testing

/// ``SDLFileUploadPlan`` arithmetic, ``SDLCRC32`` known vectors and ``SDLFileRechunker``
/// (docs/protocol.md §c "PutFile with bulk data").
@Suite("Files: upload plan, CRC-32 and re-chunking")
struct FilesPlanTests {
    static let mebibyte = 1024 * 1024

    @Test("A file of 2.5 MiB in 1 MiB chunks is three PutFiles, the last one short; the first carries the whole length")
    func threeChunks() throws {
        let plan = try SDLFileUploadPlan(syncFileName: "song.mp3", fileType: "AUDIO_MP3", size: 5 * Self.mebibyte / 2)
        #expect(plan.chunkSize == SDLFileUploadPlan.defaultChunkSize)
        #expect(plan.chunkCount == 3)
        let chunks = plan.chunks
        #expect(chunks.map(\.offset) == [0, Self.mebibyte, 2 * Self.mebibyte])
        #expect(chunks.map(\.byteCount) == [Self.mebibyte, Self.mebibyte, Self.mebibyte / 2])
        #expect(chunks.map(\.length) == [5 * Self.mebibyte / 2, Self.mebibyte, Self.mebibyte / 2])
        #expect(chunks.last?.end == plan.size)
    }

    @Test("An exact multiple of the chunk size has no short chunk; a small file is one chunk")
    func edges() throws {
        let exact = try SDLFileUploadPlan(syncFileName: "a", fileType: "BINARY", size: 30, chunkSize: 10)
        #expect(exact.chunks.map(\.byteCount) == [10, 10, 10])
        #expect(exact.chunks.map(\.length) == [30, 10, 10])
        let small = try SDLFileUploadPlan(syncFileName: "b", fileType: "BINARY", size: 7, chunkSize: 10)
        #expect(small.chunks == [SDLFileUploadPlan.Chunk(index: 0, offset: 0, byteCount: 7, length: 7)])
        let one = try SDLFileUploadPlan(syncFileName: "c", fileType: "BINARY", size: 11, chunkSize: 10)
        #expect(one.chunks.map(\.byteCount) == [10, 1])
    }

    @Test("An empty file, a non-positive chunk size or an empty name is refused before anything is sent")
    func invalid() {
        for (name, size, chunkSize) in [("x", 0, 10), ("x", 10, 0), ("", 10, 10)] {
            let error = #expect(throws: SDLClientError.self) {
                _ = try SDLFileUploadPlan(syncFileName: name, fileType: "BINARY", size: size, chunkSize: chunkSize)
            }
            #expect(error?.code == .invalidParameters)
        }
    }

    @Test("Chunk parameters carry the name, type, flags, offset, length and crc, and match the RPC spec")
    func parameters() throws {
        let plan = try SDLFileUploadPlan(
            syncFileName: "icon.png", fileType: "GRAPHIC_PNG", persistentFile: true, systemFile: false, size: 25, chunkSize: 10
        )
        let second = plan.parameters(for: plan.chunk(at: 1), crc: 0xCBF4_3926)
        #expect(
            second
                == .object([
                    "syncFileName": "icon.png", "fileType": "GRAPHIC_PNG", "persistentFile": true, "systemFile": false,
                    "offset": 10, "length": 10, "crc": .int(0xCBF4_3926),
                ])
        )
        let catalog = SDLCatalog.builtIn
        let spec = try #require(catalog.function(named: "PutFile", messageType: .request))
        #expect(catalog.validate(second, against: spec).isEmpty)
        #expect(catalog.validate(plan.parameters(for: plan.chunk(at: 0), crc: .max), against: spec).isEmpty)
    }

    @Test("CRC-32 (IEEE) of known vectors")
    func crcVectors() {
        #expect(SDLCRC32.checksum("123456789") == 0xCBF4_3926)
        #expect(SDLCRC32.checksum("") == 0)
        #expect(SDLCRC32.checksum("a") == 0xE8B7_BE43)
        #expect(SDLCRC32.checksum("The quick brown fox jumps over the lazy dog") == 0x414F_A339)
        #expect(SDLCRC32.checksum(ByteBuffer(string: "123456789")) == 0xCBF4_3926)
    }

    @Test("CRC-32 fed in pieces equals the one-shot checksum; a buffer's reader index is not moved")
    func crcIncremental() {
        var crc = SDLCRC32()
        var buffer = ByteBuffer(string: "12345")
        buffer.moveReaderIndex(forwardBy: 0)
        crc.update(buffer)
        crc.update(Array("6789".utf8))
        #expect(crc.value == 0xCBF4_3926)
        #expect(buffer.readableBytes == 5)
    }

    @Test("The re-chunker cuts 3-byte pieces into exact 5-byte chunks, holding at most a chunk plus a piece")
    func rechunkSmallPieces() {
        var rechunker = SDLFileRechunker()
        let bytes = Array(UInt8(0)..<UInt8(23))
        var pieces = stride(from: 0, to: bytes.count, by: 3).map { ByteBuffer(bytes: bytes[$0..<min($0 + 3, bytes.count)]) }[...]
        var out: [[UInt8]] = []
        let wanted = [5, 5, 5, 5, 3]
        for count in wanted {
            var chunk = rechunker.next(count)
            while chunk == nil, let piece = pieces.popFirst() {
                rechunker.feed(piece)
                chunk = rechunker.next(count)
            }
            if let chunk { out.append(Array(chunk.readableBytesView)) }
        }
        #expect(out.map(\.count) == wanted)
        #expect(out.flatMap { $0 } == bytes)
        #expect(rechunker.leftoverBytes == 0)
        #expect(rechunker.bytesReceived == 23)
        #expect(rechunker.maximumBufferedBytes <= 5 + 3)
    }

    @Test("A large piece is handed out as chunk-sized slices without copying it into the assembly buffer")
    func rechunkLargePiece() {
        var rechunker = SDLFileRechunker()
        rechunker.feed(ByteBuffer(repeating: 7, count: 25))
        let first = rechunker.next(10)
        let second = rechunker.next(10)
        let third = rechunker.next(10)
        #expect(first?.readableBytes == 10)
        #expect(second?.readableBytes == 10)
        #expect(third == nil)
        #expect(rechunker.needsInput)
        #expect(rechunker.leftoverBytes == 5)
        rechunker.feed(ByteBuffer(repeating: 8, count: 5))
        let fourth = rechunker.next(10)
        #expect(fourth.map { Array($0.readableBytesView) } == Array(repeating: 7, count: 5) + Array(repeating: 8, count: 5))
    }
}
