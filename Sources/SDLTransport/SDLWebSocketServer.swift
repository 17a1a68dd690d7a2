import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A WebSocket server for SDL apps, as SDL Core's "WebEngine" transport serves them
/// (docs/protocol.md §e "WebSocket server for apps"): the HTTP/1.1 upgrade is accepted on any
/// request path, and each upgraded connection reads and writes one `ByteBuffer` per binary
/// message (``SDLWebSocketFrameHandler``). A plain HTTP request gets `426 Upgrade Required`.
///
/// ```swift
/// let server = try await SDLWebSocketServer.bind(host: "127.0.0.1", port: 2020)
/// try await withThrowingDiscardingTaskGroup { group in
///     try await server.executeThenClose { inbound in
///         for try await accepted in inbound {
///             group.addTask {
///                 guard let connection = try? await SDLWebSocketServer.upgraded(accepted) else { return }
///                 // connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>
///             }
///         }
///     }
/// }
/// ```
public enum SDLWebSocketServer {
    /// How one accepted connection's HTTP request ended.
    public enum Upgrade: Sendable {
        /// Upgraded: SDL bytes in and out.
        case webSocket(NIOAsyncChannel<ByteBuffer, ByteBuffer>)
        /// A request without a WebSocket upgrade; ``upgraded(_:)`` answers it.
        case notUpgraded(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
    }

    /// How long an accepted connection may take to complete its upgrade (or its plain request)
    /// before it is closed: 10 s.
    public static let defaultUpgradeTimeout = TimeAmount.seconds(10)

    /// Binds `host:port` (port 0 picks a free one; read it from `channel.localAddress`). With a
    /// `tlsConfiguration` the server speaks wss: TLS first, then the upgrade. A connection that
    /// has not upgraded within `upgradeTimeout` is closed (its upgrade fails), so a client that
    /// connects and says nothing holds nothing.
    public static func bind(
        host: String,
        port: Int,
        tlsConfiguration: TLSConfiguration? = nil,
        messages: SDLWebSocket.MessageKind = .binary,
        maximumMessageSize: Int = SDLWebSocket.defaultMaximumMessageSize,
        upgradeTimeout: TimeAmount = defaultUpgradeTimeout,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> NIOAsyncChannel<EventLoopFuture<Upgrade>, Never> {
        let tls = try tlsConfiguration.map { configuration throws(SDLTransportError) in
            do {
                return try NIOSSLContext(configuration: configuration)
            } catch {
                throw SDLTransportError(.tlsConfigurationFailed, "\(error)")
            }
        }
        return try await ServerBootstrap(group: eventLoopGroup)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls))
                    }
                    let upgrade = try configureUpgrade(channel, messages: messages, maximumMessageSize: maximumMessageSize)
                    let deadline = channel.eventLoop.scheduleTask(in: upgradeTimeout) { channel.close(promise: nil) }
                    // The deadline ends with the connection, or once it is a WebSocket. A plain
                    // request keeps it until answered and closed; a failed upgrade until closed.
                    channel.closeFuture.whenComplete { _ in deadline.cancel() }
                    upgrade.whenSuccess { upgraded in
                        if case .webSocket = upgraded { deadline.cancel() }
                    }
                    return upgrade
                }
            }
    }

    /// Waits for one accepted connection's upgrade and returns its byte channel; answers a plain
    /// HTTP request with `426 Upgrade Required`, closes it and returns nil.
    public static func upgraded(_ accepted: EventLoopFuture<Upgrade>) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer>? {
        switch try await accepted.get() {
        case .webSocket(let channel):
            return channel
        case .notUpgraded(let channel):
            try await channel.executeThenClose { inbound, outbound in
                for try await part in inbound {
                    guard case .end = part else { continue }
                    var headers = HTTPHeaders()
                    headers.add(name: "Upgrade", value: "websocket")
                    headers.add(name: "Connection", value: "close")
                    headers.add(name: "Content-Length", value: "0")
                    try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: .upgradeRequired, headers: headers)))
                    try await outbound.write(.end(nil))
                    return
                }
            }
            return nil
        }
    }

    private static func configureUpgrade(
        _ channel: any Channel, messages: SDLWebSocket.MessageKind, maximumMessageSize: Int
    ) throws -> EventLoopFuture<Upgrade> {
        let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
            maxFrameSize: maximumMessageSize,
            // Core's server takes any path (docs/protocol.md §e), so does this one.
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try SDLWebSocket.addMessageHandlers(
                        to: channel.pipeline.syncOperations, role: .server, messages: messages, maximumMessageSize: maximumMessageSize
                    )
                    return .webSocket(try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel))
                }
            }
        )
        let configuration = NIOTypedHTTPServerUpgradeConfiguration<Upgrade>(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    .notUpgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                }
            }
        )
        return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
            configuration: .init(upgradeConfiguration: configuration)
        )
    }
}
