@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// Under `serve --simulate` the simulator's control paths take the ids the app declared to the
/// managers: a script chooses menu entry "b2", answers an interaction with "fm2" and presses soft
/// button "play" by those ids, as the README shows (issue 30, item 14).
@Suite("Control paths take declared ids", .timeLimit(.minutes(1)))
struct DeclaredControlIDTests {
    typealias H = GatewayHarness

    static func post(_ client: any TestClientProtocol, _ uri: String, _ body: SDLJSON) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: uri, method: .post, headers: H.jsonHeaders, body: H.json(body)) { ($0.status, $0.json) }
    }

    @Test("A menu entry by its declared id (and the SDL appID): the menuSelection names it; an unknown id is 404 listing the declared ones")
    func menuEntry() async throws {
        try await H.withGateway { client, simulator, apps in
            try await H.createApp(client, appID: "demo-app")
            let (status, _) = try await MenuRoutesTests.put(client, "menu", MenuRoutesTests.menu("B2"))
            #expect(status == .ok)
            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["menuSelection"]))
            defer { subscription.cancel() }
            let (chosen, body) = try await Self.post(client, "/v1/simulator/apps/demo/commands/b2", [:])
            #expect(chosen == .ok, "\(String(describing: body))")
            let cmdID = simulator.snapshot.app(withID: "demo-app")?.commands.first { $0.value["menuParams"]?["menuName"] == "B2" }?.key
            #expect(body?["cmdID"]?.intValue == cmdID)
            #expect(await subscription.queue.next()?.data == ["id": "b2", "path": ["b", "b2"], "trigger": "MENU"])
            // By the SDL appID too, and by voice.
            let (spoken, _) = try await Self.post(client, "/v1/simulator/apps/demo-app/commands/c", ["triggerSource": "VR"])
            #expect(spoken == .ok)
            #expect(await subscription.queue.next()?.data == ["id": "c", "path": ["c"], "trigger": "VR"])

            let (unknown, problem) = try await Self.post(client, "/v1/simulator/apps/demo/commands/b9", [:])
            #expect(unknown == .notFound)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:command-not-found")
            #expect(problem?["detail"]?.stringValue?.contains("(a, b1, b2, c)") == true, "\(String(describing: problem))")
        }
    }

    @Test("An interaction answered with the declared choice id \"fm2\"; an undeclared one is 422 listing fm1, fm2")
    func choice() async throws {
        try await H.withGateway(timeScale: 1) { client, _, apps in
            try await H.createApp(client, appID: "demo-app")
            let (status, body) = try await InteractionRoutesTests.present(
                client, apps, "interactions", InteractionRoutesTests.stations, context: "HMI_OBSCURED"
            ) {
                let (wrong, problem) = try await Self.post(client, "/v1/simulator/apps/demo/interaction", ["choiceID": "fm9"])
                #expect(wrong == .unprocessableContent)
                #expect(problem?["detail"]?.stringValue?.contains("(fm1, fm2)") == true, "\(String(describing: problem))")
                try await InteractionRoutesTests.answer(client, ["choiceID": "fm2"])
            }
            #expect(status == .ok, "\(String(describing: body))")
            #expect(body?["choice"] == "fm2")
            // Once answered, the choice ids are gone with the interaction.
            let (late, lateProblem) = try await Self.post(client, "/v1/simulator/apps/demo/interaction", ["choiceID": "fm2"])
            #expect(late == .unprocessableContent)
            #expect(lateProblem?["detail"]?.stringValue?.contains("none is declared now") == true, "\(String(describing: lateProblem))")
        }
    }

    @Test("A soft button of the screen and one of an alert pressed by their declared ids; a declared id without its app is 400")
    func softButtons() async throws {
        try await H.withGateway(timeScale: 1) { client, _, apps in
            try await H.createApp(client, appID: "demo-app")
            let (shown, _) = try await ScreenRoutesTests.put(client, ScreenRoutesTests.mediaScreen)
            #expect(shown == .ok)
            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["softButton"]))
            defer { subscription.cancel() }
            let (pressed, body) = try await Self.post(
                client, "/v1/simulator/buttons/CUSTOM_BUTTON/press", ["appID": "demo", "softButtonID": "play"])
            #expect(pressed == .ok, "\(String(describing: body))")
            #expect(await subscription.queue.next()?.data["id"] == "play")
            let (appless, _) = try await Self.post(client, "/v1/simulator/buttons/CUSTOM_BUTTON/press", ["softButtonID": "play"])
            #expect(appless == .badRequest)

            let alert: SDLJSON = ["text": ["Low fuel"], "softButtons": [["id": "yes", "text": "Yes"], ["id": "no", "text": "No"]]]
            let (status, answer) = try await InteractionRoutesTests.present(client, apps, "alerts", alert, context: "ALERT") {
                let (press, pressBody) = try await Self.post(
                    client, "/v1/simulator/buttons/CUSTOM_BUTTON/press", ["appID": "demo-app", "softButtonID": "no"])
                #expect(press == .ok, "\(String(describing: pressBody))")
            }
            #expect(status == .ok, "\(String(describing: answer))")
            #expect(answer?["button"] == "no")
        }
    }
}
