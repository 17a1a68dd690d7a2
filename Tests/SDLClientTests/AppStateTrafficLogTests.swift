import NIOCore
import SDLProtocol
import Testing

@testable import SDLClient

@Suite("AppState traffic log")
struct AppStateTrafficLogTests {
    static let t0 = NIODeadline.uptimeNanoseconds(5_000_000_000)

    @Test("The default capacity is 1000 entries")
    func defaultCapacity() {
        #expect(SDLTrafficLog().capacity == 1000)
        #expect(SDLAppStateTracker().trafficLog.capacity == 1000)
        #expect(SDLAppStateTracker(trafficLogCapacity: 5).trafficLog.capacity == 5)
    }

    @Test("The log keeps the last capacity entries, oldest first, and counts what it dropped")
    func bounded() {
        var log = SDLTrafficLog(capacity: 3)
        for id in UInt32(1)...7 {
            log.record(
                .received, rpcType: .notification, function: "OnVehicleData", correlationID: id, parameters: ["speed": .int(Int64(id))],
                now: Self.t0)
        }
        #expect(log.entries.map(\.correlationID) == [5, 6, 7])
        #expect(log.entries.map(\.sequence) == [5, 6, 7])
        #expect(log.dropped == 4)
    }

    @Test("Entries read back with the parameters recorded (kept as compact JSON); entries(after:) reads only the newer")
    func parametersRoundTrip() {
        var log = SDLTrafficLog(capacity: 10)
        let parameters: SDLJSON = [
            "permissionItem": [["rpcName": "Show", "hmiPermissions": ["allowed": ["FULL"], "userDisallowed": []]]], "ratio": 0.25,
            "count": 3, "text": "é\n",
        ]
        let recorded = log.record(
            .received, rpcType: .notification, function: "OnPermissionsChange", correlationID: 0, parameters: parameters, now: Self.t0)
        log.record(.sent, rpcType: .request, function: "Show", correlationID: 2, parameters: ["mainField1": "x"], now: Self.t0)
        #expect(log.entries.first == recorded)
        #expect(log.entries.first?.parameters == parameters)
        #expect(log.entries(after: 1).map(\.function) == ["Show"])
        #expect(log.lastSequence == 2)
        #expect(SDLTrafficLog().lastSequence == 0)
    }

    @Test("Below capacity nothing is dropped")
    func belowCapacity() {
        var log = SDLTrafficLog(capacity: 3)
        log.record(.sent, rpcType: .request, function: "Show", correlationID: 1, parameters: [:], now: Self.t0)
        #expect(log.entries.count == 1)
        #expect(log.dropped == 0)
    }

    @Test("A response records the time since its request with the same correlation id")
    func latency() {
        var log = SDLTrafficLog()
        log.record(.sent, rpcType: .request, function: "Show", correlationID: 9, parameters: ["mainField1": "hi"], now: Self.t0)
        let response = log.record(
            .received, rpcType: .response, function: "Show", correlationID: 9, parameters: ["success": true],
            now: Self.t0 + .milliseconds(12))
        #expect(response.latency == .milliseconds(12))
        #expect(response.json["latencyMs"] == .double(12))
        #expect(response.json["direction"] == "received")
        #expect(response.json["type"] == "response")
        #expect(response.json["function"] == "Show")
        #expect(response.json["correlationID"] == 9)
        #expect(response.json["params"] == ["success": true])
        let repeated = log.record(.received, rpcType: .response, function: "Show", correlationID: 9, parameters: [:], now: Self.t0)
        #expect(repeated.latency == nil)
    }

    @Test("A lost link forgets unanswered requests")
    func clearPending() {
        var log = SDLTrafficLog()
        log.record(.sent, rpcType: .request, function: "Alert", correlationID: 3, parameters: [:], now: Self.t0)
        log.clearPending()
        let late = log.record(.received, rpcType: .response, function: "Alert", correlationID: 3, parameters: [:], now: Self.t0)
        #expect(late.latency == nil)
    }

    @Test("Pending request times are bounded by the capacity too")
    func pendingBounded() {
        var log = SDLTrafficLog(capacity: 2)
        for id in UInt32(1)...3 {
            log.record(
                .sent, rpcType: .request, function: "Show", correlationID: id, parameters: [:], now: Self.t0 + .milliseconds(Int64(id)))
        }
        let oldest = log.record(
            .received, rpcType: .response, function: "Show", correlationID: 1, parameters: [:], now: Self.t0 + .milliseconds(10))
        let newest = log.record(
            .received, rpcType: .response, function: "Show", correlationID: 3, parameters: [:], now: Self.t0 + .milliseconds(10))
        #expect(oldest.latency == nil)
        #expect(newest.latency == .milliseconds(7))
    }
}
