import SDLProtocol

/// One touch of the driver on an app's video: MOBILE_API `OnTouchEvent` `type` with one
/// `TouchEvent` (`id`, one coordinate), which HMI_API's `UI.OnTouchEvent` carries the same way.
/// The simulator sends it to the app (`POST /apps/{appID}/touch`), the headless HMI to SDL Core.
public struct TouchInput: Sendable, Hashable {
    /// A `TouchType`: BEGIN, MOVE, END or CANCEL.
    public var type: String
    public var x: Int64
    public var y: Int64
    /// The finger, 0…9 (`TouchEvent.id`).
    public var id: Int64

    public init(type: String, x: Int64, y: Int64, id: Int64 = 0) {
        self.type = type
        self.x = x
        self.y = y
        self.id = id
    }

    /// At most this many touches in one control call.
    public static let maximumTouches = 100

    /// MOBILE_API.xml `TouchType` (CANCEL since 4.5), as HMI_API's `Common.TouchType`.
    public static let types: Set<String> = ["BEGIN", "MOVE", "END", "CANCEL"]

    /// What is wrong with a control call's touches (their count, a finger or a coordinate out of
    /// `TouchEvent`'s and `TouchCoord`'s ranges), or nil. The type is checked by the caller, against
    /// its spec.
    public static func problem(in touches: [TouchInput]) -> String? {
        guard (1...maximumTouches).contains(touches.count) else { return "send 1…\(maximumTouches) touches, not \(touches.count)" }
        for touch in touches {
            guard (0...9).contains(touch.id) else { return "id \(touch.id) is not 0…9" }
            guard (0...10_000).contains(touch.x), (0...10_000).contains(touch.y) else {
                return "x and y must be 0…10000 (TouchCoord), not \(touch.x), \(touch.y)"
            }
        }
        return nil
    }

    /// The notification's parameters: `type`, and `event: [{id, ts: [timestamp], c: [{x, y}]}]`,
    /// the timestamp in milliseconds (modulo the spec's 2·10⁹ maximum).
    public func parameters(timestampMilliseconds: UInt64) -> [String: SDLJSON] {
        let event: SDLJSON = [
            "id": .int(id), "ts": [.int(Int64(timestampMilliseconds % 2_000_000_000))], "c": [["x": .int(x), "y": .int(y)]],
        ]
        return ["type": .string(type), "event": [event]]
    }
}
