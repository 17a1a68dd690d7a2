import Logging
import Synchronization
import Testing

@testable import SDLGatewayCommand

/// The text log (`--log-format text`): swift-log's own lines, the logger's metadata handed over
/// only when a line is written.
@Suite("Text log lines")
struct DeferredMetadataLogHandlerTests {
    /// A stream that keeps what is written to it.
    final class Stream: TextOutputStream, Sendable {
        private let text = Mutex("")
        var all: String { text.withLock { $0 } }
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    /// The line without its timestamp (everything up to the first space).
    private static func withoutTime(_ line: String) -> Substring { line.drop { $0 != " " } }

    @Test("A line is StreamLogHandler's: the logger's metadata, the call's, the source and the message")
    func sameLineAsStreamLogHandler() {
        let deferred = Stream()
        let plain = Stream()
        var loggers = [
            Logger(label: "sdl-gateway") { label in
                DeferredMetadataLogHandler(base: StreamLogHandler(label: label, stream: deferred, metadataProvider: nil))
            },
            Logger(label: "sdl-gateway") { label in StreamLogHandler(label: label, stream: plain, metadataProvider: nil) },
        ]
        for index in loggers.indices {
            loggers[index][metadataKey: "hb.request.id"] = "42"
            loggers[index][metadataKey: "gateway.app"] = "radio"
            loggers[index][metadataKey: "gateway.app"] = "media"
            loggers[index].logLevel = .info
            loggers[index].debug("not written")
            loggers[index].info("app registered", metadata: ["sdl.core": "tcp://core:12345"], source: "Gateway")
        }
        #expect(loggers[0][metadataKey: "gateway.app"] == "media")
        #expect(!deferred.all.isEmpty)
        #expect(Self.withoutTime(deferred.all) == Self.withoutTime(plain.all))
        #expect(deferred.all.contains("gateway.app=media"))
        #expect(deferred.all.contains("hb.request.id=42"))
        #expect(deferred.all.hasSuffix("[Gateway] app registered\n"))
    }
}
