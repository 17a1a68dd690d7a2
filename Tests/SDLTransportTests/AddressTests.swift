import SDLTransport
import Testing

/// ``SDLTransportAddress``: the tcp, ws and wss URLs of docs/protocol.md §e "Ports and transports".
@Suite("Transport addresses")
struct AddressTests {
    /// Text in, the address's URL out (golden cases).
    static let good: [(String, String)] = [
        ("tcp://127.0.0.1:12345", "tcp://127.0.0.1:12345"),
        ("127.0.0.1:12345", "tcp://127.0.0.1:12345"),
        ("core.local", "tcp://core.local:12345"),
        ("tcp://core.local", "tcp://core.local:12345"),
        ("tcp://core.local/", "tcp://core.local:12345"),
        ("TCP://Core.Local:4000", "tcp://Core.Local:4000"),
        ("ws://127.0.0.1:2020", "ws://127.0.0.1:2020/"),
        ("ws://127.0.0.1", "ws://127.0.0.1:2020/"),
        ("ws://core.local:8080/sdl", "ws://core.local:8080/sdl"),
        ("ws://core.local?sdl-host=a&sdl-port=2020", "ws://core.local:2020/?sdl-host=a&sdl-port=2020"),
        ("wss://core.example.com/apps/1", "wss://core.example.com:2020/apps/1"),
        ("WSS://core.example.com:443", "wss://core.example.com:443/"),
        ("ws://[::1]:2020/x", "ws://[::1]:2020/x"),
        ("[::1]", "tcp://[::1]:12345"),
    ]

    @Test("Good addresses parse and print back as full URLs", arguments: good)
    func parses(text: String, url: String) throws {
        let address = try SDLTransportAddress(text)
        #expect(address.description == url)
        #expect(try SDLTransportAddress(address.description) == address)
    }

    @Test("Parts and default ports: 12345 for tcp, 2020 for ws and wss")
    func parts() throws {
        let ws = try SDLTransportAddress("ws://Core.Local/apps?x=1")
        #expect(ws.scheme == .ws)
        #expect(ws.host == "Core.Local")
        #expect(ws.port == 2020)
        #expect(ws.path == "/apps?x=1")
        #expect(ws.hostAndPort == "Core.Local:2020")
        let tcp = try SDLTransportAddress("10.0.0.2")
        #expect(tcp == .tcp(host: "10.0.0.2"))
        #expect(tcp.path == "/")
        let v6 = try SDLTransportAddress("wss://[::1]")
        #expect(v6.host == "::1")
        #expect(v6.hostAndPort == "[::1]:2020")
        #expect(SDLTransportAddress.Scheme.allCases.map(\.defaultPort) == [12345, 2020, 2020])
    }

    /// Text in, the error's code out (golden cases).
    static let bad: [(String, SDLTransportError.Code)] = [
        ("", .invalidAddress),
        ("http://core.local:2020", .unsupportedScheme),
        ("://core.local", .unsupportedScheme),
        ("udp://core.local:2020", .unsupportedScheme),
        ("ws://", .invalidAddress),
        ("ws://:2020", .invalidAddress),
        ("tcp://core.local:0", .invalidAddress),
        ("tcp://core.local:65536", .invalidAddress),
        ("tcp://core.local:-1", .invalidAddress),
        ("tcp://core.local:port", .invalidAddress),
        ("tcp://core.local:", .invalidAddress),
        ("tcp://core.local:12345/path", .invalidAddress),
        ("ws://user@core.local", .invalidAddress),
        ("ws://core local", .invalidAddress),
        ("ws://core.local/a b", .invalidAddress),
        ("ws://core.local/#frag", .invalidAddress),
        ("::1", .invalidAddress),
        ("ws://[::1", .invalidAddress),
        ("ws://[::1]2020", .invalidAddress),
        ("ws://[]:2020", .invalidAddress),
    ]

    @Test("Bad addresses are refused with a stable code and the text in the detail", arguments: bad)
    func refuses(text: String, code: SDLTransportError.Code) {
        do {
            let address = try SDLTransportAddress(text)
            Issue.record("\(text) parsed as \(address)")
        } catch {
            #expect(error.code == code)
            #expect(error.detail.hasPrefix(text))
        }
    }
}
