import Foundation
import HTTPAPISupport
import NIOCore
import NIOHTTP1
import NIOPosix
import SDLProtocol

/// The HTTP client of the command-line client (`call`, `events`, `apps`): one request per
/// connection to a running `sdl-gateway serve`, over NIO as `health` asks, so the executable needs
/// no HTTP client library. Every body it reads is bounded, and a gateway that accepts and never
/// answers ends in ``GatewayClientError/Code/timedOut``, not a hang.
struct GatewayClient: Sendable {
    let endpoint: GatewayEndpoint
    /// Sent as `Authorization: Bearer TOKEN` (README "Tokens and browsers").
    let token: String?
    /// How long an answer (an event stream: its head) may take.
    let timeout: TimeAmount

    /// The largest answer read: the gateway's largest JSON (an app's capabilities) is kilobytes.
    static let maximumBody = 16 << 20
    /// The most of a refusal's body kept.
    static let maximumRefusal = 64 << 10

    /// One request and its whole answer.
    func send(_ method: HTTPMethod, _ path: String, query: [(String, String)] = [], json: SDLJSON? = nil) async throws -> GatewayAnswer {
        let answer = AnswerCollector(limit: Self.maximumBody)
        try await exchange(method, path, query: query, accept: "application/json", body: json?.serializedBytes(), deadlineCoversBody: true)
        {
            try answer.take($0)
            return true
        }
        return answer.answer
    }

    /// Reads the event stream at `path` (Server-Sent Events), giving each event to `each` until it
    /// answers false or the gateway ends the stream. A refused stream (any status but 200) is
    /// returned as the refusal's answer; nil otherwise.
    func events(
        _ path: String, query: [(String, String)], each: (ServerSentEvent) async throws -> Bool
    ) async throws -> GatewayAnswer? {
        var reader = ServerSentEventReader()
        var refusal: AnswerCollector?
        try await exchange(.GET, path, query: query, accept: "text/event-stream", body: nil, deadlineCoversBody: false) { part in
            if let refusal {
                try refusal.take(part)
                return true
            }
            switch part {
            case .head(let head) where head.status != .ok:
                let collector = AnswerCollector(limit: Self.maximumRefusal)
                try collector.take(part)
                refusal = collector
            case .head, .end:
                break
            case .body(let bytes):
                let events: [ServerSentEvent]
                do throws(ServerSentEventError) {
                    events = try reader.read(bytes.readableBytesView)
                } catch {
                    throw GatewayClientError(.tooLarge, "\(error.description) (at most \(error.limit) are read)")
                }
                for event in events {
                    guard try await each(event) else { return false }
                }
            }
            return true
        }
        return refusal?.answer
    }

    /// `path` (percent-encoded segments) with its query, below the endpoint's prefix.
    func uri(_ path: String, query: [(String, String)]) -> String {
        let pairs = query.map {
            PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1, keeping: PercentEncoding.unreserved.union(",".utf8))
        }
        return endpoint.prefix + path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    /// One exchange over a fresh connection: `receive` gets each part of the answer and returns
    /// false to stop reading. The deadline closes the connection, which ends the read.
    private func exchange(
        _ method: HTTPMethod, _ path: String, query: [(String, String)], accept: String, body: [UInt8]?, deadlineCoversBody: Bool,
        receive: (HTTPClientResponsePart) async throws -> Bool
    ) async throws {
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(timeout)
                .connect(host: endpoint.host, port: endpoint.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw GatewayClientError(.unreachable, "cannot connect to \(endpoint): \(error)")
        }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: uri(path, query: query))
        head.headers.add(name: "Host", value: endpoint.hostHeader)
        head.headers.add(name: "Accept", value: accept)
        head.headers.add(name: "Connection", value: "close")
        head.headers.add(name: "User-Agent", value: "sdl-gateway")
        if let token { head.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            head.headers.add(name: "Content-Type", value: "application/json")
            head.headers.add(name: "Content-Length", value: "\(body.count)")
        }
        let request = head
        let deadline = channel.channel.eventLoop.scheduleTask(in: timeout) { channel.channel.close(promise: nil) }
        var failure: (any Error)?
        var ended = false
        do {
            ended = try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(.head(request))
                if let body { try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
                try await outbound.write(.end(nil))
                for try await part in inbound {
                    if case .head = part, !deadlineCoversBody { deadline.cancel() }
                    guard try await receive(part) else { return true }
                    if case .end = part { return true }
                }
                return false
            }
        } catch let error as GatewayClientError {
            deadline.cancel()
            throw error
        } catch {
            failure = error
        }
        deadline.cancel()
        guard !ended else { return }
        // Cancelling a task that already ran leaves its future succeeded.
        if (try? await deadline.futureResult.get()) != nil {
            throw GatewayClientError(.timedOut, "no answer from \(endpoint) within \(Self.seconds(timeout)) s")
        }
        throw GatewayClientError(.closed, "\(endpoint) closed the connection before the answer ended\(failure.map { " (\($0))" } ?? "")")
    }
}

extension GatewayClient {
    /// `0.5`, `60`: a timeout as the command line wrote it.
    static func seconds(_ amount: TimeAmount) -> String {
        amount.nanoseconds % 1_000_000_000 == 0 ? "\(amount.nanoseconds / 1_000_000_000)" : "\(Double(amount.nanoseconds) / 1e9)"
    }
}

/// An answer of the gateway: its status and body.
struct GatewayAnswer: Sendable {
    var status: Int
    var body: [UInt8]

    var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as JSON, if it is JSON.
    var json: SDLJSON? { body.isEmpty ? nil : try? SDLJSON.parse(body) }

    /// A refusal for people (standard error): the status, the problem's code, title and detail
    /// (RFC 9457, as the README's HTTP API section lists them), the head unit's result code, then each of its `issues`.
    var problemDescription: String {
        guard let problem = json?.objectValue, problem["title"] != nil || problem["type"] != nil else {
            let text = String(decoding: body.prefix(2048), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return "HTTP \(status)" + (text.isEmpty ? "" : ": \(text)")
        }
        let code = problem["type"]?.stringValue.map { $0.replacingOccurrences(of: "urn:sdl-gateway:problem:", with: "") }
        var lines = ["HTTP \(status)\(code.map { " \($0)" } ?? ""): \(problem["title"]?.stringValue ?? "")"]
        if let detail = problem["detail"]?.stringValue { lines.append("  \(detail)") }
        if let resultCode = problem["resultCode"]?.stringValue {
            let info = problem["sdlResponse"]?["info"]?.stringValue
            lines.append("  resultCode: \(resultCode)\(info.map { " (\($0))" } ?? "")")
        }
        for issue in problem["issues"]?.arrayValue ?? [] {
            lines.append("  - \(issue.stringValue ?? issue.serialized())")
        }
        return lines.joined(separator: "\n")
    }
}

/// A refused answer, a connection that failed, or an answer out of bounds: a stable code and
/// what happened.
struct GatewayClientError: Error, CustomStringConvertible {
    enum Code: String, Sendable {
        case invalidURL = "invalid-url"
        case unreachable
        case timedOut = "timed-out"
        case closed
        case tooLarge = "too-large"
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
}

/// Collects one answer's status and body up to a limit.
private final class AnswerCollector {
    private(set) var answer = GatewayAnswer(status: 0, body: [])
    let limit: Int

    init(limit: Int) { self.limit = limit }

    func take(_ part: HTTPClientResponsePart) throws {
        switch part {
        case .head(let head): answer.status = Int(head.status.code)
        case .body(let bytes):
            guard answer.body.count + bytes.readableBytes <= limit else {
                throw GatewayClientError(.tooLarge, "the answer is longer than \(limit) bytes")
            }
            answer.body += bytes.readableBytesView
        case .end: break
        }
    }
}
