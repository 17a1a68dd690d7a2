import AsyncHTTPClient
import Gateway
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import SDLProtocol
import Synchronization
import Testing

/// The limit is a guard against a hang, not a speed target: `slowClientGetsGap` moves 80 MB of
/// events through the debug build's JSON (more than loopback's socket buffers hold: up to 36 MB with
/// a 32 MB `tcp_rmem` maximum), 30 s alone and up to 86 s beside the rest of `swift test` on two cores.
@Suite("Event streams over a live server: WebSocket and Server-Sent Events", .timeLimit(.minutes(3)))
struct LiveEventTests {
    typealias H = GatewayHarness

    /// Reads WebSocket text messages as JSON until `stop` says so (or the stream ends). A
    /// WebSocket's inbound stream has one iterator, which the reads share.
    static func read(
        _ messages: inout WebSocketInboundMessageStream.AsyncIterator, until stop: (SDLJSON) -> Bool
    ) async throws -> [SDLJSON] {
        var seen: [SDLJSON] = []
        while let message = try await messages.next() {
            guard case .text(let text) = message, let json = try? SDLJSON.parse(text) else { continue }
            seen.append(json)
            if stop(json) { break }
        }
        return seen
    }

    @Test("WebSocket: since=0 replays the app's events, live events follow, an RPC is answered, a filter change applies")
    func webSocket() async throws {
        try await H.withGateway(mode: .live) { client, simulator, _ in
            try await H.createApp(client)
            _ = try await client.ws("/v1/apps/demo/events?since=0&types=connection,hmiStatus,buttonPress") { inbound, outbound, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                // The replay: connecting, then registered (hmiStatus NONE in between), in seq order.
                let replay = try await Self.read(&messages) { $0["type"] == "connection" && $0["data"]?["state"] == "registered" }
                #expect(replay.first?["data"]?["state"] == "connecting")
                let seqs = replay.compactMap { $0["seq"]?.intValue }
                #expect(seqs == seqs.sorted())
                try await outbound.write(.text(#"{"id":"c1","function":"Show","params":{"mainField1":"over ws"}}"#))
                let reply = try await Self.read(&messages) { $0["id"] == "c1" }.last
                #expect(reply?["status"] == 200)
                #expect(reply?["response"]?["resultCode"] == "SUCCESS")
                try await outbound.write(.text(#"{"id":"c2","function":"Show","params":{"mainField1":5}}"#))
                let refused = try await Self.read(&messages) { $0["id"] == "c2" }.last
                #expect(refused?["status"] == 422)
                try await outbound.write(.text(#"{"filter":{"types":["buttonPress"]}}"#))
                _ = try await Self.read(&messages) { $0["filter"] != nil }
                _ = try await client.execute(uri: "/v1/apps/demo/subscriptions/buttons/OK", method: .put) { response in
                    #expect(response.status == .ok)
                }
                try simulator.perform { unit, now in
                    let (_, actions) = try unit.pressButton("OK", mode: "SHORT", appID: "demo-app", softButtonID: nil, now: now)
                    return ((), actions)
                }
                let press = try await Self.read(&messages) { $0["type"] == "buttonPress" }.last
                #expect(press?["data"]?["buttonName"] == "OK")
                #expect(press?["app"] == "demo")
            }
        }
    }

    @Test("WebSocket: a client that does not read gets a gap event instead of slowing the gateway or growing memory")
    func slowClientGetsGap() async throws {
        let configuration = GatewayConfiguration(events: .init(ringCapacity: 100, clientQueueCapacity: 10, maximumClients: 10))
        try await H.withGateway(configuration, mode: .live) { client, _, apps in
            try await H.createApp(client)
            apps.hub.publish(app: "demo", type: "notification", data: ["name": "marker", "parameters": [:]])
            _ = try await client.ws("/v1/apps/demo/events?since=0&types=notification") { inbound, _, _ in
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await Self.read(&messages) { $0["data"]?["name"] == "marker" }
                // 20,000 events of 4 KiB: far more than the socket buffers hold while nobody reads.
                let padding = SDLJSON.string(String(repeating: "x", count: 4096))
                for index in 0..<20_000 {
                    apps.hub.publish(
                        app: "demo", type: "notification", data: ["name": .string("n\(index)"), "parameters": ["pad": padding]])
                    // The other tests running beside this one get the thread now and then.
                    if index % 100 == 99 { await Task.yield() }
                }
                // Every event is delivered or counted in a gap; read until all 20,000 are accounted for.
                var missed: Int64 = 0
                var delivered = 0
                var gaps = 0
                _ = try await Self.read(&messages) { event in
                    if event["type"] == "gap" {
                        gaps += 1
                        missed += event["data"]?["missed"]?.intValue ?? 0
                    } else {
                        delivered += 1
                    }
                    return Int(missed) + delivered >= 20_000
                }
                #expect(gaps >= 1)
                #expect(missed > 0)
                #expect(Int(missed) + delivered == 20_000, "every event is either delivered or counted in a gap")
            }
        }
    }

    @Test("WebSocket: a message over the size limit closes with 1009; shutting down closes with 1001, a stream opened meanwhile too")
    func webSocketCloseCodes() async throws {
        let configuration = GatewayConfiguration(limits: GatewayLimits(webSocketMessageSize: 1024))
        try await H.withGateway(configuration, mode: .live) { client, _, apps in
            try await H.createApp(client)
            let tooLarge = try await client.ws("/v1/apps/demo/events?types=notification") { inbound, outbound, _ in
                let params = String(repeating: "x", count: 4096)
                try await outbound.write(.text(#"{"id":"big","function":"Show","params":{"mainField1":"\#(params)"}}"#))
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(tooLarge?.closeCode == .messageTooLarge)

            let goingAway = try await client.ws("/v1/apps/demo/events?types=notification") { inbound, outbound, _ in
                // Once the filter reply arrives the client is subscribed; then the gateway shuts its streams.
                try await outbound.write(.text(#"{"filter":{"types":["notification"]}}"#))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await Self.read(&messages) { $0["filter"] != nil }
                apps.hub.finishAll()
                while try await messages.next() != nil {}
            }
            #expect(goingAway?.closeCode == .goingAway)

            // A stream upgraded as the gateway stops (the hub already finished): going away too,
            // not 1013 (try again later), which is for a gateway with no room for another client.
            let lateComer = try await client.ws("/v1/apps/demo/events?types=notification") { inbound, _, _ in
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(lateComer?.closeCode == .goingAway)
        }
    }

    @Test(
        "WebSocket: the stream's end (the app deleted, the gateway stopping) comes after every event it held, as a close with 1001 and its reason"
    )
    func webSocketStreamEnd() async throws {
        try await H.withGateway(mode: .live) { client, _, apps in
            try await H.createApp(client)
            let received = Mutex<[SDLJSON]>([])
            let closed = try await client.ws("/v1/apps/demo/events?types=vehicleData") { inbound, outbound, _ in
                try await outbound.write(.text(#"{"filter":{"types":["vehicleData"]}}"#))
                var messages = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                _ = try await Self.read(&messages) { $0["filter"] != nil }
                // An empty message of the client's is answered as any message that is not JSON:
                // the stream goes on (the pump's end marker is an empty message too).
                try await outbound.write(.text(""))
                let refused = try await Self.read(&messages) { $0["status"] != nil }.last
                #expect(refused?["status"] == 400)
                // Published and ended in one go: the pump writes the 200 events, then ends the messages.
                for speed in 1...200 { _ = apps.hub.publish(app: "demo", type: "vehicleData", data: ["speed": .int(Int64(speed))]) }
                apps.hub.finishAll()
                let events = try await Self.read(&messages) { _ in false }
                received.withLock { $0 = events }
            }
            #expect(closed?.closeCode == .goingAway)
            #expect(closed?.reason == "the event stream ended")
            #expect(received.withLock { $0 }.compactMap { $0["data"]?["speed"]?.intValue } == (1...200).map { Int64($0) })
        }
    }

    @Test("SSE: curl -N style stream with ids, since after a full ring starts with a gap, filters apply")
    func serverSentEvents() async throws {
        let configuration = GatewayConfiguration(events: .init(ringCapacity: 5, clientQueueCapacity: 100, maximumClients: 10))
        try await H.withGateway(configuration, mode: .live) { client, _, apps in
            try await H.createApp(client)
            let port = try #require(client.port)
            let before = apps.hub.lastSeq(app: "demo")
            for index in 1...10 { apps.hub.publish(app: "demo", type: "vehicleData", data: ["speed": .int(Int64(index)), "rpm": 1000]) }
            var request = HTTPClientRequest(
                url: "http://127.0.0.1:\(port)/v1/apps/demo/events?types=vehicleData&names=speed&since=\(before)")
            request.headers.add(name: "Accept", value: "text/event-stream")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "content-type") == "text/event-stream")
            var text = ""
            for try await chunk in response.body {
                text += String(buffer: chunk)
                if text.contains("\"speed\":10") { break }
            }
            let events = text.split(separator: "\n\n").filter { $0.hasPrefix("id:") }
            #expect(events.first?.contains("event: gap") == true)
            #expect(events.dropFirst().allSatisfy { $0.contains("event: vehicleData") && !$0.contains("rpm") })
            #expect(events.last?.hasPrefix("id: \(before + 10)") == true)

            // A browser's EventSource reconnects with Last-Event-ID: the stream resumes after it.
            var again = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/apps/demo/events?types=vehicleData")
            again.headers.add(name: "Accept", value: "text/event-stream")
            again.headers.add(name: "Last-Event-ID", value: "\(before + 8)")
            let resumed = try await HTTPClient.shared.execute(again, timeout: .seconds(10))
            var resumedText = ""
            for try await chunk in resumed.body {
                resumedText += String(buffer: chunk)
                if resumedText.contains("\"speed\":10") { break }
            }
            let ids = resumedText.split(separator: "\n").filter { $0.hasPrefix("id: ") }
            #expect(ids == ["id: \(before + 9)", "id: \(before + 10)"])
        }
    }
}
