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
    private let writer = Mutex<NIOAsyncChannelOutboundWriter<ByteBuffer>?>(nil)
    private let logger: Logger
    private let configuration: SDLTransportClient.Configuration
    /// What the vehicle loop, the reconnection backoff and interactions' deadlines run on.
    public let clock: any SDLClock

    /// The vehicle, as the simulator's: its generated drive unless told otherwise, or a replayed
    /// OpenXC trace; sampled every `vehicleInterval`.
    private let vehicle: VehicleSource
    private let replayer: Mutex<TraceReplayer?>
    private let vehicleInterval: Duration

    public init(
        address: SDLTransportAddress, hmi: HeadlessHMI, logger: Logger,
        vehicle: VehicleSource = .generated(GeneratedDrive()), vehicleInterval: Duration = .milliseconds(100),
        clock: any SDLClock = SDLSystemClock()
    ) {
        self.address = address
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
    @discardableResult
    public func perform(_ change: (inout HeadlessHMI) throws(HMIError) -> [HMIMessage]) async throws -> [HMIMessage] {
        let messages = try state.withLock { hmi throws(HMIError) in
            guard hmi.phase == .ready else { throw HMIError(.connectionFailed, "the HMI is not connected to Core (\(address))") }
            return try change(&hmi)
        }
        guard let outbound = writer.withLock({ $0 }) else {
            throw HMIError(.connectionFailed, "the HMI is not connected to Core (\(address))")
        }
        try await send(messages, to: outbound)
        return messages
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.tick() }
                group.addTask { try await self.connectRepeatedly() }
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
            let messages = state.withLock { hmi in
                var out = hmi.expireInteractions(now: now)
                for event in events {
                    switch event {
                    case .vehicleData(let values):
                        out += hmi.vehicleSample(values)
                    case .buttonEvent(let name, let mode):
                        if hmi.phase == .ready {
                            out.append(hmi.notify("Buttons.OnButtonEvent", ["name": .string(name), "mode": .string(mode.rawValue)]))
                        }
                    case .buttonPress(let name, let mode):
                        if hmi.phase == .ready {
                            out.append(hmi.notify("Buttons.OnButtonPress", ["name": .string(name), "mode": .string(mode.rawValue)]))
                        }
                    }
                }
                return out
            }
            if !messages.isEmpty, let outbound = writer.withLock({ $0 }) {
                try? await send(messages, to: outbound)
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
                self.writer.withLock { $0 = nil }
                attempt += 1
                let delay = min(5.0, 0.1 * pow15(attempt - 1))
                try? await self.clock.sleep(for: .milliseconds(Int64(delay * 1000)))  // cancelled: the loop ends
            }
        }
    }

    private func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async throws {
        try await channel.executeThenClose { inbound, outbound in
            let opening = state.withLock { $0.connected() }
            writer.withLock { $0 = outbound }
            try await send(opening, to: outbound)
            for try await message in inbound {
                let replies: [HMIMessage]
                do throws(HMIError) {
                    let parsed = try HMIMessage(parsing: message.readableBytesView)
                    // At trace level every message is logged whole, as it came: what Core sends its HMI.
                    logger.trace(
                        "from Core", metadata: ["hmi.method": "\(parsed.method ?? "-")", "hmi.message": "\(String(buffer: message))"])
                    let (before, answers, after) = try state.withLock { hmi throws(HMIError) in
                        let before = hmi.phase
                        let answers = try hmi.receive(parsed, now: clock.now())
                        return (before, answers, hmi.phase)
                    }
                    replies = answers
                    if before != .ready, after == .ready {
                        logger.info("HMI ready: components registered, OnReady sent", metadata: ["sdl.hmi": "\(address)"])
                    }
                } catch  where error.code == .registrationRefused {
                    throw error
                } catch {
                    logger.warning("a message from Core was not understood", metadata: ["error": "\(error)"])
                    continue
                }
                try await send(replies, to: outbound)
            }
        }
    }

    private func send(_ messages: [HMIMessage], to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
        for message in messages {
            let bytes = message.json.serializedBytes()
            logger.trace(
                "to Core", metadata: ["hmi.method": "\(message.method ?? "-")", "hmi.message": "\(String(decoding: bytes, as: UTF8.self))"])
            try await outbound.write(ByteBuffer(bytes: bytes))
        }
    }
}

/// 1.5ⁿ for the backoff, without Foundation.
private func pow15(_ exponent: Int) -> Double {
    var value = 1.0
    for _ in 0..<max(0, min(exponent, 32)) { value *= 1.5 }
    return value
}
