import HeadUnitModel
import HeadUnitSimulator
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket

/// The one-way live feeds of a stream on a WebSocket: the simulator's `GET /apps/{appID}/video`
/// and `/audio` (what an app streamed to it) and the headless HMI's `GET /apps/{appID}/video`
/// (what SDL Core serves its HMI). One binary message per piece of the stream, in order; the
/// text message `{"type":"gap","bytes":N}` where a reader slower than the stream lost N bytes.
/// The feed takes no messages: the reader's first one closes it with 1003 and a reason, so a
/// client that expected to send learns it at once instead of being silently ignored.
enum LiveStreamFeed {
    static let noMessagesReason = "this feed takes no messages: it only sends the stream"

    /// Writes what `follow` hands its `send`, until `follow` returns (closed with 1000 and
    /// `endReason`, when there is one), the reader leaves, or the reader sends a message (1003).
    static func run(
        _ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, endReason: String? = nil,
        follow: @escaping @Sendable (_ send: @Sendable (StreamPiece) async throws -> Void) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await follow { piece in
                    switch piece {
                    case .bytes(let bytes): try await outbound.write(.binary(bytes))
                    case .gap(let lost): try await outbound.write(.text(#"{"type":"gap","bytes":\#(lost)}"#))
                    }
                }
                if let endReason { try await outbound.close(.normalClosure, reason: endReason) }
            }
            group.addTask {
                // Any frame of a message closes the feed; the inbound ends when the reader leaves.
                for try await _ in inbound {
                    try await outbound.close(.unacceptableData, reason: noMessagesReason)
                    return
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
