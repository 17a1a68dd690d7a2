#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HeadUnitSimulator
import Logging
import NIOCore
import NIOPosix
import SDLClient
import SDLProtocol
import Testing

@testable import SDLGatewayBench

/// The bench's plain client against the simulator in this process: the client blocks its thread,
/// so each test runs it on NIO's thread pool, off Swift's cooperative threads.
@Suite("sdl-gateway-bench: the plain SDL client", .timeLimit(.minutes(1)))
struct PlainSDLClientTests {
    @Test("Registers, is activated and a Show answers SUCCESS")
    func registerAndShow() async throws {
        try await withSimulator(HeadUnitConfiguration(autoActivate: true, autoActivateDelay: .milliseconds(10))) { port in
            let (registered, level, show) = try await NIOThreadPool.singleton.runIfActive {
                // The simulator runs in this process, on Swift's cooperative threads, which the
                // whole parallel test run shares: twice a full `swift test` left it unscheduled for
                // 10 s (no StartServiceACK). What this test checks is not timing; the timeout
                // path has a test of its own below.
                let client = try PlainSDLClient(host: "127.0.0.1", port: port, timeout: .seconds(30))
                defer { client.close() }
                let response = try client.register(SDLAppConfiguration(appName: "Plain", appID: "plain-1"))
                let show = try client.call("Show", ["mainField1": "plain"])
                return (response.parameters["resultCode"]?.stringValue, client.hmiLevel, show.parameters["resultCode"]?.stringValue)
            }
            #expect(registered == "SUCCESS")
            #expect(level == "FULL")
            #expect(show == "SUCCESS")
        }
    }

    @Test("A response larger than the head unit's MTU arrives in several frames and is put back together")
    func multiFrameResponse() async throws {
        // 512 bytes of payload per frame: the RegisterAppInterface response (the head unit's
        // capabilities) needs several.
        try await withSimulator(HeadUnitConfiguration(maximumPayloadSize: 512)) { port in
            let (resultCode, displayName, multiFrame) = try await NIOThreadPool.singleton.runIfActive {
                let client = try PlainSDLClient(host: "127.0.0.1", port: port, timeout: .seconds(10))
                defer { client.close() }
                let response = try client.register(SDLAppConfiguration(appName: "Plain", appID: "plain-2"), waitForHMILevel: false)
                return (
                    response.parameters["resultCode"]?.stringValue,
                    response.parameters["displayCapabilities"]?["displayName"]?.stringValue,
                    client.multiFrameMessages
                )
            }
            #expect(resultCode == "SUCCESS")
            #expect(displayName != nil, "the whole response was read, its capabilities too")
            #expect(multiFrame >= 1)
        }
    }

    @Test("A head unit that accepts and never answers ends the handshake with timed_out, not a hang")
    func silentHeadUnit() async throws {
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(silent.localAddress?.port)
        // Timed on the pool's thread, from the client's start: under a loaded parallel test run
        // the shared pool's queue alone took seconds before the client ran.
        let (result, elapsed) = try await NIOThreadPool.singleton.runIfActive {
            let started = ContinuousClock.now
            let result = Result { () throws(PlainSDLClientError) in
                _ = try PlainSDLClient(host: "127.0.0.1", port: port, timeout: .milliseconds(300))
            }
            return (result, ContinuousClock.now - started)
        }
        let error = #expect(throws: PlainSDLClientError.self) { try result.get() }
        #expect(error?.code == .timedOut)
        #expect(error?.message.contains("StartServiceACK") == true)
        #expect(elapsed < .seconds(5))
        try await silent.close()
    }

    @Test("Nothing listening: connect_failed")
    func nothingListening() async throws {
        // A port bound and held without listening: connecting is refused, and no test running in
        // parallel can take the port meanwhile (a freed one, it once did: a server answered).
        let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(held >= 0)
        defer { close(held) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(held, $0, length) == 0 && getsockname(held, $0, &length) == 0
            }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let error = await #expect(throws: PlainSDLClientError.self) {
            try await NIOThreadPool.singleton.runIfActive {
                _ = try PlainSDLClient(host: "127.0.0.1", port: port, timeout: .milliseconds(300))
            }
        }
        #expect(error?.code == .connectFailed)
    }

    @Test("The report: plain p50/p95, the REST headunit share over plain and raw over plain, per round")
    func report() {
        var report = BenchReport(rounds: 2, samples: 20, rate: 80, headUnit: "simulator")
        let plain = (1...20).map { Duration.microseconds(500 + 10 * $0) }
        report.add(["raw": LatencySample([.milliseconds(1)]), "plain": LatencySample(plain)], headUnitShareP50: 0.8)
        report.add(["raw": LatencySample([.microseconds(1200)]), "plain": LatencySample(plain)], headUnitShareP50: 0.7)
        // p50 of plain: the 10th of 20, 0.6 ms; p95: the 19th, 0.69 ms.
        #expect(report.headUnitOverPlain.map { Spread.rounded($0, 3) } == [0.2, 0.1])
        #expect(report.rawOverPlain.map { Spread.rounded($0, 3) } == [1.667, 2])
        let json = report.json
        #expect(json.contains(#""plain_p50_ms":0.6"#))
        #expect(json.contains(#""plain_p95_ms":0.69"#))
        #expect(json.contains(#""headunit_over_plain_p50_ms":0.15"#))
        #expect(json.contains(#""raw_over_plain_p50":1.833"#))
        #expect(report.table.contains("head unit share − plain p50:"))
    }

    /// Runs `body` with the port of a simulator serving on 127.0.0.1, then stops it.
    private func withSimulator(
        _ configuration: HeadUnitConfiguration, _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        var logger = Logger(label: "plain-client-test")
        logger.logLevel = .error
        let simulator = SimulatedHeadUnit(configuration: configuration, logger: logger)
        let bound = try await simulator.bind([.tcp(host: "127.0.0.1", port: 0)])
        let port = try #require(bound.ports.first)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await simulator.run(bound) }
            try await body(port)
            group.cancelAll()
        }
    }
}
