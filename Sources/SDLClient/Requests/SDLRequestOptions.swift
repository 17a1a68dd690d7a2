import NIOCore

/// How one request is sent, beyond its function and parameters: the one value the HTTP API, an
/// ``SDLAppSession`` and its ``SDLConnection`` pass along, so that a new option is added once.
/// `nil` means "the connection's configuration decides".
public struct SDLRequestOptions: Sendable, Hashable {
    /// How long to wait for the response; `nil` uses ``SDLRequestDeadlines`` (Core's 10 s + 1 s
    /// compensation + 1 s margin, extended by the request's own durations; docs/protocol.md §e).
    public var timeout: TimeAmount?
    /// Check the parameters against the RPC spec before sending; `nil` uses
    /// ``SDLConnection/Configuration/validatesRequests``.
    public var validate: Bool?
    /// Refuse locally what the permission table does not allow at the current HMI level; `nil`
    /// uses ``SDLConnection/Configuration/checksPermissions``.
    public var checkPermissions: Bool?
    /// Binary data sent after the JSON (PutFile and the like; docs/protocol.md §c "PutFile with
    /// bulk data"): the message then goes on the bulk data service 0x0F.
    public var bulkData: ByteBuffer?

    public init(timeout: TimeAmount? = nil, validate: Bool? = nil, checkPermissions: Bool? = nil, bulkData: ByteBuffer? = nil) {
        self.timeout = timeout
        self.validate = validate
        self.checkPermissions = checkPermissions
        self.bulkData = bulkData
    }

    /// Everything as the connection's configuration says.
    public static let `default` = SDLRequestOptions()
}
