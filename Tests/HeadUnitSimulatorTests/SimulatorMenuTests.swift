import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

@Suite("Simulator: menus")
struct SimulatorMenuTests {
    @Test("AddCommand: stored with OnHashChange; a second AddCommand with the same cmdID is INVALID_ID (Core 8.2)")
    func addCommand() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let first = harness.call(
            "AddCommand", ["cmdID": 1, "menuParams": ["menuName": "Play"], "vrCommands": ["Play"]], session: session, on: connection)
        #expect(first?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.commands[1]?["menuParams"]?["menuName"] == "Play")
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == 1)
        let reply1 = harness.call("AddCommand", ["cmdID": 1, "menuParams": ["menuName": "Pause"]], session: session, on: connection)
        let again = try #require(reply1)
        #expect(again.resultCode == "INVALID_ID")
        #expect(again.success == false)
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == 1)
        let reply2 = harness.call("AddCommand", ["cmdID": 2], session: session, on: connection)
        #expect(reply2?.resultCode == "INVALID_DATA")
        let reply3 = harness.call("AddCommand", ["cmdID": 3, "vrCommands": ["play"]], session: session, on: connection)
        #expect(reply3?.resultCode == "DUPLICATE_NAME")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test(
        "The response to AddCommand, CreateInteractionChoiceSet, SetGlobalProperties and SubscribeVehicleData comes before its OnHashChange, as Core sends them",
        arguments: [
            ("AddCommand", ["cmdID": 5, "menuParams": ["menuName": "Play"]] as SDLJSON),
            ("CreateInteractionChoiceSet", ["interactionChoiceSetID": 9, "choiceSet": [["choiceID": 1, "menuName": "One"]]] as SDLJSON),
            ("SetGlobalProperties", ["menuTitle": "Radio"] as SDLJSON),
            ("SubscribeVehicleData", ["speed": true] as SDLJSON),
        ] as [(String, SDLJSON)])
    func hashChangeAfterResponse(function: String, parameters: SDLJSON) throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let correlationID = harness.request(function, parameters, session: session, on: connection)
        var order: [String] = []
        for case .rpc(let header, let rpc) in harness.received[connection] ?? [] where header.sessionID == session {
            if rpc.rpcType == .response, rpc.correlationID == correlationID { order.append("response") }
            if rpc.rpcType == .notification, harness.catalog.functionName(forID: rpc.functionID) == "OnHashChange" {
                order.append("OnHashChange")
            }
        }
        #expect(harness.response(correlationID, on: connection)?.resultCode == "SUCCESS")
        #expect(order == ["response", "OnHashChange"])
    }

    @Test("AddCommand: an unknown parentID is INVALID_ID; a menuName twice in the same submenu is DUPLICATE_NAME, in another one fine")
    func addCommandParents() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply4 = harness.call(
            "AddCommand", ["cmdID": 1, "menuParams": ["menuName": "A", "parentID": 7]], session: session, on: connection)
        #expect(reply4?.resultCode == "INVALID_ID")
        let reply5 = harness.call("AddSubMenu", ["menuID": 7, "menuName": "Seven"], session: session, on: connection)
        #expect(reply5?.resultCode == "SUCCESS")
        let reply6 = harness.call("AddSubMenu", ["menuID": 8, "menuName": "Eight"], session: session, on: connection)
        #expect(reply6?.resultCode == "SUCCESS")
        let reply7 = harness.call(
            "AddCommand", ["cmdID": 1, "menuParams": ["menuName": "A", "parentID": 7]], session: session, on: connection)
        #expect(reply7?.resultCode == "SUCCESS")
        let reply8 = harness.call(
            "AddCommand", ["cmdID": 2, "menuParams": ["menuName": "A", "parentID": 7]], session: session, on: connection)
        #expect(reply8?.resultCode == "DUPLICATE_NAME")
        let reply9 = harness.call(
            "AddCommand", ["cmdID": 3, "menuParams": ["menuName": "A", "parentID": 8]], session: session, on: connection)
        #expect(reply9?.resultCode == "SUCCESS")
        let reply10 = harness.call("AddCommand", ["cmdID": 4, "menuParams": ["menuName": "A"]], session: session, on: connection)
        #expect(reply10?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.commands.keys.sorted() == [1, 3, 4])
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("DeleteCommand: an unknown cmdID is INVALID_ID; a known one is removed with OnHashChange")
    func deleteCommand() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply11 = harness.call("DeleteCommand", ["cmdID": 5], session: session, on: connection)
        #expect(reply11?.resultCode == "INVALID_ID")
        _ = harness.call("AddCommand", ["cmdID": 5, "menuParams": ["menuName": "Five"]], session: session, on: connection)
        let hashes = harness.notifications("OnHashChange", session: session, on: connection).count
        let reply12 = harness.call("DeleteCommand", ["cmdID": 5], session: session, on: connection)
        #expect(reply12?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.commands.isEmpty)
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == hashes + 1)
        let reply13 = harness.call("DeleteCommand", ["cmdID": 5], session: session, on: connection)
        #expect(reply13?.resultCode == "INVALID_ID")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("AddSubMenu: a used menuID is INVALID_ID, a used name DUPLICATE_NAME; DeleteSubMenu removes its commands and nested submenus")
    func subMenus() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply14 = harness.call("AddSubMenu", ["menuID": 10, "menuName": "Music"], session: session, on: connection)
        #expect(reply14?.resultCode == "SUCCESS")
        let reply15 = harness.call("AddSubMenu", ["menuID": 10, "menuName": "Other"], session: session, on: connection)
        #expect(reply15?.resultCode == "INVALID_ID")
        let reply16 = harness.call("AddSubMenu", ["menuID": 11, "menuName": "Music"], session: session, on: connection)
        #expect(reply16?.resultCode == "DUPLICATE_NAME")
        let reply17 = harness.call("AddSubMenu", ["menuID": 12, "menuName": "Inner", "parentID": 99], session: session, on: connection)
        #expect(reply17?.resultCode == "INVALID_ID")
        let reply18 = harness.call("AddSubMenu", ["menuID": 12, "menuName": "Inner", "parentID": 10], session: session, on: connection)
        #expect(reply18?.resultCode == "SUCCESS")
        _ = harness.call(
            "AddCommand", ["cmdID": 1, "menuParams": ["menuName": "In music", "parentID": 10]], session: session, on: connection)
        _ = harness.call(
            "AddCommand", ["cmdID": 2, "menuParams": ["menuName": "In inner", "parentID": 12]], session: session, on: connection)
        _ = harness.call("AddCommand", ["cmdID": 3, "menuParams": ["menuName": "Top"]], session: session, on: connection)
        let reply19 = harness.call("DeleteSubMenu", ["menuID": 99], session: session, on: connection)
        #expect(reply19?.resultCode == "INVALID_ID")
        let hashes = harness.notifications("OnHashChange", session: session, on: connection).count
        let reply20 = harness.call("DeleteSubMenu", ["menuID": 10], session: session, on: connection)
        #expect(reply20?.resultCode == "SUCCESS")
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == hashes + 1)
        #expect(harness.unit.apps[session]!.subMenus.isEmpty)
        #expect(harness.unit.apps[session]!.commands.keys.sorted() == [3])
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test(
        "CreateInteractionChoiceSet: a used set id or a choiceID used by another set is INVALID_ID; DeleteInteractionChoiceSet unknown is INVALID_ID"
    )
    func choiceSets() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let set1: SDLJSON = [
            "interactionChoiceSetID": 1, "choiceSet": [["choiceID": 1, "menuName": "One"], ["choiceID": 2, "menuName": "Two"]],
        ]
        let reply21 = harness.call("CreateInteractionChoiceSet", set1, session: session, on: connection)
        #expect(reply21?.resultCode == "SUCCESS")
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == 1)
        let reply22 = harness.call(
            "CreateInteractionChoiceSet", ["interactionChoiceSetID": 1, "choiceSet": [["choiceID": 9, "menuName": "Nine"]]],
            session: session, on: connection)
        #expect(reply22?.resultCode == "INVALID_ID")
        let reply23 = harness.call(
            "CreateInteractionChoiceSet", ["interactionChoiceSetID": 2, "choiceSet": [["choiceID": 2, "menuName": "Deux"]]],
            session: session, on: connection)
        #expect(reply23?.resultCode == "INVALID_ID")
        let reply24 = harness.call(
            "CreateInteractionChoiceSet",
            ["interactionChoiceSetID": 3, "choiceSet": [["choiceID": 5, "menuName": "A"], ["choiceID": 5, "menuName": "B"]]],
            session: session, on: connection)
        #expect(
            reply24?
                .resultCode == "INVALID_ID")
        let reply25 = harness.call(
            "CreateInteractionChoiceSet",
            ["interactionChoiceSetID": 4, "choiceSet": [["choiceID": 6, "menuName": "A"], ["choiceID": 7, "menuName": "A"]]],
            session: session, on: connection)
        #expect(
            reply25?
                .resultCode == "DUPLICATE_NAME")
        #expect(harness.unit.apps[session]!.choiceSets.keys.sorted() == [1])
        let reply26 = harness.call("DeleteInteractionChoiceSet", ["interactionChoiceSetID": 42], session: session, on: connection)
        #expect(reply26?.resultCode == "INVALID_ID")
        let reply27 = harness.call("DeleteInteractionChoiceSet", ["interactionChoiceSetID": 1], session: session, on: connection)
        #expect(reply27?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.choiceSets.isEmpty)
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == 2)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("DeleteInteractionChoiceSet is IN_USE while a PerformInteraction shows the set, and works after it ends")
    func choiceSetInUse() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        _ = harness.call(
            "CreateInteractionChoiceSet", ["interactionChoiceSetID": 1, "choiceSet": [["choiceID": 1, "menuName": "One"]]],
            session: session, on: connection)
        let perform = harness.request(
            "PerformInteraction", ["initialText": "Pick", "interactionMode": "MANUAL_ONLY", "interactionChoiceSetIDList": [1]],
            session: session, on: connection)
        #expect(harness.response(perform, on: connection) == nil)
        let reply28 = harness.call("DeleteInteractionChoiceSet", ["interactionChoiceSetID": 1], session: session, on: connection)
        #expect(reply28?.resultCode == "IN_USE")
        harness.advance(by: .seconds(10))
        #expect(harness.response(perform, on: connection)?.resultCode == "TIMED_OUT")
        let reply29 = harness.call("DeleteInteractionChoiceSet", ["interactionChoiceSetID": 1], session: session, on: connection)
        #expect(reply29?.resultCode == "SUCCESS")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("ShowAppMenu: an unknown menuID is INVALID_ID; no menuID or a known one SUCCESS")
    func showAppMenu() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply30 = harness.call("ShowAppMenu", ["menuID": 3], session: session, on: connection)
        #expect(reply30?.resultCode == "INVALID_ID")
        let reply31 = harness.call("ShowAppMenu", [:], session: session, on: connection)
        #expect(reply31?.resultCode == "SUCCESS")
        _ = harness.call("AddSubMenu", ["menuID": 3, "menuName": "Three"], session: session, on: connection)
        let reply32 = harness.call("ShowAppMenu", ["menuID": 3], session: session, on: connection)
        #expect(reply32?.resultCode == "SUCCESS")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("Menus and choice sets come back after a resumption with the latest hashID")
    func resumption() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        _ = harness.call("AddSubMenu", ["menuID": 3, "menuName": "Three"], session: session, on: connection)
        _ = harness.call("AddCommand", ["cmdID": 1, "menuParams": ["menuName": "One", "parentID": 3]], session: session, on: connection)
        let hash = try #require(harness.notifications("OnHashChange", session: session, on: connection).last?.parameters["hashID"])
        harness.closeConnection(connection)
        let again = harness.open()
        let (resumed, response) = harness.register(on: again, extra: ["hashID": hash])
        #expect(response.resultCode == "SUCCESS")
        #expect(harness.unit.apps[resumed]!.commands.keys.sorted() == [1])
        harness.advance(by: .seconds(1))
        let reply33 = harness.call("AddCommand", ["cmdID": 1, "menuParams": ["menuName": "Again"]], session: resumed, on: again)
        #expect(reply33?.resultCode == "INVALID_ID")
        #expect(harness.invalidMessages(on: again).isEmpty)
    }
}
