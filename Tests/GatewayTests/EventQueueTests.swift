import Foundation
import Gateway
import HTTPTypes
import Logging
import NIOCore
import SDLProtocol
import Testing

@Suite("Events: client queues, filters and the hub")
struct EventQueueTests {
    static func event(_ seq: UInt64, app: String = "demo", type: String = "vehicleData", data: SDLJSON = ["speed": 1, "rpm": 2]) -> GatewayEvent {
        GatewayEvent(seq: seq, time: Date(timeIntervalSince1970: 0), app: app, type: type, data: data)
    }

    @Test("A slow client's queue holds its capacity, then one gap counting every lost event")
    func overflowBecomesGap() async {
        let queue = EventClientQueue(capacity: 3)
        for seq in 1...10 { queue.push(Self.event(UInt64(seq))) }
        #expect(queue.dropped == 7)
        var seen: [String] = []
        queue.finish()
        while let event = await queue.next() {
            seen.append(event.type == "gap" ? "gap(\(event.data["missed"]!))@\(event.seq)" : "\(event.seq)")
        }
        #expect(seen == ["1", "2", "3", "gap(7)@10"])
    }

    @Test("After a gap the client gets new events again, and a second run of losses is a second gap")
    func gapThenEvents() async {
        let queue = EventClientQueue(capacity: 2)
        for seq in 1...4 { queue.push(Self.event(UInt64(seq))) }
        #expect(await queue.next()?.seq == 1)
        #expect(await queue.next()?.seq == 2)
        #expect(await queue.next()?.type == "gap")
        queue.push(Self.event(5))
        #expect(await queue.next()?.seq == 5)
    }

    @Test("A waiting reader gets the next event; finish ends it with nil; cancellation ends it too")
    func waiting() async {
        let queue = EventClientQueue(capacity: 10)
        async let next = queue.next()
        queue.push(Self.event(42))
        #expect(await next?.seq == 42)
        let task = Task { await queue.next() }
        task.cancel()
        #expect(await task.value == nil)
    }

    @Test("Filters: types keep gap and connection; names trim vehicle data and drop what is left empty")
    func filters() throws {
        let filter = try EventFilter(types: "vehicleData, hmiStatus", names: "speed")
        #expect(filter.apply(Self.event(1))?.data == ["speed": 1])
        #expect(filter.apply(Self.event(2, data: ["rpm": 2])) == nil)
        #expect(filter.apply(Self.event(3, type: "buttonPress", data: [:])) == nil)
        #expect(filter.apply(Self.event(4, type: "gap", data: ["missed": 1])) != nil)
        #expect(filter.apply(Self.event(5, type: "connection", data: [:])) != nil)
        #expect(throws: GatewayError.self) { try EventFilter(types: "vehicleData,nonsense", names: nil) }
    }

    @Test("The hub encodes an event once for its clients; a filter's changed copy is encoded anew")
    func sharedEncoding() async throws {
        let hub = EventHub()
        let all = try hub.subscribe(app: "demo", filter: EventFilter())
        let trimmed = try hub.subscribe(app: "demo", filter: EventFilter(types: nil, names: ["speed"]))
        hub.publish(app: "demo", type: "vehicleData", data: ["speed": 1, "rpm": 2], time: Date(timeIntervalSince1970: 0))
        let whole = try #require(await all.queue.next())
        let part = try #require(await trimmed.queue.next())
        #expect((try SDLJSON.parse(whole.encodedJSON))["data"] == ["speed": 1, "rpm": 2])
        #expect((try SDLJSON.parse(part.encodedJSON))["data"] == ["speed": 1])
        #expect((try SDLJSON.parse(whole.encodedJSON)) == whole.json)
        var changed = whole
        changed.seq = 99
        #expect((try SDLJSON.parse(changed.encodedJSON))["seq"] == 99)
        #expect(changed != whole)
    }

    @Test("The hub replays since from the ring (after a gap for what it no longer keeps), fans out per app, limits clients")
    func hub() async throws {
        let hub = EventHub(limits: .init(ringCapacity: 3, clientQueueCapacity: 100, maximumClients: 2))
        for index in 1...5 { hub.publish(app: "a", type: "vehicleData", data: ["speed": .int(Int64(index))]) }
        let replay = try hub.subscribe(app: "a", filter: EventFilter(), since: 1)
        let all = try hub.subscribe(app: nil, filter: EventFilter(types: ["buttonPress"]))
        #expect(throws: GatewayError.self) { try hub.subscribe(app: "b", filter: EventFilter()) }
        hub.publish(app: "b", type: "buttonPress", data: ["buttonName": "OK"])
        hub.publish(app: "a", type: "vehicleData", data: ["speed": 6])
        hub.finishAll()
        var seen: [String] = []
        while let event = await replay.queue.next() { seen.append("\(event.type)@\(event.seq)") }
        #expect(seen == ["gap@2", "vehicleData@3", "vehicleData@4", "vehicleData@5", "vehicleData@6"])
        #expect(await all.queue.next()?.app == "b")
        #expect(await all.queue.next() == nil)
        #expect(hub.lastSeq(app: "a") == 6)
    }

    @Test("Deleting an app ends its clients' streams")
    func removeApp() async throws {
        let hub = EventHub()
        let subscription = try hub.subscribe(app: "a", filter: EventFilter())
        hub.removeApp("a")
        #expect(await subscription.queue.next() == nil)
        #expect(hub.clientCount == 0)
    }
}
