import NIOCore

/// The read buffer of a served connection: starts at 512 bytes (a request head, a WebSocket
/// message of events' filters or RPCs) and grows with what arrives, up to 64 KiB.
///
/// NIO's default starts at 2 KiB, and a connection keeps its read buffer while it is open: for
/// 10,000 idle event WebSockets that is 20 MB for reads that never come. A body or a stream that
/// fills its buffers makes the next ones larger, read after read (``AdaptiveRecvByteBufferAllocator``).
public enum ConnectionReadBuffer {
    public static let allocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65_536)

    /// Sets it on a connection just accepted, on its event loop, before its first read.
    public static func configure(_ channel: any Channel) throws {
        try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: allocator)
    }
}
