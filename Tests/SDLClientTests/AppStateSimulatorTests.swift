import HeadUnitSimulator
import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import SDLClient

/// Feeds what the simulated head unit sends after registration into a tracker: the tracker
/// must understand the head unit's real messages, not only hand-written ones.
private struct SimulatedApp {
    var unit: HeadUnit
    let connection: ConnectionID
    var tracker = SDLAppStateTracker()
    var events: [SDLAppEvent] = []
    var now = NIODeadline.uptimeNanoseconds(1_000_000_000)
    private var decoder = SDLFrameDecoder(maximumPayloadSize: 1 << 20)
    private var assembler = SDLMessageAssembler()
    private var buffer = ByteBuffer()
    private var session: UInt8 = 0
    private var messageID: UInt32 = 1

    init(policy: SimulatorPolicy) {
        unit = HeadUnit(configuration: HeadUnitConfiguration(policy: policy))
        connection = unit.connectionOpened()
    }

    mutating func register(appID: String) {
        let start = SDLControlMessage.startService(.init(protocolVersion: "5.4.0"))
            .makeFrame(version: 5, serviceType: .rpc, sessionID: 0, messageID: 1)
        var bytes = ByteBuffer()
        bytes.writeSDLFrame(start)
        take(unit.receive(bytes, on: connection, now: now))
        let parameters: SDLJSON = [
            "syncMsgVersion": ["majorVersion": 8, "minorVersion": 0],
            "appName": "State Demo",
            "isMediaApplication": false,
            "languageDesired": "EN-US",
            "hmiDisplayLanguageDesired": "EN-US",
            "appID": .string(appID),
        ]
        var payload = ByteBuffer()
        payload.writeSDLRPCMessage(SDLRPCMessage(rpcType: .request, functionID: 1, correlationID: 1, parameters: parameters))
        messageID += 1
        var frames = ByteBuffer()
        let message = SDLMessage(version: 5, serviceType: .rpc, sessionID: session, messageID: messageID, payload: payload)
        for frame in SDLMessageFragmenter(message: message, maximumPayloadSize: 131_072) { frames.writeSDLFrame(frame) }
        take(unit.receive(frames, on: connection, now: now))
    }

    /// Decodes the head unit's output and applies every RPC to the tracker.
    mutating func take(_ actions: [HeadUnitAction]) {
        for case .write(_, var bytes) in actions {
            buffer.writeBuffer(&bytes)
            while let frame = try! decoder.decode(buffer: &buffer) {
                if frame.header.frameType == .control {
                    session = frame.header.sessionID
                    continue
                }
                guard let message = try! assembler.process(frame, now: now) else { continue }
                var payload = message.payload
                let rpc = try! payload.readSDLRPCMessage()
                switch rpc.rpcType {
                case .response: events += tracker.apply(response: rpc, now: now)
                case .notification: events += tracker.apply(rpc, now: now)
                case .request: break
                }
            }
        }
    }
}

@Suite("AppState against the simulated head unit")
struct AppStateSimulatorTests {
    @Test("Registration with the default policy: notRunning, Base-4 permissions, DD_OFF, no lock screen")
    func registration() {
        var app = SimulatedApp(policy: .sdlDefault)
        app.register(appID: "state-1")
        #expect(app.tracker.appState == .notRunning)
        #expect(app.events.contains(.appState(from: .disconnected, to: .notRunning)))
        #expect(app.tracker.language == "EN-US")
        #expect(app.tracker.capabilities["vehicleType"] != nil)
        #expect(app.tracker.permissions != nil)
        let show = Result { () throws(SDLClientError) in try app.tracker.preflight(function: "Show") }
        #expect(throws: SDLClientError.self) { try show.get() }
        let putFile = Result { () throws(SDLClientError) in try app.tracker.preflight(function: "PutFile") }
        #expect((try? putFile.get()) != nil)
        #expect(app.tracker.lockScreen == .off)
    }

    @Test("Activation, driver distraction and a lost link move appState and the lock screen")
    func activation() throws {
        var app = SimulatedApp(policy: .open)
        app.register(appID: "state-2")
        let ddOff = try app.unit.setDriverDistraction("DD_OFF", now: app.now)
        app.take(ddOff)
        app.events = []
        let full = try app.unit.setHMI(appID: "state-2", hmiLevel: "FULL", audioStreamingState: nil, systemContext: nil, now: app.now)
        app.take(full)
        #expect(app.tracker.appState == .active)
        #expect(app.events.contains(.appState(from: .notRunning, to: .active)))
        let ddOn = try app.unit.setDriverDistraction("DD_ON", now: app.now)
        app.take(ddOn)
        #expect(app.tracker.lockScreen == .required)
        let events = app.tracker.linkDown(now: app.now)
        #expect(events == [.appState(from: .active, to: .disconnected), .lockScreen(.off)])
    }
}
