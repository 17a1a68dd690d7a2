import SDLProtocol

/// One JSON-RPC 2.0 message of SDL Core's HMI interface (the WebSocket on port 8087, HMI_API.xml),
/// in the shapes Core's message broker and JSON-RPC formatter use:
///
/// - request `{"jsonrpc":"2.0","id":N,"method":"UI.Show","params":{…}}`
/// - notification: the same without `id`
/// - response `{"jsonrpc":"2.0","id":N,"result":{"code":0,"method":"UI.Show",…}}` (`code` is
///   HMI_API.xml's `Common.Result`; the message broker's own answers carry a bare `result`,
///   an integer for `MB.registerComponent`, `"OK"` for `MB.subscribeTo`)
/// - error `{"jsonrpc":"2.0","id":N,"error":{"code":4,"message":"…","data":{"method":"UI.Show"}}}`
public enum HMIMessage: Sendable, Hashable {
    case request(id: Int64, method: String, params: [String: SDLJSON])
    case notification(method: String, params: [String: SDLJSON])
    /// A response to a request: `result` is the whole `result` member (an object for Core's
    /// responses, an integer or string for the message broker's).
    case response(id: Int64, result: SDLJSON)
    case error(id: Int64?, code: Int64, message: String, method: String?)

    /// The largest message read: Core's biggest (GetCapabilities answers, PutFile paths) are a few
    /// KiB; 1 MiB leaves room and bounds what a peer can make this side parse.
    public static let maximumSize = 1 << 20

    /// Parses one text message; anything that is not one of the four shapes is an ``HMIError``.
    public init(parsing bytes: some Collection<UInt8>) throws(HMIError) {
        guard bytes.count <= Self.maximumSize else {
            throw HMIError(.messageTooLarge, "an HMI message of \(bytes.count) bytes (at most \(Self.maximumSize))")
        }
        let json: SDLJSON
        do {
            json = try SDLJSON.parse(bytes)
        } catch {
            throw HMIError(.malformedMessage, "not JSON: \(error.detail)")
        }
        guard let object = json.objectValue else {
            throw HMIError(.malformedMessage, "a message must be a JSON object, not \(json.typeName)")
        }
        let id = object["id"]?.intValue
        if let method = object["method"]?.stringValue {
            guard object["params"] == nil || object["params"]?.objectValue != nil else {
                throw HMIError(.malformedMessage, "\(method): params must be an object")
            }
            let params = object["params"]?.objectValue ?? [:]
            self = id.map { .request(id: $0, method: method, params: params) } ?? .notification(method: method, params: params)
        } else if let error = object["error"]?.objectValue {
            guard let code = error["code"]?.intValue else { throw HMIError(.malformedMessage, "an error without a numeric code") }
            self = .error(
                id: id, code: code, message: error["message"]?.stringValue ?? "",
                method: error["data"]?["method"]?.stringValue ?? error["method"]?.stringValue
            )
        } else if let result = object["result"], let id {
            self = .response(id: id, result: result)
        } else {
            throw HMIError(.malformedMessage, "neither a request, a notification, a response nor an error")
        }
    }

    /// A request's or notification's method, a Core response's `result.method`, an error's `data.method`.
    public var method: String? {
        switch self {
        case .request(_, let method, _), .notification(let method, _): method
        case .response(_, let result): result["method"]?.stringValue
        case .error(_, _, _, let method): method
        }
    }

    public var json: SDLJSON {
        switch self {
        case .request(let id, let method, let params):
            ["jsonrpc": "2.0", "id": .int(id), "method": .string(method), "params": .object(params)]
        case .notification(let method, let params):
            ["jsonrpc": "2.0", "method": .string(method), "params": .object(params)]
        case .response(let id, let result):
            ["jsonrpc": "2.0", "id": .int(id), "result": result]
        case .error(let id, let code, let message, let method):
            [
                "jsonrpc": "2.0", "id": id.map { .int($0) } ?? .null,
                "error": ["code": .int(code), "message": .string(message), "data": method.map { ["method": .string($0)] } ?? .null],
            ]
        }
    }

    /// The method this message answers, when it is an answer to one of Core's requests.
    public var answeredMethod: String? {
        switch self {
        case .response(_, let result): result["method"]?.stringValue
        case .error(_, _, _, let method): method
        default: nil
        }
    }

    /// The answer to a request of Core: `result` with `code` and `method`, and `params` beside them.
    public static func answer(id: Int64, method: String, code: HMIResult = .success, params: [String: SDLJSON] = [:]) -> HMIMessage {
        guard code.isSuccessful else {
            return .error(id: id, code: code.rawValue, message: "\(code)", method: method)
        }
        var result = params
        result["code"] = .int(code.rawValue)
        result["method"] = .string(method)
        return .response(id: id, result: .object(result))
    }
}

/// What went wrong talking to Core's HMI interface, with a stable code.
public struct HMIError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        case malformedMessage
        case messageTooLarge
        case registrationRefused
        case connectionFailed
        case unknownApp
        case invalidValue
        /// The control API answers an interaction, but the app shows none.
        case noOpenInteraction
        /// A touch names an app Core would not send it to (not NAVIGATION or PROJECTION, or not in FULL).
        case notTouchable
    }

    public var code: Code
    public var detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
