import Foundation
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLProtocol
import Synchronization

/// Scenario 6, an app deleted and re-created under load: `clients` clients send Shows, each with
/// a text of its own, to one app while it is deleted and created again `rounds` times. No crash,
/// no request left hanging, and no answer delivered to the wrong caller: every 200 carries the
/// `SDL-Correlation-ID` of the request that held the caller's text, as the head unit logged it.
struct RecreateScenario {
    let clients: Int
    let rounds: Int
    /// Each Show's `?timeout=`; a request still open 2 s after it is stuck.
    let deadline: Duration = .seconds(5)

    struct Answer: Sendable {
        var text: String
        var status: Int
        var correlationID: Int?
        var elapsed: Duration
    }

    func run(_ rig: ReliabilityRig) async throws -> ScenarioResult {
        var result = ScenarioResult("recreate")
        let app = "rel-recreate"
        let api = rig.api
        let control = rig.control
        try await api.createApp(app)
        let body = #"{"id":"\#(app)","appName":"Reliability \#(app)","appID":"\#(app)"}"#
        let stop = Shared(false)
        // What the head unit received, text → correlation ID, read from its traffic log (1,000
        // entries) often enough that nothing scrolls out unread.
        let logged = Shared<[String: Int]>([:])
        let deadline = deadline
        let clients = clients
        let rounds = rounds
        let (answers, recreated) = try await withThrowingTaskGroup(of: [Answer].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var answers: [Answer] = []
                    var index = 0
                    while !stop.withLock({ $0 }) {
                        index += 1
                        let text = "c\(client)-\(index)"
                        let sent = ContinuousClock.now
                        let response = try await api(
                            .POST, "/v1/apps/\(app)/rpc/Show?timeout=\(Int(deadline.milliseconds))", #"{"mainField1":"\#(text)"}"#)
                        let correlation = response.headers.first(name: "SDL-Correlation-ID").flatMap { Int($0) }
                        answers.append(
                            Answer(text: text, status: response.status, correlationID: correlation, elapsed: ContinuousClock.now - sent))
                        // About 8 requests a second per client: 64 clients stay near Core's 1,000 per 10 s.
                        if response.status != 200 { try await Task.sleep(for: .milliseconds(20)) }
                    }
                    return answers
                }
            }
            group.addTask {
                while !stop.withLock({ $0 }) {
                    try await Self.readLog(control, into: logged)
                    try await Task.sleep(for: .milliseconds(50))
                }
                return []
            }
            var recreated = 0
            for _ in 0..<rounds {
                try await Task.sleep(for: .milliseconds(300))
                let deleted = try await api(.DELETE, "/v1/apps/\(app)")
                let created = try await api(.POST, "/v1/apps", body)
                if deleted.status == 204 && created.status == 201 { recreated += 1 }
                try await api.waitForApp(app, within: .seconds(15)) { $0["connection"] == "registered" }
            }
            try await Task.sleep(for: .milliseconds(300))
            stop.withLock { $0 = true }
            var answers: [Answer] = []
            for try await part in group { answers += part }
            return (answers, recreated)
        }
        // The last reads of the log, for answers that came after the reader stopped.
        try await Self.readLog(control, into: logged)
        let known = logged.withLock { $0 }
        let succeeded = answers.filter { $0.status == 200 }
        let verified = succeeded.filter { known[$0.text] != nil }
        let misdelivered = verified.filter { known[$0.text] != $0.correlationID }
        let stuck = answers.filter { $0.elapsed > deadline + .seconds(2) }
        let unexpected = answers.filter { ![200, 404, 409, 429, 503, 504].contains($0.status) }
        var byStatus: [String: SDLJSON] = [:]
        for answer in answers { byStatus["\(answer.status)", default: .int(0)] = .int((byStatus["\(answer.status)"]?.intValue ?? 0) + 1) }
        let health = try await api(.GET, "/v1/health")
        result["clients"] = .int(Int64(clients))
        result["recreations"] = .int(Int64(recreated))
        result["requests"] = .int(Int64(answers.count))
        result["statuses"] = .object(byStatus)
        result["verifiedAnswers"] = .int(Int64(verified.count))
        result["misdelivered"] = .int(Int64(misdelivered.count))
        result["stuck"] = .int(Int64(stuck.count))
        result["slowestMs"] = .number(answers.map(\.elapsed.milliseconds).max() ?? 0)
        result.check(recreated == rounds, "\(recreated) of \(rounds) deletes and re-creations succeeded")
        result.check(misdelivered.isEmpty, "\(misdelivered.count) answers carried another request's correlation ID")
        result.check(stuck.isEmpty, "\(stuck.count) requests took longer than their deadline + 2 s")
        result.check(unexpected.isEmpty, "unexpected statuses \(Set(unexpected.map(\.status)))")
        result.check(
            verified.count * 2 >= succeeded.count,
            "only \(verified.count) of \(succeeded.count) answers could be checked against the head unit's log")
        result.check(health.status == 200 && rig.gateway.process.isRunning, "the gateway is not healthy")
        result.summary =
            "\(clients) clients, \(recreated) deletes + re-creations, \(answers.count) Shows \(byStatus.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value.intValue ?? 0)" }.joined(separator: " ")); "
            + "\(verified.count) answers checked against the head unit's log: \(misdelivered.count) to the wrong caller; \(stuck.count) stuck"
        return result
    }

    /// Adds the Shows in the head unit's traffic log (its last 1,000 entries) to `logged`: the
    /// text each carried → its correlation ID.
    static func readLog(_ control: ControlEndpoint, into logged: Shared<[String: Int]>) async throws {
        let log = try await control(.GET, "/log?limit=1000").json?.arrayValue ?? []
        logged.withLock { logged in
            for entry in log where entry["function"] == "Show" && entry["direction"] == "fromApp" {
                if let text = entry["params"]?["mainField1"]?.stringValue, let id = entry["correlationID"]?.intValue {
                    logged[text] = Int(id)
                }
            }
        }
    }
}
