/// An HMI level of the app's main window (MOBILE_API.xml `HMILevel`; SDL-PROTOCOL.md §h).
public enum SDLHMILevel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case full = "FULL"
    case limited = "LIMITED"
    case background = "BACKGROUND"
    case none = "NONE"

    public var description: String { rawValue }
}

/// The high-level app state of SDL proposal SDL-0156 ("High level interface: Foundation"), as the
/// app resource publishes it (ARCHITECTURE.md, Events): the HMI level of the main window folded
/// together with the link.
///
/// | HMI level / link        | appState      |
/// |-------------------------|---------------|
/// | FULL                    | `active`      |
/// | LIMITED                 | `limited`     |
/// | BACKGROUND              | `background`  |
/// | NONE (registered)       | `notRunning`  |
/// | link down, unregistered | `disconnected`|
///
/// Every ordered pair of distinct states is a legal transition (20 rows): the head unit may move
/// the app between any two HMI levels with one OnHMIStatus, a (resumed) registration may put the
/// app straight into any level, and the link can drop from any state. ``SDLAppStateTracker``
/// reports each change once as ``SDLAppEvent/appState(from:to:)``; a notification that keeps
/// the state reports nothing.
public enum SDLAppState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case active
    case limited
    case background
    case notRunning
    case disconnected

    /// The state of a registered app whose main window is at `level`.
    public init(hmiLevel level: SDLHMILevel) {
        switch level {
        case .full: self = .active
        case .limited: self = .limited
        case .background: self = .background
        case .none: self = .notRunning
        }
    }

    /// The HMI level this state stands for; `nil` for ``disconnected``.
    public var hmiLevel: SDLHMILevel? {
        switch self {
        case .active: .full
        case .limited: .limited
        case .background: .background
        case .notRunning: SDLHMILevel.none
        case .disconnected: nil
        }
    }

    public var description: String { rawValue }
}
