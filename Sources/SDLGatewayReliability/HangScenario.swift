import Foundation
import NIOHTTP1
import ProcessHarness
import SDLProtocol

/// Scenario 2, the head unit hangs: the simulator is stopped (SIGSTOP), so its socket stays open
/// and nothing answers. Every request must resolve by its deadline + 50 ms; the gateway's
/// heartbeats (`serve --heartbeat 1`) must find the link dead and reconnect; once the head unit
/// runs again (SIGCONT) the app registers again.
struct HangScenario {
    let requests: Int
    /// Each request's `?timeout=`.
    let deadline: Duration = .seconds(2)

    func run(_ rig: ReliabilityRig) async throws -> ScenarioResult {
        var result = ScenarioResult("hang")
        let app = "rel-hang"
        let api = rig.api
        try await api.createApp(app)
        let events = EventCollector()
        let deadline = deadline
        let requests = requests
        let outcome = try await EventSocket.with(port: api.port, path: "/v1/apps/\(app)/events?types=connection", into: events) {
            rig.simulator.send(SIGSTOP)
            let stoppedAt = ContinuousClock.now
            let answers = try await withThrowingTaskGroup(of: (Int, Duration).self) { group in
                for index in 0..<requests {
                    group.addTask {
                        let sent = ContinuousClock.now
                        let response = try await api(
                            .POST, "/v1/apps/\(app)/rpc/Show?timeout=\(Int(deadline.milliseconds))", #"{"mainField1":"hung \#(index)"}"#)
                        return (response.status, ContinuousClock.now - sent)
                    }
                }
                var answers: [(Int, Duration)] = []
                for try await answer in group { answers.append(answer) }
                return answers
            }
            // The heartbeats find the silence: the session says it reconnects.
            let lost = await events.wait(within: .seconds(30)) { $0.contains { $0["data"]?["state"] == "reconnecting" } }
            let lostAt = ContinuousClock.now
            rig.simulator.send(SIGCONT)
            let resumedAt = ContinuousClock.now
            try await api.waitForApp(app, within: .seconds(30)) { $0["connection"] == "registered" }
            _ = await events.waitForConnection("registered")
            return (answers, stoppedAt, lost, lostAt, resumedAt, ContinuousClock.now)
        }
        let (answers, stoppedAt, lost, lostAt, resumedAt, registeredAt) = outcome
        let slowest = answers.map(\.1).max() ?? .zero
        let statuses = answers.map(\.0)
        let states = events.connectionStates
        result["requests"] = .int(Int64(requests))
        result["deadlineMs"] = .number(deadline.milliseconds)
        result["slowestAnswerMs"] = .number(slowest.milliseconds)
        result["withinDeadlinePlus50Ms"] = .bool(slowest <= deadline + .milliseconds(50))
        result["statuses"] = .array(statuses.map { .int(Int64($0)) })
        result["hangToLostMs"] = .number((lostAt - stoppedAt).milliseconds)
        result["continueToRegisteredMs"] = .number((registeredAt - resumedAt).milliseconds)
        result["connectionEvents"] = .array(states.map { .string($0) })
        result.check(statuses.allSatisfy { $0 == 504 || $0 == 503 }, "requests to a hung head unit answered \(statuses)")
        result.check(
            slowest <= deadline + .seconds(1),
            "a request took \(Int(slowest.milliseconds)) ms against a \(Int(deadline.milliseconds)) ms deadline")
        result.check(lost, "the hung link was not declared lost in 30 s")
        result.check(states.last == "registered", "connection events \(states)")
        result.summary =
            "\(requests) requests answered \(statuses.first.map(String.init) ?? "-") at most \(Int((slowest - deadline).milliseconds)) ms after their \(Int(deadline.milliseconds)) ms deadline; "
            + "link declared lost \(Int((lostAt - stoppedAt).milliseconds)) ms after the hang; registered again \(Int((registeredAt - resumedAt).milliseconds)) ms after SIGCONT"
        return result
    }
}
