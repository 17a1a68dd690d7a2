import NIOCore
import SDLProtocol
import Testing

@testable import SDLClient

@Suite("AppState permissions and preflight")
struct AppStatePermissionTests {
    typealias F = AppStateFixture

    /// Part of Core's Base-4 group (docs/protocol.md §e) plus a user-disallowed vehicle data item.
    static let base4: SDLJSON = [
        "permissionItem": [
            [
                "rpcName": "PutFile", "hmiPermissions": ["allowed": ["BACKGROUND", "FULL", "LIMITED", "NONE"], "userDisallowed": []],
                "parameterPermissions": ["allowed": [], "userDisallowed": []],
            ],
            [
                "rpcName": "Show", "hmiPermissions": ["allowed": ["BACKGROUND", "FULL", "LIMITED"], "userDisallowed": []],
                "parameterPermissions": ["allowed": [], "userDisallowed": []],
            ],
            [
                "rpcName": "Alert", "hmiPermissions": ["allowed": ["FULL", "LIMITED"], "userDisallowed": []],
                "parameterPermissions": ["allowed": [], "userDisallowed": []],
            ],
            [
                "rpcName": "Slider", "hmiPermissions": ["allowed": ["FULL"], "userDisallowed": []],
                "parameterPermissions": ["allowed": [], "userDisallowed": []],
            ],
            [
                "rpcName": "GetVehicleData", "hmiPermissions": ["allowed": ["BACKGROUND", "FULL", "LIMITED"], "userDisallowed": ["FULL"]],
                "parameterPermissions": ["allowed": ["speed", "rpm"], "userDisallowed": ["rpm"]],
            ],
        ]
    ]

    static func tracker() -> SDLAppStateTracker {
        var tracker = F.tracker(in: .notRunning)
        _ = tracker.apply(notification: "OnPermissionsChange", parameters: base4, now: F.t0)
        return tracker
    }

    static func refusal(_ body: () throws(SDLClientError) -> Void) -> SDLClientError? {
        do throws(SDLClientError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("Before any OnPermissionsChange every function is allowed at every level")
    func noTable() {
        let tracker = F.tracker(in: .notRunning)
        #expect(tracker.permissions == nil)
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "Slider", hmiLevel: "NONE") } == nil)
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "GetVehicleData") } == nil)
        #expect(tracker.snapshot["permissions"] == .null)
    }

    @Test("A function allowed at the level passes preflight")
    func allowed() {
        let tracker = Self.tracker()
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "PutFile", hmiLevel: "NONE") } == nil)
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "Show", hmiLevel: "BACKGROUND") } == nil)
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "Alert", hmiLevel: "LIMITED") } == nil)
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "PutFile") } == nil)
    }

    @Test("A function not allowed at the level is refused with notPermitted naming the levels that allow it")
    func refusedWithLevels() {
        let tracker = Self.tracker()
        let show = Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "Show", hmiLevel: "NONE") }
        #expect(show?.code == .notPermitted)
        #expect(show?.detail == "Show is not allowed in HMI level NONE; allowed in FULL, LIMITED, BACKGROUND")
        let alert = Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "Alert", hmiLevel: "BACKGROUND") }
        #expect(alert?.detail == "Alert is not allowed in HMI level BACKGROUND; allowed in FULL, LIMITED")
        let slider = Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "Slider") }
        #expect(slider?.detail == "Slider is not allowed in HMI level NONE; allowed in FULL")
    }

    @Test("A function missing from the table is refused: no level allows it")
    func missing() {
        let tracker = Self.tracker()
        let error = Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "SendLocation", hmiLevel: "FULL") }
        #expect(error?.code == .notPermitted)
        #expect(error?.detail.contains("no HMI level allows it") == true)
    }

    @Test("A level the user disallowed is refused and left out of the levels that allow it")
    func userDisallowed() {
        let tracker = Self.tracker()
        let full = Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "GetVehicleData", hmiLevel: "FULL") }
        #expect(full?.code == .notPermitted)
        #expect(full?.detail == "GetVehicleData is disallowed by the user in HMI level FULL")
        #expect(tracker.permissions?.items["GetVehicleData"]?.permittedLevels == [.limited, .background])
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "GetVehicleData", hmiLevel: "LIMITED") } == nil)
    }

    @Test("Parameter permissions: allowed and not user-disallowed")
    func parameters() {
        let table = Self.tracker().permissions!
        #expect(table.allowsParameter("speed", of: "GetVehicleData"))
        #expect(!table.allowsParameter("rpm", of: "GetVehicleData"))
        #expect(!table.allowsParameter("gps", of: "GetVehicleData"))
        #expect(!table.allowsParameter("speed", of: "SendLocation"))
    }

    @Test("A later OnPermissionsChange updates the items it names and keeps the others, publishing the table")
    func update() {
        var tracker = Self.tracker()
        let change: SDLJSON = ["permissionItem": [["rpcName": "Alert", "hmiPermissions": ["allowed": ["FULL"], "userDisallowed": []]]]]
        let events = tracker.apply(notification: "OnPermissionsChange", parameters: change, now: F.t0)
        #expect(events == [.permissions(tracker.permissions!)])
        #expect(tracker.permissions?.items["Alert"]?.permittedLevels == [.full])
        #expect(tracker.permissions?.items["Show"] != nil)
        #expect(tracker.snapshot["permissions"]?["Alert"]?["allowed"] == ["FULL"])
        #expect(events.first?.type == "permissions")
    }

    @Test("Losing the link forgets the table, so preflight allows again until the next one")
    func forgottenOnLinkDown() {
        var tracker = Self.tracker()
        _ = tracker.linkDown(now: F.t0)
        #expect(tracker.permissions == nil)
        #expect(Self.refusal { () throws(SDLClientError) in try tracker.preflight(function: "Slider", hmiLevel: "NONE") } == nil)
    }

    @Test("Apps given the same first table get equal tables; another first table is not mixed up with it; a merge after it still merges")
    func sharedFirstTable() {
        var first = SDLPermissionTable()
        first.apply(Self.base4)
        var second = SDLPermissionTable()
        second.apply(Self.base4)
        #expect(first == second)
        #expect(second.items.count == 5)
        let other: SDLJSON = ["permissionItem": [["rpcName": "Speak", "hmiPermissions": ["allowed": ["FULL"], "userDisallowed": []]]]]
        var third = SDLPermissionTable()
        third.apply(other)
        #expect(Set(third.items.keys) == ["Speak"])
        var fourth = SDLPermissionTable()
        fourth.apply(Self.base4)
        #expect(fourth == first)
        fourth.apply(other)
        #expect(fourth.items.count == 6)
        #expect(first.items.count == 5)
        var encrypted = SDLPermissionTable()
        encrypted.apply(["requireEncryption": true, "permissionItem": Self.base4["permissionItem"]!])
        #expect(encrypted.requireEncryption == true)
        #expect(encrypted.items == first.items)
    }
}
