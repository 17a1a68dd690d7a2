/// One operation of the HTTP API as `openapi.yaml` writes it: the method, the path template with
/// `{name}` parameters, and the names of the query parameters it takes. The routers declare their
/// operations with this type, tests compare them with the document, and the gateway refuses query
/// parameters an operation does not take.
public struct APIOperation: Sendable, Hashable, CustomStringConvertible {
    public let method: String
    public let path: String
    public let query: Set<String>

    public init(_ method: String, _ path: String, query: Set<String> = []) {
        self.method = method
        self.path = path
        self.query = query
    }

    /// `METHOD path ?a,b` — the form the contract tests compare.
    public var description: String {
        query.isEmpty ? "\(method) \(path)" : "\(method) \(path) ?\(query.sorted().joined(separator: ","))"
    }

    /// The operation mounted under `prefix` (e.g. the simulator's control routes under `/v1/simulator/`).
    public func mounted(at prefix: String) -> APIOperation {
        APIOperation(method, prefix + path, query: query)
    }

    /// Whether `path` (without query) fits the template: same number of segments, literal
    /// segments equal, `{parameter}` segments not empty.
    public func matches(path requestPath: some StringProtocol) -> Bool {
        let template = path.split(separator: "/", omittingEmptySubsequences: false)
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        return template.count == segments.count
            && zip(template, segments).allSatisfy { pattern, segment in
                (pattern.hasPrefix("{") && !segment.isEmpty) || pattern == segment
            }
    }
}
