import ArgumentParser
import Foundation
import HTTPAPISupport
import NIOCore
import NIOHTTP1
import SDLProtocol

/// Where the command-line client finds the gateway and how it proves who it is: `--gateway` and
/// `--token`, else `SDL_GATEWAY_URL` and `SDL_GATEWAY_TOKEN`, else `http://127.0.0.1:8080` and no
/// token.
struct GatewayOptions: ParsableArguments {
    @Option(help: "The gateway's URL (default: SDL_GATEWAY_URL, else http://127.0.0.1:8080).")
    var gateway: String?

    @Option(help: "A bearer token (default: SDL_GATEWAY_TOKEN).")
    var token: String?

    @Option(help: "Seconds to wait for the gateway's answer (of an event stream: its start).")
    var timeout: Double = 60

    static let defaultURL = "http://127.0.0.1:8080"

    /// The client these options (and `environment`) describe.
    func client(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> GatewayClient {
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout takes 0 to 3600 seconds") }
        let url = gateway ?? environment["SDL_GATEWAY_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultURL
        let endpoint: GatewayEndpoint
        do throws(GatewayClientError) {
            endpoint = try GatewayEndpoint(url)
        } catch {
            throw ValidationError(error.message)
        }
        let credential = token ?? environment["SDL_GATEWAY_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return GatewayClient(endpoint: endpoint, token: credential, timeout: .nanoseconds(Int64(timeout * 1e9)))
    }
}

/// A gateway's base URL, `http://HOST[:PORT][/PREFIX]` (a prefix when a proxy serves the gateway
/// below a path). `serve` speaks plain HTTP; TLS belongs to a proxy in front of it.
struct GatewayEndpoint: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int
    /// Empty, or a path without a trailing `/`.
    var prefix: String

    init(host: String, port: Int, prefix: String = "") {
        self.host = host
        self.port = port
        self.prefix = prefix
    }

    init(_ text: String) throws(GatewayClientError) {
        guard text.contains("://"), let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else {
            throw GatewayClientError(.invalidURL, "'\(text)' is not a URL like \(GatewayOptions.defaultURL)")
        }
        guard scheme == "http" else {
            throw GatewayClientError(
                .invalidURL, "'\(text)': only http:// URLs are supported (sdl-gateway serve speaks plain HTTP), not \(scheme)://")
        }
        guard var host = url.host, !host.isEmpty else { throw GatewayClientError(.invalidURL, "'\(text)' names no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard url.query == nil, url.fragment == nil, url.user == nil else {
            throw GatewayClientError(.invalidURL, "'\(text)': a gateway URL has no query, fragment or user")
        }
        self.host = host
        self.port = url.port ?? 80
        var path = url.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        self.prefix = path
    }

    /// The `Host` header: an IPv6 address in brackets.
    var hostHeader: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    var description: String { "http://\(hostHeader)\(prefix)" }
}

/// What the client prints on standard output: JSON, pretty on a terminal (tab-indented, keys
/// sorted) and compact, one line, otherwise (for `jq` and scripts).
enum JSONOutput {
    static var isTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    static func write(_ json: SDLJSON, pretty: Bool = isTerminal) {
        var bytes = pretty ? json.prettySerializedBytes() : json.serializedBytes()
        if !pretty { bytes.append(0x0A) }
        writeLine(bytes)
    }

    /// Writes at once (standard output is not line-buffered into a pipe otherwise).
    static func writeLine(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// A refusal on standard error.
    static func refuse(_ text: String) {
        FileHandle.standardError.write(Data("Error: \(text)\n".utf8))
    }
}

extension GatewayClient {
    /// The answer of a request that must succeed: a failure to reach the gateway or a refusal is
    /// said on standard error, and the command exits 1.
    func succeed(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [], json: SDLJSON? = nil) async throws -> GatewayAnswer {
        let answer: GatewayAnswer
        do {
            answer = try await send(method, path, query: query, json: json)
        } catch let error as GatewayClientError {
            JSONOutput.refuse(error.message)
            throw ExitCode(1)
        }
        guard answer.isSuccess else {
            JSONOutput.refuse(answer.problemDescription)
            throw ExitCode(1)
        }
        return answer
    }

    /// A path segment: an app id or a function name, percent-encoded.
    static func segment(_ text: String) -> String { PercentEncoding.encode(text) }
}
