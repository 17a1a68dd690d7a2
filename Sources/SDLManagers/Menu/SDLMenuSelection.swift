import SDLProtocol

/// An OnCommand by the user's ids: the `menuSelection` event `{"id", "path", "trigger"}`.
public struct SDLMenuSelection: Sendable, Hashable, Codable {
    /// The selected cell's (or voice command's) user id.
    public var id: String
    /// The user ids from the top level down to the cell, the cell included.
    public var path: [String]
    /// OnCommand `triggerSource`: MENU, VR or KEYBOARD (MOBILE_API.xml `TriggerSource`).
    public var trigger: String

    public init(id: String, path: [String], trigger: String) {
        self.id = id
        self.path = path
        self.trigger = trigger
    }

    /// The event's JSON.
    public var json: SDLJSON {
        ["id": .string(id), "path": .array(path.map { .string($0) }), "trigger": .string(trigger)]
    }
}
