@testable import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// `/v1/apps/{id}/menu` and `/voice-commands` against the simulator: only the changed cells are
/// sent (read from the simulator's traffic log), and a selection comes back by the user's ids.
@Suite("Declared menu and voice commands", .timeLimit(.minutes(1)))
struct MenuRoutesTests {
    typealias H = GatewayHarness

    static func menu(_ secondChild: String) -> SDLJSON {
        [
            "menu": [
                ["id": "a", "title": "A"],
                ["id": "b", "title": "B", "children": [["id": "b1", "title": "B1"], ["id": "b2", "title": .string(secondChild)]]],
                ["id": "c", "title": "C", "voiceCommands": ["see"]],
            ]
        ]
    }

    static func put(_ client: any TestClientProtocol, _ path: String, _ body: SDLJSON) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: "/v1/apps/demo/\(path)", method: .put, headers: H.jsonHeaders, body: H.json(body)) {
            ($0.status, $0.json)
        }
    }

    /// The requests the simulator received since `sequence`, by function name.
    static func requests(_ simulator: SimulatedHeadUnit, after sequence: Int) -> [String] {
        simulator.snapshot.log.entries.filter { $0.sequence > sequence && $0.direction == .fromApp && $0.rpcType == .request }.map(
            \.function)
    }

    @Test("Changing one menu cell sends exactly one DeleteCommand and one AddCommand; the same menu again sends nothing")
    func oneCellChanged() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, appID: "demo-app")
            let (status, first) = try await Self.put(client, "menu", Self.menu("B2"))
            #expect(status == .ok, "\(String(describing: first))")
            #expect(
                first?["sent"]?.arrayValue?.map { $0["function"] } == [
                    "AddCommand", "AddSubMenu", "AddCommand", "AddCommand", "AddCommand",
                ])
            let mark = simulator.snapshot.log.entries.last?.sequence ?? 0
            let (_, changed) = try await Self.put(client, "menu", Self.menu("B2 changed"))
            #expect(Self.requests(simulator, after: mark) == ["DeleteCommand", "AddCommand"])
            #expect(changed?["sent"]?.arrayValue?.last?["parameters"]?["menuParams"]?["menuName"] == "B2 changed")
            let again = simulator.snapshot.log.entries.last?.sequence ?? 0
            let (_, same) = try await Self.put(client, "menu", Self.menu("B2 changed"))
            #expect(same?["sent"] == [])
            #expect(Self.requests(simulator, after: again).isEmpty)
            try await client.execute(uri: "/v1/apps/demo/menu", method: .get) { response in
                #expect(response.json?["menu"]?.arrayValue?.count == 3)
            }
        }
    }

    @Test("A menu cell chosen on the head unit is a menuSelection event with the user's id and path")
    func selection() async throws {
        try await H.withGateway { client, _, apps in
            try await H.createApp(client, appID: "demo-app")
            let (_, body) = try await Self.put(client, "menu", Self.menu("B2"))
            let cmdID = try #require(
                body?["sent"]?.arrayValue?.first { $0["parameters"]?["menuParams"]?["menuName"] == "B2" }?["parameters"]?["cmdID"]?.intValue
            )
            let subscription = try apps.hub.subscribe(app: "demo", filter: EventFilter(types: ["menuSelection"]))
            defer { subscription.cancel() }
            try await client.execute(
                uri: "/v1/simulator/apps/demo/commands/\(cmdID)", method: .post, headers: H.jsonHeaders,
                body: H.json(["triggerSource": "VR"])
            ) { response in
                #expect(response.status == .ok)
            }
            let event = await subscription.queue.next()
            #expect(event?.data == ["id": "b2", "path": ["b", "b2"], "trigger": "VR"])
        }
    }

    @Test("Voice commands: added once, a changed phrase list is one delete and one add; mistakes are 422 with the path")
    func voiceCommands() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, appID: "demo-app")
            let (status, _) = try await Self.put(
                client, "voice-commands", [["id": "home", "voiceCommands": ["go home"]], ["id": "work", "voiceCommands": ["go to work"]]])
            #expect(status == .ok)
            let mark = simulator.snapshot.log.entries.last?.sequence ?? 0
            _ = try await Self.put(
                client, "voice-commands",
                [["id": "home", "voiceCommands": ["go home"]], ["id": "work", "voiceCommands": ["drive to work"]]])
            #expect(Self.requests(simulator, after: mark) == ["DeleteCommand", "AddCommand"])
            let (duplicate, body) = try await Self.put(
                client, "voice-commands", [["id": "x", "voiceCommands": ["same"]], ["id": "y", "voiceCommands": ["same"]]])
            #expect(duplicate == .unprocessableContent)
            #expect(body?["detail"]?.stringValue?.contains("$[1]") == true, "\(String(describing: body))")
            let (unknown, _) = try await Self.put(client, "menu", ["menu": [["id": "a", "title": "A", "colour": "red"]]])
            #expect(unknown == .unprocessableContent)
            let (nullMenu, _) = try await Self.put(client, "menu", ["menu": .null])
            #expect(nullMenu == .unprocessableContent)
            let (notArray, _) = try await Self.put(client, "voice-commands", ["id": "x"])
            #expect(notArray == .badRequest)
        }
    }

    @Test("A menu update the head unit refuses part-way: what it did stays accepted, and the next PUT completes it without INVALID_ID")
    func refusedPartWay() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client, appID: "demo-app")
            _ = try await Self.put(client, "menu", Self.menu("B2"))
            try await client.execute(
                uri: "/v1/simulator/faults", method: .post, headers: H.jsonHeaders,
                body: H.json(["function": "AddCommand", "resultCode": "REJECTED"])
            ) {
                #expect($0.status == .created)
            }
            let smaller: SDLJSON = ["menu": [["id": "a", "title": "A"], ["id": "d", "title": "D"]]]
            let (refused, _) = try await Self.put(client, "menu", smaller)
            #expect(refused == .conflict)  // REJECTED; B and C were deleted before the AddCommand of D
            try await client.execute(uri: "/v1/simulator/faults", method: .delete) { #expect($0.status == .noContent) }
            let mark = simulator.snapshot.log.entries.last?.sequence ?? 0
            let (status, body) = try await Self.put(client, "menu", smaller)
            #expect(status == .ok, "\(String(describing: body))")
            #expect(Self.requests(simulator, after: mark) == ["AddCommand"])
            let titles = simulator.snapshot.app(withID: "demo-app").map { Array($0.commands.values) + Array($0.subMenus.values) }?
                .compactMap { $0["menuParams"]?["menuName"]?.stringValue ?? $0["menuName"]?.stringValue }.sorted()
            #expect(titles == ["A", "D"])
        }
    }
}
