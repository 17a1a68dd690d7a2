/// Something a plan does that the user should know about, without refusing the request: text
/// longer than the display field it lands in (it is sent whole, never truncated here; the head
/// unit may cut or scroll it), or a declared field the display cannot show.
public struct SDLPlanWarning: Sendable, Hashable, CustomStringConvertible {
    /// The kind of warning. Raw values are stable.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The text is longer than the `width` of the window capability's text field.
        case textTooLong
        /// The display has no such field (e.g. no `mediaTrack`, no `templateTitle`); sent anyway.
        case fieldNotOnDisplay
    }

    public var kind: Kind
    /// The JSON path of the declared value, e.g. `$.textFields[2]` (the first of joined fields).
    public var path: String
    /// The Show parameter the text lands in, e.g. `mainField1`.
    public var field: String
    public var message: String

    public init(kind: Kind, path: String, field: String, message: String) {
        self.kind = kind
        self.path = path
        self.field = field
        self.message = message
    }

    public var description: String { "\(path) (\(field)): \(message)" }
}
