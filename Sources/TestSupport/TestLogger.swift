import Foundation
import Logging

extension Logger {
    /// The logger tests hand to servers, sessions and simulators: warnings and above, so that
    /// `swift test` prints what went wrong and not every request. `SDL_TEST_LOG_LEVEL` (trace,
    /// debug, info, notice, warning, error, critical) asks for more, e.g. to follow one failing test.
    public static func test(_ label: String = "test") -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = testLevel
        return logger
    }

    /// `SDL_TEST_LOG_LEVEL`, else warning.
    public static let testLevel: Logger.Level = {
        ProcessInfo.processInfo.environment["SDL_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
    }()
}
