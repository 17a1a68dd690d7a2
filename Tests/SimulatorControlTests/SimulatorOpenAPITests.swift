import Foundation
import HTTPAPISupport
import HeadUnitSimulator
import Hummingbird
import Logging
import HummingbirdTesting
import NIOCore
import SDLProtocol
import SimulatorControl
import TestSupport
import Testing

/// `openapi.yaml` and the control routes describe the same set of operations.
@Suite("Simulator control API matches openapi.yaml", .timeLimit(.minutes(1)))
struct SimulatorOpenAPITests {
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    /// `(METHOD, /v1/simulator/...)` for every simulator operation of the document (the
    /// gateway's own are GatewayTests' to compare).
    static func documentedOperations() throws -> [APIOperation] {
        OpenAPIOperations.parse(try String(contentsOf: document, encoding: .utf8))
            .filter { $0.path.hasPrefix("/v1/simulator/") }
    }

    @Test("Every documented operation is routed, and every route is documented")
    func sameOperations() async throws {
        let documented = try Self.documentedOperations()
        #expect(documented.count == 25)
        // The declared operations (with their query parameters, which the gateway enforces) …
        #expect(Set(documented) == Set(SimulatorControlRoutes.operations.map { $0.mounted(at: "/v1/simulator/") }))
        // … and the routes the router really registers are the document's.
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(), logger: .init(label: "test"))
        let router = Router()
        SimulatorControlRoutes(simulator: simulator).add(to: router.group("v1/simulator"))
        #expect(router.registeredOperations == Set(documented.map { "\($0.method) \($0.path)" }))

        // And the router really answers each one (an unrouted request is a bare 404 without a problem body).
        let app = Application(router: router)
        try await app.test(.router) { client in
            for operation in documented {
                let (method, path) = (operation.method, operation.path)
                let uri = path.replacingOccurrences(of: "{appID}", with: "nobody").replacingOccurrences(of: "{cmdID}", with: "1")
                    .replacingOccurrences(of: "{name}", with: path.contains("/files/") ? "icon.png" : "OK")
                try await client.execute(uri: uri, method: .init(method)!, body: ByteBuffer(string: "{}")) { response throws in
                    let routed = response.status != .notFound || response.headers[.contentType] == "application/problem+json"
                    #expect(routed, "\(method) \(path) is not routed")
                }
            }
        }
    }
}
