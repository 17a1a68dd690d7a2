import NIOCore

/// Splits an outgoing message into frames of at most `maximumPayloadSize` bytes
/// (protocol spec §4.4; docs/protocol.md §a "First Frame" and "MTU").
///
/// A payload that fits is one Single Frame. A larger one becomes a First Frame (8 bytes: total size
/// and Consecutive Frame count, uint32 BE; E bit clear) followed by Consecutive Frames numbered
/// `i % 255 + 1` with the last numbered 0, as SDL Core and the JavaScript library send them.
/// The frames are produced lazily and share the payload's storage, so a 50 MB message costs one
/// frame header at a time, not a copy.
public struct SDLMessageFragmenter: Sequence, Sendable {
    public let message: SDLMessage
    public let maximumPayloadSize: Int

    public init(message: SDLMessage, maximumPayloadSize: Int) {
        precondition(maximumPayloadSize > 0, "the payload size must be positive")
        self.message = message
        self.maximumPayloadSize = maximumPayloadSize
    }

    /// The number of frames this message becomes.
    public var frameCount: Int {
        let size = message.payload.readableBytes
        return size <= maximumPayloadSize ? 1 : 1 + consecutiveFrameCount
    }

    private var consecutiveFrameCount: Int {
        let size = message.payload.readableBytes
        return (size + maximumPayloadSize - 1) / maximumPayloadSize
    }

    public func makeIterator() -> Iterator {
        Iterator(fragmenter: self)
    }

    public struct Iterator: IteratorProtocol, Sendable {
        private let fragmenter: SDLMessageFragmenter
        private var remaining: ByteBuffer
        /// -1 before the first frame; then the index of the next Consecutive Frame (0-based).
        private var nextIndex = -1
        private var done = false

        init(fragmenter: SDLMessageFragmenter) {
            self.fragmenter = fragmenter
            self.remaining = fragmenter.message.payload
        }

        public mutating func next() -> SDLFrame? {
            guard !done else { return nil }
            let message = fragmenter.message
            func header(_ type: SDLFrameType, frameInfo: UInt8, encrypted: Bool) -> SDLFrameHeader {
                SDLFrameHeader(
                    version: message.version,
                    isEncrypted: encrypted,
                    frameType: type,
                    serviceType: message.serviceType,
                    frameInfo: frameInfo,
                    sessionID: message.sessionID,
                    dataSize: 0,
                    messageID: message.messageID
                )
            }
            let size = message.payload.readableBytes
            if nextIndex == -1 {
                if size <= fragmenter.maximumPayloadSize {
                    done = true
                    return SDLFrame(header: header(.single, frameInfo: 0, encrypted: message.isEncrypted), payload: remaining)
                }
                nextIndex = 0
                var first = ByteBuffer()
                first.reserveCapacity(8)
                first.writeInteger(UInt32(truncatingIfNeeded: size), endianness: .big)
                first.writeInteger(UInt32(truncatingIfNeeded: fragmenter.consecutiveFrameCount), endianness: .big)
                return SDLFrame(header: header(.first, frameInfo: 0, encrypted: false), payload: first)
            }
            let chunk = remaining.readSlice(length: Swift.min(fragmenter.maximumPayloadSize, remaining.readableBytes))!
            let isLast = remaining.readableBytes == 0
            let sequenceNumber = isLast ? 0 : UInt8(nextIndex % 255 + 1)
            nextIndex += 1
            done = isLast
            return SDLFrame(header: header(.consecutive, frameInfo: sequenceNumber, encrypted: message.isEncrypted), payload: chunk)
        }
    }
}
