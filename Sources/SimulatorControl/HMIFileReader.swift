import HTTPAPISupport
import Hummingbird
import NIOCore
import _NIOFileSystem

/// Reads a file SDL Core named for an app (``HeadlessHMI/HMIFileNames``) from this machine's disk,
/// without blocking an event loop (NIOFileSystem, as Hummingbird imports it): the gateway sees it when it shares Core's
/// storage folder (same machine, or the folder mounted read-only at the same path).
enum HMIFileReader {
    /// The largest file read (an image of a head unit is far smaller).
    static let maximumSize: Int64 = 16 * 1024 * 1024

    /// What was read: the bytes (none for HEAD), the size and a validator.
    struct File: Sendable {
        var bytes: ByteBuffer?
        var size: Int64
        /// A strong ETag from the file's path, size and modification time (as web servers derive
        /// theirs): it changes when Core writes the file again.
        var etag: String
    }

    /// The file at `path` (a regular file, the last component not a symbolic link), its bytes when
    /// `readBytes`; a `file-unreadable` problem naming why when it cannot be read here.
    static func read(_ path: String, readBytes: Bool) async throws -> File {
        do {
            return try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path), options: .init(followSymbolicLinks: false)) {
                handle in
                let info = try await handle.info()
                guard info.type == .regular else { throw unreadable(path, "it is not a regular file") }
                guard info.size <= maximumSize else {
                    throw unreadable(path, "it has \(info.size) bytes, more than the \(maximumSize) a preview reads")
                }
                let bytes = readBytes ? try await handle.readToEnd(maximumSizeAllowed: .bytes(maximumSize)) : nil
                return File(bytes: bytes, size: Int64(bytes?.readableBytes ?? Int(info.size)), etag: etag(info, path: path))
            }
        } catch let error as FileSystemError {
            let reason =
                switch error.code {
                case .notFound: "no such file here"
                case .permissionDenied: "permission denied"
                case .invalidArgument: "the path is a symbolic link or not a file"
                default: "\(error.code)"
                }
            throw unreadable(path, reason)
        }
    }

    /// `"<path hash>-<size>-<modified ns>"` in hex: another file or another write, another tag.
    static func etag(_ info: FileInfo, path: String) -> String {
        // FNV-1a of the path: stable across runs, unlike Hasher.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let modified = Int64(info.lastDataModificationTime.seconds) * 1_000_000_000 + Int64(info.lastDataModificationTime.nanoseconds)
        return "\"\(String(hash, radix: 16))-\(String(info.size, radix: 16))-\(String(modified, radix: 16))\""
    }

    static func unreadable(_ path: String, _ reason: String) -> HTTPProblem {
        HTTPProblem(
            status: .notFound, code: "file-unreadable", title: "The file is not readable here",
            detail: "SDL Core named \(path) for this app, but the gateway cannot read it (\(reason)): Core's storage folder"
                + " (AppStorageFolder, and AppIconsFolder for icons, in smartDeviceLink.ini) must be shared with the gateway"
                + " at the same path, e.g. mounted read-only as a volume in the deployment"
        )
    }

    /// The media type of a file by its extension (`application/octet-stream` when unknown).
    static func contentType(ofName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        let ext = name[name.index(after: dot)...].lowercased()
        return MediaType.getMediaType(forExtension: ext)?.description ?? "application/octet-stream"
    }
}
