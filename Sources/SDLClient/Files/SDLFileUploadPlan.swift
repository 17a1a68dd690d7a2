import SDLProtocol

/// How a file of known size is sent as PutFile requests (docs/protocol.md §c "PutFile with bulk
/// data"): chunks of ``chunkSize`` bytes (the last one shorter), each a PutFile with `offset`, its
/// bytes as bulk data and `crc` (CRC-32 of those bytes, ``SDLCRC32``). As the SDL libraries do,
/// the first chunk's `length` is the whole file size (Core keeps it to know when the file is
/// complete); later chunks carry their own length. Pure arithmetic: no bytes, no clock.
public struct SDLFileUploadPlan: Sendable, Hashable {
    /// 1 MiB, small enough for Core's 11 s request timeout on slow links (§e).
    public static let defaultChunkSize = 1024 * 1024

    /// One PutFile of the upload.
    public struct Chunk: Sendable, Hashable {
        /// 0-based position in the upload.
        public var index: Int
        /// The byte offset of the chunk in the file (PutFile `offset`).
        public var offset: Int
        /// How many bytes the chunk carries as bulk data.
        public var byteCount: Int
        /// PutFile `length`: the whole file size for the first chunk, else ``byteCount``.
        public var length: Int

        public var end: Int { offset + byteCount }

        public init(index: Int, offset: Int, byteCount: Int, length: Int) {
            self.index = index
            self.offset = offset
            self.byteCount = byteCount
            self.length = length
        }
    }

    public var syncFileName: String
    public var fileType: String
    public var persistentFile: Bool
    public var systemFile: Bool
    /// The file size in bytes.
    public var size: Int
    public var chunkSize: Int

    /// Throws ``SDLClientError/Code/invalidParameters`` for an empty file (Core answers
    /// `INVALID_DATA` to a PutFile without bulk data), a non-positive chunk size or a blank name.
    public init(
        syncFileName: String,
        fileType: String,
        persistentFile: Bool = false,
        systemFile: Bool = false,
        size: Int,
        chunkSize: Int = Self.defaultChunkSize
    ) throws(SDLClientError) {
        guard !syncFileName.isEmpty else {
            throw SDLClientError(.invalidParameters, "PutFile: the syncFileName is empty")
        }
        guard size > 0 else {
            throw SDLClientError(.invalidParameters, "PutFile \(syncFileName): the file is empty (size \(size))")
        }
        guard chunkSize > 0 else {
            throw SDLClientError(.invalidParameters, "PutFile \(syncFileName): the chunk size \(chunkSize) is not positive")
        }
        self.syncFileName = syncFileName
        self.fileType = fileType
        self.persistentFile = persistentFile
        self.systemFile = systemFile
        self.size = size
        self.chunkSize = chunkSize
    }

    /// How many PutFile requests the upload takes.
    public var chunkCount: Int { (size + chunkSize - 1) / chunkSize }

    public func chunk(at index: Int) -> Chunk {
        precondition(index >= 0 && index < chunkCount, "chunk \(index) of \(chunkCount)")
        let offset = index * chunkSize
        let byteCount = min(chunkSize, size - offset)
        return Chunk(index: index, offset: offset, byteCount: byteCount, length: index == 0 ? size : byteCount)
    }

    public var chunks: [Chunk] { (0..<chunkCount).map(chunk(at:)) }

    /// The PutFile parameters of `chunk`, whose bytes have the CRC-32 `crc`.
    public func parameters(for chunk: Chunk, crc: UInt32) -> SDLJSON {
        .object([
            "syncFileName": .string(syncFileName),
            "fileType": .string(fileType),
            "persistentFile": .bool(persistentFile),
            "systemFile": .bool(systemFile),
            "offset": .int(Int64(chunk.offset)),
            "length": .int(Int64(chunk.length)),
            "crc": .int(Int64(crc)),
        ])
    }
}
