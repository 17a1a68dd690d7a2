import HeadUnitModel
import HeadlessHMI
import NIOCore
import SDLProtocol
import TestSupport
import Testing

/// Issue 31: the headless HMI keeps everything a head unit draws for an app from what SDL Core 8.2
/// sends it, shaped as the simulator's screen (docs/protocol.md §l).
@Suite("The headless HMI's screen of an app, from Core's messages")
struct HMIScreenTests {
    static let appID: Int64 = 65537
    static let start = NIODeadline.uptimeNanoseconds(5_000_000_000)

    /// A ready HMI with the app registered as Core 8.2 announces a media app with an icon.
    static func hmi() throws -> HeadlessHMI {
        var hmi = HeadlessHMI(answers: HMIAnswers(profile: .default))
        _ = try HeadlessHMITests.ready(&hmi)
        _ = try hmi.receive(
            .notification(
                method: "BasicCommunication.OnAppRegistered",
                params: [
                    "application": [
                        "appID": .int(appID), "appName": "Radio", "policyAppID": "radio01", "isMediaApplication": true,
                        "appType": ["MEDIA"], "icon": "/opt/sdl/icons/radio01",
                        "dayColorScheme": ["primaryColor": ["red": 1, "green": 2, "blue": 3]],
                    ]
                ]))
        return hmi
    }

    static func screen(_ hmi: HeadlessHMI, now: NIODeadline = start) throws -> SDLJSON {
        try #require(hmi.apps[appID]).screenJSON(now: now, interactions: [])
    }

    @Test(
        "Core's UI.Show (showStrings, a graphic's full path, templateConfiguration): mainField1 … under the mobile names, the template, the image's name"
    )
    func show() throws {
        var hmi = try Self.hmi()
        let path = "/opt/sdl/storage/radio01_mac/cover.png"
        _ = try hmi.receive(
            try CoreHMIMessages.show(
                id: 60, appID: Self.appID, mainField1: "Jazz FM", mainField2: "Live", graphicPath: path, template: "GRAPHIC_WITH_TEXT"))
        var screen = try Self.screen(hmi)
        #expect(screen["show"]?["mainField1"] == "Jazz FM" && screen["show"]?["mainField2"] == "Live")
        #expect(screen["show"]?["showStrings"]?.arrayValue?.count == 2, "Core's own shape stays")
        #expect(screen["show"]?["graphic"] == ["imageType": "DYNAMIC", "isTemplate": false, "value": .string(path), "name": "cover.png"])
        #expect(hmi.apps[Self.appID]?.files.path(named: "cover.png") == path)
        #expect(screen["template"] == "GRAPHIC_WITH_TEXT")
        #expect(screen["dayColorScheme"]?["primaryColor"]?["red"] == 1, "from the registration")
        #expect(
            screen["appName"] == "Radio" && screen["hmiLevel"] == "NONE" && screen["isMediaApplication"] == true
                && screen["appType"] == ["MEDIA"])
        #expect(screen["icon"] == ["value": "/opt/sdl/icons/radio01", "imageType": "DYNAMIC", "name": "radio01"])

        // A Show with one field leaves the others as shown; metadata tags read as Show's.
        _ = try hmi.receive(
            .request(
                id: 61, method: "UI.Show",
                params: [
                    "appID": .int(Self.appID),
                    "showStrings": [["fieldName": "mainField2", "fieldText": "Recorded", "fieldTypes": ["mediaAlbum"]]],
                ]))
        screen = try Self.screen(hmi)
        #expect(screen["show"]?["mainField1"] == "Jazz FM" && screen["show"]?["mainField2"] == "Recorded")
        #expect(screen["show"]?["metadataTags"] == ["mainField2": ["mediaAlbum"]])

        // SetDisplayLayout reaches an 8.2 HMI as a UI.Show with no text and the layout as template.
        _ = try hmi.receive(try CoreHMIMessages.displayLayoutShow(id: 62, appID: Self.appID, layout: "MEDIA"))
        screen = try Self.screen(hmi)
        #expect(screen["template"] == "MEDIA" && screen["show"]?["mainField1"] == "Jazz FM")
        #expect(screen["dayColorScheme"]?["backgroundColor"] != nil)
        // An older Core's UI.SetDisplayLayout.
        _ = try hmi.receive(
            .request(id: 63, method: "UI.SetDisplayLayout", params: ["appID": .int(Self.appID), "displayLayout": "NON-MEDIA"]))
        #expect(try Self.screen(hmi)["template"] == "NON-MEDIA")
        // A widget's Show leaves the main screen alone.
        _ = try hmi.receive(
            .request(
                id: 64, method: "UI.Show",
                params: [
                    "appID": .int(Self.appID), "windowID": 5, "showStrings": [["fieldName": "mainField1", "fieldText": "Widget"]],
                ]))
        #expect(try Self.screen(hmi)["show"]?["mainField1"] == "Jazz FM")
    }

    @Test("Before any template, the screen says DEFAULT as the simulator's does")
    func defaultTemplate() throws {
        #expect(try Self.screen(try Self.hmi())["template"] == "DEFAULT")
    }

    @Test("An image path with a `..` or `.` component, or a relative one, is never remembered, so never served")
    func unsafePaths() throws {
        var hmi = try Self.hmi()
        for (id, path) in [
            (70, "/opt/sdl/storage/radio01_mac/../../../etc/passwd"), (71, "/opt/./x.png"), (72, "x.png"), (73, "/opt//y.png"),
        ] as [(Int64, String)] {
            _ = try hmi.receive(
                .request(
                    id: id, method: "UI.Show",
                    params: [
                        "appID": .int(Self.appID), "graphic": ["imageType": "DYNAMIC", "value": .string(path)],
                    ]))
            #expect(try Self.screen(hmi)["show"]?["graphic"]?["name"] == nil, "\(path)")
        }
        #expect(hmi.apps[Self.appID]?.files.paths == ["radio01": "/opt/sdl/icons/radio01"])
    }

    @Test("Images anywhere in Core's requests are named: a command's icon, an alert's soft button; the oldest names go beyond the capacity")
    func imagesAnywhere() throws {
        var hmi = try Self.hmi()
        _ = try hmi.receive(
            .request(
                id: 80, method: "UI.AddCommand",
                params: [
                    "appID": .int(Self.appID), "cmdID": 1, "menuParams": ["menuName": "Jazz"],
                    "cmdIcon": ["imageType": "DYNAMIC", "value": "/s/a/jazz.png"],
                ]))
        #expect(try Self.screen(hmi)["menu"]?.arrayValue?.first?["cmdIcon"]?["name"] == "jazz.png")
        _ = try hmi.receive(
            .request(
                id: 81, method: "UI.Alert",
                params: [
                    "appID": .int(Self.appID), "alertStrings": [],
                    "softButtons": [["softButtonID": 1, "type": "IMAGE", "image": ["imageType": "DYNAMIC", "value": "/s/a/ok.png"]]],
                ]))
        #expect(hmi.apps[Self.appID]?.files.path(named: "ok.png") == "/s/a/ok.png")

        var names = HMIFileNames()
        for index in 0...HMIFileNames.capacity { names.remember(path: "/s/\(index).png") }
        #expect(names.paths.count == HMIFileNames.capacity)
        #expect(names.path(named: "0.png") == nil && names.path(named: "\(HMIFileNames.capacity).png") != nil)
    }

    @Test("The media clock runs as the simulator's: where it is now, paused where it was")
    func mediaClock() throws {
        var hmi = try Self.hmi()
        _ = try hmi.receive(
            .request(
                id: 90, method: "UI.SetMediaClockTimer",
                params: [
                    "appID": .int(Self.appID), "updateMode": "COUNTUP", "startTime": ["hours": 0, "minutes": 1, "seconds": 0],
                ]), now: Self.start)
        #expect(try Self.screen(hmi, now: Self.start + .seconds(5))["mediaClock"]?["currentSeconds"] == 65.0)
        _ = try hmi.receive(
            .request(id: 91, method: "UI.SetMediaClockTimer", params: ["appID": .int(Self.appID), "updateMode": "PAUSE"]),
            now: Self.start + .seconds(10))
        let paused = try Self.screen(hmi, now: Self.start + .seconds(30))["mediaClock"]
        #expect(paused?["currentSeconds"] == 70.0 && paused?["paused"] == true && paused?["updateMode"] == "COUNTUP")
        _ = try hmi.receive(.request(id: 92, method: "UI.SetMediaClockTimer", params: ["appID": .int(Self.appID), "updateMode": "CLEAR"]))
        #expect(try Self.screen(hmi)["mediaClock"] == nil)
    }
}
