import SDLManagers
import SDLProtocol
import Synchronization

/// One app's declared state and what its head unit accepted (the managers of `SDLManagers`):
/// lives as long as the app's incarnation, so a deleted app leaves none behind and a re-created
/// one starts empty. Updates of one resource run one at a time (``updates``, keyed `screen`,
/// `menu`, `interaction` and `alert`; the menu and the voice commands share one key because they
/// share one id counter);
/// the event pump reads the accepted state from any thread.
final class AppManagers: Sendable {
    struct State: Sendable {
        var screen = SDLScreenManager()
        /// The screen last declared and carried out; `nil` before the first PUT.
        var declaredScreen: SDLScreen?
        var media = SDLMediaManager()
        /// The media state last declared and carried out (its text and artwork are Show fields).
        var declaredMedia: SDLMedia?
        var menu = SDLMenuManager()
        var declaredMenu: SDLMenu?
        var declaredVoiceCommands: [SDLVoiceCommand]?
        /// The choice sets and keyboard properties the head unit has.
        var choiceSets = SDLChoiceSetManager()
        var alerts = SDLAlertManager()
        /// The interaction and the alert the head unit shows now, while their requests wait:
        /// what the control APIs read the user's choice and button ids from (``SDLDeclaredIDs``).
        var openInteraction: SDLPendingInteraction?
        var openAlert: SDLPendingAlert?
    }

    let state = Mutex(State())
    /// One update of a resource at a time: a PUT that loses a race still ends with the head unit
    /// showing the last accepted state.
    let updates = KeyedSerializer()

    /// The events the managers derive from a notification of the head unit, by the user's ids:
    /// `softButton`/`mediaButton` from button notifications, `menuSelection` from OnCommand.
    /// Other notifications (vehicle data at 10 Hz …) return at once, without the lock.
    func events(_ name: String, _ parameters: SDLJSON) -> [(type: String, data: SDLJSON)] {
        switch name {
        case "OnCommand":
            let selection = state.withLock { $0.menu.selection(onCommand: parameters) }
            return selection.map { [("menuSelection", $0.json)] } ?? []
        case "OnButtonPress", "OnButtonEvent":
            let screen = state.withLock { $0.screen.accepted }
            return SDLButtonEvent.map(notification: name, parameters: parameters, screen: screen).map { [$0.json] } ?? []
        default:
            return []
        }
    }
}
