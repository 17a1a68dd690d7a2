import NIOCore
import SDLProtocol
import SDLSpec
import Testing

@testable import HeadUnitSimulator

/// ``HeadUnit/nextDeadline`` reports every timed behaviour, and nothing when nothing is due: the
/// pure head unit on a hand-moved clock.
@Suite("Head unit: next deadline")
struct HeadUnitDeadlineTests {
    @Test("An idle head unit has no deadline, with or without an app, while no app subscribes to vehicle data")
    func idle() {
        var harness = HeadUnitHarness()
        harness.advance(by: .seconds(1))
        #expect(harness.unit.nextDeadline == nil)
        let connection = harness.open()
        _ = harness.register(on: connection)
        harness.advance(by: .seconds(1))
        #expect(harness.unit.nextDeadline == nil)
    }

    @Test("Heartbeat: the timeout after the last frame, then the timeout after the Heartbeat; none when disabled")
    func heartbeat() {
        for timeout in [TimeAmount.seconds(7), .zero] {
            var harness = HeadUnitHarness(HeadUnitConfiguration(heartbeatTimeout: timeout))
            let connection = harness.open()
            let (session, _) = harness.startSession(on: connection)
            #expect(harness.unit.nextDeadline == nil, "not monitored before the app's first Heartbeat")
            harness.send(
                SDLControlMessage.heartbeat.makeFrame(version: 5, serviceType: .control, sessionID: session, messageID: 9), on: connection)
            guard timeout > .zero else {
                #expect(harness.unit.nextDeadline == nil, "HeartBeatTimeout 0 disables the monitor")
                harness.advance(by: .seconds(60))
                #expect(harness.unit.sessions[session] != nil)
                continue
            }
            let received = harness.now
            #expect(harness.unit.nextDeadline == received + timeout)
            // Any frame from the app moves it.
            harness.now = received + .seconds(3)
            _ = harness.request("ListFiles", session: session, on: connection)
            #expect(harness.unit.nextDeadline == received + .seconds(3) + timeout)
            // Late by 2 s (a slow driver): the app still gets a whole timeout to answer.
            harness.now = received + .seconds(12)
            harness.apply(harness.unit.advance(to: harness.now))
            guard case .control(_, .heartbeat) = harness.received[connection]!.last! else { Issue.record("no Heartbeat"); continue }
            #expect(harness.unit.nextDeadline == received + .seconds(12) + timeout)
            harness.now = received + .seconds(19) - .nanoseconds(1)
            harness.apply(harness.unit.advance(to: harness.now))
            #expect(harness.unit.sessions[session] != nil)
            harness.now = received + .seconds(19)
            harness.apply(harness.unit.advance(to: harness.now))
            #expect(harness.unit.sessions[session] == nil)
            #expect(harness.unit.nextDeadline == nil)
        }
    }

    @Test("Reassembly: a First Frame waits 10 s for its Consecutive Frames, then is dropped")
    func reassembly() {
        var harness = HeadUnitHarness()
        let connection = harness.open()
        let (session, _) = harness.startSession(on: connection)
        var first = ByteBuffer()
        first.writeInteger(UInt32(5000), endianness: .big)
        first.writeInteger(UInt32(5), endianness: .big)
        let header = SDLFrameHeader(
            version: 5, frameType: .first, serviceType: .rpc, frameInfo: 0, sessionID: session, dataSize: 8, messageID: 3)
        harness.send(SDLFrame(header: header, payload: first), on: connection)
        let started = harness.now
        #expect(harness.unit.connections[connection]?.assembler.activeCount == 1)
        #expect(harness.unit.nextDeadline == started + .seconds(10))
        harness.advance(by: .seconds(10) - .nanoseconds(1))
        #expect(harness.unit.connections[connection]?.assembler.activeCount == 1)
        harness.advance(by: .nanoseconds(1))
        #expect(harness.unit.connections[connection]?.assembler.activeCount == 0)
        #expect(harness.unit.nextDeadline == nil)
    }

    @Test("Auto-activation, an Alert and a delayed response are deadlines")
    func timers() throws {
        var harness = HeadUnitHarness(HeadUnitConfiguration(autoActivate: true))
        let connection = harness.open()
        let (session, _) = harness.register(on: connection)
        #expect(harness.unit.nextDeadline == harness.now + .milliseconds(200))
        harness.advance(by: .milliseconds(200))
        #expect(harness.unit.apps[session]?.hmiLevel == "FULL")
        #expect(harness.unit.nextDeadline == nil)
        _ = harness.request("Alert", ["alertText1": "hi", "duration": 5000], session: session, on: connection)
        #expect(harness.unit.nextDeadline == harness.now + .seconds(5))
        try harness.unit.addFault(Fault(function: "Show", delay: .milliseconds(150)))
        _ = harness.request("Show", ["mainField1": "late"], session: session, on: connection)
        #expect(harness.unit.nextDeadline == harness.now + .milliseconds(150))
    }

    @Test("Vehicle data is a 10 Hz deadline only while an app is subscribed")
    func vehicleData() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        #expect(harness.unit.nextDeadline == nil)
        _ = harness.call("SubscribeVehicleData", ["speed": true], session: session, on: connection)
        let next = harness.unit.nextDeadline
        #expect(next != nil && next! <= harness.now + .milliseconds(100))
        harness.advance(by: .seconds(1))
        #expect(harness.unit.nextDeadline == harness.now + .milliseconds(100))
        _ = harness.call("UnsubscribeVehicleData", ["speed": true], session: session, on: connection)
        #expect(harness.unit.nextDeadline == nil)
    }

    @Test("Unwatched, the vehicle feed still moves: a request after a long quiet reads current values")
    func vehicleCatchUp() {
        var (harness, connection, session) = FileSuiteSupport.harness()
        let parked = harness.call("GetVehicleData", ["speed": true], session: session, on: connection)
        #expect(parked?.parameters["speed"]?.doubleValue == 0)
        // 30 s pass with no advance (the driver sleeps: nothing is due); the drive left PARK at 13.5 s.
        harness.now = harness.now + .seconds(30)
        let moving = harness.call("GetVehicleData", ["speed": true], session: session, on: connection)
        #expect((moving?.parameters["speed"]?.doubleValue ?? 0) > 0)
    }
}
