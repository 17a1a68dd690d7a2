import Foundation
import Logging
import NIOCore
import NIOPosix
import SDLProtocol

/// Writes a capture file (``SDLCapture``) from an ``SDLCaptureTap``: the header, then every batch
/// the tap queued, until the tap is finished (or the writing task is cancelled); then it closes
/// the file. File calls run on NIO's blocking-I/O thread pool, never on an event loop or the
/// tasks that carry requests.
public enum SDLCaptureFile {
    /// Writes `tap`'s records to a new file at `path` (or, when a file is there already, at
    /// `path` with `-2`, `-3` … before its extension) until the tap finishes; returns how many
    /// records were written. A file that cannot be created or written is logged, and the tap is
    /// drained (its records dropped) so the session never waits for it.
    @discardableResult
    public static func write(_ tap: SDLCaptureTap, to path: String, threadPool: NIOThreadPool = .singleton, logger: Logger) async -> Int {
        var written = 0
        var droppedLogged = 0
        var metadata: Logger.Metadata = ["sdl.app": "\(tap.header.app)", "capture.file": "\(path)"]
        do {
            let (handle, created) = try await threadPool.runIfActive { try createNew(path) }
            metadata["capture.file"] = "\(created)"
            do {
                var header = ByteBuffer()
                header.writeSDLCaptureHeader(tap.header)
                try await append(header, to: handle, threadPool: threadPool)
                while let batch = await tap.nextBatch() {
                    var bytes = ByteBuffer()
                    for record in batch {
                        bytes.writeSDLCaptureRecord(record)
                        if let dropped = record.droppedCount {
                            droppedLogged += Int(dropped)
                            logger.warning(
                                "capture records dropped: the disk is slower than the link",
                                metadata: metadata.merging(["capture.dropped": "\(dropped)", "capture.droppedTotal": "\(droppedLogged)"]) {
                                    $1
                                })
                        }
                    }
                    try await append(bytes, to: handle, threadPool: threadPool)
                    written += batch.count
                }
            } catch {
                try? await threadPool.runIfActive { try handle.close() }
                throw error
            }
            try await threadPool.runIfActive { try handle.close() }
            logger.info("capture file closed", metadata: metadata.merging(["capture.records": "\(written)"]) { $1 })
        } catch {
            logger.error(
                "cannot write the capture file; recording of this app stops", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            tap.finish()
            while await tap.nextBatch() != nil {}
        }
        return written
    }

    /// Creates a file that did not exist (`O_EXCL`, so two sessions started in the same
    /// millisecond never share one): `path`, else `stem-2.ext`, `stem-3.ext` … up to 100 tries.
    static func createNew(_ path: String) throws -> (FileHandle, String) {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().path
        let suffix = url.pathExtension.isEmpty ? "" : ".\(url.pathExtension)"
        for attempt in 1...100 {
            let candidate = attempt == 1 ? path : "\(stem)-\(attempt)\(suffix)"
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL, 0o600)  // every SDL byte: vehicle data, location, audio
            if descriptor >= 0 { return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), candidate) }
            guard errno == EEXIST else { break }
        }
        throw SDLClientError(.captureFailed, "cannot create \(path)")
    }

    private static func append(_ bytes: ByteBuffer, to handle: FileHandle, threadPool: NIOThreadPool) async throws {
        let data = Data(bytes.readableBytesView)
        try await threadPool.runIfActive { try handle.write(contentsOf: data) }
    }
}
