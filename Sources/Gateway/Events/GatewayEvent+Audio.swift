import Foundation
import NIOCore
import SDLProtocol

/// An `audioPassThru` event for WebSocket clients that asked for `?audio=binary`: the envelope
/// without `data.audio` as a text message, then the chunk's bytes as a binary message.
extension GatewayEvent {
    /// The event's audio chunk, when it is an `audioPassThru` event that has one: the bytes kept
    /// when it was published, or its base64 `audio` decoded (a replayed event).
    public var audioBytes: ByteBuffer? {
        guard type == "audioPassThru" else { return nil }
        if let attachment { return attachment }
        guard let text = data["audio"]?.stringValue, let decoded = Data(base64Encoded: text) else { return nil }
        return ByteBuffer(bytes: decoded)
    }

    /// ``json`` as UTF-8 text without `data.audio`: the header message of a binary chunk.
    public var encodedHeaderJSON: ByteBuffer {
        var header = self
        if var members = data.objectValue {
            members["audio"] = nil
            header.data = .object(members)
        }
        header.attachment = nil
        return header.encodedJSON
    }
}
