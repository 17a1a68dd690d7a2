/// A declared soft button: the user's id, its named states and the one shown now. The manager
/// allocates the `softButtonID` the head unit sees (``SDLSoftButtonIDTable``).
public struct SDLSoftButton: Sendable, Hashable, Codable {
    /// One look of the button: a text, an image or both (`SoftButton.type` TEXT, IMAGE, BOTH).
    public struct State: Sendable, Hashable, Codable {
        public var name: String
        public var text: String?
        public var image: String?

        public init(name: String, text: String? = nil, image: String? = nil) {
            self.name = name
            self.text = text
            self.image = image
        }
    }

    public var id: String
    public var states: [State]
    /// The name of the state shown; the first state when absent.
    public var state: String?

    public init(id: String, states: [State], state: String? = nil) {
        self.id = id
        self.states = states
        self.state = state
    }

    /// The state shown: the one named ``state``, or the first.
    public var currentState: State? {
        guard let state else { return states.first }
        return states.first { $0.name == state }
    }
}
