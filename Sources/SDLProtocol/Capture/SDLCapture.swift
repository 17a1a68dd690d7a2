import NIOCore

/// The capture file format of `sdl-gateway serve --record DIR`: one file per app session with
/// every byte the session read from or wrote to its transport, both directions, timestamped, plus
/// the moments its connections opened, closed or were lost. `sdl-gateway inspect FILE` decodes
/// it (README "Recording sessions"; the format, field by field: docs/capture-format.md).
///
/// The bytes are those of the transport before any framing is decoded (SDL frames as in the
/// protocol spec §2, docs/protocol.md §a; over WebSocket one binary message each), so malformed
/// bytes are captured too. All integers are big-endian (network order), all strings UTF-8.
///
/// A file is a header, then records up to the end of the file:
///
/// ```
/// header                                      record
/// 0     8  magic "SDLCAP\r\n"                  0   1  kind (SDLCaptureRecord.Kind)
///          53 44 4C 43 41 50 0D 0A             1   3  reserved, 0
/// 8     2  format version (1)                  4   8  time: microseconds since the header's start
/// 10    2  header length H (bytes up to the    12  4  payload length L (at most 16 MiB)
///          first record)                       16  L  payload
/// 12    8  start: microseconds since
///          1970-01-01T00:00:00Z (signed)
/// 20  2+n  gateway app id  (u16 length, bytes)
///     2+n  SDL appID       (u16 length, bytes)
///     2+n  head unit       (u16 length, bytes)
/// ```
///
/// In Python: `struct.unpack(">8sHHq", data[:20])` reads the fixed header and
/// `struct.unpack(">B3xQI", data[i:i+16])` a record header. A reader skips header bytes it does
/// not know up to `H`, so later versions may add header fields. Record kinds:
///
/// | kind | name          | payload |
/// |------|---------------|---------|
/// | 1    | `appToHeadUnit` | bytes written to the transport |
/// | 2    | `headUnitToApp` | bytes read from the transport |
/// | 3    | `opened`      | the head unit's address (a connection was made) |
/// | 4    | `closed`      | why, possibly empty (the session ended it cleanly) |
/// | 5    | `lost`        | why (the link failed or the head unit closed it) |
/// | 6    | `dropped`     | u32: records the recorder dropped here (the disk was slower than the link) |
///
/// Pure: this type only turns values into bytes and back; writing files is the recorder's job.
public enum SDLCapture {
    /// `SDLCAP\r\n`: the first eight bytes of every capture file.
    public static let magic: [UInt8] = Array("SDLCAP\r\n".utf8)
    /// The format version this code writes and reads.
    public static let version: UInt16 = 1
    /// The size of the header before its strings.
    public static let fixedHeaderSize = 20
    /// The size of a record before its payload.
    public static let recordHeaderSize = 16
    /// The largest record payload a writer produces and a reader accepts.
    public static let maximumPayloadSize = 16 * 1024 * 1024
    /// The longest header string, in UTF-8 bytes; longer ones are cut at a character boundary.
    public static let maximumStringSize = 1024

    /// Whether `bytes` starts with ``magic`` (enough bytes to tell are needed: 8).
    public static func hasMagic(_ bytes: ByteBuffer) -> Bool {
        bytes.getBytes(at: bytes.readerIndex, length: magic.count) == magic
    }
}

/// The header of a capture file (``SDLCapture``).
public struct SDLCaptureHeader: Sendable, Hashable {
    /// The gateway's id of the app (`POST /v1/apps` `id`).
    public var app: String
    /// The app's SDL appID (RegisterAppInterface `fullAppID` or `appID`).
    public var sdlAppID: String
    /// The head unit's address, e.g. `tcp://127.0.0.1:12345`.
    public var headUnit: String
    /// When recording started: microseconds since 1970-01-01T00:00:00Z. Record times count from here.
    public var startMicroseconds: Int64

    public init(app: String, sdlAppID: String, headUnit: String, startMicroseconds: Int64) {
        self.app = app
        self.sdlAppID = sdlAppID
        self.headUnit = headUnit
        self.startMicroseconds = startMicroseconds
    }
}

/// One record of a capture file (``SDLCapture``).
public struct SDLCaptureRecord: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Bytes the app wrote to the transport, towards the head unit.
        case appToHeadUnit = 1
        /// Bytes the app read from the transport, from the head unit.
        case headUnitToApp = 2
        /// A connection to the head unit was made; payload: its address.
        case opened = 3
        /// The connection ended cleanly (EndService, the app deleted); payload: why.
        case closed = 4
        /// The connection failed or the head unit closed it; payload: why.
        case lost = 5
        /// The recorder dropped records here; payload: how many, u32.
        case dropped = 6

        public var description: String {
            switch self {
            case .appToHeadUnit: "appToHeadUnit"
            case .headUnitToApp: "headUnitToApp"
            case .opened: "opened"
            case .closed: "closed"
            case .lost: "lost"
            case .dropped: "dropped"
            }
        }
    }

    public var kind: Kind
    /// Microseconds since ``SDLCaptureHeader/startMicroseconds``.
    public var offsetMicroseconds: UInt64
    public var payload: ByteBuffer

    public init(kind: Kind, offsetMicroseconds: UInt64, payload: ByteBuffer = ByteBuffer()) {
        self.kind = kind
        self.offsetMicroseconds = offsetMicroseconds
        self.payload = payload
    }

    /// A ``Kind/opened``, ``Kind/closed`` or ``Kind/lost`` record with a text payload.
    public init(kind: Kind, offsetMicroseconds: UInt64, text: String) {
        self.init(kind: kind, offsetMicroseconds: offsetMicroseconds, payload: ByteBuffer(string: text))
    }

    /// A ``Kind/dropped`` record.
    public init(droppedCount: UInt32, offsetMicroseconds: UInt64) {
        var payload = ByteBuffer()
        payload.writeInteger(droppedCount)
        self.init(kind: .dropped, offsetMicroseconds: offsetMicroseconds, payload: payload)
    }

    /// The payload as text (connection records), invalid UTF-8 repaired.
    public var text: String { String(decoding: payload.readableBytesView, as: UTF8.self) }

    /// The count of a ``Kind/dropped`` record.
    public var droppedCount: UInt32? {
        guard kind == .dropped else { return nil }
        return payload.getInteger(at: payload.readerIndex, as: UInt32.self)
    }
}

extension ByteBuffer {
    /// Writes a capture header (``SDLCapture``); strings longer than
    /// ``SDLCapture/maximumStringSize`` are cut. Returns the bytes written.
    @discardableResult
    public mutating func writeSDLCaptureHeader(_ header: SDLCaptureHeader) -> Int {
        let strings = [header.app, header.sdlAppID, header.headUnit].map(Self.captureString)
        let length = SDLCapture.fixedHeaderSize + strings.reduce(0) { $0 + 2 + $1.count }
        writeBytes(SDLCapture.magic)
        writeInteger(SDLCapture.version)
        writeInteger(UInt16(length))
        writeInteger(header.startMicroseconds)
        for string in strings {
            writeInteger(UInt16(string.count))
            writeBytes(string)
        }
        return length
    }

    /// Writes one capture record; a payload above ``SDLCapture/maximumPayloadSize`` is cut there.
    /// Returns the bytes written.
    @discardableResult
    public mutating func writeSDLCaptureRecord(_ record: SDLCaptureRecord) -> Int {
        let length = min(record.payload.readableBytes, SDLCapture.maximumPayloadSize)
        writeInteger(record.kind.rawValue)
        writeBytes([0, 0, 0])
        writeInteger(record.offsetMicroseconds)
        writeInteger(UInt32(length))
        var payload = record.payload
        if let slice = payload.readSlice(length: length) {
            var slice = slice
            writeBuffer(&slice)
        }
        return SDLCapture.recordHeaderSize + length
    }

    /// UTF-8 bytes of `string`, at most ``SDLCapture/maximumStringSize``, cut at a character boundary.
    private static func captureString(_ string: String) -> [UInt8] {
        var bytes = Array(string.utf8)
        guard bytes.count > SDLCapture.maximumStringSize else { return bytes }
        var end = SDLCapture.maximumStringSize
        // Back up over continuation bytes (10xxxxxx) to the start of a character.
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        bytes.removeSubrange(end...)
        return bytes
    }
}
