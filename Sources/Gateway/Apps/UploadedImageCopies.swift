import NIOCore
import SDLProtocol
import Synchronization

/// Copies of the images apps put on their head unit through `PUT /v1/apps/{id}/files/{name}`, so
/// what the gateway uploaded can be drawn again (`GET /v1/apps/{id}/files/{name}`; the page's HMI
/// preview in front of a real SDL Core, whose storage folder the gateway may not read). Only images
/// (GRAPHIC_PNG, GRAPHIC_JPEG, GRAPHIC_BMP) of at most ``maximumFileSize`` bytes are copied, all of
/// them together at most ``capacity`` bytes; past it the oldest copies go first. The head unit
/// still holds its files: these are only the gateway's copies. Each copy belongs to one
/// incarnation of an app id, so an app created again under the id starts without copies.
final class UploadedImageCopies: Sendable {
    struct Key: Hashable, Sendable {
        var app: String
        var incarnation: UInt64
        var name: String
    }

    struct Copy: Sendable {
        var bytes: ByteBuffer
        var fileType: String
        /// A strong validator: the CRC-32 and the size of the bytes.
        var etag: String
        fileprivate var order: UInt64
    }

    /// The largest file copied.
    static let maximumFileSize = 2 << 20

    /// All copies together hold at most this many bytes.
    let capacity: Int
    private let state = Mutex(State())

    private struct State: Sendable {
        var copies: [Key: Copy] = [:]
        var used = 0
        var next: UInt64 = 0
    }

    init(capacity: Int = 32 << 20) {
        self.capacity = capacity
    }

    /// Whether an upload of `fileType` and `size` bytes is copied.
    func keeps(fileType: String, size: Int) -> Bool {
        ImageStore.fileTypes[fileType] != nil && size <= min(Self.maximumFileSize, capacity)
    }

    /// Keeps `bytes` as the copy of `key`, replacing an older one; evicts the oldest copies when
    /// they would not fit beside it.
    func keep(_ key: Key, bytes: ByteBuffer, fileType: String) {
        guard keeps(fileType: fileType, size: bytes.readableBytes) else { return remove(key) }
        let etag = "\"\(String(SDLCRC32.checksum(bytes), radix: 16))-\(bytes.readableBytes)\""
        state.withLock { state in
            if let old = state.copies.removeValue(forKey: key) { state.used -= old.bytes.readableBytes }
            while state.used + bytes.readableBytes > capacity, let oldest = state.copies.min(by: { $0.value.order < $1.value.order }) {
                state.copies[oldest.key] = nil
                state.used -= oldest.value.bytes.readableBytes
            }
            state.next += 1
            state.copies[key] = Copy(bytes: bytes, fileType: fileType, etag: etag, order: state.next)
            state.used += bytes.readableBytes
        }
    }

    func copy(_ key: Key) -> Copy? {
        state.withLock { $0.copies[key] }
    }

    func remove(_ key: Key) {
        state.withLock { state in
            if let old = state.copies.removeValue(forKey: key) { state.used -= old.bytes.readableBytes }
        }
    }

    /// Forgets every copy of every incarnation of `app` (it was deleted).
    func removeApp(_ app: String) {
        state.withLock { state in
            for key in state.copies.keys where key.app == app {
                state.used -= state.copies.removeValue(forKey: key)?.bytes.readableBytes ?? 0
            }
        }
    }

    /// The bytes all copies hold.
    var used: Int { state.withLock { $0.used } }
}

/// The bytes of an upload as they stream past, for ``UploadedImageCopies`` (nothing when `keep`
/// is false). Written by the one task that reads the request body.
final class UploadCollector: Sendable {
    private let bytes: Mutex<ByteBuffer?>

    init(keep: Bool) {
        bytes = Mutex(keep ? ByteBuffer() : nil)
    }

    /// Appends `chunk` when collecting; returns it unchanged.
    func add(_ chunk: ByteBuffer) -> ByteBuffer {
        bytes.withLock { buffer in
            if buffer != nil { buffer!.writeImmutableBuffer(chunk) }
        }
        return chunk
    }

    var collected: ByteBuffer? { bytes.withLock { $0 } }
}
