import Foundation
import SDLProtocol

/// One message of an OpenXC trace: `{"name": "vehicle_speed", "value": 42.1, "timestamp": …}`,
/// or an evented one with an `"event"` member (`button_event`, `door_status`).
public struct OpenXCRecord: Sendable, Hashable {
    public var name: String
    public var value: SDLJSON
    public var event: SDLJSON?
    /// Time since the first record of the trace.
    public var offset: Duration
    /// The 1-based line of the trace the record came from.
    public var line: Int

    public init(name: String, value: SDLJSON, event: SDLJSON? = nil, offset: Duration = .zero, line: Int = 0) {
        self.name = name
        self.value = value
        self.event = event
        self.offset = offset
        self.line = line
    }
}

/// A trace that could not be read, with the 1-based line it is about (0 for the whole trace).
public struct OpenXCTraceError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case malformedLine, lineTooLong, tooManyRecords, unreadable
    }

    public var kind: Kind
    public var line: Int
    public var message: String

    public init(kind: Kind, line: Int, message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}

/// An OpenXC trace (newline-delimited JSON, one signal message per line, `timestamp` in UNIX
/// seconds), as recorded by the OpenXC vehicle interface and its Python tools.
///
/// Blank lines are skipped. Each other line must be a JSON object with a string `name`, a
/// `value` and optionally an `event` and a numeric `timestamp`. A record without a timestamp
/// takes the previous record's (or the earliest timestamp of the trace when it comes first), so
/// untimed evented traces play all at once, in file order. Records are sorted by timestamp
/// (stable, so equal timestamps keep file order) and their ``OpenXCRecord/offset`` is relative
/// to the earliest timestamp.
public struct OpenXCTrace: Sendable, Hashable {
    public static let defaultMaximumLineLength = 4096
    public static let defaultMaximumRecords = 1_000_000

    /// The records in playing order.
    public var records: [OpenXCRecord]

    /// The offset of the last record.
    public var duration: Duration { records.last?.offset ?? .zero }

    public init(records: [OpenXCRecord]) {
        self.records = records
    }

    /// Parses a trace. Throws ``OpenXCTraceError`` naming the first bad line; lines longer than
    /// `maximumLineLength` bytes and traces with more than `maximumRecords` records are errors.
    public init(
        data: some Collection<UInt8>, maximumLineLength: Int = defaultMaximumLineLength,
        maximumRecords: Int = defaultMaximumRecords
    ) throws(OpenXCTraceError) {
        var parsed: [(timestamp: Double?, record: OpenXCRecord)] = []
        var lineNumber = 0
        var line: [UInt8] = []
        line.reserveCapacity(256)
        var tooLong = false

        func finish() throws(OpenXCTraceError) {
            lineNumber += 1
            defer {
                line.removeAll(keepingCapacity: true)
                tooLong = false
            }
            if tooLong {
                throw OpenXCTraceError(kind: .lineTooLong, line: lineNumber, message: "longer than \(maximumLineLength) bytes")
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
            guard parsed.count < maximumRecords else {
                throw OpenXCTraceError(kind: .tooManyRecords, line: lineNumber, message: "more than \(maximumRecords) records")
            }
            parsed.append(try Self.parseLine(line, number: lineNumber))
        }

        for byte in data {
            if byte == 0x0A {
                try finish()
            } else if line.count < maximumLineLength {
                line.append(byte)
            } else {
                tooLong = true
            }
        }
        if !line.isEmpty || tooLong { try finish() }

        let first = parsed.lazy.compactMap(\.timestamp).min() ?? 0
        var last = first
        var timed: [(timestamp: Double, index: Int, record: OpenXCRecord)] = []
        timed.reserveCapacity(parsed.count)
        for (index, entry) in parsed.enumerated() {
            if let timestamp = entry.timestamp { last = timestamp }
            timed.append((last, index, entry.record))
        }
        timed.sort { $0.timestamp != $1.timestamp ? $0.timestamp < $1.timestamp : $0.index < $1.index }
        records = timed.map { entry in
            var record = entry.record
            let offset = max(0, entry.timestamp - first)
            record.offset = .nanoseconds(Int64((offset * 1e9).rounded()))
            return record
        }
    }

    /// Parses trace text.
    public init(
        text: String, maximumLineLength: Int = defaultMaximumLineLength, maximumRecords: Int = defaultMaximumRecords
    ) throws(OpenXCTraceError) {
        try self.init(data: Array(text.utf8), maximumLineLength: maximumLineLength, maximumRecords: maximumRecords)
    }

    /// Reads and parses the trace file at `path`; files over `maximumFileSize` bytes are refused.
    public init(
        contentsOfFile path: String, maximumFileSize: Int = 64 << 20, maximumLineLength: Int = defaultMaximumLineLength,
        maximumRecords: Int = defaultMaximumRecords
    ) throws(OpenXCTraceError) {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? NSNumber, size.intValue > maximumFileSize {
                throw OpenXCTraceError(kind: .unreadable, line: 0, message: "\(path): larger than \(maximumFileSize) bytes")
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as OpenXCTraceError {
            throw error
        } catch {
            throw OpenXCTraceError(kind: .unreadable, line: 0, message: "\(path): \(error.localizedDescription)")
        }
        try self.init(data: data, maximumLineLength: maximumLineLength, maximumRecords: maximumRecords)
    }

    static func parseLine(_ bytes: [UInt8], number: Int) throws(OpenXCTraceError) -> (timestamp: Double?, record: OpenXCRecord) {
        func fail(_ message: String) -> OpenXCTraceError {
            OpenXCTraceError(kind: .malformedLine, line: number, message: message)
        }
        let json: SDLJSON
        do {
            json = try SDLJSON.parse(bytes, maximumDepth: 8)
        } catch {
            throw fail("not JSON: \(error)")
        }
        guard case .object(let members) = json else { throw fail("not a JSON object") }
        guard let name = members["name"]?.stringValue, !name.isEmpty else { throw fail("no string \"name\"") }
        guard let value = members["value"], value != .null else { throw fail("no \"value\"") }
        var timestamp: Double?
        if let stamp = members["timestamp"] {
            guard let seconds = stamp.doubleValue, seconds.isFinite else { throw fail("\"timestamp\" is not a number") }
            timestamp = seconds
        }
        let event = members["event"].flatMap { $0 == .null ? nil : $0 }
        return (timestamp, OpenXCRecord(name: name, value: value, event: event, line: number))
    }
}
