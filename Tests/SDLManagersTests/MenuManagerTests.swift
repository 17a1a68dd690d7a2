import SDLManagers
import SDLProtocol
import Testing

@Suite("Menu manager: dynamic menu updates")
struct MenuManagerTests {
    static let profile = SDLDisplayProfile()

    static func cell(_ id: String, _ title: String, children: [SDLMenuCell] = []) -> SDLMenuCell {
        SDLMenuCell(id: id, title: title, children: children)
    }

    /// A, B (B1, B2), C: cmdID 1, menuID 2, cmdIDs 3, 4, cmdID 5.
    static let tree = [cell("a", "A"), cell("b", "B", children: [cell("b1", "B1"), cell("b2", "B2")]), cell("c", "C")]

    static func apply(_ manager: inout SDLMenuManager, _ cells: [SDLMenuCell], layout: String? = nil) throws -> [String] {
        let update = try manager.plan(SDLMenu(cells: cells, layout: layout), profile: profile, maximumDepth: 3)
        manager.accept(update)
        return update.plan.steps.map(\.description)
    }

    static func loaded() throws -> SDLMenuManager {
        var manager = SDLMenuManager()
        _ = try apply(&manager, tree)
        return manager
    }

    @Test("The first menu adds every cell in tree order, ids counting up, with positions")
    func first() throws {
        var manager = SDLMenuManager()
        #expect(
            try Self.apply(&manager, Self.tree) == [
                #"AddCommand {"cmdID":1,"menuParams":{"menuName":"A","position":0}}"#,
                #"AddSubMenu {"menuID":2,"menuName":"B","position":1}"#,
                #"AddCommand {"cmdID":3,"menuParams":{"menuName":"B1","parentID":2,"position":0}}"#,
                #"AddCommand {"cmdID":4,"menuParams":{"menuName":"B2","parentID":2,"position":1}}"#,
                #"AddCommand {"cmdID":5,"menuParams":{"menuName":"C","position":2}}"#,
            ])
        #expect(try Self.apply(&manager, Self.tree) == [])
    }

    @Test("Changing one cell is exactly one delete and one add, with a new cmdID")
    func oneCell() throws {
        var manager = try Self.loaded()
        var cells = Self.tree
        cells[2].title = "See"
        #expect(
            try Self.apply(&manager, cells) == [
                #"DeleteCommand {"cmdID":5}"#,
                #"AddCommand {"cmdID":6,"menuParams":{"menuName":"See","position":2}}"#,
            ])
    }

    @Test("Changing a cell inside a submenu keeps the submenu: one delete, one add under its menuID")
    func nested() throws {
        var manager = try Self.loaded()
        var cells = Self.tree
        cells[1].children[1].voiceCommands = ["bee two"]
        #expect(
            try Self.apply(&manager, cells) == [
                #"DeleteCommand {"cmdID":4}"#,
                #"AddCommand {"cmdID":6,"menuParams":{"menuName":"B2","parentID":2,"position":1},"vrCommands":["bee two"]}"#,
            ])
    }

    @Test("Changing a submenu's own title deletes it (its children go with it) and adds it whole")
    func submenuTitle() throws {
        var manager = try Self.loaded()
        var cells = Self.tree
        cells[1].title = "Bee"
        #expect(
            try Self.apply(&manager, cells) == [
                #"DeleteSubMenu {"menuID":2}"#,
                #"AddSubMenu {"menuID":6,"menuName":"Bee","position":1}"#,
                #"AddCommand {"cmdID":7,"menuParams":{"menuName":"B1","parentID":6,"position":0}}"#,
                #"AddCommand {"cmdID":8,"menuParams":{"menuName":"B2","parentID":6,"position":1}}"#,
            ])
    }

    @Test("Reordering moves the fewest cells: C to the front is one delete and one add at position 0")
    func reorder() throws {
        var manager = try Self.loaded()
        #expect(
            try Self.apply(&manager, [Self.tree[2], Self.tree[0], Self.tree[1]]) == [
                #"DeleteCommand {"cmdID":5}"#,
                #"AddCommand {"cmdID":6,"menuParams":{"menuName":"C","position":0}}"#,
            ])
        #expect(manager.accepted.entries.map(\.id) == ["c", "a", "b"])
    }

    @Test("Inserting and removing: the removed cell is deleted, the new one added at its index")
    func insertRemove() throws {
        var manager = try Self.loaded()
        #expect(
            try Self.apply(&manager, [Self.tree[0], Self.cell("n", "New"), Self.tree[2]]) == [
                #"DeleteSubMenu {"menuID":2}"#,
                #"AddCommand {"cmdID":6,"menuParams":{"menuName":"New","position":1}}"#,
            ])
    }

    @Test("Icons are ensured before the add that uses them; a layout sets the main menu and submenus")
    func iconsAndLayout() throws {
        var manager = SDLMenuManager()
        let cells = [
            SDLMenuCell(id: "s", title: "Settings", icon: "gear.png", children: [SDLMenuCell(id: "w", title: "Wi-Fi", icon: "0x29")])
        ]
        #expect(
            try Self.apply(&manager, cells, layout: "TILES") == [
                #"SetGlobalProperties {"menuLayout":"TILES"}"#,
                "ensureFile gear.png",
                #"AddSubMenu {"menuID":1,"menuIcon":{"imageType":"DYNAMIC","value":"gear.png"},"menuLayout":"TILES","menuName":"Settings","position":0}"#,
                #"AddCommand {"cmdID":2,"cmdIcon":{"imageType":"STATIC","isTemplate":true,"value":"0x29"},"menuParams":{"menuName":"Wi-Fi","parentID":1,"position":0}}"#,
            ])
    }

    @Test("OnCommand maps to the user's id and path; a new user id for the same content costs no RPC")
    func selection() throws {
        var manager = try Self.loaded()
        #expect(
            manager.selection(onCommand: ["cmdID": 3, "triggerSource": "VR"])
                == SDLMenuSelection(id: "b1", path: ["b", "b1"], trigger: "VR"))
        #expect(manager.selection(onCommand: ["cmdID": 2, "triggerSource": "MENU"]) == nil)
        var cells = Self.tree
        cells[1].children[0].id = "first"
        #expect(try Self.apply(&manager, cells) == [])
        #expect(
            manager.selection(onCommand: ["cmdID": 3, "triggerSource": "MENU"])?.json == [
                "id": "first", "path": ["b", "first"], "trigger": "MENU",
            ])
    }

    @Test("Ids are never reused: removing and re-adding the same cell takes a new cmdID")
    func neverReused() throws {
        var manager = try Self.loaded()
        _ = try Self.apply(&manager, [Self.tree[0], Self.tree[1]])
        #expect(try Self.apply(&manager, Self.tree) == [#"AddCommand {"cmdID":6,"menuParams":{"menuName":"C","position":2}}"#])
        #expect(manager.selection(onCommand: ["cmdID": 5, "triggerSource": "MENU"]) == nil)
    }

    @Test("Top-level voice commands: unchanged ones stay, changed ones are deleted and added")
    func voiceCommands() throws {
        var manager = try Self.loaded()
        let first = try manager.plan(voiceCommands: [
            SDLVoiceCommand(id: "home", voiceCommands: ["home"]), SDLVoiceCommand(id: "stop", voiceCommands: ["stop"]),
        ])
        manager.accept(first)
        #expect(
            first.plan.steps.map(\.description) == [
                #"AddCommand {"cmdID":6,"vrCommands":["home"]}"#, #"AddCommand {"cmdID":7,"vrCommands":["stop"]}"#,
            ])
        let second = try manager.plan(voiceCommands: [
            SDLVoiceCommand(id: "home", voiceCommands: ["home"]), SDLVoiceCommand(id: "halt", voiceCommands: ["halt"]),
        ])
        manager.accept(second)
        #expect(second.plan.steps.map(\.description) == [#"DeleteCommand {"cmdID":7}"#, #"AddCommand {"cmdID":8,"vrCommands":["halt"]}"#])
        #expect(
            manager.selection(onCommand: ["cmdID": 8, "triggerSource": "VR"]) == SDLMenuSelection(id: "halt", path: ["halt"], trigger: "VR")
        )
        // The menu is untouched by voice command plans.
        #expect(manager.accepted.entries.count == 3)
    }
}
