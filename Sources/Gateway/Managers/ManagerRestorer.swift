import SDLClient
import SDLManagers
import SDLProtocol
import Synchronization

/// Puts an app's declared screen, media state, menu and voice commands back after the head unit
/// lost them (docs/protocol.md §k): after RESUME_FAILED or a registration with nothing to resume
/// (a head unit restarted without its resumption data), everything; after a successful
/// resumption, what SDL does not resume (the Show, the template, the media clock). Images come
/// first, from what the head unit still has or the gateway's image store.
///
/// It runs beside the app's event pump, holding the app's `screen` and `menu` updates, so a PUT
/// made meanwhile waits and then plans against what was put back. Its outcome is a `connection`
/// event: `restored` (with what was sent) or `restoreFailed` (with why; the next registration
/// tries again, and the next PUT of a resource sends it whole).
struct ManagerRestorer: Sendable {
    let apps: GatewayApps

    /// Registrations waiting for a restore, and whether a restore runs: the first registration
    /// starts one (``registered(resumed:)`` says so), and those that come while it runs are
    /// taken by it in one more pass, remembering whether every one of them resumed (one that did
    /// not makes the restore whole). No task waits between registrations: a task keeps the stack
    /// it grew while it lives, and an app lives long (heaptrack, issue "Performance").
    final class Requests: Sendable {
        private struct State {
            var pending: Bool?
            var running = false
            var finished = false
        }

        private let state = Mutex(State())

        /// Notes a registration; true when no restore runs, and the caller starts one
        /// (``ManagerRestorer/run(app:managers:requests:publish:)``).
        func registered(resumed: Bool) -> Bool {
            state.withLock { state in
                state.pending = (state.pending ?? true) && resumed
                guard !state.running, !state.finished else { return false }
                state.running = true
                return true
            }
        }

        /// Whether the registrations since the last call all resumed; `nil` when none came (or
        /// the app ended), and then the restore that asked ends.
        func next() -> Bool? {
            state.withLock { state in
                guard let pending = state.pending, !state.finished else {
                    state.running = false
                    return nil
                }
                state.pending = nil
                return pending
            }
        }

        /// The app ended: a restore under way is the last.
        func finish() { state.withLock { $0.finished = true } }
    }

    /// Restores for the registrations `requests` holds, and for those that come meanwhile.
    func run(app id: String, managers: AppManagers, requests: Requests, publish: (SDLJSON) -> Void) async {
        while let resumed = requests.next() {
            if let event = await restore(app: id, managers: managers, headUnitResumed: resumed) { publish(event) }
        }
    }

    /// The `connection` event data of one restore; `nil` when nothing is declared.
    func restore(app id: String, managers: AppManagers, headUnitResumed: Bool) async -> SDLJSON? {
        guard managers.state.withLock({ Self.declared($0) }) != SDLDeclaredState() else { return nil }
        do {
            let sent = try await managers.updates.run("screen") { () async throws(GatewayError) -> Int in
                try await managers.updates.run("menu") { () async throws(GatewayError) -> Int in
                    try await restoreHoldingUpdates(app: id, managers: managers, headUnitResumed: headUnitResumed)
                }
            }
            let what =
                headUnitResumed
                ? "the screen and media state (the head unit resumed the rest)" : "the screen, media state, menu and voice commands"
            return ["state": "restored", "detail": .string("put back \(what): \(sent) RPCs"), "sent": .int(Int64(sent))]
        } catch {
            return ["state": "restoreFailed", "detail": .string(error.detail)]
        }
    }

    /// The number of RPCs sent.
    private func restoreHoldingUpdates(app id: String, managers: AppManagers, headUnitResumed: Bool) async throws(GatewayError) -> Int {
        let runner = ManagerPlanRunner(apps: apps)
        let profile = try runner.profile(app: id)
        var all = SDLManagers()
        let declared = managers.state.withLock { state in
            (all.screen, all.media, all.menu, all.choiceSets) = (state.screen, state.media, state.menu, state.choiceSets)
            return Self.declared(state)
        }
        let resumption: SDLResumption
        do throws(SDLManagerError) {
            resumption = try all.resumptionPlan(
                declared, profile: profile, maximumMenuDepth: MenuRoutes.maximumDepth(profile), headUnitResumed: headUnitResumed)
        } catch {
            throw GatewayError(error)
        }
        do {
            let uploads = try await runner.knownFiles(app: id, needing: resumption.plan.files.map { (file: $0, field: "a declared image") })
                .sent
            let sent = try await uploads + runner.run(resumption.plan, app: id)
            all.accept(resumption)
            store(all, in: managers)
            return sent.count
        } catch {
            // The head unit has part of it at most: the next update plans from nothing.
            store(all, in: managers)
            throw error
        }
    }

    private func store(_ all: SDLManagers, in managers: AppManagers) {
        managers.state.withLock { state in
            (state.screen, state.media, state.menu, state.choiceSets) = (all.screen, all.media, all.menu, all.choiceSets)
        }
    }

    static func declared(_ state: AppManagers.State) -> SDLDeclaredState {
        SDLDeclaredState(
            screen: state.declaredScreen, media: state.declaredMedia, menu: state.declaredMenu,
            voiceCommands: state.declaredVoiceCommands ?? [])
    }
}
