/// A declared top-level voice command (the `voice-commands` resource): an AddCommand with
/// `vrCommands` and no `menuParams`, reported by its user id when spoken.
public struct SDLVoiceCommand: Sendable, Hashable, Codable {
    public var id: String
    public var voiceCommands: [String]

    public init(id: String, voiceCommands: [String]) {
        self.id = id
        self.voiceCommands = voiceCommands
    }
}
