import SDLManagers
import SDLProtocol
import Testing

@Suite("Validation errors name the field")
struct ValidationTests {
    static let twoButtons = SDLDisplayProfile(templatesAvailable: ["MEDIA"], maximumSoftButtons: 2)

    static func screenError(_ screen: SDLScreen, profile: SDLDisplayProfile = twoButtons) -> SDLManagerError? {
        var manager = SDLScreenManager()
        do {
            _ = try manager.plan(screen, profile: profile)
            return nil
        } catch {
            return error
        }
    }

    static func menuError(_ cells: [SDLMenuCell], maximumDepth: Int = 2, layout: String? = nil) -> SDLManagerError? {
        var manager = SDLMenuManager()
        do {
            _ = try manager.plan(
                SDLMenu(cells: cells, layout: layout), profile: SDLDisplayProfile(menuLayoutsAvailable: ["LIST"]),
                maximumDepth: maximumDepth)
            return nil
        } catch {
            return error
        }
    }

    static func button(_ id: String, state: String? = nil) -> SDLSoftButton {
        SDLSoftButton(id: id, states: [.init(name: "on", text: "On")], state: state)
    }

    @Test("Screen: too many soft buttons, duplicate ids, unknown state, unknown template, five lines")
    func screen() {
        let tooMany = Self.screenError(SDLScreen(softButtons: [Self.button("a"), Self.button("b"), Self.button("c")]))
        #expect(tooMany?.code == .tooMany)
        #expect(tooMany?.path == "$.softButtons")
        let duplicate = Self.screenError(SDLScreen(softButtons: [Self.button("a"), Self.button("a")]))
        #expect(duplicate?.code == .duplicateID)
        #expect(duplicate?.path == "$.softButtons[1].id")
        let state = Self.screenError(SDLScreen(softButtons: [Self.button("a", state: "off")]))
        #expect(state?.code == .unknownState)
        #expect(state?.path == "$.softButtons[0].state")
        let template = Self.screenError(SDLScreen(template: "TILES_ONLY"))
        #expect(template?.code == .unsupportedValue)
        #expect(template?.path == "$.template")
        let lines = Self.screenError(SDLScreen(textFields: ["1", "2", "3", "4", "5"]))
        #expect(lines?.path == "$.textFields")
        let empty = Self.screenError(SDLScreen(softButtons: [SDLSoftButton(id: "a", states: [.init(name: "x")])]))
        #expect(empty?.path == "$.softButtons[0].states[0]")
        #expect(Self.screenError(SDLScreen(template: "MEDIA", softButtons: [Self.button("a"), Self.button("b")])) == nil)
    }

    @Test("Menu: duplicate ids and titles among siblings, too deep, unknown layout, voice commands twice")
    func menu() {
        let child = { (id: String, title: String) in SDLMenuCell(id: id, title: title) }
        let titles = Self.menuError([SDLMenuCell(id: "s", title: "S", children: [child("a", "A"), child("b", "A")])])
        #expect(titles?.code == .duplicateName)
        #expect(titles?.path == "$.menu[0].children[1].title")
        let ids = Self.menuError([child("a", "A"), child("a", "B")])
        #expect(ids?.code == .duplicateID)
        #expect(ids?.path == "$.menu[1].id")
        // The same title on different levels is fine.
        #expect(Self.menuError([SDLMenuCell(id: "s", title: "A", children: [child("a", "A")])]) == nil)
        let deep = [SDLMenuCell(id: "s", title: "S", children: [SDLMenuCell(id: "t", title: "T", children: [child("u", "U")])])]
        let tooDeep = Self.menuError(deep)
        #expect(tooDeep?.code == .tooDeep)
        #expect(tooDeep?.path == "$.menu[0].children[0].children")
        #expect(Self.menuError(deep, maximumDepth: 3) == nil)
        #expect(Self.menuError([child("a", "A")], layout: "TILES")?.path == "$.layout")
        let phrases = Self.menuError([
            SDLMenuCell(id: "a", title: "A", voiceCommands: ["go"]), SDLMenuCell(id: "b", title: "B", voiceCommands: ["go"]),
        ])
        #expect(phrases?.path == "$.menu[1].voiceCommands[0]")
    }

    @Test("Interactions and voice commands: paths of duplicates and missing voice commands")
    func interactions() {
        var choices = SDLChoiceSetManager()
        let vr = SDLInteraction(
            title: "Pick", choices: [SDLChoice(id: "a", text: "A", voiceCommands: ["a"]), SDLChoice(id: "b", text: "B")], mode: .vr)
        #expect(
            throws: SDLManagerError(
                .missingValue, path: "$.choices[1].voiceCommands", "a VR interaction needs voice commands on every choice")
        ) {
            try choices.plan(vr)
        }
        let twice = SDLInteraction(title: "Pick", choices: [SDLChoice(id: "a", text: "A"), SDLChoice(id: "b", text: "A")])
        #expect(throws: SDLManagerError(.duplicateName, path: "$.choices[1].text", "text A is used twice")) { try choices.plan(twice) }
        var menu = SDLMenuManager()
        #expect(throws: SDLManagerError(.duplicateID, path: "$[1].id", "id x is used twice")) {
            try menu.plan(voiceCommands: [
                SDLVoiceCommand(id: "x", voiceCommands: ["one"]), SDLVoiceCommand(id: "x", voiceCommands: ["two"]),
            ])
        }
    }
}
