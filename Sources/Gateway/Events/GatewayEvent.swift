import Foundation
import NIOCore
import SDLProtocol

/// One event of the gateway's event streams (docs/architecture.md, Events): the envelope
/// `{"seq", "time", "app", "type", "data"}` shared by WebSocket, SSE and recordings.
///
/// `seq` grows by one per app from 1; a `gap` event carries `{"missed": N}` and the `seq` of the
/// last event it stands for, so a client that resumes with `since=seq` continues after it.
public struct GatewayEvent: Sendable, Hashable {
    public var seq: UInt64 { didSet { encoded = nil } }
    /// Wall-clock time, for people and logs.
    public var time: Date { didSet { encoded = nil } }
    public var app: String { didSet { encoded = nil } }
    public var type: String { didSet { encoded = nil } }
    public var data: SDLJSON { didSet { encoded = nil } }
    /// Raw bytes that ``data`` carries as base64 (an `audioPassThru`'s `audio`), kept beside it
    /// when the event is published so a binary WebSocket client gets them without decoding; a
    /// replayed event has none (``audioBytes`` decodes them).
    public var attachment: ByteBuffer?

    /// The kept encoding once ``encode()`` made it: ``json`` as a WebSocket text frame, whose
    /// payload is ``encodedJSON``. The hub encodes an event once for all the clients that get it
    /// unchanged instead of once per client. Any change forgets it.
    private var encoded: EncodedFrame?

    public init(seq: UInt64, time: Date, app: String, type: String, data: SDLJSON) {
        self.seq = seq
        self.time = time
        self.app = app
        self.type = type
        self.data = data
    }

    /// A `gap` event: `missed` events up to `seq` were lost to this client.
    public static func gap(app: String, missed: UInt64, lastSeq: UInt64, time: Date) -> GatewayEvent {
        GatewayEvent(seq: lastSeq, time: time, app: app, type: "gap", data: ["missed": .int(Int64(clamping: missed))])
    }

    public static func == (lhs: GatewayEvent, rhs: GatewayEvent) -> Bool {
        lhs.seq == rhs.seq && lhs.time == rhs.time && lhs.app == rhs.app && lhs.type == rhs.type && lhs.data == rhs.data
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(app)
        hasher.combine(type)
    }

    /// Keeps ``encodedJSON`` and ``encodedTextFrame`` so that every copy of this event shares one encoding.
    public mutating func encode() {
        if encoded == nil { encoded = EncodedFrame(json) }
    }

    /// ``json`` as compact UTF-8 JSON text: the kept encoding, or a new one.
    public var encodedJSON: ByteBuffer {
        if let encoded { return encoded.payload }
        var buffer = ByteBuffer()
        json.write(to: &buffer)
        return buffer
    }

    /// ``json`` as one unmasked WebSocket text frame as a server sends it (RFC 6455 §5.2): what an
    /// event WebSocket writes to every client that gets this event unchanged, the same bytes.
    public var encodedTextFrame: ByteBuffer {
        (encoded ?? EncodedFrame(json)).frame
    }

    public var json: SDLJSON {
        [
            "seq": .int(Int64(clamping: seq)),
            "time": .string(Self.format(time)),
            "app": .string(app),
            "type": .string(type),
            "data": data,
        ]
    }

    /// RFC 3339 UTC with milliseconds, e.g. `2026-11-22T05:00:00.123Z` (``SDLTimestamp``).
    static func format(_ date: Date) -> String {
        SDLTimestamp.rfc3339(secondsSince1970: date.timeIntervalSince1970)
    }

    /// Every event type the streams carry.
    public static let types: Set<String> = [
        "connection", "hmiStatus", "appState", "driverDistraction", "lockScreen", "permissions", "vehicleData",
        "buttonEvent", "buttonPress", "command", "keyboardInput", "touchEvent", "systemCapability", "language",
        "audioPassThru", "notification", "rpc", "gap", "softButton", "mediaButton", "menuSelection", "choice",
        "videoStreaming", "audioStreaming",
    ]
}

/// A text frame with its payload written once: the header (2, 4 or 10 bytes, RFC 6455 §5.2)
/// goes in front of the JSON in the same buffer, so the JSON alone is a slice of it.
private struct EncodedFrame: Sendable {
    let frame: ByteBuffer
    let headerLength: Int

    var payload: ByteBuffer { frame.getSlice(at: frame.readerIndex + headerLength, length: frame.readableBytes - headerLength)! }

    init(_ json: SDLJSON) {
        let room = 10
        var buffer = ByteBuffer()
        buffer.writeRepeatingByte(0, count: room)
        json.write(to: &buffer)
        let length = buffer.readableBytes - room
        var header: [UInt8] = [0x81]  // FIN, opcode 1 (text); a server does not mask
        switch length {
        case ..<126: header.append(UInt8(length))
        case ...0xFFFF: header += [126, UInt8(length >> 8), UInt8(length & 0xFF)]
        default: header.append(127); header += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(length) >> ($0 * 8)) }
        }
        buffer.setBytes(header, at: room - header.count)
        buffer.moveReaderIndex(forwardBy: room - header.count)
        self.frame = buffer
        self.headerLength = header.count
    }
}
