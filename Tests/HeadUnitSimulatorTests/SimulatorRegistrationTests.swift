import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

@Suite("Simulator: registration, HMI and policy")
struct SimulatorRegistrationTests {
    @Test("RegisterAppInterface: a valid response with capabilities, then Core's notifications in order")
    func registration() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, response) = harness.register(on: connection)
        #expect(response.resultCode == "SUCCESS")
        #expect(response.success == true)
        #expect(response.functionID == 1)
        #expect(response.parameters["displayCapabilities"] != nil)
        #expect(response.parameters["vehicleType"]?["make"] == "SDL")
        // Core's SupportedDiagModes (smartDeviceLink.ini: 0x01, 0x02, 0x03, 0x05, 0x06, 0x07, 0x09, 0x0A, 0x18, 0x19, 0x22, 0x3E).
        #expect(response.parameters["supportedDiagModes"] == [1, 2, 3, 5, 6, 7, 9, 10, 24, 25, 34, 62])
        #expect(try harness.catalog.validate(response.parameters, function: "RegisterAppInterface", messageType: .response).isEmpty)
        let names = harness.notifications(session: session, on: connection).map { harness.catalog.functionName(forID: $0.functionID)! }
        #expect(names == ["OnHMIStatus", "OnPermissionsChange", "OnSystemRequest", "OnDriverDistraction"])
        let status = harness.notifications("OnHMIStatus", session: session, on: connection)[0]
        #expect(
            status.parameters == [
                "hmiLevel": "NONE", "audioStreamingState": "NOT_AUDIBLE", "systemContext": "MAIN", "videoStreamingState": "NOT_STREAMABLE",
                "windowID": 0,
            ])
        #expect(status.correlationID == 0xFFFF_FFFF)
        // Core's policy table enables lock-screen dismissal, with its en-us warning.
        #expect(
            harness.notifications("OnDriverDistraction", session: session, on: connection)[0].parameters == [
                "state": "DD_OFF", "lockScreenDismissalEnabled": true,
                "lockScreenDismissalWarning": "Swipe down to dismiss, acknowledging that you are not the driver",
            ])
        let (other, _) = harness.register(appName: "Autre", appID: "autre-1", on: connection, extra: ["hmiDisplayLanguageDesired": "FR-CA"])
        #expect(
            harness.notifications("OnDriverDistraction", session: other, on: connection)[0].parameters == [
                "state": "DD_OFF", "lockScreenDismissalEnabled": false,
            ])
        for notification in harness.notifications(session: session, on: connection) {
            let name = harness.catalog.functionName(forID: notification.functionID)!
            #expect(try harness.catalog.validate(notification.parameters, function: name, messageType: .notification).isEmpty, "\(name)")
        }
    }

    @Test("--auto-activate brings the app to FULL shortly after; a media app is AUDIBLE")
    func autoActivate() {
        var harness = HeadUnitHarness(HeadUnitConfiguration(autoActivate: true))
        let connection = harness.open()
        let (session, _) = harness.register(isMedia: true, on: connection)
        #expect(harness.notifications("OnHMIStatus", session: session, on: connection).count == 1)
        harness.advance(by: .milliseconds(199))
        #expect(harness.notifications("OnHMIStatus", session: session, on: connection).count == 1)
        harness.advance(by: .milliseconds(1))
        let full = harness.notifications("OnHMIStatus", session: session, on: connection).last!
        #expect(full.parameters["hmiLevel"] == "FULL")
        #expect(full.parameters["audioStreamingState"] == "AUDIBLE")
    }

    @Test("Activating a second app sends the first to LIMITED (media) or BACKGROUND")
    func oneAppInFull() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (media, _) = harness.register(appName: "Radio", appID: "radio", isMedia: true, on: connection)
        let (other, _) = harness.register(appName: "News", appID: "news", on: connection)
        let (third, _) = harness.register(appName: "Maps", appID: "maps", on: connection)
        harness.apply(
            try harness.unit.setHMI(appID: "radio", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: harness.now))
        harness.apply(
            try harness.unit.setHMI(appID: "news", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: harness.now))
        #expect(harness.unit.apps[media]?.hmiLevel == "LIMITED")
        #expect(harness.unit.apps[media]?.audioStreamingState == "AUDIBLE")
        harness.apply(
            try harness.unit.setHMI(appID: "maps", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: harness.now))
        #expect(harness.unit.apps[other]?.hmiLevel == "BACKGROUND")
        #expect(harness.unit.apps[third]?.hmiLevel == "FULL")
        #expect(throws: SimulatorControlError.self) {
            try harness.unit.setHMI(appID: "maps", hmiLevel: "HALF", audioStreamingState: nil, systemContext: nil, now: harness.now)
        }
        #expect(throws: SimulatorControlError.self) {
            try harness.unit.setHMI(appID: "nobody", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: harness.now)
        }
    }

    @Test("The same appID twice is DISALLOWED; a clashing name or VR synonym is DUPLICATE_NAME; a blank name INVALID_DATA")
    func duplicates() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        _ = harness.register(appName: "Demo", appID: "demo", on: connection, extra: ["vrSynonyms": ["Demo", "Show me"]])
        #expect(harness.register(appName: "Other", appID: "DEMO", on: connection).1.resultCode == "DISALLOWED")
        #expect(harness.register(appName: "demo", appID: "x1", on: connection).1.resultCode == "DUPLICATE_NAME")
        #expect(harness.register(appName: "Show Me", appID: "x2", on: connection).1.resultCode == "DUPLICATE_NAME")
        #expect(harness.register(appName: "   ", appID: "x3", on: connection).1.resultCode == "INVALID_DATA")
        #expect(harness.register(appName: "Tab\tName", appID: "x4", on: connection).1.resultCode == "INVALID_DATA")
        let (session, _) = harness.register(appName: "Fine", appID: "x5", on: connection)
        let again = harness.request("RegisterAppInterface", harness.unit.apps[session]!.registration, session: session, on: connection)
        #expect(harness.response(again, on: connection)?.resultCode == "APPLICATION_REGISTERED_ALREADY")
    }

    @Test("A language other than the head unit's gets WRONG_LANGUAGE and stays registered")
    func wrongLanguage() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, response) = harness.register(on: connection, extra: ["languageDesired": "DE-DE"])
        #expect(response.resultCode == "WRONG_LANGUAGE")
        #expect(response.success == true)
        #expect(harness.unit.apps[session] != nil)
    }

    @Test("Default policy: Show DISALLOWED in NONE and allowed from BACKGROUND; GetVehicleData never; Alert only LIMITED/FULL")
    func defaultPolicy() throws {
        var harness = HeadUnitHarness(HeadUnitConfiguration(policy: .sdlDefault))
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        let show = harness.request("Show", ["mainField1": "hi"], session: session, on: connection)
        let disallowed = try #require(harness.response(show, on: connection))
        #expect(disallowed.resultCode == "DISALLOWED")
        #expect(disallowed.parameters["info"]?.stringValue?.contains("BACKGROUND") == true)
        harness.apply(
            try harness.unit.setHMI(appID: "demo-1", hmiLevel: "BACKGROUND", audioStreamingState: nil, systemContext: nil, now: harness.now)
        )
        do {
            let reply = harness.call("Show", ["mainField1": "hi"], session: session, on: connection)
            #expect(reply?.resultCode == "SUCCESS")
        }
        do {
            let reply = harness.call("Alert", ["alertText1": "hi"], session: session, on: connection)
            #expect(reply?.resultCode == "DISALLOWED")
        }
        harness.apply(
            try harness.unit.setHMI(appID: "demo-1", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: harness.now))
        do {
            let reply = harness.call("GetVehicleData", ["speed": true], session: session, on: connection)
            #expect(reply?.resultCode == "DISALLOWED")
        }
    }

    @Test("Open policy: vehicle data works in FULL")
    func openPolicy() throws {
        var harness = HeadUnitHarness(HeadUnitConfiguration(policy: .open, autoActivate: true))
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        harness.advance(by: .seconds(1))
        let reply = harness.call("GetVehicleData", ["speed": true], session: session, on: connection)
        let response = try #require(reply)
        #expect(response.resultCode == "SUCCESS")
    }

    @Test("UnregisterAppInterface answers SUCCESS and frees the appID")
    func unregister() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        let id = harness.request("UnregisterAppInterface", session: session, on: connection)
        #expect(harness.response(id, on: connection)?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session] == nil)
        let again = harness.request(
            "RegisterAppInterface",
            [
                "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0], "appName": "Demo", "isMediaApplication": false,
                "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "demo-1",
            ], session: session, on: connection)
        #expect(harness.response(again, on: connection)?.resultCode == "SUCCESS")
    }

    @Test("Faults: a result code, a delay, a hang, a dropped connection, a malformed frame")
    func faults() throws {
        var harness = HeadUnitHarness(HeadUnitConfiguration(autoActivate: true))
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        harness.advance(by: .seconds(1))
        try harness.unit.addFault(Fault(function: "Show", resultCode: "REJECTED"))
        do {
            let reply = harness.call("Show", ["mainField1": "a"], session: session, on: connection)
            #expect(reply?.resultCode == "REJECTED")
        }
        harness.unit.clearFaults()
        try harness.unit.addFault(Fault(function: "Show", delay: .milliseconds(300)))
        let delayed = harness.request("Show", ["mainField1": "b"], session: session, on: connection)
        harness.advance(by: .milliseconds(299))
        #expect(harness.response(delayed, on: connection) == nil)
        harness.advance(by: .milliseconds(1))
        #expect(harness.response(delayed, on: connection)?.resultCode == "SUCCESS")
        harness.unit.clearFaults()
        try harness.unit.addFault(Fault(function: "Show", hang: true))
        let hung = harness.request("Show", ["mainField1": "c"], session: session, on: connection)
        harness.advance(by: .seconds(60))
        #expect(harness.response(hung, on: connection) == nil)
        harness.unit.clearFaults()
        try harness.unit.addFault(Fault(function: "Show", malformedFrame: true))
        let count = harness.frames[connection]!.count
        var malformed = false
        let actions = harness.unit.receive(
            {
                var payload = ByteBuffer()
                payload.writeSDLRPCMessage(
                    SDLRPCMessage(rpcType: .request, functionID: 13, correlationID: 900, parameters: ["mainField1": "d"]))
                var bytes = ByteBuffer()
                bytes.writeSDLFrame(
                    SDLFrame(
                        header: .init(version: 5, frameType: .single, serviceType: .rpc, sessionID: session, dataSize: 0, messageID: 900),
                        payload: payload))
                return bytes
            }(), on: connection, now: harness.now)
        for case .write(_, var bytes) in actions {
            var decoder = SDLFrameDecoder()
            malformed = malformed || (try? decoder.decode(buffer: &bytes)) == nil
        }
        #expect(malformed)
        #expect(harness.frames[connection]!.count == count)
        harness.unit.clearFaults()
        try harness.unit.addFault(Fault(function: "Show", dropConnection: true))
        harness.request("Show", ["mainField1": "e"], session: session, on: connection)
        #expect(harness.closed.contains(connection))
        #expect(throws: SimulatorControlError.self) { try harness.unit.addFault(Fault(function: "NoSuchThing")) }
    }

    @Test("A delay fault also holds back answers a handler sends itself (UnregisterAppInterface)")
    func delayedLaterAnswer() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        try harness.unit.addFault(Fault(function: "UnregisterAppInterface", delay: .milliseconds(500)))
        let id = harness.request("UnregisterAppInterface", session: session, on: connection)
        #expect(harness.response(id, on: connection) == nil)
        harness.advance(by: .milliseconds(500))
        #expect(harness.response(id, on: connection)?.resultCode == "SUCCESS")
    }

    @Test("A burst fault floods notifications, paced when asked")
    func burst() throws {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        harness.apply(
            try harness.unit.burst(
                "OnDriverDistraction", parameters: ["state": "DD_ON"], count: 5, ratePerSecond: nil, appID: nil, now: harness.now))
        #expect(harness.notifications("OnDriverDistraction", session: session, on: connection).count == 6)
        harness.apply(
            try harness.unit.burst(
                "OnDriverDistraction", parameters: ["state": "DD_OFF"], count: 10, ratePerSecond: 10, appID: "demo-1", now: harness.now))
        #expect(harness.notifications("OnDriverDistraction", session: session, on: connection).count == 6)
        harness.advance(by: .milliseconds(450))
        #expect(harness.notifications("OnDriverDistraction", session: session, on: connection).count == 11)
        harness.advance(by: .seconds(1))
        #expect(harness.notifications("OnDriverDistraction", session: session, on: connection).count == 16)
    }

    @Test("--pretty-json: the JSON of every RPC goes out pretty-printed, as Core sends it, and means the same")
    func prettyJSON() throws {
        var configuration = HeadUnitConfiguration()
        configuration.prettyJSON = true
        var pretty = HeadUnitHarness(configuration)
        let connection = pretty.open()
        let (_, response) = pretty.register(on: connection)
        var compact = HeadUnitHarness()
        let (_, plain) = compact.register(on: compact.open())
        #expect(response.parameters == plain.parameters)
        let rpcFrames = (pretty.frames[connection] ?? []).filter { $0.header.frameType != .control }
        let texts = rpcFrames.map { String(decoding: $0.payload.readableBytesView.dropFirst(12), as: UTF8.self) }
        #expect(!texts.isEmpty && texts.allSatisfy { $0.hasPrefix("{\n\t\"") }, "\(texts.first ?? "")")
    }
}
