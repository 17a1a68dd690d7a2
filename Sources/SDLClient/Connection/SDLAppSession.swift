import Logging
import NIOCore
import SDLProtocol
import SDLTime
import Synchronization

/// A long-lived SDL app session: it owns one ``SDLConnection`` at a time and replaces it when the
/// link drops or the head unit restarts (as grpc-swift's subchannel reconnects).
///
/// Every step is published as a ``Event/connection(_:detail:)`` event: `connecting`, then
/// `registered`, then `reconnecting` after a loss, with a backoff of 100 ms × 1.25ⁿ up to 5 s with
/// jitter (``SDLBackoff``), and `closed` at the end. Reconnecting re-registers with the latest
/// OnHashChange `hashID` (resumption, docs/protocol.md §k); when the head unit answers
/// RESUME_FAILED or nothing was resumable, the session re-subscribes the buttons and vehicle data
/// it had itself. A refused registration (a fatal result code, ``SDLRegistrationParameters``)
/// closes the session with the head unit's reason. Requests made while not registered fail at once with
/// ``SDLClientError/Code/notConnected``: callers never hang.
///
/// The decisions are ``SDLSessionSupervisor``'s (pure); this type drives it. Backoff sleeps and
/// every connection's timers run on one injected ``SDLClock``, so tests move time instead of
/// waiting. ``events`` is bounded and says where events were lost (``Event/lost(count:)``),
/// including those its connections' own streams dropped.
public final class SDLAppSession: Sendable {
    public enum ConnectionState: String, Sendable, Hashable {
        case connecting, registered, reconnecting, closed
    }

    public enum Event: Sendable {
        case connection(ConnectionState, detail: String?)
        case app(SDLAppEvent)
        /// `count` events were dropped because the reader of ``SDLAppSession/events`` (or the
        /// session reading its connection) fell behind. It comes in their place: before the next
        /// event after the loss. Delivered events plus these counts add up to
        /// ``SDLAppSession/publishedEventCount``.
        case lost(count: Int)
    }

    struct State: Sendable {
        var connection: SDLConnection?
        var connectionState = ConnectionState.connecting
        var connectionDetail: String?
        var supervisor: SDLSessionSupervisor
        /// The backoff sleep under way, which ``close()`` ends early.
        var backoffSleep: SDLSleeper?
        /// Reference-counted by owner, so that two owners of one name cost one SDL request.
        var buttons = SDLSubscriptionCounter()
        var vehicleData = SDLSubscriptionCounter()
        /// The file a successful SetAppIcon made the app icon.
        var iconName: String?
        /// Whether the head unit resumed the app's data at the last registration.
        var resumed = false
    }

    public let configuration: SDLConnection.Configuration
    let state: Mutex<State>
    private let clock: any SDLClock
    private let eventBufferLimit: Int
    private let logger: Logger
    private let eventStream: SDLEventStream<Event>
    private let eventSource: SDLEventStream<Event>.Source

    /// - Parameters:
    ///   - backoff: the delays between connection attempts.
    ///   - clock: the time of the backoff and of every connection's timers.
    ///   - eventBufferLimit: how many events may wait for the reader of ``events`` (and, on each
    ///     connection, for the session).
    public init(
        configuration: SDLConnection.Configuration,
        backoff: SDLBackoff = SDLBackoff(),
        clock: any SDLClock = SDLSystemClock(),
        eventBufferLimit: Int = SDLConnection.eventBufferLimit,
        logger: Logger
    ) {
        self.configuration = configuration
        self.clock = clock
        self.eventBufferLimit = eventBufferLimit
        self.logger = logger
        self.state = Mutex(State(supervisor: SDLSessionSupervisor(backoff: backoff)))
        (eventStream, eventSource) = SDLEventStream.makeStream(capacity: eventBufferLimit) { .lost(count: $0) }
    }

    /// Connection steps and what the head unit says about the app, with ``Event/lost(count:)``
    /// where events were dropped.
    public var events: SDLEventStream<Event> { eventStream }

    /// Every event published to ``events`` so far, including the lost ones (those dropped by this
    /// session's buffer and by its connections').
    public var publishedEventCount: Int { eventSource.published }

    public var connectionState: ConnectionState { state.withLock { $0.connectionState } }

    /// What the last connection event said (the result code, why it reconnects, why it closed).
    public var connectionDetail: String? { state.withLock { $0.connectionDetail } }

    /// The buttons and vehicle data the app is subscribed to (restored after a reconnect), and
    /// the file made its icon.
    public var subscriptions: (buttons: [String], vehicleData: [String], icon: String?) {
        state.withLock { ($0.buttons.all, $0.vehicleData.all, $0.iconName) }
    }

    /// The current connection, while there is one.
    public var connection: SDLConnection? { state.withLock { $0.connection } }

    /// Whether the head unit resumed the app's data (hashID resumption, docs/protocol.md §k) at the
    /// last registration: its commands, submenus, choice sets, global properties and
    /// subscriptions are back; what is not resumable (Show, the media clock, non-persistent
    /// files) is not. Set before the `registered` event is published.
    public var lastRegistrationResumed: Bool { state.withLock { $0.resumed } }

    /// How many connections were attempted.
    public var attempts: Int { state.withLock { $0.supervisor.attempts } }

    /// Keeps the app registered until ``close()``.
    public func run() async {
        publish(.connecting, detail: "\(configuration.address)")
        var closedDetail: String?
        while true {
            // The attempt and its connection are one step, so close() either prevents it or
            // finds the connection to close.
            let connection = state.withLock { state -> SDLConnection? in
                guard let app = state.supervisor.nextAttempt(for: configuration.app) else { return nil }
                var configuration = self.configuration
                configuration.app = app
                let connection = SDLConnection(
                    configuration: configuration, clock: clock, eventBufferLimit: eventBufferLimit, logger: logger)
                state.connection = connection
                return connection
            }
            guard let connection else { break }
            let outcome = await runOnce(connection)
            let latestHashID = connection.latestHashID
            let (decision, sleeper) = state.withLock { state -> (SDLSessionSupervisor.Decision, SDLSleeper?) in
                state.connection = nil
                let decision = state.supervisor.connectionEnded(outcome, latestHashID: latestHashID)
                guard case .retry = decision else { return (decision, nil) }
                let sleeper = SDLSleeper()
                state.backoffSleep = sleeper
                return (decision, sleeper)
            }
            guard case .retry(let delay, let detail) = decision, let sleeper else {
                if case .close(let detail) = decision { closedDetail = detail }
                break
            }
            publish(.reconnecting, detail: detail)
            do {
                try await sleeper.sleep(until: clock.now() + delay, on: clock)
            } catch {
                break  // cancelled
            }
            state.withLock { $0.backoffSleep = nil }
        }
        publish(.closed, detail: closedDetail)
        eventSource.finish()
    }

    /// Runs one connection until it ends; returns why. Its events are forwarded, with its losses,
    /// by this task itself, which starts a child to restore the app's state at each registration
    /// (the child gives back the stack restoring grew); the connection runs in the only other
    /// task. A task keeps its stack while it lives, and a finished child of a group whose results
    /// are kept lives until it is read: two tasks fewer per session, none kept (BENCHMARKS.md,
    /// issue "Performance").
    private func runOnce(_ connection: SDLConnection) async -> (any Error)? {
        do {
            // The connection's end is thrown; the restore children throw nothing. Cancelling them
            // when it ends changes nothing: their requests fail with the link either way.
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await connection.run() }
                await forwardEvents(of: connection, restoringIn: &group)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Forwards the connection's events until they end; a registration starts its restore in `group`.
    private func forwardEvents(of connection: SDLConnection, restoringIn group: inout ThrowingDiscardingTaskGroup<any Error>) async {
        let pauses = configuration.eventOverflow == .pauseReading
        for await event in connection.events {
            switch event {
            case .app(let event):
                // Holding this event back holds the connection's reader back in turn.
                if pauses { await eventSource.waitForRoom(below: eventSource.capacity) }
                eventSource.yield(.app(event))
            case .lost(let count):
                eventSource.reportLost(count)
            case .registered(let response):
                group.addTask { await self.registered(connection, response: response) }
            }
        }
    }

    /// After RegisterAppInterface: restore subscriptions unless Core resumed them, and the app
    /// icon unless Core says it resumed it (``SDLSessionSupervisor/registered(response:requestedHashID:)``).
    private func registered(_ connection: SDLConnection, response: SDLRPCMessage) async {
        let (plan, buttons, vehicleData, iconName) = state.withLock { state in
            let plan = state.supervisor.registered(response: response, requestedHashID: connection.configuration.app.hashID)
            return (plan, state.buttons.all, state.vehicleData.all, state.iconName)
        }
        if plan.restoresIcon {
            await restoreIcon(on: connection, setIcon: iconName)
        }
        if plan.resubscribes {
            let unchecked = SDLRequestOptions(checkPermissions: false)
            for button in buttons {
                _ = try? await connection.request("SubscribeButton", ["buttonName": .string(button)], options: unchecked)
            }
            if !vehicleData.isEmpty {
                _ = try? await connection.request("SubscribeVehicleData", Self.flags(vehicleData), options: unchecked)
            }
        }
        state.withLock { $0.resumed = plan.resumed }
        publish(.registered, detail: plan.detail)
    }

    /// Uploads the configured icon (persistent) and makes it the app icon, or makes the file of
    /// an earlier successful SetAppIcon the icon again. Failures are logged, not fatal: the app
    /// works without its icon.
    private func restoreIcon(on connection: SDLConnection, setIcon remembered: String?) async {
        let icon = connection.configuration.app.appIcon
        guard let name = icon?.name ?? remembered else { return }
        do {
            if let icon {
                let plan = try SDLFileUploadPlan(
                    syncFileName: icon.name, fileType: icon.fileType, persistentFile: true, size: icon.data.count)
                let uploader = SDLFileUploader { function, parameters, bulkData in
                    try await connection.request(
                        function, parameters, options: SDLRequestOptions(checkPermissions: false, bulkData: bulkData))
                }
                let bytes = ByteBuffer(bytes: icon.data)
                _ = try await uploader.upload(
                    plan,
                    bytes: AsyncStream {
                        $0.yield(bytes); $0.finish()
                    })
            }
            let response = try await connection.request(
                "SetAppIcon", ["syncFileName": .string(name)], options: SDLRequestOptions(checkPermissions: false))
            guard SDLFileUploader.succeeded(response) else {
                throw SDLClientError(.fileRequestFailed, "SetAppIcon \(name): \(SDLFileUploader.outcome(of: response))")
            }
            state.withLock { $0.iconName = name }
        } catch {
            logger.warning(
                "could not set the app icon",
                metadata: ["sdl.app": "\(configuration.app.appID)", "sdl.file": "\(name)", "error": "\(error)"])
        }
    }

    /// Sends a request on the current connection; remembers successful subscriptions so that a
    /// reconnect can restore them.
    public func request(
        _ function: String, _ parameters: SDLJSON = [:], options: SDLRequestOptions = .default
    ) async throws -> SDLRPCMessage {
        let response = try await send(function, parameters, options: options)
        remember(function, parameters, response: response)
        return response
    }

    /// Sends on the current connection, remembering nothing.
    func send(_ function: String, _ parameters: SDLJSON = [:], options: SDLRequestOptions = .default) async throws -> SDLRPCMessage {
        guard let connection = state.withLock({ $0.connectionState == .registered ? $0.connection : nil }) else {
            throw SDLClientError(.notConnected, "the app is \(connectionState.rawValue), not registered")
        }
        return try await connection.request(function, parameters, options: options)
    }

    /// The owner of subscriptions made with plain ``request(_:_:options:)``
    /// calls; a plain Unsubscribe ends a name for every owner (the head unit no longer has it).
    public static let requestOwner = "request"

    private func remember(_ function: String, _ parameters: SDLJSON, response: SDLRPCMessage) {
        let code = response.parameters["resultCode"]?.stringValue
        guard code == "SUCCESS" || code == "IGNORED" || code == "WARNINGS" else { return }
        let vehicleNames = (parameters.objectValue ?? [:]).filter { $0.value == .bool(true) }.map(\.key)
        state.withLock { state in
            switch function {
            case "SubscribeButton":
                if let name = parameters["buttonName"]?.stringValue { _ = state.buttons.subscribe([name], owner: Self.requestOwner) }
            case "UnsubscribeButton":
                if let name = parameters["buttonName"]?.stringValue { state.buttons.drop([name]) }
            case "SubscribeVehicleData":
                _ = state.vehicleData.subscribe(vehicleNames, owner: Self.requestOwner)
            case "UnsubscribeVehicleData":
                state.vehicleData.drop(vehicleNames)
            case "SetAppIcon":
                state.iconName = parameters["syncFileName"]?.stringValue
            default:
                break
            }
        }
    }

    /// Changes `owner`'s hold on `names` in one of the counters and sends `send` for the names
    /// whose first owner came or last owner went; undoes the change when the head unit refuses.
    func change(
        _ names: [String], owner: String, subscribe: Bool,
        counter: any WritableKeyPath<State, SDLSubscriptionCounter> & Sendable,
        send: ([String]) async throws -> SDLRPCMessage
    ) async throws -> SubscriptionOutcome {
        let changed = state.withLock { state in
            subscribe ? state[keyPath: counter].subscribe(names, owner: owner) : state[keyPath: counter].unsubscribe(names, owner: owner)
        }
        guard !changed.isEmpty else { return SubscriptionOutcome(response: nil, sent: []) }
        func undo() {
            state.withLock { state in
                _ =
                    subscribe
                    ? state[keyPath: counter].unsubscribe(changed, owner: owner) : state[keyPath: counter].subscribe(changed, owner: owner)
            }
        }
        let response: SDLRPCMessage
        do {
            response = try await send(changed)
        } catch {
            undo()
            throw error
        }
        let code = response.parameters["resultCode"]?.stringValue
        // IGNORED: the head unit already had (or no longer had) them, which is the state wanted.
        if response.parameters["success"]?.boolValue != true, code != "IGNORED" { undo() }
        return SubscriptionOutcome(response: response, sent: changed)
    }

    /// Unregisters, ends the session and stops reconnecting; ``run()`` returns.
    public func close() async {
        let (connection, sleeper) = state.withLock { state in
            state.supervisor.close()
            return (state.connection, state.backoffSleep)
        }
        sleeper?.wake()
        await connection?.close()
    }

    private func publish(_ connectionState: ConnectionState, detail: String?) {
        state.withLock { state in
            state.connectionState = connectionState
            state.connectionDetail = detail
        }
        logger.info(
            "app session \(connectionState.rawValue)", metadata: ["sdl.app": "\(configuration.app.appID)", "detail": "\(detail ?? "")"])
        eventSource.yield(.connection(connectionState, detail: detail))
    }
}
