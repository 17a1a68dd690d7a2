import NIOCore
import NIOHTTP1
import SDLConformance
import SDLProtocol

/// The driver's side of `sdl-gateway check` over a control API: the simulator's (`simulate
/// --control`, `serve --simulate`'s `/v1/simulator`) or the headless HMI's (`hmi --control`,
/// `/v1/hmi`), which take the same paths and bodies (README "Naming in the control APIs").
struct ControlAPIDriver: ConformanceDriver {
    let client: GatewayClient

    var name: String { "control API \(client.endpoint)" }

    init(url: String, token: String?, timeout: TimeAmount = .seconds(10)) throws(GatewayClientError) {
        client = GatewayClient(endpoint: try GatewayEndpoint(url), token: token, timeout: timeout)
    }

    func setHMILevel(_ level: String, appID: String) async throws {
        try await send(.PUT, "/apps/\(GatewayClient.segment(appID))/hmi", ["hmiLevel": .string(level)])
    }

    func pressButton(_ name: String, mode: String) async throws {
        try await send(.POST, "/buttons/\(GatewayClient.segment(name))/press", ["mode": .string(mode)])
    }

    func pressSoftButton(_ softButtonID: Int, appID: String) async throws {
        try await send(.POST, "/buttons/CUSTOM_BUTTON/press", ["appID": .string(appID), "softButtonID": .int(Int64(softButtonID))])
    }

    func answerInteraction(choiceID: Int, appID: String) async throws {
        try await send(.POST, "/apps/\(GatewayClient.segment(appID))/interaction", ["choiceID": .int(Int64(choiceID))])
    }

    func triggerCommand(_ commandID: Int, appID: String, voice: Bool) async throws {
        try await send(
            .POST, "/apps/\(GatewayClient.segment(appID))/commands/\(commandID)", ["triggerSource": .string(voice ? "VR" : "MENU")])
    }

    func setVehicleData(_ values: SDLJSON) async throws {
        try await send(.PUT, "/vehicle-data", values)
    }

    /// One request; a refusal is a ``ConformanceFailure/Code/driver`` naming the path and the problem.
    private func send(_ method: HTTPMethod, _ path: String, _ body: SDLJSON) async throws {
        let answer: GatewayAnswer
        do {
            answer = try await client.send(method, path, json: body)
        } catch let error as GatewayClientError {
            throw ConformanceFailure(.driver, "\(method) \(path): \(error.message)")
        }
        guard answer.isSuccess else {
            throw ConformanceFailure(.driver, "\(method) \(path): \(answer.problemDescription)")
        }
    }
}
