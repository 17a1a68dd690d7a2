@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// After the head unit restarts, the declared screen and menu come back by themselves, and a
/// `connection` event says so.
@Suite("Declared state restored after a head unit restart", .timeLimit(.minutes(1)))
struct ManagerRestoreTests {
    typealias H = GatewayHarness

    struct Outcome: Sendable {
        var event: SDLJSON?
        var screen: SDLJSON?
        var menuNames: [String] = []
        var registration: String?
    }

    /// Declares a screen and a menu, restarts the simulator, waits for `restored` and checks
    /// what the simulator shows then.
    static func restart(keepingResumptionData: Bool, check: @escaping @Sendable (Outcome) -> Void) async throws {
        try await H.withGateway { client, simulator, apps in
            var outcome = Outcome()
            try await H.createApp(client, appID: "demo-app")
            try await client.execute(
                uri: "/v1/apps/demo/screen", method: .put, headers: H.jsonHeaders, body: H.json(ScreenRoutesTests.mediaScreen)
            ) { response in
                #expect(response.status == .ok)
            }
            let (menuStatus, _) = try await MenuRoutesTests.put(client, "menu", MenuRoutesTests.menu("B2"))
            #expect(menuStatus == .ok)
            let events = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["connection"]))
            defer { events.cancel() }
            try await client.execute(
                uri: "/v1/simulator/restart", method: .post, headers: H.jsonHeaders,
                body: H.json(["keepResumptionData": .bool(keepingResumptionData)])
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.json?["disconnected"] == ["demo-app"])
            }
            while let event = await events.queue.next() {
                if event.data["state"] == "registered" { outcome.registration = event.data["detail"]?.stringValue }
                if event.data["state"] == "restored" || event.data["state"] == "restoreFailed" {
                    outcome.event = event.data
                    break
                }
            }
            let app = simulator.snapshot.app(withID: "demo-app")
            outcome.screen = app?.screen.json
            outcome.menuNames = (app.map { Array($0.commands.values) + Array($0.subMenus.values) } ?? []).compactMap {
                $0["menuParams"]?["menuName"]?.stringValue ?? $0["menuName"]?.stringValue
            }.sorted()
            check(outcome)
        }
    }

    @Test("Resumption failing (the head unit lost its data): the screen and the menu come back whole")
    func resumeFailed() async throws {
        try await Self.restart(keepingResumptionData: false) { outcome in
            #expect(outcome.registration == "RESUME_FAILED")
            #expect(outcome.event?["state"] == "restored", "\(String(describing: outcome.event))")
            #expect(outcome.event?["sent"] == 6)  // Show + AddCommand A + AddSubMenu B + AddCommand B1, B2 + AddCommand C
            #expect(outcome.screen?["template"] == "MEDIA")
            #expect(outcome.screen?["show"]?["mainField1"] == "Now playing")
            #expect(outcome.screen?["show"]?["softButtons"]?.arrayValue?.first?["text"] == "Play")
            #expect(outcome.menuNames == ["A", "B", "B1", "B2", "C"])
        }
    }

    @Test("Resumption succeeding: the head unit put the menu back itself; the gateway sends only the Show")
    func resumed() async throws {
        try await Self.restart(keepingResumptionData: true) { outcome in
            #expect(outcome.registration?.hasPrefix("resumed") == true, "\(String(describing: outcome.registration))")
            #expect(outcome.event?["sent"] == 1)
            #expect(outcome.screen?["show"]?["mainField2"] == "Radio One")
            #expect(outcome.menuNames == ["A", "B", "B1", "B2", "C"])
        }
    }
}
