import HeadUnitModel
import Logging
import NIOCore
import SDLProtocol
import SDLTime
import SDLTransport
import ServiceLifecycle
import Synchronization

/// Runs a ``HeadlessHMI`` over a WebSocket to SDL Core's HMI port: connects, registers, answers,
/// and connects again with backoff (100 ms × 1.5ⁿ up to 5 s) whenever the connection fails or
/// Core restarts, until the service group shuts down. Its time is the injected ``SDLClock``'s
/// (the vehicle's samples, interactions' deadlines, the backoff), as the simulator's and
/// `SDLClient`'s: tests move an `SDLManualClock` instead of waiting.
///
/// The state sits behind a lock so that the control API can read it and act (activate an app,
/// press a button) while the connection's task reads from Core.
public final class HMIConnection: Service, Sendable {
    public let address: SDLTransportAddress
    private let state: Mutex<HeadlessHMI>
    /// The connection's outbox: what the HMI says to Core, queued under the state's lock by
    /// whoever changed the state (the reader, the vehicle loop, the control API), so that Core
    /// gets it in the order it was made (OnReady before any button press, a response before what
    /// it caused), and written by the connection's one writer. `nil` while not connected.
    private let outbox = Mutex<(continuation: AsyncStream<HMIMessage>.Continuation, channel: any Channel)?>(nil)
    /// Messages the outbox holds while Core reads none; one more ends the connection (and the HMI
    /// connects again) rather than growing without bound.
    public let outboxLimit: Int
    private let logger: Logger
    private let configuration: SDLTransportClient.Configuration
    /// What the vehicle loop, the reconnection backoff and interactions' deadlines run on.
    public let clock: any SDLClock

    /// The vehicle, as the simulator's: its generated drive unless told otherwise, or a replayed
    /// OpenXC trace; sampled every `vehicleInterval`.
    private let vehicle: VehicleSource
    private let replayer: Mutex<TraceReplayer?>
    private let vehicleInterval: Duration

    /// The bytes of the streams Core serves on its socket consumer, for the control API's readers.
    public let relay: HMIStreamRelay
    /// Told after every change of the HMI's state: the stream readers follow ``HeadlessHMI/streamSource(_:)``.
    private let streamChanges: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    /// The stream readers running, by source.
    private let readers = Mutex<[HMIStreamSource: StreamReaderHandle]>([:])

    public init(
        address: SDLTransportAddress, hmi: HeadlessHMI, logger: Logger,
        vehicle: VehicleSource = .generated(GeneratedDrive()), vehicleInterval: Duration = .milliseconds(100),
        clock: any SDLClock = SDLSystemClock(), relay: HMIStreamRelay = HMIStreamRelay(), outboxLimit: Int = 4_096
    ) {
        self.address = address
        self.outboxLimit = max(1, outboxLimit)
        self.relay = relay
        self.streamChanges = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.clock = clock
        self.vehicle = vehicle
        if case .trace(let trace, let speed, let loop) = vehicle {
            replayer = Mutex(TraceReplayer(trace: trace, speedFactor: speed, loops: loop))
        } else {
            replayer = Mutex(nil)
        }
        self.vehicleInterval = vehicleInterval
        self.state = Mutex(hmi)
        self.logger = logger
        var configuration = SDLTransportClient.Configuration(connectTimeout: .seconds(5))
        configuration.webSocketMessages = .text
        self.configuration = configuration
    }

    /// What the HMI knows now (phase, apps).
    public var snapshot: HeadlessHMI { state.withLock { $0 } }

    /// Applies a change to the HMI (activate an app, a notification to send) and sends what it returns.
    /// Throws ``HMIError`` `connectionFailed` when Core is not connected.
    /// The messages are queued for Core, after everything queued before, when this returns.
    @discardableResult
    public func perform(_ change: (inout HeadlessHMI) throws(HMIError) -> [HMIMessage]) async throws -> [HMIMessage] {
        let messages = try state.withLock { hmi throws(HMIError) in
            guard hmi.phase == .ready, outbox.withLock({ $0 != nil }) else {
                throw HMIError(.connectionFailed, "the HMI is not connected to Core (\(address))")
            }
            let messages = try change(&hmi)
            guard enqueue(messages) else {
                throw HMIError(.connectionFailed, "SDL Core read none of the last \(outboxLimit) messages: the connection was ended")
            }
            return messages
        }
        streamChanges.continuation.yield()
        return messages
    }

    /// Queues `messages` for Core in the connection's outbox; dropped when not connected. Called
    /// inside the state's lock, so that the outbox's order is the order the state made them in.
    /// False when not all of them were queued.
    @discardableResult
    private func enqueue(_ messages: [HMIMessage]) -> Bool {
        guard !messages.isEmpty else { return true }
        return outbox.withLock { outbox in
            guard let (continuation, channel) = outbox else { return false }
            for message in messages {
                if case .dropped = continuation.yield(message) {
                    // Core has read nothing for ``outboxLimit`` messages: end the connection now
                    // (its writer may be waiting on a full socket and would never notice).
                    continuation.finish()
                    channel.close(promise: nil)
                    outbox = nil
                    return false
                }
            }
            return true
        }
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.tick() }
                group.addTask { try await self.connectRepeatedly() }
                group.addTask { await self.relayStreams() }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Every `vehicleInterval` of ``clock``: samples the vehicle and sends what Core subscribed to
    /// (a trace's buttons as the driver's presses), and answers the interactions whose time ran
    /// out (so they end within one interval of their deadline).
    private func tick() async throws {
        let started = clock.now()
        let interval = TimeAmount(vehicleInterval)
        while !Task.isCancelled {
            let now = clock.now()
            let events = vehicleEvents(at: Duration(now - started))
            state.withLock { hmi in
                var out = hmi.expireInteractions(now: now)
                for event in events {
                    switch event {
                    case .vehicleData(let values):
                        out += hmi.vehicleSample(values)
                    case .buttonEvent(let name, let mode):
                        // Once ready: OnReady is then in the outbox ahead of it.
                        if hmi.phase == .ready {
                            out.append(hmi.notify("Buttons.OnButtonEvent", ["name": .string(name), "mode": .string(mode.rawValue)]))
                        }
                    case .buttonPress(let name, let mode):
                        if hmi.phase == .ready {
                            out.append(hmi.notify("Buttons.OnButtonPress", ["name": .string(name), "mode": .string(mode.rawValue)]))
                        }
                    }
                }
                enqueue(out)
            }
            try? await clock.sleep(until: now + interval)  // cancelled: the loop ends
        }
    }

    /// What the vehicle did by `elapsed`: a drive's whole sample, a trace's changes and buttons.
    private func vehicleEvents(at elapsed: Duration) -> [SimulatedVehicleEvent] {
        switch vehicle {
        case .generated(let drive):
            return [.vehicleData(drive.sample(at: elapsed).values)]
        case .trace:
            return replayer.withLock { $0?.advance(to: elapsed) ?? [] }
        case .none:
            return []
        }
    }

    private func connectRepeatedly() async throws {
        do {
            var attempt = 0
            while !Task.isCancelled {
                do {
                    let channel = try await SDLTransportClient.connect(to: self.address, configuration: self.configuration)
                    attempt = 0
                    self.logger.info("HMI connected to SDL Core", metadata: ["sdl.hmi": "\(self.address)"])
                    try await self.serve(channel)
                    self.logger.notice("SDL Core closed the HMI connection", metadata: ["sdl.hmi": "\(self.address)"])
                } catch is CancellationError {
                    break
                } catch {
                    if attempt == 0 || attempt % 20 == 0 {
                        self.logger.warning(
                            "HMI connection to SDL Core failed", metadata: ["sdl.hmi": "\(self.address)", "error": "\(error)"])
                    }
                }
                self.state.withLock { $0.disconnected() }
                self.streamChanges.continuation.yield()
                attempt += 1
                let delay = min(5.0, 0.1 * pow15(attempt - 1))
                try? await self.clock.sleep(for: .milliseconds(Int64(delay * 1000)))  // cancelled: the loop ends
            }
        }
    }

    /// One connection: its writer drains the outbox while its reader answers Core; whichever
    /// ends first (Core closed, or the outbox overflowed) ends the other.
    private func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        try await channel.executeThenClose { inbound, outbound in
            let (messages, continuation) = AsyncStream.makeStream(of: HMIMessage.self, bufferingPolicy: .bufferingOldest(outboxLimit))
            state.withLock { hmi in
                let opening = hmi.connected()
                outbox.withLock { $0 = (continuation, channel.channel) }
                enqueue(opening)
            }
            defer {
                outbox.withLock { $0 = nil }
                continuation.finish()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.write(messages, to: outbound) }
                group.addTask { try await self.read(inbound) }
                // The reader waits for Core, not for cancellation: closing the channel ends it.
                defer { channel.channel.close(promise: nil) }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Answers what Core sends until it closes the connection.
    private func read(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) async throws {
        for try await message in inbound {
            do throws(HMIError) {
                let parsed = try HMIMessage(parsing: message.readableBytesView)
                // At trace level every message is logged whole, as it came: what Core sends its HMI.
                logger.trace(
                    "from Core", metadata: ["hmi.method": "\(parsed.method ?? "-")", "hmi.message": "\(String(buffer: message))"])
                let becameReady = try state.withLock { hmi throws(HMIError) in
                    let before = hmi.phase
                    enqueue(try hmi.receive(parsed, now: clock.now()))
                    return before != .ready && hmi.phase == .ready
                }
                streamChanges.continuation.yield()
                if becameReady {
                    logger.info("HMI ready: components registered, OnReady sent", metadata: ["sdl.hmi": "\(address)"])
                }
            } catch  where error.code == .registrationRefused {
                throw error
            } catch {
                logger.warning("a message from Core was not understood", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Writes the outbox's messages in order until the connection ends; an outbox that
    /// overflowed (finished while the connection lasts) ends it.
    private func write(_ messages: AsyncStream<HMIMessage>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        for await message in messages {
            let bytes = message.json.serializedBytes()
            logger.trace(
                "to Core", metadata: ["hmi.method": "\(message.method ?? "-")", "hmi.message": "\(String(decoding: bytes, as: UTF8.self))"])
            try await outbound.write(ByteBuffer(bytes: bytes))
        }
        guard Task.isCancelled else {
            throw HMIError(.connectionFailed, "SDL Core read none of the last \(outboxLimit) messages for it")
        }
    }
}

extension HMIConnection {
    /// The control API's view of an app: the HMI's (``HeadlessHMI/App/json``) with, for each
    /// stream, the bytes read from Core's socket consumer and the readers relayed to.
    public func json(of app: HeadlessHMI.App) -> SDLJSON {
        guard case .object(var object) = app.json else { return app.json }
        var streams: [String: SDLJSON] = [:]
        for kind in HMIStream.Kind.allCases {
            guard case .object(var stream) = (kind == .video ? app.videoStream : app.audioStream).json else { continue }
            stream["bytes"] = .int(Int64(relay.bytesRead(appID: app.appID, kind: kind)))
            stream["readers"] = .int(Int64(relay.readers(appID: app.appID, kind: kind)))
            streams[kind.rawValue] = .object(stream)
        }
        object["streams"] = .object(streams)
        return .object(object)
    }

    /// Runs a ``HMIStreamReader`` for each stream Core serves on its socket consumer now (the
    /// state's ``HeadlessHMI/streamSource(_:)``), and stops the ones it no longer serves, until
    /// the service stops.
    func relayStreams() async {
        await withDiscardingTaskGroup { group in
            for await _ in streamChanges.stream {
                let hmi = snapshot
                let wanted = Set(HMIStream.Kind.allCases.compactMap { hmi.streamSource($0) })
                let (stopping, starting) = readers.withLock { readers -> ([StreamReaderHandle], [(HMIStreamSource, StreamReaderHandle)]) in
                    let stopping = readers.filter { !wanted.contains($0.key) }
                    for source in stopping.keys { readers[source] = nil }
                    var starting: [(HMIStreamSource, StreamReaderHandle)] = []
                    for source in wanted where readers[source] == nil {
                        let handle = StreamReaderHandle()
                        readers[source] = handle
                        starting.append((source, handle))
                    }
                    return (Array(stopping.values), starting)
                }
                for handle in stopping { handle.stop() }
                for (source, handle) in starting {
                    group.addTask { await self.read(source, handle) }
                }
            }
            let running = readers.withLock { readers in
                defer { readers = [:] }
                return Array(readers.values)
            }
            for handle in running { handle.stop() }
        }
        relay.finishAll()
    }

    private func read(_ source: HMIStreamSource, _ handle: StreamReaderHandle) async {
        let metadata: Logger.Metadata = ["sdl.stream": "\(source.kind.rawValue)", "sdl.stream.source": "\(source.host):\(source.port)"]
        logger.info("reading the stream from SDL Core", metadata: metadata)
        do {
            try await HMIStreamReader(source: source, relay: relay).run(clock: clock) { handle.opened($0) }
            logger.info("SDL Core closed the stream", metadata: metadata)
        } catch {
            if !handle.isStopped {
                logger.warning("the stream from SDL Core failed", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            }
        }
        readers.withLock { readers in
            if readers[source] === handle { readers[source] = nil }
        }
    }
}

/// A running stream reader's connection, closed from outside to stop it.
final class StreamReaderHandle: Sendable {
    private let state = Mutex<(channel: (any Channel)?, stopped: Bool)>((nil, false))

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// The reader connected: keep the channel, or close it at once when stopped meanwhile.
    func opened(_ channel: any Channel) {
        let stopped = state.withLock { state in
            state.channel = channel
            return state.stopped
        }
        if stopped { channel.close(promise: nil) }
    }

    func stop() {
        let channel = state.withLock { state in
            state.stopped = true
            return state.channel
        }
        channel?.close(promise: nil)
    }
}

/// 1.5ⁿ for the backoff, without Foundation.
private func pow15(_ exponent: Int) -> Double {
    var value = 1.0
    for _ in 0..<max(0, min(exponent, 32)) { value *= 1.5 }
    return value
}
