import SDLProtocol
import Testing

@testable import SDLConformance

@Suite("Conformance: the inbox of notifications")
struct ConformanceInboxTests {
    @Test("It keeps the latest notifications only; marks count every one, and a wait from an old mark finds the oldest kept")
    func bounded() async throws {
        let inbox = ConformanceInbox()
        let extra = 5
        for index in 0..<(ConformanceInbox.capacity + extra) { inbox.record("OnHashChange", ["n": .int(Int64(index))]) }
        #expect(inbox.mark() == ConformanceInbox.capacity + extra)
        let oldest = try await inbox.first("OnHashChange", after: 0) { _ in true }
        #expect(oldest["n"]?.intValue == Int64(extra))
        let last = try await inbox.first("OnHashChange", after: inbox.mark() - 1) { _ in true }
        #expect(last["n"]?.intValue == Int64(ConformanceInbox.capacity + extra - 1))
    }

    @Test("A wait is woken by a later notification, and a cancelled wait ends with CancellationError")
    func waits() async throws {
        let inbox = ConformanceInbox()
        let mark = inbox.mark()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let found = try await inbox.first("OnHMIStatus", after: mark) { $0["hmiLevel"] == "FULL" }
                #expect(found["hmiLevel"] == "FULL")
            }
            inbox.record("OnHMIStatus", ["hmiLevel": "NONE"])
            inbox.record("OnHMIStatus", ["hmiLevel": "FULL"])
            try await group.waitForAll()
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await #expect(throws: CancellationError.self) {
                    try await inbox.first("OnButtonPress", after: inbox.mark()) { _ in true }
                }
            }
            group.cancelAll()
        }
    }
}
