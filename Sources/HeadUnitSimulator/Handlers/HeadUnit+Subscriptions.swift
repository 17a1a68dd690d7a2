import NIOCore
import SDLProtocol

/// SubscribeButton, UnsubscribeButton, Subscribe/UnsubscribeVehicleData, GetVehicleData.
extension HeadUnit {
    static let subscriptionHandlers: [String: RequestHandler] = [:]
}
