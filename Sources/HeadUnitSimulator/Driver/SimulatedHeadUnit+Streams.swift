import HeadUnitModel
import NIOCore
import Synchronization

extension SimulatedHeadUnit {
    /// Follows an app's video or audio stream live: `body` gets each piece of the data frames
    /// received since the previous one (at most `maximumMessageSize` bytes). It starts where the
    /// current stream started while those bytes are still kept (a video decoder needs its
    /// parameter sets and first key frame), else with the next bytes received. Memory is
    /// bounded by the head unit's kept bytes (``StreamTail``), not by the reader: a reader that
    /// falls further behind than they reach gets a ``StreamPiece/gap(_:)`` of the bytes it lost.
    /// Returns when the app is no longer registered; throws when `body` does, or on cancellation.
    public func followStream(
        appID: String, _ service: StreamService, maximumMessageSize: Int = 1 << 20, _ body: (StreamPiece) async throws -> Void
    ) async throws {
        var position: Int?
        while true {
            try Task.checkCancellation()
            let rings = streamSignal.rings
            let step: (gone: Bool, gap: Int, bytes: ByteBuffer) = state.withLock { driven in
                guard let app = driven.unit.app(withID: appID) else { return (true, 0, ByteBuffer()) }
                guard let record = app.streams[service] else {
                    position = 0
                    return (false, 0, ByteBuffer())
                }
                let tail = record.tail
                let begin = record.isStreaming && record.startPosition >= tail.start ? record.startPosition : tail.total
                var next = position ?? begin
                // Fewer bytes than read so far: the app registered again, its stream is new.
                if next > tail.total { next = tail.start }
                let gap = max(0, tail.start - next)
                next += gap
                let bytes = tail.bytes(from: next, limit: max(1, maximumMessageSize))
                position = next + bytes.readableBytes
                return (false, gap, bytes)
            }
            if step.gone { return }
            if step.gap > 0 { try await body(.gap(step.gap)) }
            if step.bytes.readableBytes > 0 {
                try await body(.bytes(step.bytes))
            } else if step.gap == 0 {
                await streamSignal.wait(since: rings)
            }
        }
    }
}
