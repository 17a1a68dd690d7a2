import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import TestSupport
import Testing

/// Message ids reach the head unit in the order the session numbered them, however many tasks
/// send at once (docs/protocol.md §a "Session id, message id, hash id").
@Suite("Wire order is message-id order", .timeLimit(.minutes(1)))
struct WireOrderTests {
    @Test("64 tasks × 4 requests at once: the message ids on the wire strictly increase")
    func concurrentSenders() async throws {
        let tap = WireTap()
        try await ConnectionTests.withSimulator { _, unitPort in
            try await withThrowingTaskGroup(of: Void.self) { group in
                let (ports, portContinuation) = AsyncStream<Int>.makeStream()
                group.addTask {
                    try await tap.run(upstreamPort: unitPort) {
                        portContinuation.yield($0); portContinuation.finish()
                    }
                }
                var portIterator = ports.makeAsyncIterator()
                let port = try #require(await portIterator.next())
                let ended = try await ConnectionTests.withConnection(port: port) { connection, _ in
                    try await ConnectionTests.waitFor(connection, ConnectionClockTests.active)
                    try await withThrowingTaskGroup(of: Int.self) { senders in
                        for task in 0..<64 {
                            senders.addTask {
                                var answered = 0
                                for request in 0..<4 {
                                    let response = try await connection.request(
                                        "Show", ["mainField1": .string("\(task).\(request)")], options: .init(checkPermissions: false)
                                    )
                                    if response.parameters["success"] == true { answered += 1 }
                                }
                                return answered
                            }
                        }
                        let answered = try await senders.reduce(0, +)
                        #expect(answered == 256)
                    }
                }
                #expect(ended == nil)
                group.cancelAll()
            }
        }
        // Session 0 carries only StartService; the session's frames all number from 1 up.
        let ids = tap.sent.filter { $0.sessionID != 0 && $0.frameType != .consecutive }.map(\.messageID)
        let shows = tap.sent.filter { $0.sessionID != 0 && $0.frameType == .single && $0.serviceType == .rpc }.count
        #expect(shows >= 256)
        let outOfOrder = zip(ids, ids.dropFirst()).filter { $0 >= $1 }
        #expect(outOfOrder.isEmpty, "message ids out of order on the wire: \(outOfOrder.prefix(5))")
        print("\(ids.count) frames on the wire, message ids \(ids.first ?? 0)…\(ids.last ?? 0), \(outOfOrder.count) out of order")
    }
}
