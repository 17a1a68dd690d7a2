import NIOCore

/// Reads a capture file (``SDLCapture``) incrementally: bytes arrive in any chunking; the header
/// first, then one record per call. With a header or record not wholly readable it returns `nil`
/// and consumes nothing; lengths are checked before anything is buffered, so a hostile length
/// never makes a reader hold more than one record of ``SDLCapture/maximumPayloadSize``.
///
/// Errors carry the absolute byte offset in the file (``SDLProtocolError/offset``).
public struct SDLCaptureDecoder: Sendable {
    /// The file's header, once read.
    public private(set) var header: SDLCaptureHeader?
    /// Bytes of the file consumed so far: where the next record starts.
    public private(set) var consumed = 0

    public init() {}

    /// The header (once) and then the next record, or `nil` when more bytes are needed.
    public enum Item: Sendable, Hashable {
        case header(SDLCaptureHeader)
        case record(SDLCaptureRecord)
    }

    /// The next item, or `nil` (consuming nothing) when it is not all readable yet.
    public mutating func next(buffer: inout ByteBuffer) throws(SDLProtocolError) -> Item? {
        if header == nil {
            guard let header = try decodeHeader(buffer: &buffer) else { return nil }
            self.header = header
            return .header(header)
        }
        return try decodeRecord(buffer: &buffer).map(Item.record)
    }

    /// Ends the file: an unread header or a partial record is a truncated file.
    public func finish(remaining buffer: ByteBuffer) throws(SDLProtocolError) {
        if header == nil {
            if buffer.readableBytes >= SDLCapture.magic.count, !SDLCapture.hasMagic(buffer) {
                throw SDLProtocolError(.captureInvalidMagic, "not a capture file (no SDLCAP magic)", offset: consumed)
            }
            throw SDLProtocolError(
                .captureTruncated, "the file ends inside the capture header (\(buffer.readableBytes) bytes)", offset: consumed)
        }
        if buffer.readableBytes > 0 {
            throw SDLProtocolError(
                .captureTruncated, "the file ends inside a record (\(buffer.readableBytes) bytes left over)", offset: consumed)
        }
    }

    /// Decodes a whole file held in memory.
    public static func decode(_ bytes: ByteBuffer) throws(SDLProtocolError) -> (header: SDLCaptureHeader, records: [SDLCaptureRecord]) {
        var decoder = SDLCaptureDecoder()
        var bytes = bytes
        var records: [SDLCaptureRecord] = []
        while let item = try decoder.next(buffer: &bytes) {
            if case .record(let record) = item { records.append(record) }
        }
        try decoder.finish(remaining: bytes)
        // finish() throws when there is no header.
        return (decoder.header!, records)
    }

    private mutating func decodeHeader(buffer: inout ByteBuffer) throws(SDLProtocolError) -> SDLCaptureHeader? {
        var peek = buffer
        let prefix = min(peek.readableBytes, SDLCapture.magic.count)
        if peek.getBytes(at: peek.readerIndex, length: prefix) != Array(SDLCapture.magic.prefix(prefix)) {
            throw SDLProtocolError(.captureInvalidMagic, "not a capture file (no SDLCAP magic)", offset: consumed)
        }
        guard peek.readableBytes >= SDLCapture.fixedHeaderSize else { return nil }
        peek.moveReaderIndex(forwardBy: SDLCapture.magic.count)
        let version = peek.readInteger(as: UInt16.self)!
        let length = Int(peek.readInteger(as: UInt16.self)!)
        let start = peek.readInteger(as: Int64.self)!
        guard version == SDLCapture.version else {
            throw SDLProtocolError(
                .captureUnsupportedVersion, "capture format version \(version); this reader knows \(SDLCapture.version)",
                offset: consumed + 8)
        }
        guard length >= SDLCapture.fixedHeaderSize + 6 else {
            throw SDLProtocolError(.captureInvalidRecord, "header length \(length) is too short", offset: consumed + 10)
        }
        guard buffer.readableBytes >= length else { return nil }
        var strings: [String] = []
        var fieldOffset = SDLCapture.fixedHeaderSize
        for name in ["app id", "SDL appID", "head unit"] {
            guard let size = peek.readInteger(as: UInt16.self).map(Int.init), fieldOffset + 2 + size <= length else {
                throw SDLProtocolError(
                    .captureInvalidRecord, "the \(name) runs past the header length \(length)", offset: consumed + fieldOffset)
            }
            guard size <= SDLCapture.maximumStringSize, let bytes = peek.readBytes(length: size),
                let string = String(validating: bytes, as: UTF8.self)
            else {
                throw SDLProtocolError(
                    .captureInvalidRecord, "the \(name) is not UTF-8 of at most \(SDLCapture.maximumStringSize) bytes",
                    offset: consumed + fieldOffset)
            }
            strings.append(string)
            fieldOffset += 2 + size
        }
        // Fields a later minor revision may add, up to the header length, are skipped.
        buffer.moveReaderIndex(forwardBy: length)
        consumed += length
        return SDLCaptureHeader(app: strings[0], sdlAppID: strings[1], headUnit: strings[2], startMicroseconds: start)
    }

    private mutating func decodeRecord(buffer: inout ByteBuffer) throws(SDLProtocolError) -> SDLCaptureRecord? {
        var peek = buffer
        guard peek.readableBytes >= SDLCapture.recordHeaderSize else { return nil }
        let rawKind = peek.readInteger(as: UInt8.self)!
        peek.moveReaderIndex(forwardBy: 3)
        let time = peek.readInteger(as: UInt64.self)!
        let length = Int(peek.readInteger(as: UInt32.self)!)
        guard let kind = SDLCaptureRecord.Kind(rawValue: rawKind) else {
            throw SDLProtocolError(.captureInvalidRecord, "unknown record kind \(rawKind)", offset: consumed)
        }
        guard length <= SDLCapture.maximumPayloadSize else {
            throw SDLProtocolError(
                .captureInvalidRecord, "record length \(length) is above \(SDLCapture.maximumPayloadSize)", offset: consumed + 12)
        }
        if kind == .dropped && length != 4 {
            throw SDLProtocolError(.captureInvalidRecord, "a dropped record has 4 payload bytes, not \(length)", offset: consumed + 12)
        }
        guard let payload = peek.readSlice(length: length) else { return nil }
        buffer = peek
        consumed += SDLCapture.recordHeaderSize + length
        return SDLCaptureRecord(kind: kind, offsetMicroseconds: time, payload: payload)
    }
}
