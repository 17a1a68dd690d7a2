import Logging
import NIOCore
import SDLProtocol
import SDLSpec
import TestSupport
import Testing

@testable import HeadUnitSimulator

/// The simulator on a real TCP port (127.0.0.1, port 0) and a raw SDL app built only from
/// SDLProtocol: what a phone app sees of SDL Core.
@Suite("Simulator: end to end over TCP", .timeLimit(.minutes(1)))
struct SimulatorEndToEndTests {
    /// Runs `body` against a simulator listening on a free port; stops it afterwards.
    static func withSimulator(
        _ configuration: HeadUnitConfiguration = HeadUnitConfiguration(autoActivate: true, timeScale: 0.01),
        _ body: @Sendable (SimulatedHeadUnit, Int) async throws -> Void
    ) async throws {
        let simulator = SimulatedHeadUnit(configuration: configuration, logger: Logger.test("test"))
        try await simulator.withListening { port in try await body(simulator, port) }
    }

    static let registration: SDLJSON = [
        "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0], "appName": "E2E", "isMediaApplication": true,
        "languageDesired": "EN-US", "hmiDisplayLanguageDesired": "EN-US", "appID": "e2e-app",
    ]

    @Test("Register, get activated, subscribe, receive vehicle data and a button press, upload a multi-frame file")
    func fullSession() async throws {
        try await Self.withSimulator { simulator, port in
            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                let ack = try await session.start()
                #expect(ack.protocolVersion == "5.4.0")
                let registered = try await session.call("RegisterAppInterface", Self.registration)
                #expect(registered.parameters["resultCode"] == "SUCCESS")
                let full = try await session.waitFor("OnHMIStatus") { $0.parameters["hmiLevel"] == "FULL" }
                #expect(full.parameters["audioStreamingState"] == "AUDIBLE")

                let subscribed = try await session.call("SubscribeVehicleData", ["speed": true, "rpm": true])
                #expect(subscribed.parameters["resultCode"] == "SUCCESS")
                let data = try await session.waitFor("OnVehicleData")
                #expect(data.parameters["speed"]?.doubleValue != nil || data.parameters["rpm"]?.intValue != nil)
                #expect(data.parameters["gps"] == nil)

                #expect(try await session.call("SubscribeButton", ["buttonName": "OK"]).parameters["resultCode"] == "SUCCESS")
                let notified = try simulator.perform { unit, now in
                    try unit.pressButton("OK", mode: "LONG", appID: nil, softButtonID: nil, now: now)
                }
                #expect(notified == ["e2e-app"])
                let press = try await session.waitFor("OnButtonPress")
                #expect(press.parameters["buttonPressMode"] == "LONG")

                let file = ByteBuffer(repeating: 0x5A, count: 300_000)
                let put = try await session.call(
                    "PutFile", ["syncFileName": "big.bin", "fileType": "BINARY", "persistentFile": false], bulkData: file, mtu: 131_072)
                #expect(put.parameters["resultCode"] == "SUCCESS")
                let list = try await session.call("ListFiles")
                #expect(list.parameters["filenames"] == ["big.bin"])
            }
        }
    }

    @Test("Faults over the wire: a result code, a delay, a paced burst, a malformed frame, a dropped connection")
    func faults() async throws {
        try await Self.withSimulator { simulator, port in
            try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Show", resultCode: "GENERIC_ERROR")), []) }
            let client = try await RawSDLClient(port: port)
            try await client.withSession { session in
                _ = try await session.start()
                _ = try await session.call("RegisterAppInterface", Self.registration)
                _ = try await session.waitFor("OnHMIStatus") { $0.parameters["hmiLevel"] == "FULL" }
                let show = try await session.call("Show", ["mainField1": "hello"])
                #expect(show.parameters["resultCode"] == "GENERIC_ERROR")
                #expect(show.parameters["success"] == false)

                try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Show", delay: .milliseconds(150))), []) }
                let started = ContinuousClock.now
                #expect(try await session.call("Show", ["mainField1": "late"]).parameters["resultCode"] == "SUCCESS")
                #expect(ContinuousClock.now - started >= .milliseconds(150))

                try simulator.perform { unit, now in
                    (
                        (),
                        try unit.burst(
                            "OnDriverDistraction", parameters: ["state": "DD_ON"], count: 20, ratePerSecond: 200, appID: "e2e-app", now: now
                        )
                    )
                }
                for _ in 0..<20 { _ = try await session.waitFor("OnDriverDistraction") { $0.parameters["state"] == "DD_ON" } }

                try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Show", malformedFrame: true)), []) }
                await #expect(throws: SDLProtocolError.self) { _ = try await session.call("Show", ["mainField1": "again"]) }
            }
            simulator.perform { unit, _ in (unit.clearFaults(), []) }
            try simulator.perform { unit, _ in (try unit.addFault(Fault(function: "Show", dropConnection: true)), []) }
            let second = try await RawSDLClient(port: port)
            try await second.withSession { session in
                _ = try await session.start()
                var other = Self.registration
                if case .object(var fields) = other {
                    fields["appID"] = "e2e-two"
                    fields["appName"] = "E2E Two"
                    other = .object(fields)
                }
                let registered = try await session.call("RegisterAppInterface", other)
                #expect(registered.parameters["resultCode"] == "SUCCESS")
                await #expect(throws: RawSDLClient.Failure.self) { _ = try await session.call("Show", ["mainField1": "bye"]) }
            }
        }
    }
}
