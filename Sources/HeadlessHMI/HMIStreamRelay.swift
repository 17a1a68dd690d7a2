import HeadUnitModel
import NIOCore
import SDLClient
import Synchronization

/// Hands the bytes the HMI reads from Core's stream consumer (``HMIStreamReader``) to the control
/// API's readers (`GET /v1/hmi/apps/{appID}/video` WebSocket), each through its own bounded
/// ``SDLDropQueue``: reading Core's socket never waits for a reader, and a reader that falls
/// behind loses bytes and is told how many with one ``StreamPiece/gap(_:)`` in their place.
public final class HMIStreamRelay: Sendable {
    /// Bytes a reader lost, as one marker per run.
    public struct Loss: SDLQueueLoss, Hashable {
        public var bytes: Int
        public var lostCount: Int

        public mutating func absorb(_ later: Loss) {
            bytes += later.bytes
            lostCount += later.lostCount
        }
    }

    /// One reader of one stream; ``cancel()`` (or the relay's end) finishes it.
    public struct Subscription: Sendable {
        public let queue: SDLDropQueue<StreamPiece, Loss>
        let cancelling: @Sendable () -> Void

        public func cancel() { cancelling() }
    }

    struct Key: Hashable, Sendable {
        var appID: Int64
        var kind: HMIStream.Kind
    }

    private struct State: Sendable {
        var readers: [Key: [Int: SDLDropQueue<StreamPiece, Loss>]] = [:]
        var nextReader = 0
        /// Bytes read from Core per stream, since the HMI started.
        var bytes: [Key: Int] = [:]
        /// Who waits for a stream to have readers (``waitForReaders(appID:kind:count:)``).
        var waiters: [(key: Key, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// How many bytes may wait for one reader (and in how many pieces) before it loses bytes.
    public let maximumBufferedBytes: Int
    public let maximumBufferedChunks: Int
    private let state = Mutex(State())

    public init(maximumBufferedBytes: Int = 4 << 20, maximumBufferedChunks: Int = 1024) {
        self.maximumBufferedBytes = maximumBufferedBytes
        self.maximumBufferedChunks = maximumBufferedChunks
    }

    /// A new reader of the app's `kind` stream: the bytes read from now on.
    public func subscribe(appID: Int64, kind: HMIStream.Kind) -> Subscription {
        let key = Key(appID: appID, kind: kind)
        let queue = SDLDropQueue<StreamPiece, Loss>(capacity: maximumBufferedChunks, maximumWeight: maximumBufferedBytes) { .gap($0.bytes) }
        let (id, ready) = state.withLock { state in
            defer { state.nextReader += 1 }
            state.readers[key, default: [:]][state.nextReader] = queue
            let readers = state.readers[key]?.count ?? 0
            let ready = state.waiters.filter { $0.key == key && $0.count <= readers }.map(\.continuation)
            state.waiters.removeAll { $0.key == key && $0.count <= readers }
            return (state.nextReader, ready)
        }
        for waiter in ready { waiter.resume() }
        return Subscription(queue: queue) { [weak self] in
            queue.finish()
            self?.state.withLock { state in
                state.readers[key]?[id] = nil
                if state.readers[key]?.isEmpty == true { state.readers[key] = nil }
            }
        }
    }

    /// Bytes read from Core for the app's `kind` stream: to each of its readers.
    public func publish(appID: Int64, kind: HMIStream.Kind, _ bytes: ByteBuffer) {
        guard bytes.readableBytes > 0 else { return }
        let key = Key(appID: appID, kind: kind)
        let queues = state.withLock { state in
            state.bytes[key, default: 0] += bytes.readableBytes
            return Array((state.readers[key] ?? [:]).values)
        }
        for queue in queues {
            _ = queue.push(.bytes(bytes), weight: bytes.readableBytes, loss: Loss(bytes: bytes.readableBytes, lostCount: 1))
        }
    }

    /// Bytes read from Core for the app's `kind` stream so far.
    public func bytesRead(appID: Int64, kind: HMIStream.Kind) -> Int {
        state.withLock { $0.bytes[Key(appID: appID, kind: kind)] ?? 0 }
    }

    /// Readers of the app's `kind` stream now.
    public func readers(appID: Int64, kind: HMIStream.Kind) -> Int {
        state.withLock { $0.readers[Key(appID: appID, kind: kind)]?.count ?? 0 }
    }

    /// Returns once the app's `kind` stream has `count` readers (a page that opened the WebSocket
    /// before it asks the app to stream).
    public func waitForReaders(appID: Int64, kind: HMIStream.Kind, count: Int = 1) async {
        let key = Key(appID: appID, kind: kind)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard (state.readers[key]?.count ?? 0) < count else { return true }
                state.waiters.append((key, count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends every reader's queue (the HMI stops).
    func finishAll() {
        let queues = state.withLock { state in
            defer { state.readers = [:] }
            return state.readers.values.flatMap(\.values)
        }
        for queue in queues { queue.finish() }
    }
}
