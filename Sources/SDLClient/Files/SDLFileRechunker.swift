import NIOCore

/// Cuts bytes arriving in pieces of any size into pieces of exactly the sizes asked for, holding at
/// most one piece being assembled plus the rest of the latest input (docs/protocol.md §c "PutFile
/// with bulk data": each chunk of an upload is one PutFile). A piece that lies whole inside an
/// input buffer is a slice of it, not a copy.
///
/// ``maximumBufferedBytes`` records the most bytes ever held, so that tests can check an upload
/// never buffers the whole file.
public struct SDLFileRechunker: Sendable {
    /// The part of the latest input not handed out yet.
    private var input = ByteBuffer()
    /// A piece being assembled from several inputs.
    private var partial = ByteBuffer()
    public private(set) var maximumBufferedBytes = 0
    /// Every byte fed so far.
    public private(set) var bytesReceived = 0

    public init() {}

    /// The bytes held now.
    public var bufferedBytes: Int { input.readableBytes + partial.readableBytes }

    /// Whether ``next(_:)`` needs more input: everything held was handed out or moved into the
    /// piece being assembled.
    public var needsInput: Bool { input.readableBytes == 0 }

    /// Adds input; call only when ``needsInput``.
    public mutating func feed(_ buffer: ByteBuffer) {
        precondition(needsInput, "feed only after the previous input was used")
        input = buffer
        bytesReceived += buffer.readableBytes
        maximumBufferedBytes = max(maximumBufferedBytes, bufferedBytes)
    }

    /// A piece of exactly `count` bytes, or `nil` when more input is needed first.
    public mutating func next(_ count: Int) -> ByteBuffer? {
        precondition(count > 0 && partial.readableBytes < count)
        if partial.readableBytes == 0, input.readableBytes >= count {
            return input.readSlice(length: count)
        }
        if partial.capacity < count { partial.reserveCapacity(count) }
        let moved = min(count - partial.readableBytes, input.readableBytes)
        if var slice = input.readSlice(length: moved) {
            partial.writeBuffer(&slice)
        }
        if input.readableBytes == 0 { input = ByteBuffer() }
        guard partial.readableBytes == count else { return nil }
        defer { partial = ByteBuffer() }
        return partial
    }

    /// What is left over once the input ended (bytes beyond what was asked for, or a piece that
    /// could not be completed).
    public var leftoverBytes: Int { bufferedBytes }
}
