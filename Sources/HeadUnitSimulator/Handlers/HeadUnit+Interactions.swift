import NIOCore
import SDLProtocol

/// Alert, Speak, ScrollableMessage, Slider, PerformInteraction and the other requests the HMI
/// answers later.
extension HeadUnit {
    static let interactionHandlers: [String: RequestHandler] = [:]

    /// Answers the app's open interaction when its timer fires.
    mutating func finishInteraction(session sessionID: UInt8, correlationID: UInt32, now: NIODeadline) {}
}
