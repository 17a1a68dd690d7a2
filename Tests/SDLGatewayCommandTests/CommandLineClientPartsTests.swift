import NIOCore
import SDLProtocol
import Testing

@testable import SDLGatewayCommand

/// The pure parts of the command-line client: the event-stream reader, the gateway URL, the
/// problem said on standard error.
@Suite("Command-line client parts")
struct CommandLineClientPartsTests {
    @Test("Events as the gateway writes them, split anywhere; comments and keep-alives skipped; CRLF and CR end lines")
    func serverSentEvents() throws {
        let text =
            ": sdl-gateway events\n\nid: 1\nevent: connection\ndata: {\"seq\":1}\n\n: keep-alive\n\r\nid: 2\r\nevent: hmiStatus\r\ndata: {\"seq\":2}\r\n\r\ndata:a\rdata:b\r\r"
        let bytes = Array(text.utf8)
        for split in [1, 2, 3, 7, bytes.count] {
            var reader = ServerSentEventReader()
            var events: [ServerSentEvent] = []
            var rest = bytes[...]
            while !rest.isEmpty {
                events += try reader.read(rest.prefix(split))
                rest = rest.dropFirst(split)
            }
            #expect(
                events == [
                    ServerSentEvent(id: "1", type: "connection", data: #"{"seq":1}"#),
                    ServerSentEvent(id: "2", type: "hmiStatus", data: #"{"seq":2}"#),
                    ServerSentEvent(id: nil, type: nil, data: "a\nb"),
                ], "split every \(split) bytes")
        }
    }

    @Test("A line or an event past the limit is refused, not buffered without end")
    func boundedEvents() throws {
        var reader = ServerSentEventReader(maximumEventBytes: 64)
        #expect(try reader.read(Array("data: \(String(repeating: "x", count: 40))\n\n".utf8)).count == 1)
        #expect(Self.refusal(&reader, Array(repeating: UInt8(ascii: "x"), count: 65)) == ServerSentEventError(limit: 64))
        var lines = ServerSentEventReader(maximumEventBytes: 64)
        #expect(Self.refusal(&lines, Array(String(repeating: "data: 0123456789\n", count: 5).utf8)) == ServerSentEventError(limit: 64))
    }

    static func refusal(_ reader: inout ServerSentEventReader, _ bytes: [UInt8]) -> ServerSentEventError? {
        do throws(ServerSentEventError) {
            _ = try reader.read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("Gateway URLs: host, port, prefix; http only; no query")
    func endpoints() throws {
        let local = try GatewayEndpoint("http://127.0.0.1:8080")
        #expect(local.host == "127.0.0.1" && local.port == 8080 && local.prefix == "" && "\(local)" == "http://127.0.0.1:8080")
        let proxied = try GatewayEndpoint("http://gw.example/sdl/")
        #expect(proxied.host == "gw.example" && proxied.port == 80 && proxied.prefix == "/sdl")
        let ipv6 = try GatewayEndpoint("http://[::1]:9000")
        #expect(ipv6.host == "::1" && ipv6.hostHeader == "[::1]:9000")
        for (text, message) in [
            ("https://gw.example", "only http:// URLs"), ("127.0.0.1:8080", "is not a URL like http://"), ("http://", "names no host"),
            ("http://h:1/?a=1", "no query"), ("not a url", "is not a URL"),
        ] {
            do throws(GatewayClientError) {
                _ = try GatewayEndpoint(text)
                Issue.record("\(text) was taken")
            } catch {
                #expect(error.code == .invalidURL)
                #expect(error.message.contains(message), "\(text): \(error.message)")
            }
        }
        let client = GatewayClient(endpoint: try GatewayEndpoint("http://h/p"), token: nil, timeout: .seconds(1))
        #expect(
            client.uri("/v1/apps/\(GatewayClient.segment("my app"))/events", query: [("types", "hmiStatus,vehicleData"), ("since", "3")])
                == "/p/v1/apps/my%20app/events?types=hmiStatus,vehicleData&since=3")
    }

    @Test("A problem on standard error: status, code, title, detail, resultCode, issues")
    func problems() {
        let problem: SDLJSON = [
            "type": "urn:sdl-gateway:problem:invalid-parameters", "title": "The parameters are not valid", "status": 422,
            "detail": "Show's parameters do not match the spec", "issues": ["mainFeild1: no such parameter (did you mean mainField1?)"],
        ]
        #expect(
            GatewayAnswer(status: 422, body: problem.serializedBytes()).problemDescription == """
                HTTP 422 invalid-parameters: The parameters are not valid
                  Show's parameters do not match the spec
                  - mainFeild1: no such parameter (did you mean mainField1?)
                """)
        let refused: SDLJSON = [
            "type": "urn:sdl-gateway:problem:head-unit-error", "title": "The head unit refused the request", "resultCode": "REJECTED",
            "sdlResponse": ["success": false, "resultCode": "REJECTED", "info": "busy"],
        ]
        #expect(
            GatewayAnswer(status: 409, body: refused.serializedBytes()).problemDescription
                == "HTTP 409 head-unit-error: The head unit refused the request\n  resultCode: REJECTED (busy)")
        #expect(GatewayAnswer(status: 502, body: Array("Bad Gateway\n".utf8)).problemDescription == "HTTP 502: Bad Gateway")
    }
}
