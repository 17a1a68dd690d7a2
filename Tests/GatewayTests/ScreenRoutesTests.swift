@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// `/v1/apps/{id}/screen` against the simulator: what is declared is what the head unit shows,
/// a change sends only the changed field, soft-button presses come back by the user's ids.
@Suite("Declared screen", .timeLimit(.minutes(1)))
struct ScreenRoutesTests {
    typealias H = GatewayHarness

    static let mediaScreen: SDLJSON = [
        "template": "MEDIA", "textFields": ["Now playing", "Radio One"],
        "softButtons": [
            ["id": "play", "states": [["name": "play", "text": "Play"], ["name": "pause", "text": "Pause"]], "state": "play"]
        ],
    ]

    static func put(
        _ client: any TestClientProtocol, _ screen: SDLJSON, method: HTTPRequest.Method = .put, contentType: String = "application/json"
    ) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: "/v1/apps/demo/screen", method: method, headers: [.contentType: contentType], body: H.json(screen)) {
            ($0.status, $0.json)
        }
    }

    @Test("A declared screen is the simulator's screen; a merge patch of one line sends one Show with that field only")
    func declaredIsShown() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, appID: "demo-app")
            let (status, body) = try await Self.put(client, Self.mediaScreen)
            #expect(status == .ok, "\(String(describing: body))")
            #expect(body?["sent"]?.arrayValue?.map { $0["function"] } == ["Show"])
            let shown = try #require(simulator.snapshot.app(withID: "demo-app")?.screen.json)
            #expect(shown["template"] == "MEDIA")
            #expect(shown["show"]?["mainField1"] == "Now playing")
            #expect(shown["show"]?["mainField2"] == "Radio One")
            #expect(shown["show"]?["softButtons"]?.arrayValue?.first?["text"] == "Play")

            let showsBefore = simulator.snapshot.log.entries.filter { $0.function == "Show" }.count
            let (patched, patchBody) = try await Self.put(
                client, ["textFields": ["Now playing", "Radio Two"]], method: .patch, contentType: "application/merge-patch+json")
            #expect(patched == .ok)
            let sent = try #require(patchBody?["sent"]?.arrayValue)
            #expect(sent.count == 1)
            #expect(sent.first?["parameters"] == ["mainField2": "Radio Two"])
            #expect(simulator.snapshot.log.entries.filter { $0.function == "Show" }.count == showsBefore + 2)  // request and response
            #expect(simulator.snapshot.app(withID: "demo-app")?.screen.json["show"]?["mainField2"] == "Radio Two")

            // The same screen again sends nothing.
            let (_, again) = try await Self.put(
                client,
                ["textFields": ["Now playing", "Radio Two"], "template": "MEDIA", "softButtons": Self.mediaScreen["softButtons"] ?? []])
            #expect(again?["sent"] == [])
            try await client.execute(uri: "/v1/apps/demo/screen", method: .get) { response in
                #expect(response.json?["screen"]?["textFields"] == ["Now playing", "Radio Two"])
                #expect(response.json?["softButtons"]?["play"]?["softButtonID"] == 1)
            }
        }
    }

    @Test("A press of a declared soft button is a softButton event with the user's id and state")
    func softButtonEvent() async throws {
        try await H.withGateway { client, _, apps in
            try await H.createApp(client, appID: "demo-app")
            let (status, body) = try await Self.put(client, Self.mediaScreen)
            #expect(status == .ok)
            let softButtonID = try #require(body?["softButtons"]?["play"]?["softButtonID"]?.intValue)
            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["softButton"]))
            defer { subscription.cancel() }
            let press: SDLJSON = ["appID": "demo", "softButtonID": .int(softButtonID)]
            try await client.execute(
                uri: "/v1/simulator/buttons/CUSTOM_BUTTON/press", method: .post, headers: H.jsonHeaders, body: H.json(press)
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            var events: [GatewayEvent] = []
            while events.count < 3, let event = await subscription.queue.next() { events.append(event) }
            // BUTTONDOWN, BUTTONUP (OnButtonEvent) and SHORT (OnButtonPress), each by the user's id.
            #expect(events.map { $0.data["mode"] } == ["BUTTONDOWN", "BUTTONUP", "SHORT"])
            #expect(events.allSatisfy { $0.data["id"] == "play" && $0.data["state"] == "play" })
        }
    }

    @Test("Refused before anything is sent: unknown members, duplicate soft button ids, an image the head unit lacks, a non-object patch")
    func refusals() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, appID: "demo-app")
            let showsBefore = simulator.snapshot.log.entries.filter { $0.function == "Show" }.count
            let (unknown, unknownBody) = try await Self.put(client, ["textFields": ["a"], "colour": "red"])
            #expect(unknown == .unprocessableContent)
            #expect(unknownBody?["issues"]?.arrayValue?.first?.stringValue?.hasPrefix("$.colour") == true)
            let button: SDLJSON = ["id": "a", "states": [["name": "x", "text": "X"]]]
            let (duplicate, duplicateBody) = try await Self.put(client, ["softButtons": [button, button]])
            #expect(duplicate == .unprocessableContent)
            #expect(duplicateBody?["detail"]?.stringValue?.contains("$.softButtons[1]") == true, "\(String(describing: duplicateBody))")
            let (image, imageBody) = try await Self.put(client, ["primaryGraphic": "missing.png"])
            #expect(image == .unprocessableContent)
            #expect(imageBody?["detail"]?.stringValue?.contains("$.primaryGraphic") == true)
            let (wrongType, _) = try await Self.put(client, ["textFields": "one line"])
            #expect(wrongType == .unprocessableContent)
            let (null, nullBody) = try await Self.put(client, ["textFields": ["a"], "softButtons": .null])
            #expect(null == .unprocessableContent)
            #expect(nullBody?["detail"]?.stringValue?.hasPrefix("$.softButtons: null") == true)
            let (patch, _) = try await Self.put(client, ["a", "b"], method: .patch)
            #expect(patch == .badRequest)
            #expect(simulator.snapshot.log.entries.filter { $0.function == "Show" }.count == showsBefore)
            try await client.execute(uri: "/v1/apps/nobody/screen", method: .get) { #expect($0.status == .notFound) }
        }
    }

    @Test("Merge patch (RFC 7396): members replace, null removes, objects merge, a non-object replaces")
    func mergePatch() {
        let target: SDLJSON = ["a": "b", "c": ["d": "e", "f": "g"]]
        #expect(ScreenDeclaration.mergePatch(target, ["a": "z", "c": ["f": .null]]) == ["a": "z", "c": ["d": "e"]])
        #expect(ScreenDeclaration.mergePatch(target, ["a": .null]) == ["c": ["d": "e", "f": "g"]])
        #expect(ScreenDeclaration.mergePatch(target, ["e": ["x": 1]]) == ["a": "b", "c": ["d": "e", "f": "g"], "e": ["x": 1]])
        #expect(ScreenDeclaration.mergePatch(target, ["q"]) == ["q"])
    }

    @Test(
        "PUT /media: the track through Show with metadata tags, the clock through SetMediaClockTimer only when it changes, media buttons subscribed once and reported as mediaButton events"
    )
    func media() async throws {
        try await H.withGateway { client, simulator, apps in
            try await H.createApp(client, id: "plain")
            let notMedia = try await client.execute(
                uri: "/v1/apps/plain/media", method: .put, headers: H.jsonHeaders, body: H.json(["track": "Song"])
            ) { $0 }
            #expect(notMedia.status == .conflict)
            #expect(notMedia.json?["type"] == "urn:sdl-gateway:problem:not-media-app")
            let body: SDLJSON = [
                "id": "demo", "appName": "Radio", "appID": "demo-app", "isMediaApplication": true, "appHMIType": ["MEDIA"],
            ]
            try await client.execute(uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: H.json(body)) {
                #expect($0.status == .created)
            }
            let playing: SDLJSON = ["track": "Song", "artist": "Band", "clock": ["position": 10, "duration": 200, "state": "PLAYING"]]
            let first = try await client.execute(uri: "/v1/apps/demo/media", method: .put, headers: H.jsonHeaders, body: H.json(playing)) {
                $0.json
            }
            #expect(
                first?["sent"]?.arrayValue?.map { $0["function"] } == [
                    "Show", "SubscribeButton", "SubscribeButton", "SubscribeButton", "SetMediaClockTimer",
                ], "\(String(describing: first))")
            #expect(simulator.snapshot.app(withID: "demo-app")?.screen.json["show"]?["mainField1"] == "Song")
            let paused: SDLJSON = ["track": "Song", "artist": "Band", "clock": ["position": 30, "duration": 200, "state": "PAUSED"]]
            let second = try await client.execute(uri: "/v1/apps/demo/media", method: .put, headers: H.jsonHeaders, body: H.json(paused)) {
                $0.json
            }
            #expect(second?["sent"]?.arrayValue?.map { $0["function"] } == ["SetMediaClockTimer"])
            #expect(second?["sent"]?.arrayValue?.first?["parameters"]?["updateMode"] == "PAUSE")

            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["mediaButton"]))
            defer { subscription.cancel() }
            try await client.execute(
                uri: "/v1/simulator/buttons/PLAY_PAUSE/press", method: .post, headers: H.jsonHeaders, body: H.json([:])
            ) { #expect($0.status == .ok) }
            let event = await subscription.queue.next()
            #expect(event?.data["button"] == "PLAY_PAUSE")

            let (clock, _) = try await Self.put(client, [:])  // the screen route keeps the declared media
            #expect(clock == .ok)
            let bad = try await client.execute(
                uri: "/v1/apps/demo/media", method: .put, headers: H.jsonHeaders,
                body: H.json(["clock": ["position": -1, "state": "PLAYING"]])
            ) { $0.status }
            #expect(bad == .unprocessableContent)
            let unknownState = try await client.execute(
                uri: "/v1/apps/demo/media", method: .put, headers: H.jsonHeaders,
                body: H.json(["clock": ["position": 1, "state": "SPINNING"]])
            ) { $0.status }
            #expect(unknownState == .unprocessableContent)
        }
    }
}
