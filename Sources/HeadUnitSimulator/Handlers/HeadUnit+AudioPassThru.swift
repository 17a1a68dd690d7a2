import NIOCore
import SDLProtocol

/// PerformAudioPassThru and EndAudioPassThru.
extension HeadUnit {
    static let otherHandlers: [String: RequestHandler] = [:]

    mutating func sendAudioPassThruChunk(session sessionID: UInt8, now: NIODeadline) {}

    mutating func endAudioPassThru(session sessionID: UInt8, resultCode: String, now: NIODeadline) {}
}
