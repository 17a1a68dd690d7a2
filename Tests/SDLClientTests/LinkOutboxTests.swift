import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import SDLClient

/// ``SDLLinkOutbox``: frames handed over from off the loop leave in order, those that came while
/// the loop was busy in one flush, and each batch's callbacks run after its flush.
@Suite("The link's outbox")
struct LinkOutboxTests {
    /// Counts the flushes that reach it and what was written before each.
    final class FlushCounter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = ByteBuffer
        let flushes = Mutex(0)
        func flush(context: ChannelHandlerContext) {
            flushes.withLock { $0 += 1 }
            context.flush()
        }
    }

    final class Log: Sendable {
        let entries = Mutex<[String]>([])
        func append(_ entry: String) { entries.withLock { $0.append(entry) } }
        var value: [String] { entries.withLock { $0 } }
    }

    private static func bytes(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    /// An outbox on an embedded channel whose flushes are counted.
    private static func outbox() -> (EmbeddedChannel, FlushCounter, SDLLinkOutbox) {
        let counter = FlushCounter()
        let channel = EmbeddedChannel(handler: counter)
        return (channel, counter, SDLLinkOutbox(channel: channel))
    }

    private func written(_ channel: EmbeddedChannel) throws -> [String] {
        var texts: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { texts.append(String(buffer: buffer)) }
        return texts
    }

    @Test("What comes before the loop runs leaves in order with one flush; callbacks after it")
    func coalesces() throws {
        let (channel, counter, outbox) = Self.outbox()
        let log = Log()
        outbox.enqueue([Self.bytes("a"), Self.bytes("b")]) { log.append("after ab: \(counter.flushes.withLock { $0 }) flush") }
        outbox.enqueue([Self.bytes("c")])
        outbox.enqueue([Self.bytes("d")]) { log.append("after d") }
        #expect(try written(channel).isEmpty, "nothing is written off the loop")

        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["a", "b", "c", "d"])
        #expect(counter.flushes.withLock { $0 } == 1)
        #expect(log.value == ["after ab: 1 flush", "after d"])

        // The next one queues a task of its own.
        outbox.enqueue([Self.bytes("e")])
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["e"])
        #expect(counter.flushes.withLock { $0 } == 2)
    }

    @Test("A task queued on the loop after an enqueue runs after its frames; a later enqueue joins the drain queued before it")
    func orderWithLaterTasks() throws {
        let (channel, counter, outbox) = Self.outbox()
        let log = Log()
        outbox.enqueue([Self.bytes("first")])
        channel.eventLoop.execute {
            var seen: [String] = []
            while let buffer = try? channel.readOutbound(as: ByteBuffer.self) { seen.append(String(buffer: buffer)) }
            log.append("task sees \(seen) after \(counter.flushes.withLock { $0 }) flush")
        }
        outbox.enqueue([Self.bytes("second")])
        channel.embeddedEventLoop.run()
        #expect(log.value == ["task sees [\"first\", \"second\"] after 1 flush"])
        #expect(try written(channel).isEmpty)
    }

    @Test("Frames handed over by a callback during a drain leave in a drain of their own")
    func enqueueFromCallback() throws {
        let (channel, counter, outbox) = Self.outbox()
        outbox.enqueue([Self.bytes("batch 1")]) { outbox.enqueue([Self.bytes("batch 2")]) }
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["batch 1", "batch 2"])
        #expect(counter.flushes.withLock { $0 } == 2)
    }
}
