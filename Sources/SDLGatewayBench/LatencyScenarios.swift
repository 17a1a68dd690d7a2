import Foundation
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLClient
import SDLProtocol

/// The latency scenarios with one request in flight: `raw` (an SDL client straight to the head
/// unit), `plain` (``PlainSDLClient``: the same Show over one blocking socket, no tasks), `relay`
/// (``PlainHTTPRelay``: the same Show as HTTP through the smallest gateway process), `rest`
/// (the same Show through `POST /v1/apps/{id}/rpc/Show` on a keep-alive connection), `ws` (the
/// same over the app's event WebSocket) and `health` (`GET /v1/health` on the same kind of
/// connection: what the HTTP stack alone costs). Requests are paced so that no head-unit limit is
/// met (SDL Core: 1,000 requests per 10 s per app): a limited request would time the limit, not
/// the path.
struct LatencyScenarios {
    /// The Show of every scenario: two text fields.
    static func show(_ index: Int) -> SDLJSON { ["mainField1": "sdl-gateway-bench", "mainField2": .string("request \(index)")] }

    let samples: Int
    /// Pause between requests of the paced scenarios.
    let interval: Duration

    /// `samples` Shows through the SDL client, one at a time.
    func raw(_ session: SDLAppSession) async throws -> LatencySample {
        try await timed(paced: true) { index in
            try await session.request("Show", Self.show(index))
        } then: { response in
            let resultCode = response.parameters["resultCode"]?.stringValue
            guard resultCode == "SUCCESS" else { throw BenchFailure(description: "raw Show answered \(resultCode ?? "?")") }
        }
    }

    /// `samples` Shows through ``PlainSDLClient`` (one blocking socket, no tasks), one at a time:
    /// the head-unit round trip with nothing of this project's SDL client around it.
    func plain(_ client: PlainSDLClient) async throws -> LatencySample {
        try await timed(paced: true) { index in
            try client.call("Show", Self.show(index))
        } then: { response in
            let resultCode = response.parameters["resultCode"]?.stringValue
            guard resultCode == "SUCCESS" else { throw BenchFailure(description: "plain Show answered \(resultCode ?? "?")") }
        }
    }

    /// `samples` Shows through the gateway's REST API, one at a time; also the parts of each the
    /// gateway reports in `Server-Timing`: its own (`gateway`) and its SDL client's round trip to
    /// the head unit (`headunit`).
    func rest(
        _ send: HTTPKeepAliveClient.Send, app: String
    ) async throws -> (LatencySample, gatewayShare: [Double], headUnitShare: [Double]) {
        var shares: [Double] = []
        var headUnit: [Double] = []
        let sample = try await timed(paced: true) { index in
            try await send(.POST, "/v1/apps/\(app)/rpc/Show", ByteBuffer(bytes: Self.show(index).serializedBytes()))
        } then: { response in
            guard response.status == 200 else {
                throw BenchFailure(description: "REST Show answered \(response.status): \(String(buffer: response.body))")
            }
            if let share = Self.serverTiming(response.headers, "gateway") { shares.append(share) }
            if let share = Self.serverTiming(response.headers, "headunit") { headUnit.append(share) }
        }
        return (sample, shares, headUnit)
    }

    /// `samples` Shows through ``PlainHTTPRelay`` (`sdl-gateway-bench relay`, a process of its
    /// own), sent as `rest` sends them: what any process between the HTTP client and the head unit
    /// costs, whatever it does.
    func relay(_ send: HTTPKeepAliveClient.Send) async throws -> LatencySample {
        try await timed(paced: true) { index in
            try await send(.POST, "/rpc/Show", ByteBuffer(bytes: Self.show(index).serializedBytes()))
        } then: { response in
            let resultCode = (try? SDLJSON.parse(response.body))?["resultCode"]?.stringValue
            guard response.status == 200, resultCode == "SUCCESS" else {
                throw BenchFailure(description: "relayed Show answered \(response.status): \(String(buffer: response.body))")
            }
        }
    }

    /// `samples` Shows over the app's event WebSocket (`{"id","function","params"}`), one at a time.
    func ws(_ call: WebSocketRPCClient.Call) async throws -> LatencySample {
        try await timed(paced: true) { index in
            try await call("Show", Self.show(index))
        } then: { reply in
            guard reply["status"]?.intValue == 200 else { throw BenchFailure(description: "WebSocket Show answered \(reply.serialized())") }
        }
    }

    /// `samples` health requests, one at a time, unpaced (nothing limits them).
    func health(_ send: HTTPKeepAliveClient.Send) async throws -> LatencySample {
        try await timed(paced: false) { _ in
            try await send(.GET, "/v1/health", nil)
        } then: { response in
            guard response.status == 200 else { throw BenchFailure(description: "GET /v1/health answered \(response.status)") }
        }
    }

    /// Times `request` `samples` times, one after another, then hands each answer to `check`
    /// (not timed); `paced` waits ``interval`` after each.
    private func timed<Answer>(
        paced: Bool, _ request: (Int) async throws -> Answer, then check: (Answer) throws -> Void
    ) async throws -> LatencySample {
        var durations: [Duration] = []
        durations.reserveCapacity(samples)
        let clock = ContinuousClock()
        for index in 0..<samples {
            let started = clock.now
            let answer = try await request(index)
            durations.append(clock.now - started)
            try check(answer)
            if paced { try await Task.sleep(for: interval) }
        }
        return LatencySample(durations)
    }

    /// The `NAME;dur=` part of a `Server-Timing` header, in ms.
    static func serverTiming(_ headers: HTTPHeaders, _ name: String) -> Double? {
        guard let value = headers.first(name: "Server-Timing") else { return nil }
        for part in value.split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.first == name else { continue }
            for field in fields.dropFirst() where field.hasPrefix("dur=") {
                return Double(field.dropFirst(4))
            }
        }
        return nil
    }
}
