import SDLManagers
import SDLProtocol
import Testing

/// ``SDLDeclaredIDs``: the numbers behind an app's declared ids, for the control APIs.
@Suite("Declared ids")
struct DeclaredIDsTests {
    static func entry(_ id: String, _ sdlID: Int, children: [SDLMenuEntry] = []) -> SDLMenuEntry {
        SDLMenuEntry(
            id: id, title: id.uppercased(), icon: nil, voiceCommands: [], isSubmenu: !children.isEmpty, layout: nil, sdlID: sdlID,
            children: children)
    }

    @Test(
        "Menu commands at every level and voice commands by cmdID (submenus are not commands); choices and buttons of what is open; the alert's buttons before the screen's"
    )
    func numbers() {
        let menu = SDLMenuState(
            entries: [Self.entry("a", 1), Self.entry("b", 2, children: [Self.entry("b1", 3), Self.entry("b2", 4)])], layout: nil,
            voiceCommands: [
                SDLVoiceCommandEntry(command: SDLVoiceCommand(id: "home", voiceCommands: ["go home"]), cmdID: 5),
                SDLVoiceCommandEntry(command: SDLVoiceCommand(id: "a", voiceCommands: ["ay"]), cmdID: 6),
            ]
        )
        let screen = SDLScreenState(
            fields: [:], template: nil,
            softButtons: [1: SDLSoftButtonReference(id: "play", state: "play"), 2: SDLSoftButtonReference(id: "ok", state: "ok")])
        let declared = SDLDeclaredIDs(
            menu: menu, screen: screen, interaction: SDLPendingInteraction(cancelID: 1, choices: [101: "fm1", 102: "fm2"]),
            alert: SDLPendingAlert(functionName: "Alert", cancelID: 2, buttons: [32768: "ok"])
        )
        #expect(declared.numbers(of: "b2", .command) == [4])
        #expect(declared.numbers(of: "b", .command) == [])
        #expect(declared.numbers(of: "home", .command) == [5])
        #expect(declared.numbers(of: "a", .command) == [1, 6], "a menu entry and a voice command of one name: ambiguous")
        #expect(declared.names(.command) == ["a", "b1", "b2", "home"])
        #expect(declared.numbers(of: "fm2", .choice) == [102])
        #expect(declared.numbers(of: "ok", .softButton) == [32768])
        #expect(declared.numbers(of: "play", .softButton) == [1])
        #expect(declared.names(.softButton) == ["ok", "play"])
        let closed = SDLDeclaredIDs(menu: menu, screen: screen, interaction: nil, alert: nil)
        #expect(closed.numbers(of: "fm2", .choice) == [] && closed.numbers(of: "ok", .softButton) == [2])
    }
}
