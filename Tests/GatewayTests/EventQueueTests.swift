import Foundation
import Gateway
import HTTPTypes
import Logging
import NIOCore
import SDLProtocol
import Synchronization
import Testing

@Suite("Events: client queues, filters and the hub", .timeLimit(.minutes(1)))
struct EventQueueTests {
    static func event(
        _ seq: UInt64, app: String = "demo", type: String = "vehicleData", data: SDLJSON = ["speed": 1, "rpm": 2]
    ) -> GatewayEvent {
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

    @Test("An event's text frame: FIN and text, the length in 1, 2 or 8 bytes (RFC 6455 §5.2), the JSON as its payload")
    func textFrame() throws {
        for (padding, header) in [(0, [UInt8]()), (200, [126]), (70_000, [127])] {
            var event = Self.event(7, data: ["pad": .string(String(repeating: "x", count: padding))])
            let unencoded = event.encodedTextFrame
            event.encode()
            let frame = event.encodedTextFrame
            #expect(frame == unencoded, "the kept encoding is the one made on demand")
            let json = event.encodedJSON
            let length = json.readableBytes
            var expected: [UInt8] = [0x81]
            switch header.first {
            case nil: expected.append(UInt8(length))
            case 126: expected += [126, UInt8(length >> 8), UInt8(length & 0xFF)]
            default:
                expected += [
                    127, 0, 0, 0, 0, UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF),
                ]
            }
            #expect(Array(frame.readableBytesView.prefix(expected.count)) == expected)
            #expect(frame.getSlice(at: frame.readerIndex + expected.count, length: length) == json)
            #expect(frame.readableBytes == expected.count + length)
            #expect(try SDLJSON.parse(json) == event.json)
        }
        // 125 bytes is the last length of one byte, 126 the first of two.
        for target in [125, 126] {
            var event = Self.event(1, data: [:])
            let base = event.encodedJSON.readableBytes
            event.data = ["p": .string(String(repeating: "y", count: target - base - 6))]
            #expect(event.encodedJSON.readableBytes == target)
            #expect(Array(event.encodedTextFrame.readableBytesView.prefix(2)) == (target == 125 ? [0x81, 125] : [0x81, 126]))
        }
    }

    @Test("A polled queue: the ready handler fires for each event and at the end, at once when something waits already")
    func polled() {
        let queue = EventClientQueue(capacity: 2)
        queue.push(Self.event(1))
        let calls = Mutex(0)
        queue.onReady { calls.withLock { $0 += 1 } }
        #expect(calls.withLock { $0 } == 1, "an event queued before the reader came")
        queue.push(Self.event(2))
        queue.push(Self.event(3))  // the queue is full: a gap, no call
        #expect(calls.withLock { $0 } == 2)
        var seen: [String] = []
        while case .event(let event) = queue.poll() { seen.append(event.type == "gap" ? "gap" : "\(event.seq)") }
        #expect(seen == ["1", "2", "gap"])
        guard case .empty = queue.poll() else { Issue.record("an empty queue polls empty"); return }
        queue.finish()
        #expect(calls.withLock { $0 } == 3)
        guard case .finished = queue.poll() else { Issue.record("a finished queue polls finished"); return }
    }

    @Test("Clients whose filter leaves an event whole share its encoding; a trimmed copy is shared by clients of one filter")
    func sharedAcrossFilters() async throws {
        let hub = EventHub()
        let whole = try hub.subscribe(app: "demo", filter: EventFilter(types: nil, names: ["speed", "rpm"]))
        let trimmed = try (0..<2).map { _ in try hub.subscribe(app: "demo", filter: EventFilter(types: nil, names: ["speed"])) }
        hub.publish(app: "demo", type: "vehicleData", data: ["speed": 1, "rpm": 2], time: Date(timeIntervalSince1970: 0))
        let event = try #require(await whole.queue.next())
        #expect(event.data == ["speed": 1, "rpm": 2])
        let first = try #require(await trimmed[0].queue.next())
        let second = try #require(await trimmed[1].queue.next())
        #expect(first.data == ["speed": 1])
        #expect(first.encodedTextFrame == second.encodedTextFrame)
        #expect(
            first.encodedTextFrame.withUnsafeReadableBytes { $0.baseAddress }
                == second.encodedTextFrame.withUnsafeReadableBytes { $0.baseAddress })
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
