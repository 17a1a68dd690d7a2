import Logging
import NIOCore
import NIOHTTP1
import ProcessHarness
import SDLClient
import SDLProtocol

extension BenchRun {
    /// The gateway's NAVIGATION app of the video scenario, and the SDL appIDs of both of its apps.
    static let videoApp = "bench-video"
    static let videoGatewayAppID = "bench-video-gw"
    static let videoRawAppID = "bench-video-raw"

    /// `video` (``VideoScenario``): a NAVIGATION app through the gateway and one straight through
    /// `SDLAppSession`, each round `raw`, `ws` and `post` in another order (throughput), then `raw`
    /// and `ws` paced (latency); both apps are unregistered at the end.
    func video(_ report: BenchReport, control: String) async throws -> BenchReport {
        var report = report
        let plan = plan
        guard let controlPort = control.split(separator: ":").last.flatMap({ Int($0) }) else {
            throw BenchFailure(description: "the control API is host:port, got \(control)")
        }
        let controlHost = String(control.split(separator: ":").dropLast().joined(separator: ":"))
        let throughputPayload = VideoPayload(size: plan.videoBytes)
        let latencyPayload = VideoPayload(count: plan.videoLatencyFrames + Self.videoWarmUp, frameSize: plan.videoLatencyFrameSize)
        report.video.bytes = throughputPayload.size
        report.video.frames = throughputPayload.frames.count
        report.video.latencyFrameSize = plan.videoLatencyFrameSize
        report.video.latencyRate = plan.videoLatencyRate
        report.video.latencyFrames = plan.videoLatencyFrames

        var logger = Logger(label: "sdl-gateway-bench.video")
        logger.logLevel = .error
        let raw = SDLAppSession(
            configuration: SDLConnection.Configuration(
                address: session.configuration.address,
                app: SDLAppConfiguration(appName: "Bench video raw", appID: Self.videoRawAppID, appHMIType: ["NAVIGATION"])),
            logger: logger)
        let gatewayHTTP = try await HTTPKeepAliveClient.connect(host: "127.0.0.1", port: port)
        let controlHTTP = try await HTTPKeepAliveClient.connect(host: controlHost, port: controlPort)
        let base = base
        let video = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await raw.run() }
            defer { group.cancelAll() }
            var events = raw.events.makeAsyncIterator()
            registration: while let event = await events.next() {
                if case .connection(.registered, _) = event { break registration }
            }
            let figures = try await gatewayHTTP.run { gatewaySend in
                let body = ByteBuffer(
                    string:
                        #"{"id":"\#(Self.videoApp)","appName":"Bench video","appID":"\#(Self.videoGatewayAppID)","appHMIType":["NAVIGATION"]}"#
                )
                let created = try await gatewaySend(.POST, "/v1/apps", body)
                guard created.status == 201 else {
                    throw BenchFailure(description: "POST /v1/apps (video) answered \(created.status): \(String(buffer: created.body))")
                }
                let figures = try await controlHTTP.run { controlSend in
                    try await withoutActuallyEscaping(gatewaySend) { gatewaySend in
                        try await withoutActuallyEscaping(controlSend) { controlSend in
                            let scenario = VideoScenario(
                                gateway: base, app: Self.videoApp, gatewayAppID: Self.videoGatewayAppID, raw: raw,
                                rawAppID: Self.videoRawAppID, gatewaySend: gatewaySend, controlSend: controlSend, control: control)
                            return try await Self.videoRounds(scenario, plan: plan, throughputPayload, latencyPayload)
                        }
                    }
                }
                _ = try await gatewaySend(.DELETE, "/v1/apps/\(Self.videoApp)", nil)
                return figures
            }
            await raw.close()
            return figures
        }
        report.video.throughput = video.throughput
        report.video.latency = video.latency
        return report
    }

    /// Frames sent before the timed ones of a latency run.
    static let videoWarmUp = 5

    private static func videoRounds(
        _ scenario: VideoScenario, plan: BenchPlan, _ throughputPayload: VideoPayload, _ latencyPayload: VideoPayload
    ) async throws -> (throughput: [String: [Double]], latency: [String: [LatencySample]]) {
        var throughput: [String: [Double]] = [:]
        var latency: [String: [LatencySample]] = [:]
        let orders: [[VideoScenario.Way]] = [[.raw, .ws, .post], [.ws, .post, .raw], [.post, .raw, .ws]]
        let interval = Duration.seconds(1) / plan.videoLatencyRate
        for round in 0..<plan.rounds {
            for way in orders[round % orders.count] {
                let figure = try await BenchFailure.naming("video \(way) throughput, round \(round + 1)") {
                    try await scenario.throughput(way, throughputPayload)
                }
                throughput[way.rawValue, default: []].append(figure)
            }
            for way in round % 2 == 0 ? [VideoScenario.Way.raw, .ws] : [.ws, .raw] {
                let delays = try await BenchFailure.naming("video \(way) latency, round \(round + 1)") {
                    try await scenario.latency(way, latencyPayload, interval: interval, warmUp: videoWarmUp)
                }
                latency[way.rawValue, default: []].append(LatencySample(delays))
            }
        }
        return (throughput, latency)
    }
}
