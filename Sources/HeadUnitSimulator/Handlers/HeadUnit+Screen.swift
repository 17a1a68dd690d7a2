import NIOCore
import SDLProtocol

/// Show, SetDisplayLayout, SetMediaClockTimer, SetGlobalProperties, ResetGlobalProperties.
extension HeadUnit {
    static let screenHandlers: [String: RequestHandler] = [:]
}
