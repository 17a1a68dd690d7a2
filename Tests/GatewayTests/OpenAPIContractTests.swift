import Foundation
import Gateway
import HTTPAPISupport
import HeadUnitSimulator
import SimulatorControl
import TestSupport
import HTTPTypes
import Logging
import SDLProtocol
import Testing

/// `openapi.yaml` and the gateway's routes describe the same set of operations (besides the
/// simulator's and the headless HMI's, which SimulatorControlTests compare).
@Suite("openapi.yaml matches the gateway's routes", .timeLimit(.minutes(1)))
struct OpenAPIContractTests {
    static let document = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    /// `METHOD path ?query` for every operation outside `/v1/simulator` and `/v1/hmi`.
    static func documentedOperations() throws -> Set<String> {
        Set(
            OpenAPIOperations.parse(try String(contentsOf: document, encoding: .utf8))
                .filter { !$0.path.hasPrefix("/v1/simulator") && !$0.path.hasPrefix("/v1/hmi/") }
                .map(\.description)
        )
    }

    @Test("Every route is documented with its query parameters and every documented operation is routed")
    func sameOperations() throws {
        let declared = Set(GatewayRouter.operations.map(\.description))
        let documented = try Self.documentedOperations()
        #expect(declared.subtracting(documented).sorted() == [], "declared but not documented")
        #expect(documented.subtracting(declared).sorted() == [], "documented but not declared")
    }

    @Test(
        "The routes the real routers register (the gateway's, its WebSocket upgrades, the simulator's and the headless HMI's groups) are the document's operations"
    )
    func registeredRoutes() throws {
        let simulator = SimulatedHeadUnit(configuration: HeadUnitConfiguration(), logger: Logger.test("test"))
        let gateway = GatewayRouter(
            configuration: GatewayConfiguration(), apps: GatewayApps(logger: Logger.test("test")),
            routeGroups: [
                GatewayHarness.simulatorRoutes(simulator),
                .unavailable(path: "v1/hmi", operations: HMIControlRoutes.operations, detail: "the headless HMI is off"),
            ]
        )
        let documented = Set(
            OpenAPIOperations.parse(try String(contentsOf: Self.document, encoding: .utf8)).map { "\($0.method) \($0.path)" })
        // `GET /` is the public directory's index.html, served by the file middleware, not a route.
        // HEAD is GET's (the README says so once, not per operation); the event streams register theirs.
        let registered = gateway.makeRouter().registeredOperations
        #expect(registered.filter { $0.hasPrefix("HEAD ") } == Set(["HEAD /v1/apps/{id}/events", "HEAD /v1/events"]))
        let routed = registered.filter { !$0.hasPrefix("HEAD ") }.union(["GET /"])
        #expect(routed.subtracting(documented).sorted() == [], "routed but not documented")
        #expect(documented.subtracting(routed).sorted() == [], "documented but not routed")
        #expect(
            gateway.makeWebSocketRouter().registeredOperations == [
                "GET /v1/apps/{id}/events", "GET /v1/events", "GET /v1/apps/{id}/video", "GET /v1/apps/{id}/audio-stream",
                "GET /v1/simulator/apps/{appID}/video", "GET /v1/simulator/apps/{appID}/audio",
            ])
        #expect(Set(gateway.allOperations.map { "\($0.method) \($0.path)" }) == documented, "the operations the middleware enforces")
    }

    @Test("No component is declared twice in a section (YAML keeps the last one silently: a second Screen once replaced the simulator's)")
    func uniqueComponents() throws {
        let lines = try String(contentsOf: Self.document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        var section = ""
        var seen: [String: Set<String>] = [:]
        var duplicates: [String] = []
        for line in lines {
            if line.hasPrefix("  "), !line.hasPrefix("   "), line.hasSuffix(":") { section = String(line.dropFirst(2).dropLast()) }
            guard section != "", line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") else { continue }
            let name = String(line.dropFirst(4).dropLast())
            if !seen[section, default: []].insert(name).inserted { duplicates.append("\(section).\(name)") }
        }
        #expect(duplicates.filter { !$0.hasPrefix("/") }.isEmpty, "\(duplicates)")
        #expect(seen["schemas"]?.contains("DeclaredScreen") == true)
    }

    @Test("The reader finds path-level, operation-level and shared query parameters")
    func readerFindsQueryParameters() {
        let document = """
            openapi: 3.1.0
            paths:
              /a/{id}:
                parameters:
                  - name: id
                    in: path
                  - name: level
                    in: query
                get:
                  parameters:
                    - $ref: "#/components/parameters/Shared"
                    - name: inline
                      in: query
                      schema: { type: string }
                    - name: X-Header
                      in: header
                  responses: {}
                delete:
                  responses: {}
              /b:
                post:
                  requestBody: {}
            components:
              parameters:
                Shared:
                  name: shared
                  in: query
                Other:
                  name: other
                  in: path
            """
        #expect(
            OpenAPIOperations.parse(document).map(\.description) == [
                "GET /a/{id} ?inline,level,shared", "DELETE /a/{id} ?level", "POST /b",
            ])
    }

    @Test("The served copy is the document itself")
    func servedCopy() async throws {
        let served = try #require(GatewayRouter.openAPIDocument)
        #expect(served == (try String(contentsOf: Self.document, encoding: .utf8)))
    }

    @Test("The event types the streams accept in ?types= are the document's EventType enum")
    func eventTypes() throws {
        let lines = try String(contentsOf: Self.document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "    EventType:" })
        var documented: Set<String> = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("        - ") {
                documented.insert(String(line.dropFirst("        - ".count)))
            } else if !line.hasPrefix("      ") {
                break
            }
        }
        #expect(documented == GatewayEvent.types)
    }
}
