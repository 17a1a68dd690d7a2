/// A declared menu cell: a command, or a submenu when it has children.
public struct SDLMenuCell: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    /// An image name (see ``SDLImageName``).
    public var icon: String?
    public var voiceCommands: [String]
    public var children: [SDLMenuCell]

    public init(id: String, title: String, icon: String? = nil, voiceCommands: [String] = [], children: [SDLMenuCell] = []) {
        self.id = id
        self.title = title
        self.icon = icon
        self.voiceCommands = voiceCommands
        self.children = children
    }

    private enum CodingKeys: String, CodingKey { case id, title, icon, voiceCommands, children }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        voiceCommands = try container.decodeIfPresent([String].self, forKey: .voiceCommands) ?? []
        children = try container.decodeIfPresent([SDLMenuCell].self, forKey: .children) ?? []
    }

    /// A submenu (AddSubMenu) rather than a command (AddCommand).
    public var isSubmenu: Bool { !children.isEmpty }
}
