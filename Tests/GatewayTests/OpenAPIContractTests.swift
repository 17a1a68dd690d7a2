import Foundation
import Gateway
import HTTPTypes
import Logging
import SDLProtocol
import Testing

/// `openapi.yaml` and the gateway's routes describe the same set of operations (besides the
/// simulator's, which SimulatorControlTests compare).
@Suite("openapi.yaml matches the gateway's routes")
struct OpenAPIContractTests {
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    /// `METHOD path` for every operation outside `/v1/simulator`, read from the `paths:` block
    /// (two-space path keys, four-space method keys).
    static func documentedOperations() throws -> Set<String> {
        let text = try String(contentsOf: document, encoding: .utf8)
        var operations: Set<String> = []
        var path: String?
        var inPaths = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") { inPaths = true; continue }
            if inPaths, let first = line.first, first != " " { break }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, !path.hasPrefix("/v1/simulator"),
                let method = ["get", "put", "post", "delete", "patch"].first(where: { line == "    \($0):" })
            {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test("Every route is documented and every documented operation is routed")
    func sameOperations() throws {
        let routed = Set(GatewayRouter.operations.map { "\($0.method) \($0.path)" })
        let documented = try Self.documentedOperations()
        #expect(routed.subtracting(documented).sorted() == [], "routed but not documented")
        #expect(documented.subtracting(routed).sorted() == [], "documented but not routed")
    }

    @Test("The served copy is the document itself")
    func servedCopy() async throws {
        let served = try #require(GatewayRouter.openAPIDocument)
        #expect(served == (try String(contentsOf: Self.document, encoding: .utf8)))
    }
}
