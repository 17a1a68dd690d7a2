import Gateway
import HTTPAPISupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SimulatorControl
import Testing

/// Issue 30, item 13: `HEAD` got 405 on `/openapi.yaml`, `/v1/health`, `/v1/apps`, `…/last.wav`
/// (SECURITY.md lists GET and HEAD) while `HEAD /` was 200. Every GET route answers HEAD as GET
/// without the body.
@Suite("HEAD on every GET route", .timeLimit(.minutes(1)))
struct HeadRequestTests {
    typealias H = GatewayHarness

    @Test("Every GET operation of the gateway and of the simulator's routes: HEAD has GET's status and Content-Length, and no body")
    func everyGetOperation() async throws {
        let operations = GatewayRouter.operations + SimulatorControlRoutes.operations.map { $0.mounted(at: "/v1/simulator/") }
        let gets = operations.filter { $0.method == "GET" && !$0.path.hasSuffix("/events") }
        #expect(gets.count > 20)
        try await H.withGateway { client, _, _ in
            try await H.createApp(client)
            // The feed's answer holds its elapsed time: paused, GET and HEAD describe the same body.
            try await client.execute(
                uri: "/v1/simulator/feed", method: .put, headers: H.jsonHeaders, body: ByteBuffer(string: #"{"playing": false}"#)
            ) { response in
                #expect(response.status == .ok)
            }
            for operation in gets {
                let path = AuthTests.concretePath(operation.path)
                let (status, length) = try await client.execute(uri: path, method: .get) { ($0.status, $0.headers[.contentLength]) }
                try await client.execute(uri: path, method: .head) { response in
                    #expect(response.status == status, "HEAD \(path): \(response.status), GET \(status)")
                    #expect(response.status != .methodNotAllowed, "HEAD \(path)")
                    #expect(response.headers[.contentLength] == length, "HEAD \(path): Content-Length")
                    #expect(response.body.readableBytes == 0, "HEAD \(path) has a body")
                }
            }
            // The four of the issue answer 200 (the recording's 404 until there is one is GET's too).
            for path in ["/openapi.yaml", "/v1/health", "/v1/apps", "/"] {
                try await client.execute(uri: path, method: .head) { response in
                    #expect(response.status == .ok, "HEAD \(path)")
                    #expect(Int(response.headers[.contentLength] ?? "") ?? 0 > 0, "HEAD \(path): Content-Length")
                }
            }
        }
    }

    @Test("HEAD on the event streams checks what GET would without opening one; 405 answers list HEAD beside GET")
    func eventStreamsAndAllow() async throws {
        try await H.withGateway { client, _, apps in
            try await H.createApp(client)
            for path in ["/v1/apps/demo/events?types=vehicleData", "/v1/events"] {
                try await client.execute(uri: path, method: .head, headers: [.accept: "text/event-stream"]) { response in
                    #expect(response.status == .ok, "HEAD \(path)")
                    #expect(response.headers[.contentType] == "text/event-stream")
                    #expect(response.body.readableBytes == 0)
                }
                try await client.execute(uri: path, method: .head) { #expect($0.status == .notAcceptable) }
            }
            try await client.execute(uri: "/v1/apps/nope/events", method: .head, headers: [.accept: "text/event-stream"]) {
                #expect($0.status == .notFound)
            }
            #expect(apps.hub.clientCount == 0, "a HEAD opened a stream")
            try await client.execute(uri: "/v1/health", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }
    }
}
