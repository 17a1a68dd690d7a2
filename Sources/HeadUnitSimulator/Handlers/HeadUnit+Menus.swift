import NIOCore
import SDLProtocol

/// AddCommand, DeleteCommand, AddSubMenu, DeleteSubMenu, Create/DeleteInteractionChoiceSet.
extension HeadUnit {
    static let menuHandlers: [String: RequestHandler] = [:]
}
