import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// Opens the byte channel of one app connection to a head unit, whatever the transport
/// (docs/protocol.md §e "Ports and transports"). The result reads and writes SDL bytes:
///
/// - tcp: the socket itself; SDL frames are streamed with no extra framing.
/// - ws: an HTTP/1.1 upgrade to WebSocket on the address's path; each inbound binary message
///   comes out as one `ByteBuffer` and each `ByteBuffer` written goes as one binary message
///   (``SDLWebSocketFrameHandler``), so the caller writes one buffer per SDL frame.
/// - wss: the same behind TLS (`NIOSSLClientHandler` first). SDL Core's TLS WebSocket server
///   requires a client certificate (`verify_peer | verify_fail_if_no_peer_cert`): put it and its
///   key into ``Configuration/tlsConfiguration`` (`certificateChain`, `privateKey`), with
///   `trustRoots` for Core's CA.
///
/// Every transport enables SO_KEEPALIVE, as Core does on its side.
public enum SDLTransportClient {
    public struct Configuration: Sendable {
        /// How long the TCP connect may take, and again how long the TLS handshake and WebSocket
        /// upgrade may take after it (the connection is closed when they take longer).
        public var connectTimeout: TimeAmount
        /// The TLS client configuration for `wss` (trust roots, client certificate and key). The
        /// server name sent and verified is the address's host unless that is an IP address.
        public var tlsConfiguration: TLSConfiguration
        /// The largest WebSocket message accepted (``SDLWebSocket/defaultMaximumMessageSize``).
        public var maximumMessageSize: Int
        /// Binary messages (SDL frames, the default) or text messages (Core's HMI JSON-RPC) over ws/wss.
        public var webSocketMessages: SDLWebSocket.MessageKind = .binary
        public var eventLoopGroup: any EventLoopGroup

        public init(
            connectTimeout: TimeAmount = .seconds(10),
            tlsConfiguration: TLSConfiguration = .makeClientConfiguration(),
            maximumMessageSize: Int = SDLWebSocket.defaultMaximumMessageSize,
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
        ) {
            self.connectTimeout = connectTimeout
            self.tlsConfiguration = tlsConfiguration
            self.maximumMessageSize = maximumMessageSize
            self.eventLoopGroup = eventLoopGroup
        }
    }

    private enum UpgradeResult: Sendable {
        case webSocket(NIOAsyncChannel<ByteBuffer, ByteBuffer>)
        case notUpgraded(NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>)
    }

    /// The reads of a head-unit link. NIO keeps a connection's read buffers for its next reads
    /// (one per read of a loop turn, `maxMessagesPerRead`, 4 by default), each at the size its
    /// adaptive allocator last reached (up to 64 KiB by default): after the RegisterAppInterface
    /// response with SDL Core's capabilities (33 KB), every idle app session held about 26 KB of
    /// them. One read per turn keeps that at one buffer, and NIO reuses it at the largest size
    /// it reached: at most 1 KiB (8 KiB was 8 KB of every idle session's 99 KiB, 4 KiB 4 KB of
    /// its 72, heaptrack, issue "Performance"). The head unit's side of a session is small
    /// messages; a large one arrives in more reads (the 33 KB response in 33).
    static let receiveAllocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 1024)

    /// Connects to `address` and returns its byte channel. Throws
    /// ``SDLTransportError/Code/webSocketUpgradeRefused`` when a WebSocket server does not switch
    /// protocols, ``SDLTransportError/Code/tlsConfigurationFailed`` for an unusable TLS
    /// configuration, and NIO's errors when the connection or the TLS handshake fails.
    public static func connect(
        to address: SDLTransportAddress,
        configuration: Configuration = Configuration()
    ) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        let bootstrap = ClientBootstrap(group: configuration.eventLoopGroup)
            .channelOption(.socketOption(.so_keepalive), value: 1)
            .channelOption(.connectTimeout, value: configuration.connectTimeout)
            .channelOption(.recvAllocator, value: receiveAllocator)
            .channelOption(.maxMessagesPerRead, value: 1)
        switch address.scheme {
        case .tcp:
            return try await bootstrap.connect(host: address.host, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        case .ws, .wss:
            let tls = try address.scheme == .wss ? makeTLSContext(configuration.tlsConfiguration) : nil
            let upgrade = try await bootstrap.connect(host: address.host, port: address.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        let handler = try NIOSSLClientHandler(context: tls, serverHostname: serverName(for: address.host))
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                    let upgraded = try configureUpgrade(channel, address: address, configuration: configuration)
                    let timeout = channel.eventLoop.scheduleTask(in: configuration.connectTimeout) { channel.close(promise: nil) }
                    upgraded.whenComplete { result in
                        timeout.cancel()
                        // A failed upgrade leaves nobody to close the connection.
                        if case .failure = result { channel.close(promise: nil) }
                    }
                    return upgraded
                }
            }
            let result: UpgradeResult
            do {
                result = try await upgrade.get()
            } catch let error as NIOHTTPClientUpgradeError {
                throw SDLTransportError(.webSocketUpgradeRefused, "\(address): the server refused the WebSocket upgrade (\(error))")
            }
            switch result {
            case .webSocket(let channel):
                return channel
            case .notUpgraded(let channel):
                let status = try await channel.executeThenClose { inbound, _ in
                    for try await part in inbound {
                        if case .head(let head) = part { return "\(head.status.code) \(head.status.reasonPhrase)" }
                    }
                    return "no response"
                }
                throw SDLTransportError(.webSocketUpgradeRefused, "\(address): the server answered the WebSocket upgrade with \(status)")
            }
        }
    }

    private static func configureUpgrade(
        _ channel: any Channel,
        address: SDLTransportAddress,
        configuration: Configuration
    ) throws -> EventLoopFuture<UpgradeResult> {
        let maximumMessageSize = configuration.maximumMessageSize
        let messages = configuration.webSocketMessages
        let upgrader = NIOTypedWebSocketClientUpgrader<UpgradeResult>(maxFrameSize: maximumMessageSize) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                try SDLWebSocket.addMessageHandlers(
                    to: channel.pipeline.syncOperations, role: .client, messages: messages, maximumMessageSize: maximumMessageSize
                )
                return .webSocket(try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel))
            }
        }
        var headers = HTTPHeaders()
        // Boost.Beast, which serves Core's WebSocket, refuses a handshake without Host.
        headers.add(name: "Host", value: address.hostAndPort)
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: address.path, headers: headers)
        let upgradeConfiguration = NIOTypedHTTPClientUpgradeConfiguration<UpgradeResult>(
            upgradeRequestHead: head,
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    .notUpgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                }
            }
        )
        return try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
            configuration: .init(upgradeConfiguration: upgradeConfiguration)
        )
    }

    private static func makeTLSContext(_ configuration: TLSConfiguration) throws(SDLTransportError) -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: configuration)
        } catch {
            throw SDLTransportError(.tlsConfigurationFailed, "\(error)")
        }
    }

    /// The TLS server name (SNI and certificate check): the host, unless it is an IP address,
    /// which SNI cannot carry.
    static func serverName(for host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }
}
