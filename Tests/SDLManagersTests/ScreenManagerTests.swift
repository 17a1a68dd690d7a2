import SDLManagers
import SDLProtocol
import Testing

@Suite("Screen manager: the fewest Show fields, templates, images")
struct ScreenManagerTests {
    static let play = SDLSoftButton(
        id: "play",
        states: [.init(name: "play", text: "Play"), .init(name: "pause", text: "Pause")],
        state: "play"
    )
    static let playJSON = #"{"isHighlighted":false,"softButtonID":1,"systemAction":"DEFAULT_ACTION","text":"Play","type":"TEXT"}"#
    static let pauseJSON = #"{"isHighlighted":false,"softButtonID":1,"systemAction":"DEFAULT_ACTION","text":"Pause","type":"TEXT"}"#

    /// Plans and accepts; returns the plan's steps as text.
    static func apply(
        _ manager: inout SDLScreenManager, _ screen: SDLScreen, media: SDLMedia? = nil,
        profile: SDLDisplayProfile = SDLDisplayProfile(), knownFiles: Set<String> = []
    ) throws -> [String] {
        let update = try manager.plan(screen, media: media, profile: profile, knownFiles: knownFiles)
        manager.accept(update)
        return update.plan.steps.map(\.description)
    }

    @Test("The first screen is one Show without the empty fields; the same screen again sends nothing")
    func firstScreen() throws {
        var manager = SDLScreenManager()
        let screen = SDLScreen(title: "Radio", textFields: ["Hello", "World"], softButtons: [Self.play])
        #expect(
            try Self.apply(&manager, screen) == [
                #"Show {"mainField1":"Hello","mainField2":"World","softButtons":[\#(Self.playJSON)],"templateTitle":"Radio"}"#
            ])
        #expect(try Self.apply(&manager, screen) == [])
    }

    @Test("Changing one text field sends only that field; removing one clears it")
    func changedField() throws {
        var manager = SDLScreenManager()
        _ = try Self.apply(&manager, SDLScreen(title: "Radio", textFields: ["Hello", "World"], mediaTrack: "1/3"))
        #expect(
            try Self.apply(&manager, SDLScreen(title: "Radio", textFields: ["Hello", "There"], mediaTrack: "1/3")) == [
                #"Show {"mainField2":"There"}"#
            ])
        #expect(
            try Self.apply(&manager, SDLScreen(title: "Radio", textFields: ["Hello"])) == [
                #"Show {"mainField2":"","mediaTrack":""}"#
            ])
    }

    @Test("A soft button state change resends the buttons with the same softButtonID")
    func softButtonState() throws {
        var manager = SDLScreenManager()
        var screen = SDLScreen(textFields: ["a"], softButtons: [Self.play])
        _ = try Self.apply(&manager, screen)
        screen.softButtons[0].state = "pause"
        #expect(try Self.apply(&manager, screen) == [#"Show {"softButtons":[\#(Self.pauseJSON)]}"#])
        #expect(manager.softButton(forID: 1) == SDLSoftButtonReference(id: "play", state: "pause"))
        // A second button gets the next id; the first keeps 1.
        screen.softButtons.append(SDLSoftButton(id: "next", states: [.init(name: "n", image: "0x29")]))
        #expect(
            try Self.apply(&manager, screen) == [
                #"Show {"softButtons":[\#(Self.pauseJSON),{"image":{"imageType":"STATIC","isTemplate":true,"value":"0x29"},"isHighlighted":false,"softButtonID":2,"systemAction":"DEFAULT_ACTION","type":"IMAGE"}]}"#
            ])
        screen.softButtons.removeFirst()
        #expect(
            try Self.apply(&manager, screen) == [
                #"Show {"softButtons":[{"image":{"imageType":"STATIC","isTemplate":true,"value":"0x29"},"isHighlighted":false,"softButtonID":2,"systemAction":"DEFAULT_ACTION","type":"IMAGE"}]}"#
            ])
        #expect(manager.softButton(forID: 1) == nil)
    }

    @Test("A template change on RPC spec 6+ goes in Show.templateConfiguration with every field")
    func templateConfiguration() throws {
        var manager = SDLScreenManager()
        _ = try Self.apply(&manager, SDLScreen(textFields: ["a", "b"]))
        #expect(
            try Self.apply(&manager, SDLScreen(template: "MEDIA", textFields: ["a", "b"])) == [
                #"Show {"mainField1":"a","mainField2":"b","mainField3":"","mainField4":"","templateConfiguration":{"template":"MEDIA"}}"#
            ])
        #expect(manager.accepted.template == "MEDIA")
        #expect(try Self.apply(&manager, SDLScreen(template: "MEDIA", textFields: ["a", "b"])) == [])
    }

    @Test("A template change before RPC spec 6 is a SetDisplayLayout before the Show")
    func setDisplayLayout() throws {
        var manager = SDLScreenManager()
        let old = SDLDisplayProfile(mainFieldLines: 2, rpcSpecMajorVersion: 5)
        #expect(
            try Self.apply(&manager, SDLScreen(template: "NON-MEDIA", textFields: ["a"]), profile: old) == [
                #"SetDisplayLayout {"displayLayout":"NON-MEDIA"}"#,
                #"Show {"mainField1":"a","mainField2":""}"#,
            ])
    }

    @Test("An image the head unit may lack: text first, then the file, then the graphic")
    func textThenUploadThenGraphic() throws {
        var manager = SDLScreenManager()
        let screen = SDLScreen(textFields: ["a"], mediaTrack: "Track", primaryGraphic: "art.png")
        #expect(
            try Self.apply(&manager, screen) == [
                #"Show {"mainField1":"a","mediaTrack":"Track"}"#,
                "ensureFile art.png",
                #"Show {"graphic":{"imageType":"DYNAMIC","value":"art.png"}}"#,
            ])
        #expect(try Self.apply(&manager, screen) == [])
    }

    @Test("Images the head unit is known to have: one Show after the ensure-file step")
    func knownImage() throws {
        var manager = SDLScreenManager()
        let screen = SDLScreen(textFields: ["a"], primaryGraphic: "art.png", secondaryGraphic: "0x11")
        #expect(
            try Self.apply(&manager, screen, knownFiles: ["art.png"]) == [
                "ensureFile art.png",
                #"Show {"graphic":{"imageType":"DYNAMIC","value":"art.png"},"mainField1":"a","secondaryGraphic":{"imageType":"STATIC","isTemplate":true,"value":"0x11"}}"#,
            ])
    }

    @Test("Soft button images only once uploaded: the buttons go out as text first")
    func softButtonImageLater() throws {
        var manager = SDLScreenManager()
        let button = SDLSoftButton(id: "play", states: [.init(name: "play", text: "Play", image: "play.png")])
        #expect(
            try Self.apply(&manager, SDLScreen(softButtons: [button])) == [
                #"Show {"softButtons":[\#(Self.playJSON)]}"#,
                "ensureFile play.png",
                #"Show {"softButtons":[{"image":{"imageType":"DYNAMIC","value":"play.png"},"isHighlighted":false,"softButtonID":1,"systemAction":"DEFAULT_ACTION","text":"Play","type":"BOTH"}]}"#,
            ])
    }

    @Test("Media text fills the main fields with metadata tags; the artwork is the graphic")
    func mediaText() throws {
        var manager = SDLScreenManager()
        let media = SDLMedia(track: "Song", artist: "Band", album: "LP", artwork: "0x29")
        #expect(
            try Self.apply(&manager, SDLScreen(mediaTrack: "1/9"), media: media) == [
                #"Show {"graphic":{"imageType":"STATIC","isTemplate":true,"value":"0x29"},"mainField1":"Song","mainField2":"Band","mainField3":"LP","mediaTrack":"1/9","metadataTags":{"mainField1":["mediaTitle"],"mainField2":["mediaArtist"],"mainField3":["mediaAlbum"]}}"#
            ])
        // The screen's own text fields replace the media text.
        #expect(
            try Self.apply(&manager, SDLScreen(textFields: ["Mine"], mediaTrack: "1/9"), media: media) == [
                #"Show {"mainField1":"Mine","mainField2":"","mainField3":"","metadataTags":{}}"#
            ])
    }

    @Test("After a head unit reset the whole screen is sent again")
    func reset() throws {
        var manager = SDLScreenManager()
        let screen = SDLScreen(textFields: ["a"], softButtons: [Self.play])
        _ = try Self.apply(&manager, screen)
        manager.headUnitReset()
        #expect(try Self.apply(&manager, screen) == [#"Show {"mainField1":"a","softButtons":[\#(Self.playJSON)]}"#])
    }
}
