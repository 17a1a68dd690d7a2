import SDLManagers
import Synchronization

/// What the control APIs under `serve` (the simulator's, the headless HMI's) need of the gateway
/// to take its names: which apps register with an SDL appID, and the numbers their declared
/// menu entries, choices and soft buttons have on the head unit (``SDLDeclaredIDs``).
extension GatewayApps {
    /// The ids of the gateway's apps that register with `wanted` (their ``sdlAppID(ofApp:)``,
    /// compared case-insensitively as SDL appIDs are), sorted.
    public func apps(withSDLAppID wanted: String) -> [String] {
        let key = wanted.lowercased()
        return ids.filter { sdlAppID(ofApp: $0)?.lowercased() == key }.sorted()
    }

    /// The numbers app `id`'s head unit knows its declared ids by: the accepted menu and voice
    /// commands, the screen's soft buttons, and the interaction and alert open now; nil when
    /// there is no such app.
    public func declaredIDs(ofApp id: String) -> SDLDeclaredIDs? {
        guard let managers = try? managers(id) else { return nil }
        return managers.state.withLock { state in
            SDLDeclaredIDs(
                menu: state.menu.accepted, screen: state.screen.accepted, interaction: state.openInteraction, alert: state.openAlert)
        }
    }
}
