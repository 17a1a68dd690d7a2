import Foundation
import Logging
import Metrics
import NIOCore
import NIOPosix
import SDLClient
import SDLManagers
import SDLProtocol
import SDLSpec
import SDLTransport
import ServiceLifecycle
import Synchronization

/// The gateway's apps: an ``SDLAppRegistry`` of sessions, the events they publish on the
/// ``EventHub`` and what the HTTP API shows of each (docs/architecture.md, the app resource).
///
/// A `Service`: ``run()`` runs the registry and one event pump per app; graceful shutdown ends
/// the event streams, then unregisters every app (UnregisterAppInterface, EndService).
public final class GatewayApps: Service, Sendable {
    /// How many events may wait between a session and its event pump: with the sessions' reads
    /// paused at half of it, one 64 KiB read of the smallest notifications (two events each)
    /// still fits.
    static let sessionEventBufferLimit = 10_000

    /// The event loop every head-unit link runs on, apart from the loops of the HTTP and
    /// WebSocket clients. NIO runs a loop's queued work until none is left before it reads its
    /// sockets again; during a burst the clients' writers keep queueing work on their loops, and
    /// a head-unit link sharing one was not read for seconds, until its heartbeat declared the
    /// head unit lost (issue "Reliability", the notification burst). One thread carries the
    /// SDL traffic of every session with room to spare: it is small beside the clients' traffic.
    static let headUnitEventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    public struct Options: Sendable {
        /// The head unit of apps created without `core`.
        public var defaultCore: SDLTransportAddress
        /// Other head units an app may name as its `core` (the default one always may): the
        /// gateway never connects where its operator did not say, whatever a client asks.
        public var allowedCores: [SDLTransportAddress]
        public var catalog: SDLCatalog
        /// How long `POST /v1/apps` waits for the registration (default 10 s).
        public var registrationWait: Duration
        public var backoff: SDLBackoff
        /// How long shutdown waits for the apps to unregister.
        public var shutdownGracePeriod: Duration
        /// Where each app session's SDL bytes are recorded (`serve --record DIR`); `nil`, the
        /// default, records nothing.
        public var recording: GatewayRecording?
        /// The request limits each app's session keeps to: 90 % of SDL Core's (its
        /// `AppTimeScaleMaxRequests`, `serve --core-request-limit`), so that Core never
        /// unregisters an app for flooding it.
        public var rateLimits: SDLRequestRateLimiter.Configuration
        /// The interval of the gateway's own Heartbeats on every session of version 3–5
        /// (docs/protocol.md §d: Core answers them on v3–v5 and, once an app sends one, watches it
        /// for silence too). A head unit that answers nothing for three intervals, its socket open,
        /// is declared lost and the session reconnects. nil: Heartbeats on v3 only, as the app
        /// libraries send them; a hung head unit is then found only by request deadlines.
        public var heartbeat: Duration?
        /// How many apps the gateway holds at once (default 250, about SDL Core's limit of
        /// sessions): each costs a session, its buffers and its event ring, so a caller with a
        /// control token cannot grow the gateway without bound. One more is refused
        /// 503 `too-many-apps`.
        public var maximumApps: Int
        public static let defaultMaximumApps = 250
        /// 5 s: Core's `HeartBeatTimeout` default (5000 ms), below its shipped 7000 ms.
        public static let defaultHeartbeat: Duration = .seconds(5)

        public init(
            defaultCore: SDLTransportAddress = SDLTransportAddress.tcp(host: "127.0.0.1", port: 12345),
            catalog: SDLCatalog = .builtIn,
            registrationWait: Duration = .seconds(10),
            backoff: SDLBackoff = SDLBackoff(),
            shutdownGracePeriod: Duration = .seconds(4),
            allowedCores: [SDLTransportAddress] = [],
            recording: GatewayRecording? = nil,
            rateLimits: SDLRequestRateLimiter.Configuration = .default,
            heartbeat: Duration? = Options.defaultHeartbeat,
            maximumApps: Int = Options.defaultMaximumApps
        ) {
            self.heartbeat = heartbeat
            self.maximumApps = maximumApps
            self.recording = recording
            self.rateLimits = rateLimits
            self.defaultCore = defaultCore
            self.allowedCores = allowedCores
            self.catalog = catalog
            self.registrationWait = registrationWait
            self.backoff = backoff
            self.shutdownGracePeriod = shutdownGracePeriod
        }

        /// Whether an app may use the head unit at `core` (scheme, host and port; any path).
        public func allows(_ core: SDLTransportAddress) -> Bool {
            ([defaultCore] + allowedCores).contains { $0.scheme == core.scheme && $0.host.lowercased() == core.host.lowercased() && $0.port == core.port }
        }
    }

    /// What the gateway knows about an app beyond its session.
    private struct AppInfo: Sendable {
        var core: SDLTransportAddress
        /// This app's incarnation of its id on the hub (``EventHub/openApp(_:)``): the pump of an
        /// earlier app with the id publishes nothing into it and settles none of its waiters.
        var incarnation: UInt64
        var files: Set<String> = []
        var spaceAvailable: Int64?
        /// The declared screen, menu and voice commands of this incarnation.
        let managers = AppManagers()
        /// Its audio pass-thru recordings.
        let audio: AudioRecorder
        /// Registered once or closed: `POST /v1/apps` stops waiting.
        var settled = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    private struct State: Sendable {
        var apps: [String: AppInfo] = [:]
        var nextWaiter: UInt64 = 0
        /// The event pumps created and not yet ended, by incarnation, with the callers of
        /// ``delete(id:)`` waiting for one to end.
        var pumps: [UInt64: [CheckedContinuation<Void, Never>]] = [:]
    }

    /// An app for ``run()`` to pump the events of.
    private struct NewApp: Sendable {
        var id: String
        var incarnation: UInt64
        var session: SDLAppSession
        /// Its capture file, with `--record`.
        var recording: GatewayRecording.Target?
    }

    public let options: Options
    public let hub: EventHub
    /// The gateway's image store, which the managers upload from.
    let images: ImageStore
    /// Copies of the images apps uploaded through the files route (``UploadedImageCopies``).
    let uploadedImages: UploadedImageCopies
    let registry: SDLAppRegistry
    private let state = Mutex(State())
    /// `PUT /v1/apps/{id}` runs one request per id at a time (``put(id:core:app:wait:)``).
    let putSerializer = KeyedSerializer()
    private let newApps: AsyncStream<NewApp>
    private let newAppsContinuation: AsyncStream<NewApp>.Continuation

    private let logger: Logger
    /// The most PCM an app's recording keeps (`limits.audioRecordingSize`).
    let audioRecordingSize: Int

    public init(
        options: Options = Options(), hub: EventHub = EventHub(), imageStoreSize: Int = 16 << 20, audioRecordingSize: Int = 16 << 20, logger: Logger
    ) {
        self.options = options
        self.audioRecordingSize = audioRecordingSize
        self.hub = hub
        self.images = ImageStore(capacity: imageStoreSize)
        self.uploadedImages = UploadedImageCopies()
        self.logger = logger
        // The event pump always reads, so a session waits for it rather than losing events: a
        // burst from the head unit is held back by TCP, not dropped (issue "Reliability").
        self.registry = SDLAppRegistry(
            backoff: options.backoff, shutdownGracePeriod: options.shutdownGracePeriod, eventBufferLimit: Self.sessionEventBufferLimit, logger: logger
        )
        (newApps, newAppsContinuation) = AsyncStream.makeStream()
    }

    // MARK: Service

    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.registry.run() }
            group.addTask {
                try? await gracefulShutdown()
                await self.shutdown()
            }
            for await app in newApps {
                group.addTask { await self.pump(app) }
            }
        }
    }

    /// Ends every event stream, unregisters every app and ends ``run()``.
    public func shutdown() async {
        hub.finishAll()
        await registry.shutdown()
        newAppsContinuation.finish()
    }

    /// Event pumps created and not yet ended (apps whose session has not ended yet).
    var pumpCount: Int { state.withLock { $0.pumps.count } }

    /// Apps the gateway keeps information about.
    var appInfoCount: Int { state.withLock { $0.apps.count } }

    /// Publishes a session's events until it ends, then wakes the deletes waiting for that.
    /// With `--record`, the session's capture file is written beside it and closed (flushed)
    /// before the deletes wake.
    private func pump(_ app: NewApp) async {
        let managers = state.withLock { $0.apps[app.id]?.incarnation == app.incarnation ? $0.apps[app.id]?.managers : nil }
        let restores = ManagerRestorer.Requests()
        await withDiscardingTaskGroup { group in
            if let managers {
                // Puts the declared state back after each registration, beside the pump.
                group.addTask {
                    await ManagerRestorer(apps: self).run(app: app.id, managers: managers, requests: restores) { data in
                        self.publish(("connection", data), id: app.id, incarnation: app.incarnation, source: nil)
                    }
                }
            }
            if let recording = app.recording {
                group.addTask { await SDLCaptureFile.write(recording.tap, to: recording.path, logger: self.logger) }
            }
            await publishEvents(app, managers: managers, restores: restores)
            // The session ended: its connections record nothing more, nothing is left to restore.
            app.recording?.tap.finish()
            restores.finish()
        }
        let deletes = state.withLock { $0.pumps.removeValue(forKey: app.incarnation) } ?? []
        deletes.forEach { $0.resume() }
    }

    private func publishEvents(_ app: NewApp, managers: AppManagers?, restores: ManagerRestorer.Requests) async {
        let (id, incarnation) = (app.id, app.incarnation)
        let audio = state.withLock { $0.apps[id]?.incarnation == incarnation ? $0.apps[id]?.audio : nil }
        var sinceYield = 0
        for await event in app.session.events {
            // A burst is read from a full buffer without suspending: let the clients' writers and
            // the sessions' readers run between batches, or a flood starves them (a reader that
            // does not run sees no heartbeat answer and declares the head unit lost).
            sinceYield += 1
            if sinceYield == 64 {
                sinceYield = 0
                await Task.yield()
            }
            if let mapped = AppEventMapping.map(event) {
                publish((mapped.type, mapped.data), attachment: mapped.attachment, id: id, incarnation: incarnation, source: event)
            }
            if case .app(.audioPassThru(let audioEvent)) = event { audio?.apply(audioEvent) }
            // What the driver did to the declared screen and menu, by the user's ids, after the raw event.
            if case .app(.notification(let name, let parameters)) = event, let managers {
                for derived in managers.events(name, parameters) { publish(derived, id: id, incarnation: incarnation, source: nil) }
            }
            if case .connection(let connectionState, _) = event {
                if connectionState == .registered {
                    // A new registration: what the head unit holds is asked again when needed.
                    noteFiles(id, all: [], spaceAvailable: nil)
                    restores.registered(resumed: app.session.lastRegistrationResumed)
                }
                if connectionState == .registered || connectionState == .closed { settle(id, incarnation) }
                recordSessionStates()
            }
        }
        settle(id, incarnation)
        recordSessionStates()
    }

    /// Publishes one event of app `id` on the hub and counts it; `source` is the session event it
    /// came from (`nil` for events the gateway derives, such as `softButton`).
    private func publish(
        _ event: (type: String, data: SDLJSON), attachment: ByteBuffer? = nil, id: String, incarnation: UInt64, source: SDLAppSession.Event?
    ) {
        let (type, data) = event
        let (delivered, dropped) = hub.publish(app: id, incarnation: incarnation, type: type, data: data, attachment: attachment).map { ($0.delivered, $0.dropped) } ?? (0, 0)
        Counter(label: "sdl_gateway_events_published_total", dimensions: [("type", type)]).increment()
        if delivered > 0 { Counter(label: "sdl_gateway_events_delivered_total").increment(by: delivered) }
        if dropped > 0 { Counter(label: "sdl_gateway_events_dropped_total").increment(by: dropped) }
        if case .lost(let count) = source { Counter(label: "sdl_gateway_events_lost_total").increment(by: count) }
    }

    /// Publishes an event the gateway derived outside the event pump (an interaction's `choice`)
    /// on app `id`'s current stream.
    func publish(derived event: (type: String, data: SDLJSON), app id: String) {
        guard let incarnation = state.withLock({ $0.apps[id]?.incarnation }) else { return }
        publish(event, id: id, incarnation: incarnation, source: nil)
    }

    /// Waits until the event pump of `incarnation` ended (at once if it did).
    private func pumpEnded(_ incarnation: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = state.withLock { state -> Bool in
                guard state.pumps[incarnation] != nil else { return false }
                state.pumps[incarnation]?.append(continuation)
                return true
            }
            if !running { continuation.resume() }
        }
    }

    private func recordSessionStates() {
        var counts: [SDLAppSession.ConnectionState: Int] = [.connecting: 0, .registered: 0, .reconnecting: 0, .closed: 0]
        for entry in registry.all { counts[entry.session.connectionState, default: 0] += 1 }
        for (connectionState, count) in counts {
            Gauge(label: "sdl_gateway_sessions", dimensions: [("state", connectionState.rawValue)]).record(count)
        }
    }

    private func settle(_ id: String, _ incarnation: UInt64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.apps[id]?.incarnation == incarnation else { return [] }
            state.apps[id]?.settled = true
            defer { state.apps[id]?.waiters = [:] }
            return state.apps[id].map { Array($0.waiters.values) } ?? []
        }
        waiters.forEach { $0.resume() }
    }

    /// Waits until the app registered or closed, at most `limit`.
    func waitUntilSettled(_ id: String, limit: Duration) async {
        _ = await waitWithin(limit) { () async -> Void? in
            let token = self.state.withLock { state -> UInt64 in
                state.nextWaiter += 1
                return state.nextWaiter
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = self.state.withLock { state -> Bool in
                        guard let info = state.apps[id], !info.settled, !Task.isCancelled else { return true }
                        state.apps[id]?.waiters[token] = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                self.state.withLock { $0.apps[id]?.waiters.removeValue(forKey: token) }?.resume()
            }
            return ()
        }
    }

    // MARK: Apps

    /// Adds an app and, with `wait`, waits until it registered (or closed, or the wait passed).
    /// A registration the head unit refuses removes the app and throws
    /// ``GatewayError/Code/registrationFailed`` with its reason.
    public func create(id: String?, core: SDLTransportAddress?, app: SDLAppConfiguration, wait: Bool = true) async throws(GatewayError) -> String {
        let core = core ?? options.defaultCore
        guard options.allows(core) else {
            throw GatewayError(.coreNotAllowed, "core \(core) is not one of the head units this gateway may use (--core, --allow-core)")
        }
        var configuration = SDLConnection.Configuration(address: core, app: app, catalog: options.catalog, rateLimits: options.rateLimits)
        configuration.eventOverflow = .pauseReading
        configuration.eventLoopGroup = Self.headUnitEventLoops
        if let heartbeat = options.heartbeat {
            configuration.session.heartbeatInterval = TimeAmount(heartbeat)
            configuration.session.heartbeatVersions = 3...5
        }
        let id = try state.withLock { state throws(GatewayError) -> String in
            // An id in use is refused as a duplicate below, whatever the count.
            if state.apps.count >= options.maximumApps, id.map({ state.apps[$0] == nil }) ?? true {
                throw GatewayError(.tooManyApps, "the gateway holds \(options.maximumApps) apps already (serve --max-apps); delete one first")
            }
            let session: SDLAppSession
            var recording: GatewayRecording.Target?
            do throws(SDLClientError) {
                session = try registry.add(id: id, configuration: configuration) { id in
                    recording = self.options.recording?.start(app: id, sdlAppID: app.appID, headUnit: core.description)
                    return recording?.tap
                }
            } catch {
                throw GatewayError(error)
            }
            let id = registry.all.first { $0.session === session }?.id ?? ""
            let incarnation = hub.openApp(id)
            state.apps[id] = AppInfo(core: core, incarnation: incarnation, audio: AudioRecorder(limit: audioRecordingSize))
            state.pumps[incarnation] = []
            newAppsContinuation.yield(NewApp(id: id, incarnation: incarnation, session: session, recording: recording))
            return id
        }
        logger.info("app added", metadata: ["gateway.app": "\(id)", "sdl.core": "\(core)"])
        guard wait else { return id }
        await waitUntilSettled(id, limit: options.registrationWait)
        if let session = registry.session(id: id), session.connectionState == SDLAppSession.ConnectionState.closed {
            let reason = session.connectionDetail ?? "the session closed"
            _ = await delete(id: id)
            throw GatewayError(.registrationFailed, reason)
        }
        return id
    }

    /// The session of app `id`, or ``GatewayError/Code/appNotFound``.
    public func session(_ id: String) throws(GatewayError) -> SDLAppSession {
        guard let session = registry.session(id: id) else { throw GatewayError(.appNotFound, "no app \(id)") }
        return session
    }

    /// The managers of app `id`, or ``GatewayError/Code/appNotFound``.
    func managers(_ id: String) throws(GatewayError) -> AppManagers {
        guard let managers = state.withLock({ $0.apps[id]?.managers }) else { throw GatewayError(.appNotFound, "no app \(id)") }
        return managers
    }

    /// The audio pass-thru recordings of app `id`, or ``GatewayError/Code/appNotFound``.
    func audio(_ id: String) throws(GatewayError) -> AudioRecorder {
        guard let audio = state.withLock({ $0.apps[id]?.audio }) else { throw GatewayError(.appNotFound, "no app \(id)") }
        return audio
    }

    /// The files app `id`'s head unit is known to hold (from ListFiles, PutFile and DeleteFile).
    func knownFiles(_ id: String) -> Set<String> {
        state.withLock { $0.apps[id]?.files ?? [] }
    }

    /// The policy app id app `id` registers with (RegisterAppInterface `fullAppID` when it has
    /// one, else `appID`: what SDL Core and the simulator know it by), if there is such an app.
    public func sdlAppID(ofApp id: String) -> String? {
        registry.session(id: id).map { $0.configuration.app.fullAppID ?? $0.configuration.app.appID }
    }

    /// Unregisters and forgets app `id`; whether there was one. Returns once its session and
    /// event pump ended (its last events, up to `closed`, reached its clients) and its events
    /// were forgotten, so nothing of it is left behind and an app re-created under the id starts
    /// an empty event stream whose seqs continue after the deleted app's. (The pump is
    /// ``run()``'s: with the service not running, a delete waits for it.)
    public func delete(id: String) async -> Bool {
        guard let incarnation = state.withLock({ $0.apps[id]?.incarnation }), await registry.remove(id: id) else { return false }
        await pumpEnded(incarnation)
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard state.apps[id]?.incarnation == incarnation, let info = state.apps.removeValue(forKey: id) else { return [] }
            return Array(info.waiters.values)
        }
        // A create still waiting for this app stops waiting (it finds the app gone).
        waiters.forEach { $0.resume() }
        hub.removeApp(id, incarnation: incarnation)
        uploadedImages.removeApp(id)
        logger.info("app removed", metadata: ["gateway.app": "\(id)"])
        return true
    }

    public var ids: [String] { registry.all.map(\.id) }

    /// What app `id` was created with: its app configuration and head unit; nil when there is
    /// no such app (or it is being deleted).
    func registration(of id: String) -> (app: SDLAppConfiguration, core: SDLTransportAddress)? {
        guard let session = registry.session(id: id), let core = state.withLock({ $0.apps[id]?.core }) else { return nil }
        return (session.configuration.app, core)
    }

    /// Counts of apps by connection state.
    public var connectionStates: [SDLAppSession.ConnectionState] { registry.all.map(\.session.connectionState) }

    /// Remembers what a file request said about the app's files.
    /// The key of app `id`'s (current incarnation's) copy of `name`; nil when there is no app `id`.
    func uploadedImageKey(_ id: String, name: String) -> UploadedImageCopies.Key? {
        state.withLock { $0.apps[id] }.map { UploadedImageCopies.Key(app: id, incarnation: $0.incarnation, name: name) }
    }

    func noteFiles(_ id: String, added: String? = nil, removed: String? = nil, all: [String]? = nil, spaceAvailable: Int64?) {
        state.withLock { state in
            guard state.apps[id] != nil else { return }
            if let all { state.apps[id]?.files = Set(all) }
            if let added { state.apps[id]?.files.insert(added) }
            if let removed { state.apps[id]?.files.remove(removed) }
            if let spaceAvailable { state.apps[id]?.spaceAvailable = spaceAvailable }
        }
    }

    /// The app resource (docs/architecture.md, `GET /v1/apps/{id}`): the app's summary (its session,
    /// HMI status, subscriptions, files) and `links` to what else it has. What the head unit
    /// told it at length (``capabilities(_:)``) is its own resource, or inside with
    /// `expandCapabilities` (`?expand=capabilities`): it made the answer of `POST /v1/apps` ~24 KB.
    public func resource(_ id: String, expandCapabilities: Bool = false) throws(GatewayError) -> SDLJSON {
        let session = try session(id)
        let info = state.withLock { $0.apps[id] }
        let app = session.configuration.app
        let tracker = session.connection?.tracker ?? SDLAppStateTracker(catalog: options.catalog)
        var members = tracker.snapshot.objectValue ?? [:]
        for name in Self.capabilityMembers { members[name] = nil }
        let subscriptions = session.subscriptions
        members["id"] = .string(id)
        members["appName"] = .string(app.appName)
        members["appID"] = .string(app.appID)
        members["fullAppID"] = app.fullAppID.map(SDLJSON.string) ?? .null
        members["core"] = .string((info?.core ?? options.defaultCore).description)
        members["connection"] = .string(session.connectionState.rawValue)
        members["connectionDetail"] = session.connectionDetail.map(SDLJSON.string) ?? .null
        members["attempts"] = .int(Int64(session.attempts))
        members["subscriptions"] = [
            "buttons": .array(subscriptions.buttons.map(SDLJSON.string)),
            "vehicleData": .array(subscriptions.vehicleData.map(SDLJSON.string)),
        ]
        members["icon"] = subscriptions.icon.map(SDLJSON.string) ?? .null
        members["files"] = .array((info?.files ?? []).sorted().map(SDLJSON.string))
        members["spaceAvailable"] = info?.spaceAvailable.map(SDLJSON.int) ?? .null
        members["lastEventSeq"] = .int(Int64(clamping: hub.lastSeq(app: id)))
        let path = "/v1/apps/\(id)"
        members["links"] = ["self": .string(path), "capabilities": .string("\(path)/capabilities"), "events": .string("\(path)/events")]
        if expandCapabilities { members["capabilities"] = Self.capabilities(of: tracker) }
        return .object(members)
    }

    /// What the head unit told the app (`GET /v1/apps/{id}/capabilities`): the RegisterAppInterface
    /// response (`registration`: display, buttons, vehicle type …), the system capabilities
    /// (GetSystemCapability, OnSystemCapabilityUpdated) and the permissions (OnPermissionsChange).
    public func capabilities(_ id: String) throws(GatewayError) -> SDLJSON {
        let session = try session(id)
        return Self.capabilities(of: session.connection?.tracker ?? SDLAppStateTracker(catalog: options.catalog))
    }

    /// The members of ``capabilities(_:)``, left out of the app's summary.
    static let capabilityMembers = ["registration", "systemCapabilities", "permissions"]

    private static func capabilities(of tracker: SDLAppStateTracker) -> SDLJSON {
        let snapshot = tracker.snapshot
        return [
            "registration": tracker.registration ?? .null,
            "systemCapabilities": snapshot["systemCapabilities"] ?? [:],
            "permissions": snapshot["permissions"] ?? .null,
        ]
    }
}
