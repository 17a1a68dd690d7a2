import Foundation
import Gateway
import SimulatorControl
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

    /// `METHOD path` for every operation outside `/v1/simulator`.
    static func documentedOperations() throws -> Set<String> {
        Set(
            OpenAPIOperations.parse(try String(contentsOf: document, encoding: .utf8))
                .filter { !$0.path.hasPrefix("/v1/simulator") }
                .map { "\($0.method) \($0.path)" }
        )
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
