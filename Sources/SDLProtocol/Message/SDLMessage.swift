import NIOCore

/// A whole SDL message: the payload of one Single Frame, or of a First Frame's Consecutive
/// Frames put back together (protocol spec §4.4; docs/protocol.md §a).
public struct SDLMessage: Sendable, Hashable {
    public var version: UInt8
    public var isEncrypted: Bool
    public var serviceType: SDLServiceType
    public var sessionID: UInt8
    public var messageID: UInt32
    public var payload: ByteBuffer

    public init(
        version: UInt8,
        isEncrypted: Bool = false,
        serviceType: SDLServiceType,
        sessionID: UInt8,
        messageID: UInt32,
        payload: ByteBuffer
    ) {
        self.version = version
        self.isEncrypted = isEncrypted
        self.serviceType = serviceType
        self.sessionID = sessionID
        self.messageID = messageID
        self.payload = payload
    }

    /// The message carried by a Single Frame.
    public init(singleFrame frame: SDLFrame) {
        self.init(
            version: frame.header.version,
            isEncrypted: frame.header.isEncrypted,
            serviceType: frame.header.serviceType,
            sessionID: frame.header.sessionID,
            messageID: frame.header.messageID,
            payload: frame.payload
        )
    }
}
