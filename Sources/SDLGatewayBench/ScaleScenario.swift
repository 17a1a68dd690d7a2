import HummingbirdWSClient
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import ProcessHarness
import SDLProtocol

/// `scale`: `sessions` more app sessions registered through the gateway (SDL Core's limit is 250
/// sessions), then `clients` idle WebSocket clients on one app's events; the gateway's resident
/// memory (VmRSS) before and after each, per session and per client. With 0 sessions one app
/// still carries the clients (and is not counted).
struct ScaleScenario {
    let gateway: String
    let host: String
    let port: Int
    let sessions: Int
    let clients: Int

    struct Figures {
        var sessions: Int
        var clients: Int
        var perSessionKiB: Double
        var perClientKiB: Double
    }

    /// Adds `sessions` apps then `clients` idle clients on the first app's events (`scale-0`; the
    /// gateway is its own, started for this scenario).
    func run(residentKiB: @Sendable () -> Int) async throws -> Figures {
        let http = try await HTTPKeepAliveClient.connect(host: host, port: port)
        return try await http.run { send in
            let before = residentKiB()
            for index in 0..<max(sessions, 1) {
                let body: SDLJSON = [
                    "id": .string("scale-\(index)"), "appName": .string("Scale \(index)"), "appID": .string("scale-\(index)"),
                ]
                let created = try await send(.POST, "/v1/apps", ByteBuffer(bytes: body.serializedBytes()))
                guard created.status == 201 else {
                    throw BenchFailure(description: "scale: POST /v1/apps answered \(created.status): \(String(buffer: created.body))")
                }
            }
            try await settled(send, app: "scale-\(max(sessions, 1) - 1)")
            let withSessions = residentKiB()
            let withClients = try await idleClients(app: "scale-0", residentKiB: residentKiB)
            for index in 0..<max(sessions, 1) {
                _ = try await send(.DELETE, "/v1/apps/scale-\(index)", nil)
            }
            return Figures(
                sessions: sessions, clients: clients,
                perSessionKiB: sessions == 0 ? 0 : Double(withSessions - before) / Double(sessions),
                perClientKiB: clients == 0 ? 0 : Double(withClients - withSessions) / Double(clients)
            )
        }
    }

    /// Waits (at most 10 s) until the last app has what the head unit sends after a registration:
    /// its permissions (OnPermissionsChange) and an HMI level (OnHMIStatus). The apps before it
    /// registered earlier on their own connections.
    private func settled(_ send: HTTPKeepAliveClient.Send, app: String) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let response = try await send(.GET, "/v1/apps/\(app)?expand=capabilities", nil)
            let info = try? SDLJSON.parse(response.body)
            if info?["capabilities"]?["permissions"]?.objectValue?.isEmpty == false, info?["hmiLevel"]?.stringValue != nil { return }
            guard ContinuousClock.now < deadline else {
                throw BenchFailure(description: "scale: \(app) has no permissions 10 s after registering")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Connects `clients` WebSocket clients that stay idle, reads the memory, then closes them.
    private func idleClients(app: String, residentKiB: @Sendable () -> Int) async throws -> Int {
        let connected = BenchSignal()
        let release = BenchSignal()
        var logger = Logger(label: "sdl-gateway-bench.scale")
        logger.logLevel = .critical
        let url = "ws://\(gateway)/v1/apps/\(app)/events?types=hmiStatus"
        return try await withThrowingTaskGroup(of: Void.self) { group in
            defer { group.cancelAll() }
            // In batches, so that the listen backlog is never the limit.
            for batch in stride(from: 0, to: clients, by: 250) {
                let size = min(250, clients - batch)
                for _ in 0..<size {
                    group.addTask { [logger] in
                        try await WebSocketClient.connect(url: url, logger: logger) { _, outbound, _ in
                            await connected.add()
                            _ = await release.wait(for: 1)
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                    }
                }
                guard await connected.wait(for: batch + size, until: .now + .seconds(30)) else {
                    throw BenchFailure(description: "scale: only \(await connected.value) of \(clients) WebSocket clients connected")
                }
            }
            let resident = residentKiB()
            await release.add()
            try await group.waitForAll()
            return resident
        }
    }
}
