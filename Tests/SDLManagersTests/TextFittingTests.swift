import SDLManagers
import SDLProtocol
import Testing

@Suite("Text fitting to the window capability")
struct TextFittingTests {
    /// A one-line display: only mainField1, 20 characters wide, two soft buttons.
    static let oneLine: SDLJSON = [
        "textFields": [
            ["name": "mainField1", "characterSet": "UTF_8", "width": 20, "rows": 1],
            ["name": "mediaTrack", "characterSet": "UTF_8", "width": 10, "rows": 1],
        ],
        "templatesAvailable": ["MEDIA", "NON-MEDIA"],
        "softButtonCapabilities": [["shortPressAvailable": true], ["shortPressAvailable": true]],
    ]

    @Test("A one-line display profile is read from its WindowCapability")
    func profile() {
        let profile = SDLDisplayProfile(windowCapability: Self.oneLine, rpcSpecMajorVersion: 8)
        #expect(profile.mainFieldLines == 1)
        #expect(profile.fieldWidths == ["mainField1": 20, "mediaTrack": 10])
        #expect(profile.maximumSoftButtons == 2)
        #expect(profile.templatesAvailable == ["MEDIA", "NON-MEDIA"])
        #expect(!profile.hasField("templateTitle"))
        #expect(profile.usesTemplateConfiguration)
    }

    @Test("On one line all fields join with \" - \" into mainField1, and long text is a warning, not a cut")
    func oneLineShow() throws {
        var manager = SDLScreenManager()
        let profile = SDLDisplayProfile(windowCapability: Self.oneLine, rpcSpecMajorVersion: 8)
        let update = try manager.plan(SDLScreen(textFields: ["Alpha", "Beta", "", "Delta"], mediaTrack: "Track 1"), profile: profile)
        #expect(update.plan.steps.map(\.description) == [#"Show {"mainField1":"Alpha - Beta - Delta","mediaTrack":"Track 1"}"#])
        // "Alpha - Beta - Delta" is exactly 20 characters: no warning.
        #expect(update.plan.warnings.isEmpty)
        let long = try manager.plan(SDLScreen(title: "Title", textFields: ["Alpha", "Beta", "Gamma", "Delta"]), profile: profile)
        #expect(long.plan.requests.first?.parameters["mainField1"] == "Alpha - Beta - Gamma - Delta")
        #expect(
            long.plan.warnings.map(\.description) == [
                "$.textFields[0] (mainField1): 28 characters in mainField1, which shows 20; sent whole, the head unit may cut it",
                "$.title (templateTitle): the display has no templateTitle",
            ])
    }

    @Test("The app libraries' table for two, three and four lines")
    func lineTable() {
        func fit(_ texts: [String], _ lines: Int) -> [String] { SDLTextFitter.fit(texts, lines: lines).map(\.text) }
        #expect(fit(["a", "b", "c", "d"], 1) == ["a - b - c - d"])
        #expect(fit(["a", "b", "c", "d"], 2) == ["a - b", "c - d"])
        #expect(fit(["a", "b"], 2) == ["a", "b"])
        #expect(fit(["a", "b", "c"], 2) == ["a - b", "c"])
        #expect(fit(["a", "b", "c", "d"], 3) == ["a", "b", "c - d"])
        #expect(fit(["a", "", "", "d"], 3) == ["a", "", "d"])
        #expect(fit(["a", "b", "c", "d"], 4) == ["a", "b", "c", "d"])
        #expect(SDLTextFitter.fit(["a", "", "c", "d"], lines: 2).map(\.sources) == [[0], [2, 3]])
    }
}
