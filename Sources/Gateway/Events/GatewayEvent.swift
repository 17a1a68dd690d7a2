import Foundation
import SDLProtocol

/// One event of the gateway's event streams (ARCHITECTURE.md, Events): the envelope
/// `{"seq", "time", "app", "type", "data"}` shared by WebSocket, SSE and recordings.
///
/// `seq` grows by one per app from 1; a `gap` event carries `{"missed": N}` and the `seq` of the
/// last event it stands for, so a client that resumes with `since=seq` continues after it.
public struct GatewayEvent: Sendable, Hashable {
    public var seq: UInt64
    /// Wall-clock time, for people and logs.
    public var time: Date
    public var app: String
    public var type: String
    public var data: SDLJSON

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
