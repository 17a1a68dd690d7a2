import Foundation
import NIOCore
import SDLProtocol

/// One event of the gateway's event streams (ARCHITECTURE.md, Events): the envelope
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

    /// ``json`` as UTF-8 text, kept once ``encode()`` made it: the hub encodes an event once for
    /// all the clients that get it unchanged instead of once per client. Any change forgets it.
    private var encoded: ByteBuffer?

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

    /// Keeps ``encodedJSON`` so that every copy of this event shares one encoding.
    public mutating func encode() {
        if encoded == nil { encoded = encodedJSON }
    }

    /// ``json`` as compact UTF-8 JSON text: the kept encoding, or a new one.
    public var encodedJSON: ByteBuffer {
        if let encoded { return encoded }
        var buffer = ByteBuffer()
        json.write(to: &buffer)
        return buffer
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
    ]
}
