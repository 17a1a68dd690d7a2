import FuzzSupport
import NIOCore
import SDLProtocol

/// One pass of ``SDLCaptureDecoder`` over a capture file, as `sdl-gateway inspect` makes it:
/// what it saw is compared between two ways of delivering the same bytes.
struct CaptureRead: Equatable, CustomStringConvertible {
    var header: SDLCaptureHeader?
    var records: [SDLCaptureRecord] = []
    /// The error of ``SDLCaptureDecoder/next(buffer:)`` or ``SDLCaptureDecoder/finish(remaining:)``.
    var error: SDLProtocolError?
    /// Bytes the decoder consumed: the header and the whole records.
    var consumed = 0

    var description: String {
        "header \(header.map(String.init(describing:)) ?? "none"), \(records.count) records, "
            + "error \(error.map(String.init(describing:)) ?? "none"), \(consumed) bytes consumed"
    }

    static let captureCodes: Set<SDLProtocolError.Code> = [
        .captureInvalidMagic, .captureUnsupportedVersion, .captureTruncated, .captureInvalidRecord,
    ]

    /// Decodes `file`, handing the decoder all of it at once (`readSize` nil) or `readSize` bytes
    /// more per read, then ends it.
    static func run(_ file: ByteBuffer, readSize: Int?) -> CaptureRead {
        var result = CaptureRead()
        var decoder = SDLCaptureDecoder()
        var remaining = file
        var received = ByteBuffer()
        repeat {
            if let readSize {
                var piece = remaining.readSlice(length: min(readSize, remaining.readableBytes))!
                received.writeBuffer(&piece)
            } else {
                received.writeBuffer(&remaining)
            }
            while true {
                let before = received
                let item: SDLCaptureDecoder.Item?
                do {
                    item = try decoder.next(buffer: &received)
                } catch {
                    check(received == before, "the decoder consumed bytes before throwing \(error)")
                    return result.ended(by: error, in: file)
                }
                guard let item else {
                    check(received == before, "the decoder consumed bytes and asked for more")
                    break
                }
                check(received.readableBytes < before.readableBytes, "the decoder returned \(item) and consumed nothing")
                switch item {
                case .header(let header):
                    check(result.header == nil && result.records.isEmpty, "a second header, or one after records")
                    result.header = header
                case .record(let record):
                    check(result.header != nil, "a record before the header")
                    check(record.payload.readableBytes <= SDLCapture.maximumPayloadSize, "a record above the payload limit")
                    if record.kind == .dropped { check(record.droppedCount != nil, "a dropped record without its count") }
                    result.records.append(record)
                }
                result.consumed = decoder.consumed
                check(
                    result.consumed == file.readableBytes - remaining.readableBytes - received.readableBytes,
                    "the decoder says it consumed \(result.consumed) bytes")
            }
        } while remaining.readableBytes > 0
        do {
            try decoder.finish(remaining: received)
            check(received.readableBytes == 0 && result.header != nil, "finish accepted a partial file")
        } catch {
            return result.ended(by: error, in: file)
        }
        return result
    }

    private func ended(by error: SDLProtocolError, in file: ByteBuffer) -> CaptureRead {
        check(Self.captureCodes.contains(error.code), "the capture decoder failed with \(error)")
        check(error.offset.map { $0 >= 0 && $0 <= file.readableBytes } ?? false, "error offset outside the file: \(error)")
        var result = self
        result.error = error
        return result
    }

    /// What decoded, written again, decodes to itself; a header without unknown fields and
    /// records without reserved bytes set are the bytes they were read from.
    func checkRoundTrip(of file: ByteBuffer) {
        guard let header else { return }
        var encoded = ByteBuffer()
        let headerLength = encoded.writeSDLCaptureHeader(header)
        for record in records { encoded.writeSDLCaptureRecord(record) }
        let again: (header: SDLCaptureHeader, records: [SDLCaptureRecord])
        do {
            again = try SDLCaptureDecoder.decode(encoded)
        } catch {
            check(false, "a re-encoded capture file does not decode: \(error)")
            return
        }
        check(again.header == header && again.records == records, "a re-encoded capture file decodes differently")
        let fileHeaderLength = Int(file.getInteger(at: file.readerIndex + 10, as: UInt16.self)!)
        if fileHeaderLength == headerLength, !Self.hasReservedBytes(file, from: headerLength, records: records) {
            check(
                encoded == file.getSlice(at: file.readerIndex, length: encoded.readableBytes)!,
                "a capture file does not re-encode byte for byte")
        }
    }

    /// Whether a record header of `file` has a reserved byte (1...3) that is not 0.
    private static func hasReservedBytes(_ file: ByteBuffer, from start: Int, records: [SDLCaptureRecord]) -> Bool {
        var offset = file.readerIndex + start
        for record in records {
            if file.getBytes(at: offset + 1, length: 3) != [0, 0, 0] { return true }
            offset += SDLCapture.recordHeaderSize + record.payload.readableBytes
        }
        return false
    }
}
