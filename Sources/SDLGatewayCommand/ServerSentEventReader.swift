/// One event of a `text/event-stream` (WHATWG HTML §9.2 "Server-sent events"): the gateway's
/// `GET /v1/apps/{id}/events` writes `id: SEQ`, `event: TYPE` and one `data:` line holding the
/// event's envelope (README "Events").
struct ServerSentEvent: Sendable, Equatable {
    var id: String?
    var type: String?
    var data: String
}

/// Turns the bytes of an event stream, as they arrive, into events. Lines end with LF, CRLF or
/// CR; `:` lines are comments (the gateway's keep-alives); an event ends at an empty line. A line
/// or an event longer than ``maximumEventBytes`` is refused rather than buffered without end.
struct ServerSentEventReader: Sendable {
    let maximumEventBytes: Int
    private var line: [UInt8] = []
    private var pending = ServerSentEvent(data: "")
    private var pendingBytes = 0
    private var hasData = false
    /// A CR ended the last line: an LF right after it belongs to it.
    private var afterCR = false

    init(maximumEventBytes: Int = 4 << 20) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// The events that `bytes` completes, in order.
    mutating func read(_ bytes: some Sequence<UInt8>) throws(ServerSentEventError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == UInt8(ascii: "\n") { continue }
            }
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCR = byte == UInt8(ascii: "\r")
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count + pendingBytes < maximumEventBytes else {
                    throw ServerSentEventError(limit: maximumEventBytes)
                }
                line.append(byte)
            }
        }
        return events
    }

    /// Ends the current line: the event it completes, if it is an empty line after data.
    private mutating func endLine() throws(ServerSentEventError) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            defer {
                pending = ServerSentEvent(data: "")
                pendingBytes = 0
                hasData = false
            }
            return hasData ? pending : nil
        }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var value = line[colon...].dropFirst()
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        pendingBytes += line.count
        switch field {
        case "data":
            pending.data += hasData ? "\n" + text : text
            hasData = true
        case "event": pending.type = text
        case "id": pending.id = text
        default: break  // `retry` and unknown fields: nothing for a command line
        }
        return nil
    }
}

/// An event stream whose line or event passed the reader's limit.
struct ServerSentEventError: Error, Equatable, CustomStringConvertible {
    let limit: Int
    var description: String { "an event of the stream is longer than \(limit) bytes" }
}
