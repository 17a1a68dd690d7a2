import HTTPAPISupport
import HeadUnitModel
import HeadlessHMI
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SDLManagers
import SDLProtocol
import SimulatorControl
import TestSupport
import Testing

/// The headless HMI's control API names apps and ids as the simulator's does (issue 30, items 1
/// and 14): an app by its SDL appID (Core's policyAppID), Core's HMI app id or the gateway's app
/// id; a command, choice or soft button by its number or the id the app declared to the
/// gateway's managers. Against a fake Core on loopback, with the gateway's names given as the
/// gateway gives them under `serve --hmi`.
@Suite("Headless HMI control API names", .timeLimit(.minutes(1)))
struct HMIControlNamesTests {
    /// The gateway of `serve --hmi`: app "radio" registers as "radio01" and declared menu entry
    /// "b2" (cmdID 12), voice command "home" (13), soft button "play" (1) and, in the interaction
    /// open now, choices "fm1" (101) and "fm2" (102).
    static let names = GatewayNames(
        sdlAppID: { $0 == "radio" ? "radio01" : nil },
        apps: { $0.lowercased() == "radio01" ? ["radio"] : [] },
        declaredIDs: { id in
            guard id == "radio" else { return nil }
            var declared = SDLDeclaredIDs()
            declared.commands = ["b2": [12], "home": [13]]
            declared.screenButtons = ["play": 1]
            declared.choices = ["fm1": 101, "fm2": 102]
            return declared
        }
    )

    static let coreAppID: Int64 = 1_443_150_702

    /// A control API over an HMI connected to a fake Core that registered `application` ("radio01"
    /// unless told); `body` drives both.
    static func withCore(
        application: SDLJSON = ["appID": .int(HMIControlNamesTests.coreAppID), "appName": "Radio", "policyAppID": "radio01"],
        _ body: @Sendable (any TestClientProtocol, inout FakeCoreHMI.Connection) async throws -> Void
    ) async throws {
        let core = try await FakeCoreHMI.bind()
        let connection = HMIConnection(
            address: core.address, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)), logger: Logger.test("hmi-test"))
        let app = Application(router: HMIControlRoutes(connection: connection, names: names).makeRouter())
        try await app.test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await connection.run() }
                try await core.serveOne { fake, _ in
                    try await fake.send(
                        .notification(
                            method: "BasicCommunication.OnAppRegistered",
                            params: ["application": application]
                        ))
                    // The registration is applied when a request sent after it is answered.
                    try await fake.send(.request(id: 90, method: "UI.IsReady", params: [:]))
                    _ = try await fake.next { $0.answeredMethod == "UI.IsReady" }
                    try await body(client, &fake)
                }
                group.cancelAll()
            }
        }
    }

    static func post(_ client: any TestClientProtocol, _ uri: String, _ body: SDLJSON) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(
            uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body.serializedBytes())
        ) {
            ($0.status, try? SDLJSON.parse($0.body))
        }
    }

    static func get(_ client: any TestClientProtocol, _ uri: String) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: uri, method: .get) { ($0.status, try? SDLJSON.parse($0.body)) }
    }

    @Test("An app by its SDL appID (any case), Core's HMI app id or the gateway's app id; an unknown name is 404 listing the apps")
    func appNames() async throws {
        try await Self.withCore { client, _ in
            for name in ["radio01", "RADIO01", String(Self.coreAppID), "radio"] {
                let (status, screen) = try await Self.get(client, "/apps/\(name)/screen")
                #expect(status == .ok, "\(name): \(String(describing: screen))")
                let (_, app) = try await Self.get(client, "/apps/\(name)")
                #expect(app?["appID"]?.intValue == Self.coreAppID)
            }
            let (unknown, problem) = try await Self.get(client, "/apps/nobody/screen")
            #expect(unknown == .notFound)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:app-not-found")
            #expect(problem?["detail"]?.stringValue?.contains("radio01 (1443150702)") == true, "\(String(describing: problem))")
        }
    }

    @Test(
        "A button press takes the simulator's body (appID any name, softButtonID a number or declared id) and the old one (customButtonID, Core's id)"
    )
    func buttonPress() async throws {
        try await Self.withCore { client, core in
            let presses: [SDLJSON] = [
                ["appID": "radio01", "softButtonID": 5],
                ["appID": .int(Self.coreAppID), "customButtonID": 5],
                ["appID": "radio", "softButtonID": "play"],
            ]
            for (press, expected) in zip(presses, [5, 5, 1] as [Int64]) {
                let (status, body) = try await Self.post(client, "/buttons/CUSTOM_BUTTON/press", press)
                #expect(status == .ok, "\(press): \(String(describing: body))")
                let sent = try await core.next { if case .notification("Buttons.OnButtonPress", _) = $0 { true } else { false } }
                #expect(
                    sent
                        == .notification(
                            method: "Buttons.OnButtonPress",
                            params: [
                                "name": "CUSTOM_BUTTON", "mode": "SHORT", "appID": .int(Self.coreAppID), "customButtonID": .int(expected),
                            ]
                        ))
            }
            let (both, _) = try await Self.post(
                client, "/buttons/CUSTOM_BUTTON/press", ["appID": "radio01", "softButtonID": 5, "customButtonID": 5])
            #expect(both == .badRequest)
            let (undeclared, problem) = try await Self.post(
                client, "/buttons/CUSTOM_BUTTON/press", ["appID": "radio01", "softButtonID": "stop"])
            #expect(undeclared == .unprocessableContent)
            #expect(problem?["detail"]?.stringValue?.contains("(play)") == true, "\(String(describing: problem))")
        }
    }

    @Test("A command by its declared id or number; a choice by its declared id; unknown ids list the declared ones")
    func declaredIDs() async throws {
        try await Self.withCore { client, core in
            let (chosen, body) = try await Self.post(client, "/apps/radio01/commands/b2", [:])
            #expect(chosen == .ok, "\(String(describing: body))")
            #expect(try await core.next() == .notification(method: "UI.OnCommand", params: ["cmdID": 12, "appID": .int(Self.coreAppID)]))
            let (spoken, _) = try await Self.post(client, "/apps/radio/commands/home", ["triggerSource": "VR"])
            #expect(spoken == .ok)
            #expect(try await core.next() == .notification(method: "VR.OnCommand", params: ["cmdID": 13, "appID": .int(Self.coreAppID)]))
            let (numbered, _) = try await Self.post(client, "/apps/radio01/commands/40", [:])
            #expect(numbered == .ok)
            #expect(try await core.next() == .notification(method: "UI.OnCommand", params: ["cmdID": 40, "appID": .int(Self.coreAppID)]))
            let (unknown, problem) = try await Self.post(client, "/apps/radio01/commands/b9", [:])
            #expect(unknown == .notFound)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:command-not-found")
            #expect(problem?["detail"]?.stringValue?.contains("(b2, home)") == true, "\(String(describing: problem))")

            let choiceSet: SDLJSON = [["choiceID": 101, "menuName": "FM 1"], ["choiceID": 102, "menuName": "FM 2"]]
            try await core.send(
                .request(
                    id: 300, method: "UI.PerformInteraction",
                    params: ["appID": .int(Self.coreAppID), "choiceSet": choiceSet, "timeout": 10000]))
            _ = try await core.next {
                $0 == .notification(method: "UI.OnSystemContext", params: ["systemContext": "HMI_OBSCURED", "appID": .int(Self.coreAppID)])
            }
            let (answered, answer) = try await Self.post(client, "/apps/radio01/interaction", ["choiceID": "fm2"])
            #expect(answered == .ok, "\(String(describing: answer))")
            #expect(try await core.next() == .answer(id: 300, method: "UI.PerformInteraction", params: ["choiceID": 102]))
        }
    }

    @Test("A name of two apps (one's SDL appID is the other's HMI app id) is 400 ambiguous-name")
    func ambiguous() async throws {
        try await Self.withCore { client, core in
            try await core.send(
                .notification(
                    method: "BasicCommunication.OnAppRegistered",
                    params: ["application": ["appID": 7, "appName": "Digits", "policyAppID": .string(String(Self.coreAppID))]]
                ))
            try await core.send(.request(id: 91, method: "UI.IsReady", params: [:]))
            _ = try await core.next { $0.answeredMethod == "UI.IsReady" }
            let (status, problem) = try await Self.get(client, "/apps/\(Self.coreAppID)")
            #expect(status == .badRequest)
            #expect(problem?["type"] == "urn:sdl-gateway:problem:ambiguous-name")
            #expect(try await Self.get(client, "/apps/7").0 == .ok)
        }
    }
}
