import Logging
import Synchronization
import Testing

@testable import SDLGatewayCommand

@Suite("JSON log lines (--log-format json)")
struct JSONLogHandlerTests {
    /// The lines a handler wrote.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    /// A handler writing into `lines`, at a fixed time: 2026-11-25T02:30:00.123456Z.
    static func handler(_ lines: Lines, provider: Logger.MetadataProvider? = nil) -> JSONLogHandler {
        JSONLogHandler(label: "sdl-gateway", sink: LogLineSink { lines.append($0) }, metadataProvider: provider) {
            1_795_573_800_123_456
        }
    }

    @Test("A line has time, level, label, source, message and sorted metadata, in that order")
    func goldenLine() {
        let lines = Lines()
        var logger = Logger(label: "sdl-gateway") { _ in Self.handler(lines) }
        logger[metadataKey: "gateway.app"] = "radio"
        logger.info(
            "app registered", metadata: ["sdl.core": "tcp://core:12345", "attempt": Logger.MetadataValue.stringConvertible(2)],
            source: "Gateway")
        #expect(
            lines.all == [
                #"{"time":"2026-11-25T02:30:00.123Z","level":"info","label":"sdl-gateway","source":"Gateway","message":"app registered","metadata":{"attempt":"2","gateway.app":"radio","sdl.core":"tcp://core:12345"}}"#
            ])
    }

    @Test("Quotes, backslashes, newlines and control characters are escaped; non-ASCII stays as it is")
    func escaping() {
        let line = JSONLogHandler.line(
            time: 0, level: .warning, label: "a\"b", source: "x\\y", message: "line 1\nline 2\t\u{01}\r ü 🚗", metadata: [:]
        )
        #expect(
            line
                == #"{"time":"1970-01-01T00:00:00.000Z","level":"warning","label":"a\"b","source":"x\\y","message":"line 1\nline 2\t\u0001\r ü 🚗"}"#
        )
    }

    @Test("Arrays and dictionaries nest; the call's metadata wins over the provider's, which wins over the logger's; no metadata, no key")
    func metadataMerging() {
        let lines = Lines()
        let provider = Logger.MetadataProvider { ["request": "r-1", "who": "provider"] }
        var logger = Logger(label: "sdl-gateway") { _ in Self.handler(lines, provider: provider) }
        logger[metadataKey: "who"] = "logger"
        logger[metadataKey: "kept"] = "yes"
        logger.error("failed", metadata: ["who": "call", "list": .array(["a", .dictionary(["k": "v"])])], source: "Gateway")
        let plain = Logger(label: "sdl-gateway") { _ in Self.handler(lines) }
        plain.notice("quiet", source: "Gateway")
        #expect(
            lines.all == [
                #"{"time":"2026-11-25T02:30:00.123Z","level":"error","label":"sdl-gateway","source":"Gateway","message":"failed","metadata":{"kept":"yes","list":["a",{"k":"v"}],"request":"r-1","who":"call"}}"#,
                #"{"time":"2026-11-25T02:30:00.123Z","level":"notice","label":"sdl-gateway","source":"Gateway","message":"quiet"}"#,
            ])
    }

    @Test("The level is the logger's: below it nothing is written")
    func level() {
        let lines = Lines()
        var logger = Logger(label: "sdl-gateway") { _ in Self.handler(lines) }
        logger.logLevel = .warning
        logger.info("dropped")
        logger.warning("kept")
        #expect(lines.all.count == 1)
    }
}
