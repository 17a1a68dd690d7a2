/// An HMI level of the app's main window (MOBILE_API.xml `HMILevel`; docs/protocol.md §h).
public enum SDLHMILevel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case full = "FULL"
    case limited = "LIMITED"
    case background = "BACKGROUND"
    case none = "NONE"

    public var description: String { rawValue }
}

/// The high-level app state of SDL proposal SDL-0156 ("High level interface: Foundation",
/// `SDLApplicationState`), as the app resource publishes it (docs/architecture.md, Events): the HMI
/// level of the main window folded together with the link.
///
/// | HMI level / link        | appState      |
/// |-------------------------|---------------|
/// | FULL                    | `active`      |
/// | LIMITED                 | `limited`     |
/// | BACKGROUND              | `background`  |
/// | NONE (registered)       | `notRunning`  |
/// | link down, unregistered | `disconnected`|
///
/// The proposal's transition table has a row for every ordered pair of distinct states (20
/// rows): the head unit may move the app between any two HMI levels with one OnHMIStatus, a
/// (resumed) registration may put the app straight into any level, and the link can drop from
/// any state. Each row names the `SDLApplicationDelegate` calls it makes, see
/// ``lifecycleCalls(from:to:)``. ``SDLAppStateTracker`` reports each change once as
/// ``SDLAppEvent/appState(from:to:)``; a notification that keeps the state reports nothing.
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

/// The `SDLApplicationDelegate` calls of SDL-0156 ("SDLApplicationDelegate", "Transition table"),
/// named as the gateway's `appState` events list them.
public enum SDLAppLifecycleCall: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case didConnect
    case didFinishLaunching
    case didBecomeActive
    case didBecomeLimited
    case didEnterBackground
    case didClose
    case didDisconnect

    public var description: String { rawValue }
}

extension SDLAppState {
    /// The delegate calls of one row of SDL-0156's transition table, in order:
    ///
    /// | from → to   | disconnected  | notRunning   | background                                      | limited                                       | active                                       |
    /// |--------------|---------------|--------------|-------------------------------------------------|-----------------------------------------------|----------------------------------------------|
    /// | disconnected | –             | didConnect   | didConnect, didFinishLaunching, didEnterBackground | didConnect, didFinishLaunching, didBecomeLimited | didConnect, didFinishLaunching, didBecomeActive |
    /// | notRunning   | didDisconnect | –            | didFinishLaunching, didEnterBackground          | didFinishLaunching, didBecomeLimited          | didFinishLaunching, didBecomeActive          |
    /// | background   | didDisconnect | didClose     | –                                               | didBecomeLimited                              | didBecomeActive                              |
    /// | limited      | didDisconnect | didClose     | didEnterBackground                              | –                                             | didBecomeActive                              |
    /// | active       | didDisconnect | didClose     | didEnterBackground                              | didBecomeLimited                              | –                                            |
    ///
    /// Empty when `from == to`.
    public static func lifecycleCalls(from: SDLAppState, to: SDLAppState) -> [SDLAppLifecycleCall] {
        guard from != to else { return [] }
        switch to {
        case .disconnected:
            return [.didDisconnect]
        case .notRunning:
            return from == .disconnected ? [.didConnect] : [.didClose]
        case .background, .limited, .active:
            var calls: [SDLAppLifecycleCall] = []
            if from == .disconnected { calls.append(.didConnect) }
            if from == .disconnected || from == .notRunning { calls.append(.didFinishLaunching) }
            switch to {
            case .background: calls.append(.didEnterBackground)
            case .limited: calls.append(.didBecomeLimited)
            default: calls.append(.didBecomeActive)
            }
            return calls
        }
    }
}
