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
    /// A run is queued on the loop (so a burst of events costs one `execute`).
    private let scheduled = Atomic<Bool>(false)
    private let end = Mutex<End>(End())

    private struct End: Sendable {
        var ended = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private init(channel: any Channel, queue: EventClientQueue, binaryAudio: Bool, relay: NIOLoopBound<WritabilityRelay>) {
        self.channel = channel
        self.queue = queue
        self.binaryAudio = binaryAudio
        self.relay = relay
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
            let pump = WebSocketEventPump(
                channel: channel, queue: queue, binaryAudio: binaryAudio, relay: NIOLoopBound(relay, eventLoop: channel.eventLoop))
            relay.pump = pump
            return pump
        }.get()
        queue.onReady { [weak pump] in pump?.schedule() }
        return pump
    }

    /// Returns once the queue finished (the hub ended the stream: the app was deleted, the
    /// gateway shuts down) and what it held was written, or at ``stop()``.
    func ended() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = end.withLock { end in
                if end.ended { return true }
                end.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Ends ``ended()`` now (the client left; the task serving it was cancelled).
    func stop() {
        let waiter = end.withLock { end -> CheckedContinuation<Void, Never>? in
            end.ended = true
            defer { end.waiter = nil }
            return end.waiter
        }
        waiter?.resume()
    }

    /// Queues a run on the connection's loop unless one is queued.
    func schedule() {
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        channel.eventLoop.execute { self.run() }
    }

    /// On the loop: writes what is queued while the connection is writable, flushes once.
    private func run() {
        scheduled.store(false, ordering: .releasing)
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
                stop()
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
