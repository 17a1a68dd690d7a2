import HeadUnitSimulator
import NIOCore
import SDLClient
import SDLProtocol

/// Wires an ``SDLSessionStateMachine`` to the pure simulated head unit: the machine's frames go
/// into ``HeadUnit/receive(_:on:now:)`` as bytes, the head unit's bytes come back as frames.
/// A hand-moved clock; no sockets, no sleeps.
struct SessionHarness {
    var unit: HeadUnit
    let connection: ConnectionID
    var machine: SDLSessionStateMachine
    var now = NIODeadline.uptimeNanoseconds(1_000_000_000)
    private var decoder = SDLFrameDecoder(maximumPayloadSize: 1 << 20)
    private var buffer = ByteBuffer()

    /// Frames the machine wrote, in order.
    var sent: [SDLFrame] = []
    /// Frames the head unit wrote, in order.
    var received: [SDLFrame] = []
    var established: [SDLSessionStateMachine.SessionParameters] = []
    var delivered: [SDLRPCMessage] = []
    /// Every `closeConnection` action, in order.
    var closes: [SDLClientError?] = []
    /// Control messages on the video and audio services, in order.
    var streamControls: [StreamControl] = []
    struct StreamControl: Hashable {
        var service: SDLStreamingService
        var message: SDLControlMessage
    }
    /// Whether the head unit closed the connection.
    var unitClosed = false

    init(
        _ configuration: SDLSessionStateMachine.Configuration = .default,
        unit unitConfiguration: HeadUnitConfiguration = HeadUnitConfiguration()
    ) {
        unit = HeadUnit(configuration: unitConfiguration)
        connection = unit.connectionOpened()
        machine = SDLSessionStateMachine(configuration: configuration)
    }

    /// Runs StartService until the ACK is handled.
    mutating func start() {
        run(machine.start(now: now))
    }

    mutating func send(_ rpc: SDLRPCMessage) throws {
        let frames = try machine.send(rpc, now: now)
        run([.write(frames)])
    }

    mutating func close() {
        run(machine.close(now: now))
    }

    /// Moves the clock, firing the machine's and the head unit's timers in deadline order.
    mutating func advance(by amount: TimeAmount) {
        let end = now + amount
        while true {
            let next = [machine.nextDeadline, unit.nextDeadline].compactMap { $0 }.filter { $0 <= end }.min()
            guard let next else { break }
            now = max(now, next)
            if let deadline = machine.nextDeadline, deadline <= now {
                run(machine.timerFired(now: now))
            }
            if let deadline = unit.nextDeadline, deadline <= now {
                apply(unit.advance(to: now))
            }
        }
        now = end
    }

    /// Executes the machine's actions, as the real driver does.
    mutating func run(_ actions: [SDLSessionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .write(let frames):
                sent += frames
                var bytes = ByteBuffer()
                for frame in frames { bytes.writeSDLFrame(frame) }
                apply(unit.receive(bytes, on: connection, now: now))
            case .deliver(let rpc):
                delivered.append(rpc)
            case .established(let parameters):
                established.append(parameters)
            case .streamControl(let service, let message):
                streamControls.append(.init(service: service, message: message))
            case .closeConnection(let error):
                closes.append(error)
            }
        }
    }

    /// Feeds the head unit's writes back into the machine.
    private mutating func apply(_ actions: [HeadUnitAction]) {
        for action in actions {
            switch action {
            case .write(_, var bytes):
                buffer.writeBuffer(&bytes)
                while let frame = try! decoder.decode(buffer: &buffer) {
                    received.append(frame)
                    run(machine.receive(frame, now: now))
                }
            case .close:
                unitClosed = true
            }
        }
    }
}

/// Builds frames by hand, for ACKs and malformed input the simulator never sends.
enum SessionFrames {
    static func control(
        _ message: SDLControlMessage, version: UInt8, service: SDLServiceType = .rpc, session: UInt8 = 1,
        messageID: UInt32 = 0
    ) -> SDLFrame {
        message.makeFrame(version: version, serviceType: service, sessionID: session, messageID: messageID)
    }

    /// A StartServiceACK of a v2–v4 head unit: a 4-byte big-endian hash id.
    static func legacyACK(version: UInt8, hashID: Int32 = 0x0001_0001, session: UInt8 = 1) -> SDLFrame {
        control(.startServiceACK(.init(hashID: hashID)), version: version, session: session)
    }

    /// A v5 StartServiceACK as Core 8.2 sends it (docs/protocol.md §k).
    static func v5ACK(protocolVersion: String? = "5.4.0", hashID: Int32? = 65537, mtu: Int64? = 131_072, session: UInt8 = 1) -> SDLFrame {
        control(.startServiceACK(.init(protocolVersion: protocolVersion, hashID: hashID, mtu: mtu)), version: 5, session: session)
    }

    static func rpcFrame(_ rpc: SDLRPCMessage, version: UInt8 = 5, session: UInt8 = 1, messageID: UInt32 = 1) -> SDLFrame {
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(rpc)
        let header = SDLFrameHeader(
            version: version, frameType: .single, serviceType: .rpc, sessionID: session, dataSize: 0, messageID: messageID)
        return SDLFrame(header: header, payload: payload)
    }
}

extension SDLSessionStateMachine {
    /// A machine that has sent StartService and handled `ack`; returns the actions of the ACK.
    static func started(
        with ack: SDLFrame, configuration: Configuration = .default, now: NIODeadline
    ) -> (SDLSessionStateMachine, [Action]) {
        var machine = SDLSessionStateMachine(configuration: configuration)
        _ = machine.start(now: now)
        let actions = machine.receive(ack, now: now)
        return (machine, actions)
    }
}

extension SDLSessionStateMachine.Action {
    var writtenFrames: [SDLFrame]? {
        if case .write(let frames) = self { return frames }
        return nil
    }

    var closeError: SDLClientError?? {
        if case .closeConnection(let error) = self { return .some(error) }
        return nil
    }
}
