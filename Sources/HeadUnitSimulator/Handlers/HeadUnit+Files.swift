import NIOCore
import SDLProtocol

/// PutFile, ListFiles, DeleteFile, SetAppIcon.
extension HeadUnit {
    static let fileHandlers: [String: RequestHandler] = [:]
}
