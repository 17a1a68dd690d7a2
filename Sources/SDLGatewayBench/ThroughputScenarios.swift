import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLClient
import SDLProtocol

/// The throughput scenarios: `requests` requests with `inFlight` at once, as fast as they are
/// answered, in requests per second. `raw` keeps `inFlight` requests pending on one SDL session;
/// `rest` and `health` use `inFlight` keep-alive connections (HTTP/1.1 has one request in flight
/// per connection), all to one gateway app. Only run where no head-unit limit caps them: the
/// simulator started with `--request-limit 0` and the gateway with `--core-request-limit 0`.
struct ThroughputScenarios {
    let requests: Int
    let inFlight: Int
    let host: String
    let port: Int

    /// Requests per second of `requests` Shows on `session`, `inFlight` at a time.
    func raw(_ session: SDLAppSession) async throws -> Double {
        let each = requests / inFlight
        let clock = ContinuousClock()
        let started = clock.now
        try await withThrowingDiscardingTaskGroup { group in
            for worker in 0..<inFlight {
                group.addTask {
                    for index in 0..<each {
                        let response = try await session.request("Show", LatencyScenarios.show(worker * each + index))
                        let resultCode = response.parameters["resultCode"]?.stringValue
                        guard resultCode == "SUCCESS" else { throw BenchFailure(description: "raw Show answered \(resultCode ?? "?")") }
                    }
                }
            }
        }
        return Self.rate(each * inFlight, since: started, clock)
    }

    /// Requests per second of `requests` Shows through `POST /v1/apps/{app}/rpc/Show`.
    func rest(app: String) async throws -> Double {
        try await http { index in (.POST, "/v1/apps/\(app)/rpc/Show", ByteBuffer(bytes: LatencyScenarios.show(index).serializedBytes())) }
    }

    /// Requests per second of `requests` `GET /v1/health`.
    func health() async throws -> Double {
        try await http { _ in (.GET, "/v1/health", nil) }
    }

    /// Opens `inFlight` connections (not timed), then times `requests` requests spread over them.
    private func http(_ request: @escaping @Sendable (Int) -> (HTTPMethod, String, ByteBuffer?)) async throws -> Double {
        var connections: [HTTPKeepAliveClient] = []
        for _ in 0..<inFlight { connections.append(try await HTTPKeepAliveClient.connect(host: host, port: port)) }
        let each = requests / inFlight
        let clock = ContinuousClock()
        let started = clock.now
        try await withThrowingDiscardingTaskGroup { group in
            for (worker, connection) in connections.enumerated() {
                group.addTask {
                    try await connection.run { send in
                        for index in 0..<each {
                            let (method, path, body) = request(worker * each + index)
                            let response = try await send(method, path, body)
                            guard response.status == 200 else {
                                throw BenchFailure(
                                    description: "\(method) \(path) answered \(response.status): \(String(buffer: response.body))")
                            }
                        }
                    }
                }
            }
        }
        return Self.rate(each * inFlight, since: started, clock)
    }

    private static func rate(_ count: Int, since started: ContinuousClock.Instant, _ clock: ContinuousClock) -> Double {
        let seconds = (clock.now - started).seconds
        return seconds > 0 ? Double(count) / seconds : 0
    }
}

/// A file uploaded through the gateway (`PUT /v1/apps/{id}/files/{name}`) and straight through
/// the SDL client (PutFile in 1 MiB chunks), in MB/s.
struct PutFileScenario {
    let size: Int
    let data: ByteBuffer

    init(size: Int) {
        self.size = size
        // A 64 KiB pseudo-random block repeated: made quickly, even in a debug build.
        var state: UInt32 = 0x9E37_79B9
        let block = (0..<65_536).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        var data = ByteBuffer()
        data.reserveCapacity(size)
        while data.readableBytes < size { data.writeBytes(block.prefix(size - data.readableBytes)) }
        self.data = data
    }

    func raw(_ session: SDLAppSession, name: String) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        let response = try await session.upload(name: name, fileType: "BINARY", data: data)
        let seconds = (clock.now - started).seconds
        guard response.parameters["success"]?.boolValue == true else {
            throw BenchFailure(description: "raw PutFile answered \(response.parameters.serialized())")
        }
        _ = try? await session.deleteFile(name)
        return Double(size) / 1e6 / seconds
    }

    func rest(_ send: HTTPKeepAliveClient.Send, app: String, name: String) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        let response = try await send(.PUT, "/v1/apps/\(app)/files/\(name)", data)
        let seconds = (clock.now - started).seconds
        guard response.status == 201 else {
            throw BenchFailure(description: "PUT file answered \(response.status): \(String(buffer: response.body))")
        }
        _ = try await send(.DELETE, "/v1/apps/\(app)/files/\(name)", nil)
        return Double(size) / 1e6 / seconds
    }

}
