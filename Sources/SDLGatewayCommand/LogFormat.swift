import ArgumentParser
import Logging

/// How `serve` writes its log: swift-log's text lines (standard error), or JSON lines on
/// standard output, the announcements included.
enum LogFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text
    case json

    /// Makes every logger of the process use this format; call once, before the first logger.
    func bootstrap(level: Logger.Level) {
        let format = self
        LoggingSystem.bootstrap(
            { label, provider in
                var handler: any LogHandler =
                    switch format {
                    case .text: DeferredMetadataLogHandler(label: label, metadataProvider: provider)
                    case .json: JSONLogHandler(label: label, metadataProvider: provider)
                    }
                handler.logLevel = level
                return handler
            }, metadataProvider: nil)
    }
}
