import HeadUnitSimulator
import Logging
import NIOCore
import SDLClient
import SDLProtocol
import SDLTime
import TestSupport
import Testing

/// A caller that goes away (a cancelled task: an HTTP client that disconnected) frees what its
/// request held at once, instead of at the request's deadline. The clock is manual and never
/// moved, so no deadline can be what frees anything here.
@Suite("Cancelled requests free their resources at once", .timeLimit(.minutes(1)))
struct CancellationTests {
    static func sent(_ function: String) -> (SDLAppEvent) -> Bool {
        { event in
            if case .rpc(let entry) = event { entry.direction == .sent && entry.function == function } else { false }
        }
    }

    @Test("A pending request whose task is cancelled fails with cancelled and frees its slot; a slot-limited queue is usable again")
    func pendingCancelled() async throws {
        let clock = SDLManualClock()
        try await ConnectionTests.withSimulator { simulator, port in
            try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Alert", hang: true)), []) }
            _ = try await ConnectionTests.withConnection(port: port, clock: clock) { connection, _ in
                try await ConnectionTests.waitFor(connection, ConnectionClockTests.active)
                let counted = connection.rateLimitCounted
                try await withThrowingTaskGroup(of: SDLClientError.Code?.self) { group in
                    group.addTask {
                        do {
                            _ = try await connection.request(
                                "Alert", ["alertText1": "never answered"], options: .init(checkPermissions: false))
                            return nil
                        } catch {
                            return (error as? SDLClientError)?.code
                        }
                    }
                    try await ConnectionTests.waitFor(connection, Self.sent("Alert"))
                    #expect(connection.pendingRequestCount == 1)
                    #expect(clock.scheduledDeadlines.count == 1)
                    group.cancelAll()
                    let code = try await group.next()
                    #expect(code == .cancelled)
                }
                // Freed in the cancellation itself: no deadline passed, the clock never moved.
                #expect(connection.pendingRequestCount == 0)
                #expect(clock.scheduledDeadlines.isEmpty)
                // The request went out, so the head unit counts it: so does the client.
                #expect(connection.rateLimitCounted == counted + 1)
                let show = try await connection.request("Show", ["mainField1": "still here"], options: .init(checkPermissions: false))
                #expect(show.parameters["success"] == true)
            }
        }
    }

    @Test("A caller cancelled before its request is queued sends nothing and takes no rate-limit count")
    func cancelledBeforeSending() async throws {
        try await ConnectionTests.withSimulator { simulator, port in
            _ = try await ConnectionTests.withConnection(port: port) { connection, _ in
                let counted = connection.rateLimitCounted
                let code = await withTaskGroup(of: SDLClientError.Code?.self) { group in
                    group.addTask {
                        withUnsafeCurrentTask { $0?.cancel() }
                        do {
                            _ = try await connection.request("Show", ["mainField1": "never sent"], options: .init(checkPermissions: false))
                            return nil
                        } catch {
                            return (error as? SDLClientError)?.code
                        }
                    }
                    return await group.next() ?? nil
                }
                #expect(code == .cancelled)
                #expect(connection.rateLimitCounted == counted)
                #expect(connection.pendingRequestCount == 0)
                #expect(connection.tracker.trafficLog.entries.allSatisfy { !($0.direction == .sent && $0.function == "Show") })
                #expect(simulator.snapshot.log.entries.allSatisfy { $0.function != "Show" })
            }
        }
    }

    /// A registered app session whose head unit holds every Alert (a hang fault), with its
    /// events, for `body`; the session is closed and run to its end afterwards.
    static func withHangingAlert(
        _ body: (SDLAppSession, inout SDLEventStream<SDLAppSession.Event>.AsyncIterator) async throws -> Void
    ) async throws {
        let simulator = AppSessionTests.simulator()
        try await simulator.withListening { port in
            try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Alert", hang: true)), []) }
            let session = SDLAppSession(
                configuration: .init(port: port, app: AppSessionTests.app), clock: SDLManualClock(), logger: Logger.test("test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await session.run() }
                var events = session.events.makeAsyncIterator()
                #expect(await AppSessionTests.waitFor(.registered, in: &events) != nil)
                try await body(session, &events)
                await session.close()
                try await group.waitForAll()
            }
        }
    }

    /// Sends an Alert (which the head unit holds); how it failed, or nil if it succeeded.
    static func alert(_ session: SDLAppSession, _ text: String) async -> SDLClientError? {
        do {
            _ = try await session.request("Alert", ["alertText1": .string(text)], options: .init(checkPermissions: false))
            return nil
        } catch {
            return error as? SDLClientError
        }
    }

    @Test("Through the app session (the gateway's path), a cancelled caller is released at once too")
    func sessionCancelled() async throws {
        try await Self.withHangingAlert { session, events in
            let failure = await withTaskGroup(of: SDLClientError?.self) { callers in
                callers.addTask { await Self.alert(session, "gone") }
                #expect(await AppSessionTests.waitForSent("Alert", in: &events))
                callers.cancelAll()
                return await callers.next() ?? nil
            }
            #expect(failure?.code == .cancelled)
            #expect(session.connection?.pendingRequestCount == 0)
        }
    }

    @Test("Closing the session while a request is pending fails it at once with cancelled, not linkLost")
    func sessionCloseCancelsPending() async throws {
        try await Self.withHangingAlert { session, events in
            let failure = await withTaskGroup(of: SDLClientError?.self) { callers in
                callers.addTask { await Self.alert(session, "pending") }
                #expect(await AppSessionTests.waitForSent("Alert", in: &events))
                await session.close()
                return await callers.next() ?? nil
            }
            #expect(failure?.code == .cancelled)
            #expect(failure?.detail.contains("Alert") == true)
        }
    }
}
