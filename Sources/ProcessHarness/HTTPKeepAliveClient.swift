import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1.1 keep-alive connection that sends requests one after another, as a browser's or a
/// script's client does: what the `rest` and `health` scenarios time. No pooling, no redirects,
/// no TLS: the benchmark's own traffic on 127.0.0.1.
public struct HTTPKeepAliveClient: Sendable {
    public struct Response: Sendable {
        public var status: Int
        public var headers: HTTPHeaders
        public var body: ByteBuffer
    }

    /// The largest response body read (the RPC answers are a few hundred bytes).
    public static let maximumBodySize = 1 << 20

    /// Sends a request (method, path, body) and reads its response. A body is JSON unless the
    /// path is a file's (`/files/`).
    public typealias Send = (HTTPMethod, String, ByteBuffer?) async throws -> Response

    public let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
    public let host: String

    public static func connect(host: String, port: Int) async throws -> HTTPKeepAliveClient {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return HTTPKeepAliveClient(channel: channel, host: "\(host):\(port)")
    }

    /// Runs `body` with a request function on the open connection, then closes it.
    public func run<Result: Sendable>(_ body: (_ send: Send) async throws -> Result) async throws -> Result {
        try await channel.executeThenClose { inbound, outbound in
            var responses = inbound.makeAsyncIterator()
            return try await body { method, path, bytes in
                var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
                head.headers.add(name: "Host", value: host)
                if let bytes {
                    head.headers.add(
                        name: "Content-Type", value: path.contains("/files/") ? "application/octet-stream" : "application/json")
                    head.headers.add(name: "Content-Length", value: String(bytes.readableBytes))
                }
                // One write (one flush): head, body and end leave in one segment, as curl and
                // browsers send a small request.
                var parts: [HTTPClientRequestPart] = [.head(head)]
                if let bytes { parts.append(.body(.byteBuffer(bytes))) }
                parts.append(.end(nil))
                try await outbound.write(contentsOf: parts)
                var response = Response(status: 0, headers: [:], body: ByteBuffer())
                while let part = try await responses.next() {
                    switch part {
                    case .head(let responseHead):
                        response.status = Int(responseHead.status.code)
                        response.headers = responseHead.headers
                    case .body(var chunk):
                        guard response.body.readableBytes + chunk.readableBytes <= Self.maximumBodySize else {
                            throw BenchFailure(description: "a response body over 1 MiB")
                        }
                        response.body.writeBuffer(&chunk)
                    case .end:
                        return response
                    }
                }
                throw BenchFailure(description: "the gateway closed the connection")
            }
        }
    }
}
