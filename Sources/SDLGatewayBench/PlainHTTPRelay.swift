#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NIOCore
import ProcessHarness
import SDLProtocol

/// The smallest HTTP-to-SDL gateway, as a yardstick for what a process between the client and
/// the head unit costs on this machine at all: one thread, blocking sockets, one HTTP/1.1
/// keep-alive connection at a time, and a ``PlainSDLClient`` to the head unit. `POST /rpc/NAME`
/// with a JSON object sends the request NAME with those parameters and answers 200 with the
/// response's parameters; nothing else (no tokens, no validation, no events, no logs).
///
/// Bounded like the gateway: a request head of at most ``maximumHeadBytes``, a body of at most
/// ``maximumBodyBytes``, a connection idle for ``idleTimeout`` is closed, and ``serve(connections:)``
/// returns when no connection came for ``idleTimeout`` (so a relay its bench left behind ends).
/// Not Sendable: one thread owns it.
final class PlainHTTPRelay {
    static let maximumHeadBytes = 8_192
    static let maximumBodyBytes = 65_536
    let client: PlainSDLClient
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    let idleTimeout: Duration
    private let listener: Int32

    /// A relay for `client`, listening on 127.0.0.1:`port` (0: any).
    init(client: PlainSDLClient, port: Int = 0, idleTimeout: Duration = .seconds(600)) throws {
        guard (0...65_535).contains(port) else { throw BenchFailure(description: "relay: port \(port) is not 0…65535") }
        self.client = client
        self.idleTimeout = idleTimeout
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw BenchFailure(description: "relay: socket failed (errno \(errno))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 4) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else {
            let error = errno
            close(listener)
            throw BenchFailure(description: "relay: cannot listen on 127.0.0.1:\(port) (errno \(error))")
        }
        self.listener = listener
        self.port = Int(UInt16(bigEndian: address.sin_port))
        setSocketTimeouts(listener, idleTimeout)
    }

    deinit { close(listener) }

    /// Serves connections one after another until `connections` were served (`nil`: no limit) or
    /// none came for ``idleTimeout``.
    func serve(connections: Int? = nil) {
        var served = 0
        while connections.map({ served < $0 }) ?? true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            var one: Int32 = 1
            _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            setSocketTimeouts(connection, idleTimeout)
            serve(connection)
            close(connection)
            served += 1
        }
    }

    /// One keep-alive connection: request, answer, until the peer closes, goes idle, or sends
    /// what cannot be read (answered with 4xx, then closed).
    private func serve(_ connection: Int32) {
        var inbound = ByteBuffer()
        while true {
            switch Self.nextRequest(in: &inbound) {
            case .incomplete:
                var received = 0
                inbound.writeWithUnsafeMutableBytes(minimumWritableBytes: 16_384) { bytes in
                    received = recv(connection, bytes.baseAddress, bytes.count, 0)
                    return max(received, 0)
                }
                if received < 0, errno == EINTR { continue }
                if received <= 0 { return }
            case .refused(let status, let reason):
                Self.respond(connection, status: status, body: Self.error(reason))
                return
            case .request(let method, let path, let body):
                let (status, answer) = answer(method: method, path: path, body: body)
                guard Self.respond(connection, status: status, body: answer) else { return }
            }
        }
    }

    /// `POST /rpc/NAME` with a JSON object: the head unit's response parameters, or why not.
    private func answer(method: String, path: String, body: ByteBuffer) -> (Int, [UInt8]) {
        guard method == "POST", path.hasPrefix("/rpc/"), path.count > 5 else {
            return (404, Self.error("only POST /rpc/{function} is relayed"))
        }
        guard let parameters = try? SDLJSON.parse(body), case .object = parameters else {
            return (400, Self.error("the body is not a JSON object"))
        }
        do {
            let response = try client.call(String(path.dropFirst(5)), parameters)
            return (200, response.parameters.serializedBytes())
        } catch {
            return (error.code == .unknownFunction ? 404 : 502, Self.error(error.description))
        }
    }

    enum Parsed: Equatable {
        case incomplete
        case request(method: String, path: String, body: ByteBuffer)
        case refused(status: Int, reason: String)
    }

    /// Takes the next whole request out of `buffer`, if there is one: a request line, headers up
    /// to an empty line, and `Content-Length` bytes of body (no chunked bodies).
    static func nextRequest(in buffer: inout ByteBuffer) -> Parsed {
        let view = buffer.readableBytesView
        guard let headEnd = view.firstRange(of: [13, 10, 13, 10]) else {
            return view.count > maximumHeadBytes ? .refused(status: 431, reason: "the request head is too large") : .incomplete
        }
        let headLength = headEnd.upperBound - view.startIndex
        guard headLength <= maximumHeadBytes else { return .refused(status: 431, reason: "the request head is too large") }
        let head = String(decoding: view[view.startIndex..<headEnd.lowerBound], as: UTF8.self)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            return .refused(status: 400, reason: "not an HTTP/1.x request line")
        }
        var length = 0
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return .refused(status: 400, reason: "a header line without a colon") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "transfer-encoding" { return .refused(status: 411, reason: "only Content-Length bodies are read") }
            if name == "content-length" {
                guard let parsed = Int(value), parsed >= 0 else { return .refused(status: 400, reason: "a bad Content-Length") }
                length = parsed
            }
        }
        guard length <= maximumBodyBytes else { return .refused(status: 413, reason: "the body is larger than \(maximumBodyBytes) bytes") }
        guard buffer.readableBytes >= headLength + length else { return .incomplete }
        buffer.moveReaderIndex(forwardBy: headLength)
        let body = buffer.readSlice(length: length) ?? ByteBuffer()
        buffer.discardReadBytes()
        return .request(method: String(requestLine[0]), path: String(requestLine[1]), body: body)
    }

    /// Writes one response (blocking); false when the connection is gone.
    @discardableResult
    private static func respond(_ connection: Int32, status: Int, body: [UInt8]) -> Bool {
        let reason =
            [
                200: "OK", 400: "Bad Request", 404: "Not Found", 411: "Length Required", 413: "Content Too Large",
                431: "Request Header Fields Too Large", 502: "Bad Gateway",
            ][status] ?? "Error"
        var response = ByteBuffer(
            string: "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
        response.writeBytes(body)
        while response.readableBytes > 0 {
            let sent = response.withUnsafeReadableBytes { bytes in send(connection, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            response.moveReaderIndex(forwardBy: sent)
        }
        return true
    }

    private static func error(_ message: String) -> [UInt8] {
        let body: SDLJSON = ["error": .string(message)]
        return body.serializedBytes()
    }
}
