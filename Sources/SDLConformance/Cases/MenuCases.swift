import SDLClient
import SDLProtocol

/// The app's menu: AddCommand, AddSubMenu, DeleteCommand, a duplicate id, and a command the
/// driver picks (MOBILE_API.xml 8.0.0). Each case adds ids of its own, so any one runs alone.
enum MenuCases {
    static let all = [addCommand, subMenu, duplicate, deleteCommand, onCommand]

    /// AddCommand with menu parameters and voice commands: SUCCESS.
    static let addCommand = ConformanceCase("menu.addcommand", "AddCommand with menu and voice") { context in
        try await context.activate()
        try await context.request(
            "AddCommand", ["cmdID": 1001, "menuParams": ["menuName": "Check one", "position": 0], "vrCommands": ["Check one"]])
        try await context.request("DeleteCommand", ["cmdID": 1001])
    }

    /// AddSubMenu, then AddCommand inside it: SUCCESS; DeleteSubMenu removes both.
    static let subMenu = ConformanceCase("menu.submenu", "AddSubMenu and a command in it") { context in
        try await context.activate()
        try await context.request("AddSubMenu", ["menuID": 2001, "menuName": "Check menu", "position": 1])
        try await context.request("AddCommand", ["cmdID": 1002, "menuParams": ["parentID": 2001, "menuName": "Inside"]])
        try await context.request("DeleteSubMenu", ["menuID": 2001])
    }

    /// The same cmdID twice: the second AddCommand is INVALID_ID.
    static let duplicate = ConformanceCase("menu.duplicate", "AddCommand with a used cmdID: INVALID_ID") { context in
        try await context.activate()
        try await context.request("AddCommand", ["cmdID": 1003, "menuParams": ["menuName": "Once"]])
        try await context.request("AddCommand", ["cmdID": 1003, "menuParams": ["menuName": "Twice"]], expect: ["INVALID_ID"])
        try await context.request("DeleteCommand", ["cmdID": 1003])
    }

    /// DeleteCommand of a command: SUCCESS; of the same command again: INVALID_ID.
    static let deleteCommand = ConformanceCase("menu.deletecommand", "DeleteCommand, then of an unknown cmdID: INVALID_ID") { context in
        try await context.activate()
        try await context.request("AddCommand", ["cmdID": 1004, "menuParams": ["menuName": "Going"]])
        try await context.request("DeleteCommand", ["cmdID": 1004])
        try await context.request("DeleteCommand", ["cmdID": 1004], expect: ["INVALID_ID"])
    }

    /// The driver picks a command from the menu: OnCommand with its cmdID and `triggerSource` MENU.
    static let onCommand = ConformanceCase("menu.oncommand", "the driver picks a command: OnCommand", needsDriver: true) { context in
        let driver = try context.requireDriver()
        try await context.activate()
        try await context.request("AddCommand", ["cmdID": 1005, "menuParams": ["menuName": "Pick me"]])
        let mark = try await context.mark()
        try await context.act { try await driver.triggerCommand(1005, appID: context.app.appID, voice: false) }
        let command = try await context.notification("OnCommand", after: mark, describing: "OnCommand 1005") {
            $0["cmdID"]?.intValue == 1005
        }
        try context.expect("OnCommand triggerSource", command["triggerSource"]?.stringValue, equals: "MENU")
        try await context.request("DeleteCommand", ["cmdID": 1005])
    }
}
