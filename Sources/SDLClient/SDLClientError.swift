/// Why an SDL app session could not do what was asked. ``code`` is stable; callers (and the HTTP
/// layer, which maps codes to statuses) switch on it; ``detail`` is for people and logs.
public struct SDLClientError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The transport connection could not be opened.
        public static let connectFailed = Code(rawValue: "connectFailed")
        /// A ws/wss head unit address answered the HTTP/1.1 upgrade without switching to
        /// WebSocket: not SDL Core's WebSocket server for apps (docs/protocol.md §e).
        public static let webSocketUpgradeFailed = Code(rawValue: "webSocketUpgradeFailed")
        /// The head unit refused to start the RPC service (StartServiceNAK).
        public static let startServiceRejected = Code(rawValue: "startServiceRejected")
        /// The head unit answered with a protocol version this client cannot speak.
        public static let unsupportedProtocolVersion = Code(rawValue: "unsupportedProtocolVersion")
        /// The link went down (closed, heartbeat or idle timeout) while the request was pending.
        public static let linkLost = Code(rawValue: "linkLost")
        /// The session is not connected and registered.
        public static let notConnected = Code(rawValue: "notConnected")
        /// No response came before the request's deadline.
        public static let timedOut = Code(rawValue: "timedOut")
        /// Sending would exceed the head unit's request rate limit; nothing was sent.
        public static let rateLimited = Code(rawValue: "rateLimited")
        /// The permission table says the function is not allowed at the current HMI level.
        public static let notPermitted = Code(rawValue: "notPermitted")
        /// The parameters do not match the RPC spec; nothing was sent.
        public static let invalidParameters = Code(rawValue: "invalidParameters")
        /// The function name is not a request of the RPC spec.
        public static let unknownFunction = Code(rawValue: "unknownFunction")
        /// Too many requests are pending at once.
        public static let tooManyPendingRequests = Code(rawValue: "tooManyPendingRequests")
        /// RegisterAppInterface failed; the session is closed.
        public static let registrationFailed = Code(rawValue: "registrationFailed")
        /// The head unit unregistered the app (OnAppInterfaceUnregistered).
        public static let unregistered = Code(rawValue: "unregistered")
        /// The session was closed by its owner.
        public static let closed = Code(rawValue: "closed")
        /// The request was cancelled by its caller, or its session was closed by its owner while
        /// it was pending (``SDLConnection/close()``; a lost link is ``linkLost``).
        public static let cancelled = Code(rawValue: "cancelled")
        /// The head unit answered a file request (a chunk's PutFile, ListFiles, DeleteFile,
        /// SetAppIcon) with a failure result code; the detail names the result code and, for an
        /// upload, the offset of the refused chunk (docs/protocol.md §c "PutFile with bulk data").
        public static let fileRequestFailed = Code(rawValue: "fileRequestFailed")
        /// The head unit sent something this client cannot understand.
        public static let protocolViolation = Code(rawValue: "protocolViolation")
        /// Another app of the registry already has this registry id, or the same app id, app name
        /// or VR synonym on the same head unit (Core would answer DISALLOWED or DUPLICATE_NAME,
        /// docs/protocol.md §e "Registration and limits"); nothing was sent.
        public static let duplicateApp = Code(rawValue: "duplicateApp")
        /// A capture file (`--record`) could not be created or written; the session goes on.
        public static let captureFailed = Code(rawValue: "captureFailed")
        /// The head unit refused to start a streaming service (StartServiceNAK; its `reason` is
        /// in the detail and its `rejectedParams` in ``SDLClientError/rejectedParams``), ended it
        /// while it was starting, or refused to end it (EndServiceNAK; docs/protocol.md §o).
        public static let streamingRefused = Code(rawValue: "streamingRefused")
        /// Stream data or EndService for a streaming service that is not started, or that the
        /// head unit ended (docs/protocol.md §o).
        public static let streamingNotStarted = Code(rawValue: "streamingNotStarted")
    }

    public var code: Code
    public var detail: String
    /// A ``Code/streamingRefused`` NAK's `rejectedParams` (e.g. `["videoCodec"]`); `nil` for
    /// every other error and when the NAK named none.
    public var rejectedParams: [String]?

    public init(_ code: Code, _ detail: String, rejectedParams: [String]? = nil) {
        self.code = code
        self.detail = detail
        self.rejectedParams = rejectedParams
    }

    public var description: String { "\(code): \(detail)" }
}
