import Foundation
import Metrics
import SDLClient
import SDLProtocol

/// `serve --record DIR`: one capture file (``SDLCapture``) per app session, that is per
/// incarnation of an app id, named `DIR/<app id>-<UTC start>.sdlcap`, e.g.
/// `demo-20261122T050000.123Z.sdlcap` (`-2`, `-3` … before the extension when an app id is
/// re-created within the same millisecond). Reconnections of the session go to the same file.
///
/// App ids become file names safely: letters, digits, `-` and `_` stay; every other byte of the
/// id's UTF-8 (`.`, `/`, `%`, spaces, non-ASCII …) becomes `%XX`, so two ids never share a name and
/// no id can leave the directory. The encoded id is cut at 120 characters.
public struct GatewayRecording: Sendable, Hashable {
    /// Where the files go; it exists and is writable (``prepare(directory:)``).
    public var directory: String
    /// The bounds of each session's queue between the link and the disk.
    public var limits: SDLCaptureTap.Limits

    public init(directory: String, limits: SDLCaptureTap.Limits = SDLCaptureTap.Limits()) {
        self.directory = directory
        self.limits = limits
    }

    /// Why `--record DIR` cannot be used: the directory cannot be made or written.
    public struct SetupError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Stable: `recordDirectoryUnavailable`.
        public let code = "recordDirectoryUnavailable"
        public var detail: String
        init(_ detail: String) { self.detail = detail }
        public var description: String { detail }
    }

    /// The counter of records the recorders dropped (the disk was slower than the link), over
    /// every session: each is a `dropped` record's count in its file.
    public static let droppedRecordsMetric = "sdl_gateway_capture_records_dropped_total"

    /// The extension of capture files.
    public static let fileExtension = "sdlcap"

    /// A recording's tap and its file.
    struct Target: Sendable {
        var tap: SDLCaptureTap
        var path: String
    }

    /// A new tap and file name for app `id` starting now.
    func start(app id: String, sdlAppID: String, headUnit: String, now: Date = Date()) -> Target {
        let micros = SDLTimestamp.microseconds(secondsSince1970: now.timeIntervalSince1970)
        let header = SDLCaptureHeader(app: id, sdlAppID: sdlAppID, headUnit: headUnit, startMicroseconds: micros)
        // A name taken already gets -2, -3 … when the writer creates the file (off the request path).
        let path = (directory as NSString).appendingPathComponent(
            "\(Self.safeName(id))-\(SDLTimestamp.compact(microsecondsSince1970: micros)).\(Self.fileExtension)")
        // Made here, in the task that creates the app: a task-local metrics factory (tests) applies.
        let dropped = Counter(label: Self.droppedRecordsMetric)
        return Target(tap: SDLCaptureTap(header: header, limits: limits) { dropped.increment() }, path: path)
    }

    /// `id` as a file name: `[A-Za-z0-9_-]` kept, every other UTF-8 byte as `%XX`; at most 120
    /// characters; never empty.
    public static func safeName(_ id: String) -> String {
        var name = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                name.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                name += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
            if name.count >= 120 { break }
        }
        return name.isEmpty ? "_" : String(name.prefix(120))
    }

    /// Creates `directory` when missing and checks that files can be made in it; throws a
    /// message saying what is wrong.
    public static func prepare(directory: String) throws(SetupError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw SetupError("--record \(directory) is not a directory")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw SetupError("--record \(directory): cannot create the directory (\(error.localizedDescription))")
            }
        }
        let probe = (directory as NSString).appendingPathComponent(".sdl-gateway-write-check-\(UInt64.random(in: 0...UInt64.max))")
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else {
            throw SetupError("--record \(directory): the directory is not writable")
        }
        try? FileManager.default.removeItem(atPath: probe)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
