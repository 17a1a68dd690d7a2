import NIOCore

/// Puts multi-frame messages back together (protocol spec §4.4; docs/protocol.md §a "First Frame").
///
/// A First Frame carries the total size and the number of Consecutive Frames (both uint32 BE);
/// its Consecutive Frames share its message id and are numbered 1, 2 … 255, then 1 again, with the
/// last one numbered 0. Reassemblies are keyed by (session id, message id), as SDL Core does.
///
/// Memory is bounded three ways: the size a First Frame may announce, the number of messages in
/// reassembly at once, and the bytes buffered across all of them. The owner calls
/// ``expire(now:)`` from a timer to drop reassemblies that went quiet (SDL Core waits
/// `ExpectedConsecutiveFramesTimeout`, 10 s). Time is passed in, never read, so tests drive it.
///
/// Errors concern one message: the reassembly in question is dropped and the error thrown; the
/// owner decides whether to drop the message or the connection.
public struct SDLMessageAssembler: Sendable {
    public struct Configuration: Sendable, Hashable {
        /// The largest total size a First Frame may announce.
        public var maximumMessageSize: Int
        /// How many messages may be in reassembly at once.
        public var maximumConcurrentMessages: Int
        /// How many payload bytes may be buffered across all reassemblies.
        public var maximumBufferedBytes: Int
        /// How long a reassembly may wait for its next Consecutive Frame.
        public var timeout: TimeAmount

        public init(
            maximumMessageSize: Int = 64 * 1024 * 1024,
            maximumConcurrentMessages: Int = 16,
            maximumBufferedBytes: Int = 128 * 1024 * 1024,
            timeout: TimeAmount = .seconds(10)
        ) {
            self.maximumMessageSize = maximumMessageSize
            self.maximumConcurrentMessages = maximumConcurrentMessages
            self.maximumBufferedBytes = maximumBufferedBytes
            self.timeout = timeout
        }

        public static let `default` = Configuration()
    }

    /// Identifies one message in reassembly.
    public struct Key: Sendable, Hashable, CustomStringConvertible {
        public var sessionID: UInt8
        public var messageID: UInt32
        public init(sessionID: UInt8, messageID: UInt32) {
            self.sessionID = sessionID
            self.messageID = messageID
        }
        public var description: String { "session \(sessionID) message \(messageID)" }
    }

    private struct Reassembly: Sendable {
        var version: UInt8
        var serviceType: SDLServiceType
        var isEncrypted: Bool
        var totalSize: Int
        var frameCount: Int
        var framesReceived = 0
        var lastSequenceNumber: UInt8 = 0
        var payload: ByteBuffer
        var lastActivity: NIODeadline
    }

    public let configuration: Configuration
    private var reassemblies: [Key: Reassembly] = [:]
    /// Payload bytes buffered across all reassemblies.
    public private(set) var bufferedBytes = 0
    private let allocator = ByteBufferAllocator()

    public init(configuration: Configuration = .default) {
        self.configuration = configuration
    }

    /// How many messages are being reassembled.
    public var activeCount: Int { reassemblies.count }

    /// Feeds one Single, First or Consecutive Frame. Returns the message when it is complete: at
    /// once for a Single Frame, at the last Consecutive Frame for a multi-frame message.
    /// Control frames are not messages: route them before calling this.
    public mutating func process(_ frame: SDLFrame, now: NIODeadline) throws(SDLProtocolError) -> SDLMessage? {
        switch frame.header.frameType {
        case .control:
            throw SDLProtocolError(.invalidFrame, "control frames are not reassembled")
        case .single:
            return SDLMessage(singleFrame: frame)
        case .first:
            try start(frame, now: now)
            return nil
        case .consecutive:
            return try append(frame, now: now)
        }
    }

    /// Drops every reassembly that has seen no frame for ``Configuration/timeout``; returns their keys.
    @discardableResult
    public mutating func expire(now: NIODeadline) -> [Key] {
        let stale = reassemblies.filter { $0.value.lastActivity + configuration.timeout <= now }
        for (key, reassembly) in stale {
            bufferedBytes -= reassembly.payload.readableBytes
            reassemblies[key] = nil
        }
        return Array(stale.keys)
    }

    /// The earliest time at which ``expire(now:)`` would drop something, for the owner's timer.
    public var nextExpiry: NIODeadline? {
        // A loop, not a key path and an array: it runs after every frame (issue "Performance").
        var oldest: NIODeadline?
        for reassembly in reassemblies.values { oldest = oldest.earliest(reassembly.lastActivity) }
        return oldest.map { $0 + configuration.timeout }
    }

    /// Drops every reassembly of one session (when the session ends).
    public mutating func removeAll(sessionID: UInt8) {
        for (key, reassembly) in reassemblies where key.sessionID == sessionID {
            bufferedBytes -= reassembly.payload.readableBytes
            reassemblies[key] = nil
        }
    }

    private mutating func start(_ frame: SDLFrame, now: NIODeadline) throws(SDLProtocolError) {
        let key = Key(sessionID: frame.header.sessionID, messageID: frame.header.messageID)
        guard reassemblies[key] == nil else {
            drop(key)
            throw SDLProtocolError(.duplicateFirstFrame, "a second First Frame for \(key)")
        }
        var payload = frame.payload
        guard payload.readableBytes == 8,
            let totalSize = payload.readInteger(endianness: .big, as: UInt32.self),
            let frameCount = payload.readInteger(endianness: .big, as: UInt32.self)
        else {
            throw SDLProtocolError(.invalidFirstFrameSize, "first frame payload is \(frame.payload.readableBytes) bytes, not 8")
        }
        guard Int(totalSize) <= configuration.maximumMessageSize else {
            throw SDLProtocolError(
                .messageTooLarge,
                "first frame announces \(totalSize) bytes, above the limit \(configuration.maximumMessageSize)"
            )
        }
        guard totalSize > 0, frameCount > 0, frameCount <= totalSize else {
            throw SDLProtocolError(
                .invalidFrame,
                "first frame announces \(totalSize) bytes in \(frameCount) consecutive frames"
            )
        }
        guard reassemblies.count < configuration.maximumConcurrentMessages else {
            throw SDLProtocolError(
                .reassemblyLimitExceeded,
                "more than \(configuration.maximumConcurrentMessages) messages in reassembly"
            )
        }
        reassemblies[key] = Reassembly(
            version: frame.header.version,
            serviceType: frame.header.serviceType,
            isEncrypted: frame.header.isEncrypted,
            totalSize: Int(totalSize),
            frameCount: Int(frameCount),
            payload: allocator.buffer(capacity: min(Int(totalSize), 64 * 1024)),
            lastActivity: now
        )
    }

    private mutating func append(_ frame: SDLFrame, now: NIODeadline) throws(SDLProtocolError) -> SDLMessage? {
        let key = Key(sessionID: frame.header.sessionID, messageID: frame.header.messageID)
        guard var reassembly = reassemblies[key] else {
            throw SDLProtocolError(.unexpectedConsecutiveFrame, "consecutive frame for \(key) without a First Frame")
        }
        let sequenceNumber = frame.header.frameInfo
        let isLast = sequenceNumber == 0
        let expected: UInt8 = reassembly.lastSequenceNumber == 255 ? 1 : reassembly.lastSequenceNumber + 1
        guard isLast || sequenceNumber == expected else {
            drop(key)
            throw SDLProtocolError(
                .consecutiveFrameOutOfOrder,
                "consecutive frame \(sequenceNumber) for \(key), expected \(expected) or 0"
            )
        }
        guard frame.header.serviceType == reassembly.serviceType else {
            drop(key)
            throw SDLProtocolError(.invalidFrame, "consecutive frame for \(key) changes the service type")
        }
        let size = frame.payload.readableBytes
        guard bufferedBytes + size <= configuration.maximumBufferedBytes else {
            drop(key)
            throw SDLProtocolError(
                .reassemblyLimitExceeded,
                "more than \(configuration.maximumBufferedBytes) bytes buffered in reassembly"
            )
        }
        reassembly.framesReceived += 1
        reassembly.lastSequenceNumber = sequenceNumber
        reassembly.isEncrypted = reassembly.isEncrypted || frame.header.isEncrypted
        reassembly.lastActivity = now
        // Encrypted frames count their encrypted size; the First Frame counts the plain size.
        let sizeIsChecked = !reassembly.isEncrypted
        let overrun =
            sizeIsChecked
            ? reassembly.payload.readableBytes + size > reassembly.totalSize
            : reassembly.payload.readableBytes + size > configuration.maximumMessageSize
        let tooManyFrames =
            reassembly.framesReceived > reassembly.frameCount
            || (!isLast && reassembly.framesReceived == reassembly.frameCount)
        guard !overrun, !tooManyFrames else {
            drop(key)
            throw SDLProtocolError(
                .reassemblySizeMismatch,
                "\(key) goes past the \(reassembly.totalSize) bytes in \(reassembly.frameCount) frames its First Frame announced"
            )
        }
        var payload = frame.payload
        reassemblies[key] = nil  // keep the buffer uniquely referenced while appending
        reassembly.payload.writeBuffer(&payload)
        bufferedBytes += size
        guard isLast else {
            reassemblies[key] = reassembly
            return nil
        }
        bufferedBytes -= reassembly.payload.readableBytes
        guard reassembly.framesReceived == reassembly.frameCount,
            !sizeIsChecked || reassembly.payload.readableBytes == reassembly.totalSize
        else {
            throw SDLProtocolError(
                .reassemblySizeMismatch,
                "\(key) ended with \(reassembly.payload.readableBytes) bytes in \(reassembly.framesReceived) frames; "
                    + "its First Frame announced \(reassembly.totalSize) bytes in \(reassembly.frameCount)"
            )
        }
        return SDLMessage(
            version: reassembly.version,
            isEncrypted: reassembly.isEncrypted,
            serviceType: reassembly.serviceType,
            sessionID: key.sessionID,
            messageID: key.messageID,
            payload: reassembly.payload
        )
    }

    private mutating func drop(_ key: Key) {
        if let reassembly = reassemblies.removeValue(forKey: key) {
            bufferedBytes -= reassembly.payload.readableBytes
        }
    }
}
