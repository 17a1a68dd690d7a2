import Foundation
import Gateway
import HTTPTypes
import HeadUnitModel
import HeadlessHMI
import HummingbirdTesting
import Logging
import NIOCore
import SDLProtocol
import SimulatorControl
import TestSupport
import Testing

/// Issue 31, item 2: under `serve --hmi` the files of Core's storage are behind the gateway's
/// tokens like every `/v1/hmi` read, and keep their sandbox beside the gateway's own headers.
@Suite("The headless HMI's files behind the gateway's tokens", .timeLimit(.minutes(1)))
struct HMIFilesAuthTests {
    @Test("GET /v1/hmi/apps/{appID}/files/{name}: no token or a wrong one 401, a read token the bytes with CSP sandbox and frame-ancestors")
    func tokens() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hmi-auth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("icon.png").path
        try Data([7, 7, 7]).write(to: URL(fileURLWithPath: path))

        let core = try await FakeCoreHMI.bind()
        let connection = HMIConnection(
            address: core.address, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)), logger: Logger.test("hmi-test"))
        let group = GatewayRouteGroup(path: "v1/hmi", operations: HMIControlRoutes.operations) { group, _ in
            HMIControlRoutes(connection: connection).add(to: group)
        }
        var configuration = AuthTests.tokens()
        configuration.port = 0
        let (application, _) = try await buildApplication(
            configuration, companion: GatewayCompanion(routeGroups: [group]), logger: Logger.test("test"))
        try await application.test(.router) { client in
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await connection.run() }
                try await core.serveOne { fake, _ in
                    try await fake.send(
                        .notification(
                            method: "BasicCommunication.OnAppRegistered",
                            params: [
                                "application": ["appID": 7, "appName": "Radio", "policyAppID": "radio01", "icon": .string(path)]
                            ]))
                    try await fake.send(.request(id: 90, method: "UI.IsReady", params: [:]))
                    _ = try await fake.next { $0.answeredMethod == "UI.IsReady" }
                    let uri = "/v1/hmi/apps/radio01/files/icon.png"
                    for headers: HTTPFields in [[:], [.authorization: "Bearer not-a-token-at-all"]] {
                        try await client.execute(uri: uri, method: .get, headers: headers) { response in
                            #expect(response.status == .unauthorized)
                            #expect(response.problemType == "unauthorized")
                            #expect(response.body.readableBytesView.elementsEqual([7, 7, 7]) == false)
                        }
                    }
                    try await client.execute(uri: uri, method: .get, headers: AuthTests.bearerReader) { response in
                        #expect(response.status == .ok)
                        #expect(Array(response.body.readableBytesView) == [7, 7, 7])
                        #expect(response.headers[.contentSecurityPolicy] == "sandbox; frame-ancestors 'none'")
                        #expect(response.headers[.xContentTypeOptions] == "nosniff")
                    }
                }
                tasks.cancelAll()
            }
        }
    }
}
