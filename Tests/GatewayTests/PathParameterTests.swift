import Foundation
import Gateway
import HTTPTypes
import HeadUnitSimulator
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// Issue "What a new user tripped over", defect 1: every path parameter is percent-decoded once,
/// and file names SDL cannot hold are refused with a 422 naming the rule.
@Suite("Path parameters are percent-decoded", .timeLimit(.minutes(1)))
struct PathParameterTests {
    typealias H = GatewayHarness

    @Test(
        "A file name with a space or an accent is stored as written; SetAppIcon finds it by that name; ListFiles shows it decoded; Location is percent-encoded"
    )
    func fileNamesAreDecoded() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client)
            for encoded in ["my%20icon.png", "caf%C3%A9.png"] {
                try await client.execute(
                    uri: "/v1/apps/demo/files/\(encoded)", method: .put, headers: [.contentType: "image/png"],
                    body: ByteBuffer(string: "png")
                ) { response in
                    #expect(response.status == .created, "\(encoded): \(String(buffer: response.body))")
                    // A header is ASCII: raw UTF-8 there reads as Latin-1 to a client (schemathesis followed it to a name with control
                    // characters).
                    #expect(response.headers[.location] == "/v1/apps/demo/files/\(encoded)")
                }
            }
            try await client.execute(
                uri: "/v1/images/caf%C3%A9%20%231.png", method: .put, headers: [.contentType: "image/png"], body: ByteBuffer(string: "png")
            ) { response in
                #expect(response.headers[.location] == "/v1/images/caf%C3%A9%20%231.png")
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.files["my icon.png"] != nil)
            #expect(simulator.snapshot.app(withID: "demo-app")?.files["café.png"] != nil)
            try await client.execute(uri: "/v1/apps/demo/files", method: .get) { response in
                let names = Set(response.json?["files"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                #expect(names == ["my icon.png", "café.png"])
            }
            try await client.execute(
                uri: "/v1/apps/demo/rpc/SetAppIcon", method: .post, headers: H.jsonHeaders, body: H.json(["syncFileName": "my icon.png"])
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/v1/apps/demo/files/my%20icon.png", method: .delete) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("Names SDL cannot hold are refused with 422 naming the rule; a malformed escape is a 400")
    func badNames() async throws {
        try await H.withGateway { client, simulator, _ in
            try await H.createApp(client)
            for encoded in ["a%2Fb.png", "a%5Cb.png", "..", "%2E%2E", "tab%09name"] {
                try await client.execute(
                    uri: "/v1/apps/demo/files/\(encoded)", method: .put, headers: [.contentType: "image/png"],
                    body: ByteBuffer(string: "png")
                ) { response in
                    #expect(response.status == .unprocessableContent, "\(encoded): \(response.status)")
                    #expect(response.problemType == "invalid-parameters")
                    #expect(response.json?["issues"]?.arrayValue?.isEmpty == false)
                }
            }
            #expect(simulator.snapshot.app(withID: "demo-app")?.files.isEmpty == true, "nothing reached the head unit")
            try await client.execute(
                uri: "/v1/apps/demo/files/bad%zzname", method: .put, headers: [.contentType: "image/png"], body: ByteBuffer(string: "x")
            ) { response in
                #expect(response.status == .badRequest)
                #expect(response.problemType == "invalid-path")
            }
        }
    }

    @Test("App ids, function names and buttons are decoded too")
    func otherParameters() async throws {
        try await H.withGateway { client, _, _ in
            try await H.createApp(client)
            try await client.execute(
                uri: "/v1/apps/d%65mo/rpc/Sh%6Fw", method: .post, headers: H.jsonHeaders, body: H.json(["mainField1": "decoded"])
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            try await client.execute(uri: "/v1/apps/demo/subscriptions/buttons/O%4B", method: .put) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
        }
    }
}

/// Issue "What a new user tripped over", defect 3: the default rate limit fits one script at full
/// speed, and every 429 says which limit and how to raise it.
@Suite("The default rate limit fits a script", .timeLimit(.minutes(1)))
struct DefaultRateLimitTests {
    @Test("800 sequential requests with the default limits: none refused (the README's measurement got 429 from request 550 on)")
    func scriptAtFullSpeed() async throws {
        try await GatewayHarness.withGateway { client, _, _ in
            var refused = 0
            for _ in 0..<800 {
                try await client.execute(uri: "/v1/apps", method: .get) { response in
                    if response.status == .tooManyRequests { refused += 1 }
                }
            }
            #expect(refused == 0)
        }
    }

    @Test("A 429 names the limit and how to raise it")
    func explains() async throws {
        try await GatewayHarness.withGateway(GatewayConfiguration(limits: GatewayLimits(requestsPerSecond: 1))) { client, _, _ in
            var detail: String?
            for _ in 0..<200 where detail == nil {
                try await client.execute(uri: "/v1/apps", method: .get) { response in
                    if response.status == .tooManyRequests { detail = response.json?["detail"]?.stringValue }
                }
            }
            #expect(detail?.contains("--rate-limit") == true, "\(detail ?? "no 429")")
            #expect(detail?.contains("limits.requestsPerSecond") == true)
        }
    }
}
