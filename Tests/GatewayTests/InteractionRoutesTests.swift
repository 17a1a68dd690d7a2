@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// `/v1/apps/{id}/interactions` and `/alerts` against the simulator: the driver answers through
/// the simulator's control API, and the gateway answers by the user's ids. The simulator runs at
/// real time here, so an interaction stays open (10 s, an alert 5 s) until the driver answers,
/// however busy the machine; every ending is the driver's.
@Suite("Interactions and alerts", .timeLimit(.minutes(1)))
struct InteractionRoutesTests {
    typealias H = GatewayHarness

    static func post(_ client: any TestClientProtocol, _ path: String, _ body: SDLJSON) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: "/v1/apps/demo/\(path)", method: .post, headers: H.jsonHeaders, body: H.json(body)) {
            ($0.status, $0.json)
        }
    }

    /// Posts `body` to `path` while `driver` acts once the head unit shows it (its system context
    /// is `context`); the gateway's answer.
    static func present(
        _ client: any TestClientProtocol, _ apps: GatewayApps, _ path: String, _ body: SDLJSON, context: String,
        driver: @escaping @Sendable () async throws -> Void
    ) async throws -> (HTTPResponse.Status, SDLJSON?) {
        let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["hmiStatus"]))
        defer { subscription.cancel() }
        return try await withThrowingTaskGroup(of: (HTTPResponse.Status, SDLJSON?)?.self) { group in
            group.addTask { try await post(client, path, body) }
            group.addTask {
                while let event = await subscription.queue.next() {
                    if event.data["systemContext"]?.stringValue == context { break }
                }
                try await driver()
                return nil
            }
            var answer: (HTTPResponse.Status, SDLJSON?)?
            for try await result in group { if let result { answer = result } }
            return try #require(answer)
        }
    }

    /// The driver answers the app's open interaction through the simulator's control API.
    static func answer(_ client: any TestClientProtocol, _ body: SDLJSON) async throws {
        try await client.execute(uri: "/v1/simulator/apps/demo/interaction", method: .post, headers: H.jsonHeaders, body: H.json(body)) {
            response in
            #expect(response.status == .ok, "\(String(buffer: response.body))")
        }
    }

    static let stations: SDLJSON = [
        "title": "Station",
        "choices": [["id": "fm1", "text": "FM 1", "voiceCommands": ["one"]], ["id": "fm2", "text": "FM 2", "voiceCommands": ["two"]]],
    ]

    @Test("A choice answered through the simulator returns the user's choice id; the sets are reused next time; a timeout is an answer")
    func choice() async throws {
        try await H.withGateway(timeScale: 1) { client, simulator, apps in
            try await H.createApp(client, appID: "demo-app")
            let events = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["choice"]))
            defer { events.cancel() }
            let (status, body) = try await Self.present(client, apps, "interactions", Self.stations, context: "HMI_OBSCURED") {
                let choiceID = try #require(
                    simulator.snapshot.app(withID: "demo-app")?.choiceSets.values.compactMap { $0["choiceSet"]?.arrayValue?.first }.first {
                        $0["menuName"] == "FM 2"
                    }?["choiceID"]?.intValue)
                try await Self.answer(client, ["choiceID": .int(choiceID)])
            }
            #expect(status == .ok, "\(String(describing: body))")
            #expect(body?["choice"] == "fm2")
            #expect(body?["trigger"] == "MENU")
            #expect(body?["result"] == "SUCCESS")
            #expect(
                body?["sent"]?.arrayValue?.map { $0["function"] } == [
                    "CreateInteractionChoiceSet", "CreateInteractionChoiceSet", "PerformInteraction",
                ])
            #expect(await events.queue.next()?.data == ["choice": "fm2", "trigger": "MENU", "result": "SUCCESS"])

            // The same choices again: no new set; the head unit gives up (TIMED_OUT): an answer, not an error.
            let (timedOut, timedOutBody) = try await Self.present(client, apps, "interactions", Self.stations, context: "HMI_OBSCURED") {
                try await Self.answer(client, ["result": "TIMED_OUT"])
            }
            #expect(timedOut == .ok)
            #expect(timedOutBody?["choice"] == .null)
            #expect(timedOutBody?["result"] == "TIMED_OUT")
            #expect(timedOutBody?["sent"]?.arrayValue?.map { $0["function"] } == ["PerformInteraction"])
        }
    }

    @Test("A keyboard answers with the typed text; the head unit's OnKeyboardInput arrives as a keyboardInput event")
    func keyboard() async throws {
        try await H.withGateway(timeScale: 1) { client, _, apps in
            try await H.createApp(client, appID: "demo-app")
            let events = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["keyboardInput"]))
            defer { events.cancel() }
            let search: SDLJSON = ["title": "City", "keyboard": ["layout": "QWERTY", "autoComplete": ["Paris", "Perth"]]]
            let (status, body) = try await Self.present(client, apps, "interactions", search, context: "HMI_OBSCURED") {
                try await Self.answer(client, ["text": "Paris"])
            }
            #expect(status == .ok, "\(String(describing: body))")
            #expect(body?["text"] == "Paris")
            #expect(body?["trigger"] == "KEYBOARD")
            #expect(body?["sent"]?.arrayValue?.map { $0["function"] } == ["SetGlobalProperties", "PerformInteraction"])
            #expect(await events.queue.next()?.data == ["event": "ENTRY_SUBMITTED", "data": "Paris"])
        }
    }

    @Test("An alert answers which of its soft buttons the driver pressed; none when it ends without a press")
    func alert() async throws {
        try await H.withGateway(timeScale: 1) { client, simulator, apps in
            try await H.createApp(client, appID: "demo-app")
            let alert: SDLJSON = [
                "text": ["Low fuel", "Find a station?"], "speak": "Low fuel",
                "softButtons": [["id": "yes", "text": "Yes"], ["id": "no", "text": "No"]],
            ]
            let (status, body) = try await Self.present(client, apps, "alerts", alert, context: "ALERT") {
                let overlay = try #require(simulator.snapshot.app(withID: "demo-app")?.screen.overlay)
                let no = try #require(
                    overlay["parameters"]?["softButtons"]?.arrayValue?.first { $0["text"] == "No" }?["softButtonID"]?.intValue)
                let press: SDLJSON = ["softButtonID": .int(no), "appID": "demo"]
                try await client.execute(
                    uri: "/v1/simulator/buttons/CUSTOM_BUTTON/press", method: .post, headers: H.jsonHeaders, body: H.json(press)
                ) { response in
                    #expect(response.status == .ok, "\(String(buffer: response.body))")
                }
            }
            #expect(status == .ok, "\(String(describing: body))")
            #expect(body?["button"] == "no")
            #expect(body?["result"] == "SUCCESS")
            #expect(body?["sent"]?.arrayValue?.first?["parameters"]?["softButtons"]?.arrayValue?.first?["softButtonID"] == 32768)

            // 10 s, the longest an alert shows: a loaded machine's answer once came after 3 s,
            // when the alert had ended by itself (409, nothing left to answer).
            let (quiet, quietBody) = try await Self.present(
                client, apps, "alerts", ["text": ["Just so you know"], "duration": 10], context: "ALERT"
            ) {
                try await Self.answer(client, [:])  // what the head unit says when the alert's time is up
            }
            #expect(quiet == .ok)
            #expect(quietBody?["button"] == .null)
            #expect(quietBody?["result"] == "SUCCESS")
        }
    }

    @Test("Mistakes are 422s naming the path, before anything is sent")
    func refusals() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, appID: "demo-app")
            let mark = simulator.snapshot.log.entries.last?.sequence ?? 0
            let cases: [(String, SDLJSON, String)] = [
                ("interactions", ["title": "T", "choices": [["id": "a", "text": "A"], ["id": "a", "text": "B"]]], "$.choices[1].id"),
                ("interactions", ["title": "T", "choices": [["id": "a", "text": "A", "colour": "red"]]], "$.choices[0].colour"),
                ("interactions", ["title": "T", "keyboard": ["layout": "DVORAK"]], "$.keyboard.layout"),
                ("interactions", ["title": "T", "keyboard": [:], "choices": [["id": "a", "text": "A"]]], "$.keyboard"),
                ("alerts", [:], "$"),
                ("alerts", ["text": ["a", "b", "c", "d"]], "$.text"),
                ("alerts", ["softButtons": [["id": "a", "text": "A", "action": "CLOSE"]]], "$.softButtons[0].action"),
                ("alerts", ["text": ["a"], "subtle": true, "playTone": true], "$.playTone"),
            ]
            for (path, body, field) in cases {
                let (status, problem) = try await Self.post(client, path, body)
                #expect(status == .unprocessableContent, "\(path) \(body)")
                #expect(problem?["detail"]?.stringValue?.hasPrefix(field) == true, "\(String(describing: problem))")
            }
            #expect(simulator.snapshot.log.entries.filter { $0.sequence > mark && $0.direction == .fromApp }.isEmpty)
        }
    }
}
