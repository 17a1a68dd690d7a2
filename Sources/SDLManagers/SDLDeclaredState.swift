/// Everything the user declared for one app: what resumption puts back.
public struct SDLDeclaredState: Sendable, Hashable {
    public var screen: SDLScreen?
    public var media: SDLMedia?
    public var menu: SDLMenu?
    public var voiceCommands: [SDLVoiceCommand]

    public init(screen: SDLScreen? = nil, media: SDLMedia? = nil, menu: SDLMenu? = nil, voiceCommands: [SDLVoiceCommand] = []) {
        self.screen = screen
        self.media = media
        self.menu = menu
        self.voiceCommands = voiceCommands
    }
}
