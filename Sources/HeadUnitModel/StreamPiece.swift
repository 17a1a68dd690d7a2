import NIOCore

/// What a live reader of a stream gets, from the simulator (what an app streamed to it) or from
/// the headless HMI (what SDL Core's stream consumer served): the bytes received since its last
/// piece, or how many bytes it lost because it read slower than they were kept for it.
public enum StreamPiece: Sendable, Hashable {
    case bytes(ByteBuffer)
    case gap(Int)
}
