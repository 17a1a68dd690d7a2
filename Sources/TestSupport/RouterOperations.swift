import Hummingbird

extension Router {
    /// `METHOD /path/{parameter}` for every route the router really registered, in the form
    /// `openapi.yaml` writes paths: what the contract tests compare with the document.
    public var registeredOperations: Set<String> {
        Set(
            routes.map { route in
                let path = "\(route.path)".split(separator: "/", omittingEmptySubsequences: false).map { segment in
                    segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
                }.joined(separator: "/")
                return "\(route.method) \(path.hasPrefix("/") ? path : "/" + path)"
            })
    }
}
