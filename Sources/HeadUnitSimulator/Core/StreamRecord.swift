import NIOCore
import SDLProtocol

/// SDL's streaming services (docs/protocol.md §k, projection): video (service 0x0B) and audio
/// (PCM, service 0x0A).
public enum StreamService: String, Sendable, Hashable, CaseIterable {
    case video, audio

    init?(_ serviceType: SDLServiceType) {
        switch serviceType {
        case .video: self = .video
        case .audio: self = .audio
        default: return nil
        }
    }

    var serviceType: SDLServiceType { self == .video ? .video : .audio }
}

/// What the head unit received on one streaming service of one app: state, counts, the format
/// the StartServiceACK accepted, and the last bytes (``StreamTail``).
public struct StreamRecord: Sendable {
    /// `true` from StartServiceACK until the service ends (EndService either way, the session ends).
    public internal(set) var isStreaming = false
    /// Data frames (messages) and payload bytes received since the app first started the service.
    public internal(set) var frames = 0
    public var bytes: Int { tail.total }
    /// The video parameters the StartServiceACK echoed (`videoCodec`, `videoProtocol`, `width`,
    /// `height`; only those the app sent); `nil` for audio.
    public internal(set) var format: SDLJSON?
    /// The last bytes received, at most the configured ``HeadUnitConfiguration/streamKeptBytes``.
    public internal(set) var tail: StreamTail
    /// The position in ``tail`` where the latest StartService began the stream.
    public internal(set) var startPosition = 0
    /// Core's `video_streaming_allowed` / `audio_streaming_allowed`: false once the app left
    /// FULL/LIMITED for longer than `StopStreamingTimeout`, or another app started the service;
    /// the next data frame is then answered with EndService (docs/protocol.md §k).
    var allowed = true

    init(capacity: Int) {
        tail = StreamTail(capacity: capacity)
    }

    /// The `streams.video` / `streams.audio` object of the control API's app JSON.
    public var json: SDLJSON {
        [
            "state": .string(isStreaming ? "streaming" : "stopped"),
            "bytes": .int(Int64(bytes)),
            "frames": .int(Int64(frames)),
            "keptBytes": .int(Int64(tail.count)),
            "format": format ?? .null,
        ]
    }

    mutating func received(_ payload: ByteBuffer) {
        frames += 1
        tail.append(payload)
    }
}

/// The last `capacity` bytes of a stream, with their positions in the whole stream: byte `n`
/// is the n-th byte ever appended. Bounded: older bytes are dropped as new ones arrive.
public struct StreamTail: Sendable {
    public let capacity: Int
    /// Bytes appended in all.
    public private(set) var total = 0
    private var chunks = CircularBuffer<ByteBuffer>()
    /// How many bytes `chunks` hold.
    public private(set) var count = 0

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The position of the oldest byte kept.
    public var start: Int { total - count }

    mutating func append(_ bytes: ByteBuffer) {
        total += bytes.readableBytes
        guard capacity > 0, bytes.readableBytes > 0 else { return }
        // A copy of just these bytes: the payload may be a slice of a larger buffer.
        let chunk = ByteBuffer(bytes: bytes.readableBytesView.suffix(capacity))
        count += chunk.readableBytes
        chunks.append(chunk)
        while count > capacity, var first = chunks.first {
            let excess = count - capacity
            if first.readableBytes <= excess {
                chunks.removeFirst()
                count -= first.readableBytes
            } else {
                first.moveReaderIndex(forwardBy: excess)
                chunks[chunks.startIndex] = first
                count -= excess
            }
        }
    }

    /// The kept bytes from position `from` (clamped to what is kept) to the end, at most
    /// `limit` of them.
    public func bytes(from position: Int = 0, limit: Int = .max) -> ByteBuffer {
        var skip = max(position, start) - start
        var remaining = min(limit, count - skip)
        var out = ByteBuffer()
        guard remaining > 0 else { return out }
        out.reserveCapacity(remaining)
        for chunk in chunks where remaining > 0 {
            if skip >= chunk.readableBytes {
                skip -= chunk.readableBytes
                continue
            }
            let view = chunk.readableBytesView.dropFirst(skip).prefix(remaining)
            out.writeBytes(view)
            remaining -= view.count
            skip = 0
        }
        return out
    }
}
