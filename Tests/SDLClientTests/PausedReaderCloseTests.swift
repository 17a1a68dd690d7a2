import Logging
import NIOCore
import SDLClient
import SDLProtocol
import TestSupport
import Testing

/// A connection that stops reading the head unit for a consumer of its events that fell behind
/// (``SDLEventOverflow/pauseReading``) still closes: ending the link lets its reader go on
/// instead of waiting for the consumer.
@Suite("A paused reader and the session's end", .timeLimit(.minutes(1)))
struct PausedReaderCloseTests {
    @Test("Nobody reads the events: the reader pauses (a response is no longer read); close() still ends run()")
    func closeWhilePaused() async throws {
        try await ConnectionTests.withSimulator { _, port in
            var configuration = SDLConnection.Configuration(port: port, app: SDLAppConfiguration(appName: "Paused", appID: "paused"))
            configuration.eventOverflow = .pauseReading
            let connection = SDLConnection(configuration: configuration, eventBufferLimit: 32, logger: Logger.test("test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try? await connection.run() }
                _ = try #require(await ConnectionTests.registration(of: connection), "registered")
                // Each response is an event too: with half the buffer waiting (the registration's
                // events fit below it), the reader stops, and the next response is not read.
                var paused = false
                for _ in 0..<100 where !paused {
                    do {
                        _ = try await connection.request(
                            "ListFiles", options: SDLRequestOptions(timeout: .milliseconds(500), checkPermissions: false))
                    } catch {
                        paused = (error as? SDLClientError)?.code == .timedOut
                    }
                }
                #expect(paused, "the reader paused")
                await connection.close()
                try await group.waitForAll()
            }
        }
    }
}
