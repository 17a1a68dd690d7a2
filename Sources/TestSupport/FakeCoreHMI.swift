import HeadlessHMI
import NIOCore
import SDLProtocol
import SDLTransport

/// A fake of SDL Core's HMI WebSocket for tests of the headless HMI: it binds 127.0.0.1:0, takes
/// one HMI connection, plays the message broker's part (registrations answered 1000 × n,
/// subscriptions "OK", until `BasicCommunication.OnReady`) and hands the test the connection.
public struct FakeCoreHMI: Sendable {
    /// What the fake Core reads and writes on the HMI's connection.
    public struct Connection {
        var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

        public init(inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) {
            self.inbound = inbound
            self.outbound = outbound
        }

        /// The HMI's next message; throws when it closed the connection.
        public mutating func next() async throws -> HMIMessage {
            guard let bytes = try await inbound.next() else { throw Closed() }
            return try HMIMessage(parsing: bytes.readableBytesView)
        }

        /// The first of the HMI's next `limit` messages that `matches` (others are skipped: samples
        /// of the drive may come between a request and its answer); nil when none did.
        public mutating func next(within limit: Int = 50, where matches: (HMIMessage) -> Bool) async throws -> HMIMessage? {
            for _ in 0..<limit {
                let message = try await next()
                if matches(message) { return message }
            }
            return nil
        }

        public func send(_ message: HMIMessage) async throws {
            try await outbound.write(ByteBuffer(bytes: message.json.serializedBytes()))
        }

        /// Core announces an app (`BasicCommunication.OnAppRegistered` with `application`); the
        /// HMI's first answer must be the app's displays (`BasicCommunication.OnSystemCapabilityUpdated`,
        /// DISPLAYS, for that app id), which is returned; anything else throws.
        @discardableResult
        public mutating func announce(_ application: SDLJSON) async throws -> HMIMessage {
            try await send(.notification(method: "BasicCommunication.OnAppRegistered", params: ["application": application]))
            let displays = try await next()
            guard case .notification("BasicCommunication.OnSystemCapabilityUpdated", let params) = displays,
                params["systemCapability"]?["systemCapabilityType"] == "DISPLAYS", params["appID"] == application["appID"]
            else { throw Unexpected(message: displays) }
            return displays
        }

        /// The message broker's part, until OnReady: the components registered, in order.
        public mutating func handshake() async throws -> [String] {
            var components: [String] = []
            while true {
                switch try await next() {
                case .request(let id, "MB.registerComponent", let params):
                    components.append(params["componentName"]?.stringValue ?? "?")
                    try await send(.response(id: id, result: .int(1000 * Int64(components.count))))
                case .request(let id, "MB.subscribeTo", _):
                    try await send(.response(id: id, result: "OK"))
                case .notification("BasicCommunication.OnReady", _):
                    return components
                case let other:
                    throw Unexpected(message: other)
                }
            }
        }
    }

    public struct Closed: Error {}
    public struct Unexpected: Error, CustomStringConvertible {
        public let message: HMIMessage
        public var description: String { "unexpected before OnReady: \(message)" }
    }

    public let server: NIOAsyncChannel<EventLoopFuture<SDLWebSocketServer.Upgrade>, Never>
    /// Where the HMI connects: `ws://127.0.0.1:port`.
    public let port: Int

    public static func bind() async throws -> FakeCoreHMI {
        let server = try await SDLWebSocketServer.bind(host: "127.0.0.1", port: 0, messages: .text)
        guard let port = server.channel.localAddress?.port else { throw Closed() }
        return FakeCoreHMI(server: server, port: port)
    }

    public var address: SDLTransportAddress { SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: port) }

    /// Takes one HMI connection, answers its registration until OnReady, then runs `body` with the
    /// connection and the registered components; closes everything after.
    public func serveOne(_ body: (inout Connection, [String]) async throws -> Void) async throws {
        try await serve(connections: 1) { connection, components, _ in try await body(&connection, components) }
    }

    /// Takes `connections` HMI connections one after another (the HMI connects again when one
    /// ends), each as ``serveOne(_:)`` does, `body` told which one (from 0); closes everything after.
    public func serve(connections count: Int, _ body: (inout Connection, [String], Int) async throws -> Void) async throws {
        try await server.executeThenClose { accepted in
            var connections = accepted.makeAsyncIterator()
            for index in 0..<count {
                guard let next = try await connections.next(), let channel = try await SDLWebSocketServer.upgraded(next) else {
                    throw Closed()
                }
                try await channel.executeThenClose { inbound, outbound in
                    var connection = Connection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
                    let components = try await connection.handshake()
                    try await body(&connection, components, index)
                }
            }
        }
    }
}
