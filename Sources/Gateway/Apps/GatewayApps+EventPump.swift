import NIOCore
import SDLClient
import SDLProtocol
import Synchronization

/// The event pump of each app: it publishes what the app's session reports on the ``EventHub``
/// (``AppEventMapping``), feeds the app's managers and audio recorder, and tells the registry
/// when the app registered or closed (docs/architecture.md, events).
extension GatewayApps {
    /// Publishes a session's events until it ends, then wakes the deletes waiting for that.
    /// With `--record`, the session's capture file is written beside it and closed (flushed)
    /// before the deletes wake.
    func pump(_ app: NewApp) async {
        let objects = state.withLock { $0.objects(of: app.id, incarnation: app.incarnation) }
        let managers = objects?.managers
        let restores = ManagerRestorer.Requests()
        await withDiscardingTaskGroup { group in
            if let recording = app.recording {
                group.addTask { await SDLCaptureFile.write(recording.tap, to: recording.path, logger: self.logger) }
            }
            await publishEvents(app, objects: objects) { resumed in
                // Puts the declared state back after a registration, beside the pump, in a task
                // that ends when nothing is left to restore.
                guard let managers, restores.registered(resumed: resumed) else { return }
                group.addTask {
                    await ManagerRestorer(apps: self).run(app: app.id, managers: managers, requests: restores) { data in
                        self.publish(("connection", data), id: app.id, incarnation: app.incarnation, source: nil)
                    }
                }
            }
            // The session ended: its connections record nothing more, nothing is left to restore.
            app.recording?.tap.finish()
            restores.finish()
        }
        execute(state.withLock { $0.pumpEnded(app.incarnation) })
    }

    /// Publishes the session's events until it ends; `registered` is told of each registration
    /// (whether the head unit resumed the app's data).
    private func publishEvents(
        _ app: NewApp, objects: AppObjects?, registered: (_ resumed: Bool) -> Void
    ) async {
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
            publish(event, of: app, objects: objects, registered: registered)
        }
        execute(state.withLock { $0.settle(id: app.id, incarnation: app.incarnation) })
        GatewayMetrics.sessions(connectionStates)
    }

    /// Publishes one session event of `app` and what it derives; tells `registered` of a new
    /// registration. Synchronous and never inlined into the pump: its locals live on the thread's
    /// stack while it runs, not in the pump's async frame, which the pump's task keeps for as long
    /// as the app lives (3.2 KB of every idle session when inlined; heaptrack, issue "Performance").
    @inline(never)
    private func publish(
        _ event: SDLAppSession.Event, of app: NewApp, objects: AppObjects?, registered: (_ resumed: Bool) -> Void
    ) {
        let (id, incarnation) = (app.id, app.incarnation)
        if let mapped = AppEventMapping.map(event) {
            publish((mapped.type, mapped.data), attachment: mapped.attachment, id: id, incarnation: incarnation, source: event)
        }
        if case .app(.audioPassThru(let audioEvent)) = event { objects?.audio.apply(audioEvent) }
        // What the driver did to the declared screen and menu, by the user's ids, after the raw event.
        if case .app(.notification(let name, let parameters)) = event, let managers = objects?.managers {
            for derived in managers.events(name, parameters) { publish(derived, id: id, incarnation: incarnation, source: nil) }
        }
        guard case .connection(let connectionState, _) = event else { return }
        if connectionState == .registered {
            // A new registration: what the head unit holds is asked again when needed.
            noteFiles(id, all: [], spaceAvailable: nil)
            registered(app.session.lastRegistrationResumed)
        }
        if connectionState == .registered || connectionState == .closed {
            execute(state.withLock { $0.settle(id: id, incarnation: incarnation) })
        }
        GatewayMetrics.sessions(connectionStates)
    }

    /// Publishes one event of app `id` on the hub and counts it; `source` is the session event it
    /// came from (`nil` for events the gateway derives, such as `softButton`).
    private func publish(
        _ event: (type: String, data: SDLJSON), attachment: ByteBuffer? = nil, id: String, incarnation: UInt64, source: SDLAppSession.Event?
    ) {
        let (type, data) = event
        let (delivered, dropped) =
            hub.publish(app: id, incarnation: incarnation, type: type, data: data, attachment: attachment).map {
                ($0.delivered, $0.dropped)
            } ?? (0, 0)
        var lost = 0
        if case .lost(let count) = source { lost = count }
        GatewayMetrics.published(type: type, delivered: delivered, dropped: dropped, lost: lost)
    }

    /// Publishes an event the gateway derived outside the event pump (an interaction's `choice`)
    /// on app `id`'s current stream.
    func publish(derived event: (type: String, data: SDLJSON), app id: String) {
        guard let incarnation = state.withLock({ $0.incarnation(of: id) }) else { return }
        publish(event, id: id, incarnation: incarnation, source: nil)
    }
}
