import Logging

/// swift-log's text lines (`StreamLogHandler` on standard error, the default handler) with the
/// logger's metadata kept aside until a line is written. `StreamLogHandler` formats its whole
/// metadata each time one key is set, and Hummingbird sets a request id on every request's
/// logger: 2% of a REST request's CPU time for lines that, at the default level, are never
/// written (BENCHMARKS.md, issue "Performance"). The lines are `StreamLogHandler`'s own.
struct DeferredMetadataLogHandler: LogHandler {
    private var base: StreamLogHandler
    var metadata: Logger.Metadata = [:]

    init(label: String, metadataProvider: Logger.MetadataProvider?) {
        self.init(base: StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider))
    }

    /// Writes through `base` (tests: a stream of their own).
    init(base: StreamLogHandler) {
        self.base = base
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var writer = base
        writer.metadata = metadata
        writer.log(event: event)
    }
}
