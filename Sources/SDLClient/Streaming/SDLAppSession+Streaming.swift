import NIOCore

// The video and audio streaming services (docs/protocol.md §o) on the app's current connection.
// A stream belongs to one connection: a reconnect does not restart it (the head unit ended it
// with the old link, and said so with a `streaming` event).

extension SDLAppSession {
    /// ``SDLConnection/startStreaming(_:format:)`` on the current connection; throws
    /// ``SDLClientError/Code/notConnected`` when the app is not registered.
    public func startStreaming(_ service: SDLStreamingService, format: SDLVideoStreamFormat?) async throws -> SDLStreamingAccepted {
        try await streamingConnection().startStreaming(service, format: format)
    }

    /// ``SDLConnection/sendStream(_:_:)`` on the current connection; throws
    /// ``SDLClientError/Code/notConnected`` when the app is not registered.
    @discardableResult
    public func sendStream(_ service: SDLStreamingService, _ bytes: ByteBuffer) async throws -> Int {
        try await streamingConnection().sendStream(service, bytes)
    }

    /// ``SDLConnection/forwardStream(_:_:whenReady:)`` on the current connection; throws
    /// ``SDLClientError/Code/notConnected`` when the app is not registered.
    public func forwardStream(
        _ service: SDLStreamingService, _ bytes: ByteBuffer, whenReady: (@Sendable () -> Void)?
    ) throws(SDLClientError) -> Bool {
        try streamingConnection().forwardStream(service, bytes, whenReady: whenReady)
    }

    /// ``SDLConnection/endStreaming(_:)`` on the current connection; throws
    /// ``SDLClientError/Code/notConnected`` when the app is not registered.
    public func endStreaming(_ service: SDLStreamingService) async throws {
        try await streamingConnection().endStreaming(service)
    }

    /// The service's status on the current connection; `nil` when it is not started or there is
    /// no connection.
    public func streamingStatus(_ service: SDLStreamingService) -> SDLStreamingStatus? {
        connection?.streamingStatus(service)
    }

    private func streamingConnection() throws(SDLClientError) -> SDLConnection {
        guard connectionState == .registered, let connection else {
            throw SDLClientError(.notConnected, "the app is \(connectionState.rawValue), not registered")
        }
        return connection
    }
}
