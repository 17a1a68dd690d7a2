import Foundation
import HTTPAPISupport
import HeadUnitModel
import NIOCore
import HeadlessHMI
import Hummingbird
import HummingbirdTesting
import Logging
import SDLProtocol
import SDLTransport
import SimulatorControl
import TestSupport
import Testing

/// The headless HMI's control API through HummingbirdTesting, with no Core connected.
@Suite("Headless HMI control API", .timeLimit(.minutes(1)))
struct HMIControlRoutesTests {
    static func routes() -> HMIControlRoutes {
        HMIControlRoutes(
            connection: HMIConnection(
                address: SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: 9),
                hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)), logger: Logger.test("test")
            ))
    }

    @Test("The declared operations are the routes the router registers")
    func operations() {
        let router = Router()
        Self.routes().add(to: router)
        #expect(router.registeredOperations == Set(HMIControlRoutes.operations.map { "\($0.method) /\($0.path)" }))
    }

    @Test("openapi.yaml documents under /v1/hmi exactly the declared operations")
    func documented() throws {
        let text = try String(contentsOf: SimulatorOpenAPITests.document, encoding: .utf8)
        let documented = OpenAPIOperations.parse(text).filter { $0.path.hasPrefix("/v1/hmi/") }
        #expect(documented.count == 15)
        #expect(Set(documented) == Set(HMIControlRoutes.operations.map { $0.mounted(at: "/v1/hmi/") }))
    }

    @Test(
        "Without Core: status says disconnected, no apps; driving is 503 not-connected, an unknown app 404, a bad body 400, all problem+json"
    )
    func withoutCore() async throws {
        let app = Application(router: Self.routes().makeRouter())
        try await app.test(.router) { client in
            try await client.execute(uri: "/status", method: .get) { response in
                #expect(response.status == .ok)
                let body = try SDLJSON.parse(response.body)
                #expect(body["phase"] == "disconnected" && body["apps"] == 0)
            }
            try await client.execute(uri: "/apps", method: .get) { response in
                let apps = try SDLJSON.parse(response.body)
                #expect(apps == [])
            }
            try await client.execute(
                uri: "/driver-distraction", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"state":"DD_ON"}"#)
            ) { response in
                #expect(response.status == .serviceUnavailable)
                let problem = try SDLJSON.parse(response.body)
                #expect(problem["type"] == "urn:sdl-gateway:problem:not-connected")
            }
            try await client.execute(uri: "/apps/65537", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(
                uri: "/apps/radio/hmi", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"hmiLevel":"FULL"}"#)
            ) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(
                uri: "/buttons/OK/press", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"mode":"SHORT","app":1}"#)
            ) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/nowhere", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType]?.contains("problem+json") == true)
            }
        }
    }
}
