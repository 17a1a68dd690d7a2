@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import SDLProtocol
import Synchronization
import Testing

/// An app deleted and created again under its id: the new app's event stream starts empty with
/// seqs after the old app's, and a deleted app leaves no pump, session, ring or waiter behind.
@Suite("Re-created apps: a fresh event stream, nothing left behind", .timeLimit(.minutes(1)))
struct RecreateAppTests {
    typealias H = GatewayHarness

    @Test("DELETE then POST of one id: since=0 replays nothing of the deleted app, and the new seqs follow the old")
    func recreatedAppStartsAnEmptyStream() async throws {
        try await H.withGateway { client, _, apps in
            try await H.createApp(client)
            try await client.execute(uri: "/v1/apps/demo", method: .delete) { #expect($0.status == .noContent) }
            let oldLastSeq = apps.hub.lastSeq(app: "demo")
            #expect(oldLastSeq > 0)
            let created = try await H.createApp(client)
            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(), since: 0)
            subscription.cancel()
            var replayed: [GatewayEvent] = []
            while let event = await subscription.queue.next() { replayed.append(event) }
            // No gap either: the deleted app's events are not the new app's missed ones.
            #expect(replayed.first?.type == "connection")
            #expect(replayed.first?.data["state"] == "connecting")
            #expect(replayed.allSatisfy { $0.seq > oldLastSeq }, "\(replayed.map { "\($0.type)@\($0.seq)" })")
            #expect(!replayed.contains { $0.data["state"] == "closed" })
            #expect(created["lastEventSeq"].flatMap(\.intValue).map(UInt64.init) ?? 0 > oldLastSeq)
        }
    }

    @Test("Five create/delete cycles of one id leave no app, pump, session or ring behind, and shutdown stays quick")
    func deletedAppsLeaveNothingBehind() async throws {
        let bodyEnded = Mutex<ContinuousClock.Instant?>(nil)
        try await H.withGateway { client, simulator, apps in
            for cycle in 1...5 {
                try await H.createApp(client)
                #expect(apps.pumpCount == 1)
                try await client.execute(uri: "/v1/apps/demo", method: .delete) { #expect($0.status == .noContent) }
                #expect(apps.ids.isEmpty, "cycle \(cycle)")
                #expect(apps.appInfoCount == 0, "cycle \(cycle)")
                #expect(apps.pumpCount == 0, "cycle \(cycle)")
                #expect(apps.hub.appCount == 0, "cycle \(cycle)")
                #expect(apps.hub.retiredCount == 1, "cycle \(cycle)")
                #expect(simulator.snapshot.app(withID: "demo-app") == nil, "cycle \(cycle)")
            }
            bodyEnded.withLock { $0 = .now }
        }
        let ended = try #require(bodyEnded.withLock { $0 })
        // Below the harness's 2 s shutdown grace period: no session had to be cancelled.
        #expect(ContinuousClock.now - ended < .seconds(2))
    }

    @Test("The hub remembers the last seq of at most retiredLimit removed ids, the oldest forgotten first")
    func retiredIdsAreBounded() {
        let hub = EventHub()
        for index in 0...EventHub.retiredLimit {
            let app = "app-\(index)"
            _ = hub.openApp(app)
            hub.publish(app: app, type: "vehicleData", data: [:])
            hub.removeApp(app)
        }
        #expect(hub.retiredCount == EventHub.retiredLimit)
        #expect(hub.lastSeq(app: "app-0") == 0)
        #expect(hub.lastSeq(app: "app-1") == 1)
        let incarnation = hub.openApp("app-1")
        #expect(hub.publish(app: "app-1", incarnation: incarnation, type: "vehicleData", data: [:])?.event.seq == 2)
        #expect(hub.publish(app: "app-1", incarnation: incarnation + 1, type: "vehicleData", data: [:]) == nil)
    }
}
