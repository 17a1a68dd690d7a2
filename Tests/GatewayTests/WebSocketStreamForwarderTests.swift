import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing

@testable import Gateway

/// ``WebSocketStreamForwarder`` on a test channel with a recording sink: the marker behind what
/// Hummingbird holds (after a message it has begun), holding until the route starts it, binary
/// messages forwarded in order, everything else passed on, reads held while the sink asks to
/// wait, the sink's error reported by the failure marker, and the route's stop.
@Suite("WebSocket stream forwarder", .timeLimit(.minutes(1)))
struct WebSocketStreamForwarderTests {
    /// What `forward` was given, and what it answers.
    final class Sink: Sendable {
        struct State {
            var pieces: [String] = []
            var callbacks: [@Sendable () -> Void] = []
            /// Answer false (hold back) to the next calls.
            var holdBack = false
            var failure: (any Error)?
        }

        let state = Mutex(State())

        var pieces: [String] { state.withLock { $0.pieces } }

        var callbacks: Int { state.withLock { $0.callbacks.count } }

        func forward(_ bytes: ByteBuffer, _ whenReady: (@Sendable () -> Void)?) throws -> Bool {
            try state.withLock { state in
                if let failure = state.failure { throw failure }
                state.pieces.append(String(buffer: bytes))
                guard state.holdBack else { return true }
                if let whenReady { state.callbacks.append(whenReady) }
                return false
            }
        }

        /// Ready again: every waiting sender is called back.
        func release() {
            let callbacks = state.withLock { state in
                state.holdBack = false
                defer { state.callbacks = [] }
                return state.callbacks
            }
            for callback in callbacks { callback() }
        }
    }

    /// Counts the reads that get past the forwarder to the socket.
    final class ReadCounter: ChannelOutboundHandler {
        typealias OutboundIn = Never
        var reads = 0

        func read(context: ChannelHandlerContext) {
            reads += 1
            context.read()
        }
    }

    struct ForwardFailed: Error {}

    static func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(string: text))
    }

    /// A channel with the read counter next to the socket and a forwarder after it: the
    /// forwarder, the counter, the sink.
    static func channel() throws -> (EmbeddedChannel, WebSocketStreamForwarder, ReadCounter, Sink) {
        let sink = Sink()
        let counter = ReadCounter()
        let forwarder = WebSocketStreamForwarder { try sink.forward($0, $1) }
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(forwarder)
        return (channel, forwarder, counter, sink)
    }

    /// A channel whose forwarder was started by a first binary frame "a" (forwarded); what was
    /// passed on so far is read.
    static func started() throws -> (EmbeddedChannel, WebSocketStreamForwarder, ReadCounter, Sink) {
        let (channel, forwarder, counter, sink) = try channel()
        try channel.writeInbound(frame(.binary, "a"))
        forwarder.start()
        #expect(try passedOn(channel) == ["text \(forwarder.handle.marker)"])
        #expect(sink.pieces == ["a"])
        return (channel, forwarder, counter, sink)
    }

    static func name(_ opcode: WebSocketOpcode) -> String {
        switch opcode {
        case .binary: "binary"
        case .text: "text"
        case .continuation: "continuation"
        case .ping: "ping"
        case .pong: "pong"
        case .connectionClose: "connectionClose"
        default: "other"
        }
    }

    /// The frames passed on to the next handler, as opcode and text.
    static func passedOn(_ channel: EmbeddedChannel) throws -> [String] {
        var frames: [String] = []
        while let frame = try channel.readInbound(as: WebSocketFrame.self) {
            frames.append("\(name(frame.opcode)) \(String(buffer: frame.data))")
        }
        return frames
    }

    @Test("Installed inside a message Hummingbird has begun: its continuations go on to the route, the marker only before the next message")
    func markerAfterABegunMessage() throws {
        let (channel, forwarder, counter, sink) = try Self.channel()
        channel.read()
        try channel.writeInbound(Self.frame(.continuation, "b", fin: false))
        try channel.writeInbound(Self.frame(.ping, "p"))
        try channel.writeInbound(Self.frame(.continuation, "c"))
        #expect(try Self.passedOn(channel) == ["continuation b", "ping p", "continuation c"])
        #expect(counter.reads == 1, "nothing is held before a new message")
        try channel.writeInbound(Self.frame(.binary, "d"))
        #expect(try Self.passedOn(channel) == ["text \(forwarder.handle.marker)"])
        #expect(sink.pieces.isEmpty)
        forwarder.start()
        #expect(sink.pieces == ["d"])
        _ = try channel.finish()
    }

    @Test("Frames passed on by start, outside a read, reach NIOAsyncChannel's reader (it hands reads over at their end)")
    func replayReachesTheAsyncReader() async throws {
        let channel = NIOAsyncTestingChannel()
        let async = try await channel.eventLoop.submit {
            try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
        }.get()
        let (forwarder, shared) = try await channel.eventLoop.submit {
            let forwarder = WebSocketStreamForwarder { _, _ in true }
            try channel.pipeline.syncOperations.addHandler(forwarder, position: .first)
            return (NIOLoopBound(forwarder, eventLoop: channel.eventLoop), forwarder.handle)
        }.get()
        try await channel.writeInbound(Self.frame(.binary, "a"))
        try await channel.writeInbound(Self.frame(.text, "t"))
        var frames = async.inbound.makeAsyncIterator()
        let marker = try await frames.next()
        #expect(marker.map { String(buffer: $0.data) } == shared.marker)
        try await channel.eventLoop.submit { forwarder.value.start() }.get()
        let text = try await frames.next()
        #expect(text?.opcode == .text)
        #expect(text.map { String(buffer: $0.data) } == "t")
        _ = try? await channel.finish()
    }

    @Test("Holding: frames kept and reads held until start; then forwarded in order and the held read goes on")
    func holdsUntilStarted() throws {
        let (channel, forwarder, counter, sink) = try Self.channel()
        channel.read()
        #expect(counter.reads == 1)
        try channel.writeInbound(Self.frame(.binary, "a"))
        try channel.writeInbound(Self.frame(.ping, "p"))
        try channel.writeInbound(Self.frame(.binary, "b"))
        channel.read()
        #expect(counter.reads == 1)
        #expect(sink.pieces.isEmpty)
        #expect(try Self.passedOn(channel) == ["text \(forwarder.handle.marker)"])

        forwarder.start()
        #expect(sink.pieces == ["a", "b"])
        #expect(try Self.passedOn(channel) == ["ping p"])
        #expect(counter.reads == 2)
        try channel.writeInbound(Self.frame(.binary, "c"))
        #expect(sink.pieces == ["a", "b", "c"])
        _ = try channel.finish()
    }

    @Test("Binary messages and their continuations are forwarded; text, control, reserved-bit and out-of-sequence frames go on")
    func whatIsForwarded() throws {
        let (channel, _, _, sink) = try Self.started()
        try channel.writeInbound(Self.frame(.binary, "b", fin: false))
        try channel.writeInbound(Self.frame(.pong, "p"))
        try channel.writeInbound(Self.frame(.continuation, "c"))
        try channel.writeInbound(Self.frame(.continuation, "stray"))
        try channel.writeInbound(Self.frame(.text, "t", fin: false))
        try channel.writeInbound(Self.frame(.continuation, "u"))
        var reserved = Self.frame(.binary, "r", fin: false)
        reserved.rsv1 = true
        try channel.writeInbound(reserved)
        try channel.writeInbound(Self.frame(.continuation, "r2"))
        try channel.writeInbound(Self.frame(.connectionClose, ""))
        #expect(sink.pieces == ["a", "b", "c"])
        #expect(
            try Self.passedOn(channel) == [
                "pong p", "continuation stray", "text t", "continuation u", "binary r", "continuation r2", "connectionClose ",
            ])
        _ = try channel.finish()
    }

    @Test("The sink asks to wait: reads are held until it calls back (one callback), then the held read goes on")
    func backpressure() throws {
        let (channel, _, counter, sink) = try Self.started()
        channel.read()
        #expect(counter.reads == 1)
        sink.state.withLock { $0.holdBack = true }
        try channel.writeInbound(Self.frame(.binary, "b"))
        channel.read()
        channel.read()
        #expect(counter.reads == 1)
        // Frames a read already brought are still taken, without another callback.
        try channel.writeInbound(Self.frame(.binary, "c"))
        #expect(sink.pieces == ["a", "b", "c"])
        #expect(sink.callbacks == 1)

        sink.release()
        #expect(counter.reads == 1, "the callback goes through the event loop")
        channel.embeddedEventLoop.run()
        #expect(counter.reads == 2)
        channel.read()
        #expect(counter.reads == 3)
        _ = try channel.finish()
    }

    @Test("The sink throws: the failure marker goes on with the error kept, later binary frames are dropped, reads go on")
    func failure() throws {
        let (channel, forwarder, counter, sink) = try Self.started()
        sink.state.withLock { $0.holdBack = true }
        try channel.writeInbound(Self.frame(.binary, "b"))
        channel.read()
        #expect(counter.reads == 0)
        sink.state.withLock { $0.failure = ForwardFailed() }
        try channel.writeInbound(Self.frame(.binary, "c"))
        #expect(forwarder.handle.failure is ForwardFailed)
        #expect(counter.reads == 1, "the held read goes on")
        try channel.writeInbound(Self.frame(.binary, "d"))
        try channel.writeInbound(Self.frame(.connectionClose, ""))
        #expect(try Self.passedOn(channel) == ["text \(forwarder.handle.failureMarker)", "connectionClose "])
        #expect(sink.pieces == ["a", "b"])
        _ = try channel.finish()
    }

    @Test("Stopped while holding: kept binary frames are dropped, the rest goes on, reads go on; nothing is forwarded after")
    func stoppedWhileHolding() throws {
        let (channel, forwarder, counter, sink) = try Self.channel()
        try channel.writeInbound(Self.frame(.binary, "a"))
        try channel.writeInbound(Self.frame(.connectionClose, ""))
        channel.read()
        #expect(counter.reads == 0)
        forwarder.stop()
        #expect(try Self.passedOn(channel) == ["text \(forwarder.handle.marker)", "connectionClose "])
        #expect(counter.reads == 1)
        try channel.writeInbound(Self.frame(.binary, "b"))
        forwarder.start()
        try channel.writeInbound(Self.frame(.binary, "c"))
        #expect(sink.pieces.isEmpty)
        _ = try channel.finish()
    }

    @Test("Stopped while the sink holds back: the held read goes on and later binary frames are dropped")
    func stoppedWhileWaiting() throws {
        let (channel, forwarder, counter, sink) = try Self.started()
        sink.state.withLock { $0.holdBack = true }
        try channel.writeInbound(Self.frame(.binary, "b"))
        channel.read()
        #expect(counter.reads == 0)
        forwarder.stop()
        #expect(counter.reads == 1)
        try channel.writeInbound(Self.frame(.binary, "c"))
        #expect(sink.pieces == ["a", "b"])
        _ = try channel.finish()
    }
}
