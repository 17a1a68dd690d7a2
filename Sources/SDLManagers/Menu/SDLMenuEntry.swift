/// A menu cell as the head unit has it: the cell's own content, the `cmdID` (command) or
/// `menuID` (submenu) it was added with, and, for a submenu, its children.
public struct SDLMenuEntry: Sendable, Hashable {
    public var id: String
    public var title: String
    public var icon: String?
    public var voiceCommands: [String]
    public var isSubmenu: Bool
    /// The submenu's `menuLayout`, as sent; `nil` for commands and heads before RPC spec 6.0.
    public var layout: String?
    /// The `cmdID` of a command, the `menuID` of a submenu.
    public var sdlID: Int
    public var children: [SDLMenuEntry]

    public init(
        id: String, title: String, icon: String?, voiceCommands: [String], isSubmenu: Bool, layout: String?, sdlID: Int,
        children: [SDLMenuEntry]
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.voiceCommands = voiceCommands
        self.isSubmenu = isSubmenu
        self.layout = layout
        self.sdlID = sdlID
        self.children = children
    }

    /// Whether `cell` can stay as this entry: same title, icon, voice commands, kind and layout
    /// (children are compared level by level, the user id may change without an RPC).
    func hasSameContent(as cell: SDLMenuCell, layout cellLayout: String?) -> Bool {
        title == cell.title && icon == cell.icon && voiceCommands == cell.voiceCommands && isSubmenu == cell.isSubmenu
            && (!isSubmenu || layout == cellLayout)
    }
}

/// A top-level voice command as the head unit has it.
public struct SDLVoiceCommandEntry: Sendable, Hashable {
    public var command: SDLVoiceCommand
    public var cmdID: Int

    public init(command: SDLVoiceCommand, cmdID: Int) {
        self.command = command
        self.cmdID = cmdID
    }
}
