import SDLTransport

/// What the gateway keeps about its apps beside their sessions (docs/architecture.md, the app
/// resource): each app's head unit, its incarnation of its id on the ``EventHub``, its files, and
/// who waits for it — the creates waiting for its registration and the deletes waiting for its
/// event pump to end.
///
/// Pure, as ``SDLSessionStateMachine`` is: no I/O, no locks, no clock. Every input returns the
/// ``Action``s its driver, ``GatewayApps``, executes after leaving its lock (resume a waiter with
/// an ``Outcome``). A wait's deadline is the driver's: it cancels the wait (``expire(id:token:)``).
/// `Waiter` is what the driver resumes (a continuation); `Objects` what it keeps per app
/// (the app's managers and audio recorder).
struct GatewayAppRegistry<Waiter: Sendable, Objects: Sendable>: Sendable {
    /// One app.
    struct App: Sendable {
        /// The head unit it was created with.
        var core: SDLTransportAddress
        /// This app's incarnation of its id: the pump of an earlier app with the id settles
        /// none of its waiters and finds none of its objects.
        var incarnation: UInt64
        var objects: Objects
        var files = AppFiles()
        /// Registered once or closed: creates stop waiting.
        var settled = false
        var waiters: [UInt64: Waiter] = [:]
    }

    typealias Outcome = AppWaitOutcome

    enum Action: Sendable {
        case resume(Waiter, Outcome)
    }

    /// How many apps may be held at once (``GatewayApps/Options/maximumApps``).
    let maximumApps: Int
    private(set) var apps: [String: App] = [:]
    /// The event pumps started and not yet ended, by incarnation, with who waits for each to end.
    private var pumps: [UInt64: [Waiter]] = [:]
    private var lastToken: UInt64 = 0

    init(maximumApps: Int) {
        self.maximumApps = maximumApps
    }

    /// Event pumps started and not yet ended.
    var pumpCount: Int { pumps.count }

    /// The current incarnation of app `id`, if there is one.
    func incarnation(of id: String) -> UInt64? { apps[id]?.incarnation }

    /// The objects of app `id` if `incarnation` is still its current one.
    func objects(of id: String, incarnation: UInt64) -> Objects? {
        guard let app = apps[id], app.incarnation == incarnation else { return nil }
        return app.objects
    }

    // MARK: Adding and removing

    /// Refuses one more app when ``maximumApps`` are held, unless `id` names one of them (that
    /// is a duplicate, refused by the session registry).
    func admit(id: String?) throws(GatewayError) {
        if apps.count >= maximumApps, id.map({ apps[$0] == nil }) ?? true {
            throw GatewayError(.tooManyApps, "the gateway holds \(maximumApps) apps already (serve --max-apps); delete one first")
        }
    }

    /// Adds app `id` as `incarnation`, with its event pump running.
    mutating func add(id: String, core: SDLTransportAddress, incarnation: UInt64, objects: Objects) {
        apps[id] = App(core: core, incarnation: incarnation, objects: objects)
        pumps[incarnation] = []
    }

    /// Forgets app `id` if `incarnation` is still its current one: its waiters are resumed
    /// ``Outcome/removed``. Whether it was there.
    mutating func remove(id: String, incarnation: UInt64) -> (removed: Bool, actions: [Action]) {
        guard apps[id]?.incarnation == incarnation, let app = apps.removeValue(forKey: id) else { return (false, []) }
        return (true, app.waiters.values.map { .resume($0, .removed) })
    }

    // MARK: Waiting for a registration

    /// A token for one ``wait(id:token:waiter:expired:)``, to ``expire(id:token:)`` it by.
    mutating func makeToken() -> UInt64 {
        lastToken += 1
        return lastToken
    }

    /// `waiter` waits until app `id` registered or closed. Resumed at once when it did already,
    /// when there is no app `id` (``Outcome/removed``) or when its deadline passed already
    /// (`expired`: the driver's cancellation came before the wait).
    mutating func wait(id: String, token: UInt64, waiter: Waiter, expired: Bool) -> [Action] {
        guard let app = apps[id] else { return [.resume(waiter, .removed)] }
        if app.settled { return [.resume(waiter, .settled)] }
        if expired { return [.resume(waiter, .expired)] }
        apps[id]?.waiters[token] = waiter
        return []
    }

    /// The deadline of wait `token` passed: it is resumed ``Outcome/expired`` if still waiting.
    mutating func expire(id: String, token: UInt64) -> [Action] {
        guard let waiter = apps[id]?.waiters.removeValue(forKey: token) else { return [] }
        return [.resume(waiter, .expired)]
    }

    /// Incarnation `incarnation` of app `id` registered or closed: its waiters are resumed, and
    /// later waits end at once. Nothing for an earlier incarnation.
    mutating func settle(id: String, incarnation: UInt64) -> [Action] {
        guard apps[id]?.incarnation == incarnation, let waiters = apps[id]?.waiters else { return [] }
        apps[id]?.settled = true
        apps[id]?.waiters = [:]
        return waiters.values.map { .resume($0, .settled) }
    }

    // MARK: Event pumps

    /// `waiter` waits until the event pump of `incarnation` ended: at once when it did.
    mutating func waitForPump(_ incarnation: UInt64, waiter: Waiter) -> [Action] {
        guard pumps[incarnation] != nil else { return [.resume(waiter, .pumpEnded)] }
        pumps[incarnation]?.append(waiter)
        return []
    }

    /// The event pump of `incarnation` ended: who waits for it is resumed.
    mutating func pumpEnded(_ incarnation: UInt64) -> [Action] {
        (pumps.removeValue(forKey: incarnation) ?? []).map { .resume($0, .pumpEnded) }
    }

    // MARK: Files

    /// Notes what a file request said about app `id`'s files (``AppFiles/note(added:removed:all:spaceAvailable:)``).
    mutating func noteFiles(_ id: String, added: String? = nil, removed: String? = nil, all: [String]? = nil, spaceAvailable: Int64?) {
        apps[id]?.files.note(added: added, removed: removed, all: all, spaceAvailable: spaceAvailable)
    }
}

/// Why a waiter of ``GatewayAppRegistry`` is resumed.
enum AppWaitOutcome: Sendable, Hashable {
    /// The app registered or its session closed.
    case settled
    /// The app was removed (or was never there).
    case removed
    /// The wait's deadline passed (or its task was cancelled).
    case expired
    /// The event pump waited for ended.
    case pumpEnded
}
