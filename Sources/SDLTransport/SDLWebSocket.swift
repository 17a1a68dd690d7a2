import NIOCore
import NIOWebSocket

/// The SDL-over-WebSocket convention of SDL Core's WebSocket server for apps (docs/protocol.md §e
/// "WebSocket server for apps"): every SDL frame travels as one binary message, text messages are
/// not part of it, and the request path does not matter.
public enum SDLWebSocket {
    /// Which end of the WebSocket a pipeline is: a client masks every frame it sends with a
    /// random key, a server masks none (RFC 6455 §5.3).
    public enum Role: Sendable, Hashable {
        case client
        case server
    }

    /// What the messages of a connection are: SDL frames in binary messages (apps, port 2020), or
    /// JSON-RPC in text messages (the HMI, port 8087).
    public enum MessageKind: Sendable, Hashable {
        case binary
        case text
    }

    /// The largest WebSocket message (and single frame) accepted: 1 MiB.
    ///
    /// One SDL frame is at most a 12-byte header plus the MTU, 131072 bytes with Core's shipped
    /// `MaximumPayloadSize` (docs/protocol.md §a "MTU", §e), and Core sends each frame as its own
    /// message; bigger SDL messages (a 64 MiB PutFile) are split into First and Consecutive
    /// frames before they reach the transport. Core's parser would also take several frames in
    /// one message, so the bound leaves eight frames' room, and it stays small enough that a
    /// hostile peer cannot make a connection buffer more than this before it is refused.
    public static let defaultMaximumMessageSize = 1 << 20

    /// Adds a `NIOWebSocketFrameAggregator` bounded at `maximumMessageSize` and an
    /// ``SDLWebSocketFrameHandler`` behind the WebSocket frame codec of an upgraded channel (the
    /// upgraders add the codec, with `maxFrameSize: maximumMessageSize`, and the protocol-error
    /// handler). The channel then reads and writes one `ByteBuffer` per binary message.
    public static func addMessageHandlers(
        to pipeline: ChannelPipeline.SynchronousOperations,
        role: Role,
        messages: MessageKind = .binary,
        maximumMessageSize: Int = defaultMaximumMessageSize
    ) throws {
        try pipeline.addHandler(
            NIOWebSocketFrameAggregator(
                minNonFinalFragmentSize: 1,
                maxAccumulatedFrameCount: 1 << 12,
                maxAccumulatedFrameSize: maximumMessageSize
            )
        )
        try pipeline.addHandler(SDLWebSocketFrameHandler(role: role, messages: messages))
    }
}
