import Gateway
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SDLProtocol
import Testing

/// Issue 30, item 15: errors that say what would have worked — a "did you mean" for a misspelt
/// parameter, function or member, the allowed values of an enum, where a JSON body went wrong,
/// titles that fit the route.
@Suite("Errors that help", .timeLimit(.minutes(1)))
struct HelpfulErrorTests {
    typealias H = GatewayHarness

    static func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, _ body: String
    ) async throws -> (HTTPResponse.Status, SDLJSON?) {
        try await client.execute(uri: path, method: method, headers: H.jsonHeaders, body: ByteBuffer(string: body)) { ($0.status, $0.json) }
    }

    @Test("rpc/show, mainFeild1, a bad enum value, a broken JSON body, an unknown member of POST /v1/apps, a declared screen's title")
    func helpfulErrors() async throws {
        try await H.withGateway { client, _, _ in
            try await H.createApp(client)
            let (function, functionProblem) = try await Self.send(client, .post, "/v1/apps/demo/rpc/show", "{}")
            #expect(function == .notFound)
            #expect(
                functionProblem?["detail"]?.stringValue?.hasSuffix("(did you mean Show?)") == true, "\(String(describing: functionProblem))"
            )

            let (parameter, parameterProblem) = try await Self.send(client, .post, "/v1/apps/demo/rpc/Show", #"{"mainFeild1":"x"}"#)
            #expect(parameter == .unprocessableContent)
            #expect(parameterProblem?["title"] == "The parameters are not valid")
            #expect(
                parameterProblem?["issues"]?.arrayValue?.first?.stringValue?.contains("no such parameter (did you mean mainField1?)")
                    == true, "\(String(describing: parameterProblem))")

            let (enumeration, enumProblem) = try await Self.send(client, .post, "/v1/apps/demo/rpc/Show", #"{"alignment":"MIDDLE"}"#)
            #expect(enumeration == .unprocessableContent)
            #expect(
                enumProblem?["issues"]?.arrayValue?.first?.stringValue?.contains(
                    "one of enum TextAlignment: LEFT_ALIGNED, RIGHT_ALIGNED, CENTERED") == true, "\(String(describing: enumProblem))")

            let (json, jsonProblem) = try await Self.send(
                client, .post, "/v1/apps/demo/rpc/Show", "{\"mainField1\": \"a\",\n \"mainField2\" \"b\"}")
            #expect(json == .badRequest)
            #expect(
                jsonProblem?["detail"] == "the body is not valid JSON at line 2, column 15: expected ':' after the key, got '\"'",
                "\(String(describing: jsonProblem))")

            let (member, memberProblem) = try await Self.send(client, .post, "/v1/apps", #"{"id":"x","appNmae":"X","appID":"x-app"}"#)
            #expect(member == .badRequest)
            let detail = memberProblem?["detail"]?.stringValue ?? ""
            #expect(detail.hasPrefix("unknown member appNmae (did you mean appName?); the members are "), "\(detail)")
            #expect(detail.contains("isMediaApplication") && detail.contains("appHMIType"), "\(detail)")

            let (screen, screenProblem) = try await Self.send(client, .put, "/v1/apps/demo/screen", #"{"textFeilds":["a"]}"#)
            #expect(screen == .unprocessableContent)
            #expect(screenProblem?["title"] == "The parameters are not valid")
            #expect(
                screenProblem?["detail"]?.stringValue?.contains("(did you mean textFields?)") == true,
                "\(String(describing: screenProblem))")
        }
    }
}
