/// An error raised while turning bytes into SDL frames, messages, BSON or JSON (or back).
///
/// Callers switch on ``code``, which is stable across releases; ``detail`` is for humans and logs.
/// Where the error is tied to a position in the input, ``offset`` is the byte offset relative to
/// the start of the buffer being decoded.
public struct SDLProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code. New codes may be added; existing ones never change.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Frame header (protocol spec §2–§3; docs/protocol.md §a)
        /// The version nibble is 0 or above 5.
        public static let unsupportedVersion = Code(rawValue: "unsupportedVersion")
        /// The frame type is 4–7.
        public static let unknownFrameType = Code(rawValue: "unknownFrameType")
        /// The service type is not 0x00, 0x07, 0x0A, 0x0B or 0x0F.
        public static let unknownServiceType = Code(rawValue: "unknownServiceType")
        /// A First Frame whose data size is not 8.
        public static let invalidFirstFrameSize = Code(rawValue: "invalidFirstFrameSize")
        /// A frame whose data size is above the current payload limit.
        public static let payloadTooLarge = Code(rawValue: "payloadTooLarge")
        /// A frame that is not valid for the message it belongs to (e.g. a control frame with an
        /// unknown frame info value, or an encrypted First Frame).
        public static let invalidFrame = Code(rawValue: "invalidFrame")

        // Multi-frame messages (protocol spec §4.4; docs/protocol.md §a "First Frame")
        /// A Consecutive Frame arrived with no First Frame for its (session, message id).
        public static let unexpectedConsecutiveFrame = Code(rawValue: "unexpectedConsecutiveFrame")
        /// A Consecutive Frame's sequence number is not the previous one + 1 (255 wraps to 1).
        public static let consecutiveFrameOutOfOrder = Code(rawValue: "consecutiveFrameOutOfOrder")
        /// The reassembled size or frame count disagrees with the First Frame.
        public static let reassemblySizeMismatch = Code(rawValue: "reassemblySizeMismatch")
        /// A First Frame announced a message bigger than the configured maximum.
        public static let messageTooLarge = Code(rawValue: "messageTooLarge")
        /// Too many concurrent reassemblies, or too many bytes buffered across them.
        public static let reassemblyLimitExceeded = Code(rawValue: "reassemblyLimitExceeded")
        /// A second First Frame for a (session, message id) that is still being reassembled.
        public static let duplicateFirstFrame = Code(rawValue: "duplicateFirstFrame")

        // BSON (bsonspec.org subset of docs/protocol.md §b)
        public static let bsonTruncated = Code(rawValue: "bsonTruncated")
        public static let bsonInvalidLength = Code(rawValue: "bsonInvalidLength")
        public static let bsonUnsupportedType = Code(rawValue: "bsonUnsupportedType")
        public static let bsonInvalidString = Code(rawValue: "bsonInvalidString")
        public static let bsonInvalidValue = Code(rawValue: "bsonInvalidValue")
        public static let bsonNestingTooDeep = Code(rawValue: "bsonNestingTooDeep")

        // Control frames (protocol spec §3.1; docs/protocol.md §b)
        public static let unknownControlFrame = Code(rawValue: "unknownControlFrame")
        public static let invalidControlPayload = Code(rawValue: "invalidControlPayload")

        // RPC payload (protocol spec §5.2–§5.3; docs/protocol.md §c)
        public static let rpcHeaderTruncated = Code(rawValue: "rpcHeaderTruncated")
        public static let unknownRPCType = Code(rawValue: "unknownRPCType")
        public static let rpcJSONSizeMismatch = Code(rawValue: "rpcJSONSizeMismatch")
        public static let invalidRPCMessage = Code(rawValue: "invalidRPCMessage")

        // Capture files (SDLCapture; docs/capture-format.md)
        /// The input does not start with the capture magic `SDLCAP\r\n`.
        public static let captureInvalidMagic = Code(rawValue: "captureInvalidMagic")
        /// The capture file's format version is not one this decoder reads.
        public static let captureUnsupportedVersion = Code(rawValue: "captureUnsupportedVersion")
        /// The capture file ends inside its header or a record.
        public static let captureTruncated = Code(rawValue: "captureTruncated")
        /// A header or record field is out of range: an unknown record kind, a length above the
        /// limit, a string that is not UTF-8.
        public static let captureInvalidRecord = Code(rawValue: "captureInvalidRecord")

        // JSON (RFC 8259)
        public static let invalidJSON = Code(rawValue: "invalidJSON")
        public static let jsonNestingTooDeep = Code(rawValue: "jsonNestingTooDeep")
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// A human-readable explanation.
    public var detail: String
    /// The byte offset in the decoded input where the problem was found, when known.
    public var offset: Int?

    public init(_ code: Code, _ detail: String, offset: Int? = nil) {
        self.code = code
        self.detail = detail
        self.offset = offset
    }

    /// Where ``offset`` is in `text` (the input that was decoded) for people: `line 2, column 15`
    /// (both from 1; a column counts bytes), or nil without an offset.
    public func position(in text: some Collection<UInt8>) -> String? {
        guard let offset else { return nil }
        var line = 1
        var column = 1
        for byte in text.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }

    /// A JSON body's parse error for people: `the body is not valid JSON at line 1, column 15:
    /// expected ',' or '}' after a member of an object, got 'x'` (HTTP APIs).
    public func jsonBodyDetail(in body: some Collection<UInt8>) -> String {
        "the body is not valid JSON\(position(in: body).map { " at \($0)" } ?? ""): \(detail)"
    }

    public var description: String {
        if let offset {
            return "\(code) at byte \(offset): \(detail)"
        }
        return "\(code): \(detail)"
    }
}
