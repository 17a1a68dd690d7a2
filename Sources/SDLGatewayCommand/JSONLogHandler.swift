import Foundation
import Logging
import SDLProtocol
import Synchronization

/// A swift-log handler that writes one JSON object per line (`--log-format json`,
/// `SDL_GATEWAY_LOG_FORMAT=json`), for log collectors that read a container's standard output:
///
/// ```json
/// {"time":"2026-11-25T02:30:00.123Z","level":"info","label":"sdl-gateway","source":"Gateway","message":"app
/// registered","metadata":{"app":"radio"}}
/// ```
///
/// Keys come in that order; `metadata` (the logger's, its provider's and the call's, the call
/// winning) is left out when empty and its keys are sorted. Every line is written whole with one
/// `write(2)` under a lock, so lines of concurrent loggers never interleave.
struct JSONLogHandler: LogHandler {
    let label: String
    let sink: LogLineSink
    /// Microseconds since 1970: the wall clock, or a fixed one in tests.
    let now: @Sendable () -> Int64
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(
        label: String, sink: LogLineSink = .standardOutput, metadataProvider: Logger.MetadataProvider? = nil,
        now: @escaping @Sendable () -> Int64 = { SDLTimestamp.microseconds(secondsSince1970: Date().timeIntervalSince1970) }
    ) {
        self.label = label
        self.sink = sink
        self.metadataProvider = metadataProvider
        self.now = now
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        if let error = event.error { merged["error"] = .string(String(describing: error)) }
        sink.write(
            Self.line(
                time: now(), level: event.level, label: label, source: event.source, message: event.message.description, metadata: merged))
    }

    /// A line that scripts wait for (where the API listens), written at `notice` whatever the log level.
    @Sendable static func announce(_ message: String) {
        let handler = JSONLogHandler(label: "sdl-gateway")
        LogLineSink.standardOutput.write(
            line(time: handler.now(), level: .notice, label: handler.label, source: "SDLGatewayCommand", message: message, metadata: [:]))
    }

    /// One log line, without its newline.
    static func line(time: Int64, level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata) -> String
    {
        var out = "{\"time\":\"\(SDLTimestamp.rfc3339(microsecondsSince1970: time))\",\"level\":"
        appendString(level.rawValue, to: &out)
        out += ",\"label\":"
        appendString(label, to: &out)
        out += ",\"source\":"
        appendString(source, to: &out)
        out += ",\"message\":"
        appendString(message, to: &out)
        if !metadata.isEmpty {
            out += ",\"metadata\":"
            appendObject(metadata, to: &out)
        }
        out += "}"
        return out
    }

    private static func appendObject(_ metadata: Logger.Metadata, to out: inout String) {
        out += "{"
        for (index, key) in metadata.keys.sorted().enumerated() {
            if index > 0 { out += "," }
            appendString(key, to: &out)
            out += ":"
            appendValue(metadata[key]!, to: &out)
        }
        out += "}"
    }

    private static func appendValue(_ value: Logger.Metadata.Value, to out: inout String) {
        switch value {
        case .string(let text): appendString(text, to: &out)
        case .stringConvertible(let convertible): appendString(convertible.description, to: &out)
        case .dictionary(let dictionary): appendObject(dictionary, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                appendValue(value, to: &out)
            }
            out += "]"
        }
    }

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Where log lines go: standard output, or a test's array.
struct LogLineSink: Sendable {
    let write: @Sendable (String) -> Void

    /// Standard output, a whole line per `write(2)`, serialised by a lock.
    static let standardOutput = LogLineSink { line in
        let bytes = Array((line + "\n").utf8)
        standardOutputLock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { raw in Foundation.write(1, raw.baseAddress! + offset, raw.count - offset) }
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // standard output is gone: nowhere left to say it
                }
            }
        }
    }

    private static let standardOutputLock = Mutex(())
}
