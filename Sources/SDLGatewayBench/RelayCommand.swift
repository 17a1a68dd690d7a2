import ArgumentParser
import Foundation
import SDLClient
import SDLTransport

/// `sdl-gateway-bench relay`: ``PlainHTTPRelay`` as a process of its own, which the latency
/// scenarios start beside the gateway (`relay`: what any process between an HTTP client and the
/// head unit costs on this machine, the yardstick for `rest`).
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "The smallest HTTP-to-SDL gateway (one thread, blocking sockets), as the latency scenarios' yardstick.",
        discussion: """
            It registers one app ("Bench relay") with a TCP head unit over one blocking socket, waits \
            until the app is out of HMI NONE, listens on 127.0.0.1, prints "relay on 127.0.0.1:PORT", \
            and relays POST /rpc/{function} (a JSON object of parameters) as that request, answering \
            the response's parameters. It ends when no connection came for ten minutes.
            """
    )

    @Option(help: "The head unit, tcp://host:port.")
    var headUnit: String

    @Option(help: "The port to listen on, on 127.0.0.1 (0: any).")
    var port: Int = 0

    func run() throws {
        let address = try SDLTransportAddress(headUnit)
        guard address.scheme == .tcp else { throw ValidationError("--head-unit: the relay speaks tcp only") }
        let client = try PlainSDLClient(host: address.host, port: address.port)
        defer { client.close() }
        try client.register(SDLAppConfiguration(appName: "Bench relay", appID: "bench-relay"))
        let relay = try PlainHTTPRelay(client: client, port: port)
        // Unbuffered: the bench waits for this line.
        FileHandle.standardOutput.write(Data("relay on 127.0.0.1:\(relay.port)\n".utf8))
        relay.serve()
    }
}
