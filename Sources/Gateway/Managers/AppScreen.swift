import SDLManagers
import SDLProtocol
import Synchronization

/// One app's declared screen and what its head unit accepted (``SDLScreenManager``): lives as
/// long as the app's incarnation, so a deleted app leaves none behind and a re-created one
/// starts with an empty screen. Updates run one at a time (``updates``); the button events read
/// the accepted soft buttons from any thread.
final class AppScreen: Sendable {
    struct State: Sendable {
        var manager = SDLScreenManager()
        /// The screen last declared and carried out; `nil` before the first PUT.
        var declared: SDLScreen?
    }

    let state = Mutex(State())
    /// PUT and PATCH of the screen, one at a time: a PUT that loses a race still ends with the
    /// head unit showing the last accepted state.
    let updates = KeyedSerializer()

    /// The soft button event for a notification of the head unit, by the user's ids.
    func buttonEvent(_ name: String, _ parameters: SDLJSON) -> SDLButtonEvent? {
        let accepted = state.withLock { $0.manager.accepted }
        return SDLButtonEvent.map(notification: name, parameters: parameters, screen: accepted)
    }
}
