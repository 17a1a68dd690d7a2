import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import TestSupport
import Testing

/// A reader that falls behind loses events, but never silently: ``SDLAppSession/Event/lost(count:)``
/// says how many, where they were lost, for the session's buffer and its connection's together.
@Suite("Event loss is counted and reported", .timeLimit(.minutes(1)))
struct EventLossTests {
    @Test("A burst larger than every buffer: delivered events plus the lost counts equal what was published")
    func burst() async throws {
        let simulator = AppSessionTests.simulator()
        try await simulator.withListening { port in
            let session = SDLAppSession(
                configuration: .init(port: port, app: AppSessionTests.app), eventBufferLimit: 4, logger: Logger.test("test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await session.run() }
                var events = session.events.makeAsyncIterator()
                var delivered = 0
                var lost: [Int] = []
                func count(_ event: SDLAppSession.Event) {
                    if case .lost(let missed) = event { lost.append(missed) } else { delivered += 1 }
                }
                // The `registered` event itself may be among the lost ones; the state is set before
                // it is published, and a loss is always followed by its report.
                while let event = await events.next() {
                    count(event)
                    if session.connectionState == .registered { break }
                }
                #expect(session.connectionState == .registered)
                // However many came while it registered (the reader kept up with them), from here
                // on at most the two buffers' worth (the connection's and the session's) is kept.
                let beforeBurst = delivered
                // Nobody reads while 40 requests make about 80 rpc events, and the HMI its own.
                for index in 0..<40 {
                    _ = try await session.request("ListFiles", options: .init(checkPermissions: false))
                    _ = index
                }
                await session.close()
                try await group.waitForAll()
                while let event = await events.next() { count(event) }
                let total = lost.reduce(0, +)
                #expect(total > 0)
                #expect(delivered + total == session.publishedEventCount)
                #expect(delivered - beforeBurst <= 4 + 4 + lost.count)
                print(
                    "published \(session.publishedEventCount), delivered \(delivered) (\(beforeBurst) before the burst), lost \(total) in \(lost.count) reports"
                )
            }
        }
    }
}
