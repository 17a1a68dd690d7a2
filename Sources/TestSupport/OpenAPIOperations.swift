import HTTPAPISupport
/// The operations an OpenAPI document lists, read from its `paths:` block as the project writes
/// it (two-space path keys, four-space method keys, parameters as list items of `parameters:` at
/// path or operation level, inline or as `$ref` to `components/parameters`): what the tests
/// compare with the routes.
public enum OpenAPIOperations {
    /// Every operation in document order, with the query parameters it takes.
    public static func parse(_ text: String) -> [APIOperation] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let shared = componentQueryParameters(lines)
        var operations: [(method: String, path: String, query: Set<String>)] = []
        var path: String?
        var pathQuery: Set<String> = []
        var inPaths = false
        var listIndent: Int?  // the indentation of the items of the `parameters:` being read
        var itemName: Substring?
        func flushPath() {
            guard let path else { return }
            for index in operations.indices where operations[index].path == path {
                operations[index].query.formUnion(pathQuery)
            }
        }
        for line in lines {
            if line.hasPrefix("paths:") {
                inPaths = true
                continue
            }
            if inPaths, let first = line.first, first != " " { break }
            guard inPaths else { continue }
            let indent = line.prefix(while: { $0 == " " }).count
            let content = line.dropFirst(indent)
            if let items = listIndent, !content.isEmpty, indent < items || (indent == items && !content.hasPrefix("- ")) {
                listIndent = nil
            }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                flushPath()
                path = String(line.dropFirst(2).dropLast())
                pathQuery = []
            } else if let path, indent == 4, let method = ["get", "put", "post", "delete", "patch"].first(where: { content == "\($0):" }) {
                operations.append((method.uppercased(), path, []))
            } else if content == "parameters:", indent == 4 || indent == 6 {
                listIndent = indent + 2
                itemName = nil
            } else if let items = listIndent, indent == items || indent == items + 2 {
                let field = indent == items ? content.dropFirst(2) : content
                if indent == items { itemName = nil }
                var name: Substring?
                if field.hasPrefix("$ref:"), let reference = field.split(separator: "/").last {
                    name = shared[String(reference.filter { $0 != "\"" && $0 != "'" })]
                } else if field.hasPrefix("name: ") {
                    itemName = field.dropFirst(6)
                } else if field == "in: query" {
                    name = itemName
                }
                if let name {
                    if items == 6 {
                        pathQuery.insert(String(name))
                    } else if !operations.isEmpty {
                        operations[operations.count - 1].query.insert(String(name))
                    }
                }
            }
        }
        flushPath()
        return operations.map { APIOperation($0.method, $0.path, query: $0.query) }
    }

    /// `components/parameters` entries that are query parameters: reference name → parameter name.
    static func componentQueryParameters(_ lines: [Substring]) -> [String: Substring] {
        var result: [String: Substring] = [:]
        var inComponents = false
        var inParameters = false
        var reference: String?
        var name: Substring?
        for line in lines {
            if let first = line.first, first != " " {
                inComponents = line.hasPrefix("components:")
                inParameters = false
                continue
            }
            guard inComponents else { continue }
            if line.hasPrefix("  "), !line.hasPrefix("   ") {
                inParameters = line == "  parameters:"
                continue
            }
            guard inParameters else { continue }
            if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                reference = String(line.dropFirst(4).dropLast())
                name = nil
            } else if line.hasPrefix("      name: ") {
                name = line.dropFirst(12)
            } else if line == "      in: query", let reference, let name {
                result[reference] = name
            }
        }
        return result
    }
}
