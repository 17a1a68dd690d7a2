import NIOCore
import NIOWebSocket
import WebSocketMasking

/// Unmasks each WebSocket frame a client sent (RFC 6455 §5.3: every client frame is masked)
/// as it leaves NIO's `WebSocketFrameDecoder`, eight bytes at a time, and clears its `maskKey`,
/// so that `WebSocketFrame.unmaskedData` hands the payload on as it is.
///
/// Without it the streaming WebSockets (README "Projection") unmask through NIO's
/// `ByteBuffer.webSocketUnmask`, which copies the payload (the decoder's slice shares its
/// storage with the bytes read) and then XORs it a byte at a time: most of the gateway's time on
/// a fast video stream. Here the copy and the XOR are one pass (`WebSocketMask.masked`, 8 bytes at a time)
/// into a buffer of the frame's own, which the decoder's storage does not hold on to.
///
/// It sits right after the decoder (``install(on:)``); a frame that passed before it was
/// installed keeps its key and is unmasked the old way, so installing it at any moment is safe.
/// A frame with extension data (no extension the gateway negotiates has any) passes untouched.
final class WebSocketUnmask: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var frame = Self.unwrapInboundIn(data)
        if let key = frame.maskKey, frame.extensionData == nil {
            frame.data = WebSocketMask.masked(frame.data, key: key, allocator: context.channel.allocator)
            frame.maskKey = nil
        }
        context.fireChannelRead(Self.wrapInboundOut(frame))
    }

    /// Puts a ``WebSocketUnmask`` right after the channel's WebSocket frame decoder (which the
    /// upgrade put in its pipeline); returns once it is there, true, or false when the channel
    /// has no such decoder or is closed (its frames are then unmasked by NIO, as before).
    @discardableResult
    static func install(on channel: any Channel) async -> Bool {
        let installed: Void? = try? await channel.eventLoop.submit {
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            try pipeline.addHandler(WebSocketUnmask(), position: .after(decoder))
        }.get()
        return installed != nil
    }
}
