import NIOCore
import NIOPosix
import SDLProtocol
import SDLSpec

/// A minimal SDL app over real TCP, built only from SDLProtocol: what end-to-end tests use to
/// talk to the simulator the way a phone app talks to SDL Core.
final class RawSDLClient: Sendable {
    enum Inbound: Sendable {
        case control(SDLFrameHeader, SDLControlMessage)
        case rpc(SDLMessage, SDLRPCMessage)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    let catalog = SDLCatalog.builtIn

    init(port: Int) async throws {
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Runs `body` with a session to the head unit; the connection closes afterwards.
    func withSession<T: Sendable>(_ body: (inout Session) async throws -> T) async throws -> T {
        try await channel.executeThenClose { inbound, outbound in
            var session = Session(inbound: inbound.makeAsyncIterator(), outbound: outbound, catalog: catalog)
            return try await body(&session)
        }
    }

    struct Session {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
        let catalog: SDLCatalog
        var decoder = SDLFrameDecoder(maximumPayloadSize: 1 << 20)
        var assembler = SDLMessageAssembler()
        var buffer = ByteBuffer()
        var pending: [Inbound] = []
        var sessionID: UInt8 = 0
        var messageID: UInt32 = 1
        var correlationID: UInt32 = 1
        /// Every notification received so far, in order.
        var notifications: [SDLRPCMessage] = []
        /// Frames received, for checking multi-frame delivery.
        var frameTypes: [SDLFrameType] = []

        mutating func write(_ frames: some Sequence<SDLFrame>) async throws {
            var bytes = ByteBuffer()
            for frame in frames { bytes.writeSDLFrame(frame) }
            try await outbound.write(bytes)
        }

        /// The next thing the head unit sent; throws when the connection closes.
        mutating func next() async throws -> Inbound {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                while let frame = try decoder.decode(buffer: &buffer) {
                    frameTypes.append(frame.header.frameType)
                    if frame.header.frameType == .control {
                        pending.append(.control(frame.header, try SDLControlMessage(frame: frame)))
                    } else if let message = try assembler.process(frame, now: .now()) {
                        var payload = message.payload
                        let rpc = try payload.readSDLRPCMessage()
                        if rpc.rpcType == .notification { notifications.append(rpc) }
                        pending.append(.rpc(message, rpc))
                    }
                }
                if !pending.isEmpty { continue }
                guard var more = try await inbound.next() else { throw Failure(description: "the head unit closed the connection") }
                buffer.writeBuffer(&more)
            }
        }

        /// StartService(RPC) v5; returns the ACK's parameters.
        mutating func start() async throws -> SDLControlMessage.StartServiceACK {
            try await write([
                SDLControlMessage.startService(.init(protocolVersion: "5.4.0")).makeFrame(
                    version: 5, serviceType: .rpc, sessionID: 0, messageID: 1)
            ])
            guard case .control(let header, .startServiceACK(let ack)) = try await next() else {
                throw Failure(description: "no StartServiceACK")
            }
            sessionID = header.sessionID
            return ack
        }

        /// Sends a request and waits for its response, keeping notifications that arrive meanwhile.
        mutating func call(
            _ function: String, _ parameters: SDLJSON = [:], bulkData: ByteBuffer? = nil, mtu: Int = 131_072
        ) async throws -> SDLRPCMessage {
            let id = correlationID
            correlationID += 1
            var payload = ByteBuffer()
            payload.writeSDLRPCMessage(
                SDLRPCMessage(
                    rpcType: .request, functionID: catalog.functionID(named: function)!, correlationID: id, parameters: parameters,
                    bulkData: bulkData))
            let message = SDLMessage(
                version: 5, serviceType: bulkData == nil ? .rpc : .bulkData, sessionID: sessionID, messageID: messageID, payload: payload)
            messageID += 1
            try await write(SDLMessageFragmenter(message: message, maximumPayloadSize: mtu))
            while true {
                if case .rpc(_, let rpc) = try await next(), rpc.rpcType == .response, rpc.correlationID == id { return rpc }
            }
        }

        /// Waits for the next notification called `name`, keeping others.
        mutating func waitFor(_ name: String, where predicate: (SDLRPCMessage) -> Bool = { _ in true }) async throws -> SDLRPCMessage {
            if let found = notifications.first(where: { catalog.functionName(forID: $0.functionID) == name && predicate($0) }) {
                notifications.removeAll { $0 == found }
                return found
            }
            while true {
                if case .rpc(_, let rpc) = try await next(), rpc.rpcType == .notification,
                    catalog.functionName(forID: rpc.functionID) == name, predicate(rpc)
                {
                    notifications.removeAll { $0 == rpc }
                    return rpc
                }
            }
        }
    }
}
