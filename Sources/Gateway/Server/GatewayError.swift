import Foundation
import Hummingbird
import SDLClient
import SDLProtocol
import HTTPAPISupport

/// Why the gateway could not do what an HTTP client asked. ``code`` is stable and becomes the
/// problem `type` (`urn:sdl-gateway:problem:<code>`, RFC 9457) and the HTTP status
/// (docs/architecture.md, HTTP API: "HTTP status of an RPC"); ``detail`` is for people.
public struct GatewayError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let invalidBody = Code(rawValue: "invalid-body")
        public static let invalidQuery = Code(rawValue: "invalid-query")
        public static let bodyTooLarge = Code(rawValue: "body-too-large")
        public static let lengthRequired = Code(rawValue: "length-required")
        public static let requestHeadTimeout = Code(rawValue: "request-head-timeout")
        public static let notAcceptable = Code(rawValue: "not-acceptable")
        public static let unsupportedMediaType = Code(rawValue: "unsupported-media-type")
        public static let unauthorized = Code(rawValue: "unauthorized")
        public static let forbidden = Code(rawValue: "forbidden")
        public static let coreNotAllowed = Code(rawValue: "core-not-allowed")
        public static let originNotAllowed = Code(rawValue: "origin-not-allowed")
        public static let hostNotAllowed = Code(rawValue: "host-not-allowed")
        public static let appNotFound = Code(rawValue: "app-not-found")
        public static let appExists = Code(rawValue: "app-exists")
        public static let notMediaApp = Code(rawValue: "not-media-app")
        /// `PUT /v1/apps/{id}` with a body `id` other than the path's.
        public static let idMismatch = Code(rawValue: "id-mismatch")
        public static let notFound = Code(rawValue: "not-found")
        public static let unknownFunction = Code(rawValue: "unknown-function")
        public static let invalidParameters = Code(rawValue: "invalid-parameters")
        public static let emptyFile = Code(rawValue: "empty-file")
        public static let notPermitted = Code(rawValue: "not-permitted")
        public static let rateLimited = Code(rawValue: "rate-limited")
        public static let tooManyPendingRequests = Code(rawValue: "too-many-pending-requests")
        public static let notConnected = Code(rawValue: "not-connected")
        public static let linkLost = Code(rawValue: "link-lost")
        public static let timedOut = Code(rawValue: "timed-out")
        public static let cancelled = Code(rawValue: "cancelled")
        public static let registrationFailed = Code(rawValue: "registration-failed")
        public static let headUnitError = Code(rawValue: "head-unit-error")
        public static let fileRequestFailed = Code(rawValue: "file-request-failed")
        public static let protocolViolation = Code(rawValue: "protocol-violation")
        public static let tooManyClients = Code(rawValue: "too-many-clients")
        /// The gateway holds ``GatewayApps/Options/maximumApps`` apps already.
        public static let tooManyApps = Code(rawValue: "too-many-apps")
        /// Projection (StreamRoutes): the app may not stream (HMI type, level), streams already,
        /// does not stream, or the head unit refused the service (StartServiceNAK).
        public static let streamingNotAllowed = Code(rawValue: "streaming-not-allowed")
        public static let streamingStarted = Code(rawValue: "streaming-started")
        public static let streamingNotStarted = Code(rawValue: "streaming-not-started")
        public static let streamingRefused = Code(rawValue: "streaming-refused")
        /// Projection: the service has a sender already (a WebSocket or a streamed POST); one
        /// sender per app and service (``StreamSenders``).
        public static let streamingBusy = Code(rawValue: "streaming-busy")
        /// The gateway's image store is full (`limits.imageStoreSize`).
        public static let insufficientStorage = Code(rawValue: "insufficient-storage")
        public static let internalError = Code(rawValue: "internal")
    }

    public var code: Code
    public var detail: String
    /// The HTTP status; set for head-unit answers (from the result code), else from ``code``.
    public var status: HTTPResponse.Status
    /// The head unit's `resultCode`, when it answered.
    public var resultCode: String?
    /// The head unit's whole response, when it answered.
    public var sdlResponse: SDLJSON?
    /// Validation issues, one message each.
    public var issues: [String]
    /// Seconds until a retry can succeed (429).
    public var retryAfter: Int?
    /// A StartServiceNAK's `rejectedParams` (``Code/streamingRefused``).
    public var rejectedParams: [String]?

    public init(
        _ code: Code, _ detail: String, status: HTTPResponse.Status? = nil, resultCode: String? = nil, sdlResponse: SDLJSON? = nil,
        issues: [String] = [], retryAfter: Int? = nil
    ) {
        self.code = code
        self.detail = detail
        self.status = status ?? Self.status(of: code)
        self.resultCode = resultCode
        self.sdlResponse = sdlResponse
        self.issues = issues
        self.retryAfter = retryAfter
    }

    public var description: String { "\(code): \(detail)" }

    static func status(of code: Code) -> HTTPResponse.Status {
        switch code {
        case .invalidBody, .invalidQuery: .badRequest
        case .bodyTooLarge: .contentTooLarge
        case .lengthRequired: .lengthRequired
        case .requestHeadTimeout: .requestTimeout
        case .notAcceptable: .notAcceptable
        case .unsupportedMediaType: .unsupportedMediaType
        case .unauthorized: .unauthorized
        case .forbidden, .originNotAllowed, .hostNotAllowed, .notPermitted, .coreNotAllowed: .forbidden
        case .appNotFound, .notFound, .unknownFunction: .notFound
        case .appExists, .notMediaApp, .streamingNotAllowed, .streamingStarted, .streamingNotStarted, .streamingBusy: .conflict
        case .streamingRefused: .unprocessableContent
        case .invalidParameters, .emptyFile, .idMismatch: .unprocessableContent
        case .rateLimited, .tooManyPendingRequests: .tooManyRequests
        case .notConnected, .linkLost, .cancelled, .tooManyClients, .tooManyApps: .serviceUnavailable
        case .timedOut: .gatewayTimeout
        case .registrationFailed, .headUnitError, .fileRequestFailed, .protocolViolation: .badGateway
        case .insufficientStorage: HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        default: .internalServerError
        }
    }

    /// The HTTP status for a head unit's failed response (`success: false`) with `resultCode`.
    public static func status(ofResultCode resultCode: String) -> HTTPResponse.Status {
        switch resultCode {
        case "DISALLOWED", "USER_DISALLOWED", "VEHICLE_DATA_NOT_ALLOWED", "ENCRYPTION_NEEDED": .forbidden
        case "INVALID_DATA", "CHAR_LIMIT_EXCEEDED", "INVALID_ID", "DUPLICATE_NAME", "UNSUPPORTED_RESOURCE", "CORRUPTED_DATA", "READ_ONLY":
            .unprocessableContent
        case "FILE_NOT_FOUND": .notFound
        case "REJECTED", "IN_USE", "ABORTED", "IGNORED", "APPLICATION_REGISTERED_ALREADY": .conflict
        case "UNSUPPORTED_REQUEST", "UNSUPPORTED_VERSION": .notImplemented
        case "TOO_MANY_PENDING_REQUESTS": .tooManyRequests
        case "TIMED_OUT": .gatewayTimeout
        case "OUT_OF_MEMORY": HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage")
        case "APPLICATION_NOT_REGISTERED": .serviceUnavailable
        case "VEHICLE_DATA_NOT_AVAILABLE", "DATA_NOT_AVAILABLE": HTTPResponse.Status(code: 424, reasonPhrase: "Failed Dependency")
        default: .badGateway
        }
    }

    /// A head unit's failed response as a problem carrying it.
    public static func headUnit(_ function: String, response: SDLJSON, code: Code = .headUnitError) -> GatewayError {
        let resultCode = response["resultCode"]?.stringValue ?? "GENERIC_ERROR"
        let info = response["info"]?.stringValue.map { ": \($0)" } ?? ""
        return GatewayError(
            code, "\(function) answered \(resultCode)\(info)", status: status(ofResultCode: resultCode), resultCode: resultCode,
            sdlResponse: response
        )
    }

    /// A client error as the HTTP API reports it.
    public init(_ error: SDLClientError) {
        let code: Code =
            switch error.code {
            case .notConnected, .closed: .notConnected
            case .connectFailed, .webSocketUpgradeFailed, .linkLost: .linkLost
            case .timedOut: .timedOut
            case .rateLimited: .rateLimited
            case .notPermitted: .notPermitted
            case .invalidParameters: .invalidParameters
            case .unknownFunction: .unknownFunction
            case .tooManyPendingRequests: .tooManyPendingRequests
            case .registrationFailed, .startServiceRejected, .unsupportedProtocolVersion, .unregistered: .registrationFailed
            case .cancelled: .cancelled
            case .fileRequestFailed: .fileRequestFailed
            case .duplicateApp: .appExists
            case .streamingRefused: .streamingRefused
            case .streamingNotStarted: .streamingNotStarted
            case .protocolViolation: .protocolViolation
            default: .internalError
            }
        let detail =
            error.code == .rateLimited
            ? "\(error.detail) (the app's SDL request limit, kept below SDL Core's so that Core never unregisters the app for flooding; it follows serve --core-request-limit, which must match Core's AppTimeScaleMaxRequests)"
            : error.detail
        // A validation refusal lists its issues however it was reached (the RPC route, the
        // subscription routes, a batch): "Function $.path: …; $.other: …" → one issue per path.
        let issues =
            code == .invalidParameters
            ? error.detail.split(separator: "; ").map { issue in
                issue.firstIndex(of: "$").map { String(issue[$0...]) } ?? String(issue)
            }
            : []
        self.init(code, detail, issues: issues, retryAfter: error.code == .rateLimited ? 1 : nil)
        rejectedParams = error.rejectedParams
    }

    /// Any error thrown while handling a request, as a gateway error.
    /// A page or a Host name ``BrowserOriginRule`` refuses.
    init(_ refusal: BrowserOriginRule.Refusal) {
        self.init(Code(rawValue: refusal.code), refusal.detail)
    }

    public static func from(_ error: any Error) -> GatewayError {
        switch error {
        case let error as GatewayError: error
        case let error as SDLClientError: GatewayError(error)
        default: GatewayError(.internalError, "\(error)")
        }
    }

    var title: String {
        switch code {
        case .headUnitError: "The head unit refused the request"
        case .notConnected: "The app is not connected to the head unit"
        case .timedOut: "No answer before the deadline"
        case .rateLimited: "Too many requests"
        case .notPermitted: "Not allowed at the app's HMI level"
        // Not only an RPC's parameters: a declared screen, menu or interaction too.
        case .invalidParameters: "The parameters are not valid"
        case .appNotFound: "No such app"
        case .unauthorized: "A bearer token is required"
        case .forbidden: "The token does not allow this"
        case .emptyFile: "The file is empty"
        default: code.rawValue.replacingOccurrences(of: "-", with: " ").capitalizedFirst
        }
    }

    var problemMembers: [String: SDLJSON] {
        var extra: [String: SDLJSON] = [:]
        if let resultCode { extra["resultCode"] = .string(resultCode) }
        if let sdlResponse { extra["sdlResponse"] = sdlResponse }
        if !issues.isEmpty { extra["issues"] = .array(issues.map(SDLJSON.string)) }
        if code == .streamingRefused { extra["rejectedParams"] = .array((rejectedParams ?? []).map(SDLJSON.string)) }
        return extra
    }

    /// The problem object (for batch results and WebSocket replies).
    public var problem: SDLJSON {
        HTTPProblem.members(status: status, code: code.rawValue, title: title, detail: detail, extra: problemMembers)
    }
}

extension GatewayError: HTTPResponseError {
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if code == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"sdl-gateway\"" }
        return HTTPProblem.response(
            status: status, code: code.rawValue, title: title, detail: detail, extra: problemMembers, headers: headers)
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
