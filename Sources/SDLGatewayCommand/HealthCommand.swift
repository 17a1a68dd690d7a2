import ArgumentParser
import Foundation
import NIOCore
import NIOHTTP1

/// `sdl-gateway health`: asks a running gateway whether it is up (`GET /v1/health`, or with
/// `--ready` `GET /v1/ready`) and exits 0 on a 2xx answer, 1 otherwise. It is the container
/// image's `HEALTHCHECK`, so the image needs no curl.
struct HealthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Ask a running sdl-gateway serve whether it is healthy (or ready); exit 0 if so, 1 if not.",
        discussion: """
            The address defaults to SDL_GATEWAY_LISTEN (0.0.0.0 and :: are asked on the loopback), else \
            127.0.0.1:8080. /v1/ready needs a token when the gateway has tokens: --token, else the first of \
            SDL_GATEWAY_TOKENS. /v1/health needs none.
            """
    )

    @Option(help: "The gateway's host:port.")
    var address: String?

    @Flag(help: "Ask /v1/ready (the head unit reachable, every app registered) instead of /v1/health.")
    var ready = false

    @Option(help: "A token for --ready.")
    var token: String?

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 3

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var target = try HostPort(
            address ?? environment["SDL_GATEWAY_LISTEN"] ?? "127.0.0.1:8080", option: "--address", example: "127.0.0.1:8080")
        if ["0.0.0.0", "::", "[::]"].contains(target.host) { target.host = target.host == "0.0.0.0" ? "127.0.0.1" : "::1" }
        let credential =
            token
            ?? environment["SDL_GATEWAY_TOKENS"]?.split(separator: ",").first.map { argument in
                (try? ServeSettings.token(String(argument)).0) ?? String(argument)
            }
        let path = ready ? "/v1/ready" : "/v1/health"
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout takes 0 to 60 seconds") }
        do {
            let (status, body) = try await Self.get(
                target, path: path, token: ready ? credential : nil, timeout: .milliseconds(Int64(timeout * 1000)))
            print("\(path): \(status) \(body)")
            guard (200..<300).contains(status) else { throw ExitCode(1) }
        } catch let error as ExitCode {
            throw error
        } catch {
            print("\(path): no answer from \(target.host):\(target.port): \(error)")
            throw ExitCode(1)
        }
    }

    /// One `GET` over a fresh connection (``GatewayClient``); the status and at most 4 KiB of the body.
    static func get(_ target: HostPort, path: String, token: String?, timeout: TimeAmount) async throws -> (Int, String) {
        let client = GatewayClient(endpoint: GatewayEndpoint(host: target.host, port: target.port), token: token, timeout: timeout)
        let answer = try await client.send(.GET, path)
        return (answer.status, String(decoding: answer.body.prefix(4096), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
