import NIOCore
import NIOWebSocket
import Synchronization

/// Writes one WebSocket client's events to its connection from the connection's own event loop
/// (docs/architecture.md, Events). The hub queues an event (``EventClientQueue``) and the queue asks the
/// pump to run; the pump then writes everything queued, up to ``batch`` frames, and flushes once.
///
/// A task per client that awaits each event and writes it through the WebSocket writer costs a
/// task wake-up, an actor hop and a hop to the event loop per event and client; at 50 events a
/// second to 1,000 clients that was most of the gateway's CPU beside the socket writes. Here an
/// event costs one `execute` on the client's loop (none while a run is pending) and one write of
/// the frame the hub encoded once for every client (``GatewayEvent/encodedTextFrame``), written
/// below the frame encoder; a client that fell behind gets its backlog in one flush.
///
/// Backpressure stays the queue's: the pump writes only while the connection is writable and
/// resumes when ``WritabilityRelay`` sees it writable again; meanwhile the queue fills and the
/// client gets a `gap`. The client's other frames (RPC answers, pongs, the close) go through
/// Hummingbird's writer as before; the two never interleave inside a frame, since both write
/// whole frames on the same loop.
final class WebSocketEventPump: Sendable {
    /// Frames written in one run before the pump lets the loop's other connections go.
    static let batch = 64

    private let channel: any Channel
    private let queue: EventClientQueue
    private let binaryAudio: Bool
    /// Writes the event's encoded frame below the WebSocket frame encoder.
    private let relay: NIOLoopBound<WritabilityRelay>
    /// Tells the task reading the client's messages that the stream ended.
    private let endMarker: NIOLoopBound<StreamEndMarker>
    /// A run is queued on the loop (so a burst of events costs one `execute`).
    private let scheduled = Atomic<Bool>(false)
    /// The client left (``stop()``): nothing more is written.
    private let stopped = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    private init(
        channel: any Channel, queue: EventClientQueue, binaryAudio: Bool, relay: NIOLoopBound<WritabilityRelay>,
        endMarker: NIOLoopBound<StreamEndMarker>
    ) {
        self.channel = channel
        self.queue = queue
        self.binaryAudio = binaryAudio
        self.relay = relay
        self.endMarker = endMarker
    }

    /// Starts writing `queue`'s events to the WebSocket connection `channel`: watches its
    /// writability and runs whenever the queue has something. Throws when the connection is gone.
    static func start(channel: any Channel, queue: EventClientQueue, binaryAudio: Bool) async throws -> WebSocketEventPump {
        let pump = try await channel.eventLoop.submit {
            let operations = channel.pipeline.syncOperations
            // Just below the encoder: what the relay writes is what the encoder would have written.
            let encoder = try operations.handler(type: WebSocketFrameEncoder.self)
            let relay = WritabilityRelay()
            try operations.addHandler(relay, position: .before(encoder))
            // Just after the decoder: what it sends up is read as the client's frames are.
            let decoder = try operations.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
            let endMarker = StreamEndMarker()
            try operations.addHandler(endMarker, position: .after(decoder))
            let pump = WebSocketEventPump(
                channel: channel, queue: queue, binaryAudio: binaryAudio, relay: NIOLoopBound(relay, eventLoop: channel.eventLoop),
                endMarker: NIOLoopBound(endMarker, eventLoop: channel.eventLoop))
            relay.pump = pump
            return pump
        }.get()
        queue.onReady { [weak pump] in pump?.schedule() }
        return pump
    }

    /// The hub ended the stream (the app was deleted, the gateway shuts down) and the pump wrote
    /// what it held. The pump then puts an empty text message behind what the client sent
    /// (``StreamEndMarker``): the task reading the client's messages sees it, finds
    /// this true and closes with 1001. So no task waits for the stream's end beside the reader
    /// (one task's stack less for each idle client). An empty message from the client itself is
    /// answered as any message that is not JSON is, unless the stream has ended anyway.
    var hasEnded: Bool { finished.load(ordering: .acquiring) }

    /// The client left: nothing more is written (the subscription ends the queue too).
    func stop() {
        stopped.store(true, ordering: .releasing)
    }

    /// Queues a run on the connection's loop unless one is queued.
    func schedule() {
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        channel.eventLoop.execute { self.run() }
    }

    /// On the loop: writes what is queued while the connection is writable, flushes once.
    private func run() {
        scheduled.store(false, ordering: .releasing)
        guard !stopped.load(ordering: .acquiring), !hasEnded else { return }
        let relay = self.relay.value
        var written = 0
        defer { if written > 0 { relay.flush() } }
        while channel.isWritable {
            guard written < Self.batch else {
                schedule()
                return
            }
            switch queue.poll() {
            case .event(let event):
                write(event, relay)
                written += 1
            case .empty:
                return
            case .finished:
                finished.store(true, ordering: .releasing)
                endMarker.value.mark()
                return
            }
        }
        // Not writable: WritabilityRelay runs the pump again when the connection is.
    }

    private func write(_ event: GatewayEvent, _ relay: WritabilityRelay) {
        if binaryAudio, let audio = event.audioBytes {
            let operations = channel.pipeline.syncOperations
            operations.write(NIOAny(WebSocketFrame(fin: true, opcode: .text, data: event.encodedHeaderJSON)), promise: nil)
            operations.write(NIOAny(WebSocketFrame(fin: true, opcode: .binary, data: audio)), promise: nil)
        } else {
            // The hub's one encoding of the event as a frame, shared by every client that gets it.
            relay.write(event.encodedTextFrame)
        }
    }
}

/// In a WebSocket connection's pipeline just below the frame encoder: writes a pump's encoded
/// frames from there, and runs the pump when the connection becomes writable again after its
/// client fell behind.
final class WritabilityRelay: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    weak var pump: WebSocketEventPump?
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Writes encoded bytes towards the socket (nothing once the handler was removed).
    func write(_ bytes: ByteBuffer) {
        context?.write(NIOAny(bytes), promise: nil)
    }

    func flush() {
        context?.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump?.schedule() }
        context.fireChannelWritabilityChanged()
    }
}
