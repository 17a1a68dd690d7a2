import Foundation
import NIOCore
import SDLProtocol
import TestSupport
import Testing

/// What a server did with one request sent as raw bytes on a new connection: a response read
/// whole (its head, then `Content-Length` bytes), or what came before the server closed.
struct RawAnswer: Sendable {
    /// The bytes read, as text.
    var text: String
    /// The server closed (or reset) the connection before a whole response arrived.
    var closedEarly: Bool

    /// The status of the response, nil for none.
    var status: Int? {
        guard text.hasPrefix("HTTP/1.1 "), text.count >= 12 else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    /// The code of an `application/problem+json` body (`urn:sdl-gateway:problem:<code>`).
    var problemType: String? {
        guard let range = text.range(of: "\r\n\r\n"), let json = try? SDLJSON.parse(String(text[range.upperBound...])) else { return nil }
        return json["type"]?.stringValue.map { String($0.dropFirst("urn:sdl-gateway:problem:".count)) }
    }

    /// Short, for test messages.
    var summary: String {
        status.map { "\($0) \(problemType ?? "")" } ?? (closedEarly ? "closed without a response (\(text.utf8.count) bytes)" : text)
    }

    /// True once `bytes` hold a whole response: the head, and as many body bytes as its
    /// `Content-Length` says (none without one).
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        guard bytes.count >= 4, let headEnd = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == end }) else {
            return false
        }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self).lowercased()
        let length =
            head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).filter { $0 != " " }) }
            ?? 0
        return bytes.count >= headEnd + 4 + length
    }

    /// Opens a connection to `port`, writes `request` at once and reads until a whole response
    /// or the server closing; nil when it did neither within `limit` (the connection is closed
    /// then). Writing into a connection the server already closed counts as closed.
    static func exchange(port: Int, _ request: [UInt8], limit: Duration = .seconds(10)) async throws -> RawAnswer? {
        try await exchange(port: port, [request], limit: limit)?.first
    }

    /// Sends `requests` one after the other on one connection, each once the answer to the one
    /// before is whole: the answers, ending early with the one the server closed on; nil when
    /// the server neither answered nor closed within `limit`.
    static func exchange(port: Int, _ requests: [[UInt8]], limit: Duration = .seconds(10)) async throws -> [RawAnswer]? {
        try await RawConnection.connect(port: port).within(limit) { connection in
            var answers: [RawAnswer] = []
            var received: [UInt8] = []
            var complete = false
            try? await connection.channel.executeThenClose { inbound, outbound in
                var iterator = inbound.makeAsyncIterator()
                for request in requests {
                    received = []
                    complete = false
                    try? await outbound.write(ByteBuffer(bytes: request))
                    while let chunk = try await iterator.next() {
                        received.append(contentsOf: chunk.readableBytesView)
                        if isComplete(received) {
                            complete = true
                            break
                        }
                    }
                    guard complete else { return }
                    answers.append(RawAnswer(text: String(decoding: received, as: UTF8.self), closedEarly: false))
                }
            }
            if !complete { answers.append(RawAnswer(text: String(decoding: received, as: UTF8.self), closedEarly: true)) }
            return answers
        }
    }

    /// A request as bytes: the request line, `Host` and the given header lines, then `body`.
    static func request(_ method: String, _ target: [UInt8], headers: [String] = [], body: [UInt8] = []) -> [UInt8] {
        var lines = ["Host: 127.0.0.1"] + headers
        if !body.isEmpty { lines.append("Content-Length: \(body.count)") }
        return Array("\(method) ".utf8) + target + Array(" HTTP/1.1\r\n".utf8) + Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
            + body
    }

    static func request(_ method: String, _ target: String, headers: [String] = [], body: [UInt8] = []) -> [UInt8] {
        request(method, Array(target.utf8), headers: headers, body: body)
    }

    /// `GET /v1/health` on a new connection answers 200: the server still serves after `what`.
    static func expectServing(port: Int, after what: String) async throws {
        let answer = try await exchange(port: port, request("GET", "/v1/health"))
        #expect(answer?.status == 200, "GET /v1/health after \(what): \(answer?.summary ?? "no answer in 10 s")")
    }
}
