@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import Hummingbird
import HummingbirdTesting
import NIOCore
import SDLClient
import SDLProtocol
import SDLTransport
import Testing

/// `PUT /v1/apps/{id}`: an idempotent create. The first PUT creates and registers the app (201),
/// a repeat with the same registration parameters finds it (200, nothing sent to the head unit),
/// other parameters are a 409 naming them, and concurrent PUTs of one id create one app.
@Suite("PUT /v1/apps/{id}: create or find the app", .timeLimit(.minutes(1)))
struct PutAppTests {
    typealias H = GatewayHarness

    struct Answer: Sendable {
        var status: HTTPResponse.Status
        var json: SDLJSON?
        var location: String?
        var problemType: String?
    }

    static func put(_ client: any TestClientProtocol, _ id: String, _ body: [String: SDLJSON]) async throws -> Answer {
        try await client.execute(uri: "/v1/apps/\(id)", method: .put, headers: H.jsonHeaders, body: H.json(.object(body))) { response in
            Answer(status: response.status, json: response.json, location: response.headers[.location], problemType: response.problemType)
        }
    }

    /// RegisterAppInterface requests the head unit received.
    static func registrations(_ simulator: SimulatedHeadUnit) -> Int {
        simulator.snapshot.log.entries.count { $0.function == "RegisterAppInterface" && $0.rpcType == .request }
    }

    static let body: [String: SDLJSON] = ["appName": "Put Demo", "appID": "put-app", "appHMIType": ["MEDIA"], "isMediaApplication": true]

    @Test("PUT creates (201 + Location, registered); the same PUT again is 200 with the same app and no second registration")
    func createThenFind() async throws {
        try await H.withGateway { client, simulator, apps in
            let created = try await Self.put(client, "demo", Self.body)
            #expect(created.status == .created)
            #expect(created.location == "/v1/apps/demo")
            #expect(created.json?["id"] == "demo")
            #expect(created.json?["connection"] == "registered")
            let session = try #require(apps.registry.session(id: "demo"))
            #expect(Self.registrations(simulator) == 1)

            // The defaults filled in count as given: languageDesired EN-US, the body's id.
            var again = Self.body
            again["languageDesired"] = "EN-US"
            again["id"] = "demo"
            let found = try await Self.put(client, "demo", again)
            #expect(found.status == .ok)
            #expect(found.location == nil)
            #expect(found.json?["id"] == "demo")
            #expect(found.json?["connection"] == "registered")
            #expect(found.json?["appID"] == "put-app")
            #expect(apps.registry.session(id: "demo") === session)
            #expect(session.attempts == 1)
            #expect(Self.registrations(simulator) == 1)
            #expect(apps.ids == ["demo"])
            #expect(apps.putSerializer.activeKeys == 0)
        }
    }

    @Test("PUT with other registration parameters is 409 app-exists naming each differing field; the app is untouched")
    func conflictNamesFields() async throws {
        try await H.withGateway { client, simulator, apps in
            #expect(try await Self.put(client, "demo", Self.body).status == .created)
            var other = Self.body
            other["appName"] = "Other Name"
            other["languageDesired"] = "DE-DE"
            other["ttsName"] = [["text": "Other"]]
            let conflict = try await Self.put(client, "demo", other)
            #expect(conflict.status == .conflict)
            #expect(conflict.problemType == "app-exists")
            let detail = conflict.json?["detail"]?.stringValue ?? ""
            #expect(detail.contains("appName, languageDesired, ttsName"), "\(detail)")
            #expect(conflict.json?["issues"]?.arrayValue?.count == 3)
            // Only what differs: a default left out is no difference.
            var oneField = Self.body
            oneField["isMediaApplication"] = false
            let single = try await Self.put(client, "demo", oneField)
            #expect(single.status == .conflict)
            #expect(single.json?["issues"] == ["isMediaApplication differs from the existing app's"])
            // Another head unit is a difference too.
            let port = try #require(H.webSocketPort)
            var elsewhere = Self.body
            elsewhere["core"] = .string("ws://127.0.0.1:\(port)")
            #expect(try await Self.put(client, "demo", elsewhere).json?["issues"] == ["core differs from the existing app's"])
            #expect(apps.registry.session(id: "demo")?.configuration.app.appName == "Put Demo")
            #expect(Self.registrations(simulator) == 1)
        }
    }

    @Test("PUT after POST: the app POST created is found with equal parameters, refused with others")
    func putAfterPost() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, id: "posted")
            let same: [String: SDLJSON] = ["appName": "App posted", "appID": "posted-app"]
            let found = try await Self.put(client, "posted", same)
            #expect(found.status == .ok)
            #expect(found.json?["id"] == "posted")
            #expect(Self.registrations(simulator) == 1)
            let other: [String: SDLJSON] = ["appName": "App posted", "appID": "another-app"]
            let conflict = try await Self.put(client, "posted", other)
            #expect(conflict.status == .conflict)
            #expect(conflict.json?["issues"] == ["appID differs from the existing app's"])
            // And POST of an id PUT created is the usual 409.
            #expect(try await Self.put(client, "put", Self.body).status == .created)
            let body: SDLJSON = ["id": "put", "appName": "Put Demo", "appID": "put-app"]
            try await client.execute(uri: "/v1/apps", method: .post, headers: H.jsonHeaders, body: H.json(body)) { response in
                #expect(response.status == .conflict)
                #expect(response.problemType == "app-exists")
            }
        }
    }

    @Test("A body id other than the path's is 422 id-mismatch; a path id that is no valid app id is 400; bad bodies as for POST")
    func refusals() async throws {
        try await H.withGateway { client, simulator, apps in
            var mismatched = Self.body
            mismatched["id"] = "other"
            let mismatch = try await Self.put(client, "demo", mismatched)
            #expect(mismatch.status == .unprocessableContent)
            #expect(mismatch.problemType == "id-mismatch")
            let badPath = try await Self.put(client, "has%20space", Self.body)
            #expect(badPath.status == .badRequest)
            #expect(badPath.problemType == "invalid-path")
            #expect(try await Self.put(client, "demo", ["appName": "No id"]).problemType == "invalid-body")
            #expect(
                try await Self.put(client, "demo", ["appName": "X", "appID": "x", "languageDesired": "KLINGON"]).problemType
                    == "invalid-parameters")
            #expect(
                try await Self.put(client, "demo", ["appName": "X", "appID": "x", "core": "tcp://10.1.2.3:12345"]).problemType
                    == "core-not-allowed")
            #expect(apps.ids.isEmpty)
            #expect(Self.registrations(simulator) == 0)
        }
    }

    @Test("Concurrent PUTs of one id: exactly one 201, the others 200 with the same registered app")
    func concurrentPuts() async throws {
        try await H.withGateway { client, simulator, apps in
            let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await Self.put(client, "demo", Self.body) }
                }
                return try await group.reduce(into: [Answer]()) { $0.append($1) }
            }
            #expect(answers.count { $0.status == .created } == 1, "\(answers.map(\.status))")
            #expect(answers.count { $0.status == .ok } == 7, "\(answers.map(\.status))")
            // Each waited for the registration like the creating one.
            #expect(answers.allSatisfy { $0.json?["connection"] == "registered" })
            #expect(apps.ids == ["demo"])
            #expect(Self.registrations(simulator) == 1)
            #expect(apps.putSerializer.activeKeys == 0)
        }
    }

    @Test("The comparison covers every registration member of the create body, each on its own")
    func comparisonCoversEveryMember() throws {
        // A value other than the default (or than `base`) for every member but id and wait.
        let alternatives: [String: SDLJSON] = [
            "core": "tcp://127.0.0.1:1", "appName": "Other", "appID": "other", "fullAppID": "other-full", "isMediaApplication": true,
            "appHMIType": ["NAVIGATION"], "languageDesired": "DE-DE", "hmiDisplayLanguageDesired": "DE-DE", "ttsName": [["text": "Other"]],
            "vrSynonyms": ["Other"], "ngnMediaScreenAppName": "Oth", "dayColorScheme": ["primaryColor": ["red": 1, "green": 2, "blue": 3]],
            "nightColorScheme": ["primaryColor": ["red": 1, "green": 2, "blue": 3]], "deviceInfo": ["hardware": "other"],
            "syncMsgVersion": ["majorVersion": 5, "minorVersion": 0], "appIcon": ["name": "other.png", "data": "AAEC"],
        ]
        #expect(Set(alternatives.keys) == AppCreateBody.members.subtracting(["id", "wait"]))
        let base: [String: SDLJSON] = ["appName": "Base", "appID": "base"]
        let defaultCore = SDLTransportAddress.tcp(host: "127.0.0.1", port: 12345)
        let existing = try AppCreateBody(base)
        for (member, value) in alternatives.sorted(by: { $0.key < $1.key }) {
            var changed = base
            changed[member] = value
            let requested = try AppCreateBody(changed)
            let differences = AppRegistrationComparison.differences(
                existing: existing.app, existingCore: existing.core ?? defaultCore, requested: requested.app,
                requestedCore: requested.core ?? defaultCore
            )
            #expect(differences == [member])
        }
        let unchanged = try AppCreateBody(base.merging(["wait": false, "id": "x", "languageDesired": "EN-US"]) { $1 })
        #expect(
            AppRegistrationComparison.differences(
                existing: existing.app, existingCore: defaultCore, requested: unchanged.app, requestedCore: defaultCore
            ).isEmpty
        )
    }
}
