import Foundation
import NIOHTTP1
import ProcessHarness
import SDLProtocol
import Synchronization

/// Scenario 3, malformed frames: the head unit answers every Speak of one app with a malformed
/// frame, and that app sends Speak after Speak as fast as its link comes back (a flood). Its
/// session must be closed and re-established each time; a second app, showing text all the while,
/// and the gateway process must not notice.
struct MalformedFrameScenario {
    let frames: Int

    func run(_ rig: ReliabilityRig) async throws -> ScenarioResult {
        var result = ScenarioResult("malformed")
        let (bad, good) = ("rel-bad", "rel-good")
        let api = rig.api
        try await api.createApp(bad)
        try await api.createApp(good)
        let fault = try await rig.control(.POST, "/faults", #"{"function":"Speak","malformedFrame":true}"#)
        guard fault.status == 201 else { throw BenchFailure(description: "malformed: POST /faults answered \(fault.status)") }
        let events = EventCollector()
        let frames = frames
        let (badStatuses, goodStatuses) = try await EventSocket.with(
            port: api.port, path: "/v1/apps/\(bad)/events?types=connection", into: events
        ) {
            let stop = Shared(false)
            return try await withThrowingTaskGroup(of: [Int].self) { group in
                group.addTask {
                    var statuses: [Int] = []
                    while !stop.withLock({ $0 }) {
                        statuses.append(try await api(.POST, "/v1/apps/\(good)/rpc/Show", #"{"mainField1":"unaffected"}"#).status)
                        // Paced at about 100 a second: under the app's SDL request limit.
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    return statuses
                }
                var statuses: [Int] = []
                for _ in 0..<frames {
                    try await api.waitForApp(bad, within: .seconds(30)) { $0["connection"] == "registered" }
                    statuses.append(
                        try await api(.POST, "/v1/apps/\(bad)/rpc/Speak", #"{"ttsChunks":[{"text":"garbage follows","type":"TEXT"}]}"#)
                            .status)
                }
                // The last broken session comes back too, while the client still listens.
                try await api.waitForApp(bad, within: .seconds(30)) { $0["connection"] == "registered" }
                _ = await events.wait(within: .seconds(5)) { $0.filter { $0["data"]?["state"] == "registered" }.count >= frames }
                stop.withLock { $0 = true }
                let goodStatuses = try await group.next() ?? []
                return (statuses, goodStatuses)
            }
        }
        _ = try await rig.control(.DELETE, "/faults")
        try await api.waitForApp(bad, within: .seconds(30)) { $0["connection"] == "registered" }
        let after = try await api(.POST, "/v1/apps/\(bad)/rpc/Show", #"{"mainField1":"back"}"#)
        let health = try await api(.GET, "/v1/health")
        let registrations = events.events("connection").filter { $0["data"]?["state"] == "registered" }.count
        let goodFailures = goodStatuses.filter { $0 != 200 }.count
        result["malformedFrames"] = .int(Int64(frames))
        result["badAppStatuses"] = .array(Array(Set(badStatuses)).sorted().map { .int(Int64($0)) })
        result["badAppRegistrations"] = .int(Int64(registrations))
        result["goodAppRequests"] = .int(Int64(goodStatuses.count))
        result["goodAppFailures"] = .int(Int64(goodFailures))
        result["gatewayRunning"] = .bool(rig.gateway.process.isRunning)
        // 502: the head unit answered with something that is not SDL (the link is re-established).
        result.check(badStatuses.allSatisfy { $0 == 502 || $0 == 503 }, "the malformed answers gave \(Set(badStatuses)), not 502/503")
        // A 502 is a session the malformed frame broke; a 503 is a Speak sent while the previous one
        // was still being noticed (the app read "registered" just before), which broke nothing.
        let broken = badStatuses.filter { $0 == 502 }.count
        result.check(broken > 0, "no Speak reached the head unit's malformed frame (answers \(Set(badStatuses)))")
        result.check(registrations >= broken, "the app registered \(registrations) times for \(broken) broken sessions")
        result.check(goodFailures == 0, "the other app failed \(goodFailures) of \(goodStatuses.count) Shows")
        result.check(after.status == 200, "a Show after the flood answered \(after.status)")
        result.check(health.status == 200 && rig.gateway.process.isRunning, "the gateway is not healthy after the flood")
        result.summary =
            "\(frames) malformed frames: answered \(Set(badStatuses).sorted()), \(registrations) re-registrations; the other app's \(goodStatuses.count) Shows: \(goodFailures) failed; gateway healthy"
        return result
    }
}
