import Foundation
import Gateway
import HTTPTypes
import Logging
import SDLProtocol
import Testing

@Suite("Events: the per-app ring buffer")
struct EventRingTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func ring(capacity: Int, events: Int) -> EventRing {
        var ring = EventRing(app: "demo", capacity: capacity)
        for index in 1...events { ring.append(type: "vehicleData", data: ["speed": .int(Int64(index))], time: Self.t0) }
        return ring
    }

    @Test("seq grows by one from 1; since replays what follows")
    func replay() {
        let ring = ring(capacity: 10, events: 5)
        #expect(ring.lastSeq == 5)
        #expect(ring.firstSeq == 1)
        let (missed, events) = ring.events(after: 2)
        #expect(missed == 0)
        #expect(events.map(\.seq) == [3, 4, 5])
        #expect(ring.events(after: 5).events.isEmpty)
        #expect(ring.events(after: 0).events.count == 5)
    }

    @Test("A replayed event is the event appended: its data (kept as compact JSON) parses back the same")
    func replayedData() {
        var ring = EventRing(app: "demo", capacity: 10)
        let data: SDLJSON = [
            "permissionItem": [
                ["rpcName": "Show", "hmiPermissions": ["allowed": ["FULL", "LIMITED"], "userDisallowed": []], "requireEncryption": false]
            ],
            "speed": 42.5, "rpm": 800, "name": "ünïcode \"quoted\"", "none": .null,
        ]
        let appended = ring.append(type: "permissions", data: data, time: Self.t0)
        let replayed = ring.events(after: 0).events
        #expect(replayed == [appended])
        #expect(replayed.first?.data == data)
    }

    @Test("A full ring keeps the newest; an older since reports what was lost")
    func wrapped() {
        let ring = ring(capacity: 4, events: 10)
        #expect(ring.firstSeq == 7)
        let (missed, events) = ring.events(after: 2)
        #expect(missed == 4)  // 3, 4, 5, 6 are gone
        #expect(events.map(\.seq) == [7, 8, 9, 10])
        #expect(ring.events(after: 6).missed == 0)
        #expect(ring.events(after: 8).events.map(\.seq) == [9, 10])
    }

    @Test("The ring keeps at most byteCapacity bytes of data: large events push out the oldest, which a replay counts as missed")
    func byteBound() {
        var ring = EventRing(app: "a", capacity: 100, byteCapacity: 10_000)
        let chunk: SDLJSON = ["audio": .string(String(repeating: "A", count: 4000))]  // 4,012 bytes as compact JSON
        for _ in 1...5 { ring.append(type: "audioPassThru", data: chunk, time: .now) }
        #expect(ring.bytes <= 10_000)
        #expect(ring.firstSeq == 4, "two of 4,012 bytes fit in 10,000")
        let (missed, events) = ring.events(after: 0)
        #expect(missed == 3)
        #expect(events.map(\.seq) == [4, 5])
        ring.append(type: "vehicleData", data: ["speed": 1], time: .now)
        #expect(ring.firstSeq == 4, "a small event fits beside them")
        var tiny = EventRing(app: "b", capacity: 10, byteCapacity: 1)
        tiny.append(type: "audioPassThru", data: chunk, time: .now)
        #expect(tiny.events(after: 0).events.count == 1, "the newest event is kept whatever its size")
    }

    @Test("A since beyond the newest event (another run of the gateway) replays nothing")
    func future() {
        #expect(ring(capacity: 4, events: 3).events(after: 99).events.isEmpty)
    }

    @Test("The envelope has seq, RFC 3339 time with milliseconds, app, type and data")
    func envelope() throws {
        var ring = EventRing(app: "demo")
        let event = ring.append(type: "hmiStatus", data: ["hmiLevel": "FULL"], time: Date(timeIntervalSince1970: 1_795_323_600.1234))
        #expect(event.json["seq"] == 1)
        #expect(event.json["app"] == "demo")
        #expect(event.json["type"] == "hmiStatus")
        #expect(event.json["data"] == ["hmiLevel": "FULL"])
        #expect(event.json["time"] == "2026-11-22T05:00:00.123Z")
    }
}
