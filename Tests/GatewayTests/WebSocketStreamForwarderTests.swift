import NIOCore
import NIOEmbedded
import NIOWebSocket
import Synchronization
import Testing

@testable import Gateway

/// ``WebSocketStreamForwarder`` on a test channel with a recording sink: the marker behind what
/// Hummingbird holds, holding until the route starts it, binary frames forwarded in order,
/// everything else passed on, reads held while the sink asks to wait, and the sink's error
/// sent down the pipeline.
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

        func forward(_ bytes: ByteBuffer, _ whenReady: @escaping @Sendable () -> Void) throws -> Bool {
            try state.withLock { state in
                if let failure = state.failure { throw failure }
                state.pieces.append(String(buffer: bytes))
                guard state.holdBack else { return true }
                state.callbacks.append(whenReady)
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

    static let marker = "marker 1 2"

    static func frame(_ opcode: WebSocketOpcode, _ text: String, fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: opcode, data: ByteBuffer(string: text))
    }

    /// A channel with the read counter next to the socket and a forwarder after it: the
    /// forwarder, the counter, the sink.
    static func channel() throws -> (EmbeddedChannel, WebSocketStreamForwarder, ReadCounter, Sink) {
        let sink = Sink()
        let counter = ReadCounter()
        let forwarder = WebSocketStreamForwarder(marker: marker) { try sink.forward($0, $1) }
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(counter)
        try channel.pipeline.syncOperations.addHandler(forwarder)
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

    @Test("Installed outside a read: the marker reaches NIOAsyncChannel's reader without another read (it would wait for one)")
    func markerReachesTheAsyncReader() async throws {
        let channel = NIOAsyncTestingChannel()
        let async = try await channel.eventLoop.submit {
            try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(wrappingChannelSynchronously: channel)
        }.get()
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(WebSocketStreamForwarder(marker: Self.marker) { _, _ in true }, position: .first)
        }.get()
        var frames = async.inbound.makeAsyncIterator()
        let first = try await frames.next()
        #expect(first?.opcode == .text)
        #expect(first.map { String(buffer: $0.data) } == Self.marker)
        _ = try? await channel.finish()
    }

    @Test("Holding: frames kept and reads held until start; then forwarded in order and the held read goes on")
    func holdsUntilStarted() throws {
        let (channel, forwarder, counter, sink) = try Self.channel()
        #expect(try Self.passedOn(channel) == ["text \(Self.marker)"])
        channel.read()
        try channel.writeInbound(Self.frame(.binary, "a"))
        try channel.writeInbound(Self.frame(.ping, "p"))
        try channel.writeInbound(Self.frame(.binary, "b"))
        #expect(counter.reads == 0)
        #expect(sink.pieces.isEmpty)
        #expect(try Self.passedOn(channel).isEmpty)

        forwarder.start()
        #expect(sink.pieces == ["a", "b"])
        #expect(try Self.passedOn(channel) == ["ping p"])
        #expect(counter.reads == 1)
        try channel.writeInbound(Self.frame(.binary, "c"))
        #expect(sink.pieces == ["a", "b", "c"])
        _ = try channel.finish()
    }

    @Test("Binary messages and their continuations are forwarded; text, control and reserved-bit frames go on")
    func whatIsForwarded() throws {
        let (channel, forwarder, _, sink) = try Self.channel()
        _ = try Self.passedOn(channel)
        forwarder.start()
        try channel.writeInbound(Self.frame(.binary, "a", fin: false))
        try channel.writeInbound(Self.frame(.continuation, "b", fin: false))
        try channel.writeInbound(Self.frame(.pong, "p"))
        try channel.writeInbound(Self.frame(.continuation, "c"))
        try channel.writeInbound(Self.frame(.text, "t", fin: false))
        try channel.writeInbound(Self.frame(.continuation, "u"))
        var reserved = Self.frame(.binary, "r")
        reserved.rsv1 = true
        try channel.writeInbound(reserved)
        try channel.writeInbound(Self.frame(.connectionClose, ""))
        #expect(sink.pieces == ["a", "b", "c"])
        #expect(try Self.passedOn(channel) == ["pong p", "text t", "continuation u", "binary r", "connectionClose "])
        _ = try channel.finish()
    }

    @Test("The sink asks to wait: reads are held until it calls back, then the held read goes on")
    func backpressure() throws {
        let (channel, forwarder, counter, sink) = try Self.channel()
        _ = try Self.passedOn(channel)
        forwarder.start()
        channel.read()
        #expect(counter.reads == 1)
        sink.state.withLock { $0.holdBack = true }
        try channel.writeInbound(Self.frame(.binary, "a"))
        channel.read()
        channel.read()
        #expect(counter.reads == 1)
        // Frames a read already brought are still taken.
        try channel.writeInbound(Self.frame(.binary, "b"))
        #expect(sink.pieces == ["a", "b"])

        sink.release()
        #expect(counter.reads == 1, "the callback goes through the event loop")
        channel.embeddedEventLoop.run()
        #expect(counter.reads == 2)
        channel.read()
        #expect(counter.reads == 3)
        _ = try channel.finish()
    }

    @Test("The sink throws: the error goes down the pipeline, later binary frames are dropped, reads go on")
    func failure() throws {
        let (channel, forwarder, counter, sink) = try Self.channel()
        _ = try Self.passedOn(channel)
        forwarder.start()
        sink.state.withLock { $0.failure = ForwardFailed() }
        // The test channel throws what reached the pipeline's end.
        #expect(throws: ForwardFailed.self) { try channel.writeInbound(Self.frame(.binary, "a")) }
        try channel.writeInbound(Self.frame(.binary, "b"))
        try channel.writeInbound(Self.frame(.connectionClose, ""))
        #expect(try Self.passedOn(channel) == ["connectionClose "])
        channel.read()
        #expect(counter.reads == 1)
        _ = try channel.finish()
    }
}
