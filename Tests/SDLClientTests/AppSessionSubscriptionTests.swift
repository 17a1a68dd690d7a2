import HeadUnitSimulator
import Logging
import SDLClient
import SDLProtocol
import TestSupport
import Testing

/// Subscriptions shared by owners against the simulator over TCP: the head unit sees one
/// Subscribe for the first owner and one Unsubscribe when the last owner leaves.
@Suite("App session: reference-counted subscriptions", .timeLimit(.minutes(1)))
struct AppSessionSubscriptionTests {
    /// How many requests of `function` the head unit received.
    static func received(_ function: String, by simulator: SimulatedHeadUnit) -> Int {
        simulator.snapshot.log.entries.filter { $0.json["function"] == .string(function) && $0.json["rpcType"] == "request" }.count
    }

    @Test("Two owners of speed cost one SubscribeVehicleData; the Unsubscribe goes when the last one leaves")
    func vehicleData() async throws {
        let simulator = AppSessionTests.simulator()
        try await simulator.withListening { port in
            let session = SDLAppSession(configuration: .init(port: port, app: AppSessionTests.app), logger: Logger.test("test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await session.run() }
                var events = session.events.makeAsyncIterator()
                #expect(await AppSessionTests.waitFor(.registered, in: &events) == "SUCCESS")
                let first = try await session.subscribe(vehicleData: ["speed", "rpm"], owner: "dashboard")
                #expect(first.sent == ["speed", "rpm"])
                #expect(first.response?.parameters["speed"]?["resultCode"] == "SUCCESS")
                let second = try await session.subscribe(vehicleData: ["speed"], owner: "script")
                #expect(second.response == nil)
                #expect(Self.received("SubscribeVehicleData", by: simulator) == 1)
                let leaving = try await session.unsubscribe(vehicleData: ["speed", "rpm"], owner: "dashboard")
                #expect(leaving.sent == ["rpm"])
                #expect(simulator.snapshot.app(withID: "resilient-app")?.vehicleDataSubscriptions == ["speed"])
                let last = try await session.unsubscribe(vehicleData: ["speed"], owner: "script")
                #expect(last.sent == ["speed"])
                #expect(simulator.snapshot.app(withID: "resilient-app")?.vehicleDataSubscriptions == [])
                #expect(session.subscriptions.vehicleData == [])
                // A refused Subscribe is given back: nothing is held, the next owner asks again.
                await #expect(throws: SDLClientError.self) { try await session.subscribe(button: "NOT_A_BUTTON", owner: "dashboard") }
                #expect(session.subscriptions.buttons == [])
                #expect(try await session.subscribe(button: "OK", owner: "dashboard").sent == ["OK"])
                #expect(Self.received("SubscribeButton", by: simulator) == 1)
                await session.close()
                try await group.waitForAll()
            }
        }
    }
}
