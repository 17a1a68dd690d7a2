import Foundation
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLProtocol
import Synchronization

/// Scenario 1, the head unit restarts: the simulator is killed (SIGKILL) with Shows pending, then
/// started again on the same port. Every pending request must fail within 100 ms with 503/504;
/// the app registers again; its button and vehicle-data subscriptions (declared through the
/// gateway) work again; the event client sees the `connection` steps.
struct RestartScenario {
    let pending: Int

    func run(_ rig: ReliabilityRig) async throws -> ScenarioResult {
        var result = ScenarioResult("restart")
        let app = "rel-restart"
        let api = rig.api
        try await api.createApp(app)
        let button = try await api(.PUT, "/v1/apps/\(app)/subscriptions/buttons/OK")
        let data = try await api(.PUT, "/v1/apps/\(app)/subscriptions/vehicle-data", #"{"names":["odometer"]}"#)
        guard button.status == 200, data.status == 200 else {
            throw BenchFailure(
                description: "restart: subscribing answered \(button.status) and \(data.status): \(String(buffer: data.body))")
        }
        let fault = try await rig.control(.POST, "/faults", #"{"function":"Show","delayMs":30000}"#)
        guard fault.status == 201 else { throw BenchFailure(description: "restart: POST /faults answered \(fault.status)") }

        let events = EventCollector()
        let outcome = try await EventSocket.with(
            port: api.port, path: "/v1/apps/\(app)/events?types=connection,buttonPress,vehicleData", into: events
        ) {
            // Shows the head unit holds back, each on its own connection.
            let killed = Killed(nil)
            let answers = try await withThrowingTaskGroup(of: (Int, Duration).self) { group in
                for index in 0..<pending {
                    group.addTask {
                        let response = try await api(
                            .POST, "/v1/apps/\(app)/rpc/Show?timeout=60000", #"{"mainField1":"pending \#(index)"}"#)
                        return (response.status, ContinuousClock.now - (killed.withLock { $0 } ?? .now))
                    }
                }
                // Every Show reached the head unit before it dies.
                try await waitForShows(rig.control, count: pending)
                killed.withLock { $0 = .now }
                rig.killSimulator()
                var answers: [(Int, Duration)] = []
                for try await answer in group { answers.append(answer) }
                return answers
            }
            let killedAt = killed.withLock { $0 } ?? .now
            try rig.restartSimulator()
            let restartedAt = ContinuousClock.now
            try await api.waitForApp(app, within: .seconds(30)) { $0["connection"] == "registered" }
            let registeredAt = ContinuousClock.now
            _ = await events.waitForConnection("registered")
            // The subscriptions, put back by the gateway on a head unit that forgot them.
            let press = try await rig.control(.POST, "/buttons/OK/press", #"{"appID":"\#(app)"}"#)
            let buttonSeen = await events.wait(within: .seconds(5)) {
                $0.contains { $0["type"] == "buttonPress" && $0["data"]?["buttonName"] == "OK" }
            }
            let odometer = 424_242
            let put = try await rig.control(.PUT, "/vehicle-data", #"{"odometer":\#(odometer)}"#)
            let dataSeen = await events.wait(within: .seconds(5)) {
                $0.contains { $0["type"] == "vehicleData" && $0["data"]?["odometer"]?.intValue == Int64(odometer) }
            }
            return (answers, killedAt, restartedAt, registeredAt, press.status, buttonSeen, put.status, dataSeen)
        }
        let (answers, killedAt, restartedAt, registeredAt, pressStatus, buttonSeen, putStatus, dataSeen) = outcome
        let slowest = answers.map(\.1).max() ?? .zero
        let statuses = answers.map(\.0)
        let states = events.connectionStates
        result["pendingRequests"] = .int(Int64(pending))
        result["pendingFailedMaxMs"] = .number(slowest.milliseconds)
        result["pendingFailedWithin100Ms"] = .bool(slowest <= .milliseconds(100))
        result["pendingStatuses"] = .array(statuses.map { .int(Int64($0)) })
        result["restartToRegisteredMs"] = .number((registeredAt - restartedAt).milliseconds)
        result["killToRegisteredMs"] = .number((registeredAt - killedAt).milliseconds)
        result["connectionEvents"] = .array(states.map { .string($0) })
        result["buttonAfterRestart"] = .bool(buttonSeen)
        result["vehicleDataAfterRestart"] = .bool(dataSeen)
        result.check(
            statuses.count == pending && statuses.allSatisfy { $0 == 503 || $0 == 504 },
            "pending requests answered \(statuses), not 503/504")
        result.check(states.contains("reconnecting") && states.last == "registered", "connection events \(states)")
        result.check(pressStatus == 200 && buttonSeen, "no buttonPress event after the restart (press answered \(pressStatus))")
        result.check(putStatus == 200 && dataSeen, "no vehicleData event after the restart (PUT answered \(putStatus))")
        result.summary =
            "\(pending) pending Shows failed \(statuses.first.map(String.init) ?? "-") within \(Int(slowest.milliseconds)) ms of the kill; "
            + "registered again \(Int((registeredAt - restartedAt).milliseconds)) ms after the restart; button \(buttonSeen ? "ok" : "lost"), vehicle data \(dataSeen ? "ok" : "lost"); connection \(states.joined(separator: "→"))"
        return result
    }

    /// Waits until the head unit's traffic log holds `count` Show requests.
    func waitForShows(_ control: ControlEndpoint, count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let log = try await control(.GET, "/log?limit=1000").json?.arrayValue ?? []
            if log.filter({ $0["function"] == "Show" && $0["direction"] == "fromApp" }).count >= count { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw BenchFailure(description: "restart: the head unit did not receive \(count) Shows in 10 s")
    }
}

/// When the head unit was killed, set once by the driving task, read by the request tasks after
/// their answers arrive.
typealias Killed = Shared<ContinuousClock.Instant?>
