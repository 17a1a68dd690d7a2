import HeadUnitSimulator
import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@Suite("Simulator policy")
struct PolicyTests {
    let catalog = SDLCatalog.builtIn
    let levels = ["NONE", "BACKGROUND", "LIMITED", "FULL"]

    func allowed(_ policy: SimulatorPolicy, _ function: String, _ type: SDLMessageType = .request) -> [String] {
        levels.filter { policy.isAllowed(function, messageType: type, hmiLevel: $0) }
    }

    @Test(
        "Default (Base-4): levels per function",
        arguments: [
            ("RegisterAppInterface", SDLMessageType.request, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("PutFile", .request, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("ListFiles", .request, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("GetSystemCapability", .request, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("SetGlobalProperties", .request, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("OnHMIStatus", .notification, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("OnPermissionsChange", .notification, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("OnDriverDistraction", .notification, ["NONE", "BACKGROUND", "LIMITED", "FULL"]),
            ("Show", .request, ["BACKGROUND", "LIMITED", "FULL"]),
            ("AddCommand", .request, ["BACKGROUND", "LIMITED", "FULL"]),
            ("SubscribeButton", .request, ["BACKGROUND", "LIMITED", "FULL"]),
            ("SubtleAlert", .request, ["BACKGROUND", "LIMITED", "FULL"]),
            ("OnButtonPress", .notification, ["BACKGROUND", "LIMITED", "FULL"]),
            ("OnCommand", .notification, ["BACKGROUND", "LIMITED", "FULL"]),
            ("Alert", .request, ["LIMITED", "FULL"]),
            ("Speak", .request, ["LIMITED", "FULL"]),
            ("PerformInteraction", .request, ["LIMITED", "FULL"]),
            ("PerformAudioPassThru", .request, ["LIMITED", "FULL"]),
            ("Slider", .request, ["FULL"]),
            ("ScrollableMessage", .request, ["FULL"]),
            ("ShowAppMenu", .request, ["FULL"]),
            ("GetVehicleData", .request, []),
            ("SubscribeVehicleData", .request, []),
            ("UnsubscribeVehicleData", .request, []),
            ("OnVehicleData", .notification, []),
            ("SendLocation", .request, []),
            ("DialNumber", .request, []),
            ("ButtonPress", .request, []),
            ("GetInteriorVehicleData", .request, []),
            ("PublishAppService", .request, []),
            ("ReadDID", .request, []),
            ("DiagnosticMessage", .request, []),
            ("NoSuchFunction", .request, []),
        ] as [(String, SDLMessageType, [String])])
    func defaultPolicy(function: String, type: SDLMessageType, expected: [String]) {
        let policy = SimulatorPolicy.sdlDefault
        #expect(allowed(policy, function, type) == expected)
        #expect(Set(policy.allowedLevels(function)) == Set(expected))
    }

    @Test("Responses always pass")
    func responses() {
        #expect(SimulatorPolicy.sdlDefault.isAllowed("GetVehicleData", messageType: .response, hmiLevel: "NONE"))
        #expect(SimulatorPolicy.sdlDefault.isAllowed("Slider", messageType: .response, hmiLevel: "BACKGROUND"))
    }

    @Test("Open: every function of the catalog in every level")
    func openPolicy() {
        let policy = SimulatorPolicy.open
        for function in catalog.functions {
            #expect(allowed(policy, function.name, function.messageType) == levels, "\(function.name)")
            #expect(policy.allowedLevels(function.name) == SimulatorPolicy.allHMILevels)
        }
        #expect(SimulatorPolicy(.open) == .open)
        #expect(SimulatorPolicy.Mode(rawValue: "default") == .sdlDefault)
        #expect(SimulatorPolicy.Mode(rawValue: "open") == .open)
    }

    @Test("Base-4 names only functions of the catalog")
    func base4Names() {
        for name in SimulatorPolicy.base4.keys {
            let known = SDLMessageType.allCases.contains { catalog.function(named: name, messageType: $0) != nil }
            #expect(known, "\(name)")
        }
        #expect(SimulatorPolicy.base4.count == 13 + 9 + 23 + 4 + 3)
    }

    @Test("permissionItem validates as OnPermissionsChange", arguments: SimulatorPolicy.Mode.allCases)
    func permissionItemsValidate(mode: SimulatorPolicy.Mode) throws {
        let policy = SimulatorPolicy(mode)
        let notification = policy.onPermissionsChange(catalog: catalog)
        let issues = try catalog.validate(notification, function: "OnPermissionsChange", messageType: .notification)
        #expect(issues.isEmpty, "\(issues.prefix(5))")
        let items = try #require(notification["permissionItem"]?.arrayValue)
        let names = items.compactMap { $0["rpcName"]?.stringValue }
        #expect(names == names.sorted())
        #expect(Set(names).count == names.count)
        for item in items {
            let name = try #require(item["rpcName"]?.stringValue)
            let levels = item["hmiPermissions"]?["allowed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(levels == policy.allowedLevels(name))
            #expect(item["hmiPermissions"]?["userDisallowed"] == [])
            #expect(item["parameterPermissions"]?["userDisallowed"] == [])
        }
    }

    @Test("Open permissions list every request and notification, vehicle data with its names")
    func openPermissionItems() throws {
        let items = try #require(SimulatorPolicy.open.permissionItems(catalog: catalog).arrayValue)
        let names = Set(items.compactMap { $0["rpcName"]?.stringValue })
        let expected = Set(catalog.functions.filter { $0.messageType != .response }.map(\.name))
        #expect(names == expected)
        #expect(names.contains("GetVehicleData"))
        #expect(names.contains("OnVehicleData"))
        let vehicleNames = SimulatorPolicy.vehicleDataNames(catalog: catalog)
        #expect(vehicleNames.contains("speed"))
        #expect(vehicleNames.contains("rpm"))
        #expect(vehicleNames.contains("gps"))
        for item in items {
            let name = item["rpcName"]?.stringValue ?? ""
            let parameters = item["parameterPermissions"]?["allowed"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if SimulatorPolicy.vehicleDataFunctions.contains(name) {
                #expect(parameters == vehicleNames, "\(name)")
            } else {
                #expect(parameters.isEmpty, "\(name)")
            }
        }
    }

    @Test("Default permissions list Base-4 only")
    func defaultPermissionItems() throws {
        let items = try #require(SimulatorPolicy.sdlDefault.permissionItems(catalog: catalog).arrayValue)
        let byName = Dictionary(uniqueKeysWithValues: items.map { ($0["rpcName"]?.stringValue ?? "", $0) })
        #expect(Set(byName.keys) == Set(SimulatorPolicy.base4.keys))
        #expect(byName["GetVehicleData"] == nil)
        #expect(byName["OnVehicleData"] == nil)
        #expect(byName["Slider"]?["hmiPermissions"]?["allowed"] == ["FULL"])
        #expect(byName["Alert"]?["hmiPermissions"]?["allowed"] == ["FULL", "LIMITED"])
        #expect(byName["Show"]?["hmiPermissions"]?["allowed"] == ["BACKGROUND", "FULL", "LIMITED"])
        #expect(byName["OnHMIStatus"]?["hmiPermissions"]?["allowed"] == ["BACKGROUND", "FULL", "LIMITED", "NONE"])
    }
}

@Suite("Request rate limiter")
struct PolicyRateLimiterTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)

    func at(_ milliseconds: Int64) -> NIODeadline {
        start + .milliseconds(milliseconds)
    }

    @Test("The 101st request in NONE within 10 s unregisters with REQUEST_WHILE_IN_NONE_HMI_LEVEL")
    func noneLimit() {
        var limiter = RequestRateLimiter()
        for index in 0..<100 {
            #expect(limiter.check("ListFiles", hmiLevel: "NONE", now: at(Int64(index) * 99)) == .allow)
        }
        #expect(limiter.check("ListFiles", hmiLevel: "NONE", now: at(9_999)) == .unregister(reason: "REQUEST_WHILE_IN_NONE_HMI_LEVEL"))
        // The window slides: 10 s after the first request, the first no longer counts.
        #expect(limiter.check("ListFiles", hmiLevel: "NONE", now: at(10_000)) == .allow)
        #expect(limiter.check("ListFiles", hmiLevel: "NONE", now: at(10_001)) == .unregister(reason: "REQUEST_WHILE_IN_NONE_HMI_LEVEL"))
        // After a whole quiet window, everything is allowed again.
        for index in 0..<100 {
            #expect(limiter.check("ListFiles", hmiLevel: "NONE", now: at(30_000 + Int64(index))) == .allow)
        }
    }

    @Test("The NONE limit counts only requests made in NONE")
    func noneCountsOnlyNone() {
        var limiter = RequestRateLimiter()
        for index in 0..<500 {
            #expect(limiter.check("Show", hmiLevel: "FULL", now: at(Int64(index))) == .allow)
        }
        for index in 0..<100 {
            #expect(limiter.check("PutFile", hmiLevel: "NONE", now: at(500 + Int64(index))) == .allow)
        }
        #expect(limiter.check("PutFile", hmiLevel: "NONE", now: at(700)) == .unregister(reason: "REQUEST_WHILE_IN_NONE_HMI_LEVEL"))
        #expect(limiter.check("Show", hmiLevel: "FULL", now: at(700)) == .allow)
    }

    @Test("The 1001st request within 10 s unregisters with TOO_MANY_REQUESTS")
    func anyLevelLimit() {
        var limiter = RequestRateLimiter()
        for index in 0..<1000 {
            #expect(limiter.check("Show", hmiLevel: "FULL", now: at(Int64(index) * 9)) == .allow)
        }
        #expect(limiter.check("Show", hmiLevel: "FULL", now: at(9_000)) == .unregister(reason: "TOO_MANY_REQUESTS"))
        #expect(limiter.check("Show", hmiLevel: "LIMITED", now: at(9_999)) == .unregister(reason: "TOO_MANY_REQUESTS"))
        #expect(limiter.check("Show", hmiLevel: "FULL", now: at(10_000)) == .allow)
        limiter.reset()
        #expect(limiter.check("Show", hmiLevel: "FULL", now: at(10_001)) == .allow)
    }

    @Test("The head unit's request limit is configurable (simulate --request-limit): 3 allows 3, 0 none")
    func configuredRequestLimit() {
        var limited = HeadUnitConfiguration()
        limited.requestLimits.anyLevel = RequestRateLimiter.Limit(maximumRequests: 3, window: .seconds(10))
        var harness = HeadUnitHarness(limited)
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        for _ in 0..<3 { _ = harness.call("ListFiles", session: session, on: connection) }
        #expect(harness.notifications("OnAppInterfaceUnregistered", session: session, on: connection).isEmpty)
        _ = harness.call("ListFiles", session: session, on: connection)
        let unregistered = harness.notifications("OnAppInterfaceUnregistered", session: session, on: connection)
        #expect(unregistered.first?.parameters["reason"]?.stringValue == "TOO_MANY_REQUESTS")

        var lifted = HeadUnitConfiguration()
        lifted.requestLimits.anyLevel = RequestRateLimiter.Limit(maximumRequests: 0, window: .seconds(10))
        lifted.requestLimits.hmiLevelNone = RequestRateLimiter.Limit(maximumRequests: 0, window: .seconds(10))
        var open = HeadUnitHarness(lifted)
        let other = open.open()
        let (app, _) = open.register(on: other)
        for _ in 0..<1_200 { _ = open.call("GetSystemCapability", ["systemCapabilityType": "DISPLAYS"], session: app, on: other) }
        #expect(open.notifications("OnAppInterfaceUnregistered", session: app, on: other).isEmpty)
    }

    @Test("The 6th GetVehicleData within 1 s is rejected, and allowed again after the window")
    func getVehicleDataLimit() {
        var limiter = RequestRateLimiter()
        for index in 0..<5 {
            #expect(limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(Int64(index) * 10)) == .allow)
        }
        #expect(limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(50)) == .reject)
        #expect(limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(999)) == .reject)
        // Other requests are not affected.
        #expect(limiter.check("Show", hmiLevel: "FULL", now: at(999)) == .allow)
        #expect(limiter.check("ReadDID", hmiLevel: "FULL", now: at(999)) == .allow)
        // 1 s after the first call it no longer counts; rejected calls never counted.
        #expect(limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(1_000)) == .allow)
        #expect(limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(1_001)) == .reject)
        #expect(limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(1_010)) == .allow)
        #expect(limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(3_000)) == .allow)
    }

    @Test("Seven GetVehicleData in a row: five allowed, then rejected (as Core 8.2 was seen doing)")
    func sevenInARow() {
        var limiter = RequestRateLimiter()
        let outcomes = (0..<7).map { limiter.check("GetVehicleData", hmiLevel: "FULL", now: at(Int64($0))) }
        #expect(outcomes == [.allow, .allow, .allow, .allow, .allow, .reject, .reject])
    }

    @Test("A limit of 0 is off; custom limits apply")
    func customConfiguration() {
        var limiter = RequestRateLimiter(
            configuration: .init(
                hmiLevelNone: .init(maximumRequests: 0, window: .seconds(10)),
                anyLevel: .init(maximumRequests: 3, window: .seconds(2)),
                perFunction: [:]
            ))
        #expect(limiter.check("GetVehicleData", hmiLevel: "NONE", now: at(0)) == .allow)
        #expect(limiter.check("GetVehicleData", hmiLevel: "NONE", now: at(1)) == .allow)
        #expect(limiter.check("GetVehicleData", hmiLevel: "NONE", now: at(2)) == .allow)
        #expect(limiter.check("Show", hmiLevel: "NONE", now: at(3)) == .unregister(reason: "TOO_MANY_REQUESTS"))
        #expect(limiter.check("Show", hmiLevel: "NONE", now: at(2_000)) == .allow)
        #expect(RequestRateLimiter.Configuration.sdlCore.hmiLevelNone == .init(maximumRequests: 100, window: .seconds(10)))
        #expect(RequestRateLimiter.Configuration.sdlCore.anyLevel == .init(maximumRequests: 1000, window: .seconds(10)))
        #expect(RequestRateLimiter.Configuration.sdlCore.perFunction["GetVehicleData"] == .init(maximumRequests: 5, window: .seconds(1)))
    }

    @Test("Memory stays bounded under a long flood")
    func longFlood() {
        var limiter = RequestRateLimiter()
        var unregistered = 0
        for index in 0..<20_000 {
            if case .unregister = limiter.check("Show", hmiLevel: "FULL", now: at(Int64(index))) { unregistered += 1 }
        }
        // 1000 allowed in each 10 s window: 2 windows of 20 s.
        #expect(unregistered == 20_000 - 2_000)
    }
}
