import NIOCore
import SDLClient
import SDLProtocol
import Testing

/// The decisions ``SDLConnection`` used to make itself, now made by the pure
/// ``SDLConnectionStateMachine``: registration, unregistration, resumption data, deadlines,
/// cancellation and the rate-limit count.
@Suite("Connection state machine")
struct ConnectionMachineTests {
    @Test("After StartServiceACK the machine sends RegisterAppInterface itself; SUCCESS registers the app")
    func registers() throws {
        var script = ConnectionMachineScript()
        let established = script.establish()
        let rai = try #require(established.compactMap(\.writtenRPC).first)
        #expect(rai.functionID == 1)
        #expect(rai.parameters["appID"] == "machine-app")
        #expect(script.registrationCorrelationID == rai.correlationID)
        let actions = script.register()
        #expect(actions.contains { $0.isRegistered })
        #expect(script.machine.isRegistered)
    }

    @Test(
        "Registered result codes keep the app; every other code ends the session with registrationFailed",
        arguments: [
            ("SUCCESS", true), ("WARNINGS", true), ("WRONG_LANGUAGE", true), ("RESUME_FAILED", true),
            ("DISALLOWED", false), ("DUPLICATE_NAME", false), ("APPLICATION_REGISTERED_ALREADY", false), ("INVALID_DATA", false),
        ])
    func classifiesRegistration(code: String, registers: Bool) {
        var script = ConnectionMachineScript()
        let actions = script.register(resultCode: code)
        #expect(script.machine.isRegistered == registers)
        #expect(actions.contains { $0.isRegistered } == registers)
        #expect(actions.contains { $0.isClose } == !registers)
        #expect((script.machine.closeError?.code == .registrationFailed) == !registers)
        if !registers { #expect(script.machine.closeError?.detail.contains(code) == true) }
    }

    @Test("OnAppInterfaceUnregistered fails every pending request with unregistered and closes the connection")
    func unregistered() {
        var script = ConnectionMachineScript()
        _ = script.register()
        let (id, sent) = script.send("Show", ["mainField1": "x"], waiter: 7)
        #expect(id != nil && sent.contains { $0.written != nil })
        let actions = script.notify("OnAppInterfaceUnregistered", ["reason": "TOO_MANY_REQUESTS"])
        let failure = actions.compactMap(\.failure).first
        #expect(failure?.waiter == 7)
        #expect(failure?.error.code == .unregistered)
        #expect(actions.last?.isClose == true)
        #expect(script.machine.closeError?.detail.contains("TOO_MANY_REQUESTS") == true)
        #expect(script.machine.tracker.appState == .disconnected)
        let refused = script.send("Show", ["mainField1": "y"], waiter: 8).1.first?.failure?.error.code
        #expect(refused == .notConnected)
    }

    @Test("OnHashChange keeps the latest hashID in the tracker; a configured hashID goes into RegisterAppInterface")
    func hashChange() throws {
        var script = ConnectionMachineScript()
        _ = script.register()
        _ = script.notify("OnHashChange", ["hashID": "first"])
        _ = script.notify("OnHashChange", ["hashID": "latest"])
        #expect(script.machine.tracker.latestHashID == "latest")
        var resuming = ConnectionMachineScript(app: SDLAppConfiguration(appName: "Machine", appID: "machine-app", hashID: "latest"))
        let rai = try #require(resuming.establish().compactMap(\.writtenRPC).first)
        #expect(rai.parameters["hashID"] == "latest")
    }

    @Test("nextDeadline is complete: nothing while idle, every request's deadline, and the heartbeat")
    func nextDeadline() {
        var script = ConnectionMachineScript()
        _ = script.register()
        // v5 without heartbeats and no request pending: nothing is due, nothing to wake for.
        #expect(script.machine.nextDeadline == nil)
        _ = script.send("Alert", ["alertText1": "slow"], options: .init(timeout: .seconds(3)), waiter: 1)
        #expect(script.machine.nextDeadline == script.now + .seconds(3))
        _ = script.send("Alert", ["alertText1": "fast"], options: .init(timeout: .seconds(1)), waiter: 2)
        #expect(script.machine.nextDeadline == script.now + .seconds(1))
        let fired = script.machine.timerFired(now: script.now + .seconds(1))

        #expect(fired.compactMap(\.failure).map(\.waiter) == [2])
        #expect(fired.compactMap(\.failure).first?.error.code == .timedOut)
        #expect(script.machine.nextDeadline == script.now + .seconds(3))

        var beating = ConnectionMachineScript { $0.session.heartbeatVersions = 3...5 }
        _ = beating.register()
        #expect(beating.machine.nextDeadline == beating.now + .seconds(5))
    }

    @Test("A RegisterAppInterface without an answer ends the session with timedOut at its deadline")
    func registrationTimeout() {
        var script = ConnectionMachineScript()
        _ = script.establish()
        let deadline = script.machine.nextDeadline
        #expect(deadline == script.now + .seconds(12))
        let actions = script.machine.timerFired(now: script.now + .seconds(12))
        #expect(actions.contains { $0.isClose })
        #expect(script.machine.closeError?.code == .timedOut)
    }

    @Test("A cancelled request frees its slot at once and a late answer only reaches the log")
    func cancel() throws {
        var script = ConnectionMachineScript(maximumPending: 2)
        _ = script.register()
        let (first, _) = script.send("Show", ["mainField1": "1"], waiter: 1)
        _ = script.send("Show", ["mainField1": "2"], waiter: 2)
        let refused = script.send("Show", ["mainField1": "3"], waiter: 3).1.first?.failure?.error.code
        #expect(refused == .tooManyPendingRequests)
        let id = try #require(first)
        let cancelled = script.machine.cancel(correlationID: id, now: script.now)
        #expect(cancelled.compactMap(\.failure).map(\.waiter) == [1])
        #expect(cancelled.first?.failure?.error.code == .cancelled)
        #expect(script.machine.pendingCount == 1)
        let (fourth, _) = script.send("Show", ["mainField1": "4"], waiter: 4)
        #expect(fourth != nil)
        let late = script.respond(to: id, functionID: 13, ["success": true, "resultCode": "SUCCESS"])
        #expect(late.allSatisfy { $0.success == nil && $0.failure == nil })
        let again = script.machine.cancel(correlationID: id, now: script.now)
        #expect(again.isEmpty)
    }

    @Test(
        "The owner closing the session fails pending requests at once with cancelled, and those still pending at its end too; a lost link fails them with linkLost"
    )
    func ownerCloseCancels() throws {
        var script = ConnectionMachineScript()
        _ = script.register()
        let (alert, _) = script.send("Alert", ["alertText1": "pending"], waiter: 1)
        #expect(alert != nil)
        let closing = script.machine.closing(now: script.now)
        #expect(closing.compactMap(\.failure).map(\.waiter) == [1])
        #expect(closing.first?.failure?.error.code == .cancelled)
        #expect(closing.first?.failure?.error.detail.contains("Alert") == true)
        #expect(script.machine.pendingCount == 0)
        #expect(script.machine.isRegistered, "UnregisterAppInterface can still be sent")
        let (unregister, _) = script.send("UnregisterAppInterface", waiter: 2)
        #expect(unregister != nil)
        let ended = script.machine.linkDown(SDLClientError(.linkLost, "the connection closed"), now: script.now)
        #expect(ended.compactMap(\.failure).map(\.waiter) == [2])
        #expect(ended.first?.failure?.error.code == .cancelled)

        var lost = ConnectionMachineScript()
        _ = lost.register()
        _ = lost.send("Alert", ["alertText1": "pending"], waiter: 3)
        let broken = lost.machine.linkDown(SDLClientError(.linkLost, "the connection closed"), now: lost.now)
        #expect(broken.first?.failure?.error.code == .linkLost)
    }

    @Test("Only requests that go out are counted by the rate limiter; refusals after counting give it back")
    func rateLimitCount() {
        var script = ConnectionMachineScript(maximumPending: 2)
        _ = script.register()
        let registered = script.machine.rateLimitCounted  // RegisterAppInterface itself
        _ = script.send("Show", ["mainField1": "1"], waiter: 1)
        _ = script.send("Show", ["mainField1": "2"], waiter: 2)
        #expect(script.machine.rateLimitCounted == registered + 2)
        for waiter in 3..<10 {
            let refused = script.send("Show", ["mainField1": "x"], waiter: waiter).1.first?.failure?.error.code
            #expect(refused == .tooManyPendingRequests)
        }
        let refused = script.send("Show", ["mainField1": .int(1)], waiter: 10).1.first?.failure?.error.code
        #expect(refused == .invalidParameters)
        #expect(script.machine.rateLimitCounted == registered + 2)
    }

    @Test("Before registration requests are refused with notConnected and nothing is written")
    func beforeRegistration() {
        var script = ConnectionMachineScript()
        _ = script.establish()
        let (id, actions) = script.send("Show", ["mainField1": "early"], waiter: 1)
        #expect(id == nil)
        #expect(actions.count == 1)
        #expect(actions.first?.failure?.error.code == .notConnected)
    }
}
