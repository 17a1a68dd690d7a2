import Foundation
import Logging
import NIOCore
import SDLClient
import SDLManagers
import SDLProtocol
import SDLTransport
import ServiceLifecycle
import Synchronization

/// The gateway's apps: an ``SDLAppRegistry`` of sessions, the events they publish on the
/// ``EventHub`` and what the HTTP API shows of each (docs/architecture.md, the app resource).
///
/// The thin driver of ``GatewayAppRegistry``, as ``SDLConnection`` is of its state machine: the
/// registry decides (which apps there are, their incarnations, who waits for what) under one
/// lock, and this service executes its actions outside it (resumes waiters), starts and ends the
/// sessions and their event pumps (``pump(_:)``), and counts (``GatewayMetrics``).
///
/// A `Service`: ``run()`` runs the sessions and one event pump per app; graceful shutdown ends
/// the event streams, then unregisters every app (UnregisterAppInterface, EndService).
public final class GatewayApps: Service, Sendable {
    /// How many events may wait between a session and its event pump: with the sessions' reads
    /// paused at half of it, one 64 KiB read of the smallest notifications (two events each)
    /// still fits.
    static let sessionEventBufferLimit = 10_000

    /// What the gateway keeps of each app beside its session: created with it, dropped with it.
    struct AppObjects: Sendable {
        /// The declared screen, menu and voice commands of this incarnation.
        let managers = AppManagers()
        /// Its audio pass-thru recordings.
        let audio: AudioRecorder
    }

    /// The registry's waiters are continuations resumed with why they were.
    typealias Registry = GatewayAppRegistry<CheckedContinuation<AppWaitOutcome, Never>, AppObjects>

    /// An app for ``run()`` to pump the events of.
    struct NewApp: Sendable {
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
    /// Everything about the apps beside their sessions; executed by ``execute(_:)``.
    let state: Mutex<Registry>
    /// `PUT /v1/apps/{id}` runs one request per id at a time (``put(id:core:app:wait:)``).
    let putSerializer = KeyedSerializer()
    private let newApps: AsyncStream<NewApp>
    private let newAppsContinuation: AsyncStream<NewApp>.Continuation

    let logger: Logger
    /// The most PCM an app's recording keeps (`limits.audioRecordingSize`).
    let audioRecordingSize: Int

    public init(
        options: Options = Options(), hub: EventHub = EventHub(), imageStoreSize: Int = 16 << 20, audioRecordingSize: Int = 16 << 20,
        logger: Logger
    ) {
        self.options = options
        self.audioRecordingSize = audioRecordingSize
        self.hub = hub
        self.images = ImageStore(capacity: imageStoreSize)
        self.uploadedImages = UploadedImageCopies()
        self.logger = logger
        self.state = Mutex(Registry(maximumApps: options.maximumApps))
        // The event pump always reads, so a session waits for it rather than losing events: a
        // burst from the head unit is held back by TCP, not dropped (issue "Reliability").
        self.registry = SDLAppRegistry(
            backoff: options.backoff, shutdownGracePeriod: options.shutdownGracePeriod, eventBufferLimit: Self.sessionEventBufferLimit,
            logger: logger
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
    var pumpCount: Int { state.withLock { $0.pumpCount } }

    /// Apps the gateway keeps information about.
    var appInfoCount: Int { state.withLock { $0.apps.count } }

    /// Executes what the registry decided, outside its lock.
    func execute(_ actions: [Registry.Action]) {
        for action in actions {
            switch action {
            case .resume(let waiter, let outcome): waiter.resume(returning: outcome)
            }
        }
    }

    /// Waits until the app registered or closed, at most `limit`; why it stopped waiting.
    @discardableResult
    func waitUntilSettled(_ id: String, limit: Duration) async -> AppWaitOutcome {
        await waitWithin(limit) { () async -> AppWaitOutcome? in
            let token = self.state.withLock { $0.makeToken() }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<AppWaitOutcome, Never>) in
                    // Cancelled before the wait began: the handler below found nothing to expire.
                    self.execute(self.state.withLock { $0.wait(id: id, token: token, waiter: continuation, expired: Task.isCancelled) })
                }
            } onCancel: {
                self.execute(self.state.withLock { $0.expire(id: id, token: token) })
            }
        } ?? .expired
    }

    /// Waits until the event pump of `incarnation` ended (at once if it did).
    private func pumpEnded(_ incarnation: UInt64) async {
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<AppWaitOutcome, Never>) in
            execute(state.withLock { $0.waitForPump(incarnation, waiter: continuation) })
        }
    }

    // MARK: Apps

    /// Adds an app and, with `wait`, waits until it registered (or closed, or the wait passed).
    /// A registration the head unit refuses removes the app and throws
    /// ``GatewayError/Code/registrationFailed`` with its reason.
    public func create(
        id: String?, core: SDLTransportAddress?, app: SDLAppConfiguration, wait: Bool = true
    ) async throws(GatewayError) -> String {
        let core = core ?? options.defaultCore
        guard options.allows(core) else {
            throw GatewayError(.coreNotAllowed, "core \(core) is not one of the head units this gateway may use (--core, --allow-core)")
        }
        var configuration = SDLConnection.Configuration(address: core, app: app, catalog: options.catalog, rateLimits: options.rateLimits)
        configuration.eventOverflow = .pauseReading
        configuration.eventLoopGroup = options.eventLoopGroup
        if let heartbeat = options.heartbeat {
            configuration.session.heartbeatInterval = TimeAmount(heartbeat)
            configuration.session.heartbeatVersions = 3...5
        }
        let id = try state.withLock { state throws(GatewayError) -> String in
            try state.admit(id: id)
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
            state.add(id: id, core: core, incarnation: incarnation, objects: AppObjects(audio: AudioRecorder(limit: audioRecordingSize)))
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
        guard let managers = state.withLock({ $0.apps[id]?.objects.managers }) else { throw GatewayError(.appNotFound, "no app \(id)") }
        return managers
    }

    /// The audio pass-thru recordings of app `id`, or ``GatewayError/Code/appNotFound``.
    func audio(_ id: String) throws(GatewayError) -> AudioRecorder {
        guard let audio = state.withLock({ $0.apps[id]?.objects.audio }) else { throw GatewayError(.appNotFound, "no app \(id)") }
        return audio
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
        guard let incarnation = state.withLock({ $0.incarnation(of: id) }), await registry.remove(id: id) else { return false }
        await pumpEnded(incarnation)
        // A create still waiting for this app stops waiting (it finds the app gone).
        execute(state.withLock { $0.remove(id: id, incarnation: incarnation).actions })
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
}
