/// The operations an OpenAPI document lists, read from its `paths:` block as the project writes
/// it (two-space path keys, four-space method keys): what the tests compare with the routes.
public enum OpenAPIOperations {
    /// `(METHOD, path)` for every operation, in document order.
    public static func parse(_ text: String) -> [(method: String, path: String)] {
        var operations: [(method: String, path: String)] = []
        var path: String?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") {
                inPaths = true
                continue
            }
            if inPaths, let first = line.first, first != " " { break }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, let method = ["get", "put", "post", "delete", "patch"].first(where: { line == "    \($0):" }) {
                operations.append((method.uppercased(), path))
            }
        }
        return operations
    }
}
