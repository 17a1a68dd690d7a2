import HeadUnitModel
import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

/// Shared by the screen, menu and interaction tests.
extension HeadUnitHarness {
    /// A harness with one registered app already in FULL (open policy).
    static func withAppInFull(isMedia: Bool = false, timeScale: Double = 1) -> (HeadUnitHarness, ConnectionID, UInt8) {
        var harness = HeadUnitHarness(HeadUnitConfiguration(autoActivate: true, timeScale: timeScale))
        let connection = harness.open()
        let (session, _) = harness.register(isMedia: isMedia, on: connection)
        harness.advance(by: .seconds(1))
        return (harness, connection, session)
    }

    /// Every response and notification received on the connection that the spec rejects, by name.
    func invalidMessages(on id: ConnectionID) -> [String] {
        var invalid: [String] = []
        for case .rpc(_, let rpc) in received[id] ?? [] where rpc.rpcType != .request {
            let name = catalog.functionName(forID: rpc.functionID) ?? "\(rpc.functionID)"
            let type: SDLMessageType = rpc.rpcType == .response ? .response : .notification
            guard let issues = try? catalog.validate(rpc.parameters, function: name, messageType: type) else {
                invalid.append("\(name): not a \(type) of the spec")
                continue
            }
            if !issues.isEmpty { invalid.append("\(name): \(issues)") }
        }
        return invalid
    }

    /// The system contexts of the OnHMIStatus notifications received since `index`.
    func systemContexts(session: UInt8, on id: ConnectionID, from index: Int = 0) -> [String] {
        notifications("OnHMIStatus", session: session, on: id).dropFirst(index).compactMap { $0.parameters["systemContext"]?.stringValue }
    }
}

@Suite("Simulator: screen")
struct SimulatorScreenTests {
    @Test("Show merges text fields, graphics and soft buttons into the screen; templateConfiguration sets the template")
    func showMerges() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply1 = harness.call(
            "Show", ["mainField1": "Hello", "mainField2": "World", "templateTitle": "Title"], session: session, on: connection)
        let first = try #require(reply1)
        #expect(first.resultCode == "SUCCESS")
        #expect(first.success == true)
        let reply2 = harness.call(
            "Show",
            [
                "mainField2": "There", "softButtons": [["type": "TEXT", "text": "Go", "softButtonID": 1]],
                "graphic": ["value": "0x11", "imageType": "STATIC"],
                "templateConfiguration": [
                    "template": "GRAPHIC_WITH_TEXT", "dayColorScheme": ["primaryColor": ["red": 1, "green": 2, "blue": 3]],
                ],
            ],
            session: session, on: connection
        )
        let second = try #require(reply2)
        #expect(second.resultCode == "SUCCESS")
        let screen = harness.unit.apps[session]!.screen
        #expect(screen.show["mainField1"] == "Hello")
        #expect(screen.show["mainField2"] == "There")
        #expect(screen.show["templateTitle"] == "Title")
        #expect(screen.show["softButtons"]?.arrayValue?.count == 1)
        #expect(screen.show["templateConfiguration"] == nil)
        #expect(screen.template == "GRAPHIC_WITH_TEXT")
        #expect(screen.dayColorScheme?["primaryColor"]?["red"] == 1)
        let reply3 = harness.call("Show", ["templateConfiguration": ["template": "NO_SUCH_TEMPLATE"]], session: session, on: connection)
        let unknown = try #require(reply3)
        #expect(unknown.resultCode == "REJECTED")
        #expect(harness.unit.apps[session]!.screen.template == "GRAPHIC_WITH_TEXT")
        let reply4 = harness.call("Show", ["mainField1": "a\tb"], session: session, on: connection)
        let tab = try #require(reply4)
        #expect(tab.resultCode == "INVALID_DATA")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("Show naming a DYNAMIC image the app has not uploaded: WARNINGS (success), as Core's VerifyImage; uploaded or STATIC: SUCCESS")
    func showMissingImage() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply5 = harness.call(
            "Show", ["mainField1": "x", "graphic": ["value": "art.png", "imageType": "DYNAMIC"]], session: session, on: connection)
        let missing = try #require(reply5)
        #expect(missing.resultCode == "WARNINGS")
        #expect(missing.success == true)
        #expect(missing.parameters["info"]?.stringValue?.contains("Reference image(s) not found") == true)
        #expect(harness.unit.apps[session]!.screen.show["graphic"]?["value"] == "art.png")
        let reply6 = harness.call(
            "Show", ["softButtons": [["type": "IMAGE", "softButtonID": 2, "image": ["value": "button.png", "imageType": "DYNAMIC"]]]],
            session: session, on: connection)
        let softButton = try #require(reply6)
        #expect(softButton.resultCode == "WARNINGS")
        harness.unit.apps[session]!.files["art.png"] = StoredFile(
            fileType: "GRAPHIC_PNG", bytes: ByteBuffer(bytes: [0x89, 0x50, 0x4E, 0x47]))
        let reply7 = harness.call("Show", ["graphic": ["value": "art.png", "imageType": "DYNAMIC"]], session: session, on: connection)
        let uploaded = try #require(reply7)
        #expect(uploaded.resultCode == "SUCCESS")
        #expect(uploaded.parameters["info"] == nil)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("SetDisplayLayout: an available template succeeds with the display's capabilities; an unknown one is REJECTED")
    func setDisplayLayout() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply8 = harness.call("SetDisplayLayout", ["displayLayout": "TILES_ONLY"], session: session, on: connection)
        let response = try #require(reply8)
        #expect(response.resultCode == "SUCCESS")
        #expect(response.parameters["displayCapabilities"]?["templatesAvailable"]?.arrayValue?.contains("TILES_ONLY") == true)
        #expect(response.parameters["buttonCapabilities"]?.arrayValue?.isEmpty == false)
        #expect(response.parameters["softButtonCapabilities"]?.arrayValue?.isEmpty == false)
        #expect(response.parameters["presetBankCapabilities"] != nil)
        #expect(try harness.catalog.validate(response.parameters, function: "SetDisplayLayout", messageType: .response).isEmpty)
        #expect(harness.unit.apps[session]!.screen.template == "TILES_ONLY")
        let reply9 = harness.call("SetDisplayLayout", ["displayLayout": "HOLOGRAM"], session: session, on: connection)
        let rejected = try #require(reply9)
        #expect(rejected.resultCode == "REJECTED")
        #expect(rejected.success == false)
        #expect(harness.unit.apps[session]!.screen.template == "TILES_ONLY")
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("SetDisplayLayout: the color scheme may change only together with the template (Core)")
    func colorSchemeOnce() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let red: SDLJSON = ["primaryColor": ["red": 255, "green": 0, "blue": 0]]
        let blue: SDLJSON = ["primaryColor": ["red": 0, "green": 0, "blue": 255]]
        let reply10 = harness.call("SetDisplayLayout", ["displayLayout": "MEDIA", "dayColorScheme": red], session: session, on: connection)
        #expect(reply10?.resultCode == "SUCCESS")
        let reply11 = harness.call("SetDisplayLayout", ["displayLayout": "MEDIA", "dayColorScheme": red], session: session, on: connection)
        #expect(reply11?.resultCode == "SUCCESS")
        let reply12 = harness.call(
            "SetDisplayLayout", ["displayLayout": "MEDIA", "dayColorScheme": blue], session: session, on: connection)
        #expect(reply12?.resultCode == "REJECTED")
        #expect(harness.unit.apps[session]!.screen.dayColorScheme == red)
        let reply13 = harness.call(
            "SetDisplayLayout", ["displayLayout": "NON-MEDIA", "dayColorScheme": blue], session: session, on: connection)
        #expect(reply13?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.screen.dayColorScheme == blue)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("SetMediaClockTimer: REJECTED for a non-media app, as Core does")
    func mediaClockNonMedia() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull(isMedia: false)
        let reply14 = harness.call(
            "SetMediaClockTimer", ["updateMode": "COUNTUP", "startTime": ["hours": 0, "minutes": 0, "seconds": 0]], session: session,
            on: connection)
        let response = try #require(reply14)
        #expect(response.resultCode == "REJECTED")
        #expect(harness.unit.apps[session]!.screen.mediaClock == nil)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("SetMediaClockTimer: COUNTUP/COUNTDOWN need startTime; PAUSE keeps the position, RESUME runs on, CLEAR removes")
    func mediaClock() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull(isMedia: true)
        let reply15 = harness.call("SetMediaClockTimer", ["updateMode": "COUNTUP"], session: session, on: connection)
        #expect(reply15?.resultCode == "INVALID_DATA")
        let reply16 = harness.call("SetMediaClockTimer", ["updateMode": "COUNTDOWN"], session: session, on: connection)
        #expect(reply16?.resultCode == "INVALID_DATA")
        let backwards = harness.call(
            "SetMediaClockTimer",
            [
                "updateMode": "COUNTUP", "startTime": ["hours": 0, "minutes": 2, "seconds": 0],
                "endTime": ["hours": 0, "minutes": 1, "seconds": 0],
            ],
            session: session, on: connection)
        #expect(backwards?.resultCode == "INVALID_DATA")
        let start = harness.call(
            "SetMediaClockTimer",
            [
                "updateMode": "COUNTUP", "startTime": ["hours": 0, "minutes": 1, "seconds": 0],
                "endTime": ["hours": 0, "minutes": 5, "seconds": 0],
            ],
            session: session, on: connection)
        #expect(start?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.screen.mediaClock?["updateMode"] == "COUNTUP")
        harness.advance(by: .seconds(5))
        let reply17 = harness.call("SetMediaClockTimer", ["updateMode": "PAUSE"], session: session, on: connection)
        #expect(reply17?.resultCode == "SUCCESS")
        var clock = try #require(harness.unit.apps[session]!.screen.mediaClock)
        #expect(clock["running"] == false)
        #expect(clock["positionSeconds"]?.doubleValue == 65)
        harness.advance(by: .seconds(10))
        #expect(MediaClock.position(clock, now: harness.now) == 65)
        let reply18 = harness.call("SetMediaClockTimer", ["updateMode": "RESUME"], session: session, on: connection)
        #expect(reply18?.resultCode == "SUCCESS")
        harness.advance(by: .seconds(2))
        clock = try #require(harness.unit.apps[session]!.screen.mediaClock)
        #expect(clock["running"] == true)
        #expect(MediaClock.position(clock, now: harness.now) == 67)
        let reply19 = harness.call("SetMediaClockTimer", ["updateMode": "CLEAR"], session: session, on: connection)
        #expect(reply19?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.screen.mediaClock == nil)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("SetGlobalProperties: stored, OnHashChange; nothing given is INVALID_DATA; vrHelpTitle without vrHelp is REJECTED")
    func setGlobalProperties() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        let reply20 = harness.call("SetGlobalProperties", [:], session: session, on: connection)
        #expect(reply20?.resultCode == "INVALID_DATA")
        let reply21 = harness.call("SetGlobalProperties", ["vrHelpTitle": "Help"], session: session, on: connection)
        #expect(reply21?.resultCode == "REJECTED")
        #expect(harness.notifications("OnHashChange", session: session, on: connection).isEmpty)
        let response = harness.call(
            "SetGlobalProperties",
            [
                "menuTitle": "Menu", "helpPrompt": [["text": "Say a command", "type": "TEXT"]],
                "vrHelpTitle": "Help", "vrHelp": [["text": "Play", "position": 1]],
            ],
            session: session, on: connection)
        #expect(response?.resultCode == "SUCCESS")
        let properties = harness.unit.apps[session]!.screen.globalProperties
        #expect(properties["menuTitle"] == "Menu")
        #expect(properties["vrHelp"]?.arrayValue?.count == 1)
        let hashes = harness.notifications("OnHashChange", session: session, on: connection)
        #expect(hashes.count == 1)
        #expect(hashes.last?.parameters["hashID"]?.stringValue == harness.unit.apps[session]!.resumptionHash)
        let reply22 = harness.call("SetGlobalProperties", ["menuTitle": "Other"], session: session, on: connection)
        #expect(reply22?.resultCode == "SUCCESS")
        #expect(harness.unit.apps[session]!.screen.globalProperties["menuTitle"] == "Other")
        #expect(harness.unit.apps[session]!.screen.globalProperties["helpPrompt"] != nil)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }

    @Test("ResetGlobalProperties removes the listed properties only, then OnHashChange")
    func resetGlobalProperties() throws {
        var (harness, connection, session) = HeadUnitHarness.withAppInFull()
        _ = harness.call(
            "SetGlobalProperties", ["menuTitle": "Menu", "helpPrompt": [["text": "Help", "type": "TEXT"]]], session: session, on: connection
        )
        let before = harness.notifications("OnHashChange", session: session, on: connection).count
        let response = harness.call("ResetGlobalProperties", ["properties": ["MENUNAME"]], session: session, on: connection)
        #expect(response?.resultCode == "SUCCESS")
        let properties = harness.unit.apps[session]!.screen.globalProperties
        #expect(properties["menuTitle"] == nil)
        #expect(properties["helpPrompt"] != nil)
        #expect(harness.notifications("OnHashChange", session: session, on: connection).count == before + 1)
        #expect(harness.invalidMessages(on: connection).isEmpty)
    }
}
