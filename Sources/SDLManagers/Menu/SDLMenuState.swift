/// The menu and voice commands the head unit has from the app, as last accepted.
public struct SDLMenuState: Sendable, Hashable {
    /// The top level of the menu, in order.
    public var entries: [SDLMenuEntry]
    /// The main menu's layout, as last set with SetGlobalProperties.
    public var layout: String?
    public var voiceCommands: [SDLVoiceCommandEntry]

    public static let empty = SDLMenuState(entries: [], layout: nil, voiceCommands: [])

    public init(entries: [SDLMenuEntry], layout: String?, voiceCommands: [SDLVoiceCommandEntry]) {
        self.entries = entries
        self.layout = layout
        self.voiceCommands = voiceCommands
    }

    /// The user id and path of the command added with `cmdID`: a menu command or a voice command.
    public func target(ofCommand cmdID: Int) -> (id: String, path: [String])? {
        func search(_ entries: [SDLMenuEntry], _ prefix: [String]) -> (String, [String])? {
            for entry in entries {
                if !entry.isSubmenu, entry.sdlID == cmdID { return (entry.id, prefix + [entry.id]) }
                if entry.isSubmenu, let found = search(entry.children, prefix + [entry.id]) { return found }
            }
            return nil
        }
        if let found = search(entries, []) { return found }
        return voiceCommands.first { $0.cmdID == cmdID }.map { ($0.command.id, [$0.command.id]) }
    }
}
