import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A client that sends as fast as its socket takes bytes and counts exactly what the socket took
/// (``SocketProgress``), for ``StreamSlowLinkTests``: what the gateway holds is what the client
/// handed to the kernel, less what the kernel still holds on the connection, less what the gateway
/// passed on to the head unit. Counting when a write was accepted by the client's own channel
/// instead would count what waits in the client's channel and event loop as the gateway's.
enum SlowLinkClient {
    /// A TCP connection to `port` on 127.0.0.1 whose written bytes `progress` counts.
    static func connect(port: Int, counting progress: SocketProgress) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: NIOSingletons.posixEventLoopGroup)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SocketWriteCounter(progress: progress))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// A client's WebSocket frame (RFC 6455 §5.2): FIN, `opcode`, masked with the key 0 (which
    /// leaves the payload as it is), the length in the form its size needs.
    static func frame(opcode: UInt8, _ payload: ByteBuffer) -> ByteBuffer {
        var frame = ByteBuffer()
        frame.writeInteger(0x80 | opcode)
        switch payload.readableBytes {
        case ..<126: frame.writeInteger(0x80 | UInt8(payload.readableBytes))
        case ..<65_536:
            frame.writeInteger(UInt8(0x80 | 126))
            frame.writeInteger(UInt16(payload.readableBytes))
        default:
            frame.writeInteger(UInt8(0x80 | 127))
            frame.writeInteger(UInt64(payload.readableBytes))
        }
        frame.writeInteger(UInt32(0))
        frame.writeImmutableBuffer(payload)
        return frame
    }

    /// A server's WebSocket frame (unmasked, RFC 6455 §5.2) read off the front of `buffer`: its
    /// FIN bit, opcode and payload; nil until the whole frame is there.
    static func readServerFrame(_ buffer: inout ByteBuffer) -> (fin: Bool, opcode: UInt8, payload: ByteBuffer)? {
        var peek = buffer
        guard let first = peek.readInteger(as: UInt8.self), let second = peek.readInteger(as: UInt8.self) else { return nil }
        var length = Int(second & 0x7F)
        if length == 126 {
            guard let long = peek.readInteger(as: UInt16.self) else { return nil }
            length = Int(long)
        } else if length == 127 {
            guard let long = peek.readInteger(as: UInt64.self) else { return nil }
            length = Int(long)
        }
        guard let payload = peek.readSlice(length: length) else { return nil }
        buffer = peek
        return (first & 0x80 != 0, first & 0x0F, payload)
    }

    /// The bytes the kernel holds on the established loopback connections to `port`: the unsent
    /// or unacknowledged bytes of each client side (`tx_queue`) and the unread bytes of each
    /// server side (`rx_queue`), from `/proc/net/tcp` and `/proc/net/tcp6` (`localhost` may be either).
    static func kernelQueued(port: Int) throws -> Int {
        var table = try procFile("/proc/net/tcp")
        if let six = try? procFile("/proc/net/tcp6") { table += "\n" + six }
        var total = 0
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4, fields[3] == "01" else { continue }  // ESTABLISHED
            let local = fields[1].split(separator: ":")  // address:port, in hex
            let remote = fields[2].split(separator: ":")
            let queues = fields[4].split(separator: ":")
            guard local.count == 2, remote.count == 2, queues.count == 2, let localPort = Int(local[1], radix: 16),
                let remotePort = Int(remote[1], radix: 16), let unsent = Int(queues[0], radix: 16), let unread = Int(queues[1], radix: 16)
            else { continue }
            if remotePort == port { total += unsent }
            if localPort == port { total += unread }
        }
        return total
    }

    /// The whole of a `/proc` file, read until the end: its size reads as 0 and the kernel hands
    /// it on about a page per read. `String(contentsOfFile:)` returned only the first part (28 of
    /// 42 lines, seen), so that on a busy machine the client's connection could be missing and
    /// its queued bytes were counted as the gateway's.
    static func procFile(_ path: String) throws -> String {
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? file.close() }
        var data = Data()
        while let chunk = try file.read(upToCount: 64 * 1024), !chunk.isEmpty { data.append(chunk) }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The bytes a client's socket has taken, and a wait for the count to move.
final class SocketProgress: Sendable {
    private struct State {
        var written = 0
        var finished = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The bytes the socket has taken so far.
    var written: Int { state.withLock { $0.written } }

    /// Whether the client is done (it sent everything, or failed).
    var finished: Bool { state.withLock { $0.finished } }

    func add(_ count: Int) { update { $0.written += count } }

    func finish() { update { $0.finished = true } }

    private func update(_ change: (inout State) -> Void) {
        state.withLock { state in
            change(&state)
            for waiter in state.waiters.values { waiter.resume() }
            state.waiters = [:]
        }
    }

    /// Whether the socket took more bytes than `seen` (or the client finished) within `limit`:
    /// true as soon as it does, false once `limit` passed without.
    func moved(from seen: Int, within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.change(from: seen)
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Returns once the count differs from `seen` or the client finished (at once if so already), or when cancelled.
    private func change(from seen: Int) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                state.withLock { state in
                    if state.written != seen || state.finished || Task.isCancelled {
                        continuation.resume()
                    } else {
                        state.waiters[id] = continuation
                    }
                }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id)?.resume() }
        }
    }
}

/// Counts the bytes of each write once the socket has taken all of them: NIO completes a
/// write's promise when its last byte went to the kernel. A write the kernel took only part of
/// is not counted yet, so the count is short by at most one write.
final class SocketWriteCounter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let progress: SocketProgress

    init(progress: SocketProgress) {
        self.progress = progress
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let count = unwrapOutboundIn(data).readableBytes
        let promise = promise ?? context.eventLoop.makePromise()
        promise.futureResult.whenSuccess { [progress] in progress.add(count) }
        context.write(data, promise: promise)
    }
}
