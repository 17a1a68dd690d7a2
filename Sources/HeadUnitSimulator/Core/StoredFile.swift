import NIOCore
import SDLProtocol

/// A file an app put on the head unit (PutFile, docs/protocol.md §c): its bytes as they arrived,
/// in order, and what PutFile said of it. A chunked upload (`offset`/`length`) stays incomplete
/// until its bytes reach the `length` its first chunk declared.
public struct StoredFile: Sendable, Hashable {
    /// The `FileType` of the spec (`GRAPHIC_PNG`, `AUDIO_MP3`, `BINARY` …).
    public internal(set) var fileType: String
    public internal(set) var isPersistent: Bool
    /// A `systemFile`: in Core's system folder, neither listed, deleted nor counted against the
    /// app's quota.
    public internal(set) var isSystemFile: Bool
    /// The bytes received so far.
    public internal(set) var bytes: ByteBuffer
    /// The `length` the first chunk of an unfinished chunked upload declared; nil once the bytes
    /// reach it, and for a file sent whole.
    public internal(set) var declaredLength: Int?
    /// The CRC-32 of ``bytes``, fed as they arrive.
    public internal(set) var checksum: SDLCRC32

    /// A file whose first (or only) bytes are `bytes`, copied into storage that has room for
    /// `declaredLength` (a chunked upload's whole size) so later chunks append without growing it.
    public init(fileType: String, isPersistent: Bool = false, isSystemFile: Bool = false, bytes: ByteBuffer, declaredLength: Int? = nil) {
        self.fileType = fileType
        self.isPersistent = isPersistent
        self.isSystemFile = isSystemFile
        self.bytes = ByteBufferAllocator().buffer(capacity: max(declaredLength ?? 0, bytes.readableBytes))
        self.declaredLength = declaredLength
        self.checksum = SDLCRC32()
        append(bytes)
    }

    /// How many bytes the head unit has of the file.
    public var size: Int { bytes.readableBytes }

    /// Whether every byte of the file arrived.
    public var isComplete: Bool { declaredLength == nil }

    /// What the file takes of the head unit's file storage (``HeadUnitConfiguration/fileStorageLimit``):
    /// an unfinished chunked upload its declared length, reserved with its first chunk; any other
    /// file its size.
    public var storageSize: Int { max(size, declaredLength ?? 0) }

    /// A strong HTTP entity tag of the bytes: their CRC-32 and size in hexadecimal, quoted.
    public var entityTag: String {
        "\"" + String(checksum.value, radix: 16) + "-" + String(size, radix: 16) + "\""
    }

    /// Appends a later chunk (in place: the stored bytes are not copied while nothing else holds
    /// them); the upload is complete once the bytes reach the declared length.
    mutating func append(_ chunk: ByteBuffer) {
        bytes.writeImmutableBuffer(chunk)
        checksum.update(chunk)
        if let declaredLength, size >= declaredLength { self.declaredLength = nil }
    }

    /// The file as the control API lists it (`GET /apps/{appID}/files`).
    public func json(name: String) -> SDLJSON {
        var value: [String: SDLJSON] = [
            "name": .string(name),
            "size": .int(Int64(size)),
            "fileType": .string(fileType),
            "persistent": .bool(isPersistent),
            "systemFile": .bool(isSystemFile),
            "complete": .bool(isComplete),
        ]
        if let declaredLength { value["length"] = .int(Int64(declaredLength)) }
        return .object(value)
    }
}
