import HeadUnitModel
import HeadlessHMI
import Logging
import NIOCore
import SDLProtocol
import SDLTransport
import TestSupport
import ServiceLifecycle
import Testing

/// ``HMIConnection`` against a fake of Core's HMI WebSocket: a text-message WebSocket server that
/// answers the message broker's requests as Core does and then plays Core's part.
@Suite("The headless HMI over a WebSocket to a fake Core", .timeLimit(.minutes(1)))
struct HMIConnectionTests {
    @Test(
        "Registers, subscribes, sends OnReady, answers Core, activates a new app; after Core drops the link it connects and registers again"
    )
    func handshakeAndReconnect() async throws {
        let server = try await SDLWebSocketServer.bind(host: "127.0.0.1", port: 0, messages: .text)
        let port = try #require(server.channel.localAddress?.port)
        let connection = HMIConnection(
            address: SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: port),
            hmi: HeadlessHMI(answers: HMIAnswers(profile: .default), autoActivate: true),
            logger: Logger.test("hmi-test")
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            try await server.executeThenClose { accepted in
                var connections = accepted.makeAsyncIterator()
                // First connection: the whole handshake, a request, an app.
                let firstAccepted = try #require(try await connections.next())
                let first = try #require(try await SDLWebSocketServer.upgraded(firstAccepted))
                try await first.executeThenClose { inbound, outbound in
                    var core = FakeCoreHMI.Connection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
                    #expect(try await core.handshake() == HeadlessHMI.components)
                    #expect(connection.snapshot.phase == .ready)
                    try await core.send(.request(id: 42, method: "UI.IsReady", params: [:]))
                    #expect(try await core.next() == .response(id: 42, result: ["available": true, "code": 0, "method": "UI.IsReady"]))
                    try await core.announce(["appID": 65537, "appName": "Radio"])
                    guard case .request(let id, "SDL.ActivateApp", let params) = try await core.next() else {
                        Issue.record("no SDL.ActivateApp"); return
                    }
                    #expect(params["appID"] == 65537 && id >= 1000)
                    try await core.send(.request(id: 43, method: "BasicCommunication.ActivateApp", params: ["appID": 65537]))
                    _ = try await core.next()
                    #expect(connection.snapshot.apps[65537]?.hmiLevel == "FULL")
                    // A button press from the control side reaches Core.
                    try await connection.perform { hmi in
                        [hmi.notify("Buttons.OnButtonPress", ["name": "OK", "mode": "SHORT", "appID": 65537])]
                    }
                    #expect(
                        try await core.next()
                            == .notification(method: "Buttons.OnButtonPress", params: ["name": "OK", "mode": "SHORT", "appID": 65537]))
                }
                // Core went away (the connection closed): the HMI comes back and registers again.
                let secondAccepted = try #require(try await connections.next())
                let second = try #require(try await SDLWebSocketServer.upgraded(secondAccepted))
                try await second.executeThenClose { inbound, outbound in
                    var core = FakeCoreHMI.Connection(inbound: inbound.makeAsyncIterator(), outbound: outbound)
                    let components = try await core.handshake()
                    #expect(components == HeadlessHMI.components)
                    #expect(connection.snapshot.apps.isEmpty)
                }
            }
            group.cancelAll()
        }
    }

    @Test("The simulator's drive reaches Core as VehicleInfo.OnVehicleData once Core subscribes")
    func vehicleData() async throws {
        let core = try await FakeCoreHMI.bind()
        let connection = HMIConnection(
            address: core.address, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)),
            logger: Logger.test("hmi-test"), vehicleInterval: .milliseconds(10)
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            try await core.serveOne { core, _ in
                try await core.send(.request(id: 80, method: "VehicleInfo.SubscribeVehicleData", params: ["speed": true, "appID": 1]))
                // The answer and the subscription are made in one step and queued in that order:
                // no sample can overtake the answer.
                var before: [HMIMessage] = []
                let answer = try await core.next { message in
                    if case .response(80, _) = message { return true }
                    before.append(message)
                    return false
                }
                #expect(before.isEmpty, "before the answer: \(before)")
                #expect(
                    answer
                        == .response(
                            id: 80,
                            result: [
                                "code": 0, "method": "VehicleInfo.SubscribeVehicleData",
                                "speed": ["dataType": "VEHICLEDATA_SPEED", "resultCode": "SUCCESS"],
                            ]))
                // Three samples in a row, each with the speed and nothing else.
                for _ in 0..<3 {
                    guard case .notification("VehicleInfo.OnVehicleData", let params) = try await core.next() else {
                        Issue.record("not OnVehicleData"); return
                    }
                    #expect(Array(params.keys) == ["speed"])
                    #expect(params["speed"]?.doubleValue != nil)
                }
            }
            group.cancelAll()
        }
    }

    @Test("What the HMI says leaves in the order it was made; an outbox Core does not drain ends the connection, and it connects again")
    func orderedOutbox() async throws {
        let core = try await FakeCoreHMI.bind()
        let connection = HMIConnection(
            address: core.address, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)),
            logger: Logger.test("hmi-test"), vehicle: .none, outboxLimit: 64
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            try await core.serve(connections: 2) { core, _, index in
                if index == 0 {
                    // 64 presses from the control side, as fast as they come: Core reads them in order.
                    for number in 0..<64 {
                        try await connection.perform { hmi in
                            [
                                hmi.notify(
                                    "Buttons.OnButtonPress",
                                    ["name": .string("PRESET_\(number % 10)"), "mode": "SHORT", "appID": .int(Int64(number))])
                            ]
                        }
                    }
                    for number in 0..<64 {
                        guard case .notification("Buttons.OnButtonPress", let params) = try await core.next() else {
                            Issue.record("not OnButtonPress"); return
                        }
                        #expect(params["appID"]?.intValue == Int64(number))
                    }
                    // Far more at once than the outbox holds (its writer takes one while thousands
                    // are queued): the HMI ends the connection.
                    await #expect(throws: (any Error).self) {
                        try await connection.perform { hmi in
                            (0..<10_000).map { _ in hmi.notify("Buttons.OnButtonPress", ["name": "OK", "mode": "SHORT", "appID": 1]) }
                        }
                        while true { _ = try await core.next() }
                    }
                }
                // index 1: the HMI came back and registered again (serve ran its handshake).
            }
            group.cancelAll()
        }
    }

    @Test("A replayed OpenXC trace is the vehicle: its speed reaches Core, its button as the driver's press")
    func traceReplay() async throws {
        let core = try await FakeCoreHMI.bind()
        let trace = try OpenXCTrace(
            text: """
                {"name":"vehicle_speed","value":42.5,"timestamp":1}
                {"name":"vehicle_speed","value":43,"timestamp":1.05}
                {"name":"button_event","value":"ok","event":"pressed","timestamp":1.06}
                {"name":"button_event","value":"ok","event":"released","timestamp":1.1}
                """)
        let connection = HMIConnection(
            address: core.address, hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)),
            logger: Logger.test("hmi-test"), vehicle: .trace(trace, speed: 1, loop: true), vehicleInterval: .milliseconds(10)
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.run() }
            try await core.serveOne { core, _ in
                try await core.send(.request(id: 81, method: "VehicleInfo.SubscribeVehicleData", params: ["speed": true, "appID": 1]))
                var speed: SDLJSON?
                var buttons: [String] = []
                // A trace sends what changed: the speed changes twice a pass (about 1.1 s), and
                // the press comes once a pass; both arrive within a few passes.
                for _ in 0..<100 where speed == nil || buttons.count < 3 {
                    switch try await core.next() {
                    case .notification("VehicleInfo.OnVehicleData", let params): speed = params["speed"] ?? speed
                    case .notification(let method, let params) where method.hasPrefix("Buttons."):
                        // From a press's start: the replay may begin between a press and its release.
                        guard params["name"] == "OK", !buttons.isEmpty || params["mode"] == "BUTTONDOWN" else { break }
                        buttons.append("\(method) \(params["mode"]?.stringValue ?? "")")
                    default: break
                    }
                }
                #expect(speed?.doubleValue == 42.5 || speed?.doubleValue == 43, "\(String(describing: speed))")
                #expect(
                    Array(buttons.prefix(3)) == [
                        "Buttons.OnButtonEvent BUTTONDOWN", "Buttons.OnButtonEvent BUTTONUP", "Buttons.OnButtonPress SHORT",
                    ])
            }
            group.cancelAll()
        }
    }

    @Test("Nothing to act on while Core is not connected: connectionFailed, not a hang")
    func notConnected() async throws {
        let connection = HMIConnection(
            address: SDLTransportAddress(scheme: .ws, host: "127.0.0.1", port: 9),
            hmi: HeadlessHMI(answers: HMIAnswers(profile: .default)),
            logger: Logger.test("hmi-test")
        )
        await #expect {
            try await connection.perform { hmi throws(HMIError) in try hmi.activate(appID: 1) }
        } throws: { ($0 as? HMIError)?.code == .connectionFailed }
    }
}
