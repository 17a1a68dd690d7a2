import NIOCore
import SDLClient
import SDLProtocol
import SDLSpec

/// Plays the head unit to an ``SDLConnectionStateMachine`` frame by frame: a v5 StartServiceACK
/// as Core 8.2 sends it, then responses and notifications written by hand (docs/protocol.md §k).
/// Waiters are plain numbers; the clock is a variable. No sockets, no tasks.
struct ConnectionMachineScript {
    typealias Machine = SDLConnectionStateMachine<Int>

    var machine: Machine
    var now = NIODeadline.uptimeNanoseconds(1_000_000_000)
    private var nextMessageID: UInt32 = 1

    init(
        app: SDLAppConfiguration = SDLAppConfiguration(appName: "Machine", appID: "machine-app"),
        maximumPending: Int = SDLPendingRequests<Int>.defaultMaximumPending,
        _ configure: (inout SDLConnection.Configuration) -> Void = { _ in }
    ) {
        var configuration = SDLConnection.Configuration(app: app)
        configure(&configuration)
        machine = Machine(configuration: configuration, maximumPending: maximumPending)
    }

    /// StartService and its v5 ACK; returns the ACK's actions (RegisterAppInterface goes out).
    mutating func establish() -> [Machine.Action] {
        _ = machine.start(now: now)
        return feed(SessionFrames.v5ACK())
    }

    /// ``establish()``, then a RegisterAppInterface response with `resultCode`.
    mutating func register(resultCode: String = "SUCCESS") -> [Machine.Action] {
        _ = establish()
        return respond(
            to: registrationCorrelationID ?? 0, functionID: 1,
            [
                "success": .bool(SDLRegistrationParameters.classify(resultCode: resultCode) == .registered),
                "resultCode": .string(resultCode),
            ])
    }

    var registrationCorrelationID: UInt32? {
        if case .registering(let id) = machine.registration { return id }
        return nil
    }

    mutating func respond(to correlationID: UInt32, functionID: UInt32, _ parameters: SDLJSON) -> [Machine.Action] {
        feed(
            SessionFrames.rpcFrame(
                SDLRPCMessage(rpcType: .response, functionID: functionID, correlationID: correlationID, parameters: parameters),
                messageID: takeMessageID()
            ))
    }

    mutating func notify(_ name: String, _ parameters: SDLJSON) -> [Machine.Action] {
        let id = machine.configuration.catalog.function(named: name, messageType: .notification)?.functionID ?? 0
        return feed(
            SessionFrames.rpcFrame(
                SDLRPCMessage(
                    rpcType: .notification, functionID: id, correlationID: SDLRPCMessage.notificationCorrelationID, parameters: parameters),
                messageID: takeMessageID()
            ))
    }

    mutating func send(
        _ function: String, _ parameters: SDLJSON = [:], options: SDLRequestOptions = .default, waiter: Int
    ) -> (UInt32?, [Machine.Action]) {
        let (id, actions) = machine.send(function, parameters, options: options, waiter: waiter, now: now)
        return (id, actions)
    }

    mutating func feed(_ frame: SDLFrame) -> [Machine.Action] {
        var bytes = ByteBuffer()
        bytes.writeSDLFrame(frame)
        return machine.receive(bytes, now: now)
    }

    private mutating func takeMessageID() -> UInt32 {
        defer { nextMessageID += 1 }
        return nextMessageID
    }
}

extension SDLConnectionStateMachine.Action {
    var written: [SDLFrame]? {
        if case .write(let frames) = self { return frames }
        return nil
    }

    var failure: (waiter: Waiter, error: SDLClientError)? {
        if case .fail(let waiter, let error) = self { return (waiter, error) }
        return nil
    }

    var success: Waiter? {
        if case .succeed(let waiter, _) = self { return waiter }
        return nil
    }

    var isRegistered: Bool {
        if case .registered = self { return true }
        return false
    }

    var isClose: Bool {
        if case .closeConnection = self { return true }
        return false
    }

    /// The RPC a written single frame carries.
    var writtenRPC: SDLRPCMessage? {
        guard let frame = written?.first, frame.header.frameType == .single else { return nil }
        var payload = frame.payload
        return try? payload.readSDLRPCMessage()
    }
}
