import Logging
import NIOCore
import NIOPosix
import NIOSSL
import SDLProtocol
import SDLSpec
import SDLTransport
import Synchronization

/// One SDL app session over one transport connection to a head unit: SDL Core's TCP app port
/// (12345) or its WebSocket server for apps (ws/wss, 2020; SDL-PROTOCOL.md §e "Ports and
/// transports"). It connects, negotiates the protocol (``SDLSessionStateMachine``), registers the
/// app, carries requests with deadlines, keeps the app's state (``SDLAppStateTracker``) and ends
/// with UnregisterAppInterface and EndService.
///
/// Every SDL frame is written as its own buffer, and all the frames of one message with a single
/// flush: over WebSocket each frame is then one binary message, as Core sends them (§e "WebSocket
/// server for apps"); over TCP the bytes are the same stream as before.
///
/// A connection is one-shot (STYLE.md example 6): when the link goes, every pending request fails
/// at once with ``SDLClientError/Code/linkLost`` and ``run()`` returns; a supervisor owns
/// reconnection. All protocol decisions are made by pure values; this type only moves bytes, time
/// and continuations between them and the socket.
public final class SDLConnection: Sendable {
    public struct Configuration: Sendable {
        /// Where the head unit listens: `tcp://host:port`, `ws://host:port[/path]` or
        /// `wss://host:port[/path]` (``SDLTransportAddress``).
        public var address: SDLTransportAddress
        /// The TLS client configuration for `wss`: trust roots for Core's CA, and the client
        /// certificate and key Core's TLS WebSocket server requires. Unused for tcp and ws.
        public var tlsConfiguration: TLSConfiguration
        public var app: SDLAppConfiguration
        public var catalog: SDLCatalog
        public var session: SDLSessionStateMachine.Configuration
        public var deadlines: SDLRequestDeadlines
        public var rateLimits: SDLRequestRateLimiter.Configuration
        /// Validate request parameters against the spec before sending (per request too).
        public var validatesRequests: Bool
        /// Refuse requests the permission table does not allow (per request too).
        public var checksPermissions: Bool
        /// How long connecting and negotiating may take.
        public var connectTimeout: TimeAmount

        /// The head unit's host, from ``address``.
        public var host: String {
            get { address.host }
            set { address.host = newValue }
        }

        /// The head unit's port, from ``address``.
        public var port: Int {
            get { address.port }
            set { address.port = newValue }
        }

        /// A head unit on SDL Core's TCP transport at `host:port`.
        public init(
            host: String = "127.0.0.1",
            port: Int = 12345,
            app: SDLAppConfiguration,
            catalog: SDLCatalog = .builtIn,
            session: SDLSessionStateMachine.Configuration = .default,
            deadlines: SDLRequestDeadlines = SDLRequestDeadlines(),
            rateLimits: SDLRequestRateLimiter.Configuration = .default,
            validatesRequests: Bool = true,
            checksPermissions: Bool = true,
            connectTimeout: TimeAmount = .seconds(10)
        ) {
            self.init(
                address: .tcp(host: host, port: port),
                app: app,
                catalog: catalog,
                session: session,
                deadlines: deadlines,
                rateLimits: rateLimits,
                validatesRequests: validatesRequests,
                checksPermissions: checksPermissions,
                connectTimeout: connectTimeout
            )
        }

        /// A head unit at `address`, over any transport.
        public init(
            address: SDLTransportAddress,
            tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            app: SDLAppConfiguration,
            catalog: SDLCatalog = .builtIn,
            session: SDLSessionStateMachine.Configuration = .default,
            deadlines: SDLRequestDeadlines = SDLRequestDeadlines(),
            rateLimits: SDLRequestRateLimiter.Configuration = .default,
            validatesRequests: Bool = true,
            checksPermissions: Bool = true,
            connectTimeout: TimeAmount = .seconds(10)
        ) {
            self.address = address
            self.tlsConfiguration = tlsConfiguration
            self.app = app
            self.catalog = catalog
            self.session = session
            self.deadlines = deadlines
            self.rateLimits = rateLimits
            self.validatesRequests = validatesRequests
            self.checksPermissions = checksPermissions
            self.connectTimeout = connectTimeout
        }
    }

    typealias Waiter = CheckedContinuation<SDLRPCMessage, any Error>

    private struct State: Sendable {
        var machine: SDLSessionStateMachine
        var decoder = SDLFrameDecoder()
        var buffer = ByteBuffer()
        var pending = SDLPendingRequests<Waiter>()
        var limiter: SDLRequestRateLimiter
        var tracker: SDLAppStateTracker
        /// One element per write: the frames of one message, one buffer each.
        var outbound: AsyncStream<[ByteBuffer]>.Continuation?
        var established: CheckedContinuation<SDLSessionStateMachine.SessionParameters, any Error>?
        var parameters: SDLSessionStateMachine.SessionParameters?
        var registered = false
        var latestHashID: String?
        var closeError: SDLClientError?
        /// The head unit acknowledged our EndService.
        var endedCleanly = false
    }

    public let configuration: Configuration
    private let state: Mutex<State>
    private let logger: Logger
    private let eventStream: AsyncStream<SDLAppEvent>
    private let eventContinuation: AsyncStream<SDLAppEvent>.Continuation

    /// How many events wait for a slow reader before the oldest are dropped.
    public static let eventBufferLimit = 1000

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.state = Mutex(
            State(
                machine: SDLSessionStateMachine(configuration: configuration.session),
                limiter: SDLRequestRateLimiter(configuration: configuration.rateLimits),
                tracker: SDLAppStateTracker(catalog: configuration.catalog)
            )
        )
        (eventStream, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(Self.eventBufferLimit))
    }

    /// What the head unit says about the app (HMI status, appState, lock screen, permissions …).
    public var events: AsyncStream<SDLAppEvent> { eventStream }

    /// The app's state now.
    public var tracker: SDLAppStateTracker { state.withLock { $0.tracker } }

    /// The negotiated session, once StartService was acknowledged.
    public var sessionParameters: SDLSessionStateMachine.SessionParameters? { state.withLock { $0.parameters } }

    /// The latest OnHashChange `hashID`, for resumption after a reconnect.
    public var latestHashID: String? { state.withLock { $0.latestHashID } }

    /// Connects, negotiates and registers; `onRegistered` gets the RegisterAppInterface response;
    /// then serves until the link goes or ``close()`` ends the session. Throws why it ended
    /// (nothing after a clean close). However it ends, even when the connect fails, ``events``
    /// ends with it and every waiting request fails.
    public func run(onRegistered: @escaping @Sendable (SDLRPCMessage) -> Void = { _ in }) async throws {
        let (channel, outboundBytes, actions): (NIOAsyncChannel<ByteBuffer, ByteBuffer>, AsyncStream<[ByteBuffer]>, [SDLSessionStateMachine.Action])
        do {
            (channel, outboundBytes, actions) = try await open()
        } catch {
            // No link was made: it ends as a link does, with its own error.
            linkDown(error)
            throw error
        }
        execute(actions)
        defer { linkDown(SDLClientError(.linkLost, "the connection to the head unit closed")) }
        do {
            try await serve(channel, outboundBytes: outboundBytes, onRegistered: onRegistered)
        } catch let error as SDLClientError {
            fail(error)
        } catch {
            fail(SDLClientError(.linkLost, "\(error)"))
        }
        let (error, clean) = state.withLock { ($0.closeError, $0.endedCleanly) }
        if let error { throw error }
        if !clean { throw SDLClientError(.linkLost, "the head unit closed the connection") }
    }

    /// Connects and starts the session state machine; refuses when ``close()`` came first.
    private func open() async throws(SDLClientError) -> (NIOAsyncChannel<ByteBuffer, ByteBuffer>, AsyncStream<[ByteBuffer]>, [SDLSessionStateMachine.Action]) {
        guard !state.withLock({ $0.machine.isClosed }) else {
            throw SDLClientError(.closed, "the connection was closed before it started")
        }
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await SDLTransportClient.connect(
                to: configuration.address,
                configuration: .init(connectTimeout: configuration.connectTimeout, tlsConfiguration: configuration.tlsConfiguration)
            )
        } catch let error as SDLTransportError where error.code == .webSocketUpgradeRefused {
            throw SDLClientError(.webSocketUpgradeFailed, error.detail)
        } catch {
            throw SDLClientError(.connectFailed, "\(configuration.address): \(error)")
        }
        let (outboundBytes, outboundContinuation) = AsyncStream<[ByteBuffer]>.makeStream()
        let actions = state.withLock { state -> [SDLSessionStateMachine.Action]? in
            // close() may have come while connecting: then end here instead of starting.
            guard !state.machine.isClosed else { return nil }
            state.outbound = outboundContinuation
            return state.machine.start(now: .now())
        }
        guard let actions else {
            try? await channel.channel.close()
            throw SDLClientError(.closed, "the connection was closed while it was being opened")
        }
        return (channel, outboundBytes, actions)
    }

    private func serve(
        _ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>,
        outboundBytes: AsyncStream<[ByteBuffer]>,
        onRegistered: @escaping @Sendable (SDLRPCMessage) -> Void
    ) async throws {
        try await channel.executeThenClose { inbound, outbound in
            // Each child says whether its end ends the session: the writer (EndService or a
            // failure closed the outbound stream) and the reader (the head unit closed) do.
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    // One buffer per SDL frame, one flush per message.
                    for await frames in outboundBytes { try await outbound.write(contentsOf: frames) }
                    return true
                }
                group.addTask {
                    for try await bytes in inbound { self.received(bytes) }
                    return true
                }
                group.addTask {
                    try await self.runTimers()
                    return true
                }
                group.addTask {
                    onRegistered(try await self.register())
                    return false
                }
                defer { group.cancelAll() }
                while let endsSession = try await group.next(), !endsSession {}
            }
        }
    }

    /// Sends a request and waits for its response (or a GenericResponse with its correlation id).
    /// Refuses locally — nothing is sent — when the session is not registered, the parameters do
    /// not match the spec, the permission table forbids it, or the rate limit would be exceeded.
    public func request(
        _ function: String,
        _ parameters: SDLJSON = [:],
        bulkData: ByteBuffer? = nil,
        timeout: TimeAmount? = nil,
        validate: Bool? = nil,
        checkPermissions: Bool? = nil
    ) async throws -> SDLRPCMessage {
        let catalog = configuration.catalog
        guard let spec = catalog.function(named: function, messageType: .request) else {
            throw SDLClientError(.unknownFunction, "\(function) is not a request of the RPC spec")
        }
        if validate ?? configuration.validatesRequests {
            let issues = catalog.validate(parameters, against: spec)
            if let issue = issues.first {
                throw SDLClientError(.invalidParameters, "\(function): \(issue.message)")
            }
        }
        return try await send(spec, parameters, bulkData: bulkData, timeout: timeout, checkPermissions: checkPermissions ?? configuration.checksPermissions)
    }

    private func send(_ spec: SDLFunction, _ parameters: SDLJSON, bulkData: ByteBuffer?, timeout: TimeAmount?, checkPermissions: Bool) async throws -> SDLRPCMessage {
        try await withCheckedThrowingContinuation { (waiter: Waiter) in
            let now = NIODeadline.now()
            let result = state.withLock { state -> Result<([SDLFrame], SDLAppEvent), SDLClientError> in
                do throws(SDLClientError) {
                    guard spec.name == "RegisterAppInterface" || state.registered else {
                        throw SDLClientError(.notConnected, "the app is not registered")
                    }
                    let level = state.tracker.hmiStatus?.hmiLevel.rawValue ?? "NONE"
                    if checkPermissions, spec.name != "RegisterAppInterface" {
                        try state.tracker.preflight(function: spec.name, hmiLevel: level)
                    }
                    try state.limiter.acquire(hmiLevel: level, now: now)
                    let deadline = configuration.deadlines.deadline(for: spec.name, parameters: parameters, now: now, override: timeout)
                    let correlationID = try state.pending.add(function: spec.name, functionID: spec.functionID, deadline: deadline, waiter: waiter)
                    let rpc = SDLRPCMessage(rpcType: .request, functionID: spec.functionID, correlationID: correlationID, parameters: parameters, bulkData: bulkData)
                    do throws(SDLClientError) {
                        let frames = try state.machine.send(rpc, now: now)
                        return .success((frames, state.tracker.record(.sent, rpc, now: now)))
                    } catch {
                        _ = state.pending.remove(correlationID: correlationID)
                        throw error
                    }
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let (frames, sent)):
                write(frames)
                eventContinuation.yield(sent)
            case .failure(let error):
                waiter.resume(throwing: error)
            }
        }
    }

    /// Ends the session: UnregisterAppInterface (when registered), then EndService; ``run()``
    /// returns once the head unit acknowledged or the EndService timeout passed.
    public func close() async {
        if state.withLock({ $0.registered }) {
            _ = try? await request("UnregisterAppInterface", timeout: .seconds(2))
        }
        let actions = state.withLock { state in
            state.registered = false
            return state.machine.close(now: .now())
        }
        execute(actions)
    }

    // MARK: - Driver

    private func register() async throws -> SDLRPCMessage {
        _ = try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> SDLSessionStateMachine.SessionParameters? in
                if let parameters = state.parameters { return parameters }
                state.established = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        var app = configuration.app
        if app.hashID == nil, let hash = latestHashID { app.hashID = hash }
        let parameters = try SDLRegistrationParameters.make(from: app, catalog: configuration.catalog)
        let response = try await request("RegisterAppInterface", parameters, validate: false, checkPermissions: false)
        let code = response.parameters["resultCode"]?.stringValue ?? "GENERIC_ERROR"
        guard SDLRegistrationParameters.classify(resultCode: code) == .registered else {
            let info = response.parameters["info"]?.stringValue.map { ": \($0)" } ?? ""
            let error = SDLClientError(.registrationFailed, "RegisterAppInterface answered \(code)\(info)")
            fail(error)
            throw error
        }
        state.withLock { $0.registered = true }
        logger.info("app registered", metadata: ["sdl.app": "\(configuration.app.appID)", "sdl.resultCode": "\(code)"])
        return response
    }

    private func received(_ bytes: ByteBuffer) {
        var bytes = bytes
        let now = NIODeadline.now()
        let actions = state.withLock { state -> [SDLSessionStateMachine.Action] in
            state.buffer.writeBuffer(&bytes)
            var actions: [SDLSessionStateMachine.Action] = []
            while true {
                do throws(SDLProtocolError) {
                    guard let frame = try state.decoder.decode(buffer: &state.buffer) else { break }
                    actions += state.machine.receive(frame, now: now)
                } catch {
                    actions += state.machine.decodingFailed(error)
                    break
                }
            }
            state.buffer.discardReadBytes()
            return actions
        }
        execute(actions)
    }

    private func runTimers() async throws {
        while true {
            let now = NIODeadline.now()
            let next = state.withLock { state in
                [state.machine.nextDeadline, state.pending.nextDeadline].compactMap { $0 }.min()
            }
            let wait = min((next ?? now + .milliseconds(50)) - now, .milliseconds(50))
            if wait > .zero { try await Task.sleep(for: .nanoseconds(wait.nanoseconds)) }
            let fired = NIODeadline.now()
            let (actions, expired) = state.withLock { state in
                (state.machine.timerFired(now: fired), state.pending.expire(now: fired))
            }
            for timedOut in expired { timedOut.waiter.resume(throwing: timedOut.error) }
            execute(actions)
        }
    }

    /// Queues the frames, one buffer each: one WebSocket message per frame (SDL-PROTOCOL.md §e).
    private func write(_ frames: [SDLFrame]) {
        guard !frames.isEmpty else { return }
        let buffers = frames.map { frame in
            var bytes = ByteBuffer()
            bytes.writeSDLFrame(frame)
            return bytes
        }
        _ = state.withLock { $0.outbound }?.yield(buffers)
    }

    private func execute(_ actions: [SDLSessionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .write(let frames):
                write(frames)
            case .deliver(let rpc):
                deliver(rpc)
            case .established(let parameters):
                let waiter = state.withLock { state in
                    state.parameters = parameters
                    state.decoder.maximumPayloadSize = max(parameters.mtu, SDLFrameDecoder.defaultMaximumPayloadSize)
                    defer { state.established = nil }
                    return state.established
                }
                waiter?.resume(returning: parameters)
            case .closeConnection(let error):
                if let error { fail(error) } else { state.withLock { $0.endedCleanly = true } }
                state.withLock { $0.outbound }?.finish()
            }
        }
    }

    private func deliver(_ rpc: SDLRPCMessage) {
        let now = NIODeadline.now()
        switch rpc.rpcType {
        case .response:
            let (completed, events) = state.withLock { state -> (SDLPendingRequests<Waiter>.Completed?, [SDLAppEvent]) in
                let received = state.tracker.record(.received, rpc, now: now)
                guard let completed = state.pending.complete(with: rpc) else { return (nil, [received]) }
                return (completed, [received] + state.tracker.apply(response: rpc, now: now))
            }
            events.forEach { eventContinuation.yield($0) }
            completed?.waiter.resume(returning: rpc)
        case .notification:
            let name = configuration.catalog.functionName(forID: rpc.functionID)
            let events = state.withLock { state in
                if name == "OnHashChange", let hash = rpc.parameters["hashID"]?.stringValue { state.latestHashID = hash }
                return [state.tracker.record(.received, rpc, now: now)] + state.tracker.apply(rpc, now: now)
            }
            events.forEach { eventContinuation.yield($0) }
            if name == "OnAppInterfaceUnregistered" {
                let reason = rpc.parameters["reason"]?.stringValue ?? "unknown"
                fail(SDLClientError(.unregistered, "the head unit unregistered the app: \(reason)"))
                state.withLock { $0.outbound }?.finish()
            }
        case .request:
            break  // head units send no requests to apps over RPC
        }
    }

    /// Records why the session ends (the first reason wins) and fails every pending request.
    private func fail(_ error: SDLClientError) {
        let failed = state.withLock { state in
            if state.closeError == nil { state.closeError = error }
            state.registered = false
            let waiter = state.established
            state.established = nil
            waiter?.resume(throwing: error)
            return state.pending.failAll(error)
        }
        for entry in failed { entry.waiter.resume(throwing: entry.error) }
    }

    private func linkDown(_ error: SDLClientError) {
        fail(error)
        let (actions, events) = state.withLock { state in
            state.outbound?.finish()
            state.outbound = nil
            return (state.machine.connectionClosed(), state.tracker.linkDown(now: .now()))
        }
        events.forEach { eventContinuation.yield($0) }
        _ = actions
        eventContinuation.finish()
    }
}
