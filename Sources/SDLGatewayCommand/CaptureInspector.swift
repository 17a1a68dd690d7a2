import Foundation
import NIOCore
import SDLProtocol
import SDLSpec

/// Decodes a capture file of `serve --record` (``SDLCapture``) into JSON lines: what
/// `sdl-gateway inspect FILE` prints for a file that starts with the capture magic.
///
/// - The header becomes `{"record":"header","formatVersion":1,"app":…,"appID":…,"headUnit":…,"start":…}`.
/// - Connection records become `{"record":"opened"|"closed"|"lost","time":…,"offset":…,"detail":…}`,
///   and a gap the recorder left `{"record":"dropped","count":N,…}`.
/// - The bytes of each direction are reassembled separately (a frame may span reads, and a
///   message many frames) by a ``StreamInspector`` of their own, started afresh at each
///   `opened`; every frame and message line it makes gets `"record":"frame"`, `"direction"`
///   (`appToHeadUnit` or `headUnitToApp`), and the `time` and `offset` of the read or write
///   that completed it.
///
/// `time` is ISO 8601 UTC with milliseconds (the header's start plus the record's offset);
/// `offset` is seconds since the start, to the microsecond. SDL bytes that do not decode are a
/// line `{"record":"error","direction":…,"error":…}`; that direction is then skipped until the
/// next connection, and ``sdlErrors`` counts them. A capture file that is itself malformed or
/// truncated throws ``SDLProtocolError``, with the file offset.
struct CaptureInspector {
    let catalog: SDLCatalog
    let maximumPayloadSize: Int
    private var decoder = SDLCaptureDecoder()
    private var pending = ByteBuffer()
    private var streams: [SDLCaptureRecord.Kind: Stream] = [:]
    /// SDL bytes that did not decode (error lines printed).
    private(set) var sdlErrors = 0

    /// One direction of one connection.
    private struct Stream {
        var inspector: StreamInspector
        /// A decoding error ended this direction until the next connection.
        var failed = false
    }

    init(catalog: SDLCatalog, maximumPayloadSize: Int = SDLFrameDecoder.defaultMaximumPayloadSize) {
        self.catalog = catalog
        self.maximumPayloadSize = maximumPayloadSize
        startConnection()
    }

    /// Feeds more of the file; emits a line for everything it completes.
    mutating func feed(_ bytes: ByteBuffer, emit: (SDLJSON) -> Void) throws(SDLProtocolError) {
        var bytes = bytes
        pending.writeBuffer(&bytes)
        while let item = try decoder.next(buffer: &pending) {
            switch item {
            case .header(let header):
                emit([
                    "record": "header",
                    "formatVersion": .int(Int64(SDLCapture.version)),
                    "app": .string(header.app),
                    "appID": .string(header.sdlAppID),
                    "headUnit": .string(header.headUnit),
                    "start": .string(iso8601(microseconds: header.startMicroseconds)),
                ])
            case .record(let record):
                inspect(record, emit: emit)
            }
        }
        pending.discardReadBytes()
    }

    /// Ends the file: a truncated header or record throws; half frames left in a direction
    /// become error lines.
    mutating func finish(emit: (SDLJSON) -> Void) throws(SDLProtocolError) {
        try decoder.finish(remaining: pending)
        endConnection(at: nil, emit: emit)
    }

    private mutating func inspect(_ record: SDLCaptureRecord, emit: (SDLJSON) -> Void) {
        var stamp: [String: SDLJSON] = [
            "time": .string(iso8601(microseconds: (decoder.header?.startMicroseconds ?? 0) &+ Int64(clamping: record.offsetMicroseconds))),
            "offset": .double(Double(record.offsetMicroseconds) / 1_000_000),
        ]
        switch record.kind {
        case .appToHeadUnit, .headUnitToApp:
            guard var stream = streams[record.kind], !stream.failed else { return }
            stamp["record"] = "frame"
            stamp["direction"] = .string(record.kind.description)
            do throws(StreamInspector.InspectionError) {
                try stream.inspector.feed(record.payload) { line in
                    emit(.object((line.objectValue ?? [:]).merging(stamp) { $1 }))
                }
            } catch {
                stream.failed = true
                sdlErrors += 1
                stamp["record"] = "error"
                stamp["error"] = .string(error.description)
                emit(.object(stamp))
            }
            streams[record.kind] = stream
        case .opened:
            // A new connection: a new byte stream in each direction.
            endConnection(at: stamp, emit: emit)
            startConnection()
            stamp["record"] = "opened"
            stamp["detail"] = .string(record.text)
            emit(.object(stamp))
        case .closed, .lost:
            endConnection(at: stamp, emit: emit)
            startConnection()
            stamp["record"] = .string(record.kind.description)
            stamp["detail"] = .string(record.text)
            emit(.object(stamp))
        case .dropped:
            stamp["record"] = "dropped"
            stamp["count"] = .int(Int64(record.droppedCount ?? 0))
            emit(.object(stamp))
            // Bytes are missing: the streams cannot be followed until the next connection.
            for kind in streams.keys { streams[kind]?.failed = true }
        }
    }

    private mutating func startConnection() {
        for kind in [SDLCaptureRecord.Kind.appToHeadUnit, .headUnitToApp] {
            streams[kind] = Stream(inspector: StreamInspector(catalog: catalog, maximumPayloadSize: maximumPayloadSize))
        }
    }

    /// A half frame or unfinished message left in a direction is an error line.
    private mutating func endConnection(at stamp: [String: SDLJSON]?, emit: (SDLJSON) -> Void) {
        for kind in [SDLCaptureRecord.Kind.appToHeadUnit, .headUnitToApp] {
            guard let stream = streams[kind], !stream.failed else { continue }
            do throws(StreamInspector.InspectionError) {
                try stream.inspector.finish()
            } catch {
                sdlErrors += 1
                var line = stamp ?? [:]
                line["record"] = "error"
                line["direction"] = .string(kind.description)
                line["error"] = .string(error.description)
                emit(.object(line))
            }
            streams[kind]?.failed = true
        }
    }

    /// `2026-11-22T05:00:00.123Z` (``SDLTimestamp``).
    func iso8601(microseconds: Int64) -> String {
        SDLTimestamp.rfc3339(microsecondsSince1970: microseconds)
    }
}
